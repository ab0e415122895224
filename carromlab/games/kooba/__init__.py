"""KOOBA: ``rules.py`` (what a throw tags: the zones, the KOOBA, runs and markers),
``geometry.py`` (exact overlaps: an Aero against discs and convex zones, ringing),
``machine.py`` (turns, markers, Lock, attack, tie breaker, Pro, Deuces), ``driver.py`` (whole
games on the game loop, throws on the throw kernel), ``players.py`` (the greedy player),
``maps.py`` (aim-point maps of every tag's chance), ``commands.py`` (aim-point estimate and
map), ``explore.py`` (its throws in the explorer), ``setups.py``."""

from __future__ import annotations

from carromlab.input_schema import SLIDE, STICKS
from carromlab.registry import Game, Option, register_game


def _config(variant: str, **options):
    from carromlab.games.kooba.machine import KoobaConfig

    return KoobaConfig(**options)


def _greedy(skill="club", variant=None):
    from carromlab.games.kooba.players import KoobaGreedy

    return KoobaGreedy(skill=skill)


def _search(skill="club", variant=None):
    """The greedy player with each goal's aim refined from its own map (the best 8 cells, 9
    points each, 2,000 throws a point: ``KoobaGreedy.refine``)."""
    from carromlab.games.kooba.players import STRONG, KoobaGreedy

    return KoobaGreedy(skill=skill, refine=STRONG.refine, refine_n=STRONG.refine_n)


def _strong(skill="club", variant=None):
    """The refined aims with the early, pressing attack: the balance studies' second
    strength (``players.STRONG``), at ``skill``."""
    from dataclasses import replace

    from carromlab.games.kooba.players import STRONG

    return replace(STRONG, skill=skill)


def _driver(config):
    from carromlab.games.kooba.driver import KoobaDriver

    return KoobaDriver(config)


def _estimate(**kw):
    from carromlab.games.kooba.commands import estimate

    return estimate(**kw)


def _shotmap(**kw):
    from carromlab.games.kooba.commands import shotmap

    return shotmap(**kw)


def _explorer():
    from carromlab.games.kooba.explore import ThrowExplorer

    return ThrowExplorer


def _opening(n_players: int | None = None):
    def make():
        from carromlab.games.kooba.setups import kooba_opening

        return kooba_opening() if n_players is None else kooba_opening(n_players=n_players)

    return make


GAME = register_game(
    Game(
        name="kooba",
        title="KOOBA",
        variants=("kooba",),
        family="kooba",
        order=6,
        positions={
            "kooba-opening": _opening(),
            "kooba-opening-2p": _opening(2),
            "kooba-opening-3p": _opening(3),
        },
        config=_config,
        options=(
            Option("players", 2, "Players (2-4).", "n_players", minimum=2, maximum=4),
            Option("pro", False, "The Pro mod (5 sticks, inner eye, penalties)."),
            Option("deuces", False, "The Deuces mod (a KOOBA tag counts 2)."),
        ),
        players={"greedy": _greedy, "search": _search, "strong": _strong},
        # the refined aims and the early attack won 0.550 [0.501, 0.598] against greedy
        # (docs/studies.md, "The attack turn, its timing, and Pro")
        strongest="strong",
        driver=_driver,
        physics=False,  # the throw kernel (physics/throw.py) reads no Physics field
        shot_options=(
            Option("aim", "0,0", "The aim point X,Y (m; default 0,0, the KOOBA).", type=str),
            Option(
                "aims",
                "-0.27:0.27:28",
                "The aim grid on both axes, START:STOP:COUNT (m).",
                type=str,
            ),
            Option(
                "sticks",
                4,
                "The throwing distance in stick lengths (Pro plays from 5).",
                minimum=STICKS.lo,
                maximum=STICKS.hi,
            ),
            Option(
                "seat",
                "S",
                "The thrower's seat, N, E, S or W.",
                choices=("N", "E", "S", "W"),
            ),
            Option(
                "slide",
                0.0,
                "The throw's slide scale (m; 0: Aeros stick where they land).",
                minimum=SLIDE.lo,
                maximum=SLIDE.hi,
            ),
        ),
        commands={"estimate": _estimate, "shotmap": _shotmap},
        explorer=_explorer,  # throws aimed at a point, not a shooter's shot
    )
)
