"""The event-driven JAX kernel (``carromlab.physics.kernel``): closed-form two-body checks,
captures, grazing contacts, invariants on random shots, agreement with the float64 reference
simulator, every board family, determinism.

The kernel runs in float32 here (the default dtype while ``jax_enable_x64`` is off). Float32
tolerances are stated per test; the float64 checks run in a subprocess with
``JAX_ENABLE_X64=1`` (x64 cannot be switched safely mid-process).

Per-contact invariants (momentum conserved at every contact, kinetic energy never rising at an
event, restitution along the normal, tangential velocity unchanged) are checked two ways: on
two-body cases whose post-contact velocities are read back analytically from the final
positions after a known Coulomb slide (head-on, oblique, unequal-mass and cushion contacts),
and, where ``make_simulator(..., record=True)`` provides the per-event trace, event by event on
random ICF shots and the break. On random shots the outcome-only energy check is the friction
budget: the work friction did, at least ``sum m_i a |displacement_i|``, cannot exceed the
initial kinetic energy.

Compilation costs seconds per (table, n_pieces, batch shape), so each table family has one
simulator with a fixed number of pieces (shorter shots are padded with dead pieces) and a fixed
batch size (smaller batches are padded with copies), built once per session.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import math
import os
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from disc_helpers import make_pieces, open_table
from scipy.optimize import brentq, minimize_scalar

from carromlab.equipment import COLOURS, CarrookaBoard, CheckerBoard, CrokinoleBoard, IcfBoard
from carromlab.physics import Physics, Pieces, Table
from carromlab.physics.kernel import (
    Discs,
    lane_simulator_for,
    make_batch_simulator,
    make_simulator,
)
from carromlab.physics.reference import simulate_reference
from carromlab.position import Piece, Position
from carromlab.registry import standard_position

PHYS = Physics()
A = PHYS.mu * PHYS.g  # deceleration, m/s^2

ICF = IcfBoard()
CARROOKA = CarrookaBoard()
CROK = CrokinoleBoard()
CROK_DITCH = CrokinoleBoard(surround="ditch")
CHECKER = CheckerBoard()

_icf = ICF.piece_specs()
COIN = (_icf["coin"].radius, _icf["coin"].mass, _icf["coin"].material)
STRIKER = (_icf["striker"].radius, _icf["striker"].mass, _icf["striker"].material)
DEAD = (0.01, 0.005, "coin")  # padding piece (alive=False)

#: Wall indices of the square boards' cushions (segments S, E, N, W; Table.cushion_names).
SEG_E = 1
#: ICF pocket indices (Table.captures order: SW, SE, NE, NW).
POCKET_NE = 2

PER_PIECE = ("x", "y", "alive", "capture", "capture_time", "capture_order", "contacts")


TABLES = {
    "open": open_table(),
    "icf": Table.from_layout(ICF.layout),
    "carrooka": Table.from_layout(CARROOKA.layout),
    "ditch": Table.from_layout(CROK_DITCH.layout),
    "crokinole": Table.from_layout(CROK.layout),
    "checker": Table.from_layout(CHECKER.layout),
}
#: (pieces, batch) of each family's one compiled simulator.
SHAPES = {
    "open": (2, 16),
    "icf": (20, 64),
    "carrooka": (26, 4096),  # (the shot runner's program: LANE_BOARDS)
    "ditch": (13, 32),
    "crokinole": (17, 4),
    "checker": (26, 1),
}
MAX_EVENTS = 512
#: Boards whose shots run in the shot runner's own program (its lanes, its 4096-shot queue,
#: its disc bucket): the lane simulator gives the batch simulator's outcomes (test below), and
#: the suite then compiles no second program for the board.
LANE_BOARDS = {"carrooka": CARROOKA.layout}


@functools.cache
def batch_sim(key: str):
    n, _ = SHAPES[key]
    return make_batch_simulator(TABLES[key], n, MAX_EVENTS)


@functools.cache
def single_sim(key: str):
    n, _ = SHAPES[key]
    return jax.jit(make_simulator(TABLES[key], n, MAX_EVENTS))


# --------------------------------------------------------------------------- helpers


def moving(x, y, speed, angle, spec=COIN):
    return (x, y, speed * math.cos(angle), speed * math.sin(angle), spec)


def resting(x, y, spec=COIN):
    return (x, y, 0.0, 0.0, spec)


def pad(pieces: Pieces, n: int) -> Pieces:
    """Append dead pieces up to ``n``."""
    k = n - pieces.n
    assert k >= 0, (pieces.n, n)
    if k == 0:
        return pieces
    cat = np.concatenate
    return Pieces(
        ids=pieces.ids + tuple(f"dead{i}" for i in range(k)),
        x=cat([pieces.x, 50.0 + np.arange(k)]),
        y=cat([pieces.y, np.full(k, 50.0)]),
        vx=cat([pieces.vx, np.zeros(k)]),
        vy=cat([pieces.vy, np.zeros(k)]),
        radius=cat([pieces.radius, np.full(k, DEAD[0])]),
        mass=cat([pieces.mass, np.full(k, DEAD[1])]),
        materials=pieces.materials + (DEAD[2],) * k,
        alive=cat([pieces.alive, np.zeros(k, dtype=bool)]),
        static=cat([pieces.static, np.zeros(k, dtype=bool)]),
    )


def stack_discs(key: str, shots: list[Pieces], batch: int) -> Discs:
    n, _ = SHAPES[key]
    discs = [Discs.from_pieces(pad(p, n)) for p in shots]
    discs += [discs[0]] * (batch - len(discs))
    return jax.tree.map(lambda *xs: jnp.stack(xs), *discs)


def unpack(out, b: int, n: int) -> dict:
    res = {}
    for f in dataclasses.fields(out):
        v = np.asarray(getattr(out, f.name))[b]
        res[f.name] = v[:n] if f.name in PER_PIECE else v.item()
    return res


def run(key: str, shots: list[Pieces], physics: Physics = PHYS) -> list[dict]:
    """Simulate ``shots`` on table ``key`` (batched, padded); per-shot numpy outcomes, the
    per-piece fields cut to each shot's own pieces."""
    n, batch = SHAPES[key]
    res = []
    for start in range(0, len(shots), batch):
        chunk = shots[start : start + batch]
        if key in LANE_BOARDS:
            sim = lane_simulator_for(LANE_BOARDS[key], n, MAX_EVENTS)
            discs = stack_discs(key, chunk, len(chunk))
            extra = batch - len(chunk)
            discs = jax.tree.map(
                lambda a, k=extra: jnp.concatenate([a, jnp.repeat(a[:1], k, axis=0)]), discs
            )
            out = sim(discs, physics, len(chunk))
        else:
            out = batch_sim(key)(stack_discs(key, chunk, batch), physics)
        res += [unpack(out, b, p.n) for b, p in enumerate(chunk)]
    return res


def run1(key: str, pieces: Pieces, physics: Physics = PHYS) -> dict:
    """One shot through the unbatched (jitted, not vmapped) simulator."""
    n, _ = SHAPES[key]
    out = single_sim(key)(Discs.from_pieces(pad(pieces, n)), physics)
    out = jax.tree.map(lambda v: np.asarray(v)[None], out)
    return unpack(out, 0, pieces.n)


def slide(v):
    """Stopping distance from speed v."""
    return v * v / (2 * A)


def speed_after(v, s):
    return math.sqrt(v * v - 2 * A * s)


def time_for(v, s):
    return (v - speed_after(v, s)) / A


def rot(theta, x, y):
    c, s = math.cos(theta), math.sin(theta)
    return c * x - s * y, s * x + c * y


# --------------------------------------------------------------------------- 1. sliding

STOP_CASES = [  # x0, y0, speed, angle
    (0.0, 0.0, 0.05, 0.3),
    (0.1, -0.2, 0.3, 2.0),
    (-0.3, 0.4, 1.0, -1.1),
    (0.25, 0.0, 2.0, 3.0),
    (0.0, 0.17, 3.7, -2.6),
    (-0.05, -0.05, 6.0, 0.8),
]


def test_lone_disc_stops_at_v2_over_2_mu_g():
    """Float32: distance and stopping time to 1e-5 relative, direction to 1e-5 rad."""
    shots = [make_pieces([moving(x0, y0, v, ang)]) for x0, y0, v, ang in STOP_CASES]
    for (x0, y0, v, ang), o in zip(STOP_CASES, run("open", shots)):
        dx, dy = o["x"][0] - x0, o["y"][0] - y0
        assert math.hypot(dx, dy) == pytest.approx(slide(v), rel=1e-5)
        assert math.atan2(dy, dx) == pytest.approx(ang, abs=1e-5)
        assert o["t_end"] == pytest.approx(v / A, rel=1e-5)
        assert not o["truncated"]
        assert o["alive"][0] and o["capture"][0] == -1 and o["capture_order"][0] == -1
        assert math.isnan(o["capture_time"][0])
        assert o["first_contact_kind"] == 0 and o["first_contact"] == -1
        assert o["n_piece_contacts"] == 0 and o["n_wall_contacts"] == 0


# --------------------------------------------------------------------------- 2-4. contacts


@pytest.mark.parametrize("e", [1.0, 0.9])
def test_head_on_equal_masses(e):
    """Equal masses head-on: the shooter keeps (1 - e) / 2 of the contact speed, the target
    gets (1 + e) / 2; with e = 1 the shooter stops dead where it hit. Read back from the final
    positions after the analytic slide. Float32: 2e-6 m."""
    r = COIN[0]
    x_b = 0.1
    speeds = (0.5, 0.8, 1.5, 3.0)
    shots = [make_pieces([moving(0.0, 0.0, v, 0.0), resting(x_b, 0.0)]) for v in speeds]
    outs = run("open", shots, Physics(e_piece=e, stick_speed=0.0))
    for v, o in zip(speeds, outs):
        s_hit = x_b - 2 * r
        v1 = speed_after(v, s_hit)
        assert o["x"][0] == pytest.approx(s_hit + slide((1 - e) / 2 * v1), abs=2e-6)
        assert o["x"][1] == pytest.approx(x_b + slide((1 + e) / 2 * v1), abs=2e-6)
        assert o["y"][0] == 0.0 and o["y"][1] == 0.0
        assert o["n_piece_contacts"] == 1 and list(o["contacts"]) == [1, 1]
        assert (o["first_contact_kind"], o["first_contact"]) == (1, 1)
        assert o["t_end"] == pytest.approx(time_for(v, s_hit) + (1 + e) / 2 * v1 / A, rel=1e-5)
        assert not o["truncated"]


OBLIQUE = [(0.2, 0.0), (0.5, 1.0), (0.8, -2.3), (-0.35, 2.9), (0.65, 4.4)]  # b / 2r, rotation


def test_equal_masses_oblique_elastic_leave_at_right_angles():
    """e = 1, equal masses: after the contact the target moves along the line of centres and
    the shooter at right angles to it. Directions from the contact points to the final
    positions; float32: |cos| <= 2e-5, slide lengths to 1e-4 relative."""
    r = COIN[0]
    v0, d = 1.6, 0.12
    shots, geo = [], []
    for frac, th in OBLIQUE:
        b = frac * 2 * r
        a0 = rot(th, -d, 0.0)
        b0 = rot(th, 0.0, b)
        shots.append(make_pieces([moving(*a0, v0, th), resting(*b0)]))
        xc = -math.sqrt((2 * r) ** 2 - b * b)  # shooter's centre at contact (unrotated frame)
        n = (-xc / (2 * r), b / (2 * r))  # line of centres at contact
        geo.append((b0, rot(th, xc, 0.0), rot(th, *n), d + xc, th))
    outs = run("open", shots, Physics(e_piece=1.0, stick_speed=0.0))
    for (b0, ac, n, s_hit, th), o in zip(geo, outs):
        assert o["n_piece_contacts"] == 1
        da = np.array([o["x"][0] - ac[0], o["y"][0] - ac[1]])
        db = np.array([o["x"][1] - b0[0], o["y"][1] - b0[1]])
        v1 = speed_after(v0, s_hit)
        cos_n = n[0] * math.cos(th) + n[1] * math.sin(th)  # incoming direction . normal
        assert np.linalg.norm(db) == pytest.approx(slide(v1 * cos_n), rel=1e-4)
        assert np.linalg.norm(da) == pytest.approx(slide(v1 * math.sqrt(1 - cos_n**2)), rel=1e-4)
        cos = da @ db / (np.linalg.norm(da) * np.linalg.norm(db))
        assert abs(cos) <= 2e-5
        assert abs(db @ np.array(n) / np.linalg.norm(db) - 1) <= 2e-6  # along the normal


def _two_body_prediction(m1, m2, e, u, n):
    """Smooth impulse: post-contact velocities of body 1 (moving at u) and body 2 (at rest)."""
    un = u @ n
    v1 = u - n * un + n * un * (m1 - e * m2) / (m1 + m2)
    v2 = n * un * (1 + e) * m1 / (m1 + m2)
    return v1, v2


UNEQUAL = [  # shooter spec, target spec, e_striker, b / (r1 + r2), rotation
    (STRIKER, COIN, 0.85, 0.0, 0.4),
    (STRIKER, COIN, 0.85, 0.45, -1.2),
    (STRIKER, COIN, 0.6, -0.3, 2.2),
    (COIN, STRIKER, 0.85, 0.0, 1.0),  # the light coin bounces back
    (COIN, STRIKER, 0.7, 0.25, -2.8),
]


def test_unequal_masses_momentum_and_restitution():
    """Striker (15 g, 'striker' material: e_striker) against a coin (5.25 g), both ways.
    Post-contact velocities are read back from the final positions (speed sqrt(2 a d) along the
    displacement from the contact point) and checked: momentum equals the shooter's momentum
    at contact (1e-4 relative, float32), kinetic energy ratio equals
    1 - (1 - e^2) m2 / (m1 + m2) cos^2(phi), and the final positions equal the analytic ones
    (5e-6 m)."""
    v0, d = 1.4, 0.15
    shots, geo = [], []
    for spec1, spec2, _e, frac, th in UNEQUAL:
        reach = spec1[0] + spec2[0]
        b = frac * reach
        a0 = rot(th, -d, 0.0)
        b0 = rot(th, 0.0, b)
        shots.append(make_pieces([moving(*a0, v0, th, spec1), resting(*b0, spec2)]))
        xc = -math.sqrt(reach**2 - b * b)
        n = np.array(rot(th, -xc / reach, b / reach))
        geo.append((np.array(rot(th, xc, 0.0)), np.array(b0), n, d + xc, th))
    for (spec1, spec2, e, _f, _th), (ac, b0, n, s_hit, th), shot in zip(UNEQUAL, geo, shots):
        (o,) = run("open", [shot], Physics(e_striker=e, stick_speed=0.0))
        m1, m2 = spec1[1], spec2[1]
        u = speed_after(v0, s_hit) * np.array([math.cos(th), math.sin(th)])
        p1, p2 = _two_body_prediction(m1, m2, e, u, n)
        assert o["n_piece_contacts"] == 1, "re-contact: the test geometry is wrong"
        fa = np.array([o["x"][0], o["y"][0]])
        fb = np.array([o["x"][1], o["y"][1]])
        for f, start, p in ((fa, ac, p1), (fb, b0, p2)):
            pn = np.linalg.norm(p)
            expect = start + (p / pn) * slide(pn) if pn > 0 else start
            np.testing.assert_allclose(f, expect, rtol=0, atol=5e-6)

        def measured(f, start):
            disp = f - start
            dist = np.linalg.norm(disp)
            return disp / dist * math.sqrt(2 * A * dist)

        w1, w2 = measured(fa, ac), measured(fb, b0)
        np.testing.assert_allclose(m1 * w1 + m2 * w2, m1 * u, rtol=0, atol=1e-4 * m1 * v0)
        ke0 = 0.5 * m1 * (u @ u)
        ke1 = 0.5 * (m1 * w1 @ w1 + m2 * w2 @ w2)
        cos2 = (u @ n) ** 2 / (u @ u)
        assert ke1 / ke0 == pytest.approx(1 - (1 - e * e) * m2 / (m1 + m2) * cos2, rel=1e-4)
        assert ke1 <= ke0 * (1 + 1e-5)


# --------------------------------------------------------------------------- 5. cushions

CUSHION = [  # start (E-hit frame), speed, angle from +x, e_cushion, rotation quarter-turns
    ((0.0, -0.1), 1.2, math.radians(30), 0.7, 0),
    ((0.1, 0.05), 1.0, math.radians(-50), 0.7, 1),
    ((-0.1, 0.0), 1.3, 0.0, 0.7, 2),
    ((0.05, 0.1), 0.9, math.radians(-20), 0.4, 3),
    ((0.0, -0.3), 1.2, math.radians(55), 0.4, 0),
]


def test_cushion_reflection_scales_the_normal_speed_by_e():
    """A coin hits a straight ICF cushion at an angle: normal velocity reversed and scaled by
    e_cushion, tangential unchanged; final position from the analytic slide (float32: 5e-6 m),
    one wall contact, the shooter's first contact is that cushion."""
    h = ICF.side / 2
    r = COIN[0]
    cases = []
    for (x0, y0), v0, ang, e, q in CUSHION:
        s_hit = (h - r - x0) / math.cos(ang)
        xc, yc = h - r, y0 + s_hit * math.sin(ang)
        v1 = speed_after(v0, s_hit)
        vx, vy = -e * v1 * math.cos(ang), v1 * math.sin(ang)
        sp = math.hypot(vx, vy)
        fx, fy = xc + vx / sp * slide(sp), yc + vy / sp * slide(sp)
        # a clean single bounce: the end stays clear of the other cushions and the pockets
        assert abs(fx) < h - r - 0.005 and abs(fy) < h - r - 0.005
        assert all(
            math.hypot(fx - px, fy - py) > pr + 0.01 for px, py, pr, _ in TABLES["icf"].captures
        )
        th = q * math.pi / 2
        pieces = make_pieces([moving(*rot(th, x0, y0), v0, ang + th)])
        cases.append((pieces, rot(th, fx, fy), (SEG_E + q) % 4, e))
    for pieces, (fx, fy), wall, e in cases:
        (o,) = run("icf", [pieces], Physics(e_cushion=e))
        assert o["x"][0] == pytest.approx(fx, abs=5e-6)
        assert o["y"][0] == pytest.approx(fy, abs=5e-6)
        assert o["n_wall_contacts"] == 1 and o["n_piece_contacts"] == 0
        assert (o["first_contact_kind"], o["first_contact"]) == (2, wall)
        assert list(o["contacts"]) == [1]
        assert o["alive"][0] and not o["truncated"]


# --------------------------------------------------------------------------- 6. pockets


def test_pocket_capture_and_near_miss():
    """A coin aimed at a pocket centre is captured (index of that pocket, order 0, at the
    analytic time and place where its centre enters the capture circle). A coin sliding
    parallel to the cushion whose centre passes 1e-4 m outside the capture circle is not
    captured (it stops just past the pocket, before the cushion); 1e-4 m inside it is. All four
    pockets by symmetry."""
    c = ICF.side / 2 - ICF.pocket_inset
    rc = ICF.pocket_diameter / 2
    pocket_after_turn = [POCKET_NE, 3, 0, 1]  # NE rotated by q quarter turns
    y0, y_stop = 0.0, c + 0.003
    v_par = math.sqrt(2 * A * (y_stop - y0))
    cases = []
    for q in range(4):
        th = q * math.pi / 2
        # aimed at the centre, from a few starts
        for (sx, sy), v in (((0.0, 0.0), 2.0), ((0.1, -0.05), 1.5), ((-0.2, 0.25), 3.0)):
            ang = math.atan2(c - sy, c - sx)
            s_in = math.hypot(c - sx, c - sy) - rc
            entry = (sx + s_in * math.cos(ang), sy + s_in * math.sin(ang))
            p = make_pieces([moving(*rot(th, sx, sy), v, ang + th)])
            cases.append((p, "in", rot(th, *entry), time_for(v, s_in), pocket_after_turn[q]))
        for kind, x in (("miss", c - rc - 1e-4), ("graze", c - rc + 1e-4)):
            p = make_pieces([moving(*rot(th, x, y0), v_par, math.pi / 2 + th)])
            if kind == "miss":
                cases.append((p, kind, rot(th, x, y_stop), None, pocket_after_turn[q]))
            else:
                s_in = c - math.sqrt(rc * rc - (c - x) ** 2) - y0
                entry = rot(th, x, y0 + s_in)
                cases.append((p, kind, entry, time_for(v_par, s_in), pocket_after_turn[q]))
    outs = run("icf", [cs[0] for cs in cases])
    for (_p, kind, (fx, fy), t, pocket), o in zip(cases, outs):
        assert o["x"][0] == pytest.approx(fx, abs=5e-6), kind
        assert o["y"][0] == pytest.approx(fy, abs=5e-6), kind
        assert o["n_wall_contacts"] == 0, kind
        if kind == "miss":
            assert o["alive"][0] and o["capture"][0] == -1 and o["capture_order"][0] == -1
            assert math.isnan(o["capture_time"][0])
        else:
            assert not o["alive"][0], kind
            assert o["capture"][0] == pocket and o["capture_order"][0] == 0
            assert o["capture_time"][0] == pytest.approx(t, rel=1e-5)
            assert o["t_end"] == pytest.approx(t, rel=1e-5)
        assert not o["truncated"]


# --------------------------------------------------------------------------- 7. grazing


def _positions(p0, u, v, t):
    tau = np.minimum(t, v / A)
    s = v * tau - 0.5 * A * tau * tau
    return p0[0] + u[0] * s, p0[1] + u[1] * s


def _min_distance(pa, ua, va, pb, ub, vb):
    t_hi = max(va, vb) / A
    ts = np.linspace(0.0, t_hi, 4001)

    def dist(t):
        xa, ya = _positions(pa, ua, va, t)
        xb, yb = _positions(pb, ub, vb, t)
        return np.hypot(xb - xa, yb - ya)

    k = int(np.argmin(dist(ts)))
    lo, hi = ts[max(k - 1, 0)], ts[min(k + 1, len(ts) - 1)]
    res = minimize_scalar(dist, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13})
    return float(res.fun)


GRAZE = [  # speed A, speed B, B's direction, B's start distance
    (1.0, 1.0, math.pi / 2, 0.2),
    (1.5, 0.8, 2 * math.pi / 3, 0.25),
    (0.7, 1.3, math.pi / 3, 0.15),
    (2.0, 1.1, 0.8 * math.pi, 0.3),
]


def _graze_setup(va, vb, phi, dist_b, gap):
    """A moves along +x from the origin; B along ``phi`` towards A's path; B's start is shifted
    along x so the centres' closest approach is 2r + gap (float64, scipy)."""
    reach = 2 * COIN[0]
    ua, ub = (1.0, 0.0), (math.cos(phi), math.sin(phi))
    xm = 0.4 * slide(va)  # a point on A's path

    def start_b(shift):
        return (xm + shift - ub[0] * dist_b, -ub[1] * dist_b)

    def f(shift):
        return _min_distance((0.0, 0.0), ua, va, start_b(shift), ub, vb) - (reach + gap)

    shifts = np.linspace(-0.3, 0.3, 121)
    vals = [f(s) for s in shifts]
    k = next(i for i in range(1, len(shifts)) if vals[i - 1] < 0 <= vals[i])
    shift = brentq(f, shifts[k - 1], shifts[k], xtol=1e-14)
    pb = start_b(shift)
    return make_pieces([moving(0.0, 0.0, va, 0.0), moving(*pb, vb, phi)]), pb, ua, ub


#: More crossing geometries (found by a random scan) for the near-miss check.
NEAR_MISS = [
    *GRAZE,
    (1.226, 2.098, 1.295, 0.168),
    (0.881, 2.157, 2.131, 0.218),
    (1.09, 2.05, 2.163, 0.119),
    (1.452, 1.299, 0.87, 0.13),
    (0.957, 1.346, 1.138, 0.226),
]
GRAZE_PHYS = Physics(stick_speed=0.0)


def test_grazing_moving_moving_contact_is_found():
    """Two moving coins on crossing paths whose centres' closest approach (float64, exact
    trajectories) is 1e-5 m inside contact: the kernel finds the one contact, the shooter's
    first. (No float32 comparison of positions with the reference here: the impulse of a
    grazing contact goes as the square root of the overlap depth, so the float32 contact
    tolerance (1e-6 m) moves these final positions noticeably; the float64 test checks them.)"""
    shots = [_graze_setup(*g, -1e-5)[0] for g in GRAZE]
    for o in run("open", shots, GRAZE_PHYS):
        assert not o["truncated"]
        assert o["n_piece_contacts"] == 1
        assert (o["first_contact_kind"], o["first_contact"]) == (1, 1)
        assert list(o["contacts"]) == [1, 1]


@pytest.mark.parametrize("case", range(len(NEAR_MISS)))
def test_grazing_near_miss_is_not_a_contact(case):
    """The same crossing paths with the closest approach 1e-5 m outside contact: no contact,
    both coins slide to their free stops (float32: 5e-6 m)."""
    va, vb, phi, dist_b = NEAR_MISS[case]
    p, pb, _ua, ub = _graze_setup(va, vb, phi, dist_b, 1e-5)
    (o,) = run("open", [p], GRAZE_PHYS)
    assert o["n_piece_contacts"] == 0
    assert o["first_contact_kind"] == 0
    assert o["x"][0] == pytest.approx(slide(va), abs=5e-6)
    assert o["y"][0] == pytest.approx(0.0, abs=5e-6)
    assert o["x"][1] == pytest.approx(pb[0] + ub[0] * slide(vb), abs=5e-6)
    assert o["y"][1] == pytest.approx(pb[1] + ub[1] * slide(vb), abs=5e-6)


# --------------------------------------------------------------------------- float64


def x64_cases():
    """Shots for the float64 run: lone coins (STOP_CASES), head-on e = 1 exchanges, grazing
    contacts and near misses (NEAR_MISS at -1e-5 and +1e-5 m)."""
    cases = [("stop", c, pad(make_pieces([moving(*c)]), 2)) for c in STOP_CASES]
    cases += [
        ("head-on", v, make_pieces([moving(-0.2, 0.0, v, 0.0), resting(0.0, 0.0)]))
        for v in (0.8, 1.5, 3.0)
    ]
    for g in NEAR_MISS:
        for gap in (-1e-5, 1e-5):
            cases.append(("graze", (g, gap), _graze_setup(*g, gap)[0]))
    return cases


X64_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import jax, jax.numpy as jnp, numpy as np
    assert jax.config.jax_enable_x64
    sys.path.insert(0, sys.argv[1])
    import test_kernel as tk
    from carromlab.physics import Physics
    from carromlab.physics.kernel import Discs, make_batch_simulator

    discs = [Discs.from_pieces(p) for _, _, p in tk.x64_cases()]
    assert discs[0].x.dtype == jnp.float64
    batch = jax.tree.map(lambda *xs: jnp.stack(xs), *discs)
    sim = make_batch_simulator(tk.open_table(), 2, 64)
    out = sim(batch, Physics(e_piece=1.0, stick_speed=0.0))
    print(json.dumps({k: np.asarray(getattr(out, k)).tolist()
                      for k in ("x", "y", "t_end", "n_piece_contacts", "truncated")}
                     | {"dtype": str(out.x.dtype)}))
    """
)


def test_float64_kernel():
    """Float64 kernel (subprocess, JAX_ENABLE_X64=1; e = 1, no sticking): stopping distance and
    stopping time to 1e-9 relative (tighter than the 1e-6 asked), head-on exchange (shooter
    dead at the contact point, target's slide) to 1e-9 m, every grazing contact (1e-5 m deep)
    found and every near miss (1e-5 m clear) not, final positions equal to the float64
    reference's within 1e-7 m."""
    env = dict(os.environ, JAX_ENABLE_X64="1", JAX_PLATFORMS="cpu")
    proc = subprocess.run(
        [sys.executable, "-c", X64_SCRIPT, os.path.dirname(__file__)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    assert res["dtype"] == "float64"
    x, y, t_end = np.array(res["x"]), np.array(res["y"]), np.array(res["t_end"])
    phys = Physics(e_piece=1.0, stick_speed=0.0)
    r = COIN[0]
    for k, (kind, c, p) in enumerate(x64_cases()):
        assert not res["truncated"][k]
        if kind == "stop":
            x0, y0, v, _ang = c
            assert math.hypot(x[k, 0] - x0, y[k, 0] - y0) == pytest.approx(slide(v), rel=1e-9)
            assert t_end[k] == pytest.approx(v / A, rel=1e-9)
        elif kind == "head-on":
            assert x[k, 0] == pytest.approx(-2 * r, abs=1e-9)
            assert x[k, 1] == pytest.approx(slide(speed_after(c, 0.2 - 2 * r)), abs=1e-9)
        else:
            _g, gap = c
            assert res["n_piece_contacts"][k] == (1 if gap < 0 else 0), c
            ref = simulate_reference(TABLES["open"], p, phys, dt=1e-3)
            np.testing.assert_allclose(x[k], ref.x, rtol=0, atol=1e-7)
            np.testing.assert_allclose(y[k], ref.y, rtol=0, atol=1e-7)


# --------------------------------------------------------------------------- random shots


def _scatter(rng, radii, inside, obstacles, margin=1e-3, tries=5000):
    """Random non-overlapping centres: ``inside(x, y, r)``; obstacles (x, y, R) to keep
    clear of (pockets, holes, pegs)."""
    pts: list[tuple[float, float, float]] = []
    for r in radii:
        for _ in range(tries):
            x, y = rng.uniform(-0.45, 0.45, 2)
            if not inside(x, y, r):
                continue
            if any(math.hypot(x - ox, y - oy) < orad + r + margin for ox, oy, orad in obstacles):
                continue
            if any(math.hypot(x - px, y - py) < pr + r + margin for px, py, pr in pts):
                continue
            pts.append((float(x), float(y), r))
            break
        else:
            raise AssertionError("could not place a piece")
    return pts


def _square_inside(half):
    return lambda x, y, r: abs(x) <= half - r - 1e-3 and abs(y) <= half - r - 1e-3


def _circle_inside(radius):
    return lambda x, y, r: math.hypot(x, y) <= radius - r - 1e-3


def _aim(rng, sx, sy, pts):
    """Half the shots aim near a random piece, the others anywhere."""
    if pts and rng.random() < 0.6:
        tx, ty, _ = pts[rng.integers(len(pts))]
        return math.atan2(ty - sy, tx - sx) + rng.normal(0.0, 0.15)
    return rng.uniform(-math.pi, math.pi)


def icf_shot(rng, n_coins, speeds):
    h = ICF.side / 2
    caps = [(x, y, rad) for x, y, rad, _ in TABLES["icf"].captures]
    radii = [STRIKER[0]] + [COIN[0]] * n_coins
    pts = _scatter(rng, radii, _square_inside(h), caps)
    kinds = (["queen"] if n_coins % 2 else []) + ["coin"] * (n_coins - n_coins % 2)
    owners = [None] if n_coins % 2 else []
    owners += ["white", "black"] * (n_coins // 2)
    pieces = tuple(
        Piece(f"c{k}", kind, owner, x, y)
        for k, (kind, owner, (x, y, _)) in enumerate(zip(kinds, owners, pts[1:]))
    )
    pos = Position("icf", pieces, ICF)
    assert pos.validate() == []
    sx, sy, _ = pts[0]
    return Pieces.from_position(
        pos,
        shooter=("striker", "white", sx, sy),
        speed=float(rng.uniform(*speeds)),
        angle=_aim(rng, sx, sy, pts[1:]),
    )


def carrooka_shot(rng, n_pucks, speeds):
    rad = CARROOKA.diameter / 2
    caps = [(x, y, rr) for x, y, rr, _ in TABLES["carrooka"].captures]
    sr, pr = CARROOKA.striker_diameter / 2, CARROOKA.puck_diameter / 2
    pts = _scatter(rng, [sr] + [pr] * n_pucks, _circle_inside(rad), caps)
    kinds = (["red"] * 15 + list(COLOURS))[:n_pucks]
    pieces = tuple(Piece(f"r{k}", kind, None, x, y) for k, (kind, (x, y, _)) in
                   enumerate(zip(kinds, pts[1:])))  # fmt: skip
    pos = Position("carrooka", pieces, CARROOKA)
    assert pos.validate() == []
    sx, sy, _ = pts[0]
    return Pieces.from_position(
        pos,
        shooter=("striker", None, sx, sy),
        speed=float(rng.uniform(*speeds)),
        angle=_aim(rng, sx, sy, pts[1:]),
    )


def ditch_shot(rng, n_rings, speeds):
    table = TABLES["ditch"]
    obstacles = [(x, y, rr) for x, y, rr, _ in table.captures]
    obstacles += [tuple(p) for p in table.posts]
    r = CROK_DITCH.ring_diameter / 2
    pts = _scatter(rng, [r] * (n_rings + 1), _circle_inside(CROK_DITCH.surface_diameter / 2),
                   obstacles)  # fmt: skip
    owners = ["red", "green"] * n_rings
    pieces = tuple(
        Piece(f"k{k}", "ring", owner, x, y)
        for k, (owner, (x, y, _)) in enumerate(zip(owners, pts[1:]))
    )
    pos = Position("force-out", pieces, CROK_DITCH)
    assert pos.validate() == []
    sx, sy, _ = pts[0]
    return Pieces.from_position(
        pos,
        shooter=("shooter", "red", sx, sy),
        speed=float(rng.uniform(*speeds)),
        angle=_aim(rng, sx, sy, pts[1:]),
    )


@functools.cache
def property_shots():
    rng = np.random.default_rng(20240601)
    return {
        "icf": [icf_shot(rng, 19, (1.0, 6.0)) for _ in range(64)],
        "carrooka": [carrooka_shot(rng, 21, (1.0, 6.0)) for _ in range(32)],
        "ditch": [ditch_shot(rng, 12, (0.5, 4.0)) for _ in range(32)],
    }


@functools.cache
def property_outcomes(key: str) -> list[dict]:
    """The outcomes of one board's random shots (each board's only when its test runs)."""
    return run(key, property_shots()[key])


OVERLAP_TOL_F32 = 1e-6  # m: final overlap allowed between alive pieces (float32)
WALL_TOL_F32 = 1e-6  # m: how far an alive disc may reach beyond a cushion / rail (float32)


def _check_invariants(key, p: Pieces, o: dict, physics=PHYS):
    tag = f"{key}: {o}"
    assert not o["truncated"], tag
    assert o["n_events"] < MAX_EVENTS
    assert np.isfinite(o["x"]).all() and np.isfinite(o["y"]).all(), tag
    assert np.isfinite(o["t_end"])
    alive = o["alive"]
    cap = o["capture"]
    # captures are consistent
    n_caps = len(TABLES[key].captures)
    assert ((cap == -1) == alive).all()
    assert ((cap >= -1) & (cap <= n_caps)).all()
    if TABLES[key].surface_beyond != "ditch":
        assert (cap < n_caps).all()  # no ditch code off a ditch board
    captured = np.flatnonzero(~alive)
    assert sorted(o["capture_order"][captured]) == list(range(len(captured)))
    assert (o["capture_order"][alive] == -1).all()
    assert np.isnan(o["capture_time"][alive]).all()
    ct = o["capture_time"][captured]
    assert (ct >= 0).all() and (ct <= o["t_end"] * (1 + 1e-6)).all()
    order = np.argsort(o["capture_order"][captured])
    assert (np.diff(ct[order]) >= 0).all()
    # contact bookkeeping
    assert o["contacts"].sum() == 2 * o["n_piece_contacts"] + o["n_wall_contacts"]
    # static pieces never move
    st = p.static
    assert (o["x"][st] == np.float32(p.x[st])).all() and (o["y"][st] == np.float32(p.y[st])).all()
    # no overlap between alive pieces
    idx = np.flatnonzero(alive)
    x, y, r = o["x"][idx].astype(float), o["y"][idx].astype(float), p.radius[idx]
    dist = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    over = (r[:, None] + r[None, :]) - dist
    np.fill_diagonal(over, -np.inf)
    assert over.max(initial=-np.inf) <= OVERLAP_TOL_F32, (tag, over.max())
    # nothing alive off the surface or through a cushion, rail or peg
    table = TABLES[key]
    if len(table.segments):
        h = table.surface_size
        assert (np.abs(x) <= h - r + WALL_TOL_F32).all(), tag
        assert (np.abs(y) <= h - r + WALL_TOL_F32).all(), tag
    for cx, cy, rr in table.rails:
        assert (np.hypot(x - cx, y - cy) <= rr - r + WALL_TOL_F32).all(), tag
    loose = ~p.static[idx]
    for cx, cy, rr in table.posts:  # (pegged rings sit over their pegs)
        assert (np.hypot(x - cx, y - cy)[loose] >= (rr + r - WALL_TOL_F32)[loose]).all(), tag
    if table.surface_shape == "circle":
        assert (np.hypot(x, y) <= table.surface_size + 1e-6).all(), tag
    # friction budget: work done by friction >= sum m a |displacement| <= initial KE
    m = p.mass
    moved = np.hypot(o["x"] - p.x, o["y"] - p.y)
    moved = np.where(p.static, 0.0, moved)
    ke0 = 0.5 * np.sum(np.where(p.static, 0.0, m * (p.vx**2 + p.vy**2)))
    a = physics.mu * physics.g
    assert np.sum(m * a * moved) <= ke0 * (1 + 1e-5) + 1e-9, tag


@pytest.mark.parametrize("key", ["icf", "carrooka", "ditch"])
def test_random_shots_keep_the_invariants(key):
    """Random legal positions (fixed seed): ICF 64 shots (striker + 19 coins), Carrooka 32
    (striker + 21 pucks), crokinole with a ditch and pegs 32 (shooter + 12 rings). No NaN, not
    truncated, captures consistent, final overlap of alive pieces <= 1e-6 m (float32), no alive
    disc through a cushion / rail / peg (1e-6 m) or off a ditch surface, friction budget."""
    shots = property_shots()[key]
    outs = property_outcomes(key)
    for p, o in zip(shots, outs):
        _check_invariants(key, p, o)
    # the shots are not trivial
    assert sum(o["n_piece_contacts"] > 0 for o in outs) >= len(outs) // 3
    assert sum(o["n_wall_contacts"] > 0 for o in outs) >= len(outs) // 4
    assert sum((~o["alive"]).any() for o in outs) >= 2


def test_per_event_invariants_from_the_trace():
    """With the per-event trace (``record=True``): 15 random ICF shots and the break. Between
    two rows every disc only decelerates at mu g, so the velocities just before an event are
    known; at each event at most two discs change velocity, or a whole touching cluster solved at
    once (momentum kept, 2e-6 relative). At every pair contact (two discs
    change): momentum conserved (2e-6 relative, float32), the change along the line of centres
    only (tangential velocities unchanged, 2e-6 relative), the normal relative velocity reversed
    and scaled by the pair's restitution (e_striker when the striker is involved, else e_piece;
    below stick_speed both leave with one common velocity), and the pair touching (gap within
    2e-5 m). At every event the total kinetic energy does not rise (1e-6 relative)."""
    if "record" not in inspect.signature(make_simulator).parameters:
        pytest.skip("make_simulator has no per-event trace")
    n, _ = SHAPES["icf"]
    sim = jax.jit(
        jax.vmap(make_simulator(TABLES["icf"], n, MAX_EVENTS, record=True), in_axes=(0, None))
    )
    brk = Pieces.from_position(
        standard_position("icf-opening"), ("striker", "white", 0.0, -0.2526), 5.0, math.pi / 2
    )
    shots = [*property_shots()["icf"][16:31], brk]
    out, tr = sim(stack_discs("icf", shots, len(shots)), PHYS)
    tr = jax.tree.map(np.asarray, tr)
    seen = {0: 0, 1: 0, 2: 0, "cluster": 0}
    for b, p in enumerate(shots):
        m, rad = pad(p, n).mass, pad(p, n).radius
        hard = np.array([mat == "striker" for mat in pad(p, n).materials])
        rows = int(tr.n[b])
        assert 2 <= rows <= MAX_EVENTS + 2
        assert tr.t[b, rows - 1] == pytest.approx(float(out.t_end[b]), rel=1e-6)
        assert (np.diff(tr.t[b, :rows]) >= 0).all()
        for k in range(1, rows):
            dt = float(tr.t[b, k]) - float(tr.t[b, k - 1])
            vx0, vy0 = tr.vx[b, k - 1].astype(float), tr.vy[b, k - 1].astype(float)
            sp = np.hypot(vx0, vy0)
            f = np.where(sp > 0, np.maximum(sp - A * dt, 0.0) / np.where(sp > 0, sp, 1.0), 0.0)
            px, py = vx0 * f, vy0 * f  # just before the event
            vx, vy = tr.vx[b, k].astype(float), tr.vy[b, k].astype(float)
            scale = max(float(sp.max()), 1e-3)
            changed = np.flatnonzero(np.hypot(vx - px, vy - py) > 1e-5 * scale)
            ke_before = 0.5 * np.sum(m * (px * px + py * py))
            ke_after = 0.5 * np.sum(m * (vx * vx + vy * vy))
            assert ke_after <= ke_before * (1 + 1e-6) + 1e-12, (b, k)
            if len(changed) > 2:  # a touching cluster solved at once: momentum is kept
                seen["cluster"] += 1
                assert tr.event_code[b, k] == -1 and tr.alive[b, k, changed].all(), (b, k)
                mom_scale = np.sum(m * np.hypot(px, py))
                for before, after in ((px, vx), (py, vy)):
                    assert abs(np.sum(m * (after - before))) <= 2e-6 * mom_scale, (b, k)
                continue
            seen[len(changed)] += 1
            if len(changed) != 2:
                continue
            i, j = changed
            assert tr.alive[b, k, i] and tr.alive[b, k, j]
            x, y = tr.x[b, k].astype(float), tr.y[b, k].astype(float)
            nx, ny = x[j] - x[i], y[j] - y[i]
            dist = math.hypot(nx, ny)
            assert dist - rad[i] - rad[j] <= 2e-5, (b, k)
            nx, ny = nx / dist, ny / dist
            mom_scale = m[i] * math.hypot(px[i], py[i]) + m[j] * math.hypot(px[j], py[j])
            for before, after in ((px, vx), (py, vy)):
                dp = m[i] * (after[i] - before[i]) + m[j] * (after[j] - before[j])
                assert abs(dp) <= 2e-6 * mom_scale, (b, k)
            for q in (i, j):  # the change is along the normal
                dvx, dvy = vx[q] - px[q], vy[q] - py[q]
                assert abs(dvx * ny - dvy * nx) <= 2e-6 * scale, (b, k, q)
            w0 = (px[i] - px[j]) * nx + (py[i] - py[j]) * ny
            w1 = (vx[i] - vx[j]) * nx + (vy[i] - vy[j]) * ny
            assert w0 > 0, (b, k)
            e = PHYS.e_striker if hard[i] or hard[j] else PHYS.e_piece
            expect = 0.0 if w0 < PHYS.stick_speed else -e * w0
            assert w1 == pytest.approx(expect, abs=2e-6 * scale), (b, k, w0)
    assert seen[2] >= 50 and seen[1] >= 10 and seen["cluster"] >= 1


# --------------------------------------------------------------------------- 9. reference

REF_DT = 1e-3
CHAOS_ANGLE = 1e-6  # rad
POS_TOL = 1e-3  # m


def _ref_capture_codes(table: Table, ref) -> np.ndarray:
    return np.where(
        ref.fate == 0, -1, np.where(ref.fate == 2, len(table.captures), ref.capture_index)
    )


def _kernel_first(o) -> tuple[str, int]:
    kind = {0: "none", 1: "piece", 2: "wall"}[o["first_contact_kind"]]
    return kind, o["first_contact"]


def _turned(p: Pieces, dangle: float) -> Pieces:
    c, s = math.cos(dangle), math.sin(dangle)
    vx, vy = p.vx.copy(), p.vy.copy()
    vx[0], vy[0] = c * p.vx[0] - s * p.vy[0], s * p.vx[0] + c * p.vy[0]
    return dataclasses.replace(p, vx=vx, vy=vy)


def reference_run(table: Table, p: Pieces, physics: Physics = PHYS):
    """The float64 reference of shot ``p``: (result, capture codes, chaotic), chaotic when
    turning the shot by +-CHAOS_ANGLE changes a capture, the first contact, or a final place
    by more than POS_TOL (the criterion of test_kernel_agrees_with_the_float64_reference)."""
    ref = simulate_reference(table, p, physics, dt=REF_DT)
    codes = _ref_capture_codes(table, ref)
    chaotic = False
    for sign in (1, -1):
        alt = simulate_reference(table, _turned(p, sign * CHAOS_ANGLE), physics, dt=REF_DT)
        moved = np.hypot(alt.x - ref.x, alt.y - ref.y).max()
        if (
            not np.array_equal(_ref_capture_codes(table, alt), codes)
            or alt.first_contact != ref.first_contact
            or moved > POS_TOL
        ):
            chaotic = True
    return ref, codes, chaotic


@functools.cache
def reference_comparison():
    rng = np.random.default_rng(7)
    shots = {
        "icf": [icf_shot(rng, 4, (1.0, 3.5)) for _ in range(20)],
        "carrooka": [carrooka_shot(rng, 4, (1.0, 3.5)) for _ in range(16)],
        "ditch": [ditch_shot(rng, 4, (0.8, 3.0)) for _ in range(16)],
    }
    rows = []
    for key, ps in shots.items():
        table = TABLES[key]
        for p, o in zip(ps, run(key, ps)):
            ref, codes, chaotic = reference_run(table, p)
            rows.append((key, p, o, ref, codes, chaotic))
    return rows


def test_kernel_agrees_with_the_float64_reference():
    """52 random shots (20 ICF with 4 coins, 16 Carrooka with 4 pucks, 16 crokinole-with-ditch
    with 4 rings), float32 kernel against the float64 time-stepped reference (dt = 1e-3 s).

    Chaos criterion: a shot is *chaotic* when re-running the reference with the shooter's
    initial direction turned by +1e-6 rad or by -1e-6 rad changes any piece's capture code, or
    the shooter's first contact, or moves any final position by more than 1e-3 m. (float32
    rounds the initial velocity direction by ~1e-7 rad and each event adds rounding of the same
    order, so on a chaotic shot no float32 kernel can be expected to follow the float64 run.)

    At least 40 shots must be non-chaotic, and on every non-chaotic shot the kernel must agree
    with the reference: same capture codes (which pieces, which pocket / hole / ditch), same
    capture order, same shooter's first contact (kind and index), every final position (alive
    or where captured) within 1e-3 m, neither truncated."""
    rows = reference_comparison()
    assert len(rows) >= 50
    calm = [r for r in rows if not r[5]]
    assert len(calm) >= 40, f"only {len(calm)} of {len(rows)} shots are non-chaotic"
    bad = []
    for key, _p, o, ref, codes, _ in calm:
        problems = []
        if ref.truncated or o["truncated"]:
            problems.append("truncated")
        if not np.array_equal(o["capture"], codes):
            problems.append(f"captures {o['capture'].tolist()} vs {codes.tolist()}")
        if not np.array_equal(o["capture_order"], ref.capture_order):
            problems.append(f"order {o['capture_order'].tolist()} vs {ref.capture_order.tolist()}")
        if _kernel_first(o) != ref.first_contact:
            problems.append(f"first {_kernel_first(o)} vs {ref.first_contact}")
        err = np.hypot(o["x"] - ref.x, o["y"] - ref.y).max()
        if err > POS_TOL:
            problems.append(f"positions differ by {err:.3g} m")
        if problems:
            bad.append((key, problems))
    assert not bad, bad
    # the sample exercises contacts and captures
    assert sum(r[3].n_piece_contacts > 0 for r in calm) >= 15
    assert sum((r[4] >= 0).any() for r in calm) >= 3


# --------------------------------------------------------------------------- 10. boards


def _nearest_on_path(pieces: Pieces, k0=0):
    """Index of the first piece the shooter's straight path would meet (ignoring walls)."""
    ux, uy = pieces.vx[k0], pieces.vy[k0]
    v = math.hypot(ux, uy)
    ux, uy = ux / v, uy / v
    best, best_s = -1, math.inf
    for j in range(pieces.n):
        if j == k0:
            continue
        dx, dy = pieces.x[j] - pieces.x[k0], pieces.y[j] - pieces.y[k0]
        along = dx * ux + dy * uy
        perp = abs(dx * uy - dy * ux)
        reach = pieces.radius[j] + pieces.radius[k0]
        if along > 0 and perp < reach:
            s = along - math.sqrt(reach * reach - perp * perp)
            if s < best_s:
                best, best_s = j, s
    return best


# heavy: one batch program per board family (every board runs through the lane simulator in
# its games' tests by default)
@pytest.mark.heavy
def test_every_board_family_runs_through_the_kernel():
    """One opening shot per family; each keeps the invariants, is not truncated, and the
    shooter first meets the piece its straight path meets first."""
    up = math.pi / 2
    shots = {
        "icf": Pieces.from_position(
            standard_position("icf-opening"), ("striker", "white", 0.0, -0.2526), 5.0, up
        ),
        "checker": Pieces.from_position(
            standard_position("carroms-opening"), ("shooter", "red", 0.0, -0.23), 4.0, up
        ),
        "force-out": Pieces.from_position(
            standard_position("force-out-opening"), ("shooter", "red", 0.0, -0.30), 3.0, up
        ),
        "circle-scores": Pieces.from_position(
            standard_position("circle-scores-opening"), ("shooter", "p1", 0.0, -0.30), 3.0, up
        ),
        "carrooka": Pieces.from_position(
            standard_position("carrooka-opening"), ("striker", None, 0.0, -0.12), 4.0, up
        ),
    }
    ring_pos = standard_position("ring-pegs-opening")
    target = min(ring_pos.pieces, key=lambda q: math.hypot(q.x, q.y + 0.30))
    aim = math.atan2(target.y + 0.30, target.x)
    shots["ring-pegs"] = Pieces.from_position(ring_pos, ("shooter", "p1", 0.0, -0.30), 2.5, aim)
    assert shots["ring-pegs"].static[1:].all() and not shots["ring-pegs"].static[0]
    table_of = {
        "icf": "icf",
        "checker": "checker",
        "force-out": "crokinole",
        "circle-scores": "crokinole",
        "ring-pegs": "crokinole",
        "carrooka": "carrooka",
    }
    crok = ["force-out", "circle-scores", "ring-pegs"]
    outs = dict(zip(crok, run("crokinole", [shots[k] for k in crok])))
    for k in ("icf", "checker", "carrooka"):
        (outs[k],) = run(table_of[k], [shots[k]])
    for k, p in shots.items():
        o = outs[k]
        # the shooter does not start overlapping anything
        d = np.hypot(p.x[1:] - p.x[0], p.y[1:] - p.y[0]) - p.radius[1:] - p.radius[0]
        assert d.min() >= 0, k
        _check_invariants(table_of[k], p, o)
        assert (o["first_contact_kind"], o["first_contact"]) == (1, _nearest_on_path(p)), k
        assert o["n_piece_contacts"] >= 1, k
        if k != "ring-pegs":  # (every ring there is pegged)
            moved = np.hypot(o["x"] - p.x, o["y"] - p.y)
            assert (moved[1:] > 1e-3).sum() >= 2, k
    # the break: the striker hits the rosette's bottom coin
    assert outs["icf"]["n_piece_contacts"] >= 10
    # pegged rings do not move, to the bit
    o, p = outs["ring-pegs"], shots["ring-pegs"]
    np.testing.assert_array_equal(o["x"][1:], p.x[1:].astype(np.float32))
    np.testing.assert_array_equal(o["y"][1:], p.y[1:].astype(np.float32))
    assert o["alive"][1:].all()


def test_crokinole_ditch_and_centre_hole():
    """CrokinoleBoard(surround='ditch'): a disc leaving the 66 cm circle falls into the ditch
    (capture code C = number of captures) where its centre crosses the edge; one arriving slowly
    drops into the centre hole (capture 0) where its centre enters it; one crossing the hole
    faster than the skip speed (1.4 m/s) passes over and ends in the ditch beyond; one arriving
    at 1.42 m/s is captured where it has slowed to 1.4 m/s inside the hole."""
    table = TABLES["ditch"]
    n_caps = len(table.captures)
    assert n_caps == 1 and table.capture_kinds == ("hole",)
    rs = CROK_DITCH.surface_diameter / 2
    rh = CROK_DITCH.hole_diameter / 2
    skip = CROK_DITCH.hole_skip_speed
    ring = CROK_DITCH.piece_specs()["ring"]
    spec = (ring.radius, ring.mass, ring.material)
    y0 = -0.2
    v_skip_at_far_edge = speed_after(3.0, -y0 + rh)
    assert v_skip_at_far_edge > skip
    v_in = 1.42
    v_slow_in = math.sqrt(v_in**2 + 2 * A * (-y0 - rh))  # 1.42 m/s at the hole's edge
    s_slow = -y0 - rh + slide(v_in) - slide(skip)  # where it has slowed to the skip speed
    assert s_slow < -y0 + rh
    cases = [  # start, speed, angle, capture, where, after path
        ((0.0, y0), 2.0, -math.pi / 2, n_caps, (0.0, -rs), rs + y0),
        ((0.2, 0.05), 2.5, 0.3, n_caps, None, None),
        ((0.0, y0), 1.0, math.pi / 2, 0, (0.0, -rh), -y0 - rh),
        ((0.0, y0), 3.0, math.pi / 2, n_caps, (0.0, rs), rs - y0),
        ((0.0, y0), v_slow_in, math.pi / 2, 0, (0.0, y0 + s_slow), s_slow),
    ]
    shots = [make_pieces([moving(*st, v, ang, spec)]) for st, v, ang, *_ in cases]
    for (st, v, _ang, code, where, s), o in zip(cases, run("ditch", shots)):
        assert not o["alive"][0] and o["capture"][0] == code, (st, v, o)
        assert o["capture_order"][0] == 0
        if where is not None:
            assert o["x"][0] == pytest.approx(where[0], abs=5e-6)
            assert o["y"][0] == pytest.approx(where[1], abs=5e-6)
            assert o["capture_time"][0] == pytest.approx(time_for(v, s), rel=1e-5)
        else:  # off the circle, wherever it crossed
            assert math.hypot(o["x"][0], o["y"][0]) == pytest.approx(rs, abs=5e-6)
        assert o["n_wall_contacts"] == 0 and not o["truncated"]


# --------------------------------------------------------------------------- 11. determinism


def test_same_batch_twice_is_bit_identical():
    key = "icf"
    shots = property_shots()[key]
    discs = stack_discs(key, shots, SHAPES[key][1])
    a = batch_sim(key)(discs, PHYS)
    b = batch_sim(key)(discs, PHYS)
    for f in dataclasses.fields(a):
        np.testing.assert_array_equal(getattr(a, f.name), getattr(b, f.name), err_msg=f.name)


def test_batched_equals_one_by_one():
    """Eight shots of a batch, simulated one by one by the unbatched simulator: the same
    discrete outcomes, positions and times within 1e-6 (vmap may change the order of
    operations)."""
    key = "icf"
    shots = property_shots()[key][:8]
    batched = run(key, shots)
    for p, o in zip(shots, batched):
        s = run1(key, p)
        for f in ("alive", "capture", "capture_order", "contacts"):
            np.testing.assert_array_equal(s[f], o[f], err_msg=f)
        for f in ("first_contact_kind", "first_contact", "n_piece_contacts", "n_wall_contacts"):
            assert s[f] == o[f], f
        assert s["truncated"] == o["truncated"]
        np.testing.assert_allclose(s["x"], o["x"], rtol=0, atol=1e-6)
        np.testing.assert_allclose(s["y"], o["y"], rtol=0, atol=1e-6)
        np.testing.assert_allclose(s["capture_time"], o["capture_time"], rtol=1e-6, atol=0)
        assert s["t_end"] == pytest.approx(o["t_end"], rel=1e-6)


@pytest.mark.parametrize(
    "key",
    ["icf", pytest.param("ditch", marks=pytest.mark.heavy)],  # (the ditch: a second board)
)
def test_lane_simulator_matches_the_batch_simulator(key):
    """The refilling lanes give every shot the outcome the plain batch gives it (discrete
    outcomes equal, positions within float32 rounding), with more shots than lanes and
    fewer."""
    from carromlab.analysis.runner import LANE_STEPS
    from carromlab.physics.kernel import LANES, make_lane_simulator

    n, _ = SHAPES[key]
    shots = property_shots()[key]
    discs = stack_discs(key, shots, len(shots))
    ref = batch_sim(key)(discs, PHYS)
    sim = make_lane_simulator(TABLES[key], n, MAX_EVENTS, lanes=LANES, steps=LANE_STEPS)
    # more lanes than shots, and (the shots repeated to the runner's chunk) fewer, refilled;
    # lanes and steps as the shot runner takes them, so these are its own programs
    chunk = 4096
    tiled = jax.tree.map(lambda a: jnp.tile(a, (chunk // len(shots),) + (1,) * (a.ndim - 1)), discs)
    out = sim(discs, PHYS)
    many = jax.tree.map(lambda a: a[-len(shots) :], sim(tiled, PHYS))
    for run in (out, many):
        for f in (
            "alive",
            "capture",
            "first_contact_kind",
            "first_contact",
            "contacts",
            "truncated",
        ):
            np.testing.assert_array_equal(getattr(run, f), getattr(ref, f), err_msg=f)
        # rounding differs between compiled shapes and grows through many contacts
        np.testing.assert_allclose(run.x, ref.x, rtol=0, atol=1e-4)
        np.testing.assert_allclose(run.t_end, ref.t_end, rtol=1e-5)
    # a traced count runs the queue's first shots only (the same program): the same numbers
    # for those, bit for bit, and zeros (never started) after them
    part = sim(discs, PHYS, len(shots) // 3)
    k = len(shots) // 3
    for f in ("capture", "x", "t_end", "n_events"):
        a, b = np.asarray(getattr(part, f)), np.asarray(getattr(out, f))
        np.testing.assert_array_equal(a[:k], b[:k], err_msg=f)
    assert not np.asarray(part.n_events)[k:].any()
    # the event cap is traced too (the same program): every shot stops at the lower cap, and
    # the shots that end under it end as before, bit for bit
    cap = int(np.median(np.asarray(out.n_events)))
    low = sim(discs, PHYS, max_events=cap)
    full_n, low_n = np.asarray(out.n_events), np.asarray(low.n_events)
    np.testing.assert_array_equal(low_n, np.minimum(full_n, cap))
    # (a shot whose last event is the cap-th is not seen to be at rest: truncated, as with a
    # static cap)
    np.testing.assert_array_equal(np.asarray(low.truncated), full_n >= cap)
    under = full_n < cap
    assert under.any() and (~under).any()
    for f in ("capture", "x", "t_end"):
        np.testing.assert_array_equal(
            np.asarray(getattr(low, f))[under], np.asarray(getattr(out, f))[under], err_msg=f
        )


def test_touching_pair_parting_slowly_is_caught_when_friction_turns_it_back():
    """A break (found in a game) after which two rosette coins kept touching while parting
    slowly: the kernel once skipped such a pair for 4 tol / speed (tens of ms) and friction
    brought the two 0.16 mm into each other. Now no two resting coins overlap."""
    pos = standard_position("icf-opening")
    pieces = Pieces.from_position(pos, shooter=("striker", None, 0.0, 0.0))
    d = Discs.from_pieces(pieces)
    d = dataclasses.replace(
        d,
        x=d.x.at[0].set(0.014144554),
        y=d.y.at[0].set(-0.2526),
        vx=d.vx.at[0].set(-3.2534642),
        vy=d.vy.at[0].set(1.2300823),
    )
    out = jax.jit(make_simulator(TABLES["icf"], pieces.n, 4096))(d, PHYS)
    assert not bool(out.truncated)
    x, y = np.asarray(out.x), np.asarray(out.y)
    on = np.flatnonzero(np.asarray(out.capture) < 0)
    r = np.asarray(d.radius)
    worst = min(np.hypot(x[a] - x[b], y[a] - y[b]) - r[a] - r[b] for a in on for b in on if a < b)
    assert worst > -4e-6  # float32 contact tolerance 1e-6 m
