"""Exact geometry of KOOBA tags (seed 003): an Aero - an equilateral triangle with a central
round hole - against circular zones and pieces. Vectorised over any number of cases.

An Aero at (x, y) with ``rotation`` has its corners at distance ``side / sqrt(3)`` from its
centre (one corner along +x at rotation 0, as :meth:`KoobaBoard.aero_vertices`); its hole is
a disc of radius ``hole`` round the centre, inside the triangle.

- :func:`aero_overlaps_circle`: the Aero's material (triangle minus hole) and a disc share
  area. Exact reasoning: the hole lies inside the triangle, so the material meets the disc
  exactly when the disc meets the triangle and is not wholly inside the hole (a convex disc
  that meets the triangle and leaves the hole crosses the hole's rim inside the triangle).
  The disc meets the triangle when its centre's signed distance to the triangle (negative
  inside) is below its radius. ``touch=True`` counts tangency too, to within ``TOUCH_TOL``
  (physical touching of a marker or the KOOBA).
- :func:`rings`: a disc lies wholly inside the Aero's hole (ringing the KOOBA).
- :func:`aeros_overlap`: two Aeros share material (one thrown onto another lying on the
  board comes to rest on top of it).
"""

from __future__ import annotations

import numpy as np

#: Tangency counts as touching to within this (m).
TOUCH_TOL = 1e-9


def aero_corners(x, y, rotation, side) -> np.ndarray:
    """Corners [..., 3, 2] of Aeros at (x, y) (arrays broadcast)."""
    x, y, rotation, side = np.broadcast_arrays(
        *(np.asarray(v, float) for v in (x, y, rotation, side))
    )
    rc = side / np.sqrt(3.0)
    k = np.arange(3) * (2 * np.pi / 3)
    a = rotation[..., None] + k
    return np.stack(
        [x[..., None] + rc[..., None] * np.cos(a), y[..., None] + rc[..., None] * np.sin(a)],
        axis=-1,
    )


def signed_distance_triangle(px, py, corners) -> np.ndarray:
    """Signed distance from points (px, py) to triangles ``corners`` [..., 3, 2]: the
    distance to the nearest edge, negative inside."""
    px, py = np.asarray(px, float), np.asarray(py, float)
    a = corners
    b = np.roll(corners, -1, axis=-2)
    ex, ey = b[..., 0] - a[..., 0], b[..., 1] - a[..., 1]  # [..., 3]
    wx, wy = px[..., None] - a[..., 0], py[..., None] - a[..., 1]
    t = np.clip((wx * ex + wy * ey) / (ex * ex + ey * ey), 0.0, 1.0)
    d = np.hypot(wx - t * ex, wy - t * ey).min(axis=-1)
    cross = ex * wy - ey * wx  # > 0 on the left of every edge of a counter-clockwise triangle
    orient = np.sign(
        (a[..., 1, 0] - a[..., 0, 0]) * (a[..., 2, 1] - a[..., 0, 1])
        - (a[..., 1, 1] - a[..., 0, 1]) * (a[..., 2, 0] - a[..., 0, 0])
    )
    inside = (cross * orient[..., None] >= 0).all(axis=-1)
    return np.where(inside, -d, d)


def aero_overlaps_circle(x, y, rotation, side, hole, cx, cy, radius, touch=False) -> np.ndarray:
    """The Aero's material (triangle minus hole) meets the disc (cx, cy, radius)."""
    corners = aero_corners(x, y, rotation, side)
    s = signed_distance_triangle(cx, cy, corners)
    radius = np.asarray(radius, float)
    tol = TOUCH_TOL if touch else 0.0
    meets = s < radius + tol
    in_hole = np.hypot(np.asarray(cx, float) - x, np.asarray(cy, float) - y) + radius
    in_hole = in_hole <= hole - tol
    return meets & ~in_hole


def rings(x, y, hole, cx, cy, radius) -> np.ndarray:
    """The disc (cx, cy, radius) lies wholly inside the hole of an Aero centred at (x, y)."""
    d = np.hypot(np.asarray(cx, float) - x, np.asarray(cy, float) - y)
    return d + np.asarray(radius, float) <= hole


def _project(points, ax, ay):
    """(min, max) of the points [..., k, 2] projected on the axes (ax, ay) [..., m]."""
    proj = points[..., None, :, 0] * ax[..., :, None] + points[..., None, :, 1] * ay[..., :, None]
    return proj.min(axis=-1), proj.max(axis=-1)


def _edge_normals(poly):
    nxt = np.roll(poly, -1, axis=-2)
    ex, ey = nxt[..., 0] - poly[..., 0], nxt[..., 1] - poly[..., 1]
    n = np.hypot(ex, ey)
    return -ey / n, ex / n


def aero_overlaps_polygon(x, y, rotation, side, hole, polygon) -> np.ndarray:
    """The Aero's material (triangle minus hole) and a convex polygon (vertices [k, 2], or
    [..., k, 2] one per Aero) share area. Separating axes over both shapes' edge normals decide
    whether the triangle and the polygon share area (a gap or mere contact on some axis
    separates them); the hole lies inside the triangle, so the material meets the polygon
    exactly when the triangle does and the polygon is not wholly inside the hole (all its
    corners in the hole)."""
    tri = aero_corners(x, y, rotation, side)  # [..., 3, 2]
    poly = np.asarray(polygon, float)
    poly = np.broadcast_to(poly, (*tri.shape[:-2], *poly.shape[-2:]))
    shapes = (tri, poly)
    separated = np.zeros(tri.shape[:-2], dtype=bool)
    for shape in shapes:
        ax, ay = _edge_normals(shape)
        lo1, hi1 = _project(tri, ax, ay)
        lo2, hi2 = _project(poly, ax, ay)
        separated |= ((hi1 <= lo2) | (hi2 <= lo1)).any(axis=-1)
    x, y, hole = (np.asarray(v, float) for v in (x, y, hole))
    d = np.hypot(poly[..., 0] - x[..., None], poly[..., 1] - y[..., None])
    inside_hole = (d <= hole[..., None]).all(axis=-1)
    return ~separated & ~inside_hole


def aeros_overlap(x, y, rotation, x2, y2, rotation2, side, hole) -> np.ndarray:
    """Aeros at (x, y, rotation) and (x2, y2, rotation2) share material: each one's material
    meets the other's triangle (:func:`aero_overlaps_polygon`, both ways). Exact but for an
    overlap confined to where both holes meet, which is counted (a hole is smaller than the
    triangle's inscribed circle, so no Aero fits inside another's hole)."""
    x, y, rotation, x2, y2, rotation2 = np.broadcast_arrays(
        *(np.asarray(v, float) for v in (x, y, rotation, x2, y2, rotation2))
    )
    first = aero_corners(x, y, rotation, side)
    second = aero_corners(x2, y2, rotation2, side)
    return aero_overlaps_polygon(x, y, rotation, side, hole, second) & aero_overlaps_polygon(
        x2, y2, rotation2, side, hole, first
    )
