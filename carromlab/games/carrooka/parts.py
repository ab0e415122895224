"""The parts of Carrooka's registration (``games/carrooka/__init__.py``) that are not a
class or function of the game's other modules called as the registry calls it: the
shot-analysis hooks, what its player sees at a position taken as given, the shot commands'
``--striker`` and ``--nominate``, the search-based player. Imported on first use."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING

from carromlab.equipment.carrooka import COLOURS
from carromlab.games.carrooka.machine import CarrookaConfig, CarrookaState
from carromlab.games.carrooka.rules import CarrookaRules, CarrookaTurn, striker_spot
from carromlab.position import Piece, Position
from carromlab.registry import OptionValue, parse_pair

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.analysis.players import Player
    from carromlab.analysis.variants import VariantAnalysis


def analysis(variant: str) -> VariantAnalysis:
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.games.carrooka import striker as co

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


def search(skill: str = "club") -> Player:
    from carromlab.analysis.policies import map_searching
    from carromlab.games.carrooka.players import CarrookaGreedy

    # the greedy player's pots (four times as many) on the map search, the searched break
    return map_searching(CarrookaGreedy(skill=skill, break_shot="search"))


def player_view(position: Position, turn: object, config: CarrookaConfig) -> tuple[object, object]:
    """What Carrooka's player sees at a position taken as given: a game state holding it,
    with the piece on from ``turn`` (its :class:`~carromlab.games.carrooka.rules.CarrookaTurn`;
    a colour is played as nominated), the red phase while reds are on, else the end
    sequence's lowest colour; the game's first stroke (the break) only where the position
    is a set-up (set by hand) with the striker in hand; never Carrooka'd. The turn context
    is the rule configuration."""
    on = turn if isinstance(turn, CarrookaTurn) else CarrookaTurn()
    first = position.set_by_hand and striker_spot(position) is None
    target: dict[str, object] = {}
    if on.on != "red":  # the colour on: played as nominated
        target = {"again": on}
    elif not position.count("red"):  # no red left: the end sequence's lowest colour
        lowest = next((c for c in COLOURS if position.count(c)), None)
        target = {"phase": "sequence", "sequence_on": lowest} if lowest else {}
    state = CarrookaState(
        position=position, counter=on.counter, strokes=0 if first else 1, **target
    )
    return state, config


def shot_position(position: Position, options: Mapping[str, OptionValue]) -> Position:
    """The position with the striker where ``--striker X,Y`` puts it."""
    spec = options.get("striker")
    if not spec:
        return position
    x, y = parse_pair(str(spec), "striker")
    rest = tuple(p for p in position.pieces if p.kind != "striker")
    pos = position.replace(pieces=(*rest, Piece("striker", "striker", None, x, y)))
    pos.check()
    return pos


def shot_turn(
    options: Mapping[str, OptionValue], turn: CarrookaTurn | None = None
) -> CarrookaTurn | None:
    """The piece on that ``--nominate`` sets, in ``turn`` (the position's; its free counter
    stays); None without ``--nominate`` (the position's turn, or the red, stands)."""
    on = options.get("nominate")
    if not on:
        return None
    return dataclasses.replace(turn if turn is not None else CarrookaTurn(), on=str(on))
