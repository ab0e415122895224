"""Event times: when each disc's next one-disc event and each pair's next contact come, and
which event is next.

Every function takes the static :class:`~carromlab.physics.kernel.spec.KernelSpec`, the shot's
:class:`~carromlab.physics.kernel.spec.Constants` and the traced values it reads; times are
relative to now, ``inf`` when none. The closed forms for one path (a disc sliding with
Coulomb friction against a segment, a rail, a post, a capture, another disc) live in
:mod:`carromlab.physics.events`; here they are assembled into rows.

A disc coming to rest is not an event: pair times are solved across the first stop (the
quartic up to it, then the closed form for the disc that slides on).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from carromlab.physics import events as ev
from carromlab.physics.kernel.spec import CLOSING_SPEED, ROWS_PER_PASS, Constants, KernelSpec
from carromlab.physics.kernel.state import Event, KernelState, Kinematics
from carromlab.physics.sliding import slide


def first_min(a: jax.Array) -> tuple[jax.Array, jax.Array]:
    """(min, index of its first occurrence) of a 1-d array without NaN: what ``argmin`` gives,
    as two plain reductions (a min, then a min over the indices that hold it). Under vmap on
    a CPU these vectorise; ``argmin``'s paired reduction does not, and cost a sixth of an
    event's time."""
    m = jnp.min(a)
    n = a.shape[0]
    i = jnp.min(jnp.where(a == m, jnp.arange(n, dtype=jnp.int32), n - 1))
    return m, i


def speed_dir(vx: jax.Array, vy: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Speed and unit direction (0, 0 at rest)."""
    v = jnp.sqrt(vx * vx + vy * vy)
    safe = jnp.where(v > 0, v, 1.0)
    return v, vx / safe, vy / safe


def kinematics(
    c: Constants, x: jax.Array, y: jax.Array, vx: jax.Array, vy: jax.Array, alive: jax.Array
) -> Kinematics:
    """Positions, speeds and unit directions of every disc (shared by the solvers)."""
    v, ux, uy = speed_dir(vx, vy)
    moving = alive & (v > 0) & ~c.discs.static
    return Kinematics(x=x, y=y, vx=vx, vy=vy, v=v, ux=ux, uy=uy, alive=alive, moving=moving)


def disc_event(
    spec: KernelSpec, c: Constants, i: jax.Array, kin: Kinematics
) -> tuple[jax.Array, jax.Array]:
    """(time, code) of disc i's next one-disc event: codes [captures | ditch | walls]."""
    px, py, r = kin.x[i], kin.y[i], c.discs.radius[i]
    v, ux, uy = kin.v[i], kin.ux[i], kin.uy[i]
    # the coins' deceleration a (one number: the compiled arithmetic stays that of one
    # deceleration) and, with the striker's own friction, this disc's factor k: sliding at
    # k a is sliding at a along k times the path, in 1 / k of the time
    a, tol = c.a0, c.tol
    k = None if c.k is None else c.k[i]
    paths = []
    if spec.n_caps:
        paths.append(jax.vmap(lambda g: ev.path_to_capture(px, py, ux, uy, v, a, g, k))(c.caps))
    ditch = ev.path_to_leave_circle(px, py, ux, uy, c.surface_r) if spec.ditch else ev.INF
    paths.append(jnp.reshape(ditch, (1,)).astype(c.dtype))
    if spec.n_seg:
        paths.append(jax.vmap(lambda g: ev.path_to_segment(px, py, ux, uy, r, g, tol))(c.seg_geom))
    if spec.n_rail:
        paths.append(jax.vmap(lambda g: ev.path_inside_rail(px, py, ux, uy, r, g))(c.rail_geom))
    if spec.n_post:
        paths.append(
            jax.vmap(lambda g: ev.path_to_disc(px, py, ux, uy, g[0], g[1], r + g[2]))(c.post_geom)
        )
    # Time grows with path length along one disc's path: take the nearest event first, then
    # convert that one path length to a time.
    s = jnp.concatenate(paths)
    s_k, code = first_min(s)
    t = ev.time_for_path(s_k, v, a) if k is None else ev.time_for_path(k * s_k, v, a) / k
    return jnp.where(kin.moving[i], t, ev.INF), code


def disc_times(spec: KernelSpec, c: Constants, kin: Kinematics) -> tuple[jax.Array, jax.Array]:
    """Every disc's one-disc event: (disc_t, disc_k)."""
    disc_t, disc_k = jax.vmap(lambda m: disc_event(spec, c, m, kin))(np.arange(spec.n))
    return disc_t, disc_k.astype(jnp.int32)


@dataclass(frozen=True)
class PairRows:
    """Rows r of discs ``ids[r]`` (``*i``: (R, 1)) against every disc j (``*j`` and the
    plain names: (1, N'), padded): what :func:`pair_rows`' two solvers share."""

    xi: jax.Array
    yi: jax.Array
    vi: jax.Array
    uxi: jax.Array
    uyi: jax.Array
    x: jax.Array
    y: jax.Array
    vj: jax.Array
    uxj: jax.Array
    uyj: jax.Array
    mi: jax.Array
    mj: jax.Array
    ai: jax.Array
    aj: jax.Array
    reach: jax.Array
    d0x: jax.Array
    d0y: jax.Array
    wx: jax.Array
    wy: jax.Array


def both_moving_time(
    c: Constants,
    p: PairRows,
    dist: jax.Array,
    dw: jax.Array,
    touching: jax.Array,
    closing: jax.Array,
) -> tuple[jax.Array, jax.Array]:
    """The pair's contact time while both discs move (the quartic on [start, first stop]);
    also returns the first stop (``horizon``: 0 where a disc is at rest)."""
    ai, aj, tol = p.ai, p.aj, c.tol
    mi, mj = p.mi, p.mj
    gx, hx = jnp.where(mj, -p.uxj, 0.0), jnp.where(mi, -p.uxi, 0.0)
    gy, hy = jnp.where(mj, -p.uyj, 0.0), jnp.where(mi, -p.uyi, 0.0)
    if c.k is None:  # every disc slides alike: ai = aj = a
        ax, ay = ai * (gx - hx), ai * (gy - hy)
        recheck = c.recheck
    else:  # discs of one friction as above, the same bits
        ax = jnp.where(ai == aj, ai * (gx - hx), aj * gx - ai * hx)
        ay = jnp.where(ai == aj, ai * (gy - hy), aj * gy - ai * hy)
        recheck = jnp.sqrt(tol / (ai + aj))
    # (a disc at rest has no horizon of its own: 0, also when a = 0)
    horizon = jnp.minimum(jnp.where(mi, p.vi / ai, 0.0), jnp.where(mj, p.vj / aj, 0.0))
    sep_speed = jnp.maximum(dw / jnp.maximum(dist, tol), tol)
    # A touching pair that is not closing: skip the root at 0 (rounding), but never past the
    # time it could come back. Until the first stop the relative acceleration is constant;
    # its closing part along the line of centres, pull, turns a parting speed s round after
    # s / pull (= dw / da, both x dist). Skip at most that long, and at least
    # sqrt(tol / (ai + aj)), in which no pull (at most ai + aj) closes more than tol / 2: a
    # slowly parting pair that friction pulls together is re-checked in time.
    da = -(ax * p.d0x + ay * p.d0y)  # closing pull x dist
    back = jnp.where(da > 0, jnp.maximum(dw, tol * dist) / da, ev.INF)
    skip = jnp.minimum(4 * tol / sep_speed, jnp.maximum(back, recheck))
    start = jnp.where(touching & ~closing, jnp.minimum(skip, horizon), 0.0)
    t_mm, _status = ev.pair_time_moving(
        p.d0x, p.d0y, p.wx, p.wy, ax, ay, p.reach, horizon, start, p.reach * tol
    )
    return t_mm, horizon


def tail_time(c: Constants, p: PairRows, horizon: jax.Array) -> jax.Array:
    """The pair's contact time from t0 on, when at most one of them moves (t0 = the first stop
    when both move, else now): a moving disc against a still one, closed form in path
    length."""
    ai, aj, mi, mj = p.ai, p.aj, p.mi, p.mj
    stop_i, stop_j = jnp.where(mi, p.vi / ai, 0.0), jnp.where(mj, p.vj / aj, 0.0)
    t0 = jnp.where(mi & mj, horizon, 0.0)
    i_moves_on = mi & (stop_i >= stop_j)  # else j moves on (or nobody)

    def at(
        px: jax.Array, py: jax.Array, ux: jax.Array, uy: jax.Array, v: jax.Array, a: jax.Array
    ) -> tuple[jax.Array, jax.Array, jax.Array]:  # position and speed at t0 on a Coulomb path
        s_, v0 = slide(v, a, t0, jnp)
        return px + ux * s_, py + uy * s_, v0

    xi0, yi0, vi0 = at(p.xi, p.yi, p.uxi, p.uyi, p.vi, ai)
    xj0, yj0, vj0 = at(p.x, p.y, p.uxj, p.uyj, p.vj, aj)
    mx_, my_ = jnp.where(i_moves_on, xi0, xj0), jnp.where(i_moves_on, yi0, yj0)
    tx_, ty_ = jnp.where(i_moves_on, xj0, xi0), jnp.where(i_moves_on, yj0, yi0)
    mux, muy = jnp.where(i_moves_on, p.uxi, p.uxj), jnp.where(i_moves_on, p.uyi, p.uyj)
    s_m = ev.path_to_disc(mx_, my_, mux, muy, tx_, ty_, p.reach)
    a_m = ai if c.k is None else jnp.where(i_moves_on, ai, aj)  # the one that moves on
    return t0 + ev.time_for_path(s_m, jnp.where(i_moves_on, vi0, vj0), a_m)


def pair_rows(spec: KernelSpec, c: Constants, ids: jax.Array, kin: Kinematics) -> jax.Array:
    """Time to the next contact of each disc ``ids[r]`` with every disc j: (R, N) (relative,
    inf if none). Row r broadcasts disc ``ids[r]``'s values (R, 1) against every disc's
    (1, N'), the discs padded to N', a multiple of ``spec.pair_width`` (copies of disc 0, cut
    off before the rows are returned): on a CPU the compiled loops vectorise along the last
    axis, and a last axis of 20 (a carrom board) leaves half a vector of 8 empty
    (docs/benchmarks.md)."""
    n, tol = spec.n, c.tol
    width = -(-n // spec.pair_width) * spec.pair_width

    def mine(a: jax.Array) -> jax.Array:  # disc ids[r]'s value, (R, 1)
        return a[ids][:, None]

    def theirs(a: jax.Array) -> jax.Array:  # every disc's value, (1, N'); padding: disc 0's
        return jnp.concatenate([a, jnp.broadcast_to(a[:1], (width - n,))])[None, :]

    x, y, vx, vy = theirs(kin.x), theirs(kin.y), theirs(kin.vx), theirs(kin.vy)
    xi, yi, vxi, vyi = mine(kin.x), mine(kin.y), mine(kin.vx), mine(kin.vy)
    p = PairRows(
        xi=xi,
        yi=yi,
        vi=mine(kin.v),
        uxi=mine(kin.ux),
        uyi=mine(kin.uy),
        x=x,
        y=y,
        vj=theirs(kin.v),
        uxj=theirs(kin.ux),
        uyj=theirs(kin.uy),
        mi=mine(kin.moving),
        mj=theirs(kin.moving),
        # each side's deceleration: one number where every disc slides alike
        ai=c.a if c.k is None else mine(c.a),
        aj=c.a if c.k is None else theirs(c.a),
        reach=mine(c.discs.radius) + theirs(c.discs.radius),
        d0x=x - xi,
        d0y=y - yi,
        wx=vx - vxi,
        wy=vy - vyi,
    )
    dist = jnp.sqrt(p.d0x * p.d0x + p.d0y * p.d0y)
    gap = dist - p.reach
    dw = p.d0x * p.wx + p.d0y * p.wy  # parting speed x dist
    closing = dw < -CLOSING_SPEED * dist
    touching = gap <= tol
    t_mm, horizon = both_moving_time(c, p, dist, dw, touching, closing)
    t_tail = tail_time(c, p, horizon)
    mi, mj = p.mi, p.mj
    t = jnp.where(mi & mj, jnp.minimum(t_mm, t_tail), jnp.where(mi | mj, t_tail, ev.INF))
    t = jnp.where(touching & closing & (mi | mj), 0.0, t)
    idx = jnp.asarray(np.arange(n))
    valid = mine(kin.alive) & theirs(kin.alive) & (theirs(idx) != ids[:, None])
    return jnp.where(valid, t, ev.INF)[:, :n]


def event_times(
    spec: KernelSpec,
    c: Constants,
    x: jax.Array,
    y: jax.Array,
    vx: jax.Array,
    vy: jax.Array,
    alive: jax.Array,
) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Every pair row and one-disc event from scratch: (pair_t, disc_t, disc_k)."""
    kin = kinematics(c, x, y, vx, vy, alive)
    full = pair_rows(spec, c, jnp.asarray(np.arange(spec.n)), kin)
    pair_t = jnp.concatenate([full[spec.pair_i, spec.pair_j], jnp.full((1,), ev.INF, c.dtype)])
    return (pair_t, *disc_times(spec, c, kin))


def moving_pair_times(spec: KernelSpec, c: Constants, kin: Kinematics) -> jax.Array:
    """The pair times of :func:`event_times` computing rows only for the discs that move (a
    pair of two discs at rest has no contact: inf), :data:`ROWS_PER_PASS` rows a pass; a pair
    of two moving discs takes the row of the lower index, as in ``event_times`` (the same
    numbers: a row's entry for a disc at rest is the pair's own time from either side). At a
    shot's start only the striker moves: one row instead of n."""
    n, n_pairs = spec.n, spec.n_pairs
    slots = jnp.asarray(spec.slot)
    idx = np.arange(n)

    def body(carry: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        todo, pair_t = carry
        (ids,) = jnp.nonzero(todo, size=ROWS_PER_PASS, fill_value=n)
        sid = jnp.minimum(ids, n - 1)
        rows = pair_rows(spec, c, sid, kin)
        keep = (ids[:, None] < n) & (~kin.moving[None, :] | (idx[None, :] > sid[:, None]))
        target = jnp.where(keep, slots[sid], n_pairs + 1)
        pair_t = pair_t.at[target.reshape(-1)].set(rows.reshape(-1), mode="drop")
        return todo.at[ids].set(False, mode="drop"), pair_t

    pair_t = jnp.full(n_pairs + 1, ev.INF, c.dtype)
    return jax.lax.while_loop(lambda carry: carry[0].any(), body, (kin.moving, pair_t))[1]


def next_event(spec: KernelSpec, c: Constants, s: KernelState) -> Event:
    """The earliest event: the earliest pair contact against the earliest one-disc event
    (pairs win ties; the lowest slot / disc wins among equals). When none is left, the step is
    the time the last sliding disc needs to come to rest."""
    tp, flat = first_min(s.pair_t)
    tq, k = first_min(s.disc_t)
    is_pair = tp <= tq
    step = jnp.minimum(tp, tq)
    finished = ~jnp.isfinite(step)
    # No event left: the discs still sliding come to rest; advance to the last stop.
    last = jnp.max(s.v) / c.a if c.k is None else jnp.max(jnp.where(s.v > 0, s.v / c.a, 0.0))
    step = jnp.where(finished, last, step)
    # pair slot -> (i, j); the dummy slot (and one-disc events) -> (k, k)
    i = jnp.where(is_pair, jnp.asarray(spec.slot_i)[flat], k)
    j = jnp.where(is_pair, jnp.asarray(spec.slot_j)[flat], k)
    idx = np.arange(spec.n)
    return Event(
        step=step,
        finished=finished,
        is_pair=is_pair,
        i=i,
        j=j,
        k=k,
        code=s.disc_k[k],
        oh_i=idx == i,
        oh_j=idx == j,
        oh_k=idx == k,
    )
