"""Shots batched: one shot's loop (:func:`make_simulator`), a batch in one ``vmap``
(:func:`make_batch_simulator`), a queue of shots in refilling lanes
(:func:`make_lane_simulator`), and the cached simulators every caller of a board shares
(:func:`batch_simulator_for`, :func:`lane_simulator_for`). :func:`apply_batch` is the one place
the event loop is batched: it runs the cluster solve and the full refresh after it only for
the shots that need one (:func:`run_where`). Devices (one per CPU core) are the shot runner's
(:mod:`carromlab.physics.devices`, :mod:`carromlab.analysis.runner`): every program here runs
on one device.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp

from carromlab.equipment.geometry import Layout
from carromlab.errors import CarromlabError
from carromlab.physics.kernel.cluster import ClusterHits, ClusterOutput, solve_cluster_hits
from carromlab.physics.kernel.spec import (
    CLUSTER_STEPS,
    DEFAULT_CONTACTS,
    LANES,
    SOLVE_LANES,
    kernel_compiler_options,
)
from carromlab.physics.kernel.state import Discs, KernelState, Pending, ShotOutcome, Trace
from carromlab.physics.kernel.step import EventLoop, ShotLoop, make_shot_loop, stages_for
from carromlab.physics.params import Physics
from carromlab.physics.programs import kernel_program
from carromlab.physics.table import Table

#: A pytree of arrays (a batch's leading axis first): discs, physics, states, outcomes.
PyTree = Any
#: One shot's event loop from its lane inputs: ``loop_of(discs)`` or ``loop_of(discs, physics)``.
LoopOf = Callable[..., EventLoop]
#: A jitted simulator: ``simulate(discs, physics)`` -> the outcome (and trace) pytree.
Simulator = Callable[[Discs, Physics], Any]
#: The lane simulator's carry: (lane inputs, lane states, lane shot ids, next shot, outcomes).
LaneCarry = tuple[tuple[PyTree, ...], KernelState, jax.Array, jax.Array, PyTree]


def make_simulator(
    table: Table,
    n_pieces: int,
    max_events: int = 512,
    record: bool = False,
    contacts: str = DEFAULT_CONTACTS,
    cluster_steps: int = CLUSTER_STEPS,
) -> Simulator:
    """Build ``simulate(discs, physics) -> ShotOutcome`` for one shot on ``table``.

    With ``record=True`` it returns ``(ShotOutcome, Trace)``: the state after every event, for
    drawing a few shots (memory grows with ``max_events``, so keep batches small).
    ``contacts`` is the contact model (:data:`CONTACT_MODELS`); ``cluster_steps`` the cluster
    solve's steps per contact half-period (:data:`CLUSTER_STEPS`).
    """
    shot_loop = make_shot_loop(table, n_pieces, max_events, record, contacts, cluster_steps)

    def simulate(d: Discs, physics: Physics) -> ShotOutcome | tuple[ShotOutcome, Trace]:
        loop = shot_loop(d, physics)
        return loop.finish(jax.lax.while_loop(loop.running, loop.apply, loop.init()))

    return simulate


def _take(tree: PyTree, ids: jax.Array) -> PyTree:
    return jax.tree_util.tree_map(lambda a: a[ids], tree)


def _put(tree: PyTree, ids: jax.Array, new: PyTree) -> PyTree:
    return jax.tree_util.tree_map(lambda a, b: a.at[ids].set(b, mode="drop"), tree, new)


def _where(mask: jax.Array, new: PyTree, old: PyTree) -> PyTree:
    """``new`` where ``mask`` (one flag per shot, the leading axis), else ``old``."""

    def pick(a: jax.Array, b: jax.Array) -> jax.Array:
        return jnp.where(mask.reshape(mask.shape + (1,) * (a.ndim - 1)), a, b)

    return jax.tree_util.tree_map(pick, new, old)


def run_where(
    f: Callable[..., PyTree],
    need: jax.Array,
    consts: tuple[PyTree, ...],
    state: PyTree,
    lanes: int = SOLVE_LANES,
) -> PyTree:
    """``f(*consts, state) -> state`` (over a batch: leading axis) for the shots where
    ``need``, at most ``lanes`` of them at a time, gathered together; the other shots keep
    their ``state``. Nothing runs when no shot needs it."""
    b = need.shape[0]

    def body(c: tuple[jax.Array, PyTree]) -> tuple[jax.Array, PyTree]:
        need, st = c
        (ids,) = jnp.nonzero(need, size=lanes, fill_value=b)
        sid = jnp.minimum(ids, b - 1)  # (a missing one repeats the last shot; dropped below)
        out = f(*_take(consts, sid), _take(st, sid))
        return need.at[ids].set(False, mode="drop"), _put(st, ids, out)

    return jax.lax.while_loop(lambda c: c[0].any(), body, (need, state))[1]


def apply_batch(
    loop_of: LoopOf,
    lanes_in: tuple[PyTree, ...],
    states: KernelState,
    contacts: str,
    lanes: int = SOLVE_LANES,
    cluster_steps: int = CLUSTER_STEPS,
) -> KernelState:
    """One event for every running shot of a batch: ``loop_of(*lane)`` is one shot's
    :class:`EventLoop` for one element of ``lanes_in`` (a tuple of pytrees with the batch's
    leading axis, such as ``(discs,)`` or ``(discs, physics)``), ``states`` the batch's
    :class:`KernelState`. The event's stages are the one list one shot's ``apply`` runs
    (:func:`~carromlab.physics.kernel.step.stages_for`), each vmapped, the gated ones (the
    cluster model's solve, :func:`solve_cluster_hits` with the shots on its last axis, and the
    full refresh after it) only for the shots whose flag is set (:func:`run_where`). A shot that is no longer
    running keeps its state. With :func:`make_batch_simulator` and
    :func:`make_lane_simulator`, the one place where the event loop is batched."""
    k = len(lanes_in)

    def stage(name: str) -> Callable[..., Any]:
        return jax.vmap(lambda *a: getattr(loop_of(*a[:k]).stages, name)(*a[k:]))

    def cluster(new: KernelState, pend: Pending, need: jax.Array) -> tuple[KernelState, Pending]:
        # the solve on the shots that need one, gathered (their last axis): solve_cluster_hits
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
        out = run_where(lambda i, _: solve_cluster_hits(i, cluster_steps), need, (inp,), none,
                        lanes)  # fmt: skip
        done: tuple[KernelState, Pending] = stage("cluster_output")(*lanes_in, new, pend, out)
        return done

    def refresh(new: KernelState, pend: Pending, need: jax.Array) -> tuple[KernelState, Pending]:
        kin = (new.x, new.y, new.vx, new.vy, new.alive)
        times = (new.pair_t, new.disc_t, new.disc_k)
        times = run_where(lambda *a: stage("event_times")(*a[:-1]), need, (*lanes_in, *kin),
                          times, lanes)  # fmt: skip
        return replace(new, pair_t=times[0], disc_t=times[1], disc_k=times[2]), pend

    gated = {"cluster": cluster, "refresh": refresh}
    go = jax.vmap(lambda *a: loop_of(*a[:k]).running(a[k]))(*lanes_in, states)
    new, pend = states, None
    for st in stages_for(contacts):
        if st.gate is None:
            new, pend = stage(st.name)(*lanes_in, new, pend)
        else:
            assert pend is not None  # the head comes first
            new, pend = gated[st.name](new, pend, getattr(pend, st.gate) & go)
    result: KernelState = _where(go, new, states)
    return result


def make_batch_simulator(
    table: Table,
    n_pieces: int,
    max_events: int = 512,
    per_shot_physics: bool = False,
    contacts: str = DEFAULT_CONTACTS,
    solve_lanes: int = SOLVE_LANES,
    record: bool = False,
    cluster_steps: int = CLUSTER_STEPS,
) -> Simulator:
    """``simulate(discs, physics)`` over a batch of shots (leading axis of every Discs array);
    batched (:func:`apply_batch`) and jitted here. With ``per_shot_physics`` every field of
    ``physics`` has the batch's leading axis too (one set of parameters per shot:
    physics/priors.py). ``solve_lanes``: :data:`SOLVE_LANES`. With ``record=True`` it returns
    ``(ShotOutcome, Trace)`` with the batch's leading axis (memory grows with ``max_events``
    for every shot: keep batches small). ``cluster_steps``: :data:`CLUSTER_STEPS`."""
    shot_loop = make_shot_loop(
        table, n_pieces, max_events, record=record, contacts=contacts, cluster_steps=cluster_steps
    )

    def simulate(discs: Discs, physics: Physics) -> PyTree:
        lanes_in, loop_of = lane_inputs(shot_loop, discs, physics, per_shot_physics)
        ss = jax.vmap(lambda *a: loop_of(*a).init())(*lanes_in)

        def running(ss: KernelState) -> jax.Array:
            return jax.vmap(lambda *a: loop_of(*a[:-1]).running(a[-1]))(*lanes_in, ss).any()

        ss = jax.lax.while_loop(
            running,
            lambda ss: apply_batch(loop_of, lanes_in, ss, contacts, solve_lanes, cluster_steps),
            ss,
        )
        return jax.vmap(lambda *a: loop_of(*a[:-1]).finish(a[-1]))(*lanes_in, ss)

    return kernel_program(
        simulate,
        "trace" if record else "batch",
        kernel_compiler_options(),
        **_static_why(table, n_pieces, max_events, contacts, per_shot_physics, cluster_steps),
        solve_lanes=solve_lanes,
    )


def make_lane_simulator(
    table: Table,
    n_pieces: int,
    max_events: int = 512,
    lanes: int = LANES,
    steps: int = 2,
    contacts: str = DEFAULT_CONTACTS,
    per_shot_physics: bool = False,
    cluster_steps: int = CLUSTER_STEPS,
) -> Simulator:
    """``simulate(discs, physics, count=None, max_events=max_events)`` over a queue of shots
    (leading axis) with ``lanes`` of them in flight at once; jitted, returns a ``ShotOutcome``
    per shot like :func:`make_batch_simulator` (``per_shot_physics`` as there). Only the
    queue's first ``count`` shots (traced; default all) are run, the rest come back zero; the
    event cap ``max_events`` is traced too: one compiled program serves every run up to the
    queue's size and every cap, and callers keep the queue to a few fixed sizes.

    A vmapped ``while_loop`` runs every shot of a batch for as many events as its longest shot
    has, so lanes idle; here a lane whose shot has come to rest hands its outcome back and
    takes the next shot of the queue. Lanes are harvested a quarter at a time (each harvest
    starts that many new shots), after every ``steps`` events. A shot's numbers do not depend
    on its lane, on the other shots or on the cap it did not reach: they are the batch
    simulator's, bit for bit (tests/test_kernel.py, tests/test_devices.py).
    """
    shot_loop = make_shot_loop(
        table, n_pieces, EVENT_BOUND, contacts=contacts, cluster_steps=cluster_steps
    )

    def run(discs: Discs, physics: Physics, count: jax.Array, cap: jax.Array) -> PyTree:
        q = discs.x.shape[0]
        n_lanes = min(lanes, q)
        per_harvest = max(1, n_lanes // 4)
        queue_in, loop_of = lane_inputs(shot_loop, discs, physics, per_shot_physics)
        loop_of = capped(loop_of, cap)
        lane_in = _take(queue_in, jnp.arange(n_lanes))
        lane_s = init_many(loop_of, lane_in)
        shape = jax.eval_shape(partial(finish_many, loop_of), lane_in, lane_s)
        out = jax.tree_util.tree_map(lambda sd: jnp.zeros((q, *sd.shape[1:]), sd.dtype), shape)
        first = jnp.arange(n_lanes)
        lane_id = jnp.where(first < count, first, -1)
        carry = (lane_in, lane_s, lane_id, jnp.minimum(count, n_lanes), out)
        body = partial(lane_round, loop_of, queue_in, count, per_harvest, steps, contacts,
                       cluster_steps)  # fmt: skip
        return jax.lax.while_loop(lambda c: (c[2] >= 0).any(), body, carry)[4]

    why = _static_why(table, n_pieces, "traced", contacts, per_shot_physics, cluster_steps)
    program = kernel_program(
        run, "lanes", kernel_compiler_options(), **why, lanes=lanes, steps=steps
    )
    default_cap = check_event_cap(max_events)

    def simulate(
        discs: Discs,
        physics: Physics,
        count: int | jax.Array | None = None,
        max_events: int | None = None,
    ) -> PyTree:
        q = discs.x.shape[0]
        cap = default_cap if max_events is None else check_event_cap(max_events)
        return program(
            discs,
            physics,
            jnp.asarray(q if count is None else count, jnp.int32),
            jnp.asarray(cap, jnp.int32),
        )

    return simulate


def lane_round(
    loop_of: LoopOf,
    queue_in: tuple[PyTree, ...],
    count: jax.Array,
    per_harvest: int,
    steps: int,
    contacts: str,
    cluster_steps: int,
    c: LaneCarry,
) -> LaneCarry:
    """One round of :func:`make_lane_simulator`'s lanes: every lane ``steps`` events on, then,
    once ``per_harvest`` lanes have finished (or every lane still holding a shot has), a
    :func:`harvest` hands their outcomes back and starts the queue's next shots in them."""
    lane_in, lane_s, lane_id, nxt, out = c
    lane_s = jax.lax.fori_loop(
        0,
        steps,
        lambda _, s: apply_batch(loop_of, lane_in, s, contacts, SOLVE_LANES, cluster_steps),
        lane_s,
    )
    running = running_many(loop_of, lane_in, lane_s) & (lane_id >= 0)
    finished = (lane_id >= 0) & ~running
    n_fin = finished.sum()
    go = (n_fin >= per_harvest) | ((n_fin > 0) & ~running.any())
    c = (lane_in, lane_s, lane_id, nxt, out)
    reap = partial(harvest, loop_of, queue_in, per_harvest, finished=finished, count=count)
    after: LaneCarry = jax.lax.cond(go, reap, lambda c: c, c)
    return after


#: The static event bound of a kernel whose cap is traced (:func:`make_lane_simulator`): the
#: largest int32, never reached; the traced cap (:func:`capped`) stops the shots.
EVENT_BOUND = 2**31 - 1


def check_event_cap(max_events: int) -> int:
    """``max_events`` as a positive int below :data:`EVENT_BOUND` (a clear error otherwise)."""
    cap = int(max_events)
    if not 0 < cap < EVENT_BOUND:
        raise CarromlabError(f"max_events: a positive number of events, not {max_events!r}")
    return cap


def capped(loop_of: LoopOf, cap: jax.Array) -> LoopOf:
    """``loop_of`` whose loops also stop at ``cap`` events (traced): the static spec's cap is
    :data:`EVENT_BOUND`, so one program serves every cap."""

    def loop(*a: PyTree) -> EventLoop:
        lp = loop_of(*a)
        return lp._replace(running=lambda s: lp.running(s) & (s.n_events < cap))

    return loop


def _static_why(
    table: Table,
    n_pieces: int,
    max_events: int | str,
    contacts: str,
    per_shot_physics: bool,
    cluster_steps: int,
) -> dict[str, object]:
    """What a kernel was built for (:func:`~carromlab.physics.programs.kernel_program`):
    every Python value its program closes over, so two kernels built with different choices
    never share a stored program."""
    why: dict[str, object] = {
        "board": table.label(),
        "discs": n_pieces,
        "events": max_events,
        "contacts": contacts,
        "cluster steps": cluster_steps,
    }
    if per_shot_physics:
        why["physics"] = "per shot"
    return why


def lane_inputs(
    shot_loop: ShotLoop, discs: Discs, physics: Physics, per_shot_physics: bool
) -> tuple[tuple[PyTree, ...], LoopOf]:
    """What a batch maps over and one shot's loop from it: ``(discs, physics)`` and the shot loop
    itself when every shot has its own physics, else ``(discs,)`` with ``physics`` bound."""
    if per_shot_physics:
        return (discs, physics), shot_loop

    def loop_of(d: Discs) -> EventLoop:
        return shot_loop(d, physics)

    return (discs,), loop_of


def init_many(loop_of: LoopOf, lane: tuple[PyTree, ...]) -> KernelState:
    """The start states of a lane's shots."""
    return jax.vmap(lambda *a: loop_of(*a).init())(*lane)


def finish_many(loop_of: LoopOf, lane: tuple[PyTree, ...], s: KernelState) -> PyTree:
    """The outcomes of a lane's shots."""
    return jax.vmap(lambda *a: loop_of(*a[:-1]).finish(a[-1]))(*lane, s)


def running_many(loop_of: LoopOf, lane: tuple[PyTree, ...], s: KernelState) -> jax.Array:
    """Which of a lane's shots have an event left."""
    return jax.vmap(lambda *a: loop_of(*a[:-1]).running(a[-1]))(*lane, s)


def harvest(
    loop_of: LoopOf,
    queue_in: tuple[PyTree, ...],
    per_harvest: int,
    carry: LaneCarry,
    finished: jax.Array,
    count: jax.Array,
) -> LaneCarry:
    """Up to ``per_harvest`` finished lanes hand their outcomes back (into ``out`` at their
    shots' places) and take the queue's next shots (``nxt`` on, below ``count``); a lane left
    without a shot gets id -1. ``carry``: (lane inputs, lane states, lane shot ids, next shot,
    out)."""
    lane_in, lane_s, lane_id, nxt, out = carry
    q = jax.tree_util.tree_leaves(queue_in)[0].shape[0]
    n_lanes = lane_id.shape[0]
    (slots,) = jnp.nonzero(finished, size=per_harvest, fill_value=n_lanes)
    valid = slots < n_lanes
    sl = jnp.minimum(slots, n_lanes - 1)
    res = finish_many(loop_of, _take(lane_in, sl), _take(lane_s, sl))
    out = _put(out, jnp.where(valid, lane_id[sl], q), res)
    new_id = nxt + jnp.cumsum(valid) - 1
    has_new = valid & (new_id < count)
    nid = jnp.minimum(new_id, q - 1)
    nd = _take(queue_in, nid)
    target = jnp.where(valid, slots, n_lanes)
    lane_in = _put(lane_in, target, nd)
    lane_s = _put(lane_s, target, init_many(loop_of, nd))
    lane_id = lane_id.at[target].set(jnp.where(has_new, nid, -1), mode="drop")
    # the count in ``nxt``'s own dtype: with float64 on (jax_enable_x64) a sum is int64, and
    # the harvest's branch of the ``cond`` must return the carry's types
    return lane_in, lane_s, lane_id, nxt + has_new.sum(dtype=nxt.dtype), out


@functools.lru_cache(maxsize=32)
def batch_simulator_for(
    layout: Layout,
    n_pieces: int,
    max_events: int = 512,
    per_shot_physics: bool = False,
    contacts: str = DEFAULT_CONTACTS,
) -> Simulator:
    """:func:`make_batch_simulator` for a board layout (hashable), cached: every caller with
    the same layout, disc count and cap shares one jitted (and so once-compiled) simulator."""
    table = Table.from_layout(layout)
    return make_batch_simulator(table, n_pieces, max_events, per_shot_physics, contacts)


@functools.lru_cache(maxsize=64)
def lane_simulator_for(
    layout: Layout,
    n_pieces: int,
    max_events: int = 512,
    lanes: int = LANES,
    contacts: str = DEFAULT_CONTACTS,
    per_shot_physics: bool = False,
    steps: int = 1,
) -> Simulator:
    """:func:`make_lane_simulator` for a board layout, cached like :func:`batch_simulator_for`;
    every cap shares one simulator (the cap is traced)."""
    sim = _lane_simulator(layout, n_pieces, lanes, contacts, per_shot_physics, steps)
    return partial(sim, max_events=check_event_cap(max_events))


@functools.lru_cache(maxsize=32)
def _lane_simulator(
    layout: Layout, n_pieces: int, lanes: int, contacts: str, per_shot_physics: bool, steps: int
) -> Callable[..., Any]:
    return make_lane_simulator(
        Table.from_layout(layout),
        n_pieces,
        lanes=lanes,
        steps=steps,
        contacts=contacts,
        per_shot_physics=per_shot_physics,
    )
