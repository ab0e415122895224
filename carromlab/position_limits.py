"""The limits a position document is read within, and how a value is shown in a refusal:
sizes (bytes, nesting, pieces, words), the physical bounds of a board's fields
(:data:`COUNTS`, :func:`bound_of`) and :func:`show`. What reads a position with them is
:mod:`carromlab.position_schema` (which names all of these too). These are carromlab's own
choices, not rules of any game.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any

FORMAT = "carromlab-position"
FORMAT_VERSION = 1

MAX_BYTES = 256 * 1024
MAX_DEPTH = 16
MAX_INT_DIGITS = 20
MAX_PIECES = 64
MAX_WORD = 64
MAX_NAME = 200
MAX_DESCRIPTION = 4000
MAX_TURN_FIELDS = 16
_MAX_FLOAT = sys.float_info.max


@dataclass(frozen=True)
class Bound:
    """A board field's range: ``lo <= value <= hi`` in ``unit``."""

    lo: float
    hi: float
    unit: str


MASS = Bound(1e-4, 10.0, "kg")
LENGTH = Bound(1e-4, 5.0, "m")
SPEED = Bound(1e-4, 100.0, "m/s")
#: Whole-number board fields and their ranges (a new int field needs an entry here).
COUNTS = {
    "peg_count": Bound(1, 64, "pegs"),
    "pocket_count": Bound(1, 64, "pockets"),
    "throw_sticks": Bound(1, 20, "stick lengths"),
    "pro_throw_sticks": Bound(1, 20, "stick lengths"),
}


def bound_of(name: str, kind: type) -> Bound | None:
    """The range of the board field ``name`` of type ``kind`` (int or float); None: any finite
    number (angles)."""
    if kind is int:
        return COUNTS[name]
    if name.endswith("_mass"):
        return MASS
    if name.endswith("_speed"):
        return SPEED
    if "angle" in name:
        return None
    return LENGTH


# ---------------------------------------------------------------------- values in messages


class LongInteger:
    """An integer literal longer than ``MAX_INT_DIGITS`` digits, left unconverted; the schema
    refuses it where it stands, naming its field."""

    def __init__(self, text: str):
        self.digits = len(text.lstrip("-"))

    def __repr__(self) -> str:
        return f"an integer of {self.digits} digits"


def show(value: Any, limit: int = 40) -> str:
    """``value`` for a one-line message: JSON's words for null and booleans, containers by
    size, long integers by their digits, everything else as ``repr`` cut to ``limit``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) >= 10**MAX_INT_DIGITS:
        return f"an integer of {_digits(value)} digits"
    if isinstance(value, dict):
        return f"an object of {len(value)} key{'s' * (len(value) != 1)}"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item{'s' * (len(value) != 1)}"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _digits(value: int) -> str:
    try:
        return str(len(str(abs(value))))
    except ValueError:  # beyond Python's int-to-text limit (4,300 digits)
        return f"about {round(abs(value).bit_length() * math.log10(2)):,}"


def _key(name: Any) -> str:
    return name if isinstance(name, str) and name.isidentifier() else show(name)
