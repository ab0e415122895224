"""Carrooka: ``rules.py`` (one stroke: the piece on, fouls by kind, points), ``striker.py``
(where the striker is played from: the break line, the margin-line relocation, the return
after a foul, clear lines), ``machine.py`` (phases, re-spotting, the bonus shot, the
Carrooka'd options, the end and the tie-break), ``driver.py`` (whole games on the game loop),
``players.py`` (candidate pots, the greedy and random players), ``nominate.py`` (which colour
to nominate), ``setups.py``."""

from __future__ import annotations

from carromlab.registry import Game, breaking, folder_parts, part, ref, register_game, shared_notes
from carromlab.rules.declaration import Option

GAME = register_game(
    Game(
        **folder_parts(
            __name__,
            "Carrooka",
            "carrooka",
            positions={
                "carrooka-midgame": part("carromlab.games.carrooka.setups:carrooka_midgame")
            },
        ),
        title="Carrooka",
        order=1,
        options=(
            Option("bonus", True, "The bonus shot after a foul.", "bonus_shot"),
            Option(
                "tie",
                "respot_black",
                "How a tie ends: respot_black or draw.",
                choices=("respot_black", "draw"),
            ),
            Option(
                "carrookad",
                "choose",
                "After a foul: choose, break_line, counter or pass.",
                choices=("choose", "break_line", "counter", "pass"),
            ),
        ),
        players={
            "greedy": part("carromlab.games.carrooka.players:CarrookaGreedy", takes_variant=False),
            "greedy-break": breaking("carromlab.games.carrooka.players:CarrookaGreedy"),
            # the greedy player's pots (four times as many) on the map search, the searched
            # break
            "search": part("carromlab.games.carrooka.parts:search", takes_variant=False),
            # the learned screen (games/carrooka/screen.npz) in front of a kernel race of its
            # top picks
            "learned": breaking(
                "carromlab.games.carrooka.players:CarrookaLearned",
                budget=ref("carromlab.analysis.learned:LEARNED_BUDGET"),
            ),
            "random": part(
                "carromlab.games.carrooka.players:CarrookaRandom",
                takes_variant=False,
                takes_skill=False,
            ),
        },
        player_notes={
            **shared_notes("greedy", "greedy-break", "learned", "random"),
            "search": "greedy's candidates on the map search, with the searched break",
        },
        # greedy with the searched break: the first player's clear edge (docs/studies.md)
        strongest="greedy-break",
        player_view=part("carromlab.games.carrooka.parts:player_view"),
        default_grid=("-90", "0:355:72", "1:5:9"),
        default_placement=-90.0,
        shot_options=(
            Option(
                "striker",
                "",
                "X,Y (m) where the striker lies (default: the position's, or in hand).",
                type=str,
            ),
            Option(
                "nominate",
                "",
                "The piece on, red or the nominated colour (default red).",
                type=str,
            ),
        ),
        shot_position=part("carromlab.games.carrooka.parts:shot_position"),
        shot_turn=part("carromlab.games.carrooka.parts:shot_turn"),
        # the break is the game's first stroke, from the break line at the red
        plain_break=True,
        points_notes={"carrooka": "legal pots score red 1, yellow 2 … black 7; a foul 0"},
    )
)
