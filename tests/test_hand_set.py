"""Hand-set openings (``carromlab.shots``: ``HAND_SET``, ``plan_hand_set``, ``set_by_hand``):
the packed openings are marked as set by hand, their pieces move a little per shot (drawn from
the shot's key, never overlapping), the size is recorded, 0 turns it off bit for bit, and a
bad size gets one clear line."""

from __future__ import annotations

import dataclasses
import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from cli_run import run

from carromlab.analysis.estimate import estimate
from carromlab.analysis.runner import ShotRunner, _place_batch
from carromlab.analysis.variants import analysis_for
from carromlab.errors import CarromlabError
from carromlab.position import Position, PositionError
from carromlab.registry import standard_position
from carromlab.shots import (
    HAND_SET,
    Shot,
    check_hand_set,
    hand_set_plan_for,
    plan_hand_set,
    set_by_hand,
)

PACKED = ("icf-opening", "icf-doubles-opening", "carrooka-opening", "carroms-opening")


@pytest.mark.parametrize("name", PACKED)
def test_the_packed_openings_are_set_by_hand(name):
    pos = standard_position(name)
    assert pos.set_by_hand
    again = Position.from_json(pos.to_json())
    assert again.set_by_hand and again.to_dict() == pos.to_dict()


def test_other_positions_are_not_and_new_pieces_clear_the_mark():
    assert not standard_position("icf-midgame").set_by_hand
    assert not standard_position("force-out-opening").set_by_hand
    pos = standard_position("icf-opening")
    assert pos.replace(name="renamed").set_by_hand
    assert not pos.replace(pieces=pos.pieces[1:]).set_by_hand
    # listing the same pieces in another order is not moving them: the mark stays
    assert pos.replace(pieces=tuple(reversed(pos.pieces))).set_by_hand
    moved = (dataclasses.replace(pos.pieces[0], x=pos.pieces[0].x + 1e-3), *pos.pieces[1:])
    assert not pos.replace(pieces=moved[::-1]).set_by_hand
    assert pos.replace(pieces=pos.pieces[1:], set_by_hand=True).set_by_hand
    d = pos.to_dict()
    d["set_by_hand"] = "yes"
    with pytest.raises(PositionError, match="'set_by_hand' must be true or false, not 'yes'"):
        Position.from_dict(d)


@pytest.mark.parametrize(
    ("size", "needle"),
    [
        (-1, "non-negative number of metres, not -1"),
        (float("nan"), "non-negative number of metres, not nan"),
        ("abc", "must be a number of metres, not 'abc'"),
        (0.01, "more than 0.005 m"),
    ],
)
def test_a_bad_size_is_one_clear_line(size, needle):
    with pytest.raises(CarromlabError, match=needle):
        check_hand_set(size)


def test_a_size_that_could_make_pieces_overlap_is_refused():
    r = 0.0155
    # two touching coins (one packed group) and a fixed peg 0.2 mm from the right one
    x = np.array([-r, r, 2 * r + 0.0002 + 0.003])
    y = np.zeros(3)
    radius = np.array([r, r, 0.003])
    movable = np.array([True, True, False])
    plan_hand_set(x, y, radius, movable, 0.00005, ids=("a", "b", "peg"))
    with pytest.raises(CarromlabError, match="could make b overlap peg"):
        plan_hand_set(x, y, radius, movable, 0.0003, ids=("a", "b", "peg"))


def _plan(name="icf-opening", size=HAND_SET):
    pos = standard_position(name)
    va = analysis_for(pos.variant)
    runner = ShotRunner(va.table_position(pos), va.shooter_kind, hand_set=size)
    return pos, runner, hand_set_plan_for(pos, runner.pieces, size)


@pytest.mark.parametrize("name", ["icf-opening", "carrooka-opening", "carroms-opening"])
def test_set_ups_never_overlap_and_stay_within_the_size(name):
    _pos, runner, plan = _plan(name)
    p = runner.pieces
    keys = jax.vmap(lambda i: jax.random.fold_in(jax.random.key(7), i))(jnp.arange(300))
    args = [
        jnp.asarray(v, jnp.float64 if jax.config.jax_enable_x64 else jnp.float32)
        for v in (plan.cx, plan.cy, plan.spread)
    ]
    xs, ys = jax.vmap(
        lambda k: set_by_hand(
            k,
            jnp.asarray(p.x, args[0].dtype),
            jnp.asarray(p.y, args[0].dtype),
            jnp.asarray(plan.movable),
            *args,
            jnp.full(p.n, plan.size, args[0].dtype),
            jnp.asarray(plan.key, jnp.int32),
        )
    )(keys)
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    live = np.flatnonzero(plan.movable)
    r = p.radius[live]
    gaps = np.hypot(
        xs[:, live, None] - xs[:, None, live], ys[:, live, None] - ys[:, None, live]
    ) - (r[:, None] + r[None, :])
    gaps[:, np.arange(len(live)), np.arange(len(live))] = np.inf
    assert gaps.min() >= -1e-6  # float32 rounding of the positions
    # every piece within `size` of its spread place, and it moves per shot
    sx = plan.cx + (1 + plan.spread) * (p.x - plan.cx)
    sy = plan.cy + (1 + plan.spread) * (p.y - plan.cy)
    d = np.hypot(xs[:, live] - sx[live], ys[:, live] - sy[live])
    assert d.max() <= plan.size * (1 + 1e-3) + 1e-6
    assert d.std(axis=0).min() > plan.size / 10
    # the shooter (disc 0) and any padding never move
    assert np.array_equal(xs[:, 0], np.full(len(xs), np.float32(p.x[0])).astype(float))
    # touching pieces of the opening end up loosely touching: 0 to 4 x size apart
    touching = (
        np.hypot(p.x[live, None] - p.x[None, live], p.y[live, None] - p.y[None, live])
        - (r[:, None] + r[None, :])
        < 1e-6
    )
    np.fill_diagonal(touching, False)
    g = gaps[:, touching]
    assert g.max() <= 4 * plan.size + 1e-6
    assert 0.5 * plan.size < g.mean() < 3.5 * plan.size


def test_off_leaves_the_pieces_bit_for_bit_and_midgame_is_off():
    _pos, runner, _ = _plan("icf-opening", 0.0)
    assert runner.hand_set == 0.0
    shots = Shot(*(jnp.zeros(4) + v for v in (0.0, -0.2526, math.pi / 2, 5.0)))
    keys = jax.vmap(lambda i: jax.random.fold_in(jax.random.key(0), i))(jnp.arange(4))
    live = jnp.array([True, True, True, False])  # the last: a chunk's padding, every disc dead
    d = _place_batch(runner.template, shots, runner._hand, keys, live)
    assert np.array_equal(np.asarray(d.x)[:, 1:], np.broadcast_to(runner.template.x[1:], (4, 19)))
    alive = np.asarray(d.alive)
    assert (
        alive[:3].tolist() == np.broadcast_to(np.asarray(runner.template.alive), (3, 20)).tolist()
    )
    assert not alive[3].any()
    assert ShotRunner(standard_position("icf-midgame")).hand_set == 0.0
    assert ShotRunner(standard_position("icf-opening")).hand_set == HAND_SET


def test_estimate_records_the_size_and_the_draws_follow_the_key():
    pos = standard_position("icf-opening")
    shot = Shot(0.0, -0.2526, math.pi / 2, 5.0)
    a = estimate(pos, shot, n=64, seed=3)
    b = estimate(pos, shot, n=64, seed=3, chunk=16)  # the same keys, other chunks
    off = estimate(pos, shot, n=64, seed=3, hand_set=0)
    assert a.attrs["config"]["hand_set"] == HAND_SET
    assert off.attrs["config"]["hand_set"] == 0.0
    assert a.attrs["config"]["contacts"] == "cluster"
    assert a["estimate"].tolist() == b["estimate"].tolist()


def test_the_command_line_refuses_a_bad_size(capsys):
    code, _out, err = run(
        capsys, "estimate", "--position", "icf-opening", "--n", "10", "--hand-set", "-0.001"
    )
    assert code != 0
    lines = [ln for ln in err.strip().splitlines() if ln]
    # refused by the command line's bounds (input_schema), naming the option and its unit
    assert len(lines) == 1 and "--hand-set -0.001: must be at least 0 m" in lines[0]


def test_a_set_up_is_the_same_layout_whichever_order_its_pieces_are_listed_in():
    """Each piece's move is drawn by its id: the opening listed backwards gets, for a shot's
    key, every piece at the same place, and noise-free breaks pocket the same pieces in the
    same pockets (before, the piece in slot k took the k-th draw)."""
    pos = standard_position("icf-opening")
    backwards = pos.replace(pieces=tuple(reversed(pos.pieces)))
    shot = Shot(0.0, -0.2526, math.pi / 2, 5.0)
    places = {}
    for p in (pos, backwards):
        va = analysis_for(p.variant)
        runner = ShotRunner(va.table_position(p), va.shooter_kind)
        keys = jax.vmap(lambda i: jax.random.fold_in(jax.random.key(9), i))(jnp.arange(3))
        shots = Shot(*(jnp.zeros(3) + v for v in (0.0, -0.2526, math.pi / 2, 5.0)))
        d = _place_batch(runner.template, shots, runner._hand, keys, jnp.ones(3, bool))
        ids = runner.pieces.ids
        places[p is pos] = {
            ids[k]: (np.asarray(d.x)[:, k], np.asarray(d.y)[:, k])
            for k in range(1, len(ids))
            if ids[k]
        }
    for pid, (x, y) in places[True].items():
        bx, by = places[False][pid]
        assert np.array_equal(x, bx) and np.array_equal(y, by), pid
    a = estimate(pos, shot, skill="exact", n=24, seed=5).set_index("quantity")["estimate"]
    b = estimate(backwards, shot, skill="exact", n=24, seed=5).set_index("quantity")["estimate"]
    captures = [q for q in a.index if q.startswith("capture:")]
    assert captures and a[captures].sum() > 0
    assert a[captures].to_dict() == b[captures].to_dict()
