"""The "cluster" contact model of the float64 reference (docs/physics.md, "Touching
clusters"): the simultaneous contacts of a touching cluster solved together, so the outcome
does not depend on the order in which a position lists its pieces and mirror set-ups end as
mirrors. The sequential model (the default) is the kernel's today."""

from __future__ import annotations

import math

import numpy as np
import pytest
from disc_helpers import make_pieces

from carromlab.equipment import IcfBoard
from carromlab.physics import Physics, Pieces, Table
from carromlab.physics.reference import simulate_reference, solve_cluster
from carromlab.registry import standard_position

COIN = (0.0155, 0.00525, "coin")
STRIKER = (0.02065, 0.015, "striker")
R = COIN[0]
TRIANGLE = {"w1": (0.0, 0.0), "w2": (-R, math.sqrt(3) * R), "w3": (R, math.sqrt(3) * R)}


def _triangle(order, model):
    """The touching 3-coin triangle struck straight up the middle at 3 m/s (the minimal case
    of the break's dependence on labels), listed in ``order``."""
    rows = [(0.0, -0.2526, 0.0, 3.0, STRIKER)]
    rows += [(*TRIANGLE[c], 0.0, 0.0, COIN) for c in order]
    table = Table.from_layout(IcfBoard().layout)
    out = simulate_reference(table, make_pieces(rows), Physics(), dt=1e-3, contacts=model)
    return {
        c: (out.x[k + 1], out.y[k + 1], int(out.capture_index[k + 1])) for k, c in enumerate(order)
    }


def test_the_triangle_is_a_mirror_in_every_listing():
    runs = [_triangle(order, "cluster") for order in (("w1", "w2", "w3"), ("w3", "w1", "w2"))]
    for res in runs:
        assert res["w1"][0] == pytest.approx(0.0, abs=1e-9)
        assert res["w2"][0] == pytest.approx(-res["w3"][0], abs=1e-9)
        assert res["w2"][1] == pytest.approx(res["w3"][1], abs=1e-9)
        assert all(c < 0 for _, _, c in res.values())  # nothing is pocketed
    for c in TRIANGLE:
        assert runs[0][c][:2] == pytest.approx(runs[1][c][:2], abs=1e-9)


def test_the_sequential_model_depends_on_the_listing():
    """What the cluster model removes: pairs one at a time in index order break the mirror."""
    a = _triangle(("w1", "w2", "w3"), "sequential")
    b = _triangle(("w1", "w3", "w2"), "sequential")
    assert abs(a["w3"][0] - (-b["w2"][0])) < 1e-9  # b is a's mirror image...
    assert abs(a["w2"][0] + a["w3"][0]) > 0.1  # ...and neither is symmetric


def test_the_rosette_break_does_not_depend_on_the_listing():
    pos = standard_position("icf-opening")
    table = Table.from_layout(pos.board.layout)
    rng = np.random.default_rng(3)
    ends = []
    for perm in (np.arange(len(pos.pieces)), rng.permutation(len(pos.pieces))):
        listed = pos.replace(pieces=tuple(pos.pieces[k] for k in perm))
        shot = ("striker", None, 0.0, -0.2526)
        pieces = Pieces.from_position(listed, shooter=shot, speed=5.0, angle=math.pi / 2)
        out = simulate_reference(table, pieces, Physics(), dt=1e-3, contacts="cluster", record=True)
        assert not out.truncated
        assert all(after <= before * (1 + 1e-12) for _, before, after in out.energy)
        ends.append({p.id: (out.x[k + 1], out.y[k + 1]) for k, p in enumerate(listed.pieces)})
    for pid in ends[0]:
        assert ends[0][pid] == pytest.approx(ends[1][pid], abs=1e-9)


@pytest.mark.parametrize("e", [1.0, 0.8, 0.5])
def test_an_isolated_pair_leaves_with_its_restitution(e):
    """Two discs alone: the spring-dashpot's damping is set so that the pair's approach speed
    comes out times -e (to the integration's accuracy), as the sequential impulse gives."""
    inv = np.array([1 / 0.015, 1 / 0.00525])
    vx, _, imp, _ = solve_cluster(
        np.array([2.0, 0.0]), np.zeros(2), inv, np.array([0]), np.array([1]),
        np.array([1.0]), np.array([0.0]), np.array([e]),
    )  # fmt: skip
    assert vx[1] - vx[0] == pytest.approx(2.0 * e, rel=1e-6)
    assert imp[0] == pytest.approx((1 + e) * 2.0 / inv.sum(), rel=1e-6)


def test_random_clusters_keep_momentum_and_never_gain_energy():
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = int(rng.integers(3, 8))
        # a chain of touching discs at random angles (each touches the one before)
        ang = rng.uniform(0, 2 * np.pi, n)
        xs = np.cumsum(2 * R * np.cos(ang)) - 2 * R * np.cos(ang[0])
        ys = np.cumsum(2 * R * np.sin(ang)) - 2 * R * np.sin(ang[0])
        ei, ej = np.arange(n - 1), np.arange(1, n)
        d = np.hypot(xs[ej] - xs[ei], ys[ej] - ys[ei])
        nx, ny = (xs[ej] - xs[ei]) / d, (ys[ej] - ys[ei]) / d
        m = rng.choice([0.00525, 0.015], n)
        vx0, vy0 = rng.normal(0, 1, n), rng.normal(0, 1, n)
        e = rng.uniform(0.3, 1.0, n - 1)
        vx, vy, _, _ = solve_cluster(vx0, vy0, 1 / m, ei, ej, nx, ny, e)
        assert (m * vx).sum() == pytest.approx((m * vx0).sum(), abs=1e-12)
        assert (m * vy).sum() == pytest.approx((m * vy0).sum(), abs=1e-12)
        ke0, ke = (m * (vx0**2 + vy0**2)).sum(), (m * (vx**2 + vy**2)).sum()
        assert ke <= ke0 * (1 + 1e-9)
        w = (vx[ei] - vx[ej]) * nx + (vy[ei] - vy[ej]) * ny
        assert (w <= 1e-9).all()  # nothing approaches afterwards


def test_an_unknown_model_is_refused():
    from disc_helpers import open_table

    with pytest.raises(ValueError, match="contacts must be one of"):
        simulate_reference(open_table(), make_pieces([(0, 0, 1, 0, COIN)]), contacts="soft")
