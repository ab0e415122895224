"""The kernel's steps one at a time (``carromlab.physics.kernel``): each module-level function
over (spec, constants, state) checked alone, without the loop.

- ``resolve_pair``: momentum conserved across one contact, kinetic energy lost as restitution
  says (none at e = 1), the tangential velocity kept (smooth contact);
- ``resolve_disc``: a cushion bounce's angle (normal speed times e, tangential kept) and a
  circular rail's;
- ``solve_clusters``: three touching discs (a striker into two touching coins): momentum
  conserved, energy not gained, the mirror set-up's mirror answer, and the same answer for
  any order the discs are listed in;
- ``detect``: the time to a cushion and to a resting disc against their closed forms;
  ``next_event``: pairs win ties, then the lowest slot;
- ``tally``: the shooter's first contact.

Every check runs in float32 here and in float64 in a subprocess (``JAX_ENABLE_X64=1``: x64
cannot be switched mid-process) with the tolerances of each dtype.
"""

from __future__ import annotations

import dataclasses
import math
import os
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from disc_helpers import make_pieces, open_table

from carromlab.equipment import CarrookaBoard, IcfBoard
from carromlab.physics import Physics, Table
from carromlab.physics.kernel import cluster, detect, resolve, spec, step, tally
from carromlab.physics.kernel.state import FIRST_PIECE, FIRST_WALL, Discs

X64 = bool(jax.config.jax_enable_x64)
#: Relative tolerance of the dtype the kernel runs in.
RTOL = 1e-11 if X64 else 2e-6
ICF = IcfBoard()
_specs = ICF.piece_specs()
COIN = (_specs["coin"].radius, _specs["coin"].mass, _specs["coin"].material)
STRIKER = (_specs["striker"].radius, _specs["striker"].mass, _specs["striker"].material)
R_C, M_C = COIN[0], COIN[1]
R_S, M_S = STRIKER[0], STRIKER[1]


def setup(rows, table=None, physics=Physics()):
    """(spec, constants, start state) of ``rows`` (x, y, vx, vy, piece) on ``table``."""
    table = table or open_table()
    d = Discs.from_pieces(make_pieces(rows))
    sp = spec.make_spec(table, len(rows), 64)
    c = spec.bind(sp, d, physics)
    return sp, c, step.init(sp, c)


def first_event(sp, c, s):
    e = detect.next_event(sp, c, s)
    return e, resolve.advance(sp, c, s, e)


def momentum(s, masses):
    return np.array([np.sum(masses * np.asarray(s.vx)), np.sum(masses * np.asarray(s.vy))])


def energy(s, masses):
    return 0.5 * float(np.sum(masses * (np.asarray(s.vx) ** 2 + np.asarray(s.vy) ** 2)))


# --------------------------------------------------------------------------- one contact


@pytest.mark.parametrize("e_striker", [1.0, 0.85, 0.5])
@pytest.mark.parametrize("offset", [0.0, 0.4, 0.9])
def test_one_contact_keeps_momentum_and_loses_energy_as_restitution_says(e_striker, offset):
    """A striker into a resting coin, off-centre by ``offset`` of the sum of the radii: the
    contact event is found, momentum is the same after, the energy lost is (1 - e^2) times
    the normal part's reduced-mass energy, and the tangential velocities are untouched."""
    reach = R_S + R_C
    y0 = -0.2
    rows = [(offset * reach, y0, 0.0, 2.0, STRIKER), (0.0, 0.0, 0.0, 0.0, COIN)]
    sp, c, s = setup(rows, physics=Physics(e_striker=e_striker, stick_speed=0.0))
    e, s = first_event(sp, c, s)
    assert bool(e.is_pair) and (int(e.i), int(e.j)) == (0, 1)
    masses = np.array([M_S, M_C])
    gap = math.hypot(float(s.x[1] - s.x[0]), float(s.y[1] - s.y[0])) - reach
    assert abs(gap) <= 2 * float(c.tol)  # advanced to the touch
    p0, k0 = momentum(s, masses), energy(s, masses)
    nx, ny = float(s.x[1] - s.x[0]), float(s.y[1] - s.y[0])
    nx, ny = nx / math.hypot(nx, ny), ny / math.hypot(nx, ny)
    w = float(s.vx[0] - s.vx[1]) * nx + float(s.vy[0] - s.vy[1]) * ny
    tangential0 = [float(s.vx[k]) * -ny + float(s.vy[k]) * nx for k in range(2)]
    s2, hit = resolve.resolve_pair(sp, c, s, e)
    assert bool(hit)
    np.testing.assert_allclose(momentum(s2, masses), p0, rtol=RTOL, atol=RTOL * abs(p0).max())
    mu = M_S * M_C / (M_S + M_C)
    lost = 0.5 * mu * w * w * (1 - e_striker**2)
    assert energy(s2, masses) == pytest.approx(k0 - lost, rel=5 * RTOL, abs=5 * RTOL * k0)
    tangential = [float(s2.vx[k]) * -ny + float(s2.vy[k]) * nx for k in range(2)]
    np.testing.assert_allclose(tangential, tangential0, rtol=RTOL, atol=RTOL * 2.0)


def test_a_pair_that_parts_is_no_contact():
    reach = R_C + R_C
    rows = [(-reach / 2, 0.0, -1.0, 0.0, COIN), (reach / 2, 0.0, 1.0, 0.0, COIN)]
    sp, c, s = setup(rows)
    e = dataclasses.replace(
        detect.next_event(sp, c, s), is_pair=jnp.asarray(True), i=jnp.asarray(0), j=jnp.asarray(1)
    )
    s2, hit = resolve.resolve_pair(sp, c, s, e)
    assert not bool(hit)
    np.testing.assert_array_equal(np.asarray(s2.vx), np.asarray(s.vx))


# --------------------------------------------------------------------------- walls


@pytest.mark.parametrize("incidence_deg", [10.0, 35.0, 70.0, 90.0])
def test_a_cushion_bounce_leaves_at_the_angle_restitution_gives(incidence_deg):
    """A coin onto the South cushion at ``incidence_deg`` from the cushion: the event comes
    at the closed-form time, the normal speed leaves times e, the tangential one stays, so
    tan(out) = e tan(in)."""
    table = Table.from_layout(ICF.layout)
    physics = Physics()
    th = math.radians(incidence_deg)
    v = 1.5
    y_line = float(table.segments[0][1])  # the South cushion's line
    y0 = y_line + R_C + 0.05
    rows = [(0.0, y0, v * math.cos(th), -v * math.sin(th), COIN)]
    sp, c, s = setup(rows, table, physics)
    e, s = first_event(sp, c, s)
    assert not bool(e.is_pair) and int(e.code) == sp.code_wall0 + 0
    a = physics.mu * physics.g
    path = 0.05 / math.sin(th)
    t = (v - math.sqrt(v * v - 2 * a * path)) / a
    assert float(e.step) == pytest.approx(t, rel=50 * RTOL)
    vn_in, vt_in = float(s.vy[0]), float(s.vx[0])
    s2, hit_wall, wk = resolve.resolve_disc(sp, c, s, e)
    assert bool(hit_wall) and int(wk) == 0
    assert float(s2.vy[0]) == pytest.approx(-physics.e_cushion * vn_in, rel=RTOL)
    assert float(s2.vx[0]) == pytest.approx(vt_in, rel=RTOL, abs=RTOL)
    out = math.atan2(float(s2.vy[0]), float(s2.vx[0]))  # off the cushion, from it
    want = math.atan2(physics.e_cushion * math.sin(th), math.cos(th))  # tan(out) = e tan(in)
    assert out == pytest.approx(want, abs=20 * RTOL)


def test_a_rail_bounce_turns_the_normal_speed_with_restitution():
    """A coin into Carrooka's circular rail, radially, half-way between two pockets: it comes
    back at e times its speed, along the same radius."""
    table = Table.from_layout(CarrookaBoard().layout)
    cx, cy, big_r = (float(v) for v in table.rails[0])
    pockets = np.sort(np.arctan2(table.captures[:, 1] - cy, table.captures[:, 0] - cx))
    th = float(pockets[0] + pockets[1]) / 2
    ux, uy = math.cos(th), math.sin(th)
    rows = [(cx + 0.05 * ux, cy + 0.05 * uy, ux, uy, (R_C, M_C, "coin"))]
    physics = Physics()
    sp, c, s = setup(rows, table, physics)
    e, s = first_event(sp, c, s)
    assert int(e.code) >= sp.code_wall0
    at = math.hypot(float(s.x[0]) - cx, float(s.y[0]) - cy)
    assert at == pytest.approx(big_r - R_C, abs=1e-5)
    vin = float(s.vx[0]) * ux + float(s.vy[0]) * uy
    s2, hit_wall, _ = resolve.resolve_disc(sp, c, s, e)
    assert bool(hit_wall)
    vout = float(s2.vx[0]) * ux + float(s2.vy[0]) * uy
    assert vout == pytest.approx(-physics.e_cushion * vin, rel=10 * RTOL)
    across = float(s2.vx[0]) * -uy + float(s2.vy[0]) * ux
    assert abs(across) < 10 * RTOL


# --------------------------------------------------------------------------- the cluster


def three_touching(order=(0, 1, 2), side=1.0):
    """A striker straight up into two touching coins side by side (a wedge: it meets both at
    once), listed in ``order``; ``side`` -1 mirrors the set-up in x."""
    reach = R_S + R_C
    dx = R_C  # the coins touch each other at x = 0
    dy = math.sqrt(reach * reach - dx * dx)  # and the striker touches both
    rows = [
        (0.0, -dy, 0.0, 3.0, STRIKER),
        (-side * dx, 0.0, 0.0, 0.0, COIN),
        (side * dx, 0.0, 0.0, 0.0, COIN),
    ]
    return [rows[k] for k in order]


def solve_three(rows, physics=Physics()):
    sp, c, s = setup(rows, physics=physics)
    e, s = first_event(sp, c, s)
    s1, hit = resolve.resolve_pair(sp, c, s, e)
    assert bool(hit) and bool(cluster.touches_third(sp, c, s, e))
    p = step.Pending(e, s.vx, s.vy, hit, jnp.asarray(True), jnp.asarray(False))
    s2, p2 = cluster.solve_one(sp, c, s1, p)
    assert bool(p2.solved)
    return s, s2


def test_a_cluster_solve_keeps_momentum_and_gains_no_energy():
    rows = three_touching()
    before, after = solve_three(rows)
    masses = np.array([r[4][1] for r in rows])
    p0 = momentum(before, masses)
    np.testing.assert_allclose(momentum(after, masses), p0, rtol=0, atol=1e-5 * abs(p0).max())
    assert energy(after, masses) <= energy(before, masses) * (1 + RTOL)
    assert energy(after, masses) > 0.5 * energy(before, masses)  # restitution near 0.85-0.9
    vy = np.asarray(after.vy)
    assert vy[1] > 0.5 and vy[2] > 0.5  # both coins driven forward
    assert int(after.n_piece_contacts) >= 2


def test_a_cluster_solve_is_mirror_true_and_label_free():
    """The mirror set-up gives the mirror velocities; listing the discs in another order
    gives the same velocities, disc for disc (to rounding: a row sum over the discs adds in
    the listing's order)."""
    _, a = solve_three(three_touching())
    _, m = solve_three(three_touching(side=-1.0))
    np.testing.assert_allclose(np.asarray(m.vx), -np.asarray(a.vx), rtol=RTOL, atol=3 * RTOL)
    np.testing.assert_allclose(np.asarray(m.vy), np.asarray(a.vy), rtol=RTOL, atol=3 * RTOL)
    # the two coins of one set-up: mirror images of each other
    assert float(a.vx[1]) == pytest.approx(-float(a.vx[2]), rel=RTOL, abs=1e-7)
    _, b = solve_three(three_touching(order=(0, 2, 1)))
    for f in ("vx", "vy"):
        got, want = np.asarray(getattr(b, f))[[0, 2, 1]], np.asarray(getattr(a, f))
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=3 * RTOL, err_msg=f)


# --------------------------------------------------------------------------- detect, tally


@pytest.mark.parametrize("v", [0.5, 0.8, 1.5, 4.0])
def test_the_time_to_a_resting_disc_is_the_closed_form(v):
    """Straight at a resting coin: t = (v - sqrt(v^2 - 2 a s)) / a, or never (inf) when the
    striker stops short (v = 0.5)."""
    dist = 0.25
    rows = [(0.0, -dist, 0.0, v, STRIKER), (0.0, 0.0, 0.0, 0.0, COIN)]
    sp, c, s = setup(rows)
    a = float(c.a)
    path = dist - (R_S + R_C)
    t = (v - math.sqrt(v * v - 2 * a * path)) / a if v * v > 2 * a * path else math.inf
    rows_t = detect.pair_rows(
        sp, c, jnp.asarray([0]), detect.kinematics(c, s.x, s.y, s.vx, s.vy, s.alive)
    )
    assert float(rows_t[0, 1]) == pytest.approx(t, rel=20 * RTOL)
    assert math.isinf(float(rows_t[0, 0]))  # a disc never meets itself
    assert float(s.pair_t[0]) == pytest.approx(float(rows_t[0, 1]), rel=2 * RTOL)  # init's


def test_next_event_pairs_win_ties_then_the_lowest_slot():
    rows = [(0.0, -0.2, 0.0, 1.0, STRIKER), (0.0, 0.0, 0.0, 0.0, COIN), (0.1, 0.0, 0, 0, COIN)]
    sp, c, s = setup(rows)
    tie = jnp.asarray(0.5, s.t.dtype)
    s = dataclasses.replace(
        s,
        pair_t=jnp.full_like(s.pair_t, jnp.inf).at[2].set(tie).at[1].set(tie),
        disc_t=jnp.full_like(s.disc_t, jnp.inf).at[0].set(tie),
    )
    e = detect.next_event(sp, c, s)
    assert bool(e.is_pair) and float(e.step) == 0.5
    assert (int(e.i), int(e.j)) == (int(sp.slot_i[1]), int(sp.slot_j[1]))


def test_tally_keeps_the_shooters_first_contact():
    rows = [(0.0, -0.2, 0.0, 1.0, STRIKER), (0.0, 0.0, 0.0, 0.0, COIN)]
    sp, c, s = setup(rows)
    e = detect.next_event(sp, c, s)
    yes, no = jnp.asarray(True), jnp.asarray(False)
    s1 = tally.tally(s, e, yes, no, jnp.asarray(0))
    assert int(s1.first_contact_kind) == FIRST_PIECE and int(s1.first_piece) == 1
    assert list(np.asarray(s1.contacts)) == [1, 1] and int(s1.n_piece_contacts) == 1
    # a later wall contact of the shooter changes no first contact
    wall = dataclasses.replace(e, is_pair=no, k=jnp.asarray(0), oh_k=jnp.asarray([True, False]))
    s2 = tally.tally(s1, wall, no, yes, jnp.asarray(3))
    assert int(s2.first_contact_kind) == FIRST_PIECE and int(s2.n_wall_contacts) == 1
    # the wall first: FIRST_WALL with the wall's index
    s3 = tally.tally(s, wall, no, yes, jnp.asarray(3))
    assert int(s3.first_contact_kind) == FIRST_WALL and int(s3.first_contact) == 3


# --------------------------------------------------------------------------- float64


@pytest.mark.heavy  # the float64 twin of the step checks
@pytest.mark.skipif(X64, reason="this is the float64 run")
def test_every_step_check_holds_in_float64():
    """This file's checks again in float64 (a subprocess with ``JAX_ENABLE_X64=1``)."""
    env = dict(os.environ, JAX_ENABLE_X64="1", JAX_PLATFORMS="cpu")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__],
        capture_output=True,
        text=True,
        env=env,
        cwd=os.path.dirname(__file__),
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "1 skipped" in proc.stdout
