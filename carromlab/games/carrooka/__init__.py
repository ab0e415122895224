"""Carrooka: ``rules.py`` (one stroke: the piece on, fouls by kind, points), ``striker.py``
(where the striker is played from: the break line, the margin-line relocation, the return
after a foul, clear lines), ``machine.py`` (phases, re-spotting, the bonus shot, the
Carrooka'd options, the end and the tie-break), ``driver.py`` (whole games on the game loop),
``players.py`` (candidate pots, the greedy and random players), ``nominate.py`` (which colour
to nominate), ``setups.py``."""

from __future__ import annotations

from carromlab.registry import Game, Option, register_game


def _analysis(variant: str):
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.games.carrooka import striker as co
    from carromlab.games.carrooka.rules import CarrookaRules

    return VariantAnalysis(
        variant,
        CarrookaRules(),
        "striker",
        co.no_line,
        co.placement_intervals,
        origin_of=co.origin,
        legal_origin_of=co.legal_origin,
        table_of=co.table_position,
        hand_placed=False,
    )


def _config(variant: str, **options):
    from carromlab.games.carrooka.machine import CarrookaConfig

    return CarrookaConfig(**options)


def _greedy(skill="club", variant=None):
    from carromlab.games.carrooka.players import CarrookaGreedy

    return CarrookaGreedy(skill=skill)


def _greedy_break(skill="club", variant=None):
    from carromlab.games.carrooka.players import CarrookaGreedy

    return CarrookaGreedy(skill=skill, break_shot="search")


def _search(skill="club", variant=None):
    from carromlab.analysis.policies import map_searching
    from carromlab.games.carrooka.players import CarrookaGreedy

    # the greedy player's pots (four times as many) on the map search, the searched break
    return map_searching(CarrookaGreedy(skill=skill, break_shot="search"))


def _learned(skill="club", variant=None):
    from carromlab.analysis.learned import LEARNED_BUDGET
    from carromlab.games.carrooka.players import CarrookaLearned

    # the learned screen (games/carrooka/screen.npz) in front of a kernel race of its top picks
    return CarrookaLearned(skill=skill, break_shot="search", budget=LEARNED_BUDGET)


def _random(skill="club", variant=None):
    from carromlab.games.carrooka.players import CarrookaRandom

    return CarrookaRandom()


def _driver(config):
    from carromlab.games.carrooka.driver import CarrookaDriver

    return CarrookaDriver(config)


def _player_view(position, turn, config):
    """What Carrooka's player sees at a position taken as given: a game state holding it,
    with the piece on from ``turn`` (its :class:`~carromlab.games.carrooka.rules.CarrookaTurn`;
    a colour is played as nominated), the red phase while reds are on, else the end
    sequence's lowest colour; the game's first stroke (the break) only where the position
    is a set-up (set by hand) with the striker in hand; never Carrooka'd. The turn context
    is the rule configuration."""
    from carromlab.equipment.carrooka import COLOURS
    from carromlab.games.carrooka.machine import CarrookaState
    from carromlab.games.carrooka.rules import CarrookaTurn, striker_spot

    on = turn if isinstance(turn, CarrookaTurn) else CarrookaTurn()
    first = position.set_by_hand and striker_spot(position) is None
    target: dict = {}
    if on.on != "red":  # the colour on: played as nominated
        target = {"again": on}
    elif not position.count("red"):  # no red left: the end sequence's lowest colour
        lowest = next((c for c in COLOURS if position.count(c)), None)
        target = {"phase": "sequence", "sequence_on": lowest} if lowest else {}
    state = CarrookaState(
        position=position, counter=on.counter, strokes=0 if first else 1, **target
    )
    return state, config


def _shot_position(position, options):
    """The position with the striker where ``--striker X,Y`` puts it."""
    spec = options.get("striker")
    if not spec:
        return position
    from carromlab.position import Piece
    from carromlab.registry import parse_pair

    x, y = parse_pair(spec, "striker")
    rest = tuple(p for p in position.pieces if p.kind != "striker")
    pos = position.replace(pieces=(*rest, Piece("striker", "striker", None, x, y)))
    pos.check()
    return pos


def _shot_turn(options, turn=None):
    """The piece on that ``--nominate`` sets, in ``turn`` (the position's; its free counter
    stays); None without ``--nominate`` (the position's turn, or the red, stands)."""
    import dataclasses

    from carromlab.games.carrooka.rules import CarrookaTurn

    on = options.get("nominate")
    if not on:
        return None
    return dataclasses.replace(turn if turn is not None else CarrookaTurn(), on=on)


def _rules_class(variant: str):
    from carromlab.games.carrooka.rules import CarrookaRules

    return CarrookaRules


def _setup(name: str):
    def make():
        from carromlab.games.carrooka import setups

        return getattr(setups, name)()

    return make


GAME = register_game(
    Game(
        name="carrooka",
        title="Carrooka",
        variants=("carrooka",),
        family="carrooka",
        order=1,
        positions={
            "carrooka-opening": _setup("carrooka_opening"),
            "carrooka-midgame": _setup("carrooka_midgame"),
        },
        default_position={"carrooka": "carrooka-opening"},
        analysis=_analysis,
        rules_class=_rules_class,
        config=_config,
        options=(
            Option("bonus", True, "The bonus shot after a foul.", "bonus_shot"),
            Option(
                "tie",
                "respot_black",
                "How a tie ends: respot_black or draw.",
                choices=("respot_black", "draw"),
            ),
            Option(
                "carrookad",
                "choose",
                "After a foul: choose, break_line, counter or pass.",
                choices=("choose", "break_line", "counter", "pass"),
            ),
        ),
        players={
            "greedy": _greedy,
            "greedy-break": _greedy_break,
            "search": _search,
            "learned": _learned,
            "random": _random,
        },
        driver=_driver,
        # greedy with the searched break: the first player's clear edge (docs/studies.md)
        strongest="greedy-break",
        player_view=_player_view,
        default_grid=("-90", "0:355:72", "1:5:9"),
        default_placement=-90.0,
        shot_options=(
            Option(
                "striker",
                "",
                "X,Y (m) where the striker lies (default: the position's, or in hand).",
                type=str,
            ),
            Option(
                "nominate",
                "",
                "The piece on, red or the nominated colour (default red).",
                type=str,
            ),
        ),
        shot_position=_shot_position,
        shot_turn=_shot_turn,
        # the break is the game's first stroke, from the break line at the red
        plain_break=True,
        points_notes={"carrooka": "legal pots score red 1, yellow 2 … black 7; a foul 0"},
    )
)
