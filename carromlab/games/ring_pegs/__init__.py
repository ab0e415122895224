"""Ring Pegs (the Carrom Company's crokinole side): ``rules.py`` (origins, the pass and the
finish), ``machine.py`` (the stages, the turn, the game's end), ``driver.py`` (whole games on
the game loop), ``players.py`` (the greedy and random players), ``setups.py`` (a ring over
each peg)."""

from __future__ import annotations

from carromlab.registry import Game, Option, folder_parts, part, register_game, shared_notes

GAME = register_game(
    Game(
        **folder_parts(__name__, "RingPegs", "crokinole"),
        title="Ring Pegs (Carrom Company)",
        order=5,
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
            **shared_notes("random"),
        },
        strongest="greedy",  # its one searching player
        default_grid=("0", "85:95:41", "1.6,1.8,2.0,2.2"),  # one origin: the ring's start
        default_placement=-90.0,
    )
)
