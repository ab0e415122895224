"""The bounds of every number a user gives carromlab outside a position file: the command
line's numeric options and the values of a sweep file (``carromlab.sweeps.schema``), in one
place, so that a flag and a TOML key with the same meaning take the same range.

Each bound is a :class:`Limit` (the range, its unit) and, through :meth:`Limit.type`, a strict
pydantic type (no bool or string where a number is required, finite floats, an integer too
large for a float counted as infinite). :func:`check_flags` checks the options of a command
before anything is computed; each refusal is one :class:`CarromlabError` line naming the option
and its value (``--seed 18446744073709551616: must be at most 4,294,967,295``).

The bounds, and why:

- ``seed``: 0 to 2**32 - 1. The kernel's keys are ``jax.random.key(seed)``, which under JAX's
  default 32-bit mode keeps the low 32 bits only: seed 2**32 would silently repeat seed 0's
  numbers and a negative seed those of ``seed + 2**32``; above 2**63 JAX overflows.
- ``n`` (noisy shots per cell, per task, per reported shot; ``--n-grid``, ``--n-cem``,
  ``--batch``, ``--peer-shots``): 1 to ``MAX_SHOTS`` = 10**8.
- shots of one kernel run (cells x n): at most ``MAX_RUN_SHOTS`` = 2**31 - 1, because the
  runner numbers a run's shots with 32-bit integers (``analysis/runner.py``; 10**12 shots
  overflowed). Checked from the sizes alone (:func:`check_run`) before a run starts.
- values of one grid axis, cells of a shot map, tasks of a sweep: at most ``MAX_CELLS`` =
  10**6, checked from ``COUNT`` (or the product of the axes' lengths) before any value is
  made; a sweep holds at most ``MAX_SWEEP_SHOTS`` = 10**10 shots (tasks x n).
- KOOBA throws of one command (aim points x n): at most ``MAX_THROWS`` = 5 * 10**6; the throw
  kernel and the tags compute them in one batch, not in chunks (measured: about 650 bytes a
  throw, so 3.3 GB; the default map is 156,800 throws).
- angles (``--angle``, ``--angles``, a sweep's ``angle``): finite, -360 to 360 degrees. They
  are not reduced modulo 360: a table shows the angle as given, and one turn either way
  names every direction. 1e300 degrees overflowed float32 (every probability 0).
- placements (``--placement``, ``--placements``, a sweep's ``placement``): finite, -360 to 360
  (metres along a line, where the game's legal intervals decide; degrees on a circle).
- speeds (``--speed``, ``--speeds``, a sweep's ``speed``): above 0, at most ``MAX_SPEED`` =
  15 m/s (a hard flick is 4-6 m/s; docs/equipment.md).
- ``--hand-set``: 0 to 0.1 m (the default 0.0003 m).
- board points (KOOBA ``--aim``, ``--aims``, Carrooka ``--striker``) and KOOBA ``--slide``:
  finite, at most 5 m from the centre (the position schema's longest length), ``--slide``
  not negative.
- counts: ``--chunk`` 1 to 2**20 shots (memory of a kernel batch), ``--slots`` 1 to 65,536
  games at once, ``--lanes`` 0 to 65,536, ``--cores`` and ``--workers`` 1 to 1,024, ``--dpi``
  10 to 2,400, ``--iterations`` 0 to 1,000; every other count (``--games``,
  ``--population``, ``--top``, ``--job-size`` and the games' own whole-number options such
  as ``--boards``) 1 to ``MAX_COUNT`` = 10**6.
- a sweep's physics fields (:data:`PHYSICS`): restitutions 0 to 1, ``mu`` and
  ``mu_contact`` 0 to 2 (a powdered board is 0.06-0.20, rubber on dry wood about 1), ``g`` 0
  to 100 m/s^2, ``stick_speed`` 0 to 15 m/s, ``rail_graze`` 0 to 1; scoring weights -1,000 to
  1,000 points; ``confidence`` strictly between 0 and 1.

Like the position schema's, these are carromlab's own choices, not rules of any game.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    ValidationError,
)

from carromlab.errors import CarromlabError
from carromlab.position_schema import COUNTS, LENGTH, show

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
ITERATIONS = _count(0, 1000)
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
}
#: Grid options (``START:STOP:COUNT`` or ``a,b,c``) and the range of their values.
GRIDS: dict[str, Limit] = {
    "placements": PLACEMENT,
    "angles": ANGLE,
    "speeds": SPEED,
    "aims": POINT,
}


def _flags_model() -> type[BaseModel]:
    from pydantic import create_model

    fields: dict[str, Any] = {k: (v.type | None, None) for k, v in FLAGS.items()}
    config = ConfigDict(extra="forbid", title="Flags")
    return create_model("Flags", __config__=config, **fields)


#: Every numeric option as one pydantic model (each field optional; None: not given).
Flags = _flags_model()


# ---------------------------------------------------------------------- one line per refusal

#: The reason of a pydantic error, by its type (the kinds without a value_error message).
REASONS = {
    "finite_number": "must be finite",
    "int_type": "must be a whole number",
    "float_type": "must be a number",
    "bool_type": "must be true or false",
    "string_type": "must be a string",
    "string_unicode": "is not valid Unicode",
    "string_too_long": "is too long (at most {max_length:,} characters)",
    "too_short": "an axis needs at least one value",
    "too_long": "has more than {max_length:,} values",
    "list_type": "must be a list",
    "model_type": "must be a table",
    "model_attributes_type": "must be a table",
    "dict_type": "must be a table",
    "literal_error": "must be {expected}",
    "missing": "is missing",
    "extra_forbidden": "unknown key",
}


def reason(err: dict) -> str:
    """One pydantic error's reason, starting 'must be ...' where it can."""
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "value_error":
        return str(ctx["error"])
    template = REASONS.get(kind)
    if template is None:
        return str(err["msg"]).splitlines()[0]
    try:
        return template.format(**ctx)
    except (KeyError, ValueError):
        return str(err["msg"]).splitlines()[0]


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def check_flags(**values: Any) -> None:
    """Check the given command-line options (``None``: not given) against their bounds before
    anything is computed: the first problem as one line naming the option and its value."""
    given = {k: v for k, v in values.items() if v is not None}
    for name in [k for k in given if k in GRIDS]:
        parse_grid(given.pop(name), name)
    unknown = sorted(set(given) - set(FLAGS))
    if unknown:
        raise ValueError(f"no bound for option(s) {', '.join(unknown)}")  # a programming error
    try:
        Flags.model_validate(given)
    except ValidationError as e:
        err = e.errors()[0]
        name = str(err["loc"][0])
        raise CarromlabError(f"{flag(name)} {show(given[name])}: {reason(err)}") from None


def check_run(cells: int, n: int, what: str = "this run") -> None:
    """Refuse a kernel run of ``cells`` x ``n`` shots that the runner cannot number."""
    if cells * n > MAX_RUN_SHOTS:
        raise CarromlabError(
            f"{what}: {number(cells)} cells x {number(n)} shots = {number(cells * n)} shots in "
            f"one kernel run, more than {number(MAX_RUN_SHOTS)} (2**31 - 1); use fewer cells "
            "or a smaller n"
        )


def check_cells(cells: int, what: str) -> None:
    """Refuse a grid of more than ``MAX_CELLS`` cells (before its cells are made)."""
    if cells > MAX_CELLS:
        raise CarromlabError(
            f"{what}: {number(cells)} cells (the product of the axes' lengths), more than "
            f"{number(MAX_CELLS)}"
        )


def check_throws(cells: int, n: int, what: str) -> None:
    """Refuse a KOOBA command of more than ``MAX_THROWS`` throws (computed in one batch)."""
    if cells * n > MAX_THROWS:
        raise CarromlabError(
            f"{what}: {number(cells)} aim points x {number(n)} throws = {number(cells * n)} "
            f"throws, more than {number(MAX_THROWS)} (KOOBA's throws are computed in one batch)"
        )


# ---------------------------------------------------------------------- grids and points


def parse_grid(text: str, what: str) -> list[float]:
    """``START:STOP:COUNT`` (COUNT values from START to STOP) or ``a,b,c`` from the command
    line, for the option ``--what``; COUNT is bounded before any value is made, every value
    finite and in the option's range (:data:`GRIDS`). One line naming the option if not."""
    limit = GRIDS.get(what, FINITE)
    where = f"{flag(what)} {show(text)}"
    if not text.strip():
        raise CarromlabError(
            f"{where}: must not be empty (START:STOP:COUNT or a comma-separated list)"
        )
    try:
        if ":" in text:
            a, b, k = text.split(":")
            count = int(k)
            if count <= 0:
                raise ValueError
            ends = [float(a), float(b)]
        else:
            ends = [float(v) for v in text.split(",")]
            count = len(ends)
    except ValueError:
        raise CarromlabError(
            f"--{what} must be START:STOP:COUNT (COUNT >= 1) or a comma-separated list, "
            f"not {show(text)}"
        ) from None
    if count > MAX_CELLS:
        raise CarromlabError(f"{where}: {number(count)} values, at most {number(MAX_CELLS)}")
    for v in ends:
        why = limit.problem(v)
        if why is not None:
            raise CarromlabError(f"{where}: {v!r} {why}")
    if ":" not in text:
        return ends
    import numpy as np

    return [float(v) for v in np.linspace(ends[0], ends[1], count)]


def parse_pair(text: str, what: str) -> tuple[float, float]:
    """``X,Y`` (metres, a point of the board) from the command line; one line naming
    ``--what`` if it is not two finite numbers within 5 m of the centre."""
    try:
        x, y = (float(v) for v in str(text).split(","))
    except ValueError:
        raise CarromlabError(f"--{what} must be X,Y in metres, not {show(text)}") from None
    for v in (x, y):
        why = POINT.problem(v)
        if why is not None:
            raise CarromlabError(f"--{what} {show(text)}: {v!r} {why}")
    return x, y
