"""The typed contract holds: mypy in strict mode passes on the modules that pyproject.toml's
strict list names (the registry, the shared rules, the game loop), and on the toy game of
tests/toy_game.py, a game written against that contract from outside the package.

The strict list is one ``module`` list in ``[tool.mypy]`` (the override that sets the strict
flags); this test takes mypy's targets from it, so a module is checked strictly by adding its
pattern there."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOY = "tests/toy_game.py"

#: Every flag of ``mypy --strict`` that may be set per module (the others are global in
#: pyproject.toml: warn_unused_configs, warn_redundant_casts).
STRICT_FLAGS = (
    "disallow_any_generics",
    "disallow_subclassing_any",
    "disallow_untyped_calls",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "check_untyped_defs",
    "disallow_untyped_decorators",
    "warn_unused_ignores",
    "warn_return_any",
    "no_implicit_reexport",
    "strict_equality",
    "extra_checks",
)


def _mypy_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def strict_override() -> dict:
    """The ``[[tool.mypy.overrides]]`` entry that sets the strict flags (exactly one)."""
    found = [o for o in _mypy_config().get("overrides", []) if o.get("disallow_untyped_defs")]
    assert len(found) == 1, f"one strict override expected, found {len(found)}"
    return found[0]


def strict_modules() -> list[str]:
    modules = strict_override()["module"]
    return [modules] if isinstance(modules, str) else list(modules)


def targets(patterns: list[str]) -> list[str]:
    """mypy's targets (paths, so that the toy game's file can join them) for module
    patterns: ``a.b.*`` -> the folder ``a/b`` (the package and everything in it), ``a.b`` ->
    ``a/b.py`` (or ``a/b/__init__.py``, a package on its own)."""
    out: list[str] = []
    for pattern in patterns:
        path = Path(*pattern.removesuffix(".*").split("."))
        if pattern.endswith(".*"):
            out.append(str(path))
        elif (ROOT / path).with_suffix(".py").exists():
            out.append(str(path.with_suffix(".py")))
        else:
            out.append(str(path / "__init__.py"))
    return out


def test_the_strict_override_sets_every_strict_flag():
    override = strict_override()
    assert {f: override.get(f) for f in STRICT_FLAGS} == dict.fromkeys(STRICT_FLAGS, True)
    config = _mypy_config()
    assert config.get("warn_unused_configs") and config.get("warn_redundant_casts")
    assert {"carromlab.registry", "carromlab.rules.*", "carromlab.play.*"} <= set(strict_modules())


def test_targets_from_patterns():
    assert targets(["carromlab.registry", "carromlab.rules.*", "carromlab.games.icf"]) == [
        "carromlab/registry.py",
        "carromlab/rules",
        "carromlab/games/icf/__init__.py",
    ]
    assert all((ROOT / t).exists() for t in targets(strict_modules()))


def test_mypy_strict_passes():
    """One mypy run over the strict list and the toy game (strict by its inline
    configuration); fails with mypy's report."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "mypy", *targets(strict_modules()), TOY]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    report = (run.stdout + run.stderr)[-8000:]
    assert run.returncode == 0, f"{' '.join(command[1:])}\n{report}"
    assert "Success: no issues found" in run.stdout, report
