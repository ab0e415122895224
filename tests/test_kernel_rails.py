"""The kernel on a circular rail: grazing runs round the rail end (Physics.rail_graze), and
``first_piece`` names the first piece the shooter touches after any rail contacts."""

from __future__ import annotations

import math

import jax
import numpy as np
import pytest
from disc_helpers import make_pieces

from carromlab.equipment import CarrookaBoard
from carromlab.equipment.geometry import Layout
from carromlab.physics import Physics, Table
from carromlab.physics.kernel import Discs, make_simulator
from carromlab.physics.reference import simulate_reference

BOARD = CarrookaBoard()
STRIKER = (BOARD.striker_diameter / 2, BOARD.striker_mass, "striker")
PUCK = (BOARD.puck_diameter / 2, BOARD.puck_mass, "puck")
# a table with the rail but no pockets: a disc can run round it
TABLE = Table.from_layout(Layout(BOARD.layout.surface, rails=BOARD.layout.rails))


def _run(pieces, physics=Physics(), max_events=4096):
    sim = jax.jit(make_simulator(TABLE, pieces.n, max_events))
    return sim(Discs.from_pieces(pieces), physics)


def _along_rail(speed=2.0, inward_deg=2.0):
    """A striker near the rail, moving almost along it (``inward_deg`` towards the rail)."""
    r = BOARD.radius - STRIKER[0] - 0.002
    a = math.radians(inward_deg)
    # at (r, 0), moving +y (tangent), tilted outward by ``inward_deg``
    return make_pieces([(r, 0.0, speed * math.sin(a), speed * math.cos(a), STRIKER)])


def test_grazing_run_round_the_rail_ends_in_few_events():
    """Without the floor, a disc running round a circular rail bounces ever more often
    (e_cushion < 1: a Zeno series) and the event cap cuts the shot short; with it the run
    ends, like the time-stepped reference, after a bounded number of chords."""
    pieces = _along_rail()
    out = _run(pieces)
    assert not bool(out.truncated)
    assert int(out.n_wall_contacts) < 200
    ref = simulate_reference(TABLE, pieces, Physics(), dt=1e-4)
    assert not ref.truncated
    # the two engines agree where the disc stops, to within the chord approximation
    d = math.hypot(float(out.x[0]) - ref.x[0], float(out.y[0]) - ref.y[0])
    assert d < 0.01, d
    stuck = _run(pieces, Physics(rail_graze=0.0), max_events=512)
    assert bool(stuck.truncated)  # the endless series the floor removes


def test_rail_floor_leaves_ordinary_bounces_alone():
    """A bounce whose normal speed out (e_cushion * v_n) is above the floor is the plain
    restitution law: a head-on bounce comes back at e_cushion of its speed."""
    r = 0.2
    pieces = make_pieces([(r, 0.0, 1.0, 0.0, STRIKER)])
    phys = Physics(mu=0.0)
    sim = jax.jit(make_simulator(TABLE, 1, 4))
    out = sim(Discs.from_pieces(pieces), phys)
    # after the first rail contact (at most 4 events, frictionless) the speed is e * 1.0
    traced = jax.jit(make_simulator(TABLE, 1, 2, record=True))(Discs.from_pieces(pieces), phys)
    tr = traced[1]
    v1 = math.hypot(float(tr.vx[1, 0]), float(tr.vy[1, 0]))
    assert v1 == pytest.approx(phys.e_cushion, rel=1e-5)
    assert int(out.n_wall_contacts) >= 1


def test_first_piece_is_found_after_a_rail_contact():
    """``first_contact`` is the rail for a bank shot; ``first_piece`` is the puck it then
    hits (the Carrooka rule judges the first piece)."""
    # striker aims at the rail at +x; the puck sits on the reflected path
    s = (0.0, -0.2)
    hit = (BOARD.radius - STRIKER[0], 0.0)
    ang = math.atan2(hit[1] - s[1], hit[0] - s[0])
    # the mirror direction off the rail at (R, 0) (normal -x): vx flips
    out_dir = (-math.cos(ang), math.sin(ang))
    puck = (hit[0] + 0.15 * out_dir[0], hit[1] + 0.15 * out_dir[1])
    pieces = make_pieces(
        [
            (*s, 2.0 * math.cos(ang), 2.0 * math.sin(ang), STRIKER),
            (*puck, 0.0, 0.0, PUCK),
        ]
    )
    out = _run(pieces, Physics(e_cushion=1.0))
    assert int(out.first_contact_kind) == 2  # the rail first
    assert int(out.first_piece) == 1
    alone = make_pieces([(*s, 2.0 * math.cos(ang), 2.0 * math.sin(ang), STRIKER)])
    assert int(_run(alone).first_piece) == -1
    direct = make_pieces([(0.0, -0.2, 0.0, 1.0, STRIKER), (0.0, 0.0, 0.0, 0.0, PUCK)])
    out = _run(direct)
    assert int(out.first_contact_kind) == 1 and int(out.first_piece) == 1
    np.testing.assert_equal(int(out.first_contact), 1)
