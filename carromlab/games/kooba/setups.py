"""The KOOBA opening: the KOOBA on the centre of the Eye, each player's marker on their Home.

Seats are taken clockwise from North (seed 003: player 1 starts in the North run).
"""

from __future__ import annotations

from carromlab.equipment import SEATS, KoobaBoard
from carromlab.position import Piece, Position


def kooba_opening(board: KoobaBoard | None = None, n_players: int = 4) -> Position:
    board = board or KoobaBoard()
    if not 2 <= n_players <= 4:
        raise ValueError(f"KOOBA is for 2-4 players, not {n_players}")
    pieces = [Piece("kooba", "kooba", None, 0.0, 0.0)]
    for seat in SEATS[:n_players]:
        pieces.append(Piece(f"marker.{seat}", "marker", seat, *board.home_centre(seat)))
    return Position(
        "kooba",
        tuple(pieces),
        board,
        name="kooba-opening" if n_players == 4 else f"kooba-opening-{n_players}p",
        description=f"The KOOBA on the centre; markers on Home for {n_players} players "
        "(seats clockwise from North).",
    )
