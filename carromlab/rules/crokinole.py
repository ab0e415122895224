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
(``circle_moves``; ``ring_moves`` from the kernel's arrays); ``RestingRules``, the rules of a
stroke judged by where the discs come to rest (Force Out, Circle Scores).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from carromlab.equipment.company import CrokinoleBoard
from carromlab.errors import CarromlabError
from carromlab.rules.outcome import (
    VariantRules,
    check_discs,
    lying_spot,
    outcome_field,
    without_kind,
)

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.equipment.base import Board
    from carromlab.position import Piece, Position

#: The South side's arc of the outer circle (degrees).
SOUTH_ARC = (-135.0, -45.0)
#: Tolerance of "on the line" / "at the ring's spot" (m).
TOL = 1e-6


def crokinole_board(board: Board) -> CrokinoleBoard:
    """``board`` as the crokinole side (one clear line if it is another family's)."""
    if not isinstance(board, CrokinoleBoard):
        raise CarromlabError(
            f"a crokinole-side rule needs the crokinole board, not {board.family!r}"
        )
    return board


def shooter_spot(position: Position) -> tuple[float, float] | None:
    """Where a Fast Play shooting ring lies (None: in hand, on the line)."""
    return lying_spot(position, "shooter", "shooting rings on the board")


def table_position(position: Position) -> Position:
    """The kernel's view: the position without its ``shooter`` piece (the shooter is disc 0)."""
    return without_kind(position, "shooter")


def no_line(board: Board) -> float:
    raise CarromlabError(
        "crokinole-side shots start on the outer circle (the analysis layer's origin())"
    )


def placement_intervals(board: Board) -> list[tuple[float, float]]:
    return [SOUTH_ARC]


def arc_point(
    board: Board, angle_deg: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    a = np.radians(np.asarray(angle_deg, dtype=float))
    radius = crokinole_board(board).outer_radius
    return radius * np.cos(a), radius * np.sin(a)


def origin(
    position: Position, placement: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    placement = np.atleast_1d(np.asarray(placement, dtype=float))
    spot = shooter_spot(position)
    if spot is not None:
        return np.full(placement.shape, spot[0]), np.full(placement.shape, spot[1])
    return arc_point(position.board, placement)


def free_of_rings(position: Position, x: ArrayLike, y: ArrayLike) -> NDArray[np.bool_]:
    """A shooting ring at (x, y) overlaps no other piece (touching allowed)."""
    xs = np.atleast_1d(np.asarray(x, dtype=float))
    ys = np.atleast_1d(np.asarray(y, dtype=float))
    specs = position.board.piece_specs()
    r = specs["shooter"].radius
    ok: NDArray[np.bool_] = np.isfinite(xs) & np.isfinite(ys)
    for p in position.pieces:
        if p.kind != "shooter":
            ok &= np.hypot(p.x - xs, p.y - ys) - r - specs[p.kind].radius >= -1e-9
    return ok


def legal_origin(position: Position, x: ArrayLike, y: ArrayLike) -> NDArray[np.bool_]:
    """At the shooting ring's spot when it lies on the board, else on the South arc of the
    outer circle; on no piece."""
    xs = np.atleast_1d(np.asarray(x, dtype=float))
    ys = np.atleast_1d(np.asarray(y, dtype=float))
    spot = shooter_spot(position)
    if spot is not None:
        at = np.hypot(xs - spot[0], ys - spot[1]) <= TOL
    else:
        ang = np.degrees(np.arctan2(ys, xs))
        on = np.abs(np.hypot(xs, ys) - crokinole_board(position.board).outer_radius) <= TOL
        at = on & (ang >= SOUTH_ARC[0] - 1e-9) & (ang <= SOUTH_ARC[1] + 1e-9)
    return at & free_of_rings(position, xs, ys)


def rings(position: Position) -> tuple[Piece, ...]:
    """The position's rings in the kernel's order after the shooting ring."""
    return tuple(p for p in position.pieces if p.kind != "shooter")


def in_circle(board: Board, x: ArrayLike, y: ArrayLike) -> NDArray[np.bool_]:
    """Centres inside the large outer circle."""
    radius = crokinole_board(board).outer_radius
    inside: NDArray[np.bool_] = np.hypot(np.asarray(x, float), np.asarray(y, float)) <= radius
    return inside


def hole_code(board: Board) -> int:
    names = [c.name for c in board.layout.captures]
    return names.index("hole")


def circle_moves(
    capture: NDArray[np.integer],
    x: ArrayLike,
    y: ArrayLike,
    position: Position,
    rs: Sequence[Piece],
) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
    """For a batch of strokes over the rings ``rs`` of ``position`` (the shooting ring is disc
    0): ``holed`` and ``inside`` [B, 1 + rings] (in the centre hole; at rest on the board in
    the circle) and ``left`` [B, rings] (in the circle before, not after, not in the hole)."""
    board = position.board
    holed = capture == hole_code(board)
    inside = (capture < 0) & in_circle(board, x, y)
    before = in_circle(board, [p.x for p in rs], [p.y for p in rs])
    return holed, inside, before[None] & ~inside[:, 1:] & ~holed[:, 1:]


def ring_moves(
    capture: ArrayLike, x: ArrayLike, y: ArrayLike, position: Position, what: str
) -> tuple[tuple[Piece, ...], NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
    """A batch of strokes from the kernel's arrays (``capture``, ``x``, ``y``: [B, 1 + rings],
    the shooting ring disc 0) over ``position``'s rings: the rings and their
    :func:`circle_moves` (``holed``, ``inside``, ``left``). A disc count that is not the
    shooting ring and the rings is refused, naming them as ``what``."""
    discs = np.atleast_2d(np.asarray(capture))
    xs = np.atleast_2d(np.asarray(x, float))
    ys = np.atleast_2d(np.asarray(y, float))
    rs = rings(position)
    check_discs(discs, rs, position, what)
    holed, inside, left = circle_moves(discs, xs, ys, position, rs)
    return rs, holed, inside, left


class RestingRules(VariantRules):
    """The rules of a crokinole-side stroke judged by where the discs come to rest and what
    the holes and pockets took (Force Out, Circle Scores): :meth:`evaluate` reads the
    kernel's ``capture``, ``x`` and ``y`` and gives them to the variant's :meth:`judge`."""

    # Any (turn, scoring): each variant's own turn-state and scoring types
    def judge(
        self,
        capture: ArrayLike,
        x: ArrayLike,
        y: ArrayLike,
        position: Position,
        turn: Any,
        scoring: Any,
    ) -> dict[str, NDArray[Any]]:
        """Per shot (the kernel's [B, 1 + rings] arrays): the variant's quantities."""
        raise NotImplementedError(f"{type(self).__name__} judges no stroke")

    def evaluate(
        self, position: Position, outcome_arrays: object, turn: Any = None, scoring: Any = None
    ) -> dict[str, NDArray[Any]]:
        """``outcome_arrays``: a mapping (or ``ShotOutcome``) with ``capture``, ``x``, ``y``."""
        return self.judge(
            outcome_field(outcome_arrays, "capture"),
            outcome_field(outcome_arrays, "x"),
            outcome_field(outcome_arrays, "y"),
            position,
            turn,
            scoring,
        )
