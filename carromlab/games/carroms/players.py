"""Whole Carroms games (checker side): the default player and the game driver of
:func:`~carromlab.play.play_games`.

The player on turn shoots from the South shooting line of a turned view (player 1 sits
North), as in standard carrom. :class:`CarromsGreedy` is the ICF greedy player aimed at the
shooter's own rings and the black (direct cuts and one-cushion banks from every 5 cm of the
line, screened, the best re-estimated), valued by the Carroms stroke value (own ring +1,
black +5, opponent's ring -1, a forfeited ring -1). By default it screens every stroke, the
break too; with ``break_shot="search"`` (the registry's ``greedy-break``) it plays the searched
break of its seat's view (``carromlab/games/carroms/breaks.json``; South breaks red, North
green, and the two see different racks: the second shell's alternating colours are not swapped
by the half turn).
"""

from __future__ import annotations

from dataclasses import dataclass

from carromlab.analysis.policies import Greedy
from carromlab.equipment.company import CheckerBoard
from carromlab.games.carroms.machine import apply, new_game
from carromlab.play.drivers import TurnedDriver

#: The shooting ring, 24 rings and the black.
CAPACITY = 26


@dataclass
class CarromsGreedy(Greedy):
    """:class:`~carromlab.analysis.policies.Greedy` aimed at own rings and the black."""

    capacity: int = CAPACITY
    break_shot: tuple[float, float, float] | None = None

    def targets(self, position, turn) -> list[str]:
        return [
            p.id
            for p in position.pieces
            if (p.kind == "ring" and p.owner == turn.shooter) or p.kind == "black"
        ]


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
