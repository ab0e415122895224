"""The Carroms opening (Carrom Company rule book, seed 002): the black in the middle, the 24
rings close-packed around it in hexagonal shells (6, 12, then the 6 straight-out places of the
third shell), colours alternating in each shell (a decision: the book is silent)."""

from __future__ import annotations

from carromlab.equipment import CheckerBoard
from carromlab.layout import alternate_colours, hex_shell
from carromlab.position import Piece, Position


def carroms_opening(board: CheckerBoard | None = None) -> Position:
    board = board or CheckerBoard()
    d = board.ring_diameter
    counters = {"red": 0, "green": 0}
    pieces = [Piece("black", "black", None, 0.0, 0.0)]
    pieces += alternate_colours(hex_shell(1, d), counters=counters)
    pieces += alternate_colours(hex_shell(2, d), counters=counters)
    pieces += alternate_colours(
        hex_shell(3, d)[::3], counters=counters
    )  # the 6 straight-out places
    return Position(
        "carroms",
        tuple(pieces),
        board,
        name="carroms-opening",
        description="Black in the middle, 12 red and 12 green rings close-packed around it, "
        "colours alternating in each shell.",
        set_by_hand=True,
    )
