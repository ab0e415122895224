"""A sweep interrupted with its default job size keeps the tasks finished before Ctrl-C, and
its line says how many (a stand-in for the kernel: the folder's machinery alone)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_run import run

import carromlab.sweeps as sweeps
from carromlab.sweeps import load_sweep, run_sweep
from carromlab.sweeps.run import SweepInterrupted, job_tasks
from carromlab.sweeps.store import done_ids

#: Eight tasks of one group; n = 4096 shots each: with the default chunk (4096) a job holds
#: at most four tasks (four kernel chunks).
EIGHT = """
name = "eight"
seed = 3
n = 4096
[grid]
variant = "icf"
angle = [80.0, 82.0, 84.0, 86.0, 88.0, 90.0, 92.0, 94.0]
speed = 2.0
"""

#: The task whose job is running when Ctrl-C comes.
CTRL_C_AT = 5


def stand_in(sweep, tasks, chunk):
    """A job's frame from the task ids alone; Ctrl-C while task ``CTRL_C_AT``'s job runs."""
    if any(t.id == CTRL_C_AT for t in tasks):
        raise KeyboardInterrupt
    rows = []
    for t in tasks:
        p = float(np.random.default_rng([sweep.seed, t.id]).random())
        rows.append({**t.columns(), "n": sweep.n, "p_pocket": p, "points": p - 0.5})
    return pd.DataFrame(rows)


def _sweep(tmp_path: Path):
    path = tmp_path / "eight.toml"
    path.write_text(EIGHT)
    return load_sweep(path)


def test_ctrl_c_keeps_the_jobs_finished_before_it(tmp_path):
    sweep = _sweep(tmp_path)
    out = tmp_path / "out"
    told = []
    with pytest.raises(SweepInterrupted) as stop:
        run_sweep(
            sweep,
            out,
            progress=False,
            compute=stand_in,
            on_kept=lambda kept, total: told.append((kept, total)),
        )
    kept = sorted(done_ids(out))
    assert kept == [0, 1, 2, 3]  # the first job of four; the second was running
    assert (stop.value.kept, stop.value.total) == (4, 8)
    assert told == [(0, 8), (4, 8)]


def test_a_job_is_a_few_kernel_chunks_at_most():
    assert job_tasks(16, 4096, 4096) == 4
    assert job_tasks(16, 100, 4096) == 16
    assert job_tasks(16, 10**6, 4096) == 1


def test_the_command_says_how_many_tasks_it_kept(capsys, monkeypatch, tmp_path):
    config = tmp_path / "eight.toml"
    config.write_text(EIGHT)
    out = tmp_path / "out"

    def with_stand_in(*args, **kwargs):
        return run_sweep(*args, **kwargs, compute=stand_in)

    monkeypatch.setattr(sweeps, "run_sweep", with_stand_in)
    code, _, err = run(capsys, "sweep", str(config), "--out", str(out))
    assert code == 130
    assert err.strip().splitlines()[-1] == (
        f"interrupted: 4 of 8 tasks kept in {out}; rerun the same command to resume"
    )
    assert sorted(done_ids(out)) == [0, 1, 2, 3]
