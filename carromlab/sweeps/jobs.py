"""Jobs: the unit of work an executor runs. A job is a run of consecutive tasks that share a
position, skill and options (only the base shot differs), evaluated in one kernel batch
(analysis/shotmap.py ``evaluate_cells`` with the tasks' ids as key ids). How tasks are cut
into jobs changes the speed, never the numbers.
"""

from __future__ import annotations

import dataclasses

import pandas as pd

from carromlab.sweeps.config import Sweep, Task, with_board


def make_jobs(tasks: list[Task], job_size: int) -> list[list[Task]]:
    """Cut ``tasks`` (in id order) into jobs of at most ``job_size`` tasks sharing a group."""
    jobs: list[list[Task]] = []
    for t in tasks:
        if jobs and len(jobs[-1]) < job_size and jobs[-1][-1].group == t.group:
            jobs[-1].append(t)
        else:
            jobs.append([t])
    return jobs


def run_job(sweep: Sweep, tasks: list[Task], chunk: int = 4096) -> pd.DataFrame:
    """Evaluate one job: a row per task (its columns, then ``n`` and every quantity with its
    interval, as a shot map's cells). A top-level function, so any executor can ship it."""
    from carromlab.analysis.shotmap import evaluate_cells
    from carromlab.analysis.variants import analysis_for
    from carromlab.physics import Physics

    first = tasks[0]
    if any(t.group != first.group for t in tasks):
        raise ValueError("a job's tasks must share their group")
    pos = with_board(sweep.positions[first.position], first.equipment)
    va = analysis_for(first.variant)
    rules = va.rules
    # the grid's turn fields over the position's own turn (its "turn"; else the default)
    turn = dataclasses.replace(va.turn_of(pos), **dict(first.turn))
    scoring = rules.scoring_type(**dict(first.scoring)) if first.scoring else None
    ids = None
    if sweep.captures:
        ids = tuple(p.id for p in pos.pieces if p.kind not in ("striker", "shooter"))
    cells = evaluate_cells(
        pos,
        [(t.placement, t.angle, t.speed) for t in tasks],
        skill=first.skill,
        n=sweep.n,
        seed=sweep.seed,
        chunk=chunk,
        turn=turn,
        pieces=ids or (),
        confidence=sweep.confidence,
        physics=Physics(**dict(first.physics)),
        key_ids=[t.id for t in tasks],
        scoring=scoring,
    )
    cells = cells.drop(columns=["placement", "angle", "speed"])
    own = pd.DataFrame([t.columns() for t in tasks])
    return pd.concat([own, cells.reset_index(drop=True)], axis=1)
