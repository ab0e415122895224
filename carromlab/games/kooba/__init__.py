"""KOOBA: ``rules.py`` (what a throw tags: the zones, the KOOBA, runs and markers),
``geometry.py`` (exact overlaps: an Aero against discs and convex zones, ringing),
``machine.py`` (turns, markers, Lock, attack, tie breaker, Pro, Deuces), ``driver.py`` (whole
games on the game loop, throws on the throw kernel), ``players.py`` (the greedy player),
``maps.py`` (aim-point maps of every tag's chance), ``commands.py`` (aim-point estimate and
map), ``explore.py`` (its throws in the explorer), ``setups.py``."""

from __future__ import annotations

from carromlab.input_schema import SLIDE, STICKS
from carromlab.registry import Game, Option, folder_parts, part, ref, register_game

GAME = register_game(
    Game(
        **folder_parts(
            __name__,
            "Kooba",
            "kooba",
            positions={
                "kooba-opening-2p": part("carromlab.games.kooba.setups:kooba_opening", n_players=2),
                "kooba-opening-3p": part("carromlab.games.kooba.setups:kooba_opening", n_players=3),
            },
            analysis=False,  # throws aimed at points (its commands)
        ),
        title="KOOBA",
        order=6,
        options=(
            Option("players", 2, "Players (2-4).", "n_players", minimum=2, maximum=4),
            Option("pro", False, "The Pro mod (5 sticks, inner eye, penalties)."),
            Option("deuces", False, "The Deuces mod (a KOOBA tag counts 2)."),
        ),
        players={
            "greedy": part("carromlab.games.kooba.players:KoobaGreedy", takes_variant=False),
            # each goal's aim refined from its own map (the best 8 cells, 9 points each, 2,000
            # throws a point: KoobaGreedy.refine)
            "search": part(
                "carromlab.games.kooba.players:KoobaGreedy",
                takes_variant=False,
                refine=ref("carromlab.games.kooba.players:STRONG.refine"),
                refine_n=ref("carromlab.games.kooba.players:STRONG.refine_n"),
            ),
            # the refined aims with the early, pressing attack: the balance studies' second
            # strength (players.STRONG), at the skill asked
            "strong": part("carromlab.games.kooba.parts:strong", takes_variant=False),
        },
        player_notes={
            "greedy": "each goal's aim from a coarse map",
            "search": "each goal's aim refined from its own map",
            "strong": "the refined aims with the early, pressing attack",
        },
        # the refined aims and the early attack won 0.550 [0.501, 0.598] against greedy
        # (docs/studies.md, "The attack turn, its timing, and Pro")
        strongest="strong",
        physics=False,  # the throw kernel (physics/throw.py) reads no Physics field
        shot_options=(
            Option("aim", "0,0", "The aim point X,Y (m; default 0,0, the KOOBA).", type=str),
            Option(
                "aims",
                "-0.27:0.27:28",
                "The aim grid on both axes, START:STOP:COUNT (m).",
                type=str,
            ),
            Option(
                "sticks",
                4,
                "The throwing distance in stick lengths (Pro plays from 5).",
                minimum=STICKS.lo,
                maximum=STICKS.hi,
            ),
            Option(
                "seat",
                "S",
                "The thrower's seat, N, E, S or W.",
                choices=("N", "E", "S", "W"),
            ),
            Option(
                "slide",
                0.0,
                "The throw's slide scale (m; 0: Aeros stick where they land).",
                minimum=SLIDE.lo,
                maximum=SLIDE.hi,
            ),
        ),
        commands={
            "estimate": part("carromlab.games.kooba.commands:estimate"),
            "shotmap": part("carromlab.games.kooba.commands:shotmap"),
        },
        explorer=part(
            "carromlab.games.kooba.explore:ThrowExplorer"
        ),  # throws aimed at a point, not a shooter's shot
    )
)
