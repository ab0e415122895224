"""The schema of a sweep file (docs/sweeps.md): what its TOML may hold, checked before anything
is made from it.

A sweep file is read in three steps, each refusing with one :class:`CarromlabError` line that
names the key and shows the value (``sweep.toml: grid.physics.mu = inf: must be finite``):

1. the file (:func:`read_toml`): a file, not a folder, of at most ``MAX_BYTES`` bytes, strict
   UTF-8, valid TOML;
2. the document (:class:`SweepFile`, pydantic, strict: no unknown key, no bool or string where
   a number is required, no float where a whole number is): the settings and every axis
   value against the shared bounds of ``carromlab.input_schema`` (seed, shots, angles,
   placements, speeds, the physics fields, scoring weights), the equipment fields against the
   position schema's bounds (``carromlab.position_schema.bound_of``: the same physical ranges
   as a position file's board), a range's ``count`` at most ``MAX_CELLS`` before any value is
   made;
3. the sweep (``carromlab.sweeps.config.parse_sweep``): the number of tasks (the product of
   the axes' lengths, from the lengths alone) at most ``MAX_CELLS`` = 10**6 and of shots
   (tasks x n) at most ``MAX_SWEEP_SHOTS`` = 10**10, both before any task or value is made;
   then the variants, positions, skills, the fields of each position's board and of each
   variant's turn and scoring, and each range's values against the axis' bounds.

Step 2 is also a JSON Schema (:func:`json_schema`, committed as ``docs/sweep.schema.json``;
``python -m carromlab.sweeps.schema [PATH]`` writes it). TOML maps onto JSON's data model, so
an editor can check a sweep file with it; steps 1 and 3 are not expressible there.

Limits: ``MAX_BYTES`` = 1 MiB (the committed sweep is 700 bytes; a list of 10,000 values fits);
``MAX_LABEL`` = 4,096 characters for a position (a standard name or a path; Linux's longest
path); variants, skills and turn strings at most 64 characters (the position schema's
``MAX_WORD``); ``name`` at most 200 (``MAX_NAME``).
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Strict,
    Tag,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    create_model,
)

from carromlab.equipment import BOARDS
from carromlab.errors import CarromlabError
from carromlab.input_schema import ANGLE as _ANGLE
from carromlab.input_schema import (
    CONFIDENCE,
    FINITE,
    MAX_CELLS,
    MAX_COUNT,
    MAX_SWEEP_SHOTS,
    PHYSICS,
    SEED,
    SHOTS,
    WEIGHT,
    Limit,
    reason,
)
from carromlab.input_schema import PLACEMENT as _PLACEMENT
from carromlab.input_schema import SPEED as _SPEED
from carromlab.position_schema import (
    COUNTS,
    MAX_NAME,
    MAX_WORD,
    bound_of,
    schema_document,
    schema_text,
    show,
    write_schema,
)

MAX_BYTES = 1024 * 1024
MAX_LABEL = 4096
TOP_KEYS = ("name", "seed", "n", "confidence", "captures", "grid")
SHOT_AXES = ("placement", "angle", "speed")
GROUPS = ("equipment", "physics", "turn", "scoring")
AXES = ("variant", "position", "skill", *SHOT_AXES, *GROUPS)
#: Fields left out are None (a default pydantic does not validate; TOML has no null, so the
#: JSON Schema has none either).
#: The tags of an axis' three forms (in pydantic's error locations; never a key of a file).
RANGE, LIST, ONE = "<range>", "<list>", "<one>"

_STRICT = ConfigDict(strict=True, extra="forbid")
#: A pydantic model (:func:`validate_document`).
M = typing.TypeVar("M", bound=BaseModel)


# ---------------------------------------------------------------------- step 1: the file


def read_toml(path: str | Path, what: str = "sweep file") -> dict[str, Any]:
    """The TOML document at ``path``: one line if it is missing, a folder, larger than
    ``MAX_BYTES``, not UTF-8 or not TOML (``what``: the file's kind, in the line)."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise CarromlabError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise CarromlabError(f"{path}: a folder, not a {what}") from None
    except (OSError, ValueError) as e:
        why = getattr(e, "strerror", None) or str(e)
        raise CarromlabError(f"{path}: cannot read the {what} ({why})") from None
    if len(data) > MAX_BYTES:
        raise CarromlabError(f"{path}: larger than {MAX_BYTES:,} bytes (a {what}'s limit)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CarromlabError(
            f"{path}: not UTF-8: byte 0x{data[e.start]:02x} at offset {e.start} ({e.reason})"
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CarromlabError(f"{path}: not valid TOML ({e})") from None
    except RecursionError:
        raise CarromlabError(f"{path}: not valid TOML (nested too deep)") from None
    except ValueError as e:  # an integer literal beyond Python's 4,300 digits
        raise CarromlabError(f"{path}: not valid TOML ({str(e).splitlines()[0]})") from None


# ---------------------------------------------------------------------- step 2: the document


class Range(BaseModel):
    """``count`` evenly spaced values from ``start`` to ``stop`` (both included)."""

    model_config = ConfigDict(**_STRICT, title="Range")

    start: FINITE.type
    stop: FINITE.type
    count: Limit(1, MAX_CELLS, "values", int).type


def _form(v: Any) -> str:
    return RANGE if isinstance(v, dict) else LIST if isinstance(v, list) else ONE


def axis(item: Any, ranges: bool = True, doc: str = "") -> Any:
    """An axis of ``item`` values: a list (1 to ``MAX_CELLS`` values), one value, or (numbers
    only) a :class:`Range`."""
    many = Annotated[list[item], Field(min_length=1, max_length=MAX_CELLS)]
    forms = [Annotated[many, Tag(LIST)], Annotated[item, Tag(ONE)]]
    if ranges:
        forms.insert(0, Annotated[Range, Tag(RANGE)])
    union = Union[tuple(forms)]  # noqa: UP007
    return Annotated[union, Discriminator(_form), Field(description=doc or None)]


def _scalar(v: Any) -> Any:
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        if abs(v) > MAX_COUNT:
            raise ValueError(f"must be between -{MAX_COUNT:,} and {MAX_COUNT:,}")
        return v
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError("must be finite")
        return v
    if isinstance(v, str):
        if len(v) > MAX_WORD:
            raise ValueError(f"is too long (at most {MAX_WORD} characters)")
        return v
    raise ValueError("must be a string, a number or true/false")


Word = Annotated[str, Strict(), Field(min_length=1, max_length=MAX_WORD)]
Label = Annotated[str, Strict(), Field(min_length=1, max_length=MAX_LABEL)]
#: A value of a turn field: a string, a whole number, a finite number or a boolean.
Scalar = Annotated[
    Any,
    BeforeValidator(_scalar),
    WithJsonSchema({"type": ["string", "integer", "number", "boolean"]}),
]


def _group(title: str, fields: dict[str, Any], doc: str) -> type[BaseModel]:
    return create_model(
        title,
        __config__=ConfigDict(**_STRICT, title=title),
        __doc__=doc,
        **{k: (axis(t), None) for k, t in fields.items()},
    )


def _physics_fields() -> dict[str, Any]:
    from carromlab.physics.params import Physics

    names = [f.name for f in dataclasses.fields(Physics)]
    missing = [k for k in names if k not in PHYSICS]
    if missing:  # a new Physics field needs its bound in input_schema.PHYSICS
        raise RuntimeError(f"no bound for the Physics field(s) {', '.join(missing)}")
    return {k: PHYSICS[k].type for k in names}


def equipment_item(name: str, hint: Any) -> Any:
    """The type of a value of the board field ``name`` (its dataclass type ``hint``), with the
    position schema's bounds for it."""
    if typing.get_origin(hint) is Literal:
        return hint
    args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
    kind = args[0]
    if kind is int:
        b = COUNTS[name]
        return Limit(int(b.lo), int(b.hi), b.unit, int).type
    b = bound_of(name, float)
    return FINITE.type if b is None else Limit(b.lo, b.hi, b.unit).type


def _equipment_fields() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for cls in BOARDS.values():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            out.setdefault(f.name, equipment_item(f.name, hints[f.name]))
    return out


#: The type of one value of each axis and group field (a range's values are checked with it).
ITEMS: dict[str, Any] = {
    "placement": _PLACEMENT.type,
    "angle": _ANGLE.type,
    "speed": _SPEED.type,
    "physics": _physics_fields(),
    "equipment": _equipment_fields(),
}


def item_type(axis_name: str, field: str | None = None) -> Any:
    """The type of one value of ``axis_name`` (a group's: of its ``field``)."""
    if axis_name == "turn":
        return Scalar
    if axis_name == "scoring":
        return WEIGHT.type
    item = ITEMS[axis_name]
    return item[field] if field is not None else item


PhysicsAxes = _group(
    "PhysicsAxes",
    ITEMS["physics"],
    "Fields of carromlab.physics.Physics (traced: no recompilation).",
)
EquipmentAxes = _group(
    "EquipmentAxes",
    ITEMS["equipment"],
    "Fields of the positions' boards, with the position schema's bounds (each must be a field "
    "of every position's board; a new board layout compiles a new kernel).",
)


Variants = axis(Word, False, "Variants with shot analysis; optional when positions are given.")
Positions = axis(Label, False, "Standard position names or JSON files (relative to the file).")
Skills = axis(Word, False, "Skills (default club).")
Placements = axis(_PLACEMENT.type, doc="m along a line, degrees on a circle (default: the game's).")
Angles = axis(_ANGLE.type, doc="Degrees (default 90).")
Speeds = axis(_SPEED.type, doc="m/s (default 2).")
TurnAxes = dict[Word, axis(Scalar)]
ScoringAxes = dict[Word, axis(WEIGHT.type)]


class Grid(BaseModel):
    """Every combination of the axes is one task."""

    model_config = ConfigDict(**_STRICT, title="Grid")

    variant: Variants = None
    position: Positions = None
    skill: Skills = None
    placement: Placements = None
    angle: Angles = None
    speed: Speeds = None
    physics: PhysicsAxes = None
    equipment: EquipmentAxes = None
    turn: TurnAxes = Field(
        None, description="Fields of each variant's turn state (e.g. Carrooka's on)."
    )
    scoring: ScoringAxes = Field(
        None, description="The rules' scoring weights (e.g. IcfScoring's queen_covered)."
    )


class SweepFile(BaseModel):
    """A carromlab sweep: settings and a grid of tasks (docs/sweeps.md)."""

    model_config = ConfigDict(**_STRICT, title="carromlab sweep")

    name: Annotated[str, Field(max_length=MAX_NAME)] = Field(
        None, description="A label (default: the file's name)."
    )
    seed: SEED.type = Field(0, description="The root seed.")
    n: SHOTS.type = Field(1000, description="Noisy shots per task.")
    confidence: CONFIDENCE.type = Field(0.95, description="Of every interval.")
    captures: bool = Field(False, description="Also p_capture:<piece> columns.")
    grid: Grid = Field(default_factory=Grid)


# ---------------------------------------------------------------------- one line per refusal


def key_of(loc: tuple) -> str:
    """A pydantic location as a TOML key: ``grid.physics.mu`` (tags and list indices left
    out)."""
    return ".".join(str(k) for k in loc if not isinstance(k, int) and k not in (RANGE, LIST, ONE))


def shown(v: Any) -> str:
    """A value for a message, in TOML's words."""
    if isinstance(v, dict):
        return f"a table of {len(v)} key{'s' * (len(v) != 1)}"
    return "[]" if v == [] else show(v)


_UNKNOWN = {
    ("grid",): f"unknown axis; the axes are {', '.join(AXES)}",
    ("grid", "physics"): "unknown Physics field; the fields are {fields}",
    ("grid", "equipment"): "not a field of any board (`carromlab equipment` lists them)",
}


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation may hold (through Optional, lists, unions and
    Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def table_keys(model: type[BaseModel] | None, loc: tuple) -> list[str]:
    """The keys the table at ``loc`` (a pydantic location inside a ``model`` document) may
    have; [] where it is not a model's table."""
    here: type[BaseModel] | None = model
    for k in loc:
        if here is None:
            return []
        if isinstance(k, int) or k in (RANGE, LIST, ONE):
            continue
        f = here.model_fields.get(str(k))
        found = _models_in(f.annotation) if f is not None else []
        here = found[0] if found else None
    return list(here.model_fields) if here is not None else []


def _where(loc: tuple, raw: Any) -> str:
    """``arms[2] ("laws"): `` for a location inside a list of named tables, else ``""``."""
    for i, k in enumerate(loc[:-1]):
        nxt = loc[i + 1]
        if isinstance(nxt, int) and isinstance(raw, dict) and isinstance(raw.get(k), list):
            items = raw[k]
            item = items[nxt] if nxt < len(items) else None
            name = item.get("name") if isinstance(item, dict) else None
            return f"{k}[{nxt}]" + (f" ({show(name)})" if isinstance(name, str) else "") + ": "
    return ""


def message(err: dict, model: type[BaseModel] | None = None, raw: Any = None) -> str:
    """One pydantic error of a document as ``KEY = VALUE: REASON`` (or ``KEY: ...``); an
    unknown key names the keys its table may have, a key inside a list of tables (a study's
    arms) names the table."""
    loc = tuple(err["loc"])
    key = key_of(loc)
    kind = err["type"]
    where = _where(loc, raw)
    if RANGE in loc and kind in ("missing", "extra_forbidden"):
        return f"{key_of(loc[: loc.index(RANGE)])}: a range is {{start = A, stop = B, count = K}}"
    if kind == "extra_forbidden":
        parent = tuple(k for k in loc[:-1] if k not in (RANGE, LIST, ONE))
        fields = ", ".join(PhysicsAxes.model_fields)
        if parent in _UNKNOWN:
            return f"{where}{key}: " + _UNKNOWN[parent].format(fields=fields)
        keys = table_keys(model, loc[:-1])
        tail = f"; the keys are {', '.join(keys)}" if keys else ""
        return f"{where}{key}: unknown key{tail}"
    if kind == "missing":
        return f"{where}{key}: is missing (a key this file must have)"
    return f"{where}{key} = {shown(err.get('input'))}: {reason(err)}"


def one_line(e: ValidationError, source: str, model: type[BaseModel] | None = None,
             raw: Any = None) -> str:  # fmt: skip
    errors = e.errors()
    more = len(errors) - 1
    tail = f" (and {more} more problem{'s' * (more != 1)})" if more else ""
    return f"{source}: {message(errors[0], model, raw)}{tail}"


def validate(raw: Any, source: str) -> SweepFile:
    """Step 2 on a parsed document; one line (:class:`CarromlabError`) when it fails."""
    return validate_document(SweepFile, raw, source, "a sweep")


def validate_document(model: type[M], raw: Any, source: str, what: str) -> M:
    """``raw`` (a parsed TOML document) checked against ``model`` (pydantic, strict), or
    one line (:class:`CarromlabError`) naming the first problem; ``what``: the document's
    kind ("a sweep", "a study") for a document that is not a table."""
    if not isinstance(raw, dict):
        raise CarromlabError(f"{source}: {what} must be a table of keys, not {shown(raw)}")
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        raise CarromlabError(one_line(e, source, model, raw)) from None


def length(v: Any) -> int:
    """How many values an axis (as validated) holds, without making them."""
    return v["count"] if isinstance(v, dict) else len(v) if isinstance(v, list) else 1


def values(v: Any, item: Any, key: str, source: str) -> list:
    """An axis' values: a list as given, one value as a list, a range made (its count is
    bounded) and each value checked against ``item``'s bounds."""
    if not isinstance(v, dict):
        return v if isinstance(v, list) else [v]
    import numpy as np

    ends = [float(v["start"]), float(v["stop"])]
    out = [float(x) for x in np.linspace(*ends, v["count"])]
    try:  # the ends first: a value out of range is one of them
        TypeAdapter(list[item]).validate_python(ends + out)
    except ValidationError as e:
        err = e.errors()[0]
        raise CarromlabError(f"{source}: {key} = {show(err['input'])}: {reason(err)}") from None
    return out


def check_size(tasks: int, n: int, source: str, what: str) -> None:
    """Refuse a sweep of more than ``MAX_CELLS`` tasks or ``MAX_SWEEP_SHOTS`` shots."""
    if tasks > MAX_CELLS:
        raise CarromlabError(
            f"{source}: grid: {tasks:,} tasks ({what}), more than {MAX_CELLS:,} (a sweep's "
            "limit; split it into several sweeps)"
        )
    if tasks * n > MAX_SWEEP_SHOTS:
        raise CarromlabError(
            f"{source}: n = {n:,}: {tasks:,} tasks x {n:,} shots = {tasks * n:,} shots, more "
            f"than {MAX_SWEEP_SHOTS:,} (a sweep's limit)"
        )


# ---------------------------------------------------------------------- how a sweep is run


def check_run_options(
    executor: str,
    workers: int | None = None,
    scheduler: str | None = None,
    job_size: int = 16,
    chunk: int = 4096,
) -> None:
    """The options of a sweep's run (``carromlab sweep``'s ``--executor``, ``--workers``,
    ``--scheduler``, ``--job-size`` and ``--chunk``), checked before the file is read or the
    folder made: the counts against the shared bounds (``input_schema.check_flags``), the
    executor by name, ``--scheduler`` only for dask. They change the speed, never a number
    of the table, so they are not part of the sweep file."""
    from carromlab.input_schema import check_flags
    from carromlab.sweeps.executors import check_executor

    check_flags(workers=workers, job_size=job_size, chunk=chunk)
    check_executor(executor, workers, scheduler)


# ---------------------------------------------------------------------- JSON Schema


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a sweep document (step 2; ``docs/sweep.schema.json``)."""
    return schema_document(
        SweepFile.model_json_schema(ref_template="#/$defs/{model}"),
        f"A TOML file; TOML maps onto JSON's data model. Files larger than {MAX_BYTES} bytes or "
        f"not UTF-8 are refused before this schema applies, and sweeps of more than "
        f"{MAX_CELLS} tasks (the product of the axes' lengths) or {MAX_SWEEP_SHOTS} shots "
        "(tasks x n) after it; see docs/sweeps.md.",
    )


def json_schema_text() -> str:
    """:func:`json_schema` as the text of ``docs/sweep.schema.json``."""
    return schema_text(json_schema())


if __name__ == "__main__":  # pragma: no cover
    write_schema(json_schema_text(), "docs/sweep.schema.json")
