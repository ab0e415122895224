"""Where the Carrooka striker is played from (seed 000).

The striker is not returned like a carrom striker: it is played from wherever it stopped. The
first shot of the game is played from the break line (the circle around the triangle), and
after a foul the striker goes back to the break line. A position's ``striker`` piece, when it
has one, is where the striker lies; without one the striker is in hand on the break line.

Decisions where seed 000 is silent (each one documented here and tested):

1. Placement on the break line: the striker's centre on the break circle. For analysis a
   break-line origin is given by its angle in degrees counter-clockwise from +x.
2. After a foul the striker goes to the break-line point in the direction of where it came to
   rest (a pocketed striker: of the pocket) - the nearest point of the line - or, if a piece
   covers that point, the nearest free point along the line (steps of 0.5 deg, alternating
   sides). The Carrooka'd option "return to the break line" lets the shooter move it to any
   free point of the line with a clear line at the piece on.
3. Margin line: "lands over the margin line" means the striker's disc crosses the margin
   circle (centre distance + radius > margin radius). The relocation moves it the shortest
   way out from the rail - towards the centre - until its edge just touches the line from
   inside (centre distance = margin radius - striker radius); if a piece is in the way it
   goes further in, in 1 mm steps, to the first free place. The rule allows the move; the
   game machine makes it always (an option: ``CarrookaConfig.margin_relocation``).
4. "A clear line at the piece on" (Carrooka'd): the striker's swept path from its centre
   straight to the contact with a target piece's centre (full-ball) touches no other piece.
"""

from __future__ import annotations

import math

import numpy as np

from carromlab.equipment.geometry import segment_clear
from carromlab.errors import CarromlabError
from carromlab.rules.outcome import without_kind

#: Tolerance of "the striker is at its spot / on the break line" (m).
SPOT_TOL = 1e-6


def _radii(position):
    specs = position.board.piece_specs()
    return specs["striker"].radius, specs


def table_position(position):
    """The kernel's view: the position without its ``striker`` piece (the striker is disc 0)."""
    return without_kind(position, "striker")


def no_line(board) -> float:
    raise CarromlabError(
        "carrooka shots have no shooting line: the striker is played from where it lies "
        "(the analysis layer's origin())"
    )


def placement_intervals(board) -> list[tuple[float, float]]:
    """Break-line placements: any angle (degrees)."""
    return [(-180.0, 180.0)]


def break_point(board, angle_deg) -> tuple[np.ndarray, np.ndarray]:
    """Points of the break line at these angles (degrees)."""
    a = np.radians(np.asarray(angle_deg, dtype=float))
    return board.break_radius * np.cos(a), board.break_radius * np.sin(a)


def origin(position, placement) -> tuple[np.ndarray, np.ndarray]:
    """Shot origins: the striker's spot if the position has one (placement ignored), else the
    break-line points at the placements' angles (degrees)."""
    from carromlab.games.carrooka.rules import striker_spot

    placement = np.atleast_1d(np.asarray(placement, dtype=float))
    spot = striker_spot(position)
    if spot is not None:
        return np.full(placement.shape, spot[0]), np.full(placement.shape, spot[1])
    return break_point(position.board, placement)


def free_of_pucks(position, x, y, gap: float = -1e-9) -> np.ndarray:
    """True where a striker centred at (x, y) overlaps no puck (touching is allowed) and lies
    on the playing surface."""
    x = np.atleast_1d(np.asarray(x, dtype=float))
    y = np.atleast_1d(np.asarray(y, dtype=float))
    r_s, specs = _radii(position)
    ok = np.isfinite(x) & np.isfinite(y)
    ok &= np.hypot(x, y) <= position.board.radius - r_s + 1e-9
    for p in position.pieces:
        if p.kind != "striker":
            ok &= np.hypot(p.x - x, p.y - y) - r_s - specs[p.kind].radius >= gap
    return ok


def legal_origin(position, x, y) -> np.ndarray:
    """Origins at the striker's spot (if the position has one) or on the break line, on the
    surface and overlapping no puck."""
    from carromlab.games.carrooka.rules import striker_spot

    x = np.atleast_1d(np.asarray(x, dtype=float))
    y = np.atleast_1d(np.asarray(y, dtype=float))
    spot = striker_spot(position)
    if spot is not None:
        at = np.hypot(x - spot[0], y - spot[1]) <= SPOT_TOL
    else:
        at = np.abs(np.hypot(x, y) - position.board.break_radius) <= SPOT_TOL
    return at & free_of_pucks(position, x, y)


def nearest_free_break_point(position, toward_xy, step_deg: float = 0.5) -> tuple[float, float]:
    """Decision 2: the break-line point in the direction of ``toward_xy``, or the nearest free
    one along the line."""
    a0 = math.degrees(math.atan2(toward_xy[1], toward_xy[0])) if np.any(toward_xy) else -90.0
    k = np.arange(0, int(180 / step_deg) + 1)
    offsets = np.stack([k, -k], axis=1).ravel()[1:] * step_deg  # 0, +s, -s, +2s, ...
    xs, ys = break_point(position.board, a0 + offsets)
    ok = free_of_pucks(position, xs, ys)
    if not ok.any():
        raise CarromlabError("no free point on the break line for the striker")
    i = int(np.argmax(ok))
    return float(xs[i]), float(ys[i])


def over_margin(board, x: float, y: float) -> bool:
    """Decision 3: the striker's disc crosses the margin circle."""
    return math.hypot(x, y) + board.striker_diameter / 2 > board.margin_radius + 1e-9


def margin_relocation(position, x: float, y: float, step: float = 0.001) -> tuple[float, float]:
    """Decision 3: where a striker resting at (x, y) over the margin line is moved to (its own
    place if it is not over the line)."""
    board = position.board
    if not over_margin(board, x, y):
        return float(x), float(y)
    d = math.hypot(x, y)
    ux, uy = (x / d, y / d) if d > 0 else (0.0, -1.0)
    rho = board.margin_radius - board.striker_diameter / 2
    radii = rho - step * np.arange(int(rho / step) + 1)
    ok = free_of_pucks(position, ux * radii, uy * radii)
    if not ok.any():
        raise CarromlabError("no free place inside the margin line for the striker")
    r = float(radii[int(np.argmax(ok))])
    return ux * r, uy * r


def clear_lines(position, x: float, y: float, mask: np.ndarray) -> np.ndarray:
    """Decision 4: for every puck (``mask`` selects the candidates), whether the striker at
    (x, y) has a clear straight line to a full-ball contact with it."""
    from carromlab.games.carrooka.rules import pucks

    ps = pucks(position)
    r_s, specs = _radii(position)
    px = np.array([p.x for p in ps])
    py = np.array([p.y for p in ps])
    pr = np.array([specs[p.kind].radius for p in ps])
    out = np.zeros(len(ps), dtype=bool)
    idx = np.flatnonzero(np.asarray(mask, dtype=bool))
    if not len(idx):
        return out
    dx, dy = px[idx] - x, py[idx] - y
    dist = np.hypot(dx, dy)
    reach = np.clip(dist - (r_s + pr[idx]), 0.0, None)
    with np.errstate(invalid="ignore", divide="ignore"):
        ex = x + np.where(dist > 0, dx / dist, 0.0) * reach
        ey = y + np.where(dist > 0, dy / dist, 0.0) * reach
    skip = idx[:, None] == np.arange(len(ps))[None]
    out[idx] = segment_clear(
        np.full(len(idx), x), np.full(len(idx), y), ex, ey, px, py, pr, r_s - 1e-9, skip
    )
    return out


def clear_break_points(position, mask: np.ndarray, step_deg: float = 1.0) -> np.ndarray:
    """Angles (degrees) of the free break-line points with a clear line at some masked puck."""
    angles = np.arange(-180.0, 180.0, step_deg)
    xs, ys = break_point(position.board, angles)
    ok = free_of_pucks(position, xs, ys)
    keep = [
        a
        for a, x, y, free in zip(angles, xs, ys, ok)
        if free and clear_lines(position, x, y, mask).any()
    ]
    return np.array(keep, dtype=float)
