"""Circle Scores (the Carrom Company's crokinole side): ``rules.py`` (one shot: the shooting
ring in the circle, object rings driven out), ``machine.py`` (shots in turn, the rack set up
again), ``driver.py`` (whole games on the game loop), ``players.py`` (the ring-out players),
``setups.py`` (the opening). Where a shooting ring is played from is shared with the other
crokinole-side games (:mod:`carromlab.rules.crokinole`), and the ring-out players with Force
Out (:mod:`carromlab.analysis.crokinole`)."""

from __future__ import annotations

from carromlab.registry import Game, Option, folder_parts, register_game, ring_out_players

GAME = register_game(
    Game(
        **folder_parts(__name__, "CircleScores", "crokinole"),
        title="Circle Scores (Carrom Company)",
        order=4,
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
        **ring_out_players("carromlab.games.circle_scores.players:circle_scores_player"),
        # its runs were logged under the Force Out players' names before it had its own
        player_aliases={
            "ForceOutGreedy": "CircleScoresGreedy",
            "ForceOutRandom": "CircleScoresRandom",
        },
        # no stronger player measured in Circle Scores (greedy-race is Force Out's)
        strongest="greedy",
        default_grid=("-130:-50:9", "30:150:61", "2.0"),
        default_placement=-90.0,
    )
)
