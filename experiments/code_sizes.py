"""The code-size figures of docs/ARCHITECTURE.md ("Sizes") for a carromlab tree, as JSON.

    python experiments/code_sizes.py .            # this tree
    git worktree add /tmp/old 97610fc && python experiments/code_sizes.py /tmp/old
    python experiments/code_sizes.py --write      # the "Sizes today" table of ARCHITECTURE.md
    python experiments/code_sizes.py --check      # exit 1 if that table is not this tree's

The "Sizes today" table sits between two markers in docs/ARCHITECTURE.md; a test
(tests/test_architecture.py) keeps it in step with the tree, so the sizes the page states are
the tree's.

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


START = "<!-- sizes today: written by experiments/code_sizes.py --write -->"
END = "<!-- end of sizes today -->"
#: Module and function sizes above which the package's code is listed (docs/ARCHITECTURE.md).
MODULE_LINES, FUNCTION_LINES = 600, 80

#: The modules and functions kept over those sizes on purpose, each with its reason (paths
#: below ``carromlab/``; a function as ``module:name``). The table lists them with the reason;
#: any other over the sizes is a candidate to split. A name here that is no longer over its
#: size is left out of the table.
EXEMPT = {
    "physics/reference.py": (
        "the float64 reference simulator that the kernel is checked against, one "
        "self-contained, readable module"
    ),
    "physics/reference.py:_find_event": "the reference's event search, read as one piece",
    "physics/reference.py:_resolve": "the reference's contact resolution, read as one piece",
    "physics/reference.py:__init__": "the reference's set-up, read as one piece",
    "bench/pymunk_peer.py:simulate_pymunk": (
        "the pymunk peer model, kept whole so that it reads as the other engine's own account"
    ),
    "registry.py": (
        "the Game description, whose docstring documents every field, and the part "
        "resolution that tests/test_architecture.py pins to this module; what a game declares "
        "besides its parts is rules/declaration.py"
    ),
    "analysis/best.py:best_shots": (
        "the curated search for the best shots: a third of it is its signature, the search's "
        "keyword options each documented in its docstring; its steps are named functions"
    ),
    "games/icf/rules.py:evaluate_icf": (
        "the ICF laws over a batch of strokes: its clauses are named steps (_touched, _queen, "
        "_board_end); what stays is the batch's checks and the one table of outcome columns "
        "the laws define"
    ),
    "play/log.py": (
        "read and written without JAX, as tests/test_game_log.py checks by loading it alone; "
        "a module beside it under carromlab/play/ would load the game loop through the package"
    ),
}


def over(root: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The package's modules over :data:`MODULE_LINES` lines and functions over
    :data:`FUNCTION_LINES`, largest first."""
    mods, funcs = [], []
    for f in sorted((root / "carromlab").rglob("*.py")):
        text = f.read_text()
        name = str(f.relative_to(root / "carromlab"))
        if len(text.splitlines()) > MODULE_LINES:
            mods.append((len(text.splitlines()), name))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = node.end_lineno - node.lineno + 1
                if size > FUNCTION_LINES:
                    funcs.append((size, f"{name}:{node.name}"))
    return sorted(mods, reverse=True), sorted(funcs, reverse=True)


def table(root: Path) -> str:
    """The "Sizes today" table (Markdown, lines within 100 columns). Sizes are rounded (lines
    to the thousand, a module or function to ten) and the lists give names, so that the table
    changes when the code's shape does, not with every line."""
    s = sizes(root)
    mods, funcs = over(root)
    k_mod, k_fun = s["kernel_largest_module"], s["kernel_largest_function"]

    def tens(n: int) -> str:
        return f"about {round(n, -1)}"

    rows = [
        ("package", f"{s['files']} files, about {round(s['lines'], -3):,} lines"),
        (f"modules over {MODULE_LINES} lines", _count(mods)),
        (f"functions over {FUNCTION_LINES} lines", _count(funcs)),
        ("the kernel's largest module", f"`{k_mod[1].split('carromlab/')[-1]}`, {tens(k_mod[0])}"),
        ("the kernel's largest function",
         f"`{k_fun[1].split('carromlab/')[-1]}`, {tens(k_fun[0])}"),
    ]  # fmt: skip
    out = ["| | today |", "|---|---|"] + [f"| {a} | {b} |" for a, b in rows]
    out += ["", f"Modules over {MODULE_LINES} lines, largest first:", ""]
    out += [_item(name) for _, name in mods] or ["- none"]
    out += ["", f"Functions over {FUNCTION_LINES} lines, longest first:", ""]
    out += [_item(name) for _, name in funcs] or ["- none"]
    return "\n".join(out) + "\n"


def _item(name: str) -> str:
    """A list item: the name, and where it is kept on purpose, ``kept:`` and its reason
    (wrapped within 100 columns)."""
    import textwrap

    if name not in EXEMPT:
        return f"- `{name}`"
    text = f"- `{name}` (kept: {EXEMPT[name]})"
    return "\n".join(textwrap.wrap(text, 100, subsequent_indent="  ", break_on_hyphens=False))


def _count(items: list[tuple[int, str]]) -> str:
    kept = sum(1 for _, name in items if name in EXEMPT)
    return f"{len(items)} ({kept} kept with a reason)" if kept else f"{len(items)}"


def page_with(page: str, body: str) -> str:
    a, b = page.index(START) + len(START), page.index(END)
    return page[:a] + "\n\n" + body + "\n" + page[b:]


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    arch = root / "docs" / "ARCHITECTURE.md"
    if sys.argv[1:] in (["--write"], ["--check"]):
        page = arch.read_text()
        new = page_with(page, table(root))
        if sys.argv[1] == "--check":
            print(
                "docs/ARCHITECTURE.md's sizes are " + ("current" if new == page else "out of date")
            )
            sys.exit(0 if new == page else 1)
        arch.write_text(new)
        print("wrote docs/ARCHITECTURE.md's sizes")
    else:
        print(json.dumps(sizes(Path(sys.argv[1] if len(sys.argv) > 1 else ".")), indent=1))
