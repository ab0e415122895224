"""Executors behind one interface (``concurrent.futures.Executor``):

- ``local``: in this process, one job at a time (:class:`InlineExecutor`);
- ``processes``: a process pool started with the *spawn* method (JAX must never be forked:
  its runtime threads do not survive ``fork``); each worker imports carromlab and compiles
  its own kernels, with its share of the cores (``CARROMLAB_CORES``: the usable cores over
  the workers, at least 1);
- ``dask``: Dask distributed, a ``LocalCluster`` of worker processes on this machine, or the
  scheduler at ``scheduler`` (``tcp://host:8786``) for a real cluster (docs/sweeps.md). The
  workers need carromlab installed; results come back to this process, which alone writes
  files, so the workers need no shared disk.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing.context import SpawnContext, SpawnProcess

from carromlab import interrupt
from carromlab.errors import CarromlabError
from carromlab.physics.devices import CORES_ENV, configure, usable_cores

EXECUTORS = ("local", "processes", "dask")


class InlineExecutor(Executor):
    """Runs each submitted call at once, in this process; returns a finished future."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except KeyboardInterrupt:  # Ctrl-C stops the run now, not after the next job
            raise
        except BaseException as e:  # handed to the caller through the future
            future.set_exception(e)
        return future


def check_executor(kind: str, workers: int | None, scheduler: str | None) -> None:
    """One clear line for an unknown executor or options that do not apply to it."""
    if kind not in EXECUTORS:
        raise CarromlabError(f"unknown executor {kind!r}; use {', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise CarromlabError(f"--workers must be at least 1, not {workers}")
    if scheduler is not None and kind != "dask":
        raise CarromlabError("--scheduler is for the dask executor")


@contextmanager
def open_executor(
    kind: str = "local", workers: int | None = None, scheduler: str | None = None
) -> Iterator[tuple[Executor, int]]:
    """``(executor, slots)``: the executor and how many jobs it runs at once."""
    check_executor(kind, workers, scheduler)
    if kind == "local":
        yield InlineExecutor(), 1
    elif kind == "processes":
        n = workers or os.cpu_count() or 1
        # the cores are shared out: each worker's JAX gets its share of CPU devices
        share = max(1, usable_cores() // n)
        pool = ProcessPoolExecutor(
            max_workers=n,
            mp_context=_QuietSpawnContext(),
            initializer=_use_cores,
            initargs=(share,),
        )
        forget = interrupt.on_leave(lambda: _end_workers(pool))
        try:
            yield pool, n
        except KeyboardInterrupt:  # Ctrl-C: the jobs running are not waited for
            _end_workers(pool)
            raise
        finally:
            forget()
            pool.shutdown(wait=True, cancel_futures=True)  # (its queues' semaphores freed)
    else:
        with _dask(workers, scheduler) as pair:
            yield pair


class _QuietSpawnProcess(SpawnProcess):
    """A spawned worker that never sees the terminal's Ctrl-C (SIGINT blocked from its start,
    so it prints no traceback of its own): on Ctrl-C the parent ends it."""

    def start(self) -> None:
        with interrupt.blocked():
            super().start()


class _QuietSpawnContext(SpawnContext):
    Process = _QuietSpawnProcess


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """End a process pool's workers now (their jobs are lost; finished ones are written)."""
    ends = getattr(pool, "terminate_workers", None)  # Python 3.14
    if ends is not None:
        ends()
        return
    try:
        procs = list((getattr(pool, "_processes", None) or {}).values())
    except RuntimeError:  # changed while read: the pool is ending them
        return
    for p in procs:
        p.terminate()


def _use_cores(n: int) -> None:
    """A process-pool worker's start: its share of the cores (before JAX starts), and a
    plain thread lock for tqdm (its default, a multiprocessing lock, is a named semaphore
    that a worker ended on Ctrl-C would leave to the resource tracker, which warns of it)."""
    import threading

    from tqdm import tqdm

    os.environ[CORES_ENV] = str(n)
    configure(n)
    tqdm.set_lock(threading.RLock())


@contextmanager
def _dask(workers: int | None, scheduler: str | None):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise CarromlabError(
            "the dask executor needs Dask: pip install 'carromlab[dask]'"
        ) from None
    cluster = None
    if scheduler is None:
        with interrupt.blocked():  # its worker processes inherit it: Ctrl-C is ours
            cluster = LocalCluster(
                n_workers=workers or os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="30s")
        except OSError as e:
            raise CarromlabError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    try:
        slots = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values()) or 1
        yield client.get_executor(pure=False), slots
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
