"""Chosen noisy executions of a run, simulated again with the event recording on, for drawing.

A :class:`~carromlab.analysis.runner.ShotRunner` run numbers its shots ``cell * n + i`` and
draws shot ``i`` of cell ``c`` from ``fold_in(fold_in(key(seed), id_c), i)``. Given those
numbers, :func:`record_executions` makes the same shots again (the same noise, the same
hand-set jitter, the same per-shot physics draws) and runs them through the batch simulator
with ``record=True``: the captures are the run's own, and the trace gives every disc's exact
path (:func:`~carromlab.physics.trace.sample_paths`).

The recording program takes :data:`RECORD_BATCH` executions at a time (padded by repeating
the last), so one program per board and disc count serves every caller.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from carromlab.physics.kernel import make_batch_simulator
from carromlab.physics.table import Table

#: Executions recorded by one program call (a fixed shape: one program a board and disc count).
RECORD_BATCH = 32
#: The recording's event cap: the runner's default (:class:`ShotRunner` ``max_events``).
RECORD_EVENTS = 512


@functools.lru_cache(maxsize=8)
def _recorder(layout, n_discs: int, per_shot_physics: bool, contacts: str):
    return make_batch_simulator(
        Table.from_layout(layout),
        n_discs,
        RECORD_EVENTS,
        per_shot_physics=per_shot_physics,
        contacts=contacts,
        record=True,
    )


def record_executions(
    runner, cells, n: int, noise, seed: int, flat, key_ids=None, points: int = 16
):
    """The executions numbered ``flat`` (``cell * n + i``) of ``runner.run(cells, n, noise,
    seed, key_ids=key_ids)``, recorded. Returns ``(outcome, paths)``: ``outcome`` a dict of
    numpy arrays (one row per execution, the real discs only, as the runner's chunks) and
    ``paths`` one dict per execution, ``{piece id: (xs, ys)}`` in metres for every real
    disc (the shooter under its runner id, ``runner.ids[0]``), ``points`` samples per stretch
    between two events (1: the events' places only, which is the exact polyline: a disc moves
    straight between events)."""
    from carromlab.analysis.runner import _noisy_maker, _pad_cells
    from carromlab.physics.trace import sample_paths

    flat = np.asarray(flat, np.int64).reshape(-1)
    base = jax.tree_util.tree_map(lambda a: jnp.atleast_1d(jnp.asarray(a, float)), cells)
    n_cells = int(base.x.shape[0])
    ids = np.arange(n_cells) if key_ids is None else np.asarray(key_ids, np.int64)
    base, ids = _pad_cells(base, jnp.asarray(ids, jnp.int32))
    make = _noisy_maker(noise, runner.prior)
    root = jax.random.key(int(seed))
    sim = _recorder(
        runner.position.board.layout,
        int(runner.template.x.shape[0]),
        runner.prior is not None,
        runner.contacts,
    )
    outcomes, paths = [], []
    for start in range(0, len(flat), RECORD_BATCH):
        part = flat[start : start + RECORD_BATCH]
        padded = np.concatenate([part, np.full(RECORD_BATCH - len(part), part[-1])])
        shots, physics, keys = make(root, base, ids, jnp.asarray(padded, jnp.int32), int(n))
        live = jnp.ones(RECORD_BATCH, bool)
        discs = runner._discs(runner.template, shots, runner._hand, keys, live)
        out, trace = sim(discs, runner.physics if runner.prior is None else physics)
        keep = len(part)
        outcomes.append(
            {
                k: np.asarray(v)[:keep][:, : runner.n_real]
                if np.asarray(v).ndim == 2
                else np.asarray(v)[:keep]
                for k, v in vars(out).items()
            }
        )
        decel = np.asarray(runner.physics.mu * runner.physics.g) if runner.prior is None else None
        # each disc's own friction where the striker's differs (Physics.striker_friction)
        used = runner.physics if runner.prior is None else physics
        factor = np.where(np.asarray(discs.hard)[0], used.striker_friction, 1.0)
        for k in range(keep):
            one = jax.tree_util.tree_map(lambda a, k=k: np.asarray(a)[k], trace)
            a = float(decel) if decel is not None else float(physics.mu[k] * physics.g[k])
            xs, ys = sample_paths(one, a * factor, points)
            paths.append({pid: (xs[:, j], ys[:, j]) for j, pid in enumerate(runner.ids)})
    outcome = {k: np.concatenate([o[k] for o in outcomes]) for k in outcomes[0]}
    return outcome, paths
