"""Circle Scores (the Carrom Company's crokinole side): ``rules.py`` (one shot: the shooting
ring in the circle, object rings driven out), ``machine.py`` (shots in turn, the rack set up
again), ``driver.py`` (whole games on the game loop), ``players.py`` (the ring-out players),
``setups.py`` (the opening). Where a shooting ring is played from is shared with the other
crokinole-side games (:mod:`carromlab.rules.crokinole`), and the ring-out players with Force
Out (:mod:`carromlab.analysis.crokinole`)."""

from __future__ import annotations

from carromlab.registry import Game, Option, part, register_game

GAME = register_game(
    Game(
        name="circle-scores",
        title="Circle Scores (Carrom Company)",
        variants=("circle-scores",),
        family="crokinole",
        order=4,
        positions={
            "circle-scores-opening": part(
                "carromlab.games.circle_scores.setups:circle_scores_opening"
            )
        },
        default_position={"circle-scores": "circle-scores-opening"},
        analysis=part("carromlab.games.circle_scores.parts:analysis"),
        rules_class=part("carromlab.games.circle_scores.rules:CircleScoresRules"),
        config=part(
            "carromlab.games.circle_scores.machine:CircleScoresConfig", takes_variant=False
        ),
        options=(
            Option(
                "shots",
                5,
                "Shots per player.",
                minimum=1,
                variants=("circle-scores",),
            ),
        ),
        # the ring-out players (analysis/crokinole.py, shared with Force Out) under its names
        players={
            p: part(
                "carromlab.games.circle_scores.players:circle_scores_player", p, takes_variant=False
            )
            for p in ("greedy", "greedy-race", "search", "random")
        },
        player_notes={
            "greedy": "the best of its candidate shots, screened then re-estimated",
            "greedy-race": "greedy racing twice the candidates",
            "search": "greedy's candidates on the map search",
            "random": "a random legal shot",
        },
        # its runs were logged under the Force Out players' names before it had its own
        player_aliases={
            "ForceOutGreedy": "CircleScoresGreedy",
            "ForceOutRandom": "CircleScoresRandom",
        },
        driver=part("carromlab.games.circle_scores.driver:CircleScoresDriver"),
        # no stronger player measured in Circle Scores (greedy-race is Force Out's)
        strongest="greedy",
        default_grid=("-130:-50:9", "30:150:61", "2.0"),
        default_placement=-90.0,
    )
)
