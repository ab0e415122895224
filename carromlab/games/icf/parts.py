"""The parts of ICF's registration (``games/icf/__init__.py``) that are not a class or
function of the game's other modules called as the registry calls it: the shot-analysis
hooks, the configuration of a variant, the lookahead players (their leave turns with the
doubles seat), the players valuing another rule configuration, the benchmark's scenarios.
Imported on first use of one of them."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from carromlab.games.icf.machine import IcfConfig

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.analysis.lookahead import SearchLookahead
    from carromlab.analysis.players import Player
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.games.icf.players import IcfLookahead
    from carromlab.registry import ShotScenario

#: Safety play's threshold: the leave is weighed when no finalist's immediate value reaches
#: half a point (under an even chance of a coin; an estimate, not tuned).
SAFETY_BELOW = 0.5


def analysis(variant: str) -> VariantAnalysis:
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.games.icf.rules import IcfRules
    from carromlab.games.icf.striker import baseline_y, check_origin, placement_intervals

    return VariantAnalysis(
        variant, IcfRules(), "striker", baseline_y, placement_intervals, check_origin=check_origin
    )


# Any: each option is one of IcfConfig's fields, of that field's own type
def config(variant: str, **options: Any) -> IcfConfig:
    return IcfConfig(doubles=variant == "icf-doubles", **options)


def lookahead(skill: str = "club", variant: str | None = None, **options: Any) -> IcfLookahead:
    """The lookahead with the searched break (games/icf/breaks.json); ``options``: the
    lookahead's own (the racing search: ``LOOKAHEAD_RACING``)."""
    from carromlab.games.icf.players import icf_lookahead

    return icf_lookahead(
        skill=skill, doubles=variant == "icf-doubles", break_shot="search", **options
    )


def lookahead_race(skill: str = "club", variant: str | None = None) -> IcfLookahead:
    """The lookahead on the racing search, with the searched break."""
    from carromlab.analysis.lookahead import LOOKAHEAD_RACING

    return lookahead(skill, variant, **LOOKAHEAD_RACING)


def search_looking(
    skill: str = "club", variant: str | None = None, safety_below: float | None = None
) -> SearchLookahead:
    """The search with the lookahead on its finalists, at every stroke (``safety_below``
    None) or when no pot is worth ``safety_below`` (safety play): docs/decisions.md."""
    from carromlab.analysis.lookahead import SEARCH_REPLIES, SearchLookahead
    from carromlab.games.icf.players import icf_lookahead

    replies = icf_lookahead(skill=skill, doubles=variant == "icf-doubles", **SEARCH_REPLIES)
    return SearchLookahead(
        skill=skill, break_shot="search", replies=replies, safety_below=safety_below
    )


# Any: a player with scoring weights is a dataclass (replaced), any other is kept as it is
def player_for_rules(player: Any, config: IcfConfig) -> Player:
    """The player valuing strokes by ``config``'s rules: the queen covered worth its
    ``queen_value``, a penalty coin worth -1 under the due rule and 0 without it (the
    balance studies' reading); a player without scoring weights (random) as it is. The
    lookahead's reply search and a search's replies value them alike."""
    from carromlab.games.icf.rules import IcfScoring

    if not hasattr(player, "scoring"):
        return player
    scoring = IcfScoring(
        queen_covered=float(config.queen_value), due=-1.0 if config.due_rule else 0.0
    )
    if scoring == IcfScoring():
        return player  # the laws: the player as registered (its repr unchanged)
    changes: dict[str, object] = {"scoring": scoring}
    replies = getattr(player, "replies", None)
    if replies is not None:
        changes["replies"] = replace(replies, scoring=scoring)
    return replace(player, **changes)


def bench(name: str) -> ShotScenario:
    """The kernel benchmark's scenario ``name``: ``break`` (the rosette; from mid-baseline at
    5 m/s straight at the queen) or ``cut`` (the mid-game position: from the baseline, w1 cut
    into the north-east pocket at 2 m/s)."""
    from carromlab.games.icf.midgame import (
        BASELINE_Y,
        CUT_POCKET,
        CUT_STRIKER_X,
        CUT_TARGET,
        ghost_aim,
        midgame_position,
    )
    from carromlab.games.icf.setups import icf_opening
    from carromlab.registry import ShotScenario
    from carromlab.shots import Shot, chain, jitter_angle, jitter_placement, jitter_speed

    if name == "break":
        noise = chain(jitter_placement(0.001), jitter_angle(0.005), jitter_speed(0.01))
        return ShotScenario(icf_opening(), Shot(0.0, BASELINE_Y, math.pi / 2, 5.0), noise)
    pos = midgame_position()
    t = pos.by_id(CUT_TARGET)
    angle = ghost_aim(pos.board, CUT_STRIKER_X, BASELINE_Y, t.x, t.y, CUT_POCKET)
    noise = chain(jitter_placement(0.001), jitter_angle(0.01), jitter_speed(0.02))
    return ShotScenario(pos, Shot(CUT_STRIKER_X, BASELINE_Y, angle, 2.0), noise)
