"""The Carrom Company's Carroms (checker side): ``rules.py`` (one stroke: own and opponent
rings, the black, fouls, points), ``machine.py`` (boards, forfeits, the game to a target),
``driver.py`` (whole games on the game loop), ``players.py`` (the greedy player),
``setups.py`` (the opening)."""

from __future__ import annotations

from carromlab.games.carroms.parts import shooting_line_y
from carromlab.registry import Game, Option, part, ref, register_game

#: the shooting line's height, kept here for the scripts that import it from the game
__all__ = ["GAME", "shooting_line_y"]

GAME = register_game(
    Game(
        name="carroms",
        title="Carroms (Carrom Company)",
        variants=("carroms",),
        family="checker",
        order=2,
        positions={"carroms-opening": part("carromlab.games.carroms.setups:carroms_opening")},
        default_position={"carroms": "carroms-opening"},
        analysis=part("carromlab.games.carroms.parts:analysis"),
        rules_class=part("carromlab.games.carroms.rules:CarromsRules"),
        config=part("carromlab.games.carroms.machine:CarromsConfig", takes_variant=False),
        options=(Option("target", 30, "Points that win the game.", minimum=1),),
        players={
            "greedy": part("carromlab.games.carroms.players:CarromsGreedy", takes_variant=False),
            "greedy-break": part(
                "carromlab.games.carroms.players:CarromsGreedy",
                takes_variant=False,
                break_shot="search",
            ),
            # the search-based player (MapGreedy over Carroms' targets), with the searched
            # break
            "search": part(
                "carromlab.games.carroms.players:CarromsSearch",
                takes_variant=False,
                break_shot="search",
            ),
            # the learned screen (games/carroms/screen.npz) in front of a kernel race of its
            # top picks
            "learned": part(
                "carromlab.games.carroms.players:CarromsLearned",
                takes_variant=False,
                break_shot="search",
                budget=ref("carromlab.analysis.learned:LEARNED_BUDGET"),
            ),
            "random": part(
                "carromlab.analysis.policies:RandomLegal", takes_variant=False, takes_skill=False
            ),
        },
        player_notes={
            "greedy": "the best of its candidate shots, screened then re-estimated",
            "greedy-break": "greedy with the searched break",
            "search": "greedy's candidates and the shot map's cells on the map search, with the searched break",
            "learned": "a learned screen in front of a kernel race of its top picks, with the searched break",
            "random": "a random legal shot",
        },
        driver=part("carromlab.games.carroms.driver:CarromsDriver"),
        # greedy with the searched break (docs/studies.md: the Carroms stronger player)
        strongest="greedy-break",
        default_grid=("-0.15:0.15:11", "30:150:61", "2.0"),
        default_placement=0.0,
        points_notes={
            "carroms": "own ring +1, the black +5, opponent's ring −1, forfeited ring −1"
        },
    )
)
