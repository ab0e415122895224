"""The parts of Carroms' registration (``games/carroms/__init__.py``) that are not a class
or function of the game's other modules called as the registry calls it: the shot-analysis
hooks (the shooting line and where the shooting ring is placed on it). Imported on first
use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.analysis.variants import VariantAnalysis

# Any: the board is a checker-side board (its shooting line's offset and length)


def shooting_line_y(board: Any) -> float:
    """Carroms: y of the South shooting line (the shooting ring's centre sits on it)."""
    return -board.half + board.shooting_line_offset


def shooting_intervals(board: Any) -> list[tuple[float, float]]:
    """Carroms: the shooting ring's centre anywhere on the line between its end circles."""
    xl = board.shooting_line_length / 2
    return [(-xl, xl)]


def analysis(variant: str) -> VariantAnalysis:
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.games.carroms.rules import CarromsRules

    return VariantAnalysis(variant, CarromsRules(), "shooter", shooting_line_y, shooting_intervals)
