"""The code-size figures of docs/ARCHITECTURE.md ("Sizes") for a carromlab tree, as JSON.

    python experiments/code_sizes.py .            # this tree
    git worktree add /tmp/old 97610fc && python experiments/code_sizes.py /tmp/old

Files and lines of the package, the largest files and functions, how many functions run over
80 lines, ``Any`` in the registry and the rules' interfaces, and the kernel's largest module
and function (``physics/kernel/``, or the former ``physics/simulate.py``). The ``duplicates``
pairs are counted by that tool (``duplicates --most 200``), not here.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path


def sizes(root: Path) -> dict:
    files = sorted((root / "carromlab").rglob("*.py"))
    lines = {str(f.relative_to(root)): len(f.read_text().splitlines()) for f in files}
    funcs = []
    for f in files:
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = node.end_lineno - node.lineno + 1
                funcs.append((size, f"{f.relative_to(root)}:{node.name}"))
    funcs.sort(reverse=True)

    def anys(path: str) -> int | None:
        p = root / path
        return len(re.findall(r"\bAny\b", p.read_text())) if p.exists() else None

    def in_kernel(name: str) -> bool:
        return "physics/kernel" in name or name.endswith("physics/simulate.py")

    kernel = [(n, name) for name, n in lines.items() if in_kernel(name)]
    return {
        "files": len(files),
        "lines": sum(lines.values()),
        "largest_files": sorted(lines.items(), key=lambda kv: -kv[1])[:3],
        "largest_functions": funcs[:5],
        "functions_over_80": sum(1 for n, _ in funcs if n > 80),
        "any_registry": anys("carromlab/registry.py"),
        "any_interfaces": anys("carromlab/rules/interfaces.py"),
        "kernel_largest_module": max(kernel),
        "kernel_largest_function": next(f for f in funcs if in_kernel(f[1].split(":")[0])),
    }


if __name__ == "__main__":
    print(json.dumps(sizes(Path(sys.argv[1] if len(sys.argv) > 1 else ".")), indent=1))
