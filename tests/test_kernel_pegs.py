"""A pegged-ring board: the kernel's contacts of a moving ring with a pegged (static) ring,
checked against the analytic reflection off a static circle.

A static disc (``Pieces.static``: inv_mass 0) is an infinite mass: a ring of radius r1 moving
at velocity v first touches a static ring of radius r2 when their centres are r1 + r2 apart,
where its straight path (it slides on a line, decelerating at mu g) meets the circle of radius
r1 + r2 round the static centre, and it leaves with

    v' = v_c - (1 + e) (v_c . n) n

(v_c its velocity at the contact, n the unit line of centres from the mover to the static
ring, e = ``Physics.e_piece`` for two rings); the static ring does not move. In Ring Pegs the
eight rings over the pegs are static (``Pieces.from_position`` marks the game set's ``pegged``
kinds), so a shooting ring played at one of them must bounce off it by this law.

Every expectation is computed in float64 from the very numbers the kernel was given (its
float32 inputs, widened), so the errors measured are the kernel's own. The float32 kernel runs
in this process; the float64 one in a subprocess with ``JAX_ENABLE_X64=1`` (x64 cannot be
switched safely mid-process; see tests/test_kernel.py).
"""

from __future__ import annotations

import functools
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

from carromlab.equipment import CrokinoleBoard
from carromlab.games.ring_pegs.setups import ring_pegs_opening
from carromlab.physics import Physics, Pieces, Table
from carromlab.physics.kernel import CONTACT_TOL, Discs, make_simulator
from carromlab.shots import Shot, place_shooter

BOARD = CrokinoleBoard()
RING = (BOARD.ring_diameter / 2, BOARD.ring_mass, "ring")
REACH = 2 * RING[0]  # r1 + r2: the shooting ring has the pegged rings' spec
PHYS = Physics()
#: mu = 0 exactly puts NaN into the kernel as soon as any disc is at rest (see
#: test_frictionless_kernel_with_a_disc_at_rest); "frictionless" runs use this instead: over
#: these shots' 0.1 s its deceleration (1e-5 m/s^2) moves a disc by less than 1e-7 m.
FRICTIONLESS = Physics(mu=1e-6)

#: Float32 tolerances: velocities relative to the incoming speed at the contact, contact
#: times relative, contact positions in metres (CONTACT_TOL: the kernel's float32 contact
#: tolerance, 1e-6 m).
F32_V_REL, F32_T_REL, F32_POS = 1e-5, 1e-5, CONTACT_TOL[4]
#: Float32, on the board, for shots at 0.95 (r1 + r2): the kernel finds the contact as the
#: first root of |p + u s - c|^2 = (r1 + r2)^2 in the form -b - sqrt(b^2 - c) (events.py,
#: first_circle_entry), whose b^2 - c cancels to about eps |p - c|^2; near grazing the square
#: root magnifies that (up to 3e-7 m of path here, 0.13 m from the ring, where the cross
#: product form (r1 + r2)^2 - ((p - c) x u)^2 would give 3e-8 m), and the tilt of the line of
#: centres it causes doubles in the velocity out (observed 1.6e-5 of the speed).
F32_V_REL_GRAZING = 3e-5
#: Float64 tolerances (observed: 1.5e-14 relative on velocities, 2e-15 on times, 2e-16 m).
F64_V_REL, F64_T_REL, F64_POS = 1e-12, 1e-12, 1e-13

# --------------------------------------------------------------------------- open table

#: The static ring's centre (off the origin, so no coordinate is special).
STATIC_CENTRE = (0.031, -0.017)
#: Distance (m) from the start of the mover's path to its closest approach to the static ring.
RUN_UP = 0.12
#: Directions of motion (rad), impact parameters (fractions of r1 + r2, both signs) and
#: speeds (m/s) of the open-table shots.
THETAS = (0.0, 0.7, 2.3, -1.9)
B_FRACS = (0.0, 0.1, -0.1, 0.3, -0.3, 0.6, -0.6, 0.8, -0.8, 0.9, -0.9, 0.95, -0.95)
SPEEDS = (0.6, 1.5, 4.0)
OPEN_CASES = [(th, bf, v) for th in THETAS for bf in B_FRACS for v in SPEEDS]
#: Clearances (m) beyond r1 + r2 of the grazing misses; the grazing hits are as deep inside.
GRAZE_GAPS = (1e-5, 1e-4, 1e-3)


def open_pieces(theta: float, b: float, v: float) -> Pieces:
    """A ring moving at ``v`` along ``theta`` whose line of motion passes ``b`` (signed, m)
    from the static ring's centre, ``RUN_UP`` before its closest approach; the static ring
    is piece 1."""
    ux, uy = math.cos(theta), math.sin(theta)
    cx, cy = STATIC_CENTRE
    px, py = cx - RUN_UP * ux - b * uy, cy - RUN_UP * uy + b * ux
    return make_pieces([(px, py, v * ux, v * uy, RING), (cx, cy, 0.0, 0.0, RING)], static=(1,))


def stack(pieces: list[Pieces], batch: int | None = None) -> Discs:
    """One batch of Discs (leading axis) from pieces of one size, padded with copies of the
    first shot up to ``batch``."""
    arrays = [Discs.arrays(p) for p in pieces]
    arrays += [arrays[0]] * ((batch or len(arrays)) - len(arrays))
    return Discs(**{k: jnp.asarray(np.stack([a[k] for a in arrays])) for k in arrays[0]})


#: Every open-table batch has this many shots (one compiled simulator per dtype).
OPEN_BATCH = len(OPEN_CASES)


@functools.cache
def open_sim():
    """The recording simulator of two discs on an open table, vmapped over shots."""
    sim = make_simulator(open_table(), 2, 4, record=True)
    return jax.jit(jax.vmap(sim, in_axes=(0, None)))


def simulate_open(pieces: list[Pieces], physics: Physics):
    """(Discs, ShotOutcome, Trace) of two-disc shots on an open table, cut to ``pieces``."""
    assert len(pieces) <= OPEN_BATCH
    discs = stack(pieces, OPEN_BATCH)
    res = (discs, *open_sim()(discs, physics))
    return jax.tree.map(lambda z: z[: len(pieces)], res)


def run_open(pieces: list[Pieces], physics: Physics) -> tuple[dict, dict]:
    """Simulate two-disc shots on an open table: the inputs the kernel got and its trace rows
    0 (the start) and 1 (the first event), as float64 numpy arrays, plus the outcome's counts."""
    discs, out, tr = simulate_open(pieces, physics)
    inputs = {k: np.asarray(getattr(discs, k), dtype=np.float64) for k in ("x", "y", "vx", "vy")}
    rows = {k: np.asarray(getattr(tr, k)[:, :2], dtype=np.float64) for k in ("x", "y", "vx", "vy")}
    rows["t"] = np.asarray(tr.t[:, :2], dtype=np.float64)
    for k in ("event_i", "event_j", "event_code"):
        rows[k] = np.asarray(getattr(tr, k)[:, 1])
    rows["n_piece_contacts"] = np.asarray(out.n_piece_contacts)
    rows["contacts"] = np.asarray(out.contacts)
    rows["dtype"] = str(tr.x.dtype)
    return inputs, rows


def reflection(p, vel, c, reach, physics: Physics, e: float):
    """The analytic first contact of a disc at ``p`` (2,) moving with ``vel`` (2,) against a
    static disc centred at ``c``, in float64: (path length, time, contact centre, velocity in,
    velocity out), or None if the straight path misses the circle of radius ``reach``."""
    p, vel, c = (np.asarray(z, dtype=np.float64) for z in (p, vel, c))
    v = float(np.hypot(*vel))
    u = vel / v
    d = c - p
    along = float(d @ u)
    b2 = float(d @ d) - along * along
    if b2 >= reach * reach or along <= 0:
        return None
    s = along - math.sqrt(reach * reach - b2)
    a = physics.mu * physics.g
    vc = math.sqrt(v * v - 2 * a * s)
    t = 2 * s / (v + vc)  # s = v t - a t^2 / 2, the root before the stop (also a = 0)
    q = p + u * s
    n = (c - q) / reach
    v_in = vc * u
    v_out = v_in - (1 + e) * float(v_in @ n) * n
    return s, t, q, v_in, v_out


def open_errors(inputs: dict, rows: dict, physics: Physics) -> dict:
    """Per shot: the kernel's first event against :func:`reflection` (asserting it is the
    contact of the two discs, and the static ring still), as arrays of errors."""
    errs = {"pos": [], "gap": [], "t": [], "v": []}
    e = physics.e_piece
    for k in range(len(inputs["x"])):
        assert (rows["event_i"][k], rows["event_j"][k], rows["event_code"][k]) == (0, 1, -1), k
        assert rows["n_piece_contacts"][k] == 1, k
        assert list(rows["contacts"][k]) == [1, 1], k
        for key in ("x", "y"):  # the static ring is where it was, at rest
            assert rows[key][k, 1, 1] == inputs[key][k, 1], (k, key)
        assert rows["vx"][k, 1, 1] == 0.0 and rows["vy"][k, 1, 1] == 0.0, k
        p = (inputs["x"][k, 0], inputs["y"][k, 0])
        vel = (inputs["vx"][k, 0], inputs["vy"][k, 0])
        c = (inputs["x"][k, 1], inputs["y"][k, 1])
        hit = reflection(p, vel, c, REACH, physics, e)
        assert hit is not None, k
        _s, t, q, v_in, v_out = hit
        qk = np.array([rows["x"][k, 1, 0], rows["y"][k, 1, 0]])
        vk = np.array([rows["vx"][k, 1, 0], rows["vy"][k, 1, 0]])
        errs["pos"].append(np.hypot(*(qk - q)))
        errs["gap"].append(abs(np.hypot(*(np.asarray(c) - qk)) - REACH))
        errs["t"].append(abs(rows["t"][k, 1] - t) / t)
        errs["v"].append(np.hypot(*(vk - v_out)) / np.hypot(*v_in))
    return {k: np.array(v) for k, v in errs.items()}


def _assert_within(errs: dict, v_rel: float, t_rel: float, pos: float):
    worst = {k: float(v.max()) for k, v in errs.items()}
    assert worst["v"] <= v_rel, worst
    assert worst["t"] <= t_rel, worst
    assert worst["pos"] <= pos, worst
    assert worst["gap"] <= pos, worst


def test_open_table_contact_with_a_static_ring_is_the_reflection():
    """Float32, open table: a ring shot at a static ring (156 shots: 4 directions, impact
    parameters 0 to 0.95 (r1 + r2) of both signs, 0.6 to 4 m/s), frictionless and with the
    default friction. The first event is the pair's contact; the mover's centre is then
    r1 + r2 from the static centre, where its straight path meets that circle (1e-6 m), at
    the time that path takes (s = v t - a t^2 / 2; 1e-5 relative); it leaves with
    v_c - (1 + e) (v_c . n) n (1e-5 of the incoming speed); the static ring has not moved."""
    pieces = [open_pieces(th, bf * REACH, v) for th, bf, v in OPEN_CASES]
    for physics in (FRICTIONLESS, PHYS):
        inputs, rows = run_open(pieces, physics)
        assert rows["dtype"] == "float32"
        _assert_within(open_errors(inputs, rows, physics), F32_V_REL, F32_T_REL, F32_POS)


def test_restitution_of_a_ring_on_a_static_ring_is_e_piece():
    """The normal speed out is e_piece times the normal speed in and the tangential speed is
    kept, for any e_piece (a traced parameter): elastic, default and soft rings, frictionless."""
    pieces = [open_pieces(0.7, bf * REACH, 1.5) for bf in (0.0, 0.5, -0.8)]
    for e in (1.0, 0.9, 0.5):
        physics = Physics(mu=FRICTIONLESS.mu, e_piece=e)
        inputs, rows = run_open(pieces, physics)
        _assert_within(open_errors(inputs, rows, physics), F32_V_REL, F32_T_REL, F32_POS)
        for k in range(len(pieces)):
            c = np.array([inputs["x"][k, 1], inputs["y"][k, 1]])
            q = np.array([rows["x"][k, 1, 0], rows["y"][k, 1, 0]])
            n = (c - q) / np.hypot(*(c - q))
            v_in = np.array([rows["vx"][k, 0, 0], rows["vy"][k, 0, 0]])
            v_out = np.array([rows["vx"][k, 1, 0], rows["vy"][k, 1, 0]])
            speed = np.hypot(*v_in)
            assert abs(v_out @ n + e * (v_in @ n)) <= F32_V_REL * speed
            tang = np.array([-n[1], n[0]])
            assert abs(v_out @ tang - v_in @ tang) <= F32_V_REL * speed


def test_frictionless_kernel_with_a_disc_at_rest():
    """Physics(mu=0.0) exactly, a few of the open-table shots: the first contact is the
    reflection as above. (A regression test: the loop body advanced every disc to the event
    by min(step, v / a), 0 / 0 = NaN for a disc at rest when a = mu g = 0, so resting discs'
    positions and the mover's velocity after the contact were NaN.)"""
    pieces = [open_pieces(0.7, bf * REACH, 1.5) for bf in (0.0, 0.5, -0.8)]
    physics = Physics(mu=0.0)
    inputs, rows = run_open(pieces, physics)
    for key in ("x", "y", "vx", "vy"):
        assert np.isfinite(rows[key][:, 1]).all(), key
    _assert_within(open_errors(inputs, rows, physics), F32_V_REL, F32_T_REL, F32_POS)


X64_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import jax
    assert jax.config.jax_enable_x64
    sys.path.insert(0, sys.argv[1])
    import test_kernel_pegs as tp

    pieces = [tp.open_pieces(th, bf * tp.REACH, v) for th, bf, v in tp.OPEN_CASES]
    res = {}
    for name, physics in (("frictionless", tp.FRICTIONLESS), ("default", tp.PHYS)):
        inputs, rows = tp.run_open(pieces, physics)
        res[name] = {
            "inputs": {k: v.tolist() for k, v in inputs.items()},
            "rows": {k: (v if isinstance(v, str) else v.tolist()) for k, v in rows.items()},
        }
    print(json.dumps(res))
    """
)


@pytest.mark.heavy  # the float64 twin of the open-table reflection
def test_open_table_reflection_in_float64():
    """The open-table shots of the float32 test through the float64 kernel (subprocess,
    JAX_ENABLE_X64=1): the same checks, to 1e-12 relative on velocities and times and 1e-13 m
    on the contact position."""
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
    for name, physics in (("frictionless", FRICTIONLESS), ("default", PHYS)):
        inputs = {k: np.array(v) for k, v in res[name]["inputs"].items()}
        rows = {k: (v if k == "dtype" else np.array(v)) for k, v in res[name]["rows"].items()}
        assert rows["dtype"] == "float64"
        _assert_within(open_errors(inputs, rows, physics), F64_V_REL, F64_T_REL, F64_POS)


# --------------------------------------------------------------------------- grazing


def test_grazing_miss_of_a_static_ring_makes_no_contact():
    """A ring whose straight path passes 1e-5, 1e-4 or 1e-3 m clear of contact (impact
    parameter r1 + r2 + gap, both sides, frictionless and with friction) touches nothing and
    slides on undeflected (with friction it stops v^2 / 2a down its line, 1e-6 m); one as
    deep inside contact touches the static ring once. The static ring never moves."""
    misses = [open_pieces(0.7, sign * (REACH + g), 1.5) for g in GRAZE_GAPS for sign in (1, -1)]
    hits = [open_pieces(0.7, sign * (REACH - g), 1.5) for g in GRAZE_GAPS for sign in (1, -1)]
    a = PHYS.mu * PHYS.g
    for physics in (FRICTIONLESS, PHYS):
        _discs, out, tr = simulate_open(misses, physics)
        np.testing.assert_array_equal(np.asarray(out.n_piece_contacts), 0)
        np.testing.assert_array_equal(np.asarray(out.first_piece), -1)
        np.testing.assert_array_equal(np.asarray(out.contacts), 0)
        n_rows = np.asarray(tr.n)
        for k, p in enumerate(misses):
            x1 = np.asarray(tr.x[k, : n_rows[k], 1])
            assert (x1 == np.float32(p.x[1])).all()
            if physics is PHYS:
                v = math.hypot(p.vx[0], p.vy[0])
                stop = v * v / (2 * a)
                ends = (p.x[0] + p.vx[0] / v * stop, p.y[0] + p.vy[0] / v * stop)
                assert abs(float(out.x[k, 0]) - ends[0]) <= F32_POS
                assert abs(float(out.y[k, 0]) - ends[1]) <= F32_POS
        _discs, out, _tr = simulate_open(hits, physics)
        np.testing.assert_array_equal(np.asarray(out.n_piece_contacts), 1)
        np.testing.assert_array_equal(np.asarray(out.first_piece), 1)


# --------------------------------------------------------------------------- Ring Pegs board

POSITION = ring_pegs_opening()
TABLE = Table.from_layout(POSITION.board.layout)
#: The shots start this far (m) from the board centre, outside the pegs' circle.
START_RADIUS = 0.26
#: Impact parameters (fractions of r1 + r2) and speeds (m/s) of the board shots.
BOARD_B_FRACS = (0.0, 0.4, -0.4, 0.8, -0.8, 0.95, -0.95)
BOARD_SPEEDS = (1.0, 2.5)
BOARD_EVENTS = 128
#: Every board batch has this many shots (one compiled simulator).
BOARD_BATCH = 8 * len(BOARD_B_FRACS) * len(BOARD_SPEEDS)


def board_template() -> Discs:
    """The Ring Pegs opening with a shooting ring (index 0; placed by each shot)."""
    pieces = Pieces.from_position(POSITION, shooter=("shooter", None, START_RADIUS, 0.0))
    assert pieces.static.tolist() == [False] + [True] * 8
    return Discs.from_pieces(pieces)


def board_shots(b_fracs=BOARD_B_FRACS, gap=None) -> tuple[list[int], list[float], Shot]:
    """Shots at every pegged ring from outside, radially inwards with the line of motion
    offset ``b`` (``b_frac`` of r1 + r2, or r1 + r2 + ``gap``) from the ring's centre:
    (target piece index per shot, b_frac per shot, the batched Shot)."""
    rows, targets, fracs = [], [], []
    for k, (cx, cy) in enumerate(BOARD.peg_centres()):
        phi = math.atan2(cy, cx)
        for bf in b_fracs:
            b = bf * REACH if gap is None else math.copysign(REACH + gap, bf)
            for v in BOARD_SPEEDS:
                x = START_RADIUS * math.cos(phi) - b * math.sin(phi)
                y = START_RADIUS * math.sin(phi) + b * math.cos(phi)
                rows.append((x, y, phi + math.pi, v))
                targets.append(k + 1)
                fracs.append(bf)
    cols = np.array(rows).T
    return targets, fracs, Shot(*(jnp.asarray(c) for c in cols))


@functools.cache
def board_sim():
    sim = make_simulator(TABLE, 9, BOARD_EVENTS, record=True)
    return jax.jit(jax.vmap(sim, in_axes=(0, None)))


def run_board(shots: Shot, physics: Physics = PHYS):
    """(Discs, ShotOutcome, Trace) of a batch of shots on the Ring Pegs opening (padded with
    copies of the first shot to ``BOARD_BATCH``, cut back)."""
    n = len(shots.x)
    assert n <= BOARD_BATCH
    shots = jax.tree.map(lambda z: jnp.concatenate([z, jnp.repeat(z[:1], BOARD_BATCH - n)]), shots)
    discs = jax.vmap(place_shooter, in_axes=(None, 0))(board_template(), shots)
    res = (discs, *board_sim()(discs, physics))
    return jax.tree.map(lambda z: np.asarray(z[:n]), res)


def _assert_pegged_rings_never_move(discs, out, tr):
    """Every row of every shot has the pegged rings at their pegs, at rest, at the end too."""
    assert not np.asarray(out.truncated).any()
    n_rows = np.asarray(tr.n)
    x0, y0 = np.asarray(discs.x[:, 1:]), np.asarray(discs.y[:, 1:])
    np.testing.assert_allclose(x0[0], [c[0] for c in BOARD.peg_centres()], atol=1e-7)
    np.testing.assert_allclose(y0[0], [c[1] for c in BOARD.peg_centres()], atol=1e-7)
    for k in range(len(n_rows)):
        for key, start in (("x", x0), ("y", y0)):
            rows = np.asarray(getattr(tr, key)[k, : n_rows[k], 1:])
            assert (rows == start[k]).all(), (k, key)
            assert (np.asarray(getattr(out, key)[k, 1:]) == start[k]).all(), (k, key)
        for key in ("vx", "vy"):
            assert (np.asarray(getattr(tr, key)[k, : n_rows[k], 1:]) == 0).all(), (k, key)
        assert np.asarray(out.alive[k, 1:]).all()


def test_ring_pegs_shot_bounces_off_the_pegged_ring():
    """The real Ring Pegs board (ring_pegs_opening, its layout's table with pegs, cushions,
    pockets and hole; the default Physics with friction): the shooting ring played from
    outside at each of the 8 pegged rings (impact parameters 0 to 0.95 (r1 + r2), both sides,
    1 and 2.5 m/s). The first event is its contact with that ring (first_piece too); there
    its centre is where its friction-slowed straight path meets the circle of radius r1 + r2
    (1e-6 m; time 1e-5 relative) and it leaves with the reflection of its incoming velocity
    (speed sqrt(v^2 - 2 a s)) about the line of centres, e = e_piece (1e-5 of the incoming
    speed; 3e-5 at 0.95 (r1 + r2), see F32_V_REL_GRAZING). No pegged ring ever moves, on any
    row of any shot, and none is captured."""
    targets, b_fracs, shots = board_shots()
    discs, out, tr = run_board(shots)
    _assert_pegged_rings_never_move(discs, out, tr)
    np.testing.assert_array_equal(np.asarray(out.first_piece), targets)
    np.testing.assert_array_equal(np.asarray(out.first_contact_kind), 1)
    e = PHYS.e_piece
    f64 = functools.partial(np.asarray, dtype=np.float64)
    worst = {"pos": 0.0, "gap": 0.0, "t": 0.0, "v": 0.0, "v_grazing": 0.0}
    for k, (j, bf) in enumerate(zip(targets, b_fracs, strict=True)):
        assert (int(tr.event_i[k, 1]), int(tr.event_j[k, 1])) == (0, j), k
        assert int(tr.event_code[k, 1]) == -1, k
        p = f64([discs.x[k, 0], discs.y[k, 0]])
        c = f64([discs.x[k, j], discs.y[k, j]])
        hit = reflection(p, f64([discs.vx[k, 0], discs.vy[k, 0]]), c, REACH, PHYS, e)
        assert hit is not None, k
        _s, t, q, v_in, v_out = hit
        qk = f64([tr.x[k, 1, 0], tr.y[k, 1, 0]])
        vk = f64([tr.vx[k, 1, 0], tr.vy[k, 1, 0]])
        worst["pos"] = max(worst["pos"], float(np.hypot(*(qk - q))))
        worst["gap"] = max(worst["gap"], abs(float(np.hypot(*(c - qk))) - REACH))
        worst["t"] = max(worst["t"], abs(float(tr.t[k, 1]) - t) / t)
        key = "v_grazing" if abs(bf) > 0.9 else "v"
        worst[key] = max(worst[key], float(np.hypot(*(vk - v_out)) / np.hypot(*v_in)))
    assert worst["v"] <= F32_V_REL, worst
    assert worst["v_grazing"] <= F32_V_REL_GRAZING, worst
    assert worst["t"] <= F32_T_REL, worst
    assert worst["pos"] <= F32_POS and worst["gap"] <= F32_POS, worst


def test_ring_pegs_grazing_miss_touches_no_pegged_ring():
    """On the Ring Pegs board a shooting ring whose line passes 1e-5 m clear of a pegged
    ring (both sides, every peg, 1 and 2.5 m/s) goes by without touching it, and past the
    opposite pegged ring (on the same diameter, so as near its line) and the hole too: its
    first event is a cushion contact or its coming to rest, neither a contact nor a capture
    (first_contact_kind is never a piece); no pegged ring ever moves."""
    _targets, _b_fracs, shots = board_shots(b_fracs=(1.0, -1.0), gap=1e-5)
    discs, out, tr = run_board(shots)
    _assert_pegged_rings_never_move(discs, out, tr)
    codes = np.asarray(tr.event_code[:, 1])
    first_wall_code = len(TABLE.captures) + 1  # codes: captures, the ditch, then the walls
    assert ((codes == -2) | (codes >= first_wall_code)).all(), codes
    assert (np.asarray(out.first_contact_kind) != 1).all()
