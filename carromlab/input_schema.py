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
  names every direction. 1e300 degrees overflowed float32 (every probability 0). On the
  command line an angle may carry its unit (``65.9deg``, ``65.9°``, ``1.15rad``; a plain
  number is degrees; :data:`UNITS`), converted before the bound; plain angles that all look
  like radians (:func:`looks_like_radians`) get one warning line (:func:`radians_warning`).
- placements (``--placement``, ``--placements``, a sweep's ``placement``): finite, -360 to 360
  (metres along a line, where the game's legal intervals decide; degrees on a circle). On
  the command line with a unit of either kind (``-5cm``, ``-1.57rad``); which kind the
  board takes is the command's check, once the game's shot origins are known.
- speeds (``--speed``, ``--speeds``, a sweep's ``speed``): above 0, at most ``MAX_SPEED`` =
  15 m/s (a hard flick is 4-6 m/s; docs/equipment.md).
- ``--hand-set``: 0 to 0.1 m (the default 0.0003 m).
- board points (KOOBA ``--aim``, ``--aims``, Carrooka ``--striker``) and KOOBA ``--slide``:
  finite, at most 5 m from the centre (the position schema's longest length), ``--slide``
  not negative; board points may carry a length unit (``5cm,-25cm``), and the command
  refuses one off its board, naming the board's size.
- names (skills, contact models, devices): :data:`SKILL_NAMES`, :data:`CONTACT_MODEL_NAMES`,
  :data:`DEVICE_NAMES`, so that a misspelt one is refused (with the closest names,
  :func:`check_name`) before JAX loads.
- how a number is written: in ASCII (:func:`check_ascii`), digits 0-9 only, with the degree
  sign of a unit the one character beyond ASCII. Python's ``float`` and ``int`` read any
  Unicode digit ("６５", "٦٥"), pydantic's lax parsing of the typed options reads none; so one
  rule for every number: ASCII, as a TOML sweep and a JSON position write numbers anyway.
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
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    ValidationError,
)

from carromlab.errors import CarromlabError
from carromlab.input_limits import (  # noqa: F401 (named here too)
    _MAX_FLOAT,
    ANGLE,
    CHUNK,
    CONFIDENCE,
    CORES,
    COUNT,
    DECISION_SHOTS,
    DPI,
    FINITE,
    FLAGS,
    GRIDS,
    HAND_SET,
    ITERATIONS,
    LANES,
    MAX_CELLS,
    MAX_COUNT,
    MAX_RUN_SHOTS,
    MAX_SEED,
    MAX_SHOTS,
    MAX_SPEED,
    MAX_SWEEP_SHOTS,
    MAX_THROWS,
    PHYSICS,
    PLACEMENT,
    POINT,
    PORT,
    SEED,
    SHOTS,
    SLIDE,
    SLOTS,
    SPEED,
    STICKS,
    TRAIN_STEPS,
    WEIGHT,
    Limit,
    _count,
    huge_to_inf,
    number,
)
from carromlab.position_schema import show


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
    for name in [k for k in given if k in OPTION_QUANTITIES]:  # a number that may carry a unit
        if isinstance(given[name], str):
            given[name] = parse_value(given[name], name)
        if isinstance(given[name], Quantity):  # in range, in its kind's own unit
            given[name] = float(given[name])
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


# ---------------------------------------------------------------------- units

#: The units a number may carry, by kind, as factors to the kind's own unit (:data:`BASE`);
#: a plain number is read in the kind's own unit (an angle in degrees, a length in metres).
UNITS: dict[str, dict[str, float]] = {
    "angle": {
        "deg": 1.0,
        "°": 1.0,
        "degree": 1.0,
        "degrees": 1.0,
        "rad": 180.0 / math.pi,
        "radian": 180.0 / math.pi,
        "radians": 180.0 / math.pi,
    },
    "length": {"m": 1.0, "cm": 0.01, "mm": 0.001},
    "speed": {"m/s": 1.0},
}
#: Each kind's own unit: what a value is converted to, and how a plain number is read.
BASE = {"angle": "deg", "length": "m", "speed": "m/s"}
#: The kinds of quantity each option takes. A placement is metres along a line (ICF,
#: Carroms) or degrees on a circle (Carrooka's break line, the crokinole side): which one is
#: the board's, checked where the game's shot origins are known.
OPTION_QUANTITIES: dict[str, tuple[str, ...]] = {
    "angle": ("angle",),
    "angles": ("angle",),
    "placement": ("length", "angle"),
    "placements": ("length", "angle"),
    "speed": ("speed",),
    "speeds": ("speed",),
    "aim": ("length",),
    "aims": ("length",),
    "striker": ("length",),
}
_HINTS = {
    ("angle",): "an angle takes deg or rad (a plain number is degrees)",
    ("length",): "a length takes m, cm or mm (a plain number is metres)",
    ("speed",): "a speed takes m/s (a plain number is m/s)",
    ("length", "angle"): "a placement takes m, cm or mm on a line, deg or rad on a circle "
    "(a plain number is metres on a line, degrees on a circle)",
}
_NUMBER_AND_UNIT = re.compile(
    r"^\s*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*(\S+?)\s*$", re.ASCII
)
#: The whitespace a number may carry around it (ASCII only: ``str.strip`` would also take an
#: ideographic or a no-break space).
_SPACE = " \t\n\r\f\v"


def check_ascii(text: str, what: str) -> None:
    """Refuse a number for ``--what`` that is not written in ASCII (the degree sign of a unit
    apart): one rule for every number carromlab reads. Python's ``float("６５")`` is 65.0,
    while the typed options (pydantic) refuse any digit beyond 0-9; a full-width or
    Arabic-Indic digit is refused here, naming it."""
    odd = next((c for c in str(text) if not c.isascii() and c != "°"), None)
    if odd is None:
        return
    name = unicodedata.name(odd, f"U+{ord(odd):04X}")
    kind = "digit" if unicodedata.category(odd) == "Nd" else "character"
    raise CarromlabError(
        f"{flag(what)} {show(text)}: numbers take ASCII digits 0-9 only, not the {kind} "
        f"{odd!r} ({name})"
    )


class Quantity(float):
    """A number from the command line in its kind's own unit (degrees, metres, m/s), with
    ``kind``: the kind of the unit written ("angle", "length", "speed"; None: a plain
    number) and ``text``: the number as written. It is a float everywhere a float goes."""

    kind: str | None
    text: str

    def __new__(cls, value: float, kind: str | None = None, text: str = ""):
        q = super().__new__(cls, value)
        q.kind = kind
        q.text = text or repr(float(value))
        return q

    @property
    def plain(self) -> bool:
        return self.kind is None


def unit_hint(what: str) -> str:
    """What units the option ``--what`` takes, for a message."""
    return _HINTS.get(OPTION_QUANTITIES.get(what, ()), "a plain number, no unit")


def split_unit(text: str, what: str) -> Quantity:
    """One number, plain or with a unit of the kinds ``--what`` takes (``65.9deg``,
    ``1.15rad``, ``12cm``), converted to its kind's own unit. ValueError if ``text`` is no
    number at all; one :class:`CarromlabError` line for a unit the option does not take."""
    text = str(text).strip(_SPACE)
    check_ascii(text, what)
    try:
        return Quantity(float(text), None, text)
    except ValueError:
        pass
    m = _NUMBER_AND_UNIT.match(text)
    if m is None:
        raise ValueError(text)
    value, unit = float(m.group(1)), m.group(2)
    kinds = OPTION_QUANTITIES.get(what, ())
    for kind, units in UNITS.items():
        factor = units.get(unit if unit == "°" else unit.lower())
        if factor is None:
            continue
        if kind not in kinds:
            raise CarromlabError(
                f"{flag(what)} {show(text)}: {unit} is a unit of {kind}; {unit_hint(what)}"
            )
        return Quantity(value * factor, kind, text)
    raise CarromlabError(f"{flag(what)} {show(text)}: unknown unit {unit!r}; {unit_hint(what)}")


def as_given(q: Quantity) -> str:
    """A plain number for a message: its value (``99.0``), or the text as written where the
    value is not what was written (``1e400`` overflows to infinity)."""
    value = float(q)
    return repr(value) if math.isfinite(value) or not q.text else q.text


def _out_of_range(q: Quantity, limit: Limit) -> str | None:
    """Why ``q`` is out of ``limit`` (with its value in the kind's own unit when a unit was
    written), or None."""
    why = limit.problem(float(q))
    if why is None or q.plain:
        return why
    return f"is {number(float(q))} {BASE[q.kind]}, which {why}"


def parse_value(text: Any, what: str) -> Quantity:
    """One number for the option ``--what`` (``--angle 65.9deg``, ``--placement 12cm``), in
    its kind's own unit and within the option's bound (:data:`FLAGS`); one line naming the
    option and its value if not. A number (a default) passes as a plain one."""
    limit = FLAGS.get(what, FINITE)
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        q = text if isinstance(text, Quantity) else Quantity(huge_to_inf(text), None, repr(text))
    else:
        try:
            q = split_unit(text, what)
        except CarromlabError:
            raise
        except ValueError:
            raise CarromlabError(
                f"{flag(what)} {show(text)}: must be a number; {unit_hint(what)}"
            ) from None
    why = limit.problem(float(q))
    if why is not None:
        shown = as_given(q) if q.plain else f"{q.text} ({number(float(q))} {BASE[q.kind]})"
        raise CarromlabError(f"{flag(what)} {shown}: {why}")
    return q


def looks_like_radians(values) -> bool:
    """Plain angles that all lie within one turn in radians (|a| <= 2 pi, not all 0): most
    likely radians written where degrees are read."""
    values = [float(v) for v in values]
    return any(v != 0 for v in values) and all(abs(v) <= 2 * math.pi for v in values)


def radians_warning(text: str, what: str, values) -> str | None:
    """One warning line when the plain angles ``values`` of ``--what`` (as written:
    ``text``) look like radians (:func:`looks_like_radians`), else None."""
    if not looks_like_radians(values):
        return None
    text = str(text).strip()
    grid = ":" in text
    tokens = text.split(":")[:2] if grid else [t.strip() for t in text.split(",")]
    tail = ":" + text.split(":")[2] if grid else ""
    if len(text) > 40:  # a long list: the first value shows the way
        rad, deg = f"{tokens[0]}rad, ...", f"{tokens[0]}deg, ..."
    else:
        sep = ":" if grid else ","
        rad = sep.join(f"{t}rad" for t in tokens) + tail
        deg = sep.join(f"{t}deg" for t in tokens) + tail
    ends = [float(values[0]), float(values[-1])]
    equal = " to ".join(f"{math.degrees(v):.3g}deg" for v in dict.fromkeys(ends))
    verb = "looks" if len(values) == 1 else "look"
    return (
        f"warning: {flag(what)} {text} {verb} like radians (a plain number is degrees); "
        f"write {rad} if radians were meant (= {equal}), or {deg} to silence this"
    )


# ---------------------------------------------------------------------- names


#: The execution-skill presets by name (``carromlab.shots.SKILLS`` and ``THROW_SKILLS``;
#: tests/test_cli_units.py keeps them equal), here so that a name is checked before JAX loads.
SKILL_NAMES = ("novice", "club", "expert", "pro", "exact")
#: The kernel's contact models (``carromlab.physics.kernel.CONTACT_MODELS``), likewise.
CONTACT_MODEL_NAMES = ("sequential", "cluster")
#: The devices a command may run on (``--device``): JAX's platform, chosen before JAX loads.
DEVICE_NAMES = ("auto", "cpu", "gpu")


def closest(name: str, names, n: int = 3) -> list[str]:
    """The names of ``names`` closest to a misspelt ``name`` (difflib), best first."""
    import difflib

    return difflib.get_close_matches(str(name), [str(x) for x in names], n=n, cutoff=0.6)


def shorten(items, shown: int = 5) -> str:
    """``items`` joined by ", ", the first ``shown`` of them and "...and 40 more"."""
    items = [str(x) for x in items]
    more = len(items) - shown
    head = ", ".join(items[:shown])
    return f"{head} ...and {more:,} more" if more > 0 else head


def check_name(name: str, names, what: str) -> None:
    """Refuse a ``name`` that is not one of ``names`` (the option ``what``): one line with
    the closest names and the known ones."""
    names = list(names)
    if name in names:
        return
    close = closest(name, names)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise CarromlabError(f"unknown {what} {name!r}{hint} (known: {shorten(names, 8)})")


# ---------------------------------------------------------------------- grids and points


@dataclass(frozen=True)
class Grid:
    """A grid option's values in their kind's own unit, ``kind`` the kind of the units
    written (None: every value plain) and ``text`` as written."""

    values: list[float]
    kind: str | None
    text: str

    @property
    def plain(self) -> bool:
        return self.kind is None


def parse_grid(text: str, what: str) -> list[float]:
    """``START:STOP:COUNT`` (COUNT values from START to STOP) or ``a,b,c`` from the command
    line, for the option ``--what``; each number plain or with a unit the option takes
    (``30deg:150deg:61``, ``0.5rad,1rad``, ``-18cm:18cm:13``), converted to its kind's own
    unit. COUNT is bounded before any value is made, every value finite and in the option's
    range (:data:`GRIDS`). One line naming the option if not."""
    return parse_grid_spec(text, what).values


def parse_grid_spec(text: str, what: str, limit: Limit | None = None) -> Grid:
    """:func:`parse_grid`, with the kind of the units written (:class:`Grid`); ``limit``
    replaces the option's range (a command that checks the values against the board)."""
    limit = limit or GRIDS.get(what, FINITE)
    where = f"{flag(what)} {show(text)}"
    check_ascii(text, what)  # COUNT too
    if not text.strip():
        raise CarromlabError(
            f"{where}: must not be empty (START:STOP:COUNT or a comma-separated list)"
        )
    bad = CarromlabError(
        f"--{what} must be START:STOP:COUNT (COUNT >= 1) or a comma-separated list, "
        f"not {show(text)}"
    )
    try:
        if ":" in text:
            a, b, k = text.split(":")
            count = int(k)
            if count <= 0:
                raise ValueError
            ends = [split_unit(a, what), split_unit(b, what)]
        else:
            ends = [split_unit(v, what) for v in text.split(",")]
            count = len(ends)
    except ValueError as e:
        if isinstance(e, CarromlabError):
            raise
        raise bad from None
    if count > MAX_CELLS:
        raise CarromlabError(f"{where}: {number(count)} values, at most {number(MAX_CELLS)}")
    kinds = {q.kind for q in ends} - {None}
    if len(kinds) > 1:
        raise CarromlabError(f"{where}: mixes units of {' and '.join(sorted(kinds))}")
    for q in ends:
        why = _out_of_range(q, limit)
        if why is not None:
            shown = as_given(q) if q.plain else q.text
            raise CarromlabError(f"{where}: {shown} {why}")
    kind = kinds.pop() if kinds else None
    if ":" not in text:
        return Grid([float(q) for q in ends], kind, text)
    import numpy as np

    return Grid([float(v) for v in np.linspace(float(ends[0]), float(ends[1]), count)], kind, text)


def parse_pair(text: str, what: str, limit: Limit = POINT) -> tuple[float, float]:
    """``X,Y`` (a point of the board: metres, or with a length unit, ``12cm,20cm``) from the
    command line; one line naming ``--what`` if it is not two finite numbers within 5 m of
    the centre (``limit``). Whether the point lies on the board is the command's check (it
    knows the board)."""
    check_ascii(text, what)
    try:
        x, y = (split_unit(v, what) for v in str(text).split(","))
    except ValueError as e:
        if isinstance(e, CarromlabError):
            raise
        raise CarromlabError(f"--{what} must be X,Y in metres, not {show(text)}") from None
    for v in (x, y):
        why = _out_of_range(v, limit)
        if why is not None:
            shown = as_given(v) if v.plain else v.text
            raise CarromlabError(f"--{what} {show(text)}: {shown} {why}")
    return float(x), float(y)
