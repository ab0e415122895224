"""Ring Pegs (the Carrom Company's crokinole side): ``rules.py`` (origins, the pass and the
finish), ``machine.py`` (the stages, the turn, the game's end), ``driver.py`` (whole games on
the game loop), ``players.py`` (the greedy and random players), ``setups.py`` (a ring over
each peg)."""

from __future__ import annotations

from carromlab.registry import Game, Option, register_game


def _analysis(variant: str):
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.calibration_presets import CROKINOLE_SKILLS
    from carromlab.games.ring_pegs import rules as rp

    return VariantAnalysis(
        variant,
        rp.RingPegsRules(),
        "shooter",
        rp.no_line,
        rp.placement_intervals,
        origin_of=rp.origin,
        legal_origin_of=rp.legal_origin,
        check_origin=rp.check_origin,
        table_of=rp.table_position,
        hand_placed=False,
        skills=CROKINOLE_SKILLS,
    )


def _config(variant: str, **options):
    from carromlab.games.ring_pegs.machine import RingPegsConfig

    return RingPegsConfig(**options)


def _greedy(skill="club", variant=None):
    from carromlab.games.ring_pegs.players import RingPegsGreedy

    return RingPegsGreedy(skill=skill)


def _search(skill="club", variant=None):
    from carromlab.analysis.policies import map_searching
    from carromlab.games.ring_pegs.players import RingPegsGreedy

    # the sweep's aims on the map search (refined between them)
    return map_searching(RingPegsGreedy(skill=skill))


def _random(skill="club", variant=None):
    from carromlab.games.ring_pegs.players import RingPegsRandom

    return RingPegsRandom()


def _driver(config):
    from carromlab.games.ring_pegs.driver import RingPegsDriver

    return RingPegsDriver(config)


def _rules_class(variant: str):
    from carromlab.games.ring_pegs.rules import RingPegsRules

    return RingPegsRules


def _opening():
    from carromlab.games.ring_pegs.setups import ring_pegs_opening

    return ring_pegs_opening()


GAME = register_game(
    Game(
        name="ring-pegs",
        title="Ring Pegs (Carrom Company)",
        variants=("ring-pegs",),
        family="crokinole",
        order=5,
        positions={"ring-pegs-opening": _opening},
        default_position={"ring-pegs": "ring-pegs-opening"},
        analysis=_analysis,
        rules_class=_rules_class,
        config=_config,
        options=(
            Option(
                "max-strokes", 300, "Strokes before a game ends unfinished (no winner).", minimum=1
            ),
        ),
        players={"greedy": _greedy, "search": _search, "random": _random},
        driver=_driver,
        strongest="greedy",  # its one searching player
        default_grid=("0", "85:95:41", "1.6,1.8,2.0,2.2"),  # one origin: the ring's start
        default_placement=-90.0,
    )
)
