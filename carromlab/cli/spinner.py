"""A one-line spinner on stderr while a kernel is compiled (a terminal only).

The command line sets it as the compile notice (:func:`carromlab.compile_cache.
set_compile_notice`): a kernel's first run in a process (its compile, or its read from the
compilation cache) shows, after a second, ``⠹ compiling the physics kernel for 20 discs: 6 s
(first run only; kept for later runs)``, rewritten in place and wiped when done. Nothing is
written when stderr is not a terminal (logs, pipes, tests) or the compile is quick.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
#: Seconds before the spinner shows (a program read back from the cache takes less).
DELAY = 1.0


@contextmanager
def spinner(what: str, stream=None, delay: float = DELAY) -> Iterator[None]:
    """Spin on ``stream`` (default stderr, only a terminal) until the block ends."""
    out = sys.stderr if stream is None else stream
    if not getattr(out, "isatty", lambda: False)():
        yield
        return
    done = threading.Event()
    t0 = time.monotonic()
    shown = [False]

    def spin() -> None:
        if done.wait(delay):
            return
        k = 0
        while not done.is_set():
            line = (
                f"{FRAMES[k % len(FRAMES)]} compiling {what}: {time.monotonic() - t0:.0f} s "
                "(first run only; kept for later runs)"
            )
            out.write("\r\x1b[2K" + line)
            out.flush()
            shown[0] = True
            k += 1
            done.wait(0.1)

    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(timeout=1)
        if shown[0]:
            out.write("\r\x1b[2K")
            out.flush()


def install() -> None:
    """Make :func:`spinner` the compile notice of this process."""
    from carromlab.compile_cache import set_compile_notice

    set_compile_notice(spinner)
