"""Whole Carroms games for the game loop (:func:`~carromlab.play.play_games`): the player on
turn shoots from the South shooting line of a view turned to their seat (player 1 sits
North), as in standard carrom; the machine plays the boards to the target."""

from __future__ import annotations

from typing import ClassVar

from carromlab.equipment.company import CheckerBoard
from carromlab.games.carroms import machine
from carromlab.play.drivers import TurnedDriver

#: The shooting ring, 24 rings and the black.
CAPACITY = 26


class CarromsDriver(TurnedDriver):
    """Whole Carroms games for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CheckerBoard
    state_machine = machine
    totals: ClassVar[dict[str, tuple[str, ...]]] = {"fouls": ("foul",)}
    #: what :meth:`_extra` returns
    extra_columns = ("boards", "fouls")

    def stroke_row(self, gm, before) -> dict:
        last = gm.state.history[-1]
        return {
            "board": before.boards,
            "player": last.player,
            "own": last.own,
            "opponent": last.opponent,
            "black": last.black,
            "foul": last.foul,
            "forfeit": last.forfeited is not None,
            "continues": last.continues,
        }

    def _extra(self, st, strokes) -> dict:
        boards = int(st.boards) + (0 if st.board_strokes == 0 else 1)
        return {"boards": boards, **super()._extra(st, strokes)}
