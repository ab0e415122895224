"""Where a shooting ring is played from on the crokinole side (seed 002).

Force Out: "from any point on the line of the larger outer circle on his side of the board".
Analysis views put the shooter on the South side, so the line is the outer circle's arc
between the two southern quadrant lines (the diagonals): angles -135 to -45 degrees. A shot's
*placement* is the angle (degrees counter-clockwise from +x) of its origin on that arc.

Fast Play Force Out: after the first shot the ring is played from wherever it lies: a
position's ``shooter`` piece is then the origin (the placement is ignored), as the Carrooka
striker is.

Decisions: the ring's centre sits on the line; both quadrant lines belong to the arc.

Shared by the crokinole-side games (Force Out, Fast Play, Circle Scores, Ring Pegs): the rings
in the kernel's order (``rings``), the scoring circle (``in_circle``), the centre hole's
capture code (``hole_code``) and which rings a stroke moved out of the circle
(``circle_moves``).
"""

from __future__ import annotations

import numpy as np

from carromlab.errors import CarromlabError
from carromlab.rules.outcome import lying_spot, without_kind

#: The South side's arc of the outer circle (degrees).
SOUTH_ARC = (-135.0, -45.0)
#: Tolerance of "on the line" / "at the ring's spot" (m).
TOL = 1e-6


def shooter_spot(position) -> tuple[float, float] | None:
    """Where a Fast Play shooting ring lies (None: in hand, on the line)."""
    return lying_spot(position, "shooter", "shooting rings on the board")


def table_position(position):
    """The kernel's view: the position without its ``shooter`` piece (the shooter is disc 0)."""
    return without_kind(position, "shooter")


def no_line(board) -> float:
    raise CarromlabError(
        "crokinole-side shots start on the outer circle (the analysis layer's origin())"
    )


def placement_intervals(board) -> list[tuple[float, float]]:
    return [SOUTH_ARC]


def arc_point(board, angle_deg) -> tuple[np.ndarray, np.ndarray]:
    a = np.radians(np.asarray(angle_deg, dtype=float))
    return board.outer_radius * np.cos(a), board.outer_radius * np.sin(a)


def origin(position, placement) -> tuple[np.ndarray, np.ndarray]:
    placement = np.atleast_1d(np.asarray(placement, dtype=float))
    spot = shooter_spot(position)
    if spot is not None:
        return np.full(placement.shape, spot[0]), np.full(placement.shape, spot[1])
    return arc_point(position.board, placement)


def free_of_rings(position, x, y) -> np.ndarray:
    """A shooting ring at (x, y) overlaps no other piece (touching allowed)."""
    x = np.atleast_1d(np.asarray(x, dtype=float))
    y = np.atleast_1d(np.asarray(y, dtype=float))
    specs = position.board.piece_specs()
    r = specs["shooter"].radius
    ok = np.isfinite(x) & np.isfinite(y)
    for p in position.pieces:
        if p.kind != "shooter":
            ok &= np.hypot(p.x - x, p.y - y) - r - specs[p.kind].radius >= -1e-9
    return ok


def legal_origin(position, x, y) -> np.ndarray:
    """At the shooting ring's spot when it lies on the board, else on the South arc of the
    outer circle; on no piece."""
    x = np.atleast_1d(np.asarray(x, dtype=float))
    y = np.atleast_1d(np.asarray(y, dtype=float))
    spot = shooter_spot(position)
    if spot is not None:
        at = np.hypot(x - spot[0], y - spot[1]) <= TOL
    else:
        ang = np.degrees(np.arctan2(y, x))
        on = np.abs(np.hypot(x, y) - position.board.outer_radius) <= TOL
        at = on & (ang >= SOUTH_ARC[0] - 1e-9) & (ang <= SOUTH_ARC[1] + 1e-9)
    return at & free_of_rings(position, x, y)


def rings(position) -> tuple:
    """The position's rings in the kernel's order after the shooting ring."""
    return tuple(p for p in position.pieces if p.kind != "shooter")


def in_circle(board, x, y) -> np.ndarray:
    """Centres inside the large outer circle."""
    return np.hypot(np.asarray(x, float), np.asarray(y, float)) <= board.outer_radius


def hole_code(board) -> int:
    names = [c.name for c in board.layout.captures]
    return names.index("hole")


def circle_moves(capture, x, y, position, rs):
    """For a batch of strokes over the rings ``rs`` of ``position`` (the shooting ring is disc
    0): ``holed`` and ``inside`` [B, 1 + rings] (in the centre hole; at rest on the board in
    the circle) and ``left`` [B, rings] (in the circle before, not after, not in the hole)."""
    board = position.board
    holed = capture == hole_code(board)
    inside = (capture < 0) & in_circle(board, x, y)
    before = in_circle(board, [p.x for p in rs], [p.y for p in rs])
    return holed, inside, before[None] & ~inside[:, 1:] & ~holed[:, 1:]
