"""Whole Circle Scores games for the game loop (:func:`~carromlab.play.play_games`): the player
on turn shoots from the South of a view turned to their seat (player 1 sits North)."""

from __future__ import annotations

from carromlab.equipment.company import CrokinoleBoard
from carromlab.games.circle_scores.machine import apply, new_game
from carromlab.play.drivers import TurnedDriver

#: Discs a kernel batch holds: the shooting ring and up to 16 rings, as in Force Out (the
#: opening has 8 object rings).
CAPACITY = 17


class CircleScoresDriver(TurnedDriver):
    """Circle Scores games for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CrokinoleBoard

    def new_state(self, g: int):
        return new_game(self.config)

    def _apply(self, gm, outcome) -> dict:
        gm.state = apply(gm.state, outcome, self.config)
        last = gm.state.history[-1]
        return {
            "player": last.player,
            "points": last.points,
            "shooter_in": last.shooter_in,
            "rings_out": last.rings_out,
            "racked": last.racked,
        }

    def _extra(self, st, strokes) -> dict:
        return {
            "rings_out": self._total(strokes, "rings_out"),
            "shooter_in": self._total(strokes, "shooter_in"),
            "racks": int(st.racks),
        }
