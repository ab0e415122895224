"""Ring Pegs (the Carrom Company's crokinole side): ``rules.py`` (origins, the pass and the
finish), ``machine.py`` (the stages, the turn, the game's end), ``driver.py`` (whole games on
the game loop), ``players.py`` (the greedy and random players), ``setups.py`` (a ring over
each peg)."""

from __future__ import annotations

from carromlab.registry import Game, Option, part, register_game

GAME = register_game(
    Game(
        name="ring-pegs",
        title="Ring Pegs (Carrom Company)",
        variants=("ring-pegs",),
        family="crokinole",
        order=5,
        positions={"ring-pegs-opening": part("carromlab.games.ring_pegs.setups:ring_pegs_opening")},
        default_position={"ring-pegs": "ring-pegs-opening"},
        analysis=part("carromlab.games.ring_pegs.parts:analysis"),
        rules_class=part("carromlab.games.ring_pegs.rules:RingPegsRules"),
        config=part("carromlab.games.ring_pegs.machine:RingPegsConfig", takes_variant=False),
        options=(
            Option(
                "max-strokes", 300, "Strokes before a game ends unfinished (no winner).", minimum=1
            ),
        ),
        players={
            "greedy": part("carromlab.games.ring_pegs.players:RingPegsGreedy", takes_variant=False),
            # the sweep's aims on the map search (refined between them)
            "search": part("carromlab.games.ring_pegs.parts:search", takes_variant=False),
            "random": part(
                "carromlab.games.ring_pegs.players:RingPegsRandom",
                takes_variant=False,
                takes_skill=False,
            ),
        },
        player_notes={
            "greedy": "the best aim of the stage's sweep",
            "search": "the sweep's aims on the map search",
            "random": "a random legal shot",
        },
        driver=part("carromlab.games.ring_pegs.driver:RingPegsDriver"),
        strongest="greedy",  # its one searching player
        default_grid=("0", "85:95:41", "1.6,1.8,2.0,2.2"),  # one origin: the ring's start
        default_placement=-90.0,
    )
)
