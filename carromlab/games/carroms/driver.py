"""Whole Carroms games for the game loop (:func:`~carromlab.play.play_games`): the player on
turn shoots from the South shooting line of a view turned to their seat (player 1 sits
North), as in standard carrom; the machine plays the boards to the target."""

from __future__ import annotations

from carromlab.equipment.company import CheckerBoard
from carromlab.games.carroms.machine import apply, new_game
from carromlab.play.drivers import TurnedDriver

#: The shooting ring, 24 rings and the black.
CAPACITY = 26


class CarromsDriver(TurnedDriver):
    """Whole Carroms games for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CheckerBoard

    def new_state(self, g: int):
        return new_game(self.config)

    def _apply(self, gm, outcome) -> dict:
        before = gm.state
        gm.state = apply(before, outcome, self.config)
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
        return {
            "boards": int(st.boards) + (0 if st.board_strokes == 0 else 1),
            "fouls": self._total(strokes, "foul"),
        }
