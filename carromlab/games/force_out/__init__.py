"""Force Out and Fast Play Force Out (the Carrom Company's crokinole side): ``rules.py`` (one
stroke), ``machine.py`` (rounds, penalties, Fast Play's one ring), ``driver.py`` (whole games
on the game loop), ``players.py`` (the ring-out players), ``setups.py`` (the opening). Where a
shooting ring is played from is shared with the other crokinole-side games
(:mod:`carromlab.rules.crokinole`), and the ring-out players with Circle Scores
(:mod:`carromlab.analysis.crokinole`)."""

from __future__ import annotations

from carromlab.registry import Game, Option, folder_parts, register_game, ring_out_players

VARIANTS = ("force-out", "force-out-fast")

GAME = register_game(
    Game(
        **folder_parts(__name__, "ForceOut", "crokinole", variants=VARIANTS, config="parts:config"),
        title="Force Out and Fast Play Force Out (Carrom Company)",
        order=3,
        options=(
            Option(
                "rounds",
                1,
                "Rounds a game.",
                minimum=1,
                variants=VARIANTS,
            ),
        ),
        # the ring-out players (analysis/crokinole.py, shared with Circle Scores) under its names
        **ring_out_players("carromlab.games.force_out.players:force_out_player"),
        # racing twice the candidates: fewer penalties a game (docs/studies.md)
        strongest="greedy-race",
        default_grid=("-130:-50:9", "30:150:61", "2.0"),
        default_placement=-90.0,
        points_notes=dict.fromkeys(
            VARIANTS, "opponent's ring forced out +5, own ring forced out −5, ring brought back −5"
        ),
    )
)
