"""The part of Circle Scores' registration (``games/circle_scores/__init__.py``) that is not
a class or function of the game's other modules called as the registry calls it: the
shot-analysis hooks. Imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.analysis.variants import VariantAnalysis


def analysis(variant: str) -> VariantAnalysis:
    from carromlab.analysis.crokinole import outer_line_analysis
    from carromlab.games.circle_scores.rules import CircleScoresRules

    return outer_line_analysis(variant, CircleScoresRules(), hand_placed=True)
