"""The part of KOOBA's registration (``games/kooba/__init__.py``) that is not a class or
function of the game's other modules called as the registry calls it: the strong player at
a skill. Imported on first use."""

from __future__ import annotations

from dataclasses import replace

from carromlab.games.kooba.players import STRONG, KoobaGreedy


def strong(skill: str = "club") -> KoobaGreedy:
    """The refined aims with the early, pressing attack: the balance studies' second
    strength (``players.STRONG``), at ``skill``."""
    return replace(STRONG, skill=skill)
