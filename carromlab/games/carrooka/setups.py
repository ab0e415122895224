"""The Carrooka opening: 15 reds in a touching triangle at the centre, colours on their spots.

Decision (seed 000 is silent): the triangle's centroid is the board centre and its apex points
at -y; rows touch (close packing). The striker is not part of the opening: the first shot is
played from the break line.
"""

from __future__ import annotations

import math

from carromlab.equipment import COLOURS, CarrookaBoard
from carromlab.position import Piece, Position


def red_triangle(board: CarrookaBoard, rows: int = 5) -> list[Piece]:
    d = board.puck_diameter
    h = d * math.sqrt(3) / 2  # row spacing of touching rows
    pts = []
    for row in range(rows):  # row 0 is the apex, at -y
        for j in range(row + 1):
            pts.append(((j - row / 2) * d, row * h))
    cy = sum(y for _, y in pts) / len(pts)
    return [Piece(f"r{i + 1}", "red", None, x, y - cy) for i, (x, y) in enumerate(pts)]


def carrooka_opening(board: CarrookaBoard | None = None) -> Position:
    board = board or CarrookaBoard()
    spots = board.spots()
    pieces = red_triangle(board) + [Piece(c, c, None, *spots[c]) for c in COLOURS]
    return Position(
        "carrooka",
        tuple(pieces),
        board,
        name="carrooka-opening",
        description="15 reds in a touching triangle at the centre (apex towards -y); the six "
        "colours on their spots.",
        set_by_hand=True,
    )


def carrooka_midgame(board: CarrookaBoard | None = None) -> Position:
    """A hand-made middle game: six reds left, the colours on their spots, the striker resting
    below the centre. A position for examples and notebooks (which colour to nominate, shot
    maps from where the striker lies)."""
    board = board or CarrookaBoard()
    spots = board.spots()
    reds = [(-0.02, 0.05), (0.10, 0.02), (-0.16, -0.18), (0.22, 0.19), (0.04, 0.28), (-0.30, 0.02)]
    pieces = [Piece(f"r{k + 1}", "red", None, x, y) for k, (x, y) in enumerate(reds)]
    pieces += [Piece(c, c, None, *spots[c]) for c in COLOURS]
    pieces.append(Piece("striker", "striker", None, 0.03, -0.17))
    return Position(
        "carrooka",
        tuple(pieces),
        board,
        name="carrooka-midgame",
        description="Six reds left, the colours on their spots, the striker resting below the "
        "centre (it is played from where it lies).",
    )
