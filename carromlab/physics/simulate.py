"""The event-driven batch kernel.

``make_simulator(table, n_pieces, max_events)`` builds ``simulate(discs, physics)`` for one
shot; ``make_batch_simulator`` vmaps it over a batch of shots and jits the whole: the only
place where shots are batched (``make_lane_simulator``: a queue of shots in refilling lanes).

One shot is a bounded ``lax.while_loop`` over events, built in the manner of jax-md's
simulate functions: ``make_machine(table, n_pieces, max_events, record)`` closes over what is
static (the table's geometry, the disc count, the cap) and returns ``machine(discs, physics)``,
which returns an ``EventLoop(init, running, apply, finish)`` over a typed state:
``init()`` the ``KernelState`` at the start, ``running(state)`` whether an event is left,
``apply(state)`` one event, ``finish(state)`` the ``ShotOutcome`` (and the ``Trace``).

**The state** (``KernelState``, a frozen dataclass pytree; every field's shape and meaning in
its docstring): now ``t``; every disc's position, velocity, ``alive``, and its speed and unit
direction (``v``, ``ux``, ``uy``); for every pair the time to its next contact (``pair_t``:
the N(N-1)/2 pairs i < j in lexicographic order, plus one always-infinite slot that absorbs a
disc's pairing with itself); for every disc the time to its next one-disc event (``disc_t``:
capture, ditch, cushion/rail/post) with its code (``disc_k``); the outcome's bookkeeping
(captures and their order, the shooter's first contact, contact counts, ``n_events``,
``done``); and with ``record=True`` the ``Trace`` rows so far.

**The steps** of ``apply``, each a small function over the state: ``next_event`` takes the
earliest pair contact or one-disc event; ``advance`` moves every disc analytically to that
instant; ``resolve_pair`` applies a pair contact's impulse (restitution, contact friction,
sticking); ``resolve_disc`` a one-disc event (a wall's reflection - off a circular rail with
the grazing floor, which never adds kinetic energy: :func:`rail_bounce` - or a capture / the
ditch); ``tally`` counts the contacts and keeps the shooter's first; ``refresh`` shifts the
cached times to the new now and recomputes only the rows of the one or two discs whose motion
changed (the others stay valid because a disc's trajectory changes only at its own events);
``record_row`` writes the trace row. Times are kept relative to now (every cache is shifted by
the step), so float32 keeps its precision late in a shot. A disc coming to rest is not an
event: pair times are solved across the first stop (the quartic up to it, then the closed form
for the disc that slides on), and when no event is left every disc still sliding is advanced
to rest and the state is ``done``.

Simultaneous events resolve deterministically: pairs before one-disc events, then the lowest
index (a pair (i, j) with i < j by i * N + j). Touching discs that approach have a contact at
time 0, so a packed rosette resolves as a chain of sequential impulses at one instant, in that
fixed order, until no touching pair approaches (or the event cap is reached: ``truncated``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from carromlab.physics import events as ev
from carromlab.physics.params import CUSHION_MATERIALS, STRIKER_MATERIALS, Physics
from carromlab.physics.table import Pieces, Table

# One-disc event codes are laid out as [captures (C) | ditch (1) | walls (W)].
FIRST_NONE, FIRST_PIECE, FIRST_WALL = 0, 1, 2
#: Contact tolerance in metres by float size (bytes): float32 1e-6, float64 1e-12.
CONTACT_TOL = {4: 1e-6, 8: 1e-12}
#: Touching discs that close slower than this (m/s) are not a contact. After a plastic
#: contact a cluster moves at one common velocity, but float32 rounding leaves 1-ulp
#: differences that would make two contacts of one disc take turns for ever at one instant.
#: Choice: far below ``Physics.stick_speed`` (0.01 m/s); such a pair drifts together by at
#: most a few micrometres before it stops (removed by ``physics/settle.py``).
CLOSING_SPEED = 1e-5
#: Contact models (a static choice of :func:`make_machine`): ``"cluster"`` (the default)
#: solves every contact of a struck touching cluster together, without regard to labels;
#: ``"sequential"`` resolves the contacts of one instant pair by pair, lowest index first, the
#: model before it (docs/physics.md, "Touching clusters"). A lone pair is the same in both.
CONTACT_MODELS = ("sequential", "cluster")
DEFAULT_CONTACTS = "cluster"
#: Cluster solve: fourth-order steps per contact half-period of the cluster's stiffest contact
#: (:func:`solve_clusters`). At 8 the rosette's break leaves the cluster within about 0.15 % of
#: the converged speeds (7e-3 m/s at 5 m/s; 24 steps: 4e-4, 100 steps: 2e-5; docs/physics.md);
#: and the cap on steps per solve.
CLUSTER_STEPS = 8
CLUSTER_MAX_STEPS = 20_000


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Discs:
    """Initial state of one shot (or a batch, with a leading axis): a pytree of arrays."""

    x: jax.Array
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    radius: jax.Array
    inv_mass: jax.Array  # 0 for static pieces
    hard: jax.Array  # striker material: contacts use e_striker
    alive: jax.Array
    static: jax.Array

    @classmethod
    def from_pieces(cls, pieces: Pieces, dtype=None) -> Discs:
        return cls(**{k: jnp.asarray(v) for k, v in cls.arrays(pieces, dtype).items()})

    @staticmethod
    def arrays(pieces: Pieces, dtype=None) -> dict[str, np.ndarray]:
        """The fields of :meth:`from_pieces` as numpy arrays (cheap to build many of)."""
        dtype = np.dtype(dtype or jnp.result_type(float))
        f = partial(np.asarray, dtype=dtype)
        return dict(
            x=f(pieces.x),
            y=f(pieces.y),
            vx=f(np.where(pieces.static, 0.0, pieces.vx)),
            vy=f(np.where(pieces.static, 0.0, pieces.vy)),
            radius=f(pieces.radius),
            inv_mass=f(np.where(pieces.static, 0.0, 1.0 / pieces.mass)),
            hard=np.asarray([m in STRIKER_MATERIALS for m in pieces.materials], dtype=bool),
            alive=np.asarray(pieces.alive, dtype=bool),
            static=np.asarray(pieces.static, dtype=bool),
        )


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class ShotOutcome:
    """What one shot did. Capture codes: -1 on the board, 0..C-1 the table's captures
    (pockets, holes) in order, C the ditch / off the surface."""

    x: jax.Array
    y: jax.Array
    alive: jax.Array
    capture: jax.Array
    capture_time: jax.Array
    capture_order: jax.Array
    first_contact_kind: jax.Array  # 0 none, 1 piece, 2 wall
    first_contact: jax.Array  # piece index or wall index (table.cushion_names order)
    first_piece: jax.Array  # the first piece the shooter touched (after any walls); -1 none
    first_x: jax.Array  # where the shooter was at its first contact (NaN: none), the end of
    first_y: jax.Array  # its first straight leg
    contacts: jax.Array  # contacts each piece took part in
    n_piece_contacts: jax.Array
    n_wall_contacts: jax.Array
    n_events: jax.Array
    t_end: jax.Array
    truncated: jax.Array


@dataclass(frozen=True)
class _Walls:
    geom: np.ndarray  # (W, 4): segment x0,y0,x1,y1 | rail cx,cy,R,0 | post x,y,r,0
    kind: np.ndarray  # 0 segment, 1 rail, 2 post
    cushion: np.ndarray  # True: e_cushion, False: e_post


def _walls(table: Table) -> _Walls:
    geom = [*table.segments.tolist()]
    geom += [[*r, 0.0] for r in table.rails.tolist()]
    geom += [[*p, 0.0] for p in table.posts.tolist()]
    kind = [0] * len(table.segments) + [1] * len(table.rails) + [2] * len(table.posts)
    mats = table.segment_materials + table.rail_materials + table.post_materials
    return _Walls(
        geom=np.array(geom, dtype=float).reshape(-1, 4),
        kind=np.array(kind, dtype=np.int32),
        cushion=np.array([m in CUSHION_MATERIALS for m in mats], dtype=bool),
    )


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Trace:
    """The state just after every event (row 0: the start; the last valid row: at rest).

    Between two rows every disc slides on a straight line decelerating at mu * g, so the rows
    are all it takes to draw the exact paths (:func:`carromlab.physics.trace.sample_paths`).
    """

    t: jax.Array  # (E,)
    x: jax.Array  # (E, N)
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    alive: jax.Array
    event_i: jax.Array  # (E,) the event's disc i (-1 on row 0)
    event_j: jax.Array  # (E,) its partner j (== i for a one-disc event)
    event_code: jax.Array  # (E,) -1 pair contact, -2 the final "at rest" row, else the one-disc
    # code (capture, ditch, wall)
    n: jax.Array  # valid rows


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class KernelState:
    """One shot's event-loop state: the carry of :func:`make_machine`'s loop.

    N discs (``Discs`` order: disc 0 is the shooter), P = N(N-1)/2 pairs, C the table's
    captures; "float" is the discs' dtype (float32, or float64 under ``jax_enable_x64``). Under
    ``vmap`` every field gains the batch's leading axis. Every cached time (``pair_t``,
    ``disc_t``) is relative to ``t``: each step subtracts the time it advanced.

    Attributes:
        t: () float. Now: seconds since the shot began (the outcome's ``t_end``).
        x: (N,) float. Centres at ``t`` (m).
        y: (N,) float.
        vx: (N,) float. Velocities at ``t`` (m/s); 0 for a disc at rest or off the surface.
        vy: (N,) float.
        alive: (N,) bool. On the surface (False: captured, gone over the edge, or padding).
        v: (N,) float. Speed, ``hypot(vx, vy)``: cached with ``ux``, ``uy`` because every disc
            slides on along its direction until its next event.
        ux: (N,) float. Unit direction of motion (0, 0 at rest).
        uy: (N,) float.
        pair_t: (P + 1,) float. Time to each pair's next contact (inf: none). Slot p holds the
            pair (i, j), i < j, in lexicographic order; the last slot, where a disc's pairing
            with itself lands, is always inf.
        disc_t: (N,) float. Time to each disc's next one-disc event (inf: none).
        disc_k: (N,) int32. That event's code: c < C a capture, C the ditch, C + 1 + w wall w
            (``Table.cushion_names`` order: segments, rails, posts).
        capture: (N,) int32. -1 on the board, else the capture code the disc left by.
        capture_time: (N,) float. When it left (s since the start); NaN: still on the board.
        capture_order: (N,) int32. 0, 1, ... in the order discs left; -1: still on the board.
        n_captured: () int32. Discs that have left.
        first_contact_kind: () int32. The shooter's first contact: ``FIRST_NONE`` (none yet),
            ``FIRST_PIECE`` or ``FIRST_WALL``.
        first_contact: () int32. Its piece index or wall index; -1 none.
        first_piece: () int32. The first piece the shooter touched (after any walls); -1 none.
        first_x: () float. Where the shooter was at its first contact; NaN: none yet.
        first_y: () float.
        contacts: (N,) int32. Contacts (pairs and walls) each disc took part in.
        n_piece_contacts: () int32. Pair contacts resolved.
        n_wall_contacts: () int32. Wall contacts resolved.
        n_events: () int32. Events resolved (the final slide to rest is not one).
        done: () bool. No event was left: every disc has come to rest.
        trace: with ``record=True`` the ``Trace`` so far (rows ``0 .. trace.n - 1`` written),
            else None.
    """

    t: jax.Array
    x: jax.Array
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    alive: jax.Array
    v: jax.Array
    ux: jax.Array
    uy: jax.Array
    pair_t: jax.Array
    disc_t: jax.Array
    disc_k: jax.Array
    capture: jax.Array
    capture_time: jax.Array
    capture_order: jax.Array
    n_captured: jax.Array
    first_contact_kind: jax.Array
    first_contact: jax.Array
    first_piece: jax.Array
    first_x: jax.Array
    first_y: jax.Array
    contacts: jax.Array
    n_piece_contacts: jax.Array
    n_wall_contacts: jax.Array
    n_events: jax.Array
    done: jax.Array
    trace: Trace | None = None


@dataclass(frozen=True)
class _Kinematics:
    """Every disc's motion at one instant, shared by the event solvers: positions, velocities,
    speed ``v`` and unit direction ``ux``, ``uy``, ``alive``, and ``moving`` (alive, not
    static, speed > 0). All (N,)."""

    x: jax.Array
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    v: jax.Array
    ux: jax.Array
    uy: jax.Array
    alive: jax.Array
    moving: jax.Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class _Event:
    """The event one step resolves (:func:`make_machine`'s ``next_event``).

    Attributes:
        step: () float. Time from now to the event; when none is left (``finished``), the time
            for the last sliding disc to come to rest.
        finished: () bool. No event left.
        is_pair: () bool. The earliest is a pair contact (pairs win ties).
        i: () int. The pair's discs, i < j; both k for a one-disc event.
        j: () int.
        k: () int. The disc with the earliest one-disc event (whatever ``is_pair``).
        code: () int32. Disc k's one-disc event code (``KernelState.disc_k``).
        oh_i: (N,) bool. One-hot of disc i (selects cost less than scatters under vmap).
        oh_j: (N,) bool.
        oh_k: (N,) bool.
    """

    step: jax.Array
    finished: jax.Array
    is_pair: jax.Array
    i: jax.Array
    j: jax.Array
    k: jax.Array
    code: jax.Array
    oh_i: jax.Array
    oh_j: jax.Array
    oh_k: jax.Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class _Pending:
    """What one event's ``head`` hands on to the later stages (:class:`Stages`).

    Attributes:
        e: the event.
        vx0, vy0: (N,) the velocities before the pair contact's own impulse.
        hit_pair: () bool. A pair contact happened (the discs touch and close).
        start: () bool. The struck pair touches a third disc: the cluster model's solve is
            to run.
        solved: () bool. A cluster was solved (its contacts replace the pair's impulse).
    """

    e: _Event
    vx0: jax.Array
    vy0: jax.Array
    hit_pair: jax.Array
    start: jax.Array
    solved: jax.Array


class Stages(NamedTuple):
    """One event's ``apply`` in stages, for batch drivers (:func:`apply_batch`) that run the
    rare, costly ones only for the shots that need them: ``head(s) -> (s, pending)``; when
    ``pending.start``, the cluster model's solve: ``cluster_input(s, pending)`` for
    :func:`solve_cluster_hits` (the shots that need it gathered), then
    ``cluster_output(s, pending, out) -> (s, pending)``; ``tail(s, pending) -> s``; when
    ``pending.solved``, every cached time anew from ``event_times(x, y, vx, vy, alive) ->
    (pair_t, disc_t, disc_k)``; ``close(s, pending) -> s``."""

    head: Callable
    cluster_input: Callable
    cluster_output: Callable
    tail: Callable
    event_times: Callable
    close: Callable


class EventLoop(NamedTuple):
    """One shot's event loop, as ``machine(discs, physics)`` of :func:`make_machine` returns
    it: ``init()`` the state at the start, ``running(state)`` whether an event is left to
    resolve (not done, under the event cap), ``apply(state)`` resolves one event, and
    ``finish(state)`` the outcome (``(outcome, trace)`` with ``record=True``). Run it with
    ``finish(lax.while_loop(running, apply, init()))`` or any other driver
    (:func:`make_lane_simulator`). The order is the former ``(init_state, cond, body, finish)``,
    so positional unpacking still works."""

    init: Callable[[], KernelState]
    running: Callable[[KernelState], jax.Array]
    apply: Callable[[KernelState], KernelState]
    finish: Callable[[KernelState], ShotOutcome | tuple[ShotOutcome, Trace]]
    stages: Stages


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class ClusterInput:
    """What :func:`solve_clusters` needs of each shot, with the shots on the *last* axis (L):
    per-disc arrays (N, L), per-shot values (L,).

    Attributes:
        x, y, vx, vy: (N, L) positions and velocities before the struck pair's impulse.
        alive, static, hard: (N, L) bool. On the surface; fixed (posts, pegs); striker material.
        radius, inv_mass: (N, L).
        seed: (N, L) bool. The struck pair, where the cluster grows from.
        start: (L,) bool. The struck pair touches a third disc (otherwise nothing is solved).
        e_piece, e_striker, stick_speed: (L,) the shot's :class:`Physics` values.
    """

    x: jax.Array
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    alive: jax.Array
    static: jax.Array
    hard: jax.Array
    radius: jax.Array
    inv_mass: jax.Array
    seed: jax.Array
    start: jax.Array
    e_piece: jax.Array
    e_striker: jax.Array
    stick_speed: jax.Array


def solve_clusters(c: ClusterInput, steps: int = CLUSTER_STEPS):
    """The "cluster" contact model (docs/physics.md) for L shots at once: in each shot the
    connected set of discs touching the struck pair is found and all its contacts are solved
    together: a linear spring and dashpot per contact over the frozen geometry, damped so that
    a lone pair has its restitution, integrated until no contact is compressed or closing.

    Written over dense pair arrays (N, N, L) (row i, column j: the contact of i with j;
    symmetric, a zero diagonal) with the shots on the last axis, so that every operation runs
    along the shots (about twice as fast on a CPU as shots first); a row sum in place of a
    scatter. While the set of engaged contacts holds the system is linear with constant
    coefficients, so a fourth-order Runge-Kutta step is its fourth-order Taylor polynomial:
    four applications of the contact map give the state anywhere in the step, and a step that
    a contact's opening ends early (where its overlap is back to 0) costs nothing more.
    ``steps``: steps per contact half-period of the stiffest contact of the shot's cluster.

    Each shot's arithmetic depends on its own lane alone. Returns the velocities (N, L), the
    contacts' impulse measure (N, N, L; the time integral of the overlap, trapezoidal: positive
    for a contact that pushed) and whether a cluster was solved (L,)."""
    dt_ = c.x.dtype
    n = c.x.shape[0]
    tol = jnp.asarray(CONTACT_TOL[jnp.dtype(dt_).itemsize], dt_)
    dx = c.x[None, :] - c.x[:, None]
    dy = c.y[None, :] - c.y[:, None]
    dist = jnp.hypot(dx, dy)
    gap = dist - (c.radius[:, None] + c.radius[None, :])
    live = c.alive[:, None] & c.alive[None, :] & ~(c.static[:, None] & c.static[None, :])
    adj = (gap <= 2 * tol) & live & ~jnp.eye(n, dtype=bool)[:, :, None]

    def grow(g):
        reach, _ = g
        new = reach | (adj & reach[None, :]).any(axis=1)
        return new, (new != reach).any()

    reach, _ = jax.lax.while_loop(lambda g: g[1], grow, (c.seed & c.start, c.start.any()))
    edge = adj & reach[:, None] & reach[None, :]
    dist = jnp.maximum(dist, tol)
    nx, ny = dx / dist, dy / dist  # unit, from i towards j

    def closing(vx, vy):
        return (vx[:, None] - vx[None, :]) * nx + (vy[:, None] - vy[None, :]) * ny

    fast = (edge & (closing(c.vx, c.vy) >= c.stick_speed)).any(axis=(0, 1))
    solve = c.start & (reach.sum(axis=0) >= 3) & fast
    edge = edge & solve
    inv = c.inv_mass
    el = jnp.where(c.hard[:, None] | c.hard[None, :], c.e_striker, c.e_piece)
    le = jnp.log(jnp.clip(el, 1e-6, 1.0))
    zeta = -le / jnp.sqrt(jnp.pi**2 + le**2)
    m_c = 1.0 / jnp.maximum(inv[:, None] + inv[None, :], 1e-30)
    eta = jnp.where(edge, 2.0 * zeta * jnp.sqrt(m_c), 0.0)  # stiffness 1: time alone scales
    omega = jnp.sqrt(1.0 / m_c) * jnp.sqrt(jnp.maximum(1.0 - zeta**2, 1e-6))
    h = jnp.pi / (jnp.max(jnp.where(edge, omega, 0.0), axis=(0, 1)) + 1e-30) / steps

    def contact_map(vx, vy, de, on):
        """d/dt of (vx, vy, overlap) under the engaged contacts ``on`` (zero elsewhere)."""
        w = jnp.where(on, closing(vx, vy), 0.0)
        f = de + eta * w
        return -inv * (f * nx).sum(axis=1), -inv * (f * ny).sum(axis=1), w

    def engaged(vx, vy, de):
        return edge & ((de > 0) | (closing(vx, vy) > CLOSING_SPEED))

    def go(g):
        vx, vy, de, _, k = g
        return engaged(vx, vy, de).any() & (k < CLUSTER_MAX_STEPS)

    def step(g):
        vx, vy, de, imp, k = g
        on = engaged(vx, vy, de)
        terms = [(vx, vy, de)]
        for _ in range(4):
            terms.append(contact_map(*terms[-1], on))
        vxs, vys, des = zip(*terms, strict=True)

        def poly(xs, t, lift=0):  # sum_p t^(p+lift) / (p+lift)! xs[p]: the Taylor polynomial
            return sum(t ** (p + lift) / math.factorial(p + lift) * x for p, x in enumerate(xs))

        nvx, nvy, nde = poly(vxs, h), poly(vys, h), poly(des, h)
        # A contact whose overlap comes back to 0 inside the step opens there (linear
        # interpolation of the overlap) and pulls its discs together from then to the
        # step's end: that impulse (the integral of overlap + eta x closing speed) is undone,
        # to first order, instead of ending the step there (which would cost a step per
        # opening).
        opens = on & (nde < 0)
        t_open = h * jnp.where(opens, de / jnp.where(opens, de - nde, 1.0), 1.0)
        area = poly(des, h, 1) - poly(des, t_open, 1)
        pull = jnp.where(opens, area + eta * (nde - poly(des, t_open)), 0.0)
        nvx = nvx + inv * (pull * nx).sum(axis=1)
        nvy = nvy + inv * (pull * ny).sum(axis=1)
        imp = imp + 0.5 * h * (de + jnp.maximum(nde, 0.0))
        tiny = 1e-6 * jnp.max(jnp.abs(nde), axis=(0, 1)) if dt_ == jnp.float32 else 0.0
        nde = jnp.where(on & (nde > tiny), nde, 0.0)
        return nvx, nvy, nde, imp, k + 1

    zero = jnp.zeros(edge.shape, dt_)
    vx, vy, _, imp, _ = jax.lax.while_loop(
        go, step, (c.vx, c.vy, zero, zero, jnp.zeros((), jnp.int32))
    )
    return jnp.where(solve, vx, c.vx), jnp.where(solve, vy, c.vy), imp, solve


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class ClusterHits:
    """What a cluster solve's contacts count for the tallies (one shot; a leading batch axis
    in a batch).

    Attributes:
        per_disc: (N,) int32. Contacts of the cluster each disc took part in (that pushed).
        shooter_other: () int32. The disc the shooter (disc 0) pushed hardest (the largest
            impulse measure), or -1 when the shooter took no part.
    """

    per_disc: jax.Array
    shooter_other: jax.Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class ClusterOutput:
    """:func:`solve_cluster_hits`' answer for one shot (a leading batch axis in a batch):
    the velocities ``vx``, ``vy`` (N,) after the solve, its :class:`ClusterHits` and whether
    a cluster was solved (``solved``, () bool; otherwise the velocities are the input's)."""

    vx: jax.Array
    vy: jax.Array
    hits: ClusterHits
    solved: jax.Array


def solve_cluster_hits(c: ClusterInput, steps: int = CLUSTER_STEPS) -> ClusterOutput:
    """:func:`solve_clusters` for a batch of shots given with the batch on the *leading* axis
    (as the batched event loop holds them), each shot's impulses summed up for the tallies."""
    lanes_last = jax.tree_util.tree_map(lambda a: jnp.moveaxis(a, 0, -1), c)
    vx, vy, imp, solved = solve_clusters(lanes_last, steps)
    hit = imp > 0
    mine = hit[0]
    other = jnp.argmax(jnp.where(mine, imp[0], -1.0), axis=0).astype(jnp.int32)
    hits = ClusterHits(
        per_disc=hit.sum(axis=1).astype(jnp.int32).T,
        shooter_other=jnp.where(mine.any(axis=0), other, -1),
    )
    return ClusterOutput(vx=vx.T, vy=vy.T, hits=hits, solved=solved)


def make_simulator(
    table: Table,
    n_pieces: int,
    max_events: int = 512,
    record: bool = False,
    contacts: str = DEFAULT_CONTACTS,
    cluster_steps: int = CLUSTER_STEPS,
):
    """Build ``simulate(discs, physics) -> ShotOutcome`` for one shot on ``table``.

    With ``record=True`` it returns ``(ShotOutcome, Trace)``: the state after every event, for
    drawing a few shots (memory grows with ``max_events``, so keep batches small).
    ``contacts`` is the contact model (:data:`CONTACT_MODELS`); ``cluster_steps`` the cluster
    solve's steps per contact half-period (:data:`CLUSTER_STEPS`).
    """
    machine = make_machine(table, n_pieces, max_events, record, contacts, cluster_steps)

    def simulate(d: Discs, physics: Physics):
        loop = machine(d, physics)
        return loop.finish(jax.lax.while_loop(loop.running, loop.apply, loop.init()))

    return simulate


def rail_bounce(vn, vt, e, graze):
    """A bounce off a circular rail, in the rail's frame: ``vn`` the normal velocity in
    (negative: towards the rail), ``vt`` the speed along it (>= 0). Returns ``(dv, scale)``:
    the velocity out is ``(v + dv n) * scale`` (``n`` the rail's unit normal into the
    surface), so the normal speed out is ``(vn + dv) * scale`` and the speed along the rail
    ``vt * scale``.

    Plain restitution (normal speed out ``e * -vn``) with the grazing floor ``graze``
    (:attr:`Physics.rail_graze`): the normal speed out is at least ``graze * vt``, so the disc
    leaves at least ``atan(graze)`` off the rail (2.86 deg for 0.05). Where the floor alone
    would leave faster than the disc came (its normal speed above the incoming one, at
    incidences below ``atan(graze)``), ``scale`` brings the velocity back to the incoming
    speed in the floor's direction: the floor turns the velocity and never adds kinetic
    energy (it used to add up to +0.25 %, at 0.05 deg). Elsewhere ``scale`` is exactly 1 and
    ``dv`` is the old rule's, so those bounces are bit for bit as before. Pure and
    elementwise (tests/test_rail_energy.py)."""
    out = jnp.maximum(-e * vn, graze * vt)
    gain = out > -vn  # with e <= 1 only the floor does this
    v2 = vt * vt + vn * vn
    o2 = jnp.where(gain, vt * vt + out * out, 1.0)
    scale = jnp.where(gain, jnp.minimum(jnp.sqrt(v2 / o2), 1.0), 1.0)
    return out - vn, scale


def first_min(a):
    """(min, index of its first occurrence) of a 1-d array without NaN: what ``argmin`` gives,
    as two plain reductions (a min, then a min over the indices that hold it). Under vmap on
    a CPU these vectorise; ``argmin``'s paired reduction does not, and cost a sixth of an
    event's time."""
    m = jnp.min(a)
    n = a.shape[0]
    i = jnp.min(jnp.where(a == m, jnp.arange(n, dtype=jnp.int32), n - 1))
    return m, i


def make_machine(
    table: Table,
    n_pieces: int,
    max_events: int = 512,
    record: bool = False,
    contacts: str = DEFAULT_CONTACTS,
    cluster_steps: int = CLUSTER_STEPS,
):
    """Build ``machine(discs, physics) -> EventLoop(init, running, apply, finish)``: one shot's
    event loop over a :class:`KernelState`, in pieces, so that drivers other than one
    ``while_loop`` can run it (:func:`make_lane_simulator`).

    The table's geometry, the disc count, the event cap and ``record`` are static (closed over
    here); the discs and ``physics`` are traced (closed over by ``machine``). ``apply`` is the
    steps below in order: ``next_event``, ``advance``, ``resolve_pair``, ``resolve_disc``,
    ``tally``, ``refresh``, ``record_row`` (with ``record=True``), then the event count. With
    ``contacts="cluster"`` a pair contact whose discs touch others is solved with its whole
    touching cluster (``solve_cluster``, after ``resolve_pair``), and the cluster's rows are
    all refreshed."""
    if contacts not in CONTACT_MODELS:
        raise ValueError(f"contacts must be one of {', '.join(CONTACT_MODELS)}, not {contacts!r}")
    walls = _walls(table)
    n_walls = len(walls.kind)
    n_seg, n_rail = len(table.segments), len(table.rails)
    n_post = n_walls - n_seg - n_rail
    n_caps = len(table.captures)
    ditch = table.surface_beyond == "ditch" and table.surface_shape == "circle"
    n = n_pieces
    code_ditch = n_caps
    code_wall0 = n_caps + 1
    idx = np.arange(n)
    pair_i, pair_j = np.triu_indices(n, 1)
    n_pairs = len(pair_i)
    slot = np.full((n, n), n_pairs, dtype=np.int32)  # (i, i) -> the dummy slot
    slot[pair_i, pair_j] = np.arange(n_pairs)
    slot[pair_j, pair_i] = np.arange(n_pairs)
    slot_i = np.append(pair_i, 0).astype(np.int32)
    slot_j = np.append(pair_j, 0).astype(np.int32)

    def machine(d: Discs, physics: Physics) -> EventLoop:
        dt_ = d.x.dtype
        # Contact tolerance (m): discs whose gap is at most this touch. About 30 float32 ulps
        # of a coordinate on a 0.74 m board; the quartic converges to half of it.
        tol = jnp.asarray(CONTACT_TOL[jnp.dtype(dt_).itemsize], dt_)
        a = jnp.asarray(physics.mu * physics.g, dt_)
        recheck = jnp.sqrt(tol / (2 * a))  # see the touching pairs in pair_rows
        wall_geom = jnp.asarray(walls.geom, dt_)
        wall_kind = jnp.asarray(walls.kind)
        e_wall = jnp.where(jnp.asarray(walls.cushion), physics.e_cushion, physics.e_post)
        caps = jnp.asarray(table.captures, dt_).reshape(-1, 4)
        surface_r = jnp.asarray(table.surface_size, dt_)
        seg_geom = wall_geom[:n_seg]
        rail_geom = wall_geom[n_seg : n_seg + n_rail]
        post_geom = wall_geom[n_seg + n_rail :]

        def speed_dir(vx, vy):
            v = jnp.sqrt(vx * vx + vy * vy)
            safe = jnp.where(v > 0, v, 1.0)
            return v, vx / safe, vy / safe

        # ----------------------------------------------------------- the event solvers
        def kinematics(x, y, vx, vy, alive) -> _Kinematics:
            """Positions, speeds and unit directions of every disc (shared by the solvers)."""
            v, ux, uy = speed_dir(vx, vy)
            moving = alive & (v > 0) & ~d.static
            return _Kinematics(
                x=x, y=y, vx=vx, vy=vy, v=v, ux=ux, uy=uy, alive=alive, moving=moving
            )

        def disc_event(i, kin: _Kinematics):
            """(time, code) of disc i's next one-disc event."""
            px, py, r = kin.x[i], kin.y[i], d.radius[i]
            v, ux, uy = kin.v[i], kin.ux[i], kin.uy[i]
            moving = kin.moving[i]
            paths = []
            if n_caps:
                paths.append(jax.vmap(lambda c: ev.path_to_capture(px, py, ux, uy, v, a, c))(caps))
            paths.append(
                jnp.reshape(
                    ev.path_to_leave_circle(px, py, ux, uy, surface_r) if ditch else ev.INF,
                    (1,),
                ).astype(dt_)
            )
            if n_seg:
                paths.append(
                    jax.vmap(lambda g: ev.path_to_segment(px, py, ux, uy, r, g, tol))(seg_geom)
                )
            if n_rail:
                paths.append(
                    jax.vmap(lambda g: ev.path_inside_rail(px, py, ux, uy, r, g))(rail_geom)
                )
            if n_post:
                paths.append(
                    jax.vmap(lambda g: ev.path_to_disc(px, py, ux, uy, g[0], g[1], r + g[2]))(
                        post_geom
                    )
                )
            # Time grows with path length along one disc's path: take the nearest event first,
            # then convert that one path length to a time.
            s = jnp.concatenate(paths)
            s_k, k = first_min(s)
            t = ev.time_for_path(s_k, v, a)
            return jnp.where(moving, t, ev.INF), k

        def pair_rows(ids, kin: _Kinematics):
            """Time to the next contact of each disc ``ids[r]`` with every disc j: (R, N)
            (relative, inf if none). Row r broadcasts disc ``ids[r]``'s values (R, 1)
            against every disc's (1, N'), the discs padded to N', a multiple of
            :data:`PAIR_WIDTH` (copies of disc 0, cut off before the rows are returned): on a
            CPU the compiled loops vectorise along the last axis, and a last axis of 20 (a
            carrom board) leaves half a vector of 8 empty (docs/benchmarks.md)."""
            width = -(-n // PAIR_WIDTH) * PAIR_WIDTH

            def mine(a):  # disc ids[r]'s value, (R, 1)
                return a[ids][:, None]

            def theirs(a):  # every disc's value, (1, N'); the padding repeats disc 0's
                return jnp.concatenate([a, jnp.broadcast_to(a[:1], (width - n,))])[None, :]

            x, y, vx, vy = theirs(kin.x), theirs(kin.y), theirs(kin.vx), theirs(kin.vy)
            xi, yi, vxi, vyi = mine(kin.x), mine(kin.y), mine(kin.vx), mine(kin.vy)
            vi, uxi, uyi = mine(kin.v), mine(kin.ux), mine(kin.uy)
            vj, uxj, uyj = theirs(kin.v), theirs(kin.ux), theirs(kin.uy)
            mi, mj = mine(kin.moving), theirs(kin.moving)
            reach = mine(d.radius) + theirs(d.radius)
            d0x, d0y = x - xi, y - yi
            wx, wy = vx - vxi, vy - vyi
            dist = jnp.sqrt(d0x * d0x + d0y * d0y)
            gap = dist - reach
            dw = d0x * wx + d0y * wy  # parting speed x dist
            closing = dw < -CLOSING_SPEED * dist
            touching = gap <= tol
            # both moving: quartic on [start, first stop]
            ax = a * (jnp.where(mj, -uxj, 0.0) - jnp.where(mi, -uxi, 0.0))
            ay = a * (jnp.where(mj, -uyj, 0.0) - jnp.where(mi, -uyi, 0.0))
            # (a disc at rest has no horizon of its own: 0, also when a = 0)
            horizon = jnp.minimum(jnp.where(mi, vi / a, 0.0), jnp.where(mj, vj / a, 0.0))
            sep_speed = jnp.maximum(dw / jnp.maximum(dist, tol), tol)
            # A touching pair that is not closing: skip the root at 0 (rounding), but never
            # past the time it could come back. Until the first stop the relative
            # acceleration is constant; its closing part along the line of centres, pull,
            # turns a parting speed s round after s / pull (= dw / da, both x dist). Skip at
            # most that long, and at least sqrt(tol / 2a), in which no pull (at most 2a)
            # closes more than tol / 2: a slowly parting pair that friction pulls together
            # is re-checked in time.
            da = -(ax * d0x + ay * d0y)  # closing pull x dist
            back = jnp.where(da > 0, jnp.maximum(dw, tol * dist) / da, ev.INF)
            skip = jnp.minimum(4 * tol / sep_speed, jnp.maximum(back, recheck))
            start = jnp.where(touching & ~closing, jnp.minimum(skip, horizon), 0.0)
            t_mm, _status = ev.pair_time_moving(
                d0x, d0y, wx, wy, ax, ay, reach, horizon, start, reach * tol
            )
            # The tail: from t0 on, at most one of them moves (t0 = the first stop when both
            # move, else now) - a moving disc against a still one, closed form in path length.
            stop_i, stop_j = jnp.where(mi, vi / a, 0.0), jnp.where(mj, vj / a, 0.0)
            t0 = jnp.where(mi & mj, horizon, 0.0)
            i_moves_on = mi & (stop_i >= stop_j)  # else j moves on (or nobody)

            def at(px, py, ux, uy, v, stop):  # position and speed at t0 along a Coulomb path
                tau = jnp.minimum(t0, stop)
                s_ = v * tau - 0.5 * a * tau * tau
                return px + ux * s_, py + uy * s_, jnp.maximum(v - a * tau, 0.0)

            xi0, yi0, vi0 = at(xi, yi, uxi, uyi, vi, stop_i)
            xj0, yj0, vj0 = at(x, y, uxj, uyj, vj, stop_j)
            mx_, my_ = jnp.where(i_moves_on, xi0, xj0), jnp.where(i_moves_on, yi0, yj0)
            tx_, ty_ = jnp.where(i_moves_on, xj0, xi0), jnp.where(i_moves_on, yj0, yi0)
            mux, muy = jnp.where(i_moves_on, uxi, uxj), jnp.where(i_moves_on, uyi, uyj)
            s_m = ev.path_to_disc(mx_, my_, mux, muy, tx_, ty_, reach)
            t_tail = t0 + ev.time_for_path(s_m, jnp.where(i_moves_on, vi0, vj0), a)
            t = jnp.where(mi & mj, jnp.minimum(t_mm, t_tail), jnp.where(mi | mj, t_tail, ev.INF))
            t = jnp.where(touching & closing & (mi | mj), 0.0, t)
            valid = mine(kin.alive) & theirs(kin.alive) & (theirs(jnp.asarray(idx)) != ids[:, None])
            return jnp.where(valid, t, ev.INF)[:, :n]

        # ----------------------------------------------------------- the steps of one event
        def next_event(s: KernelState) -> _Event:
            """The earliest event: the earliest pair contact against the earliest one-disc
            event (pairs win ties; argmin takes the lowest slot / disc). When none is left,
            the step is the time the last sliding disc needs to come to rest."""
            tp, flat = first_min(s.pair_t)
            tq, k = first_min(s.disc_t)
            is_pair = tp <= tq
            step = jnp.minimum(tp, tq)
            finished = ~jnp.isfinite(step)
            # No event left: the discs still sliding come to rest; advance to the last stop.
            step = jnp.where(finished, jnp.max(s.v) / a, step)
            # pair slot -> (i, j); the dummy slot (and one-disc events) -> (k, k)
            i = jnp.where(is_pair, jnp.asarray(slot_i)[flat], k)
            j = jnp.where(is_pair, jnp.asarray(slot_j)[flat], k)
            return _Event(
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

        def advance(s: KernelState, e: _Event) -> KernelState:
            """Every disc slides along its direction to the event (a disc whose stop comes
            first rests there); ``t``, ``x``, ``y``, ``vx``, ``vy`` move on. ``v``, ``ux``,
            ``uy`` and the cached times are left for ``refresh``."""
            v, ux, uy, step = s.v, s.ux, s.uy, e.step
            tau = jnp.minimum(step, jnp.where(v > 0, v / a, 0.0))  # at rest: 0 (also a = 0)
            dist = v * tau - 0.5 * a * tau * tau
            vnew = jnp.where(tau < step, 0.0, jnp.maximum(v - a * tau, 0.0))
            return replace(
                s,
                t=s.t + step,
                x=s.x + ux * dist,
                y=s.y + uy * dist,
                vx=ux * vnew,
                vy=uy * vnew,
            )

        def resolve_pair(s: KernelState, e: _Event) -> tuple[KernelState, jax.Array]:
            """A pair contact (i, j): an impulse along the line of centres with restitution,
            contact friction, and sticking when slow. Returns the state with the new ``vx``,
            ``vy`` and whether a contact happened (a pair event whose discs touch and close;
            otherwise the velocities stay)."""
            i, j, x, y, vx, vy = e.i, e.j, s.x, s.y, s.vx, s.vy
            nx, ny = x[j] - x[i], y[j] - y[i]
            nd = jnp.sqrt(nx * nx + ny * ny)
            nx, ny = nx / jnp.maximum(nd, tol), ny / jnp.maximum(nd, tol)
            w = (vx[i] - vx[j]) * nx + (vy[i] - vy[j]) * ny
            # Accept up to 2 tol: the solvers aim at tol / 2 (the quartic) or call a pair within
            # tol touching (time 0), so rounding between the two never stalls a contact.
            touching = nd - (d.radius[i] + d.radius[j]) <= 2 * tol
            hit_pair = e.is_pair & ~e.finished & (w > 0) & touching & (i != j)
            el = jnp.where(d.hard[i] | d.hard[j], physics.e_striker, physics.e_piece)
            inv_i, inv_j = d.inv_mass[i], d.inv_mass[j]
            jimp = jnp.where(hit_pair, (1 + el) * w / (inv_i + inv_j), 0.0)
            # contact friction (Physics.mu_contact, 0 = smooth): a tangential impulse that
            # stops the contact point's sliding (solid discs with no spin before: 1/3 of the
            # centres' tangential speed difference, in reduced mass) or Coulomb-limited
            ut = (vy[i] - vy[j]) * nx - (vx[i] - vx[j]) * ny
            cap = physics.mu_contact * jimp
            stop_slide = ut / jnp.maximum(3 * (inv_i + inv_j), 1e-30)
            jt = jnp.where(hit_pair, jnp.clip(stop_slide, -cap, cap), 0.0)
            vxi = vx[i] - jimp * inv_i * nx + jt * inv_i * ny
            vyi = vy[i] - jimp * inv_i * ny - jt * inv_i * nx
            vxj = vx[j] + jimp * inv_j * nx - jt * inv_j * ny
            vyj = vy[j] + jimp * inv_j * ny + jt * inv_j * nx
            # slow contact: plastic, one common velocity (Physics.stick_speed)
            stick = hit_pair & (w < physics.stick_speed)
            vcx = (inv_j * vx[i] + inv_i * vx[j]) / (inv_i + inv_j)
            vcy = (inv_j * vy[i] + inv_i * vy[j]) / (inv_i + inv_j)
            vxi, vxj = jnp.where(stick, vcx, vxi), jnp.where(stick, vcx, vxj)
            vyi, vyj = jnp.where(stick, vcy, vyi), jnp.where(stick, vcy, vyj)
            vx = jnp.where(e.oh_i, vxi, jnp.where(e.oh_j, vxj, vx))
            vy = jnp.where(e.oh_i, vyi, jnp.where(e.oh_j, vyj, vy))
            return replace(s, vx=vx, vy=vy), hit_pair

        def resolve_disc(s: KernelState, e: _Event) -> tuple[KernelState, jax.Array, jax.Array]:
            """Disc k's one-disc event: a wall (cushion, rail, post) reflects its normal
            velocity (restitution; circular rails: :func:`rail_bounce`, the grazing floor
            ``Physics.rail_graze`` that never adds energy); a capture or the ditch takes it off
            the surface (``alive``, ``capture*``, ``n_captured``). Returns the state, whether a
            wall contact happened and the wall's index."""
            k, code, oh_k, vx, vy = e.k, e.code, e.oh_k, s.vx, s.vy
            disc_ev = ~e.is_pair & ~e.finished
            is_cap = disc_ev & (code < code_ditch)
            is_ditch = disc_ev & (code == code_ditch)
            is_wall = disc_ev & (code >= code_wall0)
            wk = jnp.clip(code - code_wall0, 0, max(n_walls - 1, 0))
            if n_walls:
                x, y = s.x, s.y
                g = wall_geom[wk]
                kind = wall_kind[wk]
                seg_len = jnp.sqrt((g[2] - g[0]) ** 2 + (g[3] - g[1]) ** 2)
                seg_n = (-(g[3] - g[1]) / seg_len, (g[2] - g[0]) / seg_len)
                rx, ry = x[k] - g[0], y[k] - g[1]
                rl = jnp.maximum(jnp.sqrt(rx * rx + ry * ry), tol)
                wnx = jnp.where(kind == 0, seg_n[0], jnp.where(kind == 1, -rx / rl, rx / rl))
                wny = jnp.where(kind == 0, seg_n[1], jnp.where(kind == 1, -ry / rl, ry / rl))
                vn = vx[k] * wnx + vy[k] * wny
                hit_wall = is_wall & (vn < 0)
                # circular rails: restitution with the grazing floor, which never adds
                # energy (rail_bounce; Physics.rail_graze: no endless grazing bounces)
                vt = jnp.sqrt(jnp.maximum(vx[k] * vx[k] + vy[k] * vy[k] - vn * vn, 0.0))
                rail_dv, rail_scale = rail_bounce(vn, vt, e_wall[wk], physics.rail_graze)
                dv = jnp.where(kind == 1, rail_dv, -(1 + e_wall[wk]) * vn)
                dv = jnp.where(hit_wall, dv, 0.0)
                vx = jnp.where(oh_k, vx + dv * wnx, vx)
                vy = jnp.where(oh_k, vy + dv * wny, vy)
                # 1 but where the floor turns a grazing bounce (scale < 1 there)
                scale = jnp.where(hit_wall & (kind == 1), rail_scale, 1.0)
                vx = jnp.where(oh_k, vx * scale, vx)
                vy = jnp.where(oh_k, vy * scale, vy)
            else:
                hit_wall = jnp.zeros((), bool)
            gone = is_cap | is_ditch
            gone_k = oh_k & gone
            s = replace(
                s,
                vx=jnp.where(gone_k, 0.0, vx),
                vy=jnp.where(gone_k, 0.0, vy),
                alive=s.alive & ~gone_k,
                capture=jnp.where(gone_k, code, s.capture),
                capture_time=jnp.where(gone_k, s.t, s.capture_time),
                capture_order=jnp.where(gone_k, s.n_captured, s.capture_order),
                n_captured=s.n_captured + gone.astype(jnp.int32),
            )
            return s, hit_wall, wk

        def tally(s: KernelState, e: _Event, hit_pair, hit_wall, wk) -> KernelState:
            """Counts the contacts (per disc, pairs, walls) and keeps the shooter's (disc 0)
            first contact, first piece and where it was then."""
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
            """A cluster solve's contacts (:class:`ClusterHits`): every contact that pushed
            counts (for its two discs and the pair total); the shooter's first contact, when it
            is in the cluster, is its strongest (labels play no part)."""
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
                first_piece=jnp.where(
                    mine & (s.first_piece < 0), hits.shooter_other, s.first_piece
                ),
            )

        def refresh(s: KernelState, e: _Event) -> KernelState:
            """Shifts the cached times to the new now and recomputes the rows of the only
            discs whose motion changed, i and j (k, k for a one-disc event): their pair times
            and one-disc events, and every disc's ``v``, ``ux``, ``uy``."""
            i, j = e.i, e.j
            pair_t = s.pair_t - e.step
            disc_t = s.disc_t - e.step
            kin = kinematics(s.x, s.y, s.vx, s.vy, s.alive)
            both = jnp.stack([i, j])
            rows = pair_rows(both, kin)
            slots = jnp.asarray(slot)
            # (the pair (i, i) lands in the dummy slot, always inf)
            pair_t = pair_t.at[slots[i]].set(rows[0]).at[slots[j]].set(rows[1])
            tk, kk = jax.vmap(lambda m: disc_event(m, kin))(both)
            kk = kk.astype(jnp.int32)
            return replace(
                s,
                pair_t=pair_t,
                disc_t=jnp.where(e.oh_i, tk[0], jnp.where(e.oh_j, tk[1], disc_t)),
                disc_k=jnp.where(e.oh_i, kk[0], jnp.where(e.oh_j, kk[1], s.disc_k)),
                v=kin.v,
                ux=kin.ux,
                uy=kin.uy,
            )

        def touches_third(s: KernelState, e: _Event) -> jax.Array:
            """Whether disc i or j of the event touches a third live disc (two rows of gaps:
            the cheap test run at every event, before any cluster work)."""
            gi = jnp.hypot(s.x - s.x[e.i], s.y - s.y[e.i]) - d.radius - d.radius[e.i]
            gj = jnp.hypot(s.x - s.x[e.j], s.y - s.y[e.j]) - d.radius - d.radius[e.j]
            near = (gi <= 2 * tol) | (gj <= 2 * tol)
            return (near & s.alive & ~e.oh_i & ~e.oh_j).any()

        def at_most_once(run, todo, operand):
            """``run(operand)`` when ``todo``, else ``operand`` unchanged: a while loop of at
            most one pass, so under vmap a batch pays for ``run`` only at the events where some
            shot needs it (a ``cond`` would run it for every shot at every event)."""
            return jax.lax.while_loop(
                lambda c: c[1], lambda c: (run(c[0]), jnp.zeros((), bool)), (operand, todo)
            )[0]

        def disc_times(kin: _Kinematics):
            """Every disc's one-disc event: (disc_t, disc_k)."""
            disc_t, disc_k = jax.vmap(lambda m: disc_event(m, kin))(idx)
            return disc_t, disc_k.astype(jnp.int32)

        def event_times(x, y, vx, vy, alive):
            """Every pair row and one-disc event from scratch: (pair_t, disc_t, disc_k)."""
            kin = kinematics(x, y, vx, vy, alive)
            full = pair_rows(jnp.asarray(idx), kin)
            pair_t = jnp.concatenate([full[pair_i, pair_j], jnp.full((1,), ev.INF, dt_)])
            return (pair_t, *disc_times(kin))

        def moving_pair_times(kin: _Kinematics):
            """The pair times of :func:`event_times` computing rows only for the discs that
            move (a pair of two discs at rest has no contact: inf), :data:`ROWS_PER_PASS` rows
            a pass; a pair of two moving discs takes the row of the lower index, as in
            ``event_times`` (the same numbers: a row's entry for a disc at rest is the pair's
            own time from either side). At a shot's start only the striker moves: one row
            instead of n."""
            slots = jnp.asarray(slot)

            def body(c):
                todo, pair_t = c
                (ids,) = jnp.nonzero(todo, size=ROWS_PER_PASS, fill_value=n)
                sid = jnp.minimum(ids, n - 1)
                rows = pair_rows(sid, kin)
                keep = (ids[:, None] < n) & (~kin.moving[None, :] | (idx[None, :] > sid[:, None]))
                target = jnp.where(keep, slots[sid], n_pairs + 1)
                pair_t = pair_t.at[target.reshape(-1)].set(rows.reshape(-1), mode="drop")
                return todo.at[ids].set(False, mode="drop"), pair_t

            pair_t = jnp.full(n_pairs + 1, ev.INF, dt_)
            return jax.lax.while_loop(lambda c: c[0].any(), body, (kin.moving, pair_t))[1]

        def full_refresh(s: KernelState) -> KernelState:
            """Every pair row and one-disc event recomputed (after a cluster solve)."""
            pair_t, disc_t, disc_k = event_times(s.x, s.y, s.vx, s.vy, s.alive)
            return replace(s, pair_t=pair_t, disc_t=disc_t, disc_k=disc_k)

        def record_row(s: KernelState, e: _Event) -> KernelState:
            """Writes the state after the event into the trace's next row (``trace.n``)."""
            tr = s.trace
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

        # ----------------------------------------------------------- the loop's pieces
        def init() -> KernelState:
            """The state at the start: every pair row and one-disc event solved."""
            x, y, vx, vy, alive = d.x, d.y, d.vx, d.vy, d.alive
            kin = kinematics(x, y, vx, vy, alive)
            pair_t = moving_pair_times(kin)
            disc_t, disc_k = disc_times(kin)
            rows = max_events + 2  # the start, at most max_events events, the rest
            trace = None
            if record:
                trace = Trace(
                    t=jnp.zeros(rows, dt_),
                    x=jnp.zeros((rows, n), dt_).at[0].set(x),
                    y=jnp.zeros((rows, n), dt_).at[0].set(y),
                    vx=jnp.zeros((rows, n), dt_).at[0].set(vx),
                    vy=jnp.zeros((rows, n), dt_).at[0].set(vy),
                    alive=jnp.zeros((rows, n), bool).at[0].set(alive),
                    event_i=jnp.full(rows, -1, jnp.int32),
                    event_j=jnp.full(rows, -1, jnp.int32),
                    event_code=jnp.full(rows, -1, jnp.int32),
                    n=jnp.ones((), jnp.int32),
                )
            return KernelState(
                t=jnp.zeros((), dt_),
                x=x,
                y=y,
                vx=vx,
                vy=vy,
                alive=alive,
                v=kin.v,
                ux=kin.ux,
                uy=kin.uy,
                pair_t=pair_t,
                disc_t=disc_t,
                disc_k=disc_k,
                capture=jnp.full(n, -1, jnp.int32),
                capture_time=jnp.full(n, jnp.nan, dt_),
                capture_order=jnp.full(n, -1, jnp.int32),
                n_captured=jnp.zeros((), jnp.int32),
                first_contact_kind=jnp.zeros((), jnp.int32),
                first_contact=jnp.full((), -1, jnp.int32),
                first_piece=jnp.full((), -1, jnp.int32),
                first_x=jnp.full((), jnp.nan, dt_),
                first_y=jnp.full((), jnp.nan, dt_),
                contacts=jnp.zeros(n, jnp.int32),
                n_piece_contacts=jnp.zeros((), jnp.int32),
                n_wall_contacts=jnp.zeros((), jnp.int32),
                n_events=jnp.zeros((), jnp.int32),
                done=jnp.zeros((), bool),
                trace=trace,
            )

        def running(s: KernelState) -> jax.Array:
            """An event is left to resolve: not done and under the event cap."""
            return ~s.done & (s.n_events < max_events)

        def head(s: KernelState) -> tuple[KernelState, _Pending]:
            """The next event, every disc advanced to it, and a pair contact's own impulse;
            with the cluster model, also whether the struck pair touches a third disc."""
            e = next_event(s)
            s = advance(s, e)
            vx0, vy0 = s.vx, s.vy
            s, hit_pair = resolve_pair(s, e)
            start = jnp.zeros((), bool)
            if contacts == "cluster":
                start = hit_pair & touches_third(replace(s, vx=vx0, vy=vy0), e)
            return s, _Pending(e, vx0, vy0, hit_pair, start, jnp.zeros((), bool))

        def cluster_input(s: KernelState, p: _Pending) -> ClusterInput:
            """This shot's :class:`ClusterInput` (one shot: no lane axis)."""
            return ClusterInput(
                x=s.x,
                y=s.y,
                vx=p.vx0,
                vy=p.vy0,
                alive=s.alive,
                static=d.static,
                hard=d.hard,
                radius=d.radius,
                inv_mass=d.inv_mass,
                seed=p.e.oh_i | p.e.oh_j,
                start=p.start,
                e_piece=jnp.asarray(physics.e_piece, dt_),
                e_striker=jnp.asarray(physics.e_striker, dt_),
                stick_speed=jnp.asarray(physics.stick_speed, dt_),
            )

        def cluster_output(s: KernelState, p: _Pending, out: ClusterOutput):
            """The state after :func:`solve_cluster_hits` (this shot's lane): the new
            velocities and the cluster's contacts tallied, when a cluster was solved (otherwise
            the pair's own impulse stands)."""
            s2 = tally_cluster(replace(s, vx=out.vx, vy=out.vy), out.hits)
            s = jax.tree_util.tree_map(lambda a, b: jnp.where(out.solved, a, b), s2, s)
            return s, replace(p, solved=out.solved)

        def solve(s: KernelState, p: _Pending) -> tuple[KernelState, _Pending]:
            """The cluster solve of one shot: :func:`solve_clusters` over :data:`SOLVE_LANES`
            copies of it, the shape a batch solves in, so that the shot's numbers are the
            batch's (the compiled arithmetic of a lane can depend on the lane count)."""
            many = jax.tree_util.tree_map(
                lambda a: jnp.broadcast_to(a[None], (SOLVE_LANES, *a.shape)),
                cluster_input(s, p),
            )
            out = jax.tree_util.tree_map(lambda a: a[0], solve_cluster_hits(many, cluster_steps))
            return cluster_output(s, p, out)

        def tail(s: KernelState, p: _Pending) -> KernelState:
            """The one-disc event, the tallies and the cached times of the discs that moved."""
            e = p.e
            s, hit_wall, wk = resolve_disc(s, e)
            s = tally(s, e, p.hit_pair & ~p.solved, hit_wall, wk)
            return refresh(s, e)

        def close(s: KernelState, p: _Pending) -> KernelState:
            """The trace's row (``record=True``) and the event count."""
            e = p.e
            if record:
                s = record_row(s, e)
            return replace(
                s, n_events=s.n_events + (~e.finished).astype(jnp.int32), done=e.finished
            )

        def apply(s: KernelState) -> KernelState:
            """Resolves the next event (or, when none is left, lets every disc come to rest
            and marks the state done): ``head``, ``solve`` (cluster model, only when a
            struck pair touches a third disc), ``tail``, every row refreshed after a cluster
            solve, ``close``. A done state has come to rest and resolves nothing; vmap's
            while_loop keeps finished shots as they are (batches run :func:`apply_batch`,
            which runs the cluster work only for the shots that need it)."""
            s, p = head(s)
            if contacts == "cluster":
                s, p = at_most_once(lambda c: solve(*c), p.start, (s, p))
            s = tail(s, p)
            if contacts == "cluster":
                s = at_most_once(full_refresh, p.solved, s)
            return close(s, p)

        def finish(s: KernelState):
            """The outcome (and, with ``record=True``, the trace) of a finished loop state."""
            outcome = ShotOutcome(
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
            return (outcome, s.trace) if record else outcome

        stages = Stages(
            head=head,
            cluster_input=cluster_input,
            cluster_output=cluster_output,
            tail=tail,
            event_times=event_times,
            close=close,
        )
        return EventLoop(init=init, running=running, apply=apply, finish=finish, stages=stages)

    return machine


#: Cluster solves (and the full refresh after one) run for at most this many shots of a batch
#: at once, the shots that need one gathered together, round after round: the batch's other
#: shots do not wait on them (under a plain vmap every shot would run every solve's loop).
SOLVE_LANES = 32
#: XLA options for the kernel's compiled programs on a CPU: vectors of 512 bits where the CPU
#: has them (AVX-512; elsewhere the widest it has). Outcomes are the same bit for bit; the
#: break ran 5-10 % faster on a 2-core AMD EPYC (docs/benchmarks.md). Not used on a GPU.
CPU_COMPILER_OPTIONS = {"xla_cpu_prefer_vector_width": 512}
#: The pair rows' discs are padded to a multiple of this (:func:`make_machine`'s
#: ``pair_rows``): the float32 lanes of a 256-bit vector register (512-bit vectors take a row
#: of 24 as 16 + 8).
PAIR_WIDTH = 8
#: Pair rows computed together in one pass of ``moving_pair_times`` (at a shot's start:
#: usually one disc, the striker, moves).
ROWS_PER_PASS = 2


def kernel_compiler_options() -> dict | None:
    """:data:`CPU_COMPILER_OPTIONS` when JAX's default backend is the CPU, else None."""
    return CPU_COMPILER_OPTIONS if jax.default_backend() == "cpu" else None


def _take(tree, ids):
    return jax.tree_util.tree_map(lambda a: a[ids], tree)


def _put(tree, ids, new):
    return jax.tree_util.tree_map(lambda a, b: a.at[ids].set(b, mode="drop"), tree, new)


def _where(mask, new, old):
    """``new`` where ``mask`` (one flag per shot, the leading axis), else ``old``."""

    def pick(a, b):
        return jnp.where(mask.reshape(mask.shape + (1,) * (a.ndim - 1)), a, b)

    return jax.tree_util.tree_map(pick, new, old)


def run_where(f, need, consts, state, lanes: int = SOLVE_LANES):
    """``f(*consts, state) -> state`` (over a batch: leading axis) for the shots where
    ``need``, at most ``lanes`` of them at a time, gathered together; the other shots keep
    their ``state``. Nothing runs when no shot needs it."""
    b = need.shape[0]

    def body(c):
        need, st = c
        (ids,) = jnp.nonzero(need, size=lanes, fill_value=b)
        sid = jnp.minimum(ids, b - 1)  # (a missing one repeats the last shot; dropped below)
        out = f(*_take(consts, sid), _take(st, sid))
        return need.at[ids].set(False, mode="drop"), _put(st, ids, out)

    return jax.lax.while_loop(lambda c: c[0].any(), body, (need, state))[1]


def apply_batch(
    loop_of,
    lanes_in,
    states,
    contacts: str,
    lanes: int = SOLVE_LANES,
    cluster_steps: int = CLUSTER_STEPS,
):
    """One event for every running shot of a batch: ``loop_of(*lane)`` is one shot's
    :class:`EventLoop` for one element of ``lanes_in`` (a tuple of pytrees with the batch's
    leading axis, such as ``(discs,)`` or ``(discs, physics)``), ``states`` the batch's
    :class:`KernelState`. The loop's ``apply`` runs in its :class:`Stages`, each vmapped, with
    the cluster model's solve (:func:`solve_clusters`, the shots on its last axis) and full
    refresh run only for the shots that need one (:func:`run_where`). A shot that is no longer
    running keeps its state. With :func:`make_batch_simulator` and
    :func:`make_lane_simulator`, the one place where the event loop is batched."""
    k = len(lanes_in)

    def stage(name):
        return jax.vmap(lambda *a: getattr(loop_of(*a[:k]).stages, name)(*a[k:]))

    go = jax.vmap(lambda *a: loop_of(*a[:k]).running(a[k]))(*lanes_in, states)
    new, pend = stage("head")(*lanes_in, states)
    if contacts == "cluster":
        inp = stage("cluster_input")(*lanes_in, new, pend)
        b, n = new.x.shape
        none = ClusterOutput(
            vx=new.vx,
            vy=new.vy,
            hits=ClusterHits(
                per_disc=jnp.zeros((b, n), jnp.int32), shooter_other=jnp.full(b, -1, jnp.int32)
            ),
            solved=jnp.zeros(b, bool),
        )
        out = run_where(
            lambda i, _: solve_cluster_hits(i, cluster_steps), pend.start & go, (inp,), none, lanes
        )
        new, pend = stage("cluster_output")(*lanes_in, new, pend, out)
    new = stage("tail")(*lanes_in, new, pend)
    if contacts == "cluster":
        kin = (new.x, new.y, new.vx, new.vy, new.alive)
        times = (new.pair_t, new.disc_t, new.disc_k)
        times = run_where(
            lambda *a: stage("event_times")(*a[:-1]),
            pend.solved & go,
            (*lanes_in, *kin),
            times,
            lanes,
        )
        new = replace(new, pair_t=times[0], disc_t=times[1], disc_k=times[2])
    new = stage("close")(*lanes_in, new, pend)
    return _where(go, new, states)


def make_batch_simulator(
    table: Table,
    n_pieces: int,
    max_events: int = 512,
    per_shot_physics: bool = False,
    contacts: str = DEFAULT_CONTACTS,
    solve_lanes: int = SOLVE_LANES,
    record: bool = False,
    cluster_steps: int = CLUSTER_STEPS,
):
    """``simulate(discs, physics)`` over a batch of shots (leading axis of every Discs array);
    batched (:func:`apply_batch`) and jitted here. With ``per_shot_physics`` every field of
    ``physics`` has the batch's leading axis too (one set of parameters per shot:
    physics/priors.py). ``solve_lanes``: :data:`SOLVE_LANES`. With ``record=True`` it returns
    ``(ShotOutcome, Trace)`` with the batch's leading axis (memory grows with ``max_events``
    for every shot: keep batches small). ``cluster_steps``: :data:`CLUSTER_STEPS`."""
    machine = make_machine(
        table, n_pieces, max_events, record=record, contacts=contacts, cluster_steps=cluster_steps
    )

    def simulate(discs: Discs, physics: Physics):
        if per_shot_physics:
            lanes_in, loop_of = (discs, physics), machine
        else:
            lanes_in, loop_of = (discs,), lambda d: machine(d, physics)
        ss = jax.vmap(lambda *a: loop_of(*a).init())(*lanes_in)

        def running(ss):
            return jax.vmap(lambda *a: loop_of(*a[:-1]).running(a[-1]))(*lanes_in, ss).any()

        ss = jax.lax.while_loop(
            running,
            lambda ss: apply_batch(loop_of, lanes_in, ss, contacts, solve_lanes, cluster_steps),
            ss,
        )
        return jax.vmap(lambda *a: loop_of(*a[:-1]).finish(a[-1]))(*lanes_in, ss)

    return jax.jit(simulate, compiler_options=kernel_compiler_options())


def make_lane_simulator(
    table: Table,
    n_pieces: int,
    max_events: int = 512,
    lanes: int = 128,
    steps: int = 2,
    contacts: str = DEFAULT_CONTACTS,
    per_shot_physics: bool = False,
    cluster_steps: int = CLUSTER_STEPS,
):
    """``simulate(discs, physics)`` over a queue of shots (leading axis) with ``lanes`` of
    them in flight at once; jitted, returns a ``ShotOutcome`` per shot like
    :func:`make_batch_simulator` (``per_shot_physics`` as there).

    A vmapped ``while_loop`` runs every shot of a batch for as many events as its longest shot
    has, so lanes idle; here a lane whose shot has come to rest hands its outcome back and
    takes the next shot of the queue. Lanes are harvested a quarter at a time (each harvest
    starts that many new shots), after every ``steps`` events. A shot's numbers do not depend
    on its lane or on the other shots: they are the batch simulator's, bit for bit
    (tests/test_kernel.py, tests/test_devices.py).
    """
    machine = make_machine(
        table, n_pieces, max_events, contacts=contacts, cluster_steps=cluster_steps
    )

    def run(discs: Discs, physics: Physics) -> ShotOutcome:
        q = discs.x.shape[0]
        n_lanes = min(lanes, q)
        per_harvest = max(1, n_lanes // 4)
        tmap = jax.tree_util.tree_map
        if per_shot_physics:
            queue_in, loop_of = (discs, physics), machine
        else:
            queue_in, loop_of = (discs,), lambda d: machine(d, physics)

        def init_many(lane):
            return jax.vmap(lambda *a: loop_of(*a).init())(*lane)

        def finish_many(lane, s):
            return jax.vmap(lambda *a: loop_of(*a[:-1]).finish(a[-1]))(*lane, s)

        def running_many(lane, s):
            return jax.vmap(lambda *a: loop_of(*a[:-1]).running(a[-1]))(*lane, s)

        lane_in = _take(queue_in, jnp.arange(n_lanes))
        lane_s = init_many(lane_in)
        shape = jax.eval_shape(finish_many, lane_in, lane_s)
        out = tmap(lambda sd: jnp.zeros((q, *sd.shape[1:]), sd.dtype), shape)
        carry = (lane_in, lane_s, jnp.arange(n_lanes), jnp.asarray(n_lanes), out)

        def harvest(c, finished):
            lane_in, lane_s, lane_id, nxt, out = c
            (slots,) = jnp.nonzero(finished, size=per_harvest, fill_value=n_lanes)
            valid = slots < n_lanes
            sl = jnp.minimum(slots, n_lanes - 1)
            res = finish_many(_take(lane_in, sl), _take(lane_s, sl))
            out = _put(out, jnp.where(valid, lane_id[sl], q), res)
            new_id = nxt + jnp.cumsum(valid) - 1
            has_new = valid & (new_id < q)
            nid = jnp.minimum(new_id, q - 1)
            nd = _take(queue_in, nid)
            target = jnp.where(valid, slots, n_lanes)
            lane_in = _put(lane_in, target, nd)
            lane_s = _put(lane_s, target, init_many(nd))
            lane_id = lane_id.at[target].set(jnp.where(has_new, nid, -1), mode="drop")
            return lane_in, lane_s, lane_id, nxt + has_new.sum(), out

        def outer_body(c):
            lane_in, lane_s, lane_id, nxt, out = c
            lane_s = jax.lax.fori_loop(
                0,
                steps,
                lambda _, s: apply_batch(loop_of, lane_in, s, contacts, SOLVE_LANES, cluster_steps),
                lane_s,
            )
            running = running_many(lane_in, lane_s) & (lane_id >= 0)
            finished = (lane_id >= 0) & ~running
            n_fin = finished.sum()
            go = (n_fin >= per_harvest) | ((n_fin > 0) & ~running.any())
            c = (lane_in, lane_s, lane_id, nxt, out)
            return jax.lax.cond(go, lambda c: harvest(c, finished), lambda c: c, c)

        return jax.lax.while_loop(lambda c: (c[2] >= 0).any(), outer_body, carry)[4]

    return jax.jit(run, compiler_options=kernel_compiler_options())


@functools.lru_cache(maxsize=32)
def batch_simulator_for(
    layout,
    n_pieces: int,
    max_events: int = 512,
    per_shot_physics: bool = False,
    contacts: str = DEFAULT_CONTACTS,
):
    """:func:`make_batch_simulator` for a board layout (hashable), cached: every caller with
    the same layout, disc count and cap shares one jitted (and so once-compiled) simulator."""
    table = Table.from_layout(layout)
    return make_batch_simulator(table, n_pieces, max_events, per_shot_physics, contacts)


@functools.lru_cache(maxsize=32)
def lane_simulator_for(
    layout,
    n_pieces: int,
    max_events: int = 512,
    lanes: int = 64,
    contacts: str = DEFAULT_CONTACTS,
    per_shot_physics: bool = False,
    steps: int = 1,
):
    """:func:`make_lane_simulator` for a board layout, cached like :func:`batch_simulator_for`."""
    return make_lane_simulator(
        Table.from_layout(layout),
        n_pieces,
        max_events,
        lanes=lanes,
        steps=steps,
        contacts=contacts,
        per_shot_physics=per_shot_physics,
    )
