#!/usr/bin/env python3
"""Set-up and run, with nothing but Python 3.11 and pip.

    python3 tasks.py demo   # create .venv, install carromlab, run the main job
    python3 tasks.py test   # create .venv, install carromlab[dev], lint and run the tests
    python3 tasks.py heavy  # the heavy group: cases that repeat others at more cost (CI)
    python3 tasks.py docs   # the documentation site into build/site/ (warnings are errors;
                            # CARROMLAB_QUICK=1: the notebooks at their test sizes, as in CI)
    python3 tasks.py wheel  # sdist and wheel into build/dist/, the wheel tried in a fresh
                            # environment away from the repository (demo and API)

Each creates ``.venv`` beside this file the first time (and refresh the install when
pyproject.toml changes), so they work on a fresh machine.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def run(*args: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], cwd=cwd, check=True, env=env)


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


SITE = ROOT / "build" / "site"

#: What the installed wheel must do, run by its own Python from a folder away from the
#: repository: the curated API, a position, an estimate of a few shots, and the package's data
#: (searched breaks, learned screens, the explorer's page, the studies' ratings and costs).
WHEEL_CHECK = """
import importlib.resources as res, pathlib, sys
import carromlab as cl
here = pathlib.Path(cl.__file__).resolve()
assert "site-packages" in here.parts, here
pos = cl.standard_position("icf-midgame")
assert not pos.validate(), pos.validate()
shot = cl.Shot(x=-0.05, y=-0.2526, angle=1.15, speed=2.0)
table = cl.estimate(pos, shot, skill="club", n=64, seed=1)
assert len(table), table
games = res.files("carromlab.games")
for game in ("icf", "carroms", "carrooka"):
    for name in ("breaks.json", "screen.npz", "screen.json"):
        assert games.joinpath(game, name).is_file(), (game, name)
from carromlab.analysis.breaks import read_breaks
from carromlab.analysis.learned import screen_for
assert read_breaks("icf"), "no searched breaks"
net, spec, provenance = screen_for("icf")
assert provenance["game"] == "icf", provenance
from carromlab.explore.frontend import bundle
static = pathlib.Path(res.files("carromlab.explore").joinpath("static"))
assert "export" in bundle(static) and (static / "explorer.css").is_file()
for name in ("ratings.json", "costs.json"):
    assert res.files("carromlab.studies").joinpath(name).is_file(), name
from carromlab.position_schema import json_schema
assert json_schema()["type"] == "object"
print("the wheel's API and data: ok", cl.__version__, here.parent)
"""


def docs() -> None:
    """The documentation site into build/site/: the docs' pages, the notebooks executed (a
    notebook runs again only when its code changed: the cache is build/nb-cache; with
    CARROMLAB_QUICK=1, as CI builds it, at their tiny test sizes in build/nb-cache-quick),
    the API and command-line references written from the package, the gallery and the study
    reports. Every warning is an error (a broken link or reference, a notebook's failing
    cell); all of them are reported before it fails (docs/decisions.md, "The documentation
    site")."""
    ensure_env("docs")
    os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", str(ROOT / ".cache" / "jax"))
    os.environ.setdefault("CARROMLAB_CORES", "1")  # one device a kernel (tasks.py test)
    start = time.monotonic()
    run(
        BIN / "sphinx-build", "-b", "html", "-W", "--keep-going", "-n", "-q",
        "-c", "docs", "-d", ROOT / "build" / "site-doctrees", "docs", SITE, *sys.argv[2:],
    )  # fmt: skip
    print(f"site built in {time.monotonic() - start:.0f} s: {SITE / 'index.html'}", flush=True)


def wheel() -> None:
    """Build the sdist and, from it, the wheel (``python -m build``) into build/dist/; then
    install the wheel into a fresh environment in a temporary folder and, from there, run
    ``carromlab demo`` and the curated API on the package's own data (WHEEL_CHECK)."""
    ensure_env("")
    dist = ROOT / "build" / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    _install_into(PY, "build")
    run(PY, "-m", "build", "--outdir", dist)
    (wheel_file,) = dist.glob("carromlab-*.whl")
    with tempfile.TemporaryDirectory(prefix="carromlab-wheel-") as tmp:
        env_dir = Path(tmp) / "env"
        venv.EnvBuilder(with_pip=True).create(env_dir)
        py = env_dir / BIN.name / PY.name
        _install_into(py, wheel_file)
        # away from the repository: nothing of the source tree on the path
        clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        run(env_dir / BIN.name / "carromlab", "version", cwd=Path(tmp), env=clean)
        run(
            env_dir / BIN.name / "carromlab", "demo", "--out", Path(tmp) / "demo",
            cwd=Path(tmp), env=clean,
        )  # fmt: skip
        made = sorted(p.name for p in (Path(tmp) / "demo").iterdir())
        print("demo wrote:", ", ".join(made), flush=True)
        run(py, "-c", WHEEL_CHECK, cwd=Path(tmp), env=clean)


def _install_into(python: Path, target: str | Path) -> None:
    """``target`` into the environment of ``python``: with uv when it can (fast, cached),
    else with pip."""
    try:
        run(BIN / "uv", "pip", "install", "--quiet", "--python", python, target)
    except (subprocess.CalledProcessError, OSError):
        print("uv could not install it; pip does", flush=True)
        run(python, "-m", "pip", "install", "--quiet", target)


if __name__ == "__main__":
    commands = {"demo": demo, "test": test, "heavy": heavy, "docs": docs, "wheel": wheel}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: python3 tasks.py {{{'|'.join(commands)}}}")
    try:
        commands[sys.argv[1]]()
    except subprocess.CalledProcessError as e:
        sys.exit(e.returncode)
