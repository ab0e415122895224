"""The package's structure holds: the import-linter contracts of pyproject.toml (layers, one
home per game, no cycles between sibling packages), no import cycle between any two
modules, and no import of a carromlab module by name at run time (which the contracts cannot
see) but the registry's discovery of the built-in games and the curated API's lazy names."""

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_hold():
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10_000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph.modules):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_between_modules():
    """Any two modules that import each other (directly or through others) would make the
    layers meaningless; the package's root (the curated API, loaded lazily) is left out."""
    graph = grimp.build_graph("carromlab", exclude_type_checking_imports=True)
    graph.remove_module("carromlab")
    assert _cycles(graph) == []


def test_no_loop_module_names_a_game():
    """The game loop, the log and the analysis layer find games in the registry only."""
    graph = grimp.build_graph("carromlab", exclude_type_checking_imports=True)
    for m in graph.modules:
        if m.startswith(("carromlab.play", "carromlab.analysis", "carromlab.registry")):
            named = graph.find_modules_directly_imported_by(m)
            assert not [n for n in named if n.startswith("carromlab.games")], m


def test_the_games_satisfy_the_declared_interfaces():
    """mypy checks tests/typecheck/contracts.py: every built-in machine is a GameMachine, every
    player a Player, every driver a Driver (structural types: a wrong signature fails)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--follow-imports=silent",
            "--ignore-missing-imports",
            "--no-incremental",
            "tests/typecheck/contracts.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


# ---------------------------------------------------------------------- dynamic imports

PACKAGE = ROOT / "carromlab"

#: The only imports of carromlab modules by name at run time (``importlib.import_module``,
#: ``__import__``), by (module, function), each with its reason. Any other is an import the
#: import-linter contracts cannot see, so a layer could reach up through it unnoticed.
ALLOWED_DYNAMIC_IMPORTS = {
    ("carromlab.registry", "builtin_modules"): (
        "the registry lists the built-in game folders: it imports the games package to find "
        "its sub-packages on disk"
    ),
    ("carromlab.registry", "_load_builtin"): (
        "the registry's discovery of the built-in games: each folder found is imported so that "
        "it registers its Game, the way a plug-in is loaded (the games sit above the registry)"
    ),
    ("carromlab.registry", "resolve"): (
        "a game's part named by its dotted path (registry.Part), imported on first use; "
        "tests/test_game_folders.py checks that a built-in game's paths reach only its own "
        "folder and the layers below the games"
    ),
    ("carromlab", "__getattr__"): (
        "the curated API (import carromlab as cl) loads each name's module on first use; the "
        "root package sits above every layer and the layer contracts leave it out"
    ),
}

_IMPORTERS = {"import_module", "__import__"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _names_carromlab(call: ast.Call) -> bool:
    """Whether an import call may name a carromlab module: a literal that is one (or a
    relative name), or any name computed at run time."""
    if not call.args:
        return True
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value.startswith((".", "carromlab"))
    return True


def dynamic_imports(source: str, module: str) -> list[tuple[str, str, int]]:
    """``(module, enclosing function, line)`` of every run-time import in ``source`` that
    names, or may name, a carromlab module."""
    found = []

    def visit(node, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = child.name
            if isinstance(child, ast.Call):
                f = child.func
                called = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
                if called in _IMPORTERS and _names_carromlab(child):
                    found.append((module, where, child.lineno))
            visit(child, name)

    visit(ast.parse(source), "<module>")
    return found


def test_the_dynamic_import_check_finds_them():
    src = (
        "import importlib\nfrom importlib import import_module\n"
        "def hook(name):\n    importlib.import_module('carromlab.registry')\n"
        "    import_module(name)\n    __import__('carromlab.games.icf')\n"
        "    importlib.import_module('.x', 'carromlab')\n"
        "importlib.import_module('pymunk')\n"
    )
    assert [(f, line) for _, f, line in dynamic_imports(src, "m")] == [
        ("hook", 4),
        ("hook", 5),
        ("hook", 6),
        ("hook", 7),
    ]


def test_no_module_imports_a_carromlab_module_by_name():
    """Parsed with ``ast``: no ``importlib.import_module(...)`` or ``__import__(...)`` of a
    carromlab module anywhere in the package but the allowed ones (each with its reason);
    and each allowed one is still there (the list does not outlive its reason)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += dynamic_imports(path.read_text(encoding="utf-8"), _module_name(path))
    used = {(m, f) for m, f, _ in found}
    stray = [
        f"{m}.{f} (line {line})" for m, f, line in found if (m, f) not in ALLOWED_DYNAMIC_IMPORTS
    ]
    assert stray == [], "imports by name that the layer contracts cannot see: " + ", ".join(stray)
    assert set(ALLOWED_DYNAMIC_IMPORTS) <= used, set(ALLOWED_DYNAMIC_IMPORTS) - used


def test_the_architecture_page_states_the_trees_sizes():
    """docs/ARCHITECTURE.md's "Sizes today" is the tree's (experiments/code_sizes.py --write):
    a module grown past 600 lines or a function past 80 shows on the page."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, str(root / "experiments" / "code_sizes.py"),
                           "--check"], capture_output=True, text=True, cwd=root)  # fmt: skip
    assert done.returncode == 0, "run: python experiments/code_sizes.py --write"
