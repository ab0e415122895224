"""The parts of Force Out's registration (``games/force_out/__init__.py``) that are not a
class or function of the game's other modules called as the registry calls it: the
shot-analysis hooks and the configuration of a variant (Fast Play's one ring). Imported on
first use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carromlab.games.force_out.machine import ForceOutConfig

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.analysis.variants import VariantAnalysis


def analysis(variant: str) -> VariantAnalysis:
    from carromlab.analysis.crokinole import outer_line_analysis
    from carromlab.games.force_out.rules import ForceOutRules

    # Fast Play's ring is played from where it lies, not placed by hand
    return outer_line_analysis(variant, ForceOutRules(), hand_placed=variant != "force-out-fast")


# Any: each option is one of ForceOutConfig's fields, of that field's own type
def config(variant: str, **options: Any) -> ForceOutConfig:
    return ForceOutConfig(fast=variant == "force-out-fast", **options)
