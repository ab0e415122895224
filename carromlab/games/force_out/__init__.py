"""Force Out and Fast Play Force Out (the Carrom Company's crokinole side): ``rules.py`` (one
stroke), ``machine.py`` (rounds, penalties, Fast Play's one ring), ``driver.py`` (whole games
on the game loop), ``players.py`` (the ring-out players), ``setups.py`` (the opening). Where a
shooting ring is played from is shared with the other crokinole-side games
(:mod:`carromlab.rules.crokinole`), and the ring-out players with Circle Scores
(:mod:`carromlab.analysis.crokinole`)."""

from __future__ import annotations

from carromlab.registry import Game, Option, register_game

VARIANTS = ("force-out", "force-out-fast")


def _analysis(variant: str):
    from carromlab.analysis.crokinole import outer_line_analysis
    from carromlab.games.force_out.rules import ForceOutRules

    # Fast Play's ring is played from where it lies, not placed by hand
    return outer_line_analysis(variant, ForceOutRules(), hand_placed=variant != "force-out-fast")


def _config(variant: str, **options):
    from carromlab.games.force_out.machine import ForceOutConfig

    return ForceOutConfig(fast=variant == "force-out-fast", **options)


def _player(policy: str):
    def make(skill="club", variant=None):
        from carromlab.analysis.crokinole import ring_out_player

        return ring_out_player(policy, skill)

    return make


def _driver(config):
    from carromlab.games.force_out.driver import ForceOutDriver

    return ForceOutDriver(config)


def _rules_class(variant: str):
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
        title="Force Out and Fast Play Force Out (Carrom Company)",
        variants=VARIANTS,
        family="crokinole",
        order=3,
        positions={
            "force-out-opening": _setup("force_out_opening"),
            "force-out-fast-opening": _setup("force_out_opening", "force-out-fast"),
        },
        default_position={
            "force-out": "force-out-opening",
            "force-out-fast": "force-out-fast-opening",
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
        ),
        # the ring-out players (analysis/crokinole.py), shared with Circle Scores
        players={p: _player(p) for p in ("greedy", "greedy-race", "search", "random")},
        driver=_driver,
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
