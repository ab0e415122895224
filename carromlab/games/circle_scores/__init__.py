"""Circle Scores (the Carrom Company's crokinole side): ``rules.py`` (one shot: the shooting
ring in the circle, object rings driven out), ``machine.py`` (shots in turn, the rack set up
again), ``driver.py`` (whole games on the game loop), ``players.py`` (the ring-out players),
``setups.py`` (the opening). Where a shooting ring is played from is shared with the other
crokinole-side games (:mod:`carromlab.rules.crokinole`), and the ring-out players with Force
Out (:mod:`carromlab.analysis.crokinole`)."""

from __future__ import annotations

from carromlab.registry import Game, Option, register_game


def _analysis(variant: str):
    from carromlab.analysis.crokinole import outer_line_analysis
    from carromlab.games.circle_scores.rules import CircleScoresRules

    return outer_line_analysis(variant, CircleScoresRules(), hand_placed=True)


def _config(variant: str, **options):
    from carromlab.games.circle_scores.machine import CircleScoresConfig

    return CircleScoresConfig(**options)


def _player(policy: str):
    def make(skill="club", variant=None):
        from carromlab.analysis.crokinole import ring_out_player

        return ring_out_player(policy, skill)

    return make


def _driver(config):
    from carromlab.games.circle_scores.driver import CircleScoresDriver

    return CircleScoresDriver(config)


def _rules_class(variant: str):
    from carromlab.games.circle_scores.rules import CircleScoresRules

    return CircleScoresRules


def _opening():
    from carromlab.games.circle_scores.setups import circle_scores_opening

    return circle_scores_opening()


GAME = register_game(
    Game(
        name="circle-scores",
        title="Circle Scores (Carrom Company)",
        variants=("circle-scores",),
        family="crokinole",
        order=4,
        positions={"circle-scores-opening": _opening},
        default_position={"circle-scores": "circle-scores-opening"},
        analysis=_analysis,
        rules_class=_rules_class,
        config=_config,
        options=(
            Option(
                "shots",
                5,
                "Shots per player.",
                minimum=1,
                variants=("circle-scores",),
            ),
        ),
        # the ring-out players (analysis/crokinole.py), shared with Force Out
        players={p: _player(p) for p in ("greedy", "greedy-race", "search", "random")},
        driver=_driver,
        # no stronger player measured in Circle Scores (greedy-race is Force Out's)
        strongest="greedy",
        default_grid=("-130:-50:9", "30:150:61", "2.0"),
        default_placement=-90.0,
    )
)
