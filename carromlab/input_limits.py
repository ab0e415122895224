"""The numeric limits of carromlab's inputs: each a :class:`Limit` (a range, its unit, open or
closed ends), the counts and sizes a run may ask for, and the tables of them by option name
(:data:`FLAGS`, :data:`GRIDS`) and by physics field (:data:`PHYSICS`). What reads them, and
the one-line refusals, are in :mod:`carromlab.input_schema` (which names all of these too).
These are carromlab's own choices, not rules of any game; where a limit is a physical one its
source is beside it.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, Strict

from carromlab.position_schema import COUNTS, LENGTH

MAX_SEED = 2**32 - 1
MAX_SHOTS = 10**8
MAX_RUN_SHOTS = 2**31 - 1
MAX_CELLS = 10**6
MAX_SWEEP_SHOTS = 10**10
MAX_THROWS = 5 * 10**6
MAX_COUNT = 10**6
#: Speeds above this are refused as absurd (m/s): a hard flick is 4-6 m/s (docs/equipment.md).
MAX_SPEED = 15.0
_MAX_FLOAT = sys.float_info.max


def number(v: float) -> str:
    """``v`` for a message: whole numbers with thousands separators, others as ``:g``."""
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) >= 1e4):
        return f"{int(v):,}"
    return f"{v:g}"


@dataclass(frozen=True)
class Limit:
    """A range ``lo <= value <= hi`` (``lo < value`` where ``lo_open``; likewise ``hi_open``)
    of whole numbers (``kind`` int) or finite floats, in ``unit``."""

    lo: float
    hi: float
    unit: str = ""
    kind: type = float
    lo_open: bool = False
    hi_open: bool = False

    def problem(self, v: float) -> str | None:
        """Why ``v`` is out of range (or not finite), or None."""
        if isinstance(v, float) and not math.isfinite(v):
            return "must be finite"
        unit = f" {self.unit}" if self.unit else ""
        if v < self.lo or (self.lo_open and v == self.lo):
            if self.lo_open:
                return "must be positive" if self.lo == 0 else f"must be above {number(self.lo)}"
            return f"must be at least {number(self.lo)}{unit if self.kind is float else ''}"
        if v > self.hi or (self.hi_open and v == self.hi):
            return f"must be {'below' if self.hi_open else 'at most'} {number(self.hi)}{unit}"
        return None

    def check(self, v: Any) -> Any:
        why = self.problem(v)
        if why is not None:
            raise ValueError(why)
        return v

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "exclusiveMinimum" if self.lo_open else "minimum": self.lo,
            "exclusiveMaximum" if self.hi_open else "maximum": self.hi,
        }
        if self.unit:
            out["unit"] = self.unit
        return out

    @property
    def type(self) -> Any:
        """A strict pydantic type of the range (its JSON Schema carries the bounds)."""
        extra = Field(json_schema_extra=self.schema())
        if self.kind is int:
            return Annotated[int, Strict(), extra, AfterValidator(self.check)]
        return Annotated[
            float,
            BeforeValidator(huge_to_inf),
            Strict(),
            Field(allow_inf_nan=False),
            extra,
            AfterValidator(self.check),
        ]


def huge_to_inf(v: Any) -> Any:
    """An integer too large for a float is infinite (as 1e400 is), and refused as such."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > _MAX_FLOAT:
        return math.inf if v > 0 else -math.inf
    return v


def _count(lo: int, hi: int, unit: str = "") -> Limit:
    return Limit(lo, hi, unit, int)


SEED = _count(0, MAX_SEED)
SHOTS = _count(1, MAX_SHOTS, "shots")
COUNT = _count(1, MAX_COUNT)
CHUNK = _count(1, 2**20, "shots")
SLOTS = _count(1, 65_536, "games")
LANES = _count(0, 65_536, "lanes")
CORES = _count(1, 1024)
DPI = _count(10, 2400, "dots per inch")
#: A TCP port (the explorer's page).
PORT = _count(1, 65535)
ITERATIONS = _count(0, 1000)
#: Training steps of a learned screen (``train --steps``).
TRAIN_STEPS = _count(1, 10**6, "steps")
#: A search player's budget: kernel shots a decision (``bench --shots``).
DECISION_SHOTS = _count(256, 2**20, "shots a decision")
ANGLE = Limit(-360.0, 360.0, "degrees")
PLACEMENT = Limit(-360.0, 360.0, "(m on a line, degrees on a circle)")
SPEED = Limit(0.0, MAX_SPEED, "m/s", lo_open=True)
HAND_SET = Limit(0.0, 0.1, "m")
POINT = Limit(-LENGTH.hi, LENGTH.hi, "m")
SLIDE = Limit(0.0, LENGTH.hi, "m")
STICKS = _count(int(COUNTS["throw_sticks"].lo), int(COUNTS["throw_sticks"].hi), "stick lengths")
CONFIDENCE = Limit(0.0, 1.0, lo_open=True, hi_open=True)
WEIGHT = Limit(-1000.0, 1000.0, "points")
FINITE = Limit(-_MAX_FLOAT, _MAX_FLOAT)

#: The sweep's physics fields (``carromlab.physics.Physics``; a new field needs an entry).
PHYSICS = {
    "mu": Limit(0.0, 2.0),
    "g": Limit(0.0, 100.0, "m/s^2"),
    "e_piece": Limit(0.0, 1.0),
    "e_striker": Limit(0.0, 1.0),
    "e_cushion": Limit(0.0, 1.0),
    "e_post": Limit(0.0, 1.0),
    "stick_speed": Limit(0.0, MAX_SPEED, "m/s"),
    "mu_contact": Limit(0.0, 2.0),
    "rail_graze": Limit(0.0, 1.0),
    "striker_friction": Limit(0.0, 20.0),
}

#: The command line's numeric options by parameter name (the flag: ``--`` + ``-`` for ``_``).
FLAGS: dict[str, Limit] = {
    "seed": SEED,
    "n": SHOTS,
    "n_grid": SHOTS,
    "n_cem": SHOTS,
    "batch": SHOTS,
    "peer_shots": SHOTS,
    "chunk": CHUNK,
    "games": COUNT,
    "population": COUNT,
    "top": COUNT,
    "job_size": COUNT,
    "iterations": ITERATIONS,
    "slots": SLOTS,
    "lanes": LANES,
    "cores": CORES,
    "workers": CORES,
    "dpi": DPI,
    "angle": ANGLE,
    "placement": PLACEMENT,
    "speed": SPEED,
    "hand_set": HAND_SET,
    "port": PORT,
    "shots": DECISION_SHOTS,
    "positions": COUNT,
    "steps": TRAIN_STEPS,
}
#: Grid options (``START:STOP:COUNT`` or ``a,b,c``) and the range of their values.
GRIDS: dict[str, Limit] = {
    "placements": PLACEMENT,
    "angles": ANGLE,
    "speeds": SPEED,
    "aims": POINT,
}
