"""Run a sweep: the tasks still missing from the folder, cut into jobs, on an executor; each
finished task written as its shard as soon as its job returns; the final table once all are
done. Rerunning a killed sweep computes only what is missing, and a shard found cut short
(store.py) again.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, wait
from pathlib import Path

import pandas as pd

from carromlab.errors import CarromlabError
from carromlab.input_schema import MAX_RUN_SHOTS
from carromlab.sweeps.config import Sweep, Task
from carromlab.sweeps.executors import check_executor, open_executor
from carromlab.sweeps.jobs import make_jobs, run_job
from carromlab.sweeps.store import (
    collect,
    done_ids,
    drop_damaged,
    open_folder,
    shard_path,
    write_shard,
)


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
) -> pd.DataFrame:
    """Run ``sweep`` into the folder ``out`` (store.py) and return the whole table.

    ``executor``: local, processes or dask (executors.py) with ``workers`` / ``scheduler``;
    ``job_size`` tasks at most per job and ``chunk`` shots per kernel batch change the speed,
    not the results. ``stats`` (a dict), if given, receives tasks, done_before, computed,
    repaired (the ids of the tasks whose shards were cut short, each also named on stderr) and
    seconds. ``compute(sweep, tasks, chunk)`` evaluates one job, a row per task in order: the
    kernel (jobs.py ``run_job``) unless a test gives a stand-in to exercise the folder's
    machinery without it (a top-level function for the processes and dask executors)."""
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
    if todo:
        # a job is one kernel run of len(job) x n shots, numbered with int32 (input_schema)
        jobs = make_jobs(todo, max(1, min(job_size, MAX_RUN_SHOTS // sweep.n)))
        bar = tqdm(
            total=len(tasks),
            initial=len(tasks) - len(todo),
            desc=f"sweep {sweep.name}",
            unit="task",
            disable=not progress,
        )
        with open_executor(executor, workers, scheduler) as (pool, slots):
            pending: dict = {}
            queue = list(reversed(jobs))
            while queue or pending:
                while queue and len(pending) < 2 * slots:
                    job = queue.pop()
                    pending[pool.submit(compute, sweep, job, chunk)] = job
                finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for future in finished:
                    job = pending.pop(future)
                    rows = future.result()
                    for task, (_, row) in zip(job, rows.iterrows(), strict=True):
                        write_shard(out, sweep, task, row.to_frame().T.infer_objects())
                    bar.update(len(job))
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
