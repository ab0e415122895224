"""Carroms' player (checker side): the line boards' greedy player aimed at Carroms' targets.

:class:`CarromsGreedy` is :class:`~carromlab.analysis.policies.Greedy` aimed at the shooter's
own rings and the black (direct cuts and one-cushion banks from every 5 cm of the shooting
line, screened, the best re-estimated), valued by the Carroms stroke value (own ring +1,
black +5, opponent's ring -1, a forfeited ring -1). By default it screens every stroke, the
break too; with ``break_shot="search"`` (the registry's ``greedy-break``) it plays the searched
break of its seat's view (``carromlab/games/carroms/breaks.json``; South breaks red, North
green, and the two see different racks: the second shell's alternating colours are not swapped
by the half turn).
"""

from __future__ import annotations

from dataclasses import dataclass

from carromlab.analysis.learned import LearnedScreen
from carromlab.analysis.policies import Greedy, MapGreedy
from carromlab.games.carroms.driver import CAPACITY


@dataclass(frozen=True, repr=False)
class CarromsGreedy(Greedy):
    """:class:`~carromlab.analysis.policies.Greedy` aimed at own rings and the black."""

    capacity: int = CAPACITY
    break_shot: tuple[float, float, float] | str | None = None

    def targets(self, position, turn) -> list[str]:
        return [
            p.id
            for p in position.pieces
            if (p.kind == "ring" and p.owner == turn.shooter) or p.kind == "black"
        ]


@dataclass(frozen=True, repr=False)
class CarromsSearch(MapGreedy, CarromsGreedy):
    """The search-based Carroms player: :class:`CarromsGreedy`'s targets and candidates
    joined with the cells of Carroms' default shot map and searched as ``best`` searches
    (:class:`~carromlab.analysis.policies.MapGreedy`, at ``budget.shots`` kernel shots a
    decision), with the searched break (the registry's ``search``)."""

    # (declared again: MapGreedy's copies of Greedy's defaults come later in the field order)
    capacity: int = CAPACITY
    break_shot: tuple[float, float, float] | str | None = None


@dataclass(frozen=True, repr=False)
class CarromsLearned(LearnedScreen, CarromsGreedy):
    """The learned Carroms player: the learned screen (``games/carroms/screen.npz``) ranks
    :class:`CarromsGreedy`'s candidates and a fine grid, the kernel races the best few
    (:class:`~carromlab.analysis.learned.LearnedScreen`)."""

    screen: str = "carroms"
    capacity: int = CAPACITY
    break_shot: tuple[float, float, float] | str | None = None
