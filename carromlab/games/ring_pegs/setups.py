"""The Ring Pegs opening (Carrom Company rule book, seed 002): one ring over each peg."""

from __future__ import annotations

from carromlab.equipment import CrokinoleBoard
from carromlab.position import Piece, Position


def ring_pegs_opening(board: CrokinoleBoard | None = None) -> Position:
    board = board or CrokinoleBoard()
    pieces = [
        Piece(f"g{k + 1}", "ring", None, x, y) for k, (x, y) in enumerate(board.peg_centres())
    ]
    return Position(
        "ring-pegs",
        tuple(pieces),
        board,
        name="ring-pegs-opening",
        description="One green ring over each of the 8 pegs.",
    )
