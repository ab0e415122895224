#!/usr/bin/env python3
"""Set-up and run, with nothing but Python 3.11 and pip.

    python3 tasks.py demo   # create .venv, install carromlab, run the main job
    python3 tasks.py test   # create .venv, install carromlab[dev], lint and run the tests

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
        target = f".[{extras}]" if extras else "."
        run(PY, "-m", "pip", "install", "--quiet", "-e", target)
        stamp.write_text(digest)


def demo() -> None:
    ensure_env("")
    out = ROOT / "out" / "demo"
    run(BIN / "carromlab", "demo", "--out", out)


def test() -> None:
    ensure_env("dev")
    # One compilation cache for the run: the test processes (two workers, the command-line
    # subprocesses) compile many of the same kernels; JAX keys each entry by its program and
    # versions, so a stale entry is never used.
    os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", str(ROOT / ".cache" / "jax"))
    # The two test workers already keep both cores busy, and every extra CPU device compiles
    # its own copy of each kernel: one device a process (tests/test_devices.py starts
    # processes with more).
    os.environ.setdefault("CARROMLAB_CORES", "1")
    run(BIN / "ruff", "check", ".")
    run(BIN / "ruff", "format", "--check", ".")
    # --durations: every run ends with its slowest tests (the suite's 10-minute budget)
    run(
        PY,
        "-m",
        "pytest",
        "-n",
        "2",
        "-q",
        "--durations=15",
        "tests",
        "notebooks",
        "--nbmake",
        *sys.argv[2:],
    )


if __name__ == "__main__":
    commands = {"demo": demo, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: python3 tasks.py {{{'|'.join(commands)}}}")
    try:
        commands[sys.argv[1]]()
    except subprocess.CalledProcessError as e:
        sys.exit(e.returncode)
