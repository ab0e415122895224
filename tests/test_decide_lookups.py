"""``decide`` looks its game and the variant's analysis up once, where the call enters, and
hands the objects down: the plan's evaluator, the re-estimate and the result use the hooks
they were given (the player, which sees a position alone, looks its variant's up itself)."""

import cProfile
import pstats

from carromlab.analysis.decide import decide
from carromlab.registry import get_game


def _calls(profile: cProfile.Profile, name: str, where: str) -> int:
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return sum(v[1] for (f, _, fn), v in stats.items() if fn == name and f.endswith(where))


def test_one_decide_looks_its_game_up_once_and_builds_no_analysis_again():
    game = get_game("force-out")
    va = game.analysis_of("force-out")
    assert game.analysis_of("force-out") is va  # built once, kept
    decide("force-out-opening", policy="random", n=8)  # warm: compiled, imported
    profile = cProfile.Profile()
    profile.enable()
    result = decide("force-out-opening", policy="random", n=8)
    profile.disable()
    assert result.analysis is va
    # check_decides resolves the game; everything below is handed the objects
    assert _calls(profile, "get_game", "registry.py") == 1
    assert _calls(profile, "shot_analysis", "registry.py") == 0
    assert _calls(profile, "analysis_for", "variants.py") == 0
