"""The parts of Ring Pegs' registration (``games/ring_pegs/__init__.py``) that are not a
class or function of the game's other modules called as the registry calls it: the
shot-analysis hooks and the search-based player. Imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.analysis.players import Player
    from carromlab.analysis.variants import VariantAnalysis


def analysis(variant: str) -> VariantAnalysis:
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.calibration_presets import CROKINOLE_SKILLS
    from carromlab.games.ring_pegs import rules as rp

    return VariantAnalysis(
        variant,
        rp.RingPegsRules(),
        "shooter",
        rp.no_line,
        rp.placement_intervals,
        origin_of=rp.origin,
        legal_origin_of=rp.legal_origin,
        check_origin=rp.check_origin,
        table_of=rp.table_position,
        hand_placed=False,
        skills=CROKINOLE_SKILLS,
    )


def search(skill: str = "club") -> Player:
    """The sweep's aims on the map search (refined between them)."""
    from carromlab.analysis.policies import map_searching
    from carromlab.games.ring_pegs.players import RingPegsGreedy

    return map_searching(RingPegsGreedy(skill=skill))
