"""Ctrl-C on the command line (carromlab/interrupt.py, carromlab/entry.py): in every phase
(the imports, a kernel compiling, a shot map running) the process ends with exit code 130 and
one line on stderr, never a traceback nor an "Exception ignored" block, and a shot map keeps
its finished cells.

The subprocesses get a real SIGINT, as a terminal sends it. They start with an empty
compilation cache, so that the kernel is compiling when the signal comes; each waits for
something the process did (a library loaded, the progress bar shown, a block of cells
written), never for a time. Their timeouts only keep a broken run from hanging the suite.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("carromlab")  # the console script of this venv
MODULE = [sys.executable, "-m", "carromlab"]
ESTIMATE = ["estimate", "--position", "icf-midgame", "--placement", "-0.05", "--angle", "65.9"]
ESTIMATE += ["--speed", "2", "--n", "2000"]

#: Long enough for the slowest machine to start, import and compile; only against hanging.
HANG_S = 600

#: A frame of a tqdm progress bar ("estimate:  0%|   | 0.00/2.00k [00:00<?, ?shot/s]").
BAR = re.compile(r"^\s*[\w ]+:\s+\d+%\|")

posix_only = pytest.mark.skipif(os.name != "posix", reason="SIGINT as a terminal sends it")


def _env(cores: int = 1, cache: bool = False) -> dict:
    """The child's environment; without ``cache``, no compilation cache: the kernel compiles
    (what the tests of Ctrl-C during a compile need); with it, the test run's own."""
    env = dict(os.environ, CARROMLAB_CORES=str(cores))
    if not cache:
        env["CARROMLAB_CACHE_DIR"] = "off"
        env.pop("JAX_COMPILATION_CACHE_DIR", None)  # an empty cache: the kernel compiles
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


@contextlib.contextmanager
def _as_a_terminal_starts_it():
    """Start a child as a shell starts a command in the foreground: SIGINT handled (not
    ignored: an ignored signal stays ignored across exec) and not blocked (the mask is
    inherited). A test worker's own state may be either after other tests, and the command
    would then, rightly, ignore Ctrl-C as a background job does."""
    if os.name != "posix":
        yield
        return
    handler = signal.getsignal(signal.SIGINT)
    if handler is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if handler is signal.SIG_IGN:
            signal.signal(signal.SIGINT, handler)


class Run:
    """A command line in a subprocess, its stderr read as it comes."""

    def __init__(self, args: list[str], env: dict, cwd: Path):
        with _as_a_terminal_starts_it():
            self.proc = subprocess.Popen(
                args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        self._err: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for block in iter(lambda: self.proc.stderr.read1(4096), b""):
            self._err.append(block)

    @property
    def stderr(self) -> str:
        return b"".join(list(self._err)).decode(errors="replace")

    def wait_for(self, done, what: str) -> None:
        """Until ``done()`` holds, looked at every few milliseconds (the process still
        running; :data:`HANG_S` at most)."""
        give_up = time.monotonic() + HANG_S
        while not done() and self.proc.poll() is None and time.monotonic() < give_up:
            time.sleep(0.005)
        assert done() and self.proc.poll() is None, f"ended before {what}:\n{self.stderr}"

    def interrupt(self) -> tuple[int, str, str]:
        """Ctrl-C; the exit code, stdout and stderr."""
        self.proc.send_signal(signal.SIGINT)
        try:
            out = self.proc.stdout.read()
            code = self.proc.wait(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        self._reader.join(timeout=HANG_S)
        return code, out.decode(errors="replace"), self.stderr


def said(err: str) -> list[str]:
    """The lines on stderr, less the empty ones and the progress bars' frames (a bar redraws
    itself after carriage returns)."""
    frames = (f for line in err.split("\n") for f in line.split("\r"))
    return [f for f in frames if f.strip() and not BAR.match(f)]


def assert_one_line(code: int, err: str) -> str:
    assert code == 130, (code, err)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    lines = said(err)
    assert len(lines) == 1, err
    assert lines[0].startswith("interrupted"), err
    return lines[0]


def _has_loaded(pid: int, library: str) -> bool:
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


@posix_only
@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/PID/maps")
@pytest.mark.parametrize("launch", ["script", "module"])
def test_ctrl_c_while_importing_says_one_line_and_exits_130(launch, tmp_path):
    """Ctrl-C as soon as the command line imports its libraries (numpy's compiled core
    mapped in: the entry point's handling is in place, the imports are going on)."""
    args = [str(SCRIPT)] if launch == "script" else list(MODULE)
    run = Run([*args, *ESTIMATE], _env(), tmp_path)
    run.wait_for(lambda: _has_loaded(run.proc.pid, "_multiarray_umath"), "numpy loads")
    code, out, err = run.interrupt()
    assert_one_line(code, err)
    assert out == ""


@posix_only
@pytest.mark.parametrize(
    "launch, cores",
    [("module", 1), ("script", 2)],
    ids=["compiling-on-the-main-thread", "compiling-on-worker-threads"],
)
def test_ctrl_c_while_the_kernel_compiles_ends_the_command(launch, cores, tmp_path):
    """Ctrl-C once the progress bar shows (the first chunk, so the kernel, is on its way):
    the command ends there, without its results (it used to run on to the end after an
    "Exception ignored ... KeyboardInterrupt" from JAX's gc callback). One core: the compile
    runs on the main thread; two: on the devices' worker threads, the main thread waiting."""
    args = [str(SCRIPT)] if launch == "script" else list(MODULE)
    run = Run([*args, *ESTIMATE], _env(cores), tmp_path)
    run.wait_for(lambda: "estimate:" in run.stderr, "the progress bar")
    code, out, err = run.interrupt()
    assert_one_line(code, err)
    assert out == ""  # no table: the estimate did not run on


@posix_only
def test_ctrl_c_during_a_shot_map_keeps_its_finished_cells(tmp_path):
    """A shot map interrupted after its first block: exit 130, the line says how many cells
    are kept and where, and they are there for the rerun (tests/test_shotmap_resume.py)."""
    import pandas as pd

    out = tmp_path / "map"
    partial = out / "shotmap.partial"
    grid = ["--placements=-0.1:0.1:11", "--angles", "50:130:81", "--speeds", "2"]  # 891 cells
    args = [*MODULE, "shotmap", "--position", "icf-midgame", *grid, "--n", "8", "--chunk", "16"]
    # (the run's compilation cache: this test is about the blocks, not the compile)
    run = Run([*args, "--out", str(out)], _env(cache=True), tmp_path)
    run.wait_for(lambda: any(partial.glob("cells-*.parquet")), "its first block")
    code, _, err = run.interrupt()
    line = assert_one_line(code, err)
    m = re.fullmatch(
        r"interrupted: (\d+) of ([\d,]+) cells kept in (.+); rerun the same command to resume",
        line,
    )
    assert m, line
    assert Path(m[3]) == partial
    kept = pd.concat(pd.read_parquet(p) for p in sorted(partial.glob("cells-*.parquet")))
    assert len(kept) == int(m[1]) > 0
    assert (partial / "config.json").exists()
    assert not (out / "shotmap.parquet").exists()


# ------------------------------------------- the watcher: a main thread that does not see it

#: A process with the console script's handling (carromlab/interrupt.py) whose main thread
#: never returns from Ctrl-C: ``swallowed``, it runs in a garbage-collection callback that
#: swallows it (as JAX's did); ``blind``, it never sees the signal (a compile holds the main
#: thread in C++: here the signal is blocked in it).
WATCHED = """
import gc, signal, sys, time
from carromlab import interrupt

interrupt.install()
interrupt.running()
if sys.argv[1] == "swallowed":
    gc.callbacks.append(lambda phase, info: time.sleep(0.01))
    print("ready", file=sys.stderr, flush=True)
    while True:
        try:
            gc.collect()
        except KeyboardInterrupt:  # (where it lands outside the callback) swallowed too
            pass
else:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    print("ready", file=sys.stderr, flush=True)
    time.sleep(HANG)
""".replace("HANG", str(HANG_S))


@posix_only
@pytest.mark.parametrize("how", ["swallowed", "blind"])
def test_the_watcher_ends_a_process_whose_main_thread_misses_ctrl_c(how, tmp_path):
    run = Run([sys.executable, "-c", WATCHED, how], _env(), tmp_path)
    run.wait_for(lambda: "ready" in run.stderr, "ready")
    code, _, err = run.interrupt()
    assert_one_line(code, err.replace("ready\n", "", 1))


# ------------------------------------------------------------------------------ in-process


def test_the_api_main_turns_ctrl_c_into_one_line_and_130(capsys, monkeypatch):
    """``carromlab.cli.main`` (what the tests call): Ctrl-C in a command (click's Abort)
    prints ``interrupted`` and exits 130, no longer ``aborted`` and 1."""
    import rich.console

    from carromlab.cli import main

    def ctrl_c(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(rich.console.Console, "print", ctrl_c)
    with pytest.raises(SystemExit) as e:
        main(["games"])
    assert e.value.code == 130
    err = capsys.readouterr().err
    assert said(err) == ["interrupted"] and "Traceback" not in err


def _waiting(thread: threading.Thread) -> bool:
    """Whether ``thread`` is blocked in a ``threading.Condition.wait`` (map_chunks' wait)."""
    frame = sys._current_frames().get(thread.ident)
    while frame is not None:
        if frame.f_code.co_name == "wait" and frame.f_code.co_filename == threading.__file__:
            return True
        frame = frame.f_back
    return False


def test_map_chunks_returns_on_ctrl_c_without_waiting_for_a_running_chunk():
    """Ctrl-C while the caller waits for a chunk that cannot be stopped (a compile): no more
    work is handed out and the call ends with KeyboardInterrupt while that chunk still runs.
    (The garbage collector is off meanwhile: a KeyboardInterrupt raised inside one of its
    callbacks, JAX's, would be swallowed, as it was on the command line before the watcher.)"""
    import gc

    from carromlab.physics.devices import map_chunks

    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    ran = []
    main = threading.main_thread()

    def fn(item, device):
        ran.append(item)
        if item == 0:
            started.set()
            release.wait(HANG_S)  # the compile: only ends when released
            finished.set()
        return item

    def ctrl_c():
        started.wait(HANG_S)
        give_up = time.monotonic() + HANG_S
        while not _waiting(main) and time.monotonic() < give_up:
            time.sleep(0.001)
        signal.pthread_kill(main.ident, signal.SIGINT)

    threading.Thread(target=ctrl_c, daemon=True).start()
    gc.disable()
    # the test worker's own SIGINT state may be anything after other tests: Python's default
    # handler (KeyboardInterrupt), not blocked, for this test
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        with pytest.raises(KeyboardInterrupt):
            list(map_chunks(fn, range(100), devices=["a", "b"], ahead=1))
        assert not finished.is_set()  # left while the chunk was still running
        assert len(ran) < 100  # nothing handed out after the interrupt
    finally:
        gc.enable()
        release.set()
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
