"""Load a script of ``experiments/`` as a module, for tests: ``load_experiment(name)``."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_experiment(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "experiments" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses in the script look their module up
    spec.loader.exec_module(mod)
    return mod
