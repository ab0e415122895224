"""Standard opening set-ups for every game, by name.

``standard_names()`` lists them; ``standard_position(name)`` builds one (with default
equipment). The same positions are written to ``data/positions/`` as JSON.
"""

from __future__ import annotations

from collections.abc import Callable

from carromlab.errors import CarromlabError
from carromlab.position import Position
from carromlab.setups.carrooka import carrooka_midgame, carrooka_opening
from carromlab.setups.company import (
    carroms_opening,
    circle_scores_opening,
    force_out_opening,
    ring_pegs_opening,
)
from carromlab.setups.icf import icf_opening, rosette
from carromlab.setups.kooba import kooba_opening
from carromlab.setups.midgame import midgame_position

STANDARD: dict[str, Callable[[], Position]] = {
    "icf-opening": icf_opening,
    "icf-doubles-opening": lambda: icf_opening("icf-doubles"),
    "icf-midgame": midgame_position,
    "carrooka-opening": carrooka_opening,
    "carrooka-midgame": carrooka_midgame,
    "carroms-opening": carroms_opening,
    "force-out-opening": force_out_opening,
    "force-out-fast-opening": lambda: force_out_opening("force-out-fast"),
    "ring-pegs-opening": ring_pegs_opening,
    "circle-scores-opening": circle_scores_opening,
    "kooba-opening": kooba_opening,
    "kooba-opening-2p": lambda: kooba_opening(n_players=2),
    "kooba-opening-3p": lambda: kooba_opening(n_players=3),
}


def standard_names() -> list[str]:
    return list(STANDARD)


def standard_position(name: str) -> Position:
    try:
        factory = STANDARD[name]
    except KeyError:
        raise CarromlabError(
            f"unknown standard position {name!r}; known: {', '.join(STANDARD)}"
        ) from None
    return factory()


__all__ = [
    "STANDARD",
    "carroms_opening",
    "carrooka_midgame",
    "carrooka_opening",
    "circle_scores_opening",
    "force_out_opening",
    "icf_opening",
    "kooba_opening",
    "midgame_position",
    "ring_pegs_opening",
    "rosette",
    "standard_names",
    "standard_position",
]
