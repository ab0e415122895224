"""The numpy reference simulator: closed-form checks of sliding, contacts, walls and captures,
and one full ICF break."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from disc_helpers import make_pieces, open_table

from carromlab.equipment import CarrookaBoard, CrokinoleBoard, IcfBoard
from carromlab.physics import Physics, Pieces, Table
from carromlab.physics.reference import ReferenceOutcome, simulate_reference
from carromlab.registry import standard_position

COIN = (0.0155, 0.00525, "coin")
STRIKER = (0.02065, 0.015, "striker")
FRICTIONLESS = Physics(mu=0.0)


def moving(x, y, speed, angle, spec=COIN):
    return (x, y, speed * math.cos(angle), speed * math.sin(angle), spec)


def resting(x, y, spec=COIN):
    return (x, y, 0.0, 0.0, spec)


# ---------------------------------------------------------------------- sliding


@pytest.mark.parametrize("dt", [1e-3, 1e-4])
def test_lone_disc_stops_at_v2_over_2_mu_g(dt):
    phys = Physics()
    a = phys.mu * phys.g
    v, angle = 1.0, 0.7
    out = simulate_reference(open_table(), make_pieces([moving(0.1, -0.2, v, angle)]), dt=dt)
    dist = math.hypot(out.x[0] - 0.1, out.y[0] + 0.2)
    assert dist == pytest.approx(v * v / (2 * a), rel=1e-9)
    assert math.atan2(out.y[0] + 0.2, out.x[0] - 0.1) == pytest.approx(angle, abs=1e-12)
    assert out.t_end == pytest.approx(v / a, rel=1e-9)
    assert not out.truncated
    assert out.vx[0] == 0.0 and out.vy[0] == 0.0
    assert out.first_contact == ("none", -1)
    assert out.n_piece_contacts == out.n_wall_contacts == 0
    assert out.fate[0] == 0 and out.capture_index[0] == -1 and out.capture_order[0] == -1
    assert math.isnan(out.capture_time[0])
    assert out.trace is None


def test_time_limit_truncates():
    out = simulate_reference(open_table(), make_pieces([moving(0, 0, 1.0, 0)]), t_max=0.05)
    assert out.truncated
    assert out.vx[0] == pytest.approx(1.0 - Physics().mu * Physics().g * 0.05, rel=1e-9)


# ---------------------------------------------------------------------- disc-disc contacts


def test_head_on_equal_masses_elastic_exchange_velocities():
    phys = Physics(e_piece=1.0)
    a = phys.mu * phys.g
    r = COIN[0]
    v0 = 1.5
    pieces = make_pieces([moving(-0.2, 0.0, v0, 0.0), resting(0.0, 0.0)])
    out = simulate_reference(open_table(), pieces, phys, dt=1e-3)
    vc2 = v0 * v0 - 2 * a * (0.2 - 2 * r)  # speed squared at contact
    assert out.x[0] == pytest.approx(-2 * r, abs=1e-9)  # the shooter stops dead
    assert out.x[1] == pytest.approx(vc2 / (2 * a), rel=1e-9)
    assert out.y[0] == 0.0 and out.y[1] == 0.0
    assert out.first_contact == ("piece", 1)
    assert out.n_piece_contacts == 1
    assert not out.truncated

    # frictionless: the velocities are swapped exactly
    phys = Physics(mu=0.0, e_piece=1.0)
    out = simulate_reference(open_table(), pieces, phys, dt=1e-3, t_max=0.3)
    assert out.truncated
    assert out.vx[0] == pytest.approx(0.0, abs=1e-12)
    assert out.vx[1] == pytest.approx(v0, rel=1e-12)


def test_newtons_cradle_passes_the_velocity_down_the_line():
    phys = Physics(e_piece=1.0)
    a = phys.mu * phys.g
    r = COIN[0]
    v0 = 1.0
    pieces = make_pieces(
        [moving(-0.1, 0.0, v0, 0.0), resting(0.0, 0.0), resting(2 * r, 0.0), resting(4 * r, 0)]
    )
    # the sequential model (pairs one at a time); the cluster model disperses the pulse
    # (docs/physics.md, "Touching clusters")
    out = simulate_reference(open_table(), pieces, phys, dt=1e-3, contacts="sequential")
    vc2 = v0 * v0 - 2 * a * (0.1 - 2 * r)
    assert out.x[0] == pytest.approx(-2 * r, abs=1e-9)
    assert out.x[1] == pytest.approx(0.0, abs=1e-9)
    assert out.x[2] == pytest.approx(2 * r, abs=1e-9)
    assert out.x[3] == pytest.approx(4 * r + vc2 / (2 * a), rel=1e-9)
    assert out.n_piece_contacts == 3


@pytest.mark.parametrize("phys", [FRICTIONLESS, Physics()])
def test_equal_masses_oblique_elastic_leave_at_right_angles(phys):
    phys = Physics(mu=phys.mu, e_piece=1.0)
    pieces = make_pieces([moving(-0.1, 0.012, 1.2, 0.0), resting(0.0, 0.0)])
    out = simulate_reference(open_table(), pieces, phys, dt=1e-3, t_max=0.3, record=True)
    assert out.n_piece_contacts == 1
    _, xc, yc = out.trace[0]
    d0 = np.array([out.x[0] - xc[0], out.y[0] - yc[0]])
    d1 = np.array([out.x[1] - xc[1], out.y[1] - yc[1]])
    assert np.linalg.norm(d0) > 1e-3 and np.linalg.norm(d1) > 1e-3
    cos = d0 @ d1 / (np.linalg.norm(d0) * np.linalg.norm(d1))
    assert abs(cos) < 1e-9
    if phys.mu == 0:
        v0 = np.array([out.vx[0], out.vy[0]])
        v1 = np.array([out.vx[1], out.vy[1]])
        assert v0 @ v1 == pytest.approx(0.0, abs=1e-12)
        assert v0 @ v0 + v1 @ v1 == pytest.approx(1.2**2, rel=1e-12)


def test_unequal_masses_momentum_and_restitution():
    phys = FRICTIONLESS
    e = phys.pair_restitution("striker", "coin")
    u0 = np.array([2.0, 0.3])
    u1 = np.array([-0.5, 0.2])
    pieces = make_pieces(
        [(-0.15, 0.01, *u0, STRIKER), (0.0, 0.0, *u1, COIN)],
    )
    out = simulate_reference(open_table(), pieces, phys, dt=1e-3, t_max=0.3, record=True)
    assert out.n_piece_contacts == 1
    assert out.first_contact == ("piece", 1)
    m0, m1 = STRIKER[1], COIN[1]
    w0 = np.array([out.vx[0], out.vy[0]])
    w1 = np.array([out.vx[1], out.vy[1]])
    np.testing.assert_allclose(m0 * w0 + m1 * w1, m0 * u0 + m1 * u1, rtol=0, atol=1e-14)
    _, xc, yc = out.trace[0]
    n = np.array([xc[1] - xc[0], yc[1] - yc[0]])
    assert np.linalg.norm(n) == pytest.approx(STRIKER[0] + COIN[0], abs=1e-9)
    n /= np.linalg.norm(n)
    t = np.array([-n[1], n[0]])
    w_before = (u0 - u1) @ n
    assert w_before > 0
    assert (w0 - w1) @ n == pytest.approx(-e * w_before, rel=1e-9)
    assert w0 @ t == pytest.approx(u0 @ t, abs=1e-12)  # smooth: tangential unchanged
    assert w1 @ t == pytest.approx(u1 @ t, abs=1e-12)
    ke = lambda v0, v1: 0.5 * (m0 * v0 @ v0 + m1 * v1 @ v1)  # noqa: E731
    reduced = m0 * m1 / (m0 + m1)
    loss = 0.5 * (1 - e * e) * reduced * w_before**2
    assert ke(u0, u1) - ke(w0, w1) == pytest.approx(loss, rel=1e-9)
    # the energy record agrees
    _, before, after = out.energy[0]
    assert before - after == pytest.approx(loss, rel=1e-9)


def test_static_piece_acts_as_infinite_mass():
    phys = Physics(mu=0.0, e_piece=0.9)
    pieces = make_pieces([moving(-0.1, 0.0, 1.0, 0.0), resting(0.0, 0.0)], static=(1,))
    out = simulate_reference(open_table(), pieces, phys, dt=1e-3, t_max=0.2)
    assert out.vx[0] == pytest.approx(-0.9, rel=1e-12)
    assert out.x[1] == 0.0 and out.vx[1] == 0.0


@pytest.mark.parametrize("offset, touches", [(1e-7, True), (-1e-7, False)])
def test_moving_moving_grazing_contact_is_detected(offset, touches):
    """Two discs on crossing paths whose closest approach overlaps by 1e-7 m: the overlap lasts
    about 0.14 ms, far shorter than dt = 1 ms, so only the in-step closest-approach check can
    see it. Both decelerate identically, so the relative path is a straight line."""
    r = COIN[0]
    xb = math.sqrt(2) * (2 * r - offset)  # closest approach |xb| / sqrt(2) = 2r - offset
    pieces = make_pieces([moving(-0.2, 0.0, 1.0, 0.0), moving(xb, -0.2, 1.0, math.pi / 2)])
    dt = 1e-3
    # duration of the overlap, from the closest approach at slide distance 0.2 + xb / 2
    a = Physics().mu * Physics().g
    speed = math.sqrt(1.0 - 2 * a * (0.2 + xb / 2))
    window = 2 * math.sqrt(max(4 * r * r - xb * xb / 2, 0.0) / 2) / speed
    assert window < 0.2 * dt
    out = simulate_reference(open_table(), pieces, dt=dt)
    assert out.n_piece_contacts == (1 if touches else 0)
    assert out.first_contact == (("piece", 1) if touches else ("none", -1))
    if not touches:  # undisturbed: both slide their full distance
        assert out.x[0] == pytest.approx(-0.2 + 1 / (2 * a), rel=1e-9)
        assert out.y[1] == pytest.approx(-0.2 + 1 / (2 * a), rel=1e-9)


# ---------------------------------------------------------------------- walls


@pytest.mark.parametrize("mu", [0.0, 0.1])
def test_cushion_reflection(mu):
    phys = Physics(mu=mu)
    e = phys.e_cushion
    board = IcfBoard()
    table = Table.from_layout(board.layout)
    r = COIN[0]
    angle = -math.pi / 3
    speed = 1.0 if mu == 0 else 1.2
    pieces = make_pieces([moving(0.0, 0.0, speed, angle)])
    t_max = 0.55 if mu == 0 else 30.0
    out = simulate_reference(table, pieces, phys, dt=1e-3, t_max=t_max, record=True)
    assert out.first_contact == ("wall", 0)  # cushion.S, the first segment
    assert out.n_wall_contacts == 1
    _, xc, yc = out.trace[0]
    assert yc[0] == pytest.approx(-board.half + r, abs=1e-9)
    expected = math.atan(e * math.tan(-angle))  # outgoing angle above the cushion
    if mu == 0:
        assert out.truncated
        assert out.vx[0] == pytest.approx(speed * math.cos(angle), rel=1e-12)
        assert out.vy[0] == pytest.approx(-e * speed * math.sin(angle), rel=1e-12)
    else:
        assert not out.truncated
    assert math.atan2(out.y[0] - yc[0], out.x[0] - xc[0]) == pytest.approx(expected, abs=1e-9)


def test_carrooka_rail_reflects_and_keeps_discs_inside():
    board = CarrookaBoard()
    table = Table.from_layout(board.layout)
    puck = (board.puck_diameter / 2, board.puck_mass, "puck")
    limit = board.radius - puck[0]

    # one bounce, frictionless: normal velocity times -e, tangential unchanged
    phys = FRICTIONLESS
    e = phys.wall_restitution("rail")
    u = np.array([3 * math.cos(0.3), 3 * math.sin(0.3)])
    pieces = make_pieces([(0.0, -0.1, *u, puck)])
    out = simulate_reference(table, pieces, phys, dt=1e-3, t_max=0.25, record=True)
    assert out.first_contact == ("wall", 0)
    assert out.n_wall_contacts == 1
    _, xc, yc = out.trace[0]
    assert math.hypot(xc[0], yc[0]) == pytest.approx(limit, abs=1e-9)
    n = -np.array([xc[0], yc[0]]) / math.hypot(xc[0], yc[0])  # inward normal
    w = np.array([out.vx[0], out.vy[0]])
    assert w @ n == pytest.approx(-e * (u @ n), rel=1e-9)
    assert w @ np.array([-n[1], n[0]]) == pytest.approx(u @ np.array([-n[1], n[0]]), abs=1e-12)

    # many bounces with friction: always inside the rail
    pieces = make_pieces([(0.0, -0.1, *(u * 4 / 3), puck)])
    out = simulate_reference(table, pieces, dt=1e-3, record=True)
    assert out.n_wall_contacts >= 2
    assert not out.truncated
    for _, xs, ys in out.trace:
        assert math.hypot(xs[0], ys[0]) <= limit + 1e-9
    if out.alive[0]:
        assert math.hypot(out.x[0], out.y[0]) <= limit + 1e-9


def test_crokinole_peg_reflection():
    board = CrokinoleBoard()
    table = Table.from_layout(board.layout)
    ring = (board.ring_diameter / 2, board.ring_mass, "ring")
    phys = FRICTIONLESS
    e = phys.wall_restitution("peg")
    px, py = board.peg_centres()[0]
    angle = math.atan2(py, px)
    start = 0.5 * board.small_radius
    pieces = make_pieces(
        [moving(start * math.cos(angle), start * math.sin(angle), 3.0, angle, ring)]
    )
    out = simulate_reference(table, pieces, phys, dt=1e-3, t_max=0.02, record=True)
    k = table.cushion_names.index("post.0")
    assert out.first_contact == ("wall", k)
    assert out.n_wall_contacts == 1
    _, xc, yc = out.trace[0]
    assert math.hypot(xc[0] - px, yc[0] - py) == pytest.approx(
        ring[0] + board.peg_diameter / 2, abs=1e-9
    )
    assert out.vx[0] == pytest.approx(-e * 3.0 * math.cos(angle), rel=1e-12)
    assert out.vy[0] == pytest.approx(-e * 3.0 * math.sin(angle), rel=1e-12)
    assert out.alive[0]  # back over the hole at 1.8 m/s: skips it


# ---------------------------------------------------------------------- captures


def test_disc_aimed_at_a_pocket_centre_is_captured():
    board = IcfBoard()
    table = Table.from_layout(board.layout)
    c = board.half - board.pocket_inset
    rc = board.pocket_diameter / 2
    k = table.capture_names.index("pocket.NE")
    speed = 2.0
    pieces = make_pieces([moving(0.2, 0.2, speed, math.pi / 4), resting(-0.2, 0.0)])
    out = simulate_reference(table, pieces, dt=1e-3)
    assert out.fate.tolist() == [1, 0]
    assert out.alive.tolist() == [False, True]
    assert out.capture_index.tolist() == [k, -1]
    assert out.capture_order.tolist() == [0, -1]
    assert math.hypot(out.x[0] - c, out.y[0] - c) == pytest.approx(rc, abs=1e-9)
    a = Physics().mu * Physics().g
    sigma = math.hypot(c - 0.2, c - 0.2) - rc
    t_cap = (speed - math.sqrt(speed * speed - 2 * a * sigma)) / a
    assert out.capture_time[0] == pytest.approx(t_cap, abs=1e-9)
    assert math.isnan(out.capture_time[1])
    assert out.t_end == pytest.approx(t_cap, abs=1e-9)
    assert out.vx[0] == 0.0 and out.vy[0] == 0.0
    assert out.n_wall_contacts == 0


def test_capture_order_follows_time():
    board = IcfBoard()
    table = Table.from_layout(board.layout)
    c = board.half - board.pocket_inset
    pieces = make_pieces(
        [
            moving(0.0, 0.0, 3.0, math.pi / 4),  # far from NE
            moving(-c + 0.1, -c + 0.1, 3.0, -3 * math.pi / 4),  # close to SW
        ]
    )
    out = simulate_reference(table, pieces, dt=1e-3)
    assert out.fate.tolist() == [1, 1]
    assert out.capture_order.tolist() == [1, 0]
    assert out.capture_time[1] < out.capture_time[0]
    names = [table.capture_names[k] for k in out.capture_index]
    assert names == ["pocket.NE", "pocket.SW"]


@pytest.mark.parametrize("miss, captured", [(1e-4, False), (1e-7, False), (-1e-7, True)])
def test_pocket_edge_pass(miss, captured):
    """A disc sliding parallel to the S cushion passes the SE pocket's centre at distance
    rc + miss; the 1e-7 m chord inside lasts ~0.1 ms, shorter than dt = 1 ms."""
    board = IcfBoard()
    table = Table.from_layout(board.layout)
    c = board.half - board.pocket_inset
    rc = board.pocket_diameter / 2
    y = -c + rc + miss
    out = simulate_reference(table, make_pieces([moving(0.0, y, 1.0, 0.0)]), dt=1e-3)
    assert not out.truncated
    if captured:
        assert out.fate[0] == 1
        assert table.capture_names[out.capture_index[0]] == "pocket.SE"
        assert out.n_wall_contacts == 0
    else:
        assert out.fate[0] == 0 and out.alive[0] and out.capture_index[0] == -1
        assert out.n_wall_contacts == 1  # it reached the E cushion and came back
        assert out.y[0] == pytest.approx(y, abs=1e-12)


def test_crokinole_hole_skip_and_drop():
    board = CrokinoleBoard()
    table = Table.from_layout(board.layout)
    assert table.capture_names[0] == "hole"
    skip = board.hole_skip_speed
    ring = (board.ring_diameter / 2, board.ring_mass, "ring")
    a = Physics().mu * Physics().g

    # fast: crosses the hole at about 2.9 m/s and keeps going
    out = simulate_reference(table, make_pieces([(-0.25, 0.0, 3.0, 0.0, ring)]), t_max=0.15)
    assert out.truncated  # still sliding, well past the hole
    assert out.alive[0] and out.fate[0] == 0 and out.x[0] > 0.1

    # slows to the skip speed exactly over the hole's centre: drops there
    v0 = math.sqrt(skip * skip + 2 * a * 0.25)
    out = simulate_reference(table, make_pieces([(-0.25, 0.0, v0, 0.0, ring)]), dt=1e-3)
    assert out.fate[0] == 1 and out.capture_index[0] == 0 and not out.alive[0]
    assert out.x[0] == pytest.approx(0.0, abs=1e-9)
    assert out.capture_time[0] == pytest.approx((v0 - skip) / a, abs=1e-9)


def test_ditch_takes_a_disc_leaving_the_surface():
    board = CrokinoleBoard(surround="ditch")
    table = Table.from_layout(board.layout)
    assert table.surface_beyond == "ditch"
    R = board.surface_diameter / 2
    ring = (board.ring_diameter / 2, board.ring_mass, "ring")
    out = simulate_reference(table, make_pieces([(0.2, 0.05, 2.0, 0.0, ring)]), dt=1e-3)
    assert out.fate[0] == 2 and out.capture_index[0] == -1 and not out.alive[0]
    assert out.capture_order[0] == 0
    assert math.hypot(out.x[0], out.y[0]) == pytest.approx(R, abs=1e-9)
    a = Physics().mu * Physics().g
    sigma = math.sqrt(R * R - 0.05**2) - 0.2
    assert out.capture_time[0] == pytest.approx((2 - math.sqrt(4 - 2 * a * sigma)) / a, abs=1e-9)


def test_caps_flag_truncation(monkeypatch):
    import carromlab.physics.reference as reference

    r = COIN[0]
    rows = [moving(-0.1, 0.0, 1.0, 0.0), resting(0.0, 0.0), resting(2 * r, 0.0), resting(4 * r, 0)]
    monkeypatch.setattr(reference, "MAX_RESOLUTIONS", 2)
    out = simulate_reference(
        open_table(), make_pieces(rows), Physics(e_piece=1.0), dt=1e-3, contacts="sequential"
    )
    assert out.truncated and out.n_piece_contacts == 2
    monkeypatch.setattr(reference, "MAX_RESOLUTIONS", 10_000)
    monkeypatch.setattr(reference, "MAX_EVENTS", 1)
    rows = [moving(-0.1, 0.0, 1.0, 0.0), resting(0.0, 0.0), resting(0.2, 0.0)]
    out = simulate_reference(open_table(), make_pieces(rows), Physics(e_piece=1.0), dt=1e-3)
    assert out.truncated and out.n_events == 1


# ---------------------------------------------------------------------- the ICF break


def _overlap(out: ReferenceOutcome, radius: np.ndarray) -> float:
    live = np.flatnonzero(out.alive)
    x, y, r = out.x[live], out.y[live], radius[live]
    gap = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]) - (r[:, None] + r[None, :])
    np.fill_diagonal(gap, np.inf)
    return max(0.0, -float(gap.min()))


def test_icf_break_ends_untruncated_in_the_board_without_overlap_or_energy_gain():
    pos = standard_position("icf-opening")
    table = Table.from_layout(pos.board.layout)
    pieces = Pieces.from_position(
        pos, shooter=("striker", None, 0.0, -0.2526), speed=5.0, angle=math.pi / 2
    )
    out = simulate_reference(table, pieces, record=True)
    assert not out.truncated  # it ends by itself, within the event and resolution caps
    assert 0 < out.t_end < 30.0
    assert np.isfinite(out.x).all() and np.isfinite(out.y).all()
    assert _overlap(out, pieces.radius) <= 1e-9
    for _, xs, ys in out.trace:
        assert np.isfinite(xs).all() and np.isfinite(ys).all()
    # the striker meets the coin on the Y arm pointing at it (index 8: outer ring, first)
    assert out.first_contact[0] == "piece"
    assert math.isclose(pieces.x[out.first_contact[1]], 0.0, abs_tol=1e-12)
    assert out.n_piece_contacts > 18
    # energy never rises: not at a contact, not between contacts (friction only)
    energies = [e for _, before, after in out.energy for e in (before, after)]
    assert all(b <= a * (1 + 1e-12) + 1e-15 for a, b in itertools.pairwise(energies))
    half = pos.board.half
    live = out.alive
    assert (np.abs(out.x[live]) <= half - pieces.radius[live] + 1e-9).all()
    assert (np.abs(out.y[live]) <= half - pieces.radius[live] + 1e-9).all()
    gone = ~live
    assert (out.fate[gone] == 1).all() and (out.capture_index[gone] >= 0).all()
    assert sorted(out.capture_order[gone]) == list(range(gone.sum()))
    # dt only matters for grazes: a coarser step gives the same shot
    coarse = simulate_reference(table, pieces, dt=1e-3)
    np.testing.assert_allclose(coarse.x, out.x, atol=1e-6)
    np.testing.assert_allclose(coarse.y, out.y, atol=1e-6)
    assert coarse.fate.tolist() == out.fate.tolist()
