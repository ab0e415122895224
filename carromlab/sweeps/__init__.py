"""Sweeps: a declared set of tasks (a TOML file) run on one core, a process pool, the devices
of one host or a Dask cluster, with the same numbers, written task by task and resumable.
See docs/sweeps.md."""

from carromlab.sweeps.config import Sweep, Task, load_sweep, parse_sweep
from carromlab.sweeps.executors import EXECUTORS, InlineExecutor, open_executor
from carromlab.sweeps.jobs import make_jobs, run_job
from carromlab.sweeps.run import run_sweep

__all__ = [
    "EXECUTORS",
    "InlineExecutor",
    "Sweep",
    "Task",
    "load_sweep",
    "make_jobs",
    "open_executor",
    "parse_sweep",
    "run_job",
    "run_sweep",
]
