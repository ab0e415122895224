"""Run a sweep: the tasks still missing from the folder, cut into jobs, on an executor; each
finished task written as its shard as soon as its job returns; the final table once all are
done. Rerunning a killed sweep computes only what is missing, and a shard found cut short
(store.py) again.

A job is at most ``job_size`` tasks and at most about :data:`BLOCK_CHUNKS` kernel chunks of
shots (a shot map's block, analysis/shotmap.py), so that Ctrl-C loses at most that much work
per running job: a sweep interrupted raises :class:`SweepInterrupted`, which counts the
tasks kept.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, wait
from pathlib import Path

import pandas as pd

from carromlab.analysis.shotmap import BLOCK_CHUNKS
from carromlab.errors import CarromlabError
from carromlab.input_schema import MAX_RUN_SHOTS
from carromlab.sweeps.config import Sweep, Task
from carromlab.sweeps.executors import InlineExecutor, check_executor, open_executor
from carromlab.sweeps.jobs import make_jobs, run_job
from carromlab.sweeps.store import (
    collect,
    done_ids,
    drop_damaged,
    open_folder,
    shard_path,
    write_shard,
)


class SweepInterrupted(KeyboardInterrupt):
    """A sweep interrupted (Ctrl-C): ``kept`` of its ``total`` tasks are in ``folder`` (written
    before and during this run); the same call resumes it."""

    def __init__(self, kept: int, total: int, folder: Path):
        super().__init__(f"{kept:,} of {total:,} tasks kept in {folder}")
        self.kept, self.total, self.folder = kept, total, Path(folder)


def job_tasks(job_size: int, n: int, chunk: int) -> int:
    """Tasks at most per job: ``job_size``, at most :data:`BLOCK_CHUNKS` kernel chunks of ``n``
    shots each (at least one task), and a kernel run the runner can number
    (``MAX_RUN_SHOTS``)."""
    return max(1, min(job_size, BLOCK_CHUNKS * chunk // n, MAX_RUN_SHOTS // n))


def _run_jobs(
    pool,
    slots: int,
    sweep: Sweep,
    out: Path,
    jobs: list[list[Task]],
    compute: Callable[[Sweep, list[Task], int], pd.DataFrame],
    chunk: int,
    wrote_task: Callable[[], None],
    wrote_job: Callable[[list[Task]], None],
) -> None:
    """:func:`run_sweep`'s jobs on ``pool``, each job's tasks written (a shard a task) as the
    job returns; ``wrote_task()`` after each shard, ``wrote_job(job)`` after each job. Jobs in
    flight: two a slot keep the workers busy; one where a job runs as it is submitted (the
    local executor), so that each is written before the next starts."""
    pending: dict = {}
    queue = list(reversed(jobs))
    ahead = 1 if isinstance(pool, InlineExecutor) else 2 * slots
    while queue or pending:
        while queue and len(pending) < ahead:
            job = queue.pop()
            pending[pool.submit(compute, sweep, job, chunk)] = job
        finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
        for future in finished:
            job = pending.pop(future)
            rows = future.result()
            for task, (_, row) in zip(job, rows.iterrows(), strict=True):
                write_shard(out, sweep, task, row.to_frame().T.infer_objects())
                wrote_task()
            wrote_job(job)


def run_sweep(
    sweep: Sweep,
    out: str | Path,
    executor: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    job_size: int = 16,
    chunk: int = 4096,
    progress: bool = True,
    stats: dict | None = None,
    compute: Callable[[Sweep, list[Task], int], pd.DataFrame] = run_job,
    on_kept: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Run ``sweep`` into the folder ``out`` (store.py) and return the whole table.

    ``executor``: local, processes or dask (executors.py) with ``workers`` / ``scheduler``;
    ``job_size`` tasks at most per job and ``chunk`` shots per kernel batch change the speed,
    not the results. ``stats`` (a dict), if given, receives tasks, done_before, computed,
    repaired (the ids of the tasks whose shards were cut short, each also named on stderr) and
    seconds. ``compute(sweep, tasks, chunk)`` evaluates one job, a row per task in order: the
    kernel (jobs.py ``run_job``) unless a test gives a stand-in to exercise the folder's
    machinery without it (a top-level function for the processes and dask executors).
    ``on_kept(kept, total)``, if given, is told how many tasks the folder holds, at the start
    and after each job is written. Ctrl-C raises :class:`SweepInterrupted` (the tasks
    kept)."""
    from tqdm import tqdm

    if job_size < 1 or chunk < 1:
        raise CarromlabError(f"job_size and chunk must be at least 1, not {job_size}, {chunk}")
    check_executor(executor, workers, scheduler)
    out = Path(out)
    open_folder(out, sweep)
    repaired = drop_damaged(out)
    for i in repaired:
        print(f"{shard_path(out, i)} was cut short; recomputing task {i}", file=sys.stderr)
    tasks = sweep.tasks()
    done = done_ids(out)
    todo = [t for t in tasks if t.id not in done]
    t0 = time.perf_counter()
    kept = len(tasks) - len(todo)
    if on_kept is not None:
        on_kept(kept, len(tasks))
    if todo:
        # a job is one kernel run of len(job) x n shots, numbered with int32 (input_schema),
        # of at most a few kernel chunks (what Ctrl-C can lose)
        jobs = make_jobs(todo, job_tasks(job_size, sweep.n, chunk))
        bar = tqdm(
            total=len(tasks),
            initial=len(tasks) - len(todo),
            desc=f"sweep {sweep.name}",
            unit="task",
            disable=not progress,
        )
        count = [kept]  # tasks the folder holds, as they are written

        def wrote_task() -> None:
            count[0] += 1

        def wrote_job(job: list[Task]) -> None:
            bar.update(len(job))
            if on_kept is not None:
                on_kept(count[0], len(tasks))

        try:
            with open_executor(executor, workers, scheduler) as (pool, slots):
                _run_jobs(pool, slots, sweep, out, jobs, compute, chunk, wrote_task, wrote_job)
        except KeyboardInterrupt:
            raise SweepInterrupted(count[0], len(tasks), out) from None
        finally:
            bar.close()
    df = collect(out, sweep, tasks)
    if stats is not None:
        stats.update(
            tasks=len(tasks),
            done_before=len(tasks) - len(todo),
            computed=len(todo),
            repaired=repaired,
            seconds=round(time.perf_counter() - t0, 2),
        )
    return df
