"""``estimate``: n noisy executions of one shot -> probabilities and means with intervals.

The result is a tidy DataFrame, one row per quantity: ``quantity``, ``kind`` ("probability"
or "mean"), ``estimate``, ``lo``, ``hi`` (Wilson for probabilities, t for means), ``n`` and,
for probabilities, ``successes``. Quantities: every piece's capture (any pocket, and each
pocket), the striker's, the variant's fouls by kind, whether the turn continues, and the means
the rules give (points, coins). ``df.attrs`` holds the configuration, seed and versions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from carromlab.analysis.intervals import mean_interval, wilson
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.tally import Tally
from carromlab.analysis.variants import VariantAnalysis, analysis_for
from carromlab.errors import CarromlabError
from carromlab.shots import Shot, Skill
from carromlab.shots import skill as skill_named


def _skill(skill) -> Skill:
    return skill if isinstance(skill, Skill) else skill_named(skill)


def shot_runner(va: VariantAnalysis, position, **options) -> ShotRunner:
    """The kernel runner of ``position``'s table as the variant's analysis ``va`` sets it
    (:meth:`~VariantAnalysis.table_position`, its shooter's kind), with ``options``
    (``chunk``, ``physics``, ``hand_set``: :class:`ShotRunner`'s)."""
    return ShotRunner(va.table_position(position), va.shooter_kind, **options)


def prepare(position, n, skill, turn, analysis: VariantAnalysis | None = None):
    """Check the common inputs of a run; (skill, variant analysis, turn). ``turn``: the rules'
    turn state to value the shots under; None: the position's own (its ``turn`` fields,
    ``VariantAnalysis.turn_of``), else the variant's default. An explicit turn wins over the
    position's. ``analysis``: the variant's hooks, where the caller holds them (None: looked
    up by the position's variant)."""
    if int(n) <= 0:
        raise CarromlabError(f"n must be a positive number of shots, not {n}")
    va = analysis if analysis is not None else analysis_for(position.variant)
    if va.variant != position.variant:
        raise CarromlabError(
            f"the analysis of {va.variant!r} given for a {position.variant} position"
        )
    sk = va.preset(_skill(skill))  # the variant's preset of that name (recorded as used)
    position.check()
    return sk, va, (turn if turn is not None else va.turn_of(position))


def run_config(kind, position, sk, n, seed, runner, turn, confidence, **extra) -> dict:
    """The configuration stored with a result: inputs, seed and package versions."""
    return run_metadata(
        kind=kind,
        variant=position.variant,
        position=position.name,
        skill=vars(sk),
        n=int(n),
        seed=int(seed),
        chunk=int(runner.chunk),
        turn=vars(turn),
        confidence=confidence,
        physics=describe_physics(runner.physics),
        contacts=getattr(runner, "contacts", None),
        hand_set=getattr(runner, "hand_set", None),
        lanes=getattr(runner, "lanes", None),
        cores=len(getattr(runner, "devices", ())) or None,
        **extra,
    )


def describe_physics(physics) -> dict:
    """A Physics or a PhysicsPrior as plain data (for a result's configuration)."""
    from carromlab.physics.params import plain_physics

    if hasattr(physics, "describe"):
        return physics.describe()
    return plain_physics(physics)


def tally_chunk(tally: Tally, chunk, runner: ShotRunner, va, turn, scoring=None) -> None:
    """Add one chunk's captures and rule quantities to ``tally`` (``scoring``: the rules'
    scoring weights, default theirs)."""
    cell = chunk.cell
    tally.add_shots(cell)
    cap = chunk.outcome["capture"]
    names = runner.table.capture_names
    for k, pid in enumerate(runner.ids):
        tally.add_bool(f"capture:{pid}", cell, cap[:, k] >= 0)
        for c, cname in enumerate(names):
            tally.add_bool(f"capture:{pid}:{cname}", cell, cap[:, k] == c)
    tally.add_bool("truncated", cell, chunk.outcome["truncated"])
    res = va.rules.evaluate(runner.position, chunk.outcome, turn, scoring=scoring)
    for key, values in res.items():
        values = np.asarray(values)
        if values.dtype == bool:
            tally.add_bool(key, cell, values)
        else:
            tally.add_value(key, cell, values)


def run_metadata(**config) -> dict:
    import jax

    from carromlab._version import __version__

    return {
        "carromlab": __version__,
        "jax": jax.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "device": str(jax.devices()[0]),
        "devices": len(jax.local_devices()),
        **config,
    }


def estimate(
    position,
    shot: Shot,
    skill="club",
    n: int = 10_000,
    seed: int = 0,
    chunk: int = 4096,
    turn=None,
    confidence: float = 0.95,
    physics=None,
    progress: bool = False,
    runner: ShotRunner | None = None,
    hand_set: float | None = None,
    analysis: VariantAnalysis | None = None,
) -> pd.DataFrame:
    """Estimate what ``n`` noisy executions of ``shot`` from ``position`` do. ``hand_set``:
    how far the pieces of a position set by hand move per shot (m; ``None``: the default
    :data:`~carromlab.shots.HAND_SET`; 0: off). ``analysis``: the variant's hooks where the
    caller holds them (None: looked up by the position's variant)."""
    sk, va, turn = prepare(position, n, skill, turn, analysis)
    va.check_shot(position, shot)
    runner = runner or shot_runner(va, position, chunk=chunk, physics=physics, hand_set=hand_set)
    tally = Tally(1)
    for ch in runner.run(shot, int(n), va.noise(sk), seed, progress=progress, desc="estimate"):
        tally_chunk(tally, ch, runner, va, turn)
    df = tally_frame(tally, confidence).drop(columns="cell")
    shot_cfg = {k: float(getattr(shot, k)) for k in ("x", "y", "angle", "speed")}
    df.attrs["config"] = run_config(
        "estimate", position, sk, n, seed, runner, turn, confidence, shot=shot_cfg
    )
    return df


def tally_frame(tally: Tally, confidence: float = 0.95) -> pd.DataFrame:
    """Long table: one row per cell and quantity (built in one go from stacked arrays)."""
    cells = np.arange(tally.n_cells)
    names, kinds, est, lo, hi, succ = [], [], [], [], [], []
    if tally.counts:
        k = np.stack(list(tally.counts.values()))
        n = np.broadcast_to(tally.n, k.shape)
        low, high = wilson(k, n, confidence)
        with np.errstate(invalid="ignore", divide="ignore"):
            est.append(k / n)
        lo.append(low.reshape(k.shape))
        hi.append(high.reshape(k.shape))
        succ.append(k)
        names += list(tally.counts)
        kinds += ["probability"] * len(tally.counts)
    if tally.sums:
        s = np.stack(list(tally.sums.values()))
        q = np.stack([tally.sumsq[name] for name in tally.sums])
        mean, low, high = mean_interval(s, q, np.broadcast_to(tally.n, s.shape), confidence)
        est.append(mean)
        lo.append(low)
        hi.append(high)
        succ.append(np.full(s.shape, -1))
        names += list(tally.sums)
        kinds += ["mean"] * len(tally.sums)
    n_q = len(names)
    return pd.DataFrame(
        {
            "cell": np.tile(cells, n_q),
            "quantity": np.repeat(names, tally.n_cells),
            "kind": np.repeat(kinds, tally.n_cells),
            "estimate": np.concatenate(est).ravel(),
            "lo": np.concatenate(lo).ravel(),
            "hi": np.concatenate(hi).ravel(),
            "n": np.tile(tally.n, n_q),
            "successes": np.concatenate(succ).ravel().astype(np.int64),
        }
    )
