"""Ctrl-C on the command line: one line on stderr, exit code 130, never a traceback, and the
finished work kept (what a command writes as it goes stays on disk: a shot map's finished
cells, a sweep's shards, a game log's games).

Standard library only, so that the console script (:mod:`carromlab.entry`) can import it
before anything heavy and call, in turn:

- :func:`install`, before the command line is imported (the imports take seconds): Ctrl-C
  prints the line and leaves at once (nothing is done yet);
- :func:`running`, while the command runs: the first Ctrl-C raises ``KeyboardInterrupt`` in
  the main thread, as Python does, so that the command stops handing out work and says what
  it kept (``carromlab.cli.main`` prints the line; a shot map names its kept cells); the entry
  point then leaves with :func:`leave` (``os._exit``), without waiting for a kernel still
  compiling on a worker thread (a compile cannot be stopped). The main thread may not see
  the interrupt: a compile on it holds it in C++ for seconds, and an interrupt raised inside a
  callback is swallowed (JAX's garbage-collection callback: "Exception ignored in ...
  KeyboardInterrupt"). A watcher thread, woken by the signal itself
  (:func:`signal.set_wakeup_fd`, written from C whatever the main thread does), then prints
  the line and leaves: at once for a swallowed interrupt or a second Ctrl-C, after
  :data:`NOTICE_S` when the main thread has not seen it, after :data:`UNWIND_S` when it has;
- :func:`finishing`, once the command has returned: as :func:`install`.

Without :func:`install` (``carromlab.cli.main`` called in-process, as the tests do) nothing
here touches the signals: :func:`say` only prints.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: The exit code after Ctrl-C: 128 + SIGINT, as shells report an interrupted command.
INTERRUPTED_EXIT = 130

#: The line printed on Ctrl-C, unless the command gave a more telling one (:func:`note`).
LINE = "interrupted"

#: Seconds the watcher gives the main thread to see a Ctrl-C (a compile holds it longer) ...
NOTICE_S = 1.0
#: ... and, once it has, to say what it kept and end.
UNWIND_S = 5.0

_SIGINT = bytes([signal.SIGINT])
_SEEN = b"\xfe"  # the main thread saw the Ctrl-C (KeyboardInterrupt raised)
_LOST = b"\xff"  # a KeyboardInterrupt was swallowed (an "unraisable" exception)

_lock = threading.RLock()
_state: dict = {"installed": False, "said": False, "raised": False, "note": None, "wake": None}
_cleanups: list[Callable[[], None]] = []


def installed() -> bool:
    """Whether the console script handles Ctrl-C in this process (:func:`install`)."""
    return _state["installed"]


def interrupted() -> bool:
    """Whether Ctrl-C was pressed while the command ran."""
    return _state["raised"]


def note(line: str | None) -> None:
    """The line to print on Ctrl-C while the current command runs (None: :data:`LINE`): what
    it keeps and how to resume, e.g. a shot map's folder of finished cells."""
    _state["note"] = line


def begin() -> None:
    """A command line starts (``carromlab.cli.main``): no line said yet, no note. (Called
    in-process again and again by the tests; under the console script, once.)"""
    with _lock:
        _state["note"] = None
        if not _state["installed"]:
            _state["said"] = False


def say(line: str | None = None) -> None:
    """Print the interrupted line on stderr, once per command: ``line``, else the command's
    :func:`note`, else :data:`LINE` (nothing if it was said: by the command, or the
    watcher)."""
    with _lock:
        if _state["said"]:
            return
        _state["said"] = True
        text = line or _state["note"] or LINE
        if not _state["installed"]:  # in-process: sys.stderr, as the rest of the output
            print(text, file=sys.stderr, flush=True)
        else:
            _write(text, cut=False)


def leave(code: int = INTERRUPTED_EXIT) -> None:
    """End the process now: stdout and stderr flushed, then ``os._exit`` (no wait for worker
    threads, which may be compiling; no interpreter shutdown, which could meet them)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a closed or broken stream: nothing more to show
            pass
    os._exit(code)


def on_leave(fn: Callable[[], None]) -> Callable[[], None]:
    """Run ``fn`` before the watcher ends the process (ending child processes); returns a
    function that takes it back off."""
    _cleanups.append(fn)
    return lambda: _cleanups.remove(fn) if fn in _cleanups else None


@contextmanager
def blocked() -> Iterator[None]:
    """Ctrl-C held back in this thread (delivered when the block ends): the processes and
    threads started inside inherit the mask, so worker processes never see the terminal's
    Ctrl-C (the parent ends them) and print no traceback of their own."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


# ------------------------------------------------------------------------------- phases


def run(load: Callable[[], Callable[[list[str] | None], None]], argv=None) -> None:
    """The console script: :func:`install`, ``load()`` the command line (the imports), run
    it (:func:`running`), then exit with its code; after Ctrl-C, with 130 and one line, by
    :func:`leave`, whatever the Ctrl-C broke (no traceback)."""
    install()
    command_line = load()
    running()
    try:
        command_line(argv)
        code: int | str | None = 0
    except SystemExit as e:
        code = e.code
    except BaseException:
        if not interrupted():
            raise
        code = INTERRUPTED_EXIT
    finishing()
    if interrupted():
        say()  # (nothing when the command said it)
        leave(INTERRUPTED_EXIT)
    sys.exit(code)


def install() -> None:
    """Before the command line is imported: Ctrl-C prints the line and leaves at once. Left
    alone where Ctrl-C is ignored (a command started in the background) and outside the main
    thread."""
    if threading.current_thread() is not threading.main_thread():
        return  # (signals are the main thread's)
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return
    _state["installed"] = True
    signal.signal(signal.SIGINT, _leave_at_once)


def running() -> None:
    """While the command runs: the first Ctrl-C raises KeyboardInterrupt in the main thread,
    the watcher makes sure the process ends (module docstring)."""
    if not _state["installed"]:
        return
    r, w = os.pipe()
    os.set_blocking(w, False)
    _state["wake"] = w
    signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    sys.unraisablehook = _quiet_interrupts(sys.unraisablehook)
    threading.Thread(target=_watch, args=(r,), name="carromlab-ctrl-c", daemon=True).start()
    signal.signal(signal.SIGINT, _raise_once)


def finishing() -> None:
    """Once the command has returned: Ctrl-C leaves at once, as while starting."""
    if _state["installed"]:
        signal.signal(signal.SIGINT, _leave_at_once)


# ------------------------------------------------------------------------------- internals


def _write(text: str, cut: bool) -> None:
    """``text`` on stderr as one write, after what is buffered. On a terminal it replaces
    what the current line holds (the terminal's ``^C``, a progress bar cut short); elsewhere
    a line ``cut`` short (a bar's frame, when the main thread did not close its bar) is ended
    first."""
    try:
        sys.stderr.flush()
    except Exception:
        pass
    try:
        prefix = "\r\x1b[K" if os.isatty(2) else ("\n" if cut else "")
        os.write(2, (prefix + text + "\n").encode(errors="replace"))
    except OSError:
        pass


def _leave_at_once(signum, frame) -> None:
    _state["raised"] = True
    with _lock:
        if not _state["said"]:
            _state["said"] = True
            _write(_state["note"] or LINE, cut=True)
        leave(INTERRUPTED_EXIT)


def _raise_once(signum, frame) -> None:
    """The first Ctrl-C: KeyboardInterrupt in the main thread; later ones are the watcher's
    (a second one ends the process), never a KeyboardInterrupt raised in a cleanup."""
    if _state["raised"]:
        return
    _state["raised"] = True
    _poke(_SEEN)
    raise KeyboardInterrupt


def _quiet_interrupts(previous):
    """``sys.unraisablehook`` that swallows a KeyboardInterrupt raised where it cannot
    propagate (no "Exception ignored" lines) and tells the watcher to end the process."""

    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _poke(_LOST)
            return
        previous(unraisable)

    return hook


def _poke(byte: bytes) -> None:
    w = _state["wake"]
    if w is None:
        return
    try:
        os.write(w, byte)
    except OSError:  # a full pipe: the watcher is already awake
        pass


def _watch(r: int) -> None:
    """The watcher thread: woken by every Ctrl-C (written to the pipe by the C-level signal
    handler) and by the main thread; ends the process when the main thread does not."""
    deadline = None
    presses = 0
    while True:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([r], [], [], wait)
        if not ready:  # the main thread did not end in time
            _leave_now()
        data = os.read(r, 512)
        if _LOST in data:
            _leave_now()
        presses += data.count(_SIGINT)
        if presses > 1:
            _leave_now()
        if presses and deadline is None:
            deadline = time.monotonic() + NOTICE_S
        if presses and _SEEN in data:
            deadline = time.monotonic() + UNWIND_S


def _leave_now() -> None:
    """The watcher's end of the process: the line (unless said), the cleanups, exit 130."""
    _state["raised"] = True
    with _lock:  # a main thread saying its own line finishes it first
        if not _state["said"]:
            _state["said"] = True
            _write(_state["note"] or LINE, cut=True)
        for fn in list(_cleanups):
            try:
                fn()
            except Exception:
                pass
        leave(INTERRUPTED_EXIT)
