"""Force Out and Fast Play Force Out (the Carrom Company's crokinole side): ``rules.py`` (one
stroke), ``machine.py`` (rounds, penalties, Fast Play's one ring), ``driver.py`` (whole games
on the game loop), ``players.py`` (the ring-out players), ``setups.py`` (the opening). Where a
shooting ring is played from is shared with the other crokinole-side games
(:mod:`carromlab.rules.crokinole`), and the ring-out players with Circle Scores
(:mod:`carromlab.analysis.crokinole`)."""

from __future__ import annotations

from carromlab.registry import Game, Option, part, register_game

VARIANTS = ("force-out", "force-out-fast")

GAME = register_game(
    Game(
        name="force-out",
        title="Force Out and Fast Play Force Out (Carrom Company)",
        variants=VARIANTS,
        family="crokinole",
        order=3,
        positions={
            "force-out-opening": part("carromlab.games.force_out.setups:force_out_opening"),
            "force-out-fast-opening": part(
                "carromlab.games.force_out.setups:force_out_opening", "force-out-fast"
            ),
        },
        default_position={
            "force-out": "force-out-opening",
            "force-out-fast": "force-out-fast-opening",
        },
        analysis=part("carromlab.games.force_out.parts:analysis"),
        rules_class=part("carromlab.games.force_out.rules:ForceOutRules"),
        config=part("carromlab.games.force_out.parts:config"),
        options=(
            Option(
                "rounds",
                1,
                "Rounds a game.",
                minimum=1,
                variants=("force-out", "force-out-fast"),
            ),
        ),
        # the ring-out players (analysis/crokinole.py, shared with Circle Scores) under its names
        players={
            p: part("carromlab.games.force_out.players:force_out_player", p, takes_variant=False)
            for p in ("greedy", "greedy-race", "search", "random")
        },
        player_notes={
            "greedy": "the best of its candidate shots, screened then re-estimated",
            "greedy-race": "greedy racing twice the candidates",
            "search": "greedy's candidates on the map search",
            "random": "a random legal shot",
        },
        driver=part("carromlab.games.force_out.driver:ForceOutDriver"),
        # racing twice the candidates: fewer penalties a game (docs/studies.md)
        strongest="greedy-race",
        default_grid=("-130:-50:9", "30:150:61", "2.0"),
        default_placement=-90.0,
        points_notes={
            "force-out": "opponent's ring forced out +5, own ring forced out −5, ring brought back −5",
            "force-out-fast": "opponent's ring forced out +5, own ring forced out −5, ring brought back −5",
        },
    )
)
