"""Force Out, Fast Play Force Out and Circle Scores (the Carrom Company's crokinole side):
``rules.py`` (one Force Out stroke), ``machine.py`` (Force Out and Fast Play games),
``circle_scores.py`` (Circle Scores' rules and machine), ``players.py`` (the greedy and random
players and both drivers), ``setups.py`` (the openings). Where a shooting ring is played from
is shared with the other crokinole-side games (:mod:`carromlab.rules.crokinole`)."""

from __future__ import annotations

from carromlab.registry import Game, Option, register_game

VARIANTS = ("force-out", "force-out-fast", "circle-scores")


def _analysis(variant: str):
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.calibration_presets import CROKINOLE_SKILLS
    from carromlab.games.force_out.circle_scores import CircleScoresRules
    from carromlab.games.force_out.rules import ForceOutRules
    from carromlab.rules import crokinole as ks

    return VariantAnalysis(
        variant,
        CircleScoresRules() if variant == "circle-scores" else ForceOutRules(),
        "shooter",
        ks.no_line,
        ks.placement_intervals,
        origin_of=ks.origin,
        legal_origin_of=ks.legal_origin,
        table_of=ks.table_position,
        hand_placed=variant != "force-out-fast",
        skills=CROKINOLE_SKILLS,
    )


def _config(variant: str, **options):
    if variant == "circle-scores":
        from carromlab.games.force_out.circle_scores import CircleScoresConfig

        return CircleScoresConfig(**options)
    from carromlab.games.force_out.machine import ForceOutConfig

    return ForceOutConfig(fast=variant == "force-out-fast", **options)


def _greedy(skill="club", variant=None):
    from carromlab.games.force_out.players import ForceOutGreedy

    return ForceOutGreedy(skill=skill)


def _greedy_race(skill="club", variant=None):
    from carromlab.analysis.policies import RACING
    from carromlab.games.force_out.players import ForceOutGreedy

    # racing twice the candidates (the ICF greedy-race's budget)
    return ForceOutGreedy(skill=skill, **RACING)


def _random(skill="club", variant=None):
    from carromlab.games.force_out.players import ForceOutRandom

    return ForceOutRandom()


def _driver(config):
    from carromlab.games.force_out import players

    if config.variant == "circle-scores":
        return players.CircleScoresDriver(config)
    return players.ForceOutDriver(config)


def _rules_class(variant: str):
    if variant == "circle-scores":
        from carromlab.games.force_out.circle_scores import CircleScoresRules

        return CircleScoresRules
    from carromlab.games.force_out.rules import ForceOutRules

    return ForceOutRules


def _setup(name: str, *args):
    def make():
        from carromlab.games.force_out import setups

        return getattr(setups, name)(*args)

    return make


GAME = register_game(
    Game(
        name="force-out",
        title="Force Out, Fast Play Force Out and Circle Scores (Carrom Company)",
        variants=VARIANTS,
        family="crokinole",
        order=3,
        positions={
            "force-out-opening": _setup("force_out_opening"),
            "force-out-fast-opening": _setup("force_out_opening", "force-out-fast"),
            "circle-scores-opening": _setup("circle_scores_opening"),
        },
        default_position={
            "force-out": "force-out-opening",
            "force-out-fast": "force-out-fast-opening",
            "circle-scores": "circle-scores-opening",
        },
        analysis=_analysis,
        rules_class=_rules_class,
        config=_config,
        options=(
            Option(
                "rounds",
                1,
                "Rounds a game.",
                minimum=1,
                variants=("force-out", "force-out-fast"),
            ),
            Option(
                "shots",
                5,
                "Shots per player.",
                minimum=1,
                variants=("circle-scores",),
            ),
        ),
        players={"greedy": _greedy, "greedy-race": _greedy_race, "random": _random},
        driver=_driver,
        default_grid=("-130:-50:9", "30:150:61", "2.0"),
        default_placement=-90.0,
        points_notes={
            "force-out": "opponent's ring forced out +5, own ring forced out −5, ring brought back −5",
            "force-out-fast": "opponent's ring forced out +5, own ring forced out −5, ring brought back −5",
        },
    )
)
