"""The Circle Scores opening (Carrom Company rule book, seed 002): 8 object rings on a 5 cm
circle inside the small circle (a decision)."""

from __future__ import annotations

import math

from carromlab.equipment import CrokinoleBoard
from carromlab.layout import circle_points
from carromlab.position import Piece, Position


def circle_scores_opening(board: CrokinoleBoard | None = None, n_rings: int = 8) -> Position:
    board = board or CrokinoleBoard()
    pts = circle_points(n_rings, 0.05, math.pi / 2)
    pieces = [Piece(f"g{k + 1}", "ring", None, x, y) for k, (x, y) in enumerate(pts)]
    return Position(
        "circle-scores",
        tuple(pieces),
        board,
        name="circle-scores-opening",
        description=f"{n_rings} object rings on a 5 cm circle inside the small circle.",
    )
