"""Load a script of ``experiments/`` as a module, for tests: ``load_experiment(name)``."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_experiment(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "experiments" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
