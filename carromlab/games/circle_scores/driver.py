"""Whole Circle Scores games for the game loop (:func:`~carromlab.play.play_games`): the player
on turn shoots from the South of a view turned to their seat (player 1 sits North); a shot's
row is the machine's record of it."""

from __future__ import annotations

from typing import ClassVar

from carromlab.equipment.company import CrokinoleBoard
from carromlab.games.circle_scores import machine
from carromlab.play.drivers import TurnedDriver

#: Discs a kernel batch holds: the shooting ring and up to 16 rings, as in Force Out (the
#: opening has 8 object rings).
CAPACITY = 17


class CircleScoresDriver(TurnedDriver):
    """Circle Scores games for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CrokinoleBoard
    state_machine = machine
    totals: ClassVar[dict[str, tuple[str, ...]]] = {
        "rings_out": ("rings_out",),
        "shooter_in": ("shooter_in",),
    }
    #: what :meth:`_extra` returns
    extra_columns = ("rings_out", "shooter_in", "racks")

    def _extra(self, st, strokes) -> dict:
        return {**super()._extra(st, strokes), "racks": int(st.racks)}
