"""Standard carrom under the ICF laws, singles and doubles: ``rules.py`` (one stroke's
coins, queen, dues, fouls, points), ``striker.py`` (law 130: where the striker may be placed),
``machine.py`` (the game-state machine), ``driver.py`` (whole games on the game loop),
``setups.py`` / ``midgame.py`` (the rule-41 rosette and the mid-game position). Players: the
shared pocketing players (:mod:`carromlab.analysis.policies`) and the depth-2 lookahead with
the laws' leave (``players.py``)."""

from __future__ import annotations

from carromlab.registry import Game, Option, register_game


def _analysis(variant: str):
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.games.icf.rules import IcfRules
    from carromlab.games.icf.striker import baseline_y, check_origin, placement_intervals

    return VariantAnalysis(
        variant, IcfRules(), "striker", baseline_y, placement_intervals, check_origin=check_origin
    )


def _config(variant: str, **options):
    from carromlab.games.icf.machine import IcfConfig

    return IcfConfig(doubles=variant == "icf-doubles", **options)


def _greedy(skill="club", variant=None):
    from carromlab.analysis.policies import Greedy

    return Greedy(skill=skill)


def _greedy_break(skill="club", variant=None):
    from carromlab.analysis.policies import Greedy

    return Greedy(skill=skill, break_shot="search")


def _greedy_race(skill="club", variant=None):
    from carromlab.analysis.policies import RACING, Greedy

    # greedy racing twice the candidates, with the searched break (+111 Elo against greedy)
    return Greedy(skill=skill, break_shot="search", budget=RACING)


def _search(skill="club", variant=None):
    from carromlab.analysis.policies import MapGreedy

    # the search-based player: best's search at 16,384 kernel shots a decision
    return MapGreedy(skill=skill, break_shot="search")


def _learned(skill="club", variant=None):
    from carromlab.analysis.learned import learned_greedy

    # the learned screen (games/icf/screen.npz) in front of a kernel race of its top picks
    return learned_greedy(skill=skill, screen="icf")


def _lookahead(skill="club", variant=None):
    from carromlab.games.icf.players import icf_lookahead

    # the lookahead with the searched break (games/icf/breaks.json)
    return icf_lookahead(skill=skill, doubles=variant == "icf-doubles", break_shot="search")


def _lookahead_race(skill="club", variant=None):
    from carromlab.analysis.lookahead import LOOKAHEAD_RACING
    from carromlab.games.icf.players import icf_lookahead

    # the lookahead on the racing search, with the searched break
    return icf_lookahead(
        skill=skill, doubles=variant == "icf-doubles", break_shot="search", **LOOKAHEAD_RACING
    )


#: Safety play's threshold: the leave is weighed when no finalist's immediate value reaches
#: half a point (under an even chance of a coin; an estimate, not tuned).
SAFETY_BELOW = 0.5


def _search_looking(safety_below):
    def make(skill="club", variant=None):
        from carromlab.analysis.lookahead import SEARCH_REPLIES, SearchLookahead
        from carromlab.games.icf.players import icf_lookahead

        replies = icf_lookahead(skill=skill, doubles=variant == "icf-doubles", **SEARCH_REPLIES)
        return SearchLookahead(
            skill=skill, break_shot="search", replies=replies, safety_below=safety_below
        )

    return make


def _player_for_rules(player, config):
    """The player valuing strokes by ``config``'s rules: the queen covered worth its
    ``queen_value``, a penalty coin worth -1 under the due rule and 0 without it (the
    balance studies' reading); a player without scoring weights (random) as it is. The
    lookahead's reply search and a search's replies value them alike."""
    from dataclasses import replace

    from carromlab.games.icf.rules import IcfScoring

    if not hasattr(player, "scoring"):
        return player
    scoring = IcfScoring(
        queen_covered=float(config.queen_value), due=-1.0 if config.due_rule else 0.0
    )
    if scoring == IcfScoring():
        return player  # the laws: the player as registered (its repr unchanged)
    changes = {"scoring": scoring}
    replies = getattr(player, "replies", None)
    if replies is not None:
        changes["replies"] = replace(replies, scoring=scoring)
    return replace(player, **changes)


def _random(skill="club", variant=None):
    from carromlab.analysis.policies import RandomLegal

    return RandomLegal()


def _driver(config):
    from carromlab.games.icf.driver import IcfDriver

    return IcfDriver(config)


def _opening(variant: str = "icf"):
    from carromlab.games.icf.setups import icf_opening

    return icf_opening(variant)


def _midgame():
    from carromlab.games.icf.midgame import midgame_position

    return midgame_position()


def _queen_shot():
    from carromlab.games.icf.midgame import queen_shot_position

    return queen_shot_position()


def _rules_class(variant: str):
    from carromlab.games.icf.rules import IcfRules

    return IcfRules


def _bench(name: str):
    def make():
        import math

        from carromlab.games.icf.midgame import (
            BASELINE_Y,
            CUT_POCKET,
            CUT_STRIKER_X,
            CUT_TARGET,
            ghost_aim,
        )
        from carromlab.registry import ShotScenario
        from carromlab.shots import Shot, chain, jitter_angle, jitter_placement, jitter_speed

        if name == "break":  # the rosette; from mid-baseline at 5 m/s straight at the queen
            noise = chain(jitter_placement(0.001), jitter_angle(0.005), jitter_speed(0.01))
            return ShotScenario(_opening(), Shot(0.0, BASELINE_Y, math.pi / 2, 5.0), noise)
        # the mid-game position: from the baseline, w1 cut into the north-east pocket at 2 m/s
        pos = _midgame()
        t = pos.by_id(CUT_TARGET)
        angle = ghost_aim(pos.board, CUT_STRIKER_X, BASELINE_Y, t.x, t.y, CUT_POCKET)
        noise = chain(jitter_placement(0.001), jitter_angle(0.01), jitter_speed(0.02))
        return ShotScenario(pos, Shot(CUT_STRIKER_X, BASELINE_Y, angle, 2.0), noise)

    return make


GAME = register_game(
    Game(
        name="icf",
        title="Carrom (ICF laws)",
        variants=("icf", "icf-doubles"),
        family="icf",
        order=0,
        positions={
            "icf-opening": _opening,
            "icf-doubles-opening": lambda: _opening("icf-doubles"),
            "icf-midgame": _midgame,
            "icf-queen-shot": _queen_shot,  # with its turn: white, 6 own coins down, 4 of black's
        },
        # the mid-game position is a singles game's; doubles analyses its opening (the break)
        default_position={"icf": "icf-midgame", "icf-doubles": "icf-doubles-opening"},
        analysis=_analysis,
        rules_class=_rules_class,
        config=_config,
        options=(
            Option(
                "boards",
                8,
                "At most this many boards a game (laws: 8).",
                "max_boards",
                minimum=1,
            ),
        ),
        players={
            "greedy": _greedy,
            "greedy-break": _greedy_break,
            "greedy-race": _greedy_race,
            "search": _search,
            "learned": _learned,
            # the search with the lookahead on its finalists, at every stroke or when no pot
            # is worth it (safety play): docs/decisions.md
            "search-lookahead": _search_looking(None),
            "search-safety": _search_looking(SAFETY_BELOW),
            "lookahead": _lookahead,
            "lookahead-race": _lookahead_race,
            "random": _random,
        },
        driver=_driver,
        player_for_rules=_player_for_rules,
        # the top of the strength ladder: the search-based player, 0.678 [0.631, 0.722] of 401
        # boards against greedy-race, +241 Elo against greedy (docs/studies.md)
        strongest="search",
        default_grid=("-0.18:0.18:13", "30:150:61", "2.0"),
        default_placement=0.0,
        points_notes={
            "icf": "own coin +1, opponent's coin −1, queen covered +3, striker pocketed −1",
            "icf-doubles": "own coin +1, opponent's coin −1, queen covered +3, striker pocketed −1",
        },
        bench_scenarios={"break": _bench("break"), "cut": _bench("cut")},
    )
)
