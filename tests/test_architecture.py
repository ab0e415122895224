"""The package's structure holds: the import-linter contracts of pyproject.toml (layers, one
home per game, no cycles between sibling packages) and no import cycle between any two
modules."""

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
