"""A position's turn: the rules' turn state built from a position's ``turn`` fields, and said
in words.

A position file may carry its game's turn state before the shot (``"turn": {"shooter":
"white", "own_down": 6, ...}``, docs/positions.md); the document's schema only checks that it
is an object of scalars (``position_schema.turn_problem``). Here the fields meet the game's
own turn type (its rules' ``turn_type``, a frozen dataclass): :func:`turn_from_fields`
refuses an unknown field in one line naming it and the known ones, a value of the wrong JSON
type in one line naming the field, and leaves a value's range to the turn type's own check
(``IcfTurn.__post_init__``: "IcfTurn.own_down must be at most 9, not 12"). A field left out
takes the type's default. :func:`describe_turn` says a turn in words (each turn type's
``describe()``, or its fields where it has none).

Pure Python (no JAX): the command line checks a position's turn before anything loads.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from carromlab.errors import CarromlabError


def _accepts(hint: Any, value: Any) -> bool | None:
    """Whether ``value`` (a JSON scalar) is of the type ``hint`` says; None where the hint is
    not one of the plain types (the turn type's own check then judges)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        verdicts = [_accepts(h, value) for h in typing.get_args(hint)]
        if any(v is True for v in verdicts):
            return True
        return None if any(v is None for v in verdicts) else False
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    return None


def _words(hint: Any) -> str:
    """What a field of type ``hint`` holds, in JSON's words."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(_words(h) for h in typing.get_args(hint))
    return {
        type(None): "null",
        bool: "true or false",
        int: "a whole number",
        float: "a number",
        str: "a string",
    }.get(hint, getattr(hint, "__name__", str(hint)))


def _show(value: Any) -> str:
    from carromlab.position_schema import show

    return show(value)


def turn_from_fields(
    turn_type: type[Any] | None, fields: Mapping[str, Any] | None, variant: str
) -> object:
    """The rules' turn state of ``variant`` from a position's ``turn`` fields: a new
    ``turn_type`` with those fields (a field left out takes its default), or the default turn
    when ``fields`` is None. One line (:class:`CarromlabError`) for a turn on a variant without
    a turn state, an unknown field (with the known ones), a value of the wrong JSON type, or
    what the turn type's own check refuses. None for a variant without a turn state and no
    fields."""
    if turn_type is None:
        if fields is None:
            return None
        raise CarromlabError(
            f"a {variant} position takes no 'turn': {variant} has no turn state to set; drop 'turn'"
        )
    if fields is None:
        default: object = turn_type()
        return default
    name = turn_type.__name__
    known = [f.name for f in dataclasses.fields(turn_type)]
    for key in fields:
        if key not in known:
            from carromlab.input_schema import closest

            close = closest(key, known)
            hint = f"did you mean {' or '.join(close)}? " if close else ""
            raise CarromlabError(
                f"turn: unknown field {_show(key)} for {variant}; {hint}{name}'s fields: "
                f"{', '.join(known)}"
            )
    hints = typing.get_type_hints(turn_type)
    for key, value in fields.items():
        kind = hints.get(key)
        if kind is not None and _accepts(kind, value) is False:
            raise CarromlabError(f"turn: {name}.{key} must be {_words(kind)}, not {_show(value)}")
    try:
        turn: object = turn_type(**dict(fields))
    except CarromlabError as e:
        raise CarromlabError(f"turn: {e}") from None
    except (TypeError, ValueError) as e:
        raise CarromlabError(f"turn: {name}: {e}") from None
    return turn


def describe_turn(turn: object, position: object = None) -> str:
    """A turn state in words, for a line such as ``turn: white to play, 6 own coins down, 4
    opponent's, queen on the board``: the turn type's ``describe(position)`` where it has
    one (``position``: the pieces, which some games' sentences read; may be None), else its
    fields (``own_down 6, ...``); "" for no turn."""
    if turn is None:
        return ""
    describe = getattr(turn, "describe", None)
    if callable(describe):
        return str(describe(position))
    if dataclasses.is_dataclass(turn) and not isinstance(turn, type):
        return ", ".join(f"{f.name} {getattr(turn, f.name)}" for f in dataclasses.fields(turn))
    return str(turn)


def turn_words(
    turn_type: type[Any] | None, fields: Mapping[str, Any] | None, position: object = None
) -> str:
    """A result's turn in words, from its configuration's ``turn`` (the turn's fields, as
    every estimate, shot map and search stores them) and the variant's turn type; "" where
    there is none, or where the fields no longer make one."""
    if turn_type is None or fields is None:
        return ""
    try:
        turn: object = turn_type(**dict(fields))
    except (CarromlabError, TypeError, ValueError):
        return ""
    return describe_turn(turn, position)
