"""Free spots: where a piece put back on the board may go (shared by the games that return
pieces: ICF decision 10, Carroms' forfeits).

``nearest_free_spot(position, r, zone)`` is the free spot nearest to the board's centre for a
piece of radius ``r``: candidates are the points where the piece touches two obstacles (or
one obstacle and the zone's edge), taken nearest the centre first, then a widened search over
the whole surface on a ``WIDE_STEP`` grid. Obstacles are the pieces on the board (and, with no
zone, the pockets); touching is allowed within ``TOUCH_TOLERANCE``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from carromlab.position import OVERLAP_TOLERANCE, Position

#: Grid step (m) of the widened search over the whole surface.
WIDE_STEP = 0.001
#: A placed piece may touch its neighbours: it may interpenetrate one by at most this (m),
#: half what ``Position.validate`` tolerates (the rosette's coins touch to within rounding).
TOUCH_TOLERANCE = OVERLAP_TOLERANCE / 2


def _wide_grid(step: float, half: float) -> np.ndarray:
    """A grid over the square surface, nearest to the centre first (ties: by angle)."""
    n = int(half // step)
    g = np.arange(-n, n + 1) * step
    x, y = np.meshgrid(g, g)
    pts = np.column_stack([x.ravel(), y.ravel()])
    out = _ordered(pts)
    out.setflags(write=False)
    return out


def _angle(pts: np.ndarray) -> NDArray[np.float64]:
    """Angle counter-clockwise from +x, in [0, 2 pi)."""
    angle: NDArray[np.float64] = np.mod(np.arctan2(pts[:, 1], pts[:, 0]), 2 * math.pi)
    return angle


def _ordered(pts: np.ndarray) -> np.ndarray:
    """Nearest to the centre first; ties (to 1e-12 m) by angle counter-clockwise from +x."""
    order = np.lexsort((np.round(_angle(pts), 12), np.round(np.hypot(pts[:, 0], pts[:, 1]), 12)))
    return pts[order]


def _circle_pairs(ca: np.ndarray, ra: np.ndarray, cb: np.ndarray, rb: np.ndarray) -> np.ndarray:
    """Intersection points of circles (ca[k], ra[k]) and (cb[k], rb[k]), pair by pair."""
    dx, dy = cb[:, 0] - ca[:, 0], cb[:, 1] - ca[:, 1]
    d = np.hypot(dx, dy)
    ok = (d > 1e-12) & (d <= ra + rb + 1e-12) & (d >= np.abs(ra - rb) - 1e-12)
    if not ok.any():
        return np.zeros((0, 2))
    ca, ra, rb, dx, dy, d = ca[ok], ra[ok], rb[ok], dx[ok], dy[ok], d[ok]
    a = (ra**2 - rb**2 + d**2) / (2 * d)
    h = np.sqrt(np.maximum(ra**2 - a**2, 0.0))
    mx, my = ca[:, 0] + a * dx / d, ca[:, 1] + a * dy / d
    px, py = -dy / d * h, dx / d * h
    return np.concatenate(
        [np.column_stack([mx + px, my + py]), np.column_stack([mx - px, my - py])]
    )


def _nearest_candidates(centres: np.ndarray, rho: np.ndarray, zone: float | None) -> np.ndarray:
    """Every point where the nearest free spot to the board's centre can lie (decision 10):
    the centre; on each forbidden circle (centre ``centres[i]``, radius ``rho[i]``) the two
    points in line with the board's centre; the circles' pairwise intersections; and their
    intersections with the zone's circle (radius ``zone``, when given)."""
    pts = [np.zeros((1, 2))]
    if len(rho):
        dist = np.hypot(centres[:, 0], centres[:, 1])
        safe = np.where(dist > 1e-12, dist, 1.0)
        u = np.where((dist > 1e-12)[:, None], centres / safe[:, None], np.array([[1.0, 0.0]]))
        pts += [centres - rho[:, None] * u, centres + rho[:, None] * u]
        i, j = np.triu_indices(len(rho), k=1)
        pts.append(_circle_pairs(centres[i], rho[i], centres[j], rho[j]))
        if zone is not None:
            zc = np.zeros_like(centres)
            pts.append(_circle_pairs(centres, rho, zc, np.full(len(rho), zone)))
    return np.concatenate(pts)


def _obstacles(position: Position) -> tuple[np.ndarray, np.ndarray]:
    if not position.pieces:
        return np.zeros((0, 2)), np.zeros(0)
    xy = np.array([[p.x, p.y] for p in position.pieces], dtype=float)
    return xy, position.radii()


def _free(
    position: Position,
    pts: np.ndarray,
    r: float,
    xy: np.ndarray | None = None,
    radii: np.ndarray | None = None,
) -> NDArray[np.bool_]:
    """Which candidate centres are legal and free for a piece of radius ``r`` (``xy``,
    ``radii``: the position's obstacles, :func:`_obstacles`, when already at hand)."""
    if xy is None or radii is None:
        xy, radii = _obstacles(position)
    layout = position.board.layout
    # the equipment's geometry is not annotated yet: its test gives a boolean array
    inside = layout.surface.contains(pts[:, 0], pts[:, 1], r)  # type: ignore[no-untyped-call]
    ok: NDArray[np.bool_] = np.asarray(inside, dtype=np.bool_)
    for cap in layout.captures:
        ok &= np.hypot(pts[:, 0] - cap.x, pts[:, 1] - cap.y) >= cap.radius
    if len(radii):
        d = np.hypot(pts[:, None, 0] - xy[None, :, 0], pts[:, None, 1] - xy[None, :, 1])
        ok &= (d >= radii[None, :] + r - TOUCH_TOLERANCE).all(axis=1)
    return ok


def _first_free(
    position: Position, pts: np.ndarray, r: float, chunk: int = 4096
) -> tuple[float, float] | None:
    xy, radii = _obstacles(position)
    for start in range(0, len(pts), chunk):
        block = pts[start : start + chunk]
        ok = _free(position, block, r, xy, radii)
        if ok.any():
            x, y = block[int(np.argmax(ok))]
            return float(x), float(y)
    return None


def nearest_free_spot(
    position: Position, r: float, zone: float | None = None
) -> tuple[float, float] | None:
    """The free spot nearest to the board's centre for a piece of radius ``r`` whose centre
    lies within ``zone`` of the centre (None: anywhere on the surface); None if there is none
    (decision 10)."""
    xy, radii = _obstacles(position)
    centres, rho = xy, radii + r
    if zone is None:
        caps = position.board.layout.captures
        if caps:
            centres = np.concatenate([xy, [[c.x, c.y] for c in caps]])
            rho = np.concatenate([rho, [c.radius for c in caps]])
    pts = _nearest_candidates(centres, rho, zone)
    if zone is not None:
        pts = pts[np.hypot(pts[:, 0], pts[:, 1]) <= zone + 1e-12]
    spot = _first_free(position, _ordered(pts), r)
    if zone is None:
        grid = _first_free(position, _wide_grid(WIDE_STEP, position.board.layout.surface.size), r)
        if spot is None or (grid is not None and math.hypot(*grid) < math.hypot(*spot) - 1e-12):
            spot = grid
    return spot
