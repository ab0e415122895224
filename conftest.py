"""Root conftest: the notebooks (run by nbmake) use tiny sample sizes under the test suite,
and an xdist worker's teardown cannot be interrupted by its own transport.

The notebooks read ``CARROMLAB_QUICK``; the kernel nbmake starts inherits this process's
environment, so setting it here (at collection, in every xdist worker) reaches the kernel.
Set ``CARROMLAB_QUICK=0`` to run them at full size.

``pytest -n 2`` (``tasks.py test``) runs the tests in execnet workers. When the controller
closes a worker, execnet gives the worker's session 5 s to finish and then sends the worker
a SIGINT of its own (execnet/gateway_base.py, ``_terminate_execution``: "sending ourselves a
SIGINT"). A worker whose teardown is slower than that (its last garbage collections, JAX and
the notebooks' kernels on a busy 2-core machine) got a KeyboardInterrupt wherever it was: in
the run that ended "686 passed" it landed in hypothesis's gc callback and pytest reported a
PytestUnraisableExceptionWarning, though no one pressed Ctrl-C and every test had passed. So
a worker ignores SIGINT once its tests are over (execnet still ends it 10 s later with
``os._exit`` if it hangs); the controller, which handles Ctrl-C, is untouched.

The test run's compiled kernel programs, counted across every process.

The controlling pytest process points ``CARROMLAB_PROGRAM_LOG`` at a fresh file before the
workers start; every process of the run (the workers, the command-line subprocesses, the
notebooks' kernels) appends one JSON line per kernel program it uses
(:mod:`carromlab.physics.programs`). The run ends with their count: distinct programs (one key
each: kernel, static choices, shapes), how many XLA compiled and how many came from the
compilation cache, by kind and board. The suite's budget is 40 distinct programs
(docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
from collections import Counter
from pathlib import Path

import pytest

os.environ.setdefault("CARROMLAB_QUICK", "1")

LOG_ENV = "CARROMLAB_PROGRAM_LOG"  # carromlab.physics.programs.LOG_ENV (no JAX import here)
PROGRAM_BUDGET = 40


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config):
    if hasattr(config, "workerinput"):  # an xdist worker, its tests done and reported
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def pytest_collection_modifyitems(config, items):
    """The notebooks (run by nbmake) belong to the heavy group (``python3 tasks.py heavy``):
    each runs the library end to end in a kernel of its own, as the tests do piece by piece."""
    for item in items:
        if str(item.path).endswith(".ipynb"):
            item.add_marker(pytest.mark.heavy)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "heavy: a case that repeats what a faster test checks, at more cost (float64 twins, "
        "more devices, other boards, the notebooks); run by `python3 tasks.py heavy` and CI",
    )
    if hasattr(config, "workerinput"):  # an xdist worker: the controller set the file
        return
    if os.environ.get(LOG_ENV):  # the caller's own log: counted, and kept
        config._program_log, config._keep_log = Path(os.environ[LOG_ENV]), True
        return
    fd, path = tempfile.mkstemp(prefix="carromlab-programs-", suffix=".jsonl")
    os.close(fd)
    os.environ[LOG_ENV] = path
    config._program_log, config._keep_log = Path(path), False


def read_programs(path: Path) -> list[dict]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue  # a line cut short by a killed process
    return rows


def pytest_terminal_summary(terminalreporter, config):
    path = getattr(config, "_program_log", None)
    if path is None or not path.exists():
        return
    rows = read_programs(path)
    by_key: dict[str, dict] = {}
    compiled: set[str] = set()
    for r in rows:
        by_key.setdefault(r["key"], r)
        if r.get("compiled"):
            compiled.add(r["key"])
    kinds = Counter(
        f"{r['kind']} {r['why'].get('board', '')} discs {r['why'].get('discs', '-')}"
        for r in by_key.values()
    )
    seconds = sum(r.get("compile_seconds", 0.0) for r in rows if r.get("compiled"))
    tr = terminalreporter
    tr.write_sep("-", "kernel programs")
    tr.write_line(
        f"distinct kernel programs used by the run: {len(by_key)} (budget {PROGRAM_BUDGET}); "
        f"compiled by XLA here: {len(compiled)} ({seconds:.0f} s in all processes), "
        f"the rest read from the compilation cache"
    )
    for what, n in kinds.most_common():
        tr.write_line(f"  {n:3d}  {what}")
    if not config._keep_log:
        path.unlink(missing_ok=True)
