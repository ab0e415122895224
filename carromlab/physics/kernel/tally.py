"""The outcome's bookkeeping: contacts counted, the shooter's first contact kept, the trace's
rows written, and the outcome read off a finished state."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from carromlab.physics.kernel.spec import KernelSpec
from carromlab.physics.kernel.state import (
    FIRST_NONE,
    FIRST_PIECE,
    FIRST_WALL,
    Event,
    KernelState,
    ShotOutcome,
    Trace,
)

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.physics.kernel.cluster import ClusterHits


def tally(
    s: KernelState, e: Event, hit_pair: jax.Array, hit_wall: jax.Array, wk: jax.Array
) -> KernelState:
    """Counts the contacts (per disc, pairs, walls) and keeps the shooter's (disc 0) first
    contact, first piece and where it was then."""
    i, j = e.i, e.j
    touched = ((e.oh_i | e.oh_j) & hit_pair) | (e.oh_k & hit_wall & ~e.is_pair)
    no_first = s.first_contact_kind == FIRST_NONE
    first_pair = no_first & hit_pair & ((i == 0) | (j == 0))
    first_wall = no_first & hit_wall & (e.k == 0)
    first_kind = jnp.where(
        first_pair, FIRST_PIECE, jnp.where(first_wall, FIRST_WALL, s.first_contact_kind)
    )
    first = jnp.where(first_pair, i + j, jnp.where(first_wall, wk, s.first_contact))
    at_first = first_pair | first_wall
    shooter_pair = hit_pair & ((i == 0) | (j == 0)) & (s.first_piece < 0)
    return replace(
        s,
        contacts=s.contacts + touched.astype(jnp.int32),
        first_contact_kind=first_kind,
        first_contact=first.astype(jnp.int32),
        first_x=jnp.where(at_first, s.x[0], s.first_x),
        first_y=jnp.where(at_first, s.y[0], s.first_y),
        first_piece=jnp.where(shooter_pair, i + j, s.first_piece).astype(jnp.int32),
        n_piece_contacts=s.n_piece_contacts + hit_pair.astype(jnp.int32),
        n_wall_contacts=s.n_wall_contacts + hit_wall.astype(jnp.int32),
    )


def tally_cluster(s: KernelState, hits: ClusterHits) -> KernelState:
    """A cluster solve's contacts (:class:`~carromlab.physics.kernel.cluster.ClusterHits`):
    every contact that pushed counts (for its two discs and the pair total); the shooter's
    first contact, when it is in the cluster, is its strongest (labels play no part)."""
    mine = hits.shooter_other >= 0
    first = (s.first_contact_kind == FIRST_NONE) & mine
    return replace(
        s,
        contacts=s.contacts + hits.per_disc,
        n_piece_contacts=s.n_piece_contacts + (hits.per_disc.sum() // 2).astype(jnp.int32),
        first_contact_kind=jnp.where(first, FIRST_PIECE, s.first_contact_kind),
        first_contact=jnp.where(first, hits.shooter_other, s.first_contact),
        first_x=jnp.where(first, s.x[0], s.first_x),
        first_y=jnp.where(first, s.y[0], s.first_y),
        first_piece=jnp.where(mine & (s.first_piece < 0), hits.shooter_other, s.first_piece),
    )


def new_trace(
    spec: KernelSpec, x: jax.Array, y: jax.Array, vx: jax.Array, vy: jax.Array, alive: jax.Array
) -> Trace:
    """An empty :class:`Trace` with row 0, the start, written: ``max_events + 2`` rows (the
    start, at most ``max_events`` events, the rest)."""
    rows, n, dtype = spec.max_events + 2, spec.n, x.dtype
    return Trace(
        t=jnp.zeros(rows, dtype),
        x=jnp.zeros((rows, n), dtype).at[0].set(x),
        y=jnp.zeros((rows, n), dtype).at[0].set(y),
        vx=jnp.zeros((rows, n), dtype).at[0].set(vx),
        vy=jnp.zeros((rows, n), dtype).at[0].set(vy),
        alive=jnp.zeros((rows, n), bool).at[0].set(alive),
        event_i=jnp.full(rows, -1, jnp.int32),
        event_j=jnp.full(rows, -1, jnp.int32),
        event_code=jnp.full(rows, -1, jnp.int32),
        n=jnp.ones((), jnp.int32),
    )


def record_row(s: KernelState, e: Event) -> KernelState:
    """Writes the state after the event into the trace's next row (``trace.n``)."""
    tr = s.trace
    assert tr is not None  # only with record=True
    row = s.n_events + 1
    code = jnp.where(e.finished, -2, jnp.where(e.is_pair, -1, e.code))
    trace = Trace(
        t=tr.t.at[row].set(s.t),
        x=tr.x.at[row].set(s.x),
        y=tr.y.at[row].set(s.y),
        vx=tr.vx.at[row].set(s.vx),
        vy=tr.vy.at[row].set(s.vy),
        alive=tr.alive.at[row].set(s.alive),
        event_i=tr.event_i.at[row].set(e.i.astype(jnp.int32)),
        event_j=tr.event_j.at[row].set(e.j.astype(jnp.int32)),
        event_code=tr.event_code.at[row].set(code),
        n=row + 1,
    )
    return replace(s, trace=trace)


def outcome(s: KernelState) -> ShotOutcome:
    """The :class:`ShotOutcome` of a finished loop state."""
    return ShotOutcome(
        x=s.x,
        y=s.y,
        alive=s.alive,
        capture=s.capture,
        capture_time=s.capture_time,
        capture_order=s.capture_order,
        first_contact_kind=s.first_contact_kind,
        first_contact=s.first_contact,
        first_piece=s.first_piece,
        first_x=s.first_x,
        first_y=s.first_y,
        contacts=s.contacts,
        n_piece_contacts=s.n_piece_contacts,
        n_wall_contacts=s.n_wall_contacts,
        n_events=s.n_events,
        t_end=s.t,
        truncated=~s.done,
    )


def finish(spec: KernelSpec, s: KernelState) -> ShotOutcome | tuple[ShotOutcome, Trace]:
    """The outcome (and, with ``record=True``, the trace) of a finished loop state."""
    if spec.record:
        assert s.trace is not None
        return outcome(s), s.trace
    return outcome(s)


__all__ = ["finish", "new_trace", "outcome", "record_row", "tally", "tally_cluster"]
