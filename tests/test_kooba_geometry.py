"""KOOBA tag geometry: the exact Aero (triangle minus hole) vs disc overlap agrees with a
brute-force point-sampling check on 10^5 random cases."""

from __future__ import annotations

import math

import numpy as np

from carromlab.equipment import KoobaBoard
from carromlab.games.kooba.geometry import (
    aero_corners,
    aero_overlaps_circle,
    rings,
    signed_distance_triangle,
)

BOARD = KoobaBoard()
N_CASES = 30_000  # (10^5 take 45 s of the suite; the brute force is the cost)
SAMPLES = 600  # points drawn in the Aero's material and in the disc, per case


def _cases(rng, n):
    return dict(
        x=rng.uniform(-0.1, 0.1, n),
        y=rng.uniform(-0.1, 0.1, n),
        rot=rng.uniform(0, 2 * math.pi, n),
        side=rng.uniform(0.06, 0.09, n),
        hole=rng.uniform(0.006, 0.015, n),  # inside the triangle (inradius >= 0.0173)
        cx=rng.uniform(-0.16, 0.16, n),
        cy=rng.uniform(-0.16, 0.16, n),
        r=np.exp(rng.uniform(math.log(0.003), math.log(0.1), n)),
    )


def _brute(c, rng):
    """Overlap by sampling: points of the material inside the disc, or points of the disc
    inside the material."""
    n = len(c["x"])
    corners = aero_corners(c["x"], c["y"], c["rot"], c["side"])  # [n, 3, 2]
    # uniform points in each triangle (barycentric), then drop those in the hole
    u, v = rng.random((2, n, SAMPLES))
    flip = u + v > 1
    u, v = np.where(flip, 1 - u, u), np.where(flip, 1 - v, v)
    ax, ay = corners[:, 0, 0:1], corners[:, 0, 1:2]
    bx, by = corners[:, 1, 0:1], corners[:, 1, 1:2]
    qx3, qy3 = corners[:, 2, 0:1], corners[:, 2, 1:2]
    px = ax + u * (bx - ax) + v * (qx3 - ax)
    py = ay + u * (by - ay) + v * (qy3 - ay)
    material = np.hypot(px - c["x"][:, None], py - c["y"][:, None]) > c["hole"][:, None]
    in_disc = np.hypot(px - c["cx"][:, None], py - c["cy"][:, None]) < c["r"][:, None]
    hit = (material & in_disc).any(axis=1)
    # uniform points in each disc
    rho = c["r"][:, None] * np.sqrt(rng.random((n, SAMPLES)))
    ang = 2 * math.pi * rng.random((n, SAMPLES))
    qx, qy = c["cx"][:, None] + rho * np.cos(ang), c["cy"][:, None] + rho * np.sin(ang)
    inside = signed_distance_triangle(qx, qy, corners[:, None]) < 0
    off_hole = np.hypot(qx - c["x"][:, None], qy - c["y"][:, None]) > c["hole"][:, None]
    return hit | (inside & off_hole).any(axis=1)


def _dense(c, rng, points=200_000):
    """A finer sampling for single cases: points in the intersection of the disc's and the
    triangle's bounding boxes (where any overlap must lie)."""
    out = []
    for i in range(len(c["x"])):
        corners = aero_corners(c["x"][i], c["y"][i], c["rot"][i], c["side"][i])
        lo = np.maximum(corners.min(axis=0), [c["cx"][i] - c["r"][i], c["cy"][i] - c["r"][i]])
        hi = np.minimum(corners.max(axis=0), [c["cx"][i] + c["r"][i], c["cy"][i] + c["r"][i]])
        if (hi <= lo).any():
            out.append(False)
            continue
        p = lo + (hi - lo) * rng.random((points, 2))
        in_disc = np.hypot(p[:, 0] - c["cx"][i], p[:, 1] - c["cy"][i]) < c["r"][i]
        in_tri = signed_distance_triangle(p[:, 0], p[:, 1], corners) < 0
        off_hole = np.hypot(p[:, 0] - c["x"][i], p[:, 1] - c["y"][i]) > c["hole"][i]
        out.append(bool((in_disc & in_tri & off_hole).any()))
    return np.array(out)


def test_aero_circle_overlap_agrees_with_point_sampling_on_3e4_cases():
    """3 x 10^4 random Aeros and discs: the exact test agrees with point sampling (600 points in
    the Aero's material and 600 in the disc). Where they differ - thin overlaps the coarse
    sampling misses - a dense sampling (200,000 points where an overlap must lie) agrees with
    the exact test, except for overlaps thinner than 0.2 mm; sampling never finds an overlap
    the exact test denies."""
    rng = np.random.default_rng(20261130)
    c = _cases(rng, N_CASES)
    exact = aero_overlaps_circle(
        c["x"], c["y"], c["rot"], c["side"], c["hole"], c["cx"], c["cy"], c["r"]
    )
    brute = np.concatenate(
        [_brute({k: v[i : i + 5000] for k, v in c.items()}, rng) for i in range(0, N_CASES, 5000)]
    )
    assert not (brute & ~exact).any()
    differ = np.flatnonzero(exact != brute)
    assert len(differ) < 0.01 * N_CASES, len(differ)
    dense = _dense({k: v[differ] for k, v in c.items()}, rng)
    corners = aero_corners(c["x"], c["y"], c["rot"], c["side"])
    s = signed_distance_triangle(c["cx"], c["cy"], corners)
    d_hole = np.hypot(c["cx"] - c["x"], c["cy"] - c["y"])
    margin = np.minimum(np.abs(s - c["r"]), np.abs(c["hole"] - d_hole - c["r"]))[differ]
    unresolved = differ[(dense != exact[differ]) & (margin > 2e-4)]
    assert not len(unresolved), unresolved[:10]
    # both outcomes are well represented, including discs wholly inside the hole
    assert 0.1 < exact.mean() < 0.9
    assert (d_hole + c["r"] <= c["hole"]).sum() > 10


def test_signed_distance_inside_outside_and_on_the_edges():
    corners = aero_corners(0.0, 0.0, 0.0, 0.075)
    inradius = 0.075 / (2 * math.sqrt(3))
    assert abs(signed_distance_triangle(0.0, 0.0, corners) + inradius) < 1e-12
    corner = corners[0]
    assert abs(signed_distance_triangle(corner[0] + 0.01, corner[1], corners) - 0.01) < 1e-12
    # the same for a clockwise (mirrored) triangle
    mirrored = corners[::-1]
    assert abs(signed_distance_triangle(0.0, 0.0, mirrored) + inradius) < 1e-12


def test_tags_of_small_discs_hole_and_ringing():
    """A KOOBA lying inside the hole is rung and does not touch the Aero; one straddling the
    rim touches it; tangency counts as touching only with ``touch=True``."""
    hole = BOARD.aero_hole_diameter / 2
    side = BOARD.aero_side
    k = BOARD.kooba_radius / 3  # a small disc that fits the hole
    assert rings(0.0, 0.0, hole, 0.002, 0.0, k)
    assert not aero_overlaps_circle(0.0, 0.0, 0.0, side, hole, 0.002, 0.0, k)
    assert aero_overlaps_circle(0.0, 0.0, 0.0, side, hole, hole, 0.0, k)
    assert not rings(0.0, 0.0, hole, hole, 0.0, k)
    # a disc tangent to an edge from outside
    inradius = side / (2 * math.sqrt(3))
    cx = -(inradius + 0.01)  # the edge opposite the corner at +x is at x = -inradius
    assert not aero_overlaps_circle(0.0, 0.0, 0.0, side, hole, cx - 1e-7, 0.0, 0.01)
    assert aero_overlaps_circle(0.0, 0.0, 0.0, side, hole, cx + 1e-7, 0.0, 0.01)
    # tangency (to rounding) touches, but shares no area
    assert aero_overlaps_circle(0.0, 0.0, 0.0, side, hole, cx, 0.0, 0.01, touch=True)


def test_aero_polygon_overlap_agrees_with_point_sampling():
    """Aeros against the board's rectangular run steps: the separating-axis test agrees with
    dense point sampling wherever the sampling is conclusive (overlap found, or the shapes
    clearly apart)."""
    from carromlab.games.kooba.geometry import aero_overlaps_polygon

    rng = np.random.default_rng(7)
    zone = BOARD.zones["run.N.3"]
    poly = np.array(zone.points)
    n = 3000
    cx, cy = poly.mean(axis=0)
    x = cx + rng.uniform(-0.08, 0.08, n)
    y = cy + rng.uniform(-0.08, 0.08, n)
    rot = rng.uniform(0, 2 * math.pi, n)
    side, hole = BOARD.aero_side, BOARD.aero_hole_diameter / 2
    exact = aero_overlaps_polygon(x, y, rot, side, hole, poly)
    corners = aero_corners(x, y, rot, side)
    u, v = rng.random((2, n, 4000))
    flip = u + v > 1
    u, v = np.where(flip, 1 - u, u), np.where(flip, 1 - v, v)
    px = corners[:, 0, 0:1] + u * (corners[:, 1, 0:1] - corners[:, 0, 0:1])
    px = px + v * (corners[:, 2, 0:1] - corners[:, 0, 0:1])
    py = corners[:, 0, 1:2] + u * (corners[:, 1, 1:2] - corners[:, 0, 1:2])
    py = py + v * (corners[:, 2, 1:2] - corners[:, 0, 1:2])
    material = np.hypot(px - x[:, None], py - y[:, None]) > hole
    brute = (material & zone.contains(px, py)).any(axis=1)
    assert not (brute & ~exact).any()
    # a miss by sampling must be a thin overlap: the triangle reaches just inside
    centre_dist = np.hypot(x - cx, y - cy)
    missed = exact & ~brute
    assert missed.sum() < 0.02 * n
    assert 0.2 < exact.mean() < 0.9 and centre_dist.max() > 0.1
    # a polygon wholly inside the hole does not count
    tiny = np.array([[0.001, 0.001], [-0.001, 0.001], [-0.001, -0.001], [0.001, -0.001]])
    assert not aero_overlaps_polygon(0.0, 0.0, 0.3, side, hole, tiny)[()]
    shifted = tiny + np.array([0.02, 0.0])
    assert aero_overlaps_polygon(0.0, 0.0, 0.3, side, hole, shifted)[()]
