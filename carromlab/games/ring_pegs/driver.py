"""Whole Ring Pegs games for the game loop (:func:`~carromlab.play.play_games`): the player on
turn starts South of a view turned to their seat, both shooting rings where they lie; the
active ring is played from where it lies."""

from __future__ import annotations

from carromlab.equipment.company import CrokinoleBoard
from carromlab.games.ring_pegs.machine import apply, new_game
from carromlab.play.drivers import TurnedDriver

#: The active ring, the opponent's ring and 8 pegged rings.
CAPACITY = 10


class RingPegsDriver(TurnedDriver):
    """Whole Ring Pegs games for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CrokinoleBoard
    lies = True

    def new_state(self, g: int):
        return new_game(self.config)

    def board_position(self, state):
        return state.board_position()

    def _apply(self, gm, outcome) -> dict:
        gm.state = apply(gm.state, outcome, self.config)
        last = gm.state.history[-1]
        return {
            "player": last.player,
            "stage": last.stage,
            "passed": last.passed,
            "finished": last.finished,
            "touched_pegged": last.touched_pegged,
            "cleared": last.cleared,
        }

    def scores(self, state) -> tuple[int, int]:
        return int(state.winner == 0), int(state.winner == 1)

    def _extra(self, st, strokes) -> dict:
        return {
            "passes": self._total(strokes, "passed"),
            "touched_pegged": self._total(strokes, "touched_pegged"),
            "clearing_hits": self._total(strokes, "cleared"),
        }
