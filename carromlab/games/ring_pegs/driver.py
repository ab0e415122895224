"""Whole Ring Pegs games for the game loop (:func:`~carromlab.play.play_games`): the player on
turn starts South of a view turned to their seat, both shooting rings where they lie; the
active ring is played from where it lies, and a stroke's row is the machine's record of it.
The game's row scores 1 for the winner."""

from __future__ import annotations

from typing import ClassVar

from carromlab.equipment.company import CrokinoleBoard
from carromlab.games.ring_pegs import machine
from carromlab.play.drivers import TurnedDriver

#: The active ring, the opponent's ring and 8 pegged rings.
CAPACITY = 10


class RingPegsDriver(TurnedDriver):
    """Whole Ring Pegs games for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CrokinoleBoard
    lies = True
    state_machine = machine
    totals: ClassVar[dict[str, tuple[str, ...]]] = {
        "passes": ("passed",),
        "touched_pegged": ("touched_pegged",),
        "clearing_hits": ("cleared",),
    }

    def board_position(self, state):
        return state.board_position()

    def scores(self, state) -> tuple[int, int]:
        return int(state.winner == 0), int(state.winner == 1)
