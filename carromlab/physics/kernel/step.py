"""One shot's event loop: ``init`` and ``apply``, each a short chain of named module-level
functions ``f(spec, c, state) -> state`` over the static spec
(:class:`~carromlab.physics.kernel.spec.KernelSpec`), the shot's traced constants
(:class:`~carromlab.physics.kernel.spec.Constants`: its discs and physics) and the loop state
(:class:`~carromlab.physics.kernel.state.KernelState`).

``apply`` resolves the next event in stages (:data:`STAGES`, the one list a batch runs too, the
rare, costly ones only for the shots that need them: :mod:`carromlab.physics.kernel.batch`):

1. :func:`head`: the next event (:func:`~carromlab.physics.kernel.detect.next_event`), every
   disc advanced to it (:func:`~carromlab.physics.kernel.resolve.advance`), a pair contact's
   impulse (:func:`~carromlab.physics.kernel.resolve.resolve_pair`) and, with the cluster
   model, whether the struck pair touches a third disc;
2. the cluster solve, only then (:func:`~carromlab.physics.kernel.cluster.solve_one`);
3. :func:`tail`: a one-disc event (:func:`~carromlab.physics.kernel.resolve.resolve_disc`),
   the tallies, and the cached times of the discs that moved (:func:`refresh`);
4. every cached time anew after a cluster solve (:func:`full_refresh`);
5. :func:`close`: the trace's row and the event count.

Times are kept relative to now (every cache is shifted by the step), so float32 keeps its
precision late in a shot. When no event is left every disc still sliding is advanced to rest
and the state is ``done``. Simultaneous events resolve deterministically: pairs before
one-disc events, then the lowest index (a pair (i, j) with i < j by i * N + j).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import NamedTuple, TypeVar

import jax
import jax.numpy as jnp

from carromlab.physics.kernel.cluster import (
    ClusterInput,
    ClusterOutput,
    cluster_input,
    cluster_output,
    solve_one,
    touches_third,
)
from carromlab.physics.kernel.detect import (
    disc_event,
    disc_times,
    event_times,
    kinematics,
    moving_pair_times,
    next_event,
    pair_rows,
)
from carromlab.physics.kernel.resolve import advance, resolve_disc, resolve_pair
from carromlab.physics.kernel.spec import (
    CLUSTER_STEPS,
    DEFAULT_CONTACTS,
    Constants,
    KernelSpec,
    bind,
    make_spec,
)
from carromlab.physics.kernel.state import (
    Discs,
    Event,
    KernelState,
    Kinematics,
    Pending,
    ShotOutcome,
    Trace,
)
from carromlab.physics.kernel.tally import finish, new_trace, record_row, tally
from carromlab.physics.params import Physics
from carromlab.physics.table import Table

T = TypeVar("T")


def start_state(
    spec: KernelSpec,
    c: Constants,
    kin: Kinematics,
    pair_t: jax.Array,
    disc_t: jax.Array,
    disc_k: jax.Array,
) -> KernelState:
    """The state at the start with its cached times: the discs where they are, nothing
    captured, nothing touched."""
    d, dtype, n = c.discs, c.dtype, spec.n
    trace = new_trace(spec, d.x, d.y, d.vx, d.vy, d.alive) if spec.record else None
    return KernelState(
        t=jnp.zeros((), dtype),
        x=d.x,
        y=d.y,
        vx=d.vx,
        vy=d.vy,
        alive=d.alive,
        v=kin.v,
        ux=kin.ux,
        uy=kin.uy,
        pair_t=pair_t,
        disc_t=disc_t,
        disc_k=disc_k,
        capture=jnp.full(n, -1, jnp.int32),
        capture_time=jnp.full(n, jnp.nan, dtype),
        capture_order=jnp.full(n, -1, jnp.int32),
        n_captured=jnp.zeros((), jnp.int32),
        first_contact_kind=jnp.zeros((), jnp.int32),
        first_contact=jnp.full((), -1, jnp.int32),
        first_piece=jnp.full((), -1, jnp.int32),
        first_x=jnp.full((), jnp.nan, dtype),
        first_y=jnp.full((), jnp.nan, dtype),
        contacts=jnp.zeros(n, jnp.int32),
        n_piece_contacts=jnp.zeros((), jnp.int32),
        n_wall_contacts=jnp.zeros((), jnp.int32),
        n_events=jnp.zeros((), jnp.int32),
        done=jnp.zeros((), bool),
        trace=trace,
    )


def init(spec: KernelSpec, c: Constants) -> KernelState:
    """The state at the start, every time solved: pair rows only for the discs that move
    (:func:`~carromlab.physics.kernel.detect.moving_pair_times`)."""
    d = c.discs
    kin = kinematics(c, d.x, d.y, d.vx, d.vy, d.alive)
    pair_t = moving_pair_times(spec, c, kin)
    return start_state(spec, c, kin, pair_t, *disc_times(spec, c, kin))


def running(spec: KernelSpec, c: Constants, s: KernelState) -> jax.Array:
    """An event is left to resolve: not done and under the event cap."""
    return ~s.done & (s.n_events < spec.max_events)


def head(spec: KernelSpec, c: Constants, s: KernelState) -> tuple[KernelState, Pending]:
    """The next event, every disc advanced to it, and a pair contact's own impulse; with the
    cluster model, also whether the struck pair touches a third disc."""
    e = next_event(spec, c, s)
    s = advance(spec, c, s, e)
    vx0, vy0 = s.vx, s.vy
    s, hit_pair = resolve_pair(spec, c, s, e)
    start = jnp.zeros((), bool)
    if spec.contacts == "cluster":
        start = hit_pair & touches_third(spec, c, replace(s, vx=vx0, vy=vy0), e)
    return s, Pending(e, vx0, vy0, hit_pair, start, jnp.zeros((), bool))


def refresh(spec: KernelSpec, c: Constants, s: KernelState, e: Event) -> KernelState:
    """Shifts the cached times to the new now and recomputes the rows of the only discs whose
    motion changed, i and j (k, k for a one-disc event): their pair times and one-disc events,
    and every disc's ``v``, ``ux``, ``uy``. (The other rows stay valid: a disc's trajectory
    changes only at its own events.)"""
    i, j = e.i, e.j
    pair_t = s.pair_t - e.step
    disc_t = s.disc_t - e.step
    kin = kinematics(c, s.x, s.y, s.vx, s.vy, s.alive)
    both = jnp.stack([i, j])
    rows = pair_rows(spec, c, both, kin)
    slots = jnp.asarray(spec.slot)
    # (the pair (i, i) lands in the dummy slot, always inf)
    pair_t = pair_t.at[slots[i]].set(rows[0]).at[slots[j]].set(rows[1])
    tk, kk = jax.vmap(lambda m: disc_event(spec, c, m, kin))(both)
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


def tail(spec: KernelSpec, c: Constants, s: KernelState, p: Pending) -> KernelState:
    """The one-disc event, the tallies and the cached times of the discs that moved."""
    e = p.e
    s, hit_wall, wk = resolve_disc(spec, c, s, e)
    s = tally(s, e, p.hit_pair & ~p.solved, hit_wall, wk)
    return refresh(spec, c, s, e)


def full_refresh(spec: KernelSpec, c: Constants, s: KernelState) -> KernelState:
    """Every pair row and one-disc event recomputed (after a cluster solve)."""
    pair_t, disc_t, disc_k = event_times(spec, c, s.x, s.y, s.vx, s.vy, s.alive)
    return replace(s, pair_t=pair_t, disc_t=disc_t, disc_k=disc_k)


def close(spec: KernelSpec, c: Constants, s: KernelState, p: Pending) -> KernelState:
    """The trace's row (``record=True``) and the event count."""
    e = p.e
    if spec.record:
        s = record_row(s, e)
    return replace(s, n_events=s.n_events + (~e.finished).astype(jnp.int32), done=e.finished)


def at_most_once(run: Callable[[T], T], todo: jax.Array, operand: T) -> T:
    """``run(operand)`` when ``todo``, else ``operand`` unchanged: a while loop of at most one
    pass, so under vmap a batch pays for ``run`` only at the events where some shot needs it
    (a ``cond`` would run it for every shot at every event)."""
    return jax.lax.while_loop(
        lambda g: g[1], lambda g: (run(g[0]), jnp.zeros((), bool)), (operand, todo)
    )[0]


class Stage(NamedTuple):
    """One stage of an event (:data:`STAGES`): its ``name`` (a field of :class:`Stages`),
    the :class:`~carromlab.physics.kernel.state.Pending` flag that gates it (None: every
    event runs it) and the contact model it belongs to (None: every model)."""

    name: str
    gate: str | None = None
    contacts: str | None = None


#: One event's stages, in order: the one list :func:`apply` (one shot) and
#: :func:`~carromlab.physics.kernel.batch.apply_batch` (a batch: the gated stages only for the
#: shots whose flag is set) both run. Each stage is ``(state, pending) -> (state, pending)``.
STAGES: tuple[Stage, ...] = (
    Stage("head"),
    Stage("cluster", gate="start", contacts="cluster"),
    Stage("tail"),
    Stage("refresh", gate="solved", contacts="cluster"),
    Stage("close"),
)


def stages_for(contacts: str) -> tuple[Stage, ...]:
    """The stages an event runs under the contact model ``contacts``."""
    return tuple(st for st in STAGES if st.contacts in (None, contacts))


def apply(spec: KernelSpec, c: Constants, s: KernelState) -> KernelState:
    """Resolves the next event (or, when none is left, lets every disc come to rest and marks
    the state done): the :data:`STAGES` in order (:func:`head`, the cluster solve only when a
    struck pair touches a third disc, :func:`tail`, :func:`full_refresh` only after a cluster
    solve, :func:`close`), each gated one at most once (:func:`at_most_once`). A done state has
    come to rest and resolves nothing; vmap's while_loop keeps finished shots as they are
    (batches run :func:`~carromlab.physics.kernel.batch.apply_batch`, which runs the gated
    stages only for the shots that need them)."""
    stages = stages_of(spec, c)
    p: Pending | None = None
    for st in stages_for(spec.contacts):
        run: Callable[[KernelState, Pending | None], tuple[KernelState, Pending]]
        run = getattr(stages, st.name)
        if st.gate is None:
            s, p = run(s, p)
        else:
            s, p = at_most_once(_unpacked(run), getattr(p, st.gate), (s, p))
    return s


def _unpacked(
    run: Callable[[KernelState, Pending | None], tuple[KernelState, Pending]],
) -> Callable[[tuple[KernelState, Pending | None]], tuple[KernelState, Pending]]:
    return lambda g: run(*g)


class Stages(NamedTuple):
    """One event's :data:`STAGES` with a shot's spec and constants bound, each ``(state,
    pending) -> (state, pending)`` (``head`` takes no pending: None), and the parts a batch
    runs the gated ones with (:func:`~carromlab.physics.kernel.batch.apply_batch`): the
    cluster model's ``cluster_input(s, pending)`` for
    :func:`~carromlab.physics.kernel.cluster.solve_cluster_hits` (the shots that need it
    gathered) and ``cluster_output(s, pending, out) -> (s, pending)``; the refresh's
    ``event_times(x, y, vx, vy, alive) -> (pair_t, disc_t, disc_k)``."""

    head: Callable[[KernelState, Pending | None], tuple[KernelState, Pending]]
    cluster: Callable[[KernelState, Pending], tuple[KernelState, Pending]]
    tail: Callable[[KernelState, Pending], tuple[KernelState, Pending]]
    refresh: Callable[[KernelState, Pending], tuple[KernelState, Pending]]
    close: Callable[[KernelState, Pending], tuple[KernelState, Pending]]
    cluster_input: Callable[[KernelState, Pending], ClusterInput]
    cluster_output: Callable[[KernelState, Pending, ClusterOutput], tuple[KernelState, Pending]]
    event_times: Callable[..., tuple[jax.Array, jax.Array, jax.Array]]


def stages_of(spec: KernelSpec, c: Constants) -> Stages:
    """The :class:`Stages` of one shot."""

    def keep(
        f: Callable[[KernelState, Pending], KernelState],
    ) -> Callable[[KernelState, Pending], tuple[KernelState, Pending]]:
        return lambda s, p: (f(s, p), p)

    return Stages(
        head=lambda s, p: head(spec, c, s),
        cluster=partial(solve_one, spec, c),
        tail=keep(partial(tail, spec, c)),
        refresh=lambda s, p: (full_refresh(spec, c, s), p),
        close=keep(partial(close, spec, c)),
        cluster_input=partial(cluster_input, spec, c),
        cluster_output=partial(cluster_output, spec, c),
        event_times=partial(event_times, spec, c),
    )


class EventLoop(NamedTuple):
    """One shot's event loop with its spec and constants bound (:func:`make_shot_loop`):
    ``init()`` the state at the start, ``running(state)`` whether an event is left to resolve
    (not done, under the event cap), ``apply(state)`` resolves one event, and
    ``finish(state)`` the outcome (``(outcome, trace)`` with ``record=True``). Run it with
    ``finish(lax.while_loop(running, apply, init()))`` or any other driver
    (:func:`~carromlab.physics.kernel.batch.make_lane_simulator`)."""

    init: Callable[[], KernelState]
    running: Callable[[KernelState], jax.Array]
    apply: Callable[[KernelState], KernelState]
    finish: Callable[[KernelState], ShotOutcome | tuple[ShotOutcome, Trace]]
    stages: Stages


def event_loop(spec: KernelSpec, c: Constants) -> EventLoop:
    """The :class:`EventLoop` of ``spec`` with one shot's constants bound."""
    return EventLoop(
        init=partial(init, spec, c),
        running=partial(running, spec, c),
        apply=partial(apply, spec, c),
        finish=partial(finish, spec),
        stages=stages_of(spec, c),
    )


ShotLoop = Callable[[Discs, Physics], EventLoop]


def shot_loop_for(spec: KernelSpec) -> ShotLoop:
    """``shot_loop(discs, physics) -> EventLoop`` of a built spec: the discs and ``physics``
    are traced, bound per shot (:func:`~carromlab.physics.kernel.spec.bind`)."""

    def shot_loop(d: Discs, physics: Physics) -> EventLoop:
        return event_loop(spec, bind(spec, d, physics))

    return shot_loop


def make_shot_loop(
    table: Table,
    n_pieces: int,
    max_events: int = 512,
    record: bool = False,
    contacts: str = DEFAULT_CONTACTS,
    cluster_steps: int = CLUSTER_STEPS,
) -> ShotLoop:
    """``shot_loop(discs, physics) -> EventLoop``: one shot's event loop, in pieces, so that
    drivers other than one ``while_loop`` can run it. The table's geometry, the disc count,
    the event cap, ``record``, the contact model and the cluster steps are static (one
    :class:`KernelSpec`: :func:`~carromlab.physics.kernel.spec.make_spec`); the discs and
    ``physics`` are traced (:func:`shot_loop_for`)."""
    return shot_loop_for(make_spec(table, n_pieces, max_events, record, contacts, cluster_steps))
