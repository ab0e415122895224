"""Every core busy: one JAX CPU device per core, each running whole chunks of shots.

XLA runs one kernel call on one core (with a little help from its intra-op threads), so a
single stream of chunks leaves the other cores mostly idle. Here the CPU backend is started
with one device per usable core (:func:`configure`, called when ``carromlab.physics`` is
imported), and :func:`map_chunks` hands chunks to one thread per device: each thread takes the
next chunk as soon as its device is free (no device waits on a slow chunk of another), and the
results come back in chunk order.

**Same numbers on any number of cores.** A chunk is computed whole on one device by the same
compiled program whatever device it lands on, and a chunk's boundaries never depend on the
device count, so every result is the same, bit for bit, on 1 or 16 cores
(tests/test_devices.py).

**How many.** ``CARROMLAB_CORES`` (an integer >= 1) if set, else every core this process may
run on (``os.sched_getaffinity``). The count is fixed when JAX's backend starts: a process that
started JAX before importing carromlab keeps the devices it has. On a GPU the devices are the
GPUs (usually one) and nothing here changes.

**Cost.** Each device compiles its own copy of a kernel the first time it runs one (in
parallel, one thread per device; a persistent compilation cache makes the later ones cheap).
Work of a single chunk runs on one device only.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: The environment variable that sets the number of CPU devices (cores) to use.
CORES_ENV = "CARROMLAB_CORES"


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def requested_cores() -> int:
    """``CARROMLAB_CORES`` if set (one clear error if it is not a whole number >= 1), else
    :func:`usable_cores`."""
    raw = os.environ.get(CORES_ENV)
    if raw is None or raw.strip() == "":
        return usable_cores()
    try:
        n = int(raw) if raw.strip().isascii() else 0  # ASCII digits, as every number
    except ValueError:
        n = 0
    if n < 1:
        from carromlab.errors import CarromlabError

        raise CarromlabError(f"{CORES_ENV}={raw!r}: give a whole number of cores, 1 or more")
    return n


def configure(cores: int | None = None) -> bool:
    """Ask JAX for ``cores`` CPU devices (default :func:`requested_cores`). Returns whether it
    took effect: it cannot once JAX's backend has started (the process keeps its devices)."""
    import jax

    n = requested_cores() if cores is None else int(cores)
    try:
        jax.config.update("jax_num_cpu_devices", n)
    except RuntimeError:  # the backend is already up
        return False
    return True


def compute_devices(limit: int | None = None) -> list:
    """The local devices of JAX's default backend (the first ``limit`` of them)."""
    import jax

    devs = jax.local_devices()
    return devs[:limit] if limit else devs


def _work(fn, todo: queue.Queue, done: dict, cv: threading.Condition, stop: threading.Event,
          dev) -> None:  # fmt: skip
    """One device's worker of :func:`map_chunks`: takes the next item, runs it on ``dev`` and
    files its result (or its exception, handed to the caller) under the item's index."""
    while not stop.is_set():
        job = todo.get()
        if job is None:
            return
        k, it = job
        try:
            res = (True, fn(it, dev))
        except BaseException as e:  # handed to the caller
            res = (False, e)
        with cv:
            done[k] = res
            cv.notify_all()


def _stop_workers(stop: threading.Event, todo: queue.Queue, threads: list, wait: bool) -> None:
    """End :func:`map_chunks`' workers: drop the items no worker has taken, tell each to stop,
    and (``wait``) join them, so that no worker outlives the call or runs into the
    interpreter's exit. After Ctrl-C (no ``wait``) the chunks running are not waited for: a
    compile cannot be stopped and may take seconds; each worker ends after its chunk (daemon
    threads; the command line leaves with os._exit, carromlab/interrupt.py)."""
    stop.set()
    while True:  # drop what no worker has taken
        try:
            todo.get_nowait()
        except queue.Empty:
            break
    for _ in threads:
        todo.put(None)
    if wait:
        for t in threads:
            t.join()


def map_chunks(
    fn: Callable[[T, object], R],
    items: Iterable[T],
    devices: list | None = None,
    ahead: int = 2,
) -> Iterator[R]:
    """``fn(item, device)`` for every item, one worker thread per device (each runs one item at
    a time on its device, and takes the next free item when done); the results are yielded in
    the items' order. At most ``ahead`` items per device run or wait unread, so memory stays
    bounded. With one device, everything runs in the calling thread. An exception in ``fn``
    stops the workers and is raised here; so is a ``KeyboardInterrupt`` in the caller, which
    hands out nothing more and returns at once, without waiting for the chunks running."""
    devices = compute_devices() if devices is None else list(devices)
    if len(devices) <= 1:
        dev = devices[0] if devices else None
        for it in items:
            yield fn(it, dev)
        return
    todo: queue.Queue = queue.Queue()
    done: dict[int, tuple[bool, object]] = {}
    cv = threading.Condition()
    stop = threading.Event()
    window = threading.Semaphore(ahead * len(devices))

    work = partial(_work, fn, todo, done, cv, stop)
    threads = [threading.Thread(target=work, args=(d,), daemon=True) for d in devices]
    for t in threads:
        t.start()
    n_items = 0
    interrupted = False
    try:
        source = iter(enumerate(items))
        nxt = 0
        exhausted = False
        while True:
            while not exhausted and window.acquire(blocking=False):
                job = next(source, None)
                if job is None:
                    exhausted = True
                    window.release()
                    break
                todo.put(job)
                n_items += 1
            if exhausted and nxt == n_items:
                return
            with cv:
                while nxt not in done:
                    cv.wait()
                ok, res = done.pop(nxt)
            window.release()
            nxt += 1
            if not ok:
                raise res
            yield res
    except KeyboardInterrupt:  # Ctrl-C while the caller waits here for a chunk
        interrupted = True
        raise
    finally:
        _stop_workers(stop, todo, threads, wait=not interrupted)
