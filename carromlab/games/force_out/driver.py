"""Whole Force Out games (and Fast Play) for the game loop (:func:`~carromlab.play.play_games`):
the player on turn shoots from the South of a view turned to their seat (player 1 sits North);
in Fast Play the one shooting ring stays where it lies."""

from __future__ import annotations

from typing import ClassVar

from carromlab.equipment.company import CrokinoleBoard
from carromlab.games.force_out import machine
from carromlab.play.drivers import TurnedDriver

#: The shooting ring and 16 rings.
CAPACITY = 17


class ForceOutDriver(TurnedDriver):
    """Whole Force Out games (and Fast Play) for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CrokinoleBoard
    state_machine = machine
    totals: ClassVar[dict[str, tuple[str, ...]]] = {
        "penalties": ("penalty",),
        "forced_out": ("opponent_out", "own_out"),
        "holed": ("holed",),
    }
    #: what :meth:`_extra` returns
    extra_columns = ("rounds", "penalties", "forced_out", "holed")

    def __init__(self, config):
        super().__init__(config)
        self.lies = bool(config.fast)  # Fast Play: the ring stays where it lies

    def stroke_row(self, gm, before) -> dict:
        last = gm.state.history[-1]
        return {
            "round": before.round,
            "player": last.player,
            "opponent_out": last.opponent_out,
            "own_out": last.own_out,
            "holed": sum(last.holed),
            "penalty": last.penalty,
            "returned": last.returned is not None,
            "continues": last.continues,
        }

    def _extra(self, st, strokes) -> dict:
        return {"rounds": int(st.round), **super()._extra(st, strokes)}
