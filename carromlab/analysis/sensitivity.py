"""How an answer depends on the board's physics: shots with their parameters drawn from a
prior (physics/priors.py), one row per shot, and rates binned by a parameter with intervals.

    prior = vary_physics(mu=uniform(0.06, 0.20))
    shots = physics_draws(position, shot, prior, n=20_000)
    by_mu = binned_rate(shots, "mu", "capture:w1", bins=7)

``estimate(..., physics=prior)`` gives the same shots' answer averaged over the prior;
``physics_draws`` keeps each shot so the dependence can be seen (same keys, same shots).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from carromlab.analysis.estimate import prepare, run_config
from carromlab.analysis.intervals import wilson
from carromlab.analysis.runner import ShotRunner
from carromlab.errors import CarromlabError
from carromlab.physics.priors import PhysicsPrior


def physics_draws(
    position,
    shot,
    prior: PhysicsPrior,
    skill="club",
    n: int = 10_000,
    seed: int = 0,
    chunk: int = 4096,
    turn=None,
    pieces: tuple[str, ...] | None = None,
) -> pd.DataFrame:
    """One row per noisy shot: ``index``, the drawn parameters (one column per varied
    field), ``capture:<id>`` for ``pieces`` (default every piece) and every quantity of the
    rules (booleans and numbers)."""
    if not isinstance(prior, PhysicsPrior):
        raise CarromlabError("physics_draws needs a prior: vary_physics(mu=uniform(...), ...)")
    sk, va, turn = prepare(position, n, skill, turn)
    va.check_shot(position, shot)
    runner = ShotRunner(va.table_position(position), va.shooter_kind, chunk=chunk, physics=prior)
    wanted = runner.ids if pieces is None else tuple(pieces)
    unknown = [p for p in wanted if p not in runner.ids]
    if unknown:
        raise CarromlabError(f"no piece {unknown[0]!r} in {position.name or 'the position'}")
    parts = []
    for ch in runner.run(shot, int(n), va.noise(sk), seed):
        cols = {"index": ch.index, **ch.physics}
        cap = ch.outcome["capture"]
        for pid in wanted:
            cols[f"capture:{pid}"] = cap[:, runner.ids.index(pid)] >= 0
        for key, values in va.rules.evaluate(runner.position, ch.outcome, turn).items():
            cols[key] = np.asarray(values)
        parts.append(pd.DataFrame(cols))
    df = pd.concat(parts, ignore_index=True)
    df.attrs["config"] = run_config("physics_draws", position, sk, n, seed, runner, turn, 0.95)
    return df


def binned_rate(
    draws: pd.DataFrame, by: str, value: str, bins: int = 8, confidence: float = 0.95
) -> pd.DataFrame:
    """The rate of the boolean column ``value`` in ``bins`` equal-width bins of the parameter
    ``by``: ``lo_edge``, ``hi_edge``, ``centre``, ``n``, ``rate``, ``rate_lo``, ``rate_hi``
    (Wilson)."""
    from scipy.stats import binned_statistic

    for col in (by, value):
        if col not in draws.columns:
            raise CarromlabError(f"no column {col!r}; the columns are {', '.join(draws.columns)}")
    x = draws[by].to_numpy(float)
    y = draws[value].to_numpy(float)
    counts, edges, _ = binned_statistic(x, y, statistic="count", bins=bins)
    hits, _, _ = binned_statistic(x, y, statistic="sum", bins=edges)
    k, m = hits.astype(np.int64), counts.astype(np.int64)
    lo, hi = wilson(k, m, confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = k / m
    return pd.DataFrame(
        {
            "lo_edge": edges[:-1],
            "hi_edge": edges[1:],
            "centre": (edges[:-1] + edges[1:]) / 2,
            "n": m,
            "rate": rate,
            "rate_lo": lo,
            "rate_hi": hi,
        }
    )
