"""The kernel's "cluster" contact model (``make_simulator(..., contacts="cluster")``, the default;
docs/physics.md, "Touching clusters"): a struck touching cluster solved as a whole, so the
outcome does not depend on how a position lists its pieces; the same model as the float64
reference's ``contacts="cluster"``. Float32 here (the default dtype)."""

from __future__ import annotations

import math

import jax
import numpy as np
import pytest
from disc_helpers import make_pieces

from carromlab.equipment import IcfBoard
from carromlab.physics import Physics, Table
from carromlab.physics.kernel import Discs, make_simulator
from carromlab.physics.reference import simulate_reference

COIN = (0.0155, 0.00525, "coin")
STRIKER = (0.02065, 0.015, "striker")
R = COIN[0]
TRIANGLE = {"w1": (0.0, 0.0), "w2": (-R, math.sqrt(3) * R), "w3": (R, math.sqrt(3) * R)}
TABLE = Table.from_layout(IcfBoard().layout)


@pytest.fixture(scope="module")
def cluster_sim():
    return jax.jit(make_simulator(TABLE, 4, 512, record=True, contacts="cluster"))


def _rows(order, speed=3.0, x0=0.0):
    rows = [(x0, -0.2526, 0.0, speed, STRIKER)]
    return rows + [(*TRIANGLE[c], 0.0, 0.0, COIN) for c in order]


def _ends(sim, order, **kw):
    out, trace = sim(Discs.from_pieces(make_pieces(_rows(order, **kw))), Physics())
    assert not bool(out.truncated)
    ends = {c: (float(out.x[k + 1]), float(out.y[k + 1])) for k, c in enumerate(order)}
    return out, trace, ends


def test_the_triangle_is_a_mirror_in_every_listing(cluster_sim):
    runs = [_ends(cluster_sim, o)[2] for o in (("w1", "w2", "w3"), ("w2", "w3", "w1"))]
    for ends in runs:
        assert abs(ends["w1"][0]) < 1e-4
        assert ends["w2"][0] == pytest.approx(-ends["w3"][0], abs=1e-4)
        assert ends["w2"][1] == pytest.approx(ends["w3"][1], abs=1e-4)
    for c in TRIANGLE:
        assert runs[0][c] == pytest.approx(runs[1][c], abs=1e-4)


def test_kernel_and_reference_agree_on_the_triangle(cluster_sim):
    order = ("w1", "w2", "w3")
    out, _, ends = _ends(cluster_sim, order)
    ref = simulate_reference(TABLE, make_pieces(_rows(order)), dt=1e-3, contacts="cluster")
    for k, c in enumerate(order):
        # 8 steps a half-period against 100: about 0.3 % of the speeds (docs/physics.md)
        assert ends[c] == pytest.approx((ref.x[k + 1], ref.y[k + 1]), abs=2e-3)
    assert (np.asarray(out.capture)[1:] < 0).all() and (ref.capture_index[1:] < 0).all()


def test_the_cluster_solve_keeps_momentum_and_loses_energy(cluster_sim):
    """At the striker's impact every disc's velocity changes at one instant: the total
    momentum is the striker's before it, and the kinetic energy does not rise."""
    out, trace, _ = _ends(cluster_sim, ("w1", "w2", "w3"), speed=4.0, x0=0.004)
    m = np.array([STRIKER[1], COIN[1], COIN[1], COIN[1]])
    first = int(np.flatnonzero(np.asarray(trace.event_code) == -1)[0])  # the first pair event
    vx, vy = np.asarray(trace.vx[first]), np.asarray(trace.vy[first])
    t = float(trace.t[first])
    v_in = 4.0 - Physics().mu * Physics().g * t  # the striker's speed when it arrives
    assert (m * vx).sum() == pytest.approx(0.0, abs=1e-6)
    assert (m * vy).sum() == pytest.approx(m[0] * v_in, rel=1e-5)
    assert (m * (vx**2 + vy**2)).sum() <= m[0] * v_in**2 * (1 + 1e-5)
    assert int(out.n_piece_contacts) >= 3  # the striker and the coins it pressed together


def test_a_lone_pair_is_the_sequential_model_exactly(cluster_sim):
    """No third disc touches: the cluster model resolves the pair as the sequential one does
    (the same arithmetic), so open play keeps its numbers."""
    rows = [(0.0, -0.25, 0.3, 2.0, STRIKER), (0.05, 0.0, 0.0, 0.0, COIN)]
    rows += [(-0.3, 0.3, 0.0, 0.0, COIN), (0.3, 0.3, 0.0, 0.0, COIN)]
    d = Discs.from_pieces(make_pieces(rows))
    a, _ = jax.jit(make_simulator(TABLE, 4, 512, record=True, contacts="sequential"))(d, Physics())
    b, _ = cluster_sim(d, Physics())
    assert int(a.n_piece_contacts) >= 1
    for f in ("x", "y", "capture", "n_piece_contacts", "n_events"):
        assert np.array_equal(np.asarray(getattr(a, f)), np.asarray(getattr(b, f))), f


def test_an_unknown_contact_model_is_refused():
    with pytest.raises(ValueError, match="contacts must be one of"):
        make_simulator(TABLE, 2, 512, contacts="soft")


TOUCH_SCRIPT = """
import json, math, sys
import jax
assert jax.config.jax_enable_x64
sys.path.insert(0, sys.argv[1])
import test_kernel_cluster as tc
from disc_helpers import make_pieces
from carromlab.physics import Physics
from carromlab.physics.kernel import Discs, make_simulator

sim = jax.jit(make_simulator(tc.TABLE, 4, 512, contacts="cluster"))
ends = {}
for opened in (0.0, 1e-9, 1e-6):
    rows = tc._rows(("w1", "w2", "w3"))
    for k in (2, 3):  # w2, w3 moved away from w1 along their line of centres
        x, y, *rest = rows[k]
        d = math.hypot(x, y)
        rows[k] = (x + opened * x / d, y + opened * y / d, *rest)
    out = sim(Discs.from_pieces(make_pieces(rows)), Physics())
    ends[str(opened)] = [[float(out.x[i]), float(out.y[i])] for i in range(4)]
print(json.dumps(ends))
"""


@pytest.mark.heavy  # a float64 process of its own (about 20 s)
def test_in_float64_a_touching_triangle_opened_by_a_micrometre_is_still_one_cluster():
    """Touching is one physical length (``TOUCH_GAP``, 2 um) in both precisions: in float64
    the triangle with its two back coins moved 1 nm or 1 um away ends as the touching one
    (before, with a 2e-12 m tolerance, 1 nm split the cluster and moved the ends 0.2-0.5 m)."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, JAX_ENABLE_X64="1", JAX_PLATFORMS="cpu")
    here = os.path.dirname(__file__)
    proc = subprocess.run(
        [sys.executable, "-c", TOUCH_SCRIPT, here], capture_output=True, text=True, env=env,
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    ends = json.loads(proc.stdout.strip().splitlines()[-1])
    touching = np.array(ends["0.0"])
    for opened in ("1e-09", "1e-06"):
        assert np.abs(np.array(ends[opened]) - touching).max() < 1e-3, opened
