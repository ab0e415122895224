"""The kernel's typed loop state (``KernelState``) and its loop in pieces (``EventLoop``:
``init``, ``running``, ``apply``, ``finish`` from ``make_shot_loop``).

Driving the pieces by hand, one jitted ``apply`` per event, must give the outcome and trace
of ``make_simulator`` (one ``while_loop``): the counts, codes and flags exactly, the floats
within float32 rounding (the two are compiled separately). Every state after an event keeps the
loop's bookkeeping: time never goes back, one event counted per step until done, one trace row
written per step.
"""

from __future__ import annotations

import dataclasses
import re

import jax
import numpy as np
from disc_helpers import make_pieces

from carromlab.equipment import IcfBoard
from carromlab.physics import Physics, Table
from carromlab.physics.kernel import (
    Discs,
    EventLoop,
    KernelState,
    ShotOutcome,
    Stages,
    Trace,
    make_shot_loop,
    make_simulator,
)

PHYS = Physics()
ICF = IcfBoard()
_specs = ICF.piece_specs()
COIN = (_specs["coin"].radius, _specs["coin"].mass, _specs["coin"].material)
STRIKER = (_specs["striker"].radius, _specs["striker"].mass, _specs["striker"].material)
MAX_EVENTS = 64


def shot() -> Discs:
    """The striker up at a coin, off-centre, a second coin beyond: pair contacts, cushions."""
    return Discs.from_pieces(
        make_pieces(
            [
                (0.01, -0.25, 0.3, 4.0, STRIKER),
                (0.0, 0.0, 0.0, 0.0, COIN),
                (0.08, 0.12, 0.0, 0.0, COIN),
            ]
        )
    )


def test_every_state_field_is_documented():
    doc = KernelState.__doc__
    for f in dataclasses.fields(KernelState):
        assert re.search(rf"^\s+{f.name}: ", doc, re.MULTILINE), f.name


def test_event_loop_pieces_and_state():
    table = Table.from_layout(ICF.layout)
    d = shot()
    shot_loop = make_shot_loop(table, 3, MAX_EVENTS)
    loop = shot_loop(d, PHYS)
    assert isinstance(loop, EventLoop)
    assert loop._fields == ("init", "running", "apply", "finish", "stages")
    assert isinstance(loop.stages, Stages)
    s = loop.init()
    assert isinstance(s, KernelState) and s.trace is None
    assert s.pair_t.shape == (3 + 1,) and s.disc_t.shape == (3,)
    assert bool(loop.running(s))
    assert isinstance(loop.finish(s), ShotOutcome)


def test_event_loop_driven_by_hand_matches_the_simulator():
    table = Table.from_layout(ICF.layout)
    d = shot()
    shot_loop = make_shot_loop(table, 3, MAX_EVENTS, record=True)
    init = jax.jit(lambda d, p: shot_loop(d, p).init())
    running = jax.jit(lambda d, p, s: shot_loop(d, p).running(s))
    apply = jax.jit(lambda d, p, s: shot_loop(d, p).apply(s))
    finish = jax.jit(lambda d, p, s: shot_loop(d, p).finish(s))

    s = init(d, PHYS)
    assert int(s.trace.n) == 1 and float(s.t) == 0.0
    steps = 0
    while bool(running(d, PHYS, s)):
        new = apply(d, PHYS, s)
        assert float(new.t) >= float(s.t)
        assert int(new.n_events) == int(s.n_events) + (not bool(new.done))
        assert int(new.trace.n) == int(s.trace.n) + 1
        assert bool(new.alive.sum() + new.n_captured == s.alive.sum() + s.n_captured)
        s, steps = new, steps + 1
    assert bool(s.done) and steps == int(s.n_events) + 1
    assert int(s.n_piece_contacts) >= 2 and int(s.n_wall_contacts) >= 1

    out, tr = finish(d, PHYS, s)
    ref_out, ref_tr = jax.jit(make_simulator(table, 3, MAX_EVENTS, record=True))(d, PHYS)
    assert isinstance(tr, Trace)
    for a, b in ((out, ref_out), (tr, ref_tr)):
        for f in dataclasses.fields(a):
            x, y = np.asarray(getattr(a, f.name)), np.asarray(getattr(b, f.name))
            if x.dtype.kind == "f":
                np.testing.assert_allclose(x, y, rtol=1e-6, atol=1e-6, err_msg=f.name)
            else:
                np.testing.assert_array_equal(x, y, err_msg=f.name)


def test_init_solves_only_the_moving_rows_with_the_full_rows_numbers():
    """``init`` computes pair rows only for the discs that move (two discs at rest never
    meet); its cached times must equal ``event_times``' full rows, bit for bit: the striker
    first or last in the listing, one to five discs moving, some in the same pass."""
    rng = np.random.default_rng(3)
    shot_loop = make_shot_loop(Table.from_layout(ICF.layout), 9, MAX_EVENTS)
    contacts = 0
    for case in range(12):
        n = 9
        rows = []
        movers = set(rng.choice(n, size=1 + case % 5, replace=False).tolist())
        for k in range(n):
            x, y = rng.uniform(-0.12, 0.12, 2)
            spec = STRIKER if k == (0 if case % 2 else n - 1) else COIN
            speed = float(rng.uniform(0.5, 4.0)) if k in movers else 0.0
            angle = float(rng.uniform(0, 2 * np.pi))
            rows.append((x, y, speed * np.cos(angle), speed * np.sin(angle), spec))
        discs = Discs.from_pieces(make_pieces(rows))
        got = jax.jit(lambda d: shot_loop(d, PHYS).init())(discs)
        want = jax.jit(
            lambda d: shot_loop(d, PHYS).stages.event_times(d.x, d.y, d.vx, d.vy, d.alive)
        )(discs)
        np.testing.assert_array_equal(np.asarray(got.pair_t), np.asarray(want[0]))
        np.testing.assert_array_equal(np.asarray(got.disc_t), np.asarray(want[1]))
        contacts += int(np.isfinite(np.asarray(got.pair_t)).sum())
    assert contacts > 12  # the cases do meet: the rows compared are not all inf


def test_pair_rows_padding_changes_no_time():
    """The pair rows are computed with the discs padded to a multiple of ``PAIR_WIDTH`` (whole
    vectors on a CPU): the times must be those of the unpadded rows (width 1), on a full
    board of 20 discs with many moving (both-moving quartics, touching pairs, dead discs)."""
    from carromlab.physics.kernel import PAIR_WIDTH, make_spec, shot_loop_for

    rng = np.random.default_rng(11)
    n = 20
    cases = []
    for case in range(6):
        rows = []
        for k in range(n):
            x, y = rng.uniform(-0.25, 0.25, 2)
            speed = float(rng.uniform(0.2, 3.0)) if rng.random() < 0.6 else 0.0
            angle = float(rng.uniform(0, 2 * np.pi))
            rows.append(
                (x, y, speed * np.cos(angle), speed * np.sin(angle), STRIKER if k == 0 else COIN)
            )
        if case % 2:  # a touching pair
            rows[1] = (rows[2][0] + 2 * COIN[0], rows[2][1], *rows[1][2:])
        discs = Discs.from_pieces(make_pieces(rows))
        if case == 5:
            discs = dataclasses.replace(discs, alive=discs.alive.at[3].set(False))
        cases.append(discs)

    def times(width):
        spec = make_spec(Table.from_layout(ICF.layout), n, MAX_EVENTS, pair_width=width)
        shot_loop = shot_loop_for(spec)
        run = jax.jit(
            lambda d: shot_loop(d, PHYS).stages.event_times(d.x, d.y, d.vx, d.vy, d.alive)[0]
        )
        return [np.asarray(run(d)) for d in cases]

    assert PAIR_WIDTH > 1 and n % PAIR_WIDTH  # the padding is exercised
    padded, plain = times(PAIR_WIDTH), times(1)
    met = 0
    for a, b in zip(padded, plain, strict=True):
        np.testing.assert_array_equal(np.isfinite(a), np.isfinite(b))
        fin = np.isfinite(a)
        np.testing.assert_allclose(a[fin], b[fin], rtol=1e-5, atol=1e-7)
        met += int(fin.sum())
    assert met > 20  # pairs do meet: the rows compared are not all inf
