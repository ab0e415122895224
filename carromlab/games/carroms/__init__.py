"""The Carrom Company's Carroms (checker side): ``rules.py`` (one stroke: own and opponent
rings, the black, fouls, points), ``machine.py`` (boards, forfeits, the game to a target),
``driver.py`` (whole games on the game loop), ``players.py`` (the greedy player),
``setups.py`` (the opening)."""

from __future__ import annotations

from carromlab.games.carroms.parts import shooting_line_y
from carromlab.registry import Game, breaking, folder_parts, part, ref, register_game, shared_notes
from carromlab.rules.declaration import Option

#: the shooting line's height, kept here for the scripts that import it from the game
__all__ = ["GAME", "shooting_line_y"]

GAME = register_game(
    Game(
        **folder_parts(__name__, "Carroms", "checker"),
        title="Carroms (Carrom Company)",
        order=2,
        options=(Option("target", 30, "Points that win the game.", minimum=1),),
        players={
            "greedy": part("carromlab.games.carroms.players:CarromsGreedy", takes_variant=False),
            "greedy-break": breaking("carromlab.games.carroms.players:CarromsGreedy"),
            # the search-based player (MapGreedy over Carroms' targets), with the searched
            # break
            "search": breaking("carromlab.games.carroms.players:CarromsSearch"),
            # the learned screen (games/carroms/screen.npz) in front of a kernel race of its
            # top picks
            "learned": breaking(
                "carromlab.games.carroms.players:CarromsLearned",
                budget=ref("carromlab.analysis.learned:LEARNED_BUDGET"),
            ),
            "random": part(
                "carromlab.analysis.policies:RandomLegal", takes_variant=False, takes_skill=False
            ),
        },
        player_notes={
            **shared_notes("greedy", "greedy-break", "learned", "random"),
            "search": "greedy's candidates and the shot map's cells on the map search, with the searched break",
        },
        # greedy with the searched break (docs/studies.md: the Carroms stronger player)
        strongest="greedy-break",
        default_grid=("-0.15:0.15:11", "30:150:61", "2.0"),
        points_notes={
            "carroms": "own ring +1, the black +5, opponent's ring −1, forfeited ring −1"
        },
    )
)
