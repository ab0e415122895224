"""Whole ICF games for the game loop: the board is turned so that the player on strike sits
South, and the ICF machine applies the laws; a finished board adds a row of its own."""

from __future__ import annotations

import pandas as pd

from carromlab.equipment import IcfBoard
from carromlab.games.icf import machine
from carromlab.games.icf.machine import apply
from carromlab.play.drivers import SEAT_ANGLE, RowColumns, TurnedDriver
from carromlab.play.log import GAME_ROW_COLUMNS
from carromlab.play.loop import GameInPlay, GameRecord

CAPACITY = 20  # the striker and the 19 pieces of a board

#: A finished board's row (:meth:`IcfDriver._board_done`), in order.
BOARD_COLUMNS = (
    "game",
    "board",
    "breaker",
    "breaker_side",
    "winner",
    "points",
    "strokes",
    "queen_side",
    "queen_covered",
    "striker_pocketed",
)


class IcfDriver(TurnedDriver):
    """Whole ICF games for :func:`play_games`: the board is turned so that the player on
    strike sits South, and :func:`~carromlab.games.icf.machine.apply` applies the laws. The
    strokes' rows name the board, the seat, the pieces pocketed and the striker; a finished
    board adds a row to the record's boards."""

    capacity = CAPACITY
    board_type = IcfBoard
    state_machine = machine

    def on_strike(self, gm: GameInPlay) -> None:
        board = gm.state.board
        self.turn_to(gm, board.turn, board.position, board.turn_state(self.config.due_rule))

    def placement(self, gm: GameInPlay):
        """The placement policy of the seat that places returned and penalty coins (the next
        seat: an opponent of the shooter, singles or doubles), when its player offers one
        (``placement_for``); None: the game's rule."""
        board = gm.state.board
        placer = (gm.seat + 1) % self.n_seats
        offer = getattr(gm.policies[placer], "placement_for", None)
        if offer is None:
            return None
        seats = self.config.seats
        angle = {}
        for seat in (gm.seat, placer):  # the shooter's side and the placer's side
            angle[board.colour(seat % 2)] = SEAT_ANGLE[seats[seat]]
        return offer(angle, board.colour(placer % 2), gm.stroke_seed)

    def _apply(self, gm: GameInPlay, outcome) -> dict:
        before = gm.state.boards_played
        gm.state = apply(gm.state, outcome, self.config, gm.rng, placement=self.placement(gm))
        striker_pocketed = bool(outcome.capture[0] >= 0)
        if gm.state.boards_played > before:
            self._board_done(gm, before, striker_pocketed)
        return {
            "board": before,
            "seat": gm.seat,
            "pocketed": int((outcome.capture[1:] >= 0).sum()),
            "striker_pocketed": striker_pocketed,
        }

    def _board_done(self, gm: GameInPlay, board: int, striker_pocketed: bool) -> None:
        """The row of board ``board``, finished by the stroke in hand (``striker_pocketed``:
        its striker went down; the board's earlier strokes are in ``gm.strokes``)."""
        last = gm.state.last_board
        earlier = sum(1 for r in gm.strokes if r["board"] == board and r["striker_pocketed"])
        gm.boards.append(
            {
                "game": gm.index,
                "board": board,
                "breaker": last.breaker,  # seat
                "breaker_side": last.breaker % 2,
                "winner": last.winner,  # side
                "points": last.points,
                "strokes": last.strokes,
                "queen_side": -1 if last.queen_side is None else last.queen_side,
                "queen_covered": last.queen == "covered",
                "striker_pocketed": earlier + int(striker_pocketed),
            }
        )

    def row_columns(self) -> RowColumns:
        """The game row is the log's (:func:`~carromlab.play.log.game_row`: the record
        carries none); a board row :data:`BOARD_COLUMNS`."""
        return RowColumns(GAME_ROW_COLUMNS, BOARD_COLUMNS)

    def record(self, gm: GameInPlay) -> GameRecord:
        return GameRecord(gm.state, pd.DataFrame(gm.strokes), pd.DataFrame(gm.boards))
