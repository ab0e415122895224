"""The Carrom Company's Carroms (checker side): ``rules.py`` (one stroke: own and opponent
rings, the black, fouls, points), ``machine.py`` (boards, forfeits, the game to a target),
``driver.py`` (whole games on the game loop), ``players.py`` (the greedy player),
``setups.py`` (the opening)."""

from __future__ import annotations

from carromlab.registry import Game, Option, register_game


def shooting_line_y(board) -> float:
    """Carroms: y of the South shooting line (the shooting ring's centre sits on it)."""
    return -board.half + board.shooting_line_offset


def shooting_intervals(board) -> list[tuple[float, float]]:
    """Carroms: the shooting ring's centre anywhere on the line between its end circles."""
    xl = board.shooting_line_length / 2
    return [(-xl, xl)]


def _analysis(variant: str):
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.games.carroms.rules import CarromsRules

    return VariantAnalysis(variant, CarromsRules(), "shooter", shooting_line_y, shooting_intervals)


def _config(variant: str, **options):
    from carromlab.games.carroms.machine import CarromsConfig

    return CarromsConfig(**options)


def _greedy(skill="club", variant=None):
    from carromlab.games.carroms.players import CarromsGreedy

    return CarromsGreedy(skill=skill)


def _greedy_break(skill="club", variant=None):
    from carromlab.games.carroms.players import CarromsGreedy

    return CarromsGreedy(skill=skill, break_shot="search")


def _search(skill="club", variant=None):
    from carromlab.games.carroms.players import CarromsSearch

    # the search-based player (MapGreedy over Carroms' targets), with the searched break
    return CarromsSearch(skill=skill, break_shot="search")


def _learned(skill="club", variant=None):
    from carromlab.analysis.learned import LEARNED_BUDGET
    from carromlab.games.carroms.players import CarromsLearned

    # the learned screen (games/carroms/screen.npz) in front of a kernel race of its top picks
    return CarromsLearned(skill=skill, break_shot="search", budget=LEARNED_BUDGET)


def _random(skill="club", variant=None):
    from carromlab.analysis.policies import RandomLegal

    return RandomLegal()


def _driver(config):
    from carromlab.games.carroms.driver import CarromsDriver

    return CarromsDriver(config)


def _rules_class(variant: str):
    from carromlab.games.carroms.rules import CarromsRules

    return CarromsRules


def _opening():
    from carromlab.games.carroms.setups import carroms_opening

    return carroms_opening()


GAME = register_game(
    Game(
        name="carroms",
        title="Carroms (Carrom Company)",
        variants=("carroms",),
        family="checker",
        order=2,
        positions={"carroms-opening": _opening},
        default_position={"carroms": "carroms-opening"},
        analysis=_analysis,
        rules_class=_rules_class,
        config=_config,
        options=(Option("target", 30, "Points that win the game.", minimum=1),),
        players={
            "greedy": _greedy,
            "greedy-break": _greedy_break,
            "search": _search,
            "learned": _learned,
            "random": _random,
        },
        driver=_driver,
        # greedy with the searched break (docs/studies.md: the Carroms stronger player)
        strongest="greedy-break",
        default_grid=("-0.15:0.15:11", "30:150:61", "2.0"),
        default_placement=0.0,
        points_notes={
            "carroms": "own ring +1, the black +5, opponent's ring −1, forfeited ring −1"
        },
    )
)
