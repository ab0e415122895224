#!/usr/bin/env python3
"""Set-up and run, with nothing but Python 3.11 and pip.

    python3 tasks.py demo   # create .venv, install carromlab, run the main job
    python3 tasks.py test   # create .venv, install carromlab[dev], lint and run the tests
    python3 tasks.py heavy  # the heavy group: cases that repeat others at more cost (CI)

Both create ``.venv`` beside this file the first time (and refresh the install when
pyproject.toml changes), so they work on a fresh machine.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def run(*args: str | Path) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], cwd=ROOT, check=True)


def ensure_env(extras: str) -> None:
    if not PY.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
        run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    stamp = VENV / f".installed-{extras or 'base'}"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not stamp.exists() or stamp.read_text() != digest:
        install(f".[{extras}]" if extras else ".")
        stamp.write_text(digest)


def install(target: str) -> None:
    """``target`` into the environment with uv (it fetches, unpacks and compiles packages in
    parallel: about 17 s against pip's 47 s on a 2-core machine, docs/benchmarks.md), else
    with pip when uv cannot be had or fails (an index only pip is configured for, say). Both
    compile the packages' modules to bytecode ahead: where ``PYTHONDONTWRITEBYTECODE`` is set,
    Python never writes them itself, and every process of the tests would compile every
    module it imports from source again (a warm test run took 282 s instead of 195 s)."""
    try:
        run(PY, "-m", "pip", "install", "--quiet", "uv")
        run(
            BIN / "uv", "pip", "install", "--quiet", "--compile-bytecode", "--python", PY,
            "-e", target,
        )  # fmt: skip
    except (subprocess.CalledProcessError, OSError):
        print("uv could not install the environment; pip does", flush=True)
        run(PY, "-m", "pip", "install", "--quiet", "-e", target)


def demo() -> None:
    ensure_env("")
    out = ROOT / "out" / "demo"
    run(BIN / "carromlab", "demo", "--out", out)


def _pytest(*args: str) -> None:
    ensure_env("dev")
    # One compilation cache for the run: the test processes (two workers, the command-line
    # subprocesses, the notebooks' kernels) compile many of the same kernels; a stale entry
    # is never used (carromlab/compile_cache.py, carromlab/physics/programs.py).
    os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", str(ROOT / ".cache" / "jax"))
    # The two test workers already keep both cores busy, and every extra CPU device compiles
    # its own copy of each kernel: one device a process (tests/test_devices.py starts
    # processes with more).
    os.environ.setdefault("CARROMLAB_CORES", "1")
    # --durations: every run ends with its slowest tests; conftest.py ends it with the count
    # of distinct kernel programs it compiled (the budgets: docs/benchmarks.md)
    # --dist worksteal: a worker that runs out of tests takes some of the other's, so neither
    # idles while the other finishes a long queue
    run(
        PY,
        "-m",
        "pytest",
        "-n",
        "2",
        "--dist",
        "worksteal",
        "-q",
        "--durations=15",
        *args,
        *sys.argv[2:],
    )


def test() -> None:
    """Lint, then every test but the heavy group (budget: 8 minutes on a quiet 2-core machine
    from a fresh clone, 4 with the compilation cache filled)."""
    ensure_env("dev")
    run(BIN / "ruff", "check", ".")
    run(BIN / "ruff", "format", "--check", ".")
    _pytest("-m", "not heavy", "tests")


def heavy() -> None:
    """The heavy group: the notebooks run end to end and the test cases marked ``heavy``
    (each repeats what a faster test checks, at more cost: float64 twins, more devices,
    other boards). CI runs it after the tests (.ci/run)."""
    _pytest("-m", "heavy", "tests", "notebooks", "--nbmake")


if __name__ == "__main__":
    commands = {"demo": demo, "test": test, "heavy": heavy}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: python3 tasks.py {{{'|'.join(commands)}}}")
    try:
        commands[sys.argv[1]]()
    except subprocess.CalledProcessError as e:
        sys.exit(e.returncode)
