"""The schema of a position file: what a position's JSON may hold, checked before anything uses it.

A position file is read in four steps, each refusing with one line (:class:`PositionError`)
that names the field and shows the offending value, shortened:

1. the document: at most ``MAX_BYTES`` bytes, strict UTF-8, objects and lists nested at most
   ``MAX_DEPTH`` deep, no duplicate keys, integer literals of at most ``MAX_INT_DIGITS`` digits
   (all checked before ``json.loads`` recurses or converts a long integer);
2. the position (pydantic, strict: no null where a number is required, no bool where a number
   or a string is, no string for a number, no unknown key): the format and its version (the
   integer 1), the variant, name and description, ``set_by_hand``, the pieces (at most
   ``MAX_PIECES``; finite coordinates; strings of bounded length in valid Unicode, so no lone
   surrogate) and the optional ``turn`` (:func:`turn_problem`: an object of at most
   ``MAX_TURN_FIELDS`` scalars; which fields and values the game's turn takes is its rules'
   word, :mod:`carromlab.rules.turns`, checked where the turn is used);
3. the board, against its family's model (:func:`board_model`, generated from the equipment
   dataclass, so every field is there with its default, provenance and bounds): finite numbers
   in the ranges below, whole numbers for counts, null only where the dataclass allows it
   (ICF's ``pocket_skip_speed``);
4. the position itself, with ``check`` (``Position.validate``: kinds, owners, counts, ids,
   pieces on the surface and clear of pockets, pegs and each other, a shooter that fits on
   the surface where its shots start, ``position.shooter_problem``, and a square board's
   shooting lines on the shooter's own half, ``position.line_problem``).

A command that plays a position of a given variant refuses one of another variant
(:func:`check_variant`).

Steps 2 and 3 are also a JSON Schema (:func:`json_schema`, committed as
``docs/position.schema.json``; ``python -m carromlab.position_schema [PATH]`` writes it);
steps 1 and 4 are not expressible there.

Limits, and where each comes from:

- ``MAX_BYTES`` = 256 KiB: the largest standard position file is 4 KB; 64 pieces and a
  4,000-character description stay under 40 KB. A larger file is not read past the limit.
- ``MAX_DEPTH`` = 16: a position nests 3 deep (document, pieces, piece); 16 leaves room and
  stays far below the depth at which Python's parser recurses out (about 1,000).
- ``MAX_INT_DIGITS`` = 20: the integers a position holds are counts (at most 64) and the
  version; 20 digits hold any 64-bit integer. A longer literal is not converted (Python refuses
  more than 4,300 digits, and conversion time grows with the square of the length); the schema
  refuses it where it stands.
- ``MAX_PIECES`` = 64: the largest game set, Carroms, has 27 pieces (24 rings, the black, 2
  shooters); Carrooka has 22. Checked before any piece is built.
- ``MAX_TURN_FIELDS`` = 16: the largest turn state, ICF's, has 6 fields.
- ``MAX_WORD`` = 64 characters for ids, kinds, owners, the variant and a turn's field names
  and string values (the longest standard id
  has 8 characters, the longest variant 14); ``MAX_NAME`` = 200 for the name;
  ``MAX_DESCRIPTION`` = 4,000 for the description (the longest standard one has 139).
- masses (``*_mass``) 0.1 g to 10 kg: the lightest piece is a 5 g coin, the heaviest a 25 g
  Aero (docs/equipment.md); the range leaves room for experiments and keeps the float32
  kernel's masses, inverse masses and impulses far from underflow (1e-40 kg is a float32
  denormal) and overflow (1e300 kg is infinite).
- lengths (every other real field) 0.1 mm to 5 m: the largest board, Carrooka's, is 88 cm
  across with its rail, the thinnest painted line 1 mm wide.
- speeds (``*_speed``: the skip speeds of pockets and of the crokinole hole) 0.1 mm/s to
  100 m/s: shots are refused above 15 m/s (``carromlab.analysis.variants.MAX_SPEED``), so
  100 m/s already means "never skips"; the lower end only keeps the value a normal float32.
- angles (``*angle*``) and a piece's ``rotation``: any finite number of radians (they are used
  modulo 2 pi, through cos and sin in float64).
- piece coordinates: any finite number (m); off the board is step 4's to say, with the
  distance.
- ``peg_count`` 1 to 64: the NCA board has 8 pegs; 64 leaves room. Each peg is a post of the
  layout and of every kernel batch, so the count is bounded before any is made (2**31 pegs
  would exhaust memory).
- ``pocket_count`` 1 to 64: Carrooka has 6 rim pockets; each is a capture in every kernel batch
  (a million exhausts JAX).
- ``throw_sticks``, ``pro_throw_sticks`` 1 to 20: KOOBA throws from 4 stick lengths (Pro: 5);
  20 sticks are 11 m.

These bounds are carromlab's own choices (estimates in the equipment sense), not rules of any
game; the equipment defaults carry their sources in ``carromlab.equipment`` (each field tagged
official, derived, secondary or estimate, with its source).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import typing
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    create_model,
)

from carromlab.equipment import BOARDS, Board, game_set
from carromlab.errors import PositionError
from carromlab.position_limits import (  # noqa: F401 (named here too)
    _MAX_FLOAT,
    COUNTS,
    FORMAT,
    FORMAT_VERSION,
    LENGTH,
    MASS,
    MAX_BYTES,
    MAX_DEPTH,
    MAX_DESCRIPTION,
    MAX_INT_DIGITS,
    MAX_NAME,
    MAX_PIECES,
    MAX_TURN_FIELDS,
    MAX_WORD,
    SPEED,
    Bound,
    LongInteger,
    _digits,
    _key,
    bound_of,
    show,
)
from carromlab.schema_documents import (
    schema_document,
    schema_text,
    write_schema,
)

# ---------------------------------------------------------------------- step 1: the document

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def _int(text: str) -> int | LongInteger:
    return LongInteger(text) if len(text.lstrip("-")) > MAX_INT_DIGITS else int(text)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise PositionError(f"duplicate key {show(k)} in one object")
        out[k] = v
    return out


def _check_depth(text: str) -> None:
    blank = _STRING.sub(lambda m: " " * len(m.group()), text)
    depth = 0
    for m in _BRACKET.finditer(blank):
        depth += 1 if m.group() in "[{" else -1
        if depth > MAX_DEPTH:
            line = text.count("\n", 0, m.start()) + 1
            col = m.start() - text.rfind("\n", 0, m.start())
            raise PositionError(
                f"the document nests deeper than {MAX_DEPTH} levels at line {line}, column "
                f"{col} (a position nests 3)"
            )


def _too_big(size: int) -> None:
    if size > MAX_BYTES:
        raise PositionError(f"the document is larger than {MAX_BYTES:,} bytes (a position's limit)")


def loads(text: str) -> Any:
    """Parse a position document's text, refusing (one line) what is too large, too deep, not
    Unicode, not JSON, or holds a duplicate key or an over-long integer."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as e:
        raise PositionError(
            f"the document is not valid Unicode: {show(text[e.start : e.end])} at character "
            f"{e.start}"
        ) from None
    _too_big(size)
    _check_depth(text)
    try:
        return json.loads(text, parse_int=_int, object_pairs_hook=_pairs)
    except json.JSONDecodeError as e:
        raise PositionError(
            f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}"
        ) from None


def loads_bytes(data: bytes) -> Any:
    """:func:`loads` of raw bytes, which must be UTF-8 (a leading byte-order mark is allowed)."""
    _too_big(len(data))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise PositionError(
            f"not UTF-8: byte 0x{data[e.start]:02x} at offset {e.start} ({e.reason})"
        ) from None
    return loads(text)


def read_bytes(path: Path) -> bytes:
    """The bytes of the file at ``path``, at most one beyond ``MAX_BYTES`` (so that a larger
    file is refused without being read whole)."""
    try:
        with open(path, "rb") as f:
            return f.read(MAX_BYTES + 1)
    except OSError as e:
        raise PositionError(f"cannot read {path}: {e.strerror}") from None


# ---------------------------------------------------------------------- step 2: the position


def _huge_to_inf(v: Any) -> Any:
    # An integer too large for a float is infinite (as 1e400 is), and refused as such.
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > _MAX_FLOAT:
        return math.inf if v > 0 else -math.inf
    return v


def _exact_version(v: Any) -> Any:
    if type(v) is not int or v != FORMAT_VERSION:
        raise ValueError(
            f"unsupported position format version {show(v)} (this carromlab reads version "
            f"{FORMAT_VERSION})"
        )
    return v


Word = Annotated[str, Field(max_length=MAX_WORD)]
_FINITE = BeforeValidator(_huge_to_inf)
Coordinate = Annotated[float, Field(allow_inf_nan=False), _FINITE]
_STRICT = ConfigDict(strict=True, extra="forbid")


class PieceModel(BaseModel):
    """One piece on the board."""

    model_config = ConfigDict(**_STRICT, title="Piece")

    id: Word = Field(description="Unique in the position (not empty).")
    kind: Word = Field(description="A kind of the variant's game set (coin, queen, ring, ...).")
    owner: Word | None = Field(
        None, description="A player or colour the kind allows; null for neutral pieces."
    )
    x: Coordinate = Field(description="Centre (m) from the board's centre, +x to the right.")
    y: Coordinate = Field(
        description="Centre (m) from the board's centre, +y away from the first player."
    )
    rotation: Coordinate = Field(0.0, description="Radians; only triangular pieces (KOOBA's Aero).")


#: What a turn field may hold: JSON's scalars (a string of at most ``MAX_WORD`` characters).
TurnValue = str | int | float | bool | None


def _unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def turn_problem(turn: Any) -> str | None:
    """What is wrong with a position's ``turn`` as a document's part (None: nothing): an object
    of at most ``MAX_TURN_FIELDS`` fields, each named by a word (1 to ``MAX_WORD`` characters)
    and holding a scalar: a string of at most ``MAX_WORD`` characters, a whole or finite
    number, true or false, or null. Which fields and values a game's turn takes is its rules'
    word (:func:`carromlab.rules.turns.turn_from_fields`)."""
    from collections.abc import Mapping

    if not isinstance(turn, Mapping):
        return f"'turn' must be an object of the game's turn fields, not {_json_type(turn)}"
    if len(turn) > MAX_TURN_FIELDS:
        return f"'turn' has {len(turn)} fields (at most {MAX_TURN_FIELDS})"
    for k, v in turn.items():
        if not isinstance(k, str) or not k or len(k) > MAX_WORD or not _unicode(k):
            return f"'turn' has a field named {show(k)}: a name is 1 to {MAX_WORD} characters"
        where = f"turn field {show(k)}"
        if v is None or isinstance(v, bool):
            continue
        if isinstance(v, LongInteger) or (isinstance(v, int) and abs(v) >= 10**MAX_INT_DIGITS):
            return f"{where} is too large: {show(v)}"
        if isinstance(v, int):
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                return f"{where} must be finite, not {v}"
            continue
        if isinstance(v, str):
            if not _unicode(v):
                return f"{where} is not valid Unicode (a lone surrogate): {show(v)}"
            if len(v) > MAX_WORD:
                return f"{where} is too long: {len(v):,} characters (at most {MAX_WORD})"
            continue
        return f"{where} must be a string, a number, true, false or null, not {_json_type(v)}"
    return None


def _turn(v: Any) -> Any:
    if v is None:
        return v
    problem = turn_problem(v)
    if problem:
        raise ValueError(problem)
    return v


#: The JSON Schema of ``turn`` (what :func:`turn_problem` checks).
TURN_SCHEMA = {
    "anyOf": [
        {
            "type": "object",
            "maxProperties": MAX_TURN_FIELDS,
            "propertyNames": {"minLength": 1, "maxLength": MAX_WORD},
            "additionalProperties": {
                "anyOf": [
                    {"type": "string", "maxLength": MAX_WORD},
                    {"type": "number"},
                    {"type": "boolean"},
                    {"type": "null"},
                ]
            },
        },
        {"type": "null"},
    ],
    "default": None,
    "description": "The game's turn state before the shot, by its rules' field names (ICF: "
    "shooter, own_down, opponent_down, queen_pending, dues, is_break; docs/positions.md). "
    "Null or absent: the rules' default turn.",
}


class PositionModel(BaseModel):
    """A carromlab position: a variant (a game of the registry), its board and its pieces, in
    SI units."""

    model_config = ConfigDict(**_STRICT, title="carromlab position")

    format: Literal["carromlab-position"]
    version: Annotated[Literal[1], BeforeValidator(_exact_version)]
    variant: Word = Field(description="A variant of the registry (`carromlab games`).")
    name: Annotated[str, Field(max_length=MAX_NAME)] = ""
    description: Annotated[str, Field(max_length=MAX_DESCRIPTION)] = ""
    #: Checked against the variant's board family in step 3 (``board_model``).
    board: dict[str, Any] | None = None
    pieces: Annotated[list[PieceModel], Field(max_length=MAX_PIECES)]
    set_by_hand: bool = Field(
        False, description="The pieces were set by hand as a packed group (an opening)."
    )
    turn: Annotated[dict[str, Any] | None, BeforeValidator(_turn), WithJsonSchema(TURN_SCHEMA)] = (
        None
    )


# ---------------------------------------------------------------------- step 3: the board


def _field(name: str, hint: Any, f: dataclasses.Field) -> tuple[Any, Any]:
    """A board dataclass field as pydantic's (type, field): bounded, finite, nullable only
    where the dataclass says so, with the default and its provenance."""
    meta = f.metadata
    doc = f"{meta['tag']}: {meta['source']}" if "tag" in meta else None
    if typing.get_origin(hint) is Literal:
        return hint, Field(f.default, description=doc)
    args = typing.get_args(hint)
    nullable = type(None) in args
    kind = next(a for a in args if a is not type(None)) if nullable else hint
    b = bound_of(name, kind)
    limits = {} if b is None else {"ge": b.lo, "le": b.hi}
    base = Annotated[kind, Field(allow_inf_nan=False, **limits)]
    return base | None if nullable else base, Field(f.default, description=doc)


@cache
def board_model(family: str) -> type[BaseModel]:
    """The pydantic model of ``family``'s board, made from its dataclass: every field with its
    default, provenance and bounds."""
    cls = BOARDS[family]
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {"family": (Literal[family], family)}  # type: ignore[valid-type]
    for f in dataclasses.fields(cls):
        fields[f.name] = _field(f.name, hints[f.name], f)
    title = cls.__name__
    return create_model(title, __config__=ConfigDict(**_STRICT, title=title), **fields)


def parse_board(raw: Any, family: str, variant: str) -> Board:
    """The board of a position of ``variant`` (on ``family``'s board) from its JSON object."""
    cls = BOARDS[family]
    if raw is None:
        return cls()
    got = raw.get("family", family)
    if got != family:
        raise PositionError(
            f"variant {variant!r} is played on the {family!r} board, not {show(got)}"
        )
    try:
        model = board_model(family).model_validate(raw)
    except ValidationError as e:
        raise PositionError(_first(e, ("board",), {"board": raw}, family)) from None
    return cls(**model.model_dump(exclude={"family"}))


# ---------------------------------------------------------------------- the whole document


@dataclass(frozen=True)
class Parsed:
    """A position document that passed steps 2 and 3."""

    variant: str
    board: Board
    pieces: list[dict[str, Any]]
    name: str
    description: str
    set_by_hand: bool
    turn: dict[str, Any] | None = None


def parse(data: Any) -> Parsed:
    """Steps 2 and 3 on a parsed document; :class:`PositionError` (one line) when it fails."""
    if not isinstance(data, dict):
        raise PositionError(f"a position must be a JSON object, not {_json_type(data)}")
    try:
        model = PositionModel.model_validate(data)
    except ValidationError as e:
        raise PositionError(_first(e, (), data, None)) from None
    family = game_set(model.variant).family
    board = parse_board(model.board, family, model.variant)
    return Parsed(
        model.variant,
        board,
        [p.model_dump() for p in model.pieces],
        model.name,
        model.description,
        model.set_by_hand,
        model.turn,
    )


def check_variant(found: str, wanted: str, label: str) -> None:
    """Refuse a position of variant ``found`` (``label``: its name or file) where a command
    plays ``wanted``: one line naming both."""
    if wanted and found != wanted:
        raise PositionError(f"position {label!r} is for variant {found!r}, not {wanted!r}")


# ---------------------------------------------------------------------- one line per refusal


def _json_type(v: Any) -> str:
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, str):
        return "a string"
    return show(v)


def _where(loc: tuple, data: Any, family: str | None) -> str:
    """The field at ``loc`` for a message: 'name', pieces[3] ('w1').x, icf board field 'side'."""
    if loc[:1] == ("board",):
        return f"{family} board field {show(loc[1])}" if len(loc) > 1 else "'board'"
    if loc[:1] == ("pieces",) and len(loc) > 1:
        i = loc[1]
        raw = data["pieces"][i] if isinstance(i, int) else None
        pid = raw.get("id") if isinstance(raw, dict) else None
        head = f"pieces[{i}]" + (f" ({show(pid)})" if isinstance(pid, str) else "")
        return head + "".join(f".{_key(k)}" for k in loc[2:])
    return ".".join(_key(k) if i == 0 else f"{k}" for i, k in enumerate(loc)) if loc else ""


def _quoted(where: str) -> str:
    return f"'{where}'" if where.isidentifier() else where


def _message(err: dict, prefix: tuple, data: Any, family: str | None) -> str:
    loc = prefix + tuple(err["loc"])
    kind, v, ctx = err["type"], err.get("input"), err.get("ctx") or {}
    where = _quoted(_where(loc, data, family))
    parent = _where(loc[:-1], data, family) if len(loc) > 1 else ""
    name = _key(loc[-1]) if loc else ""
    if kind == "missing":
        return f"{parent} is missing {show(loc[-1])}" if parent else f"missing key {show(loc[-1])}"
    if kind == "extra_forbidden":
        if loc[:1] == ("board",):
            return f"unknown {family} board field(s): {name}"
        return f"{parent} has unknown key(s) {name}" if parent else f"unknown key(s) {name}"
    if kind in ("float_type", "int_type") and isinstance(v, (int, LongInteger)):
        if not isinstance(v, bool) and (isinstance(v, LongInteger) or abs(v) > _MAX_FLOAT):
            return f"{where} is too large: {show(v)}"
    if kind == "finite_number" and loc[:1] == ("pieces",) and len(loc) == 3:
        return f"{parent} has a non-finite coordinate {loc[-1]}={_huge_to_inf(v)}"
    if kind == "greater_than_equal" and v <= 0 < ctx["ge"]:
        return f"{where} must be positive, not {show(v)}"
    if kind == "literal_error" and loc == ("format",):
        return f"'format' must be {FORMAT!r}, found {show(v)}"
    if kind == "value_error":
        return str(ctx["error"])
    words = {
        **ctx,
        "where": where,
        "value": show(v),
        "json": _json_type(v),
        "length": len(v) if isinstance(v, (str, list)) else 0,
        "unit": _unit(loc, family),
        "null": " or null" * (name == "owner"),
    }
    template = _TEMPLATES.get(kind, "{where}: {msg}, not {value}")
    return template.format(msg=err["msg"], **words)


#: One line per kind of pydantic error, for the kinds without a special case above.
_TEMPLATES = {
    "float_type": "{where} must be a number, not {value}",
    "int_type": "{where} must be a whole number, not {value}",
    "finite_number": "{where} must be finite, not {value}",
    "greater_than_equal": "{where} is too small: {value} (at least {ge:g} {unit})",
    "less_than_equal": "{where} is too large: {value} (at most {le:g} {unit})",
    "bool_type": "{where} must be true or false, not {value}",
    "string_type": "{where} must be a string{null}, not {value}",
    "string_unicode": "{where} is not valid Unicode (a lone surrogate): {value}",
    "string_too_long": "{where} is too long: {length:,} characters (at most {max_length})",
    "list_type": "{where} must be a list, not {json}",
    "too_long": "{where} has {length} items (at most {max_length})",
    "model_type": "{where} must be an object, not {json}",
    "dict_type": "{where} must be an object, not {json}",
    "literal_error": "{where} must be {expected}, not {value}",
}


def _unit(loc: tuple, family: str | None) -> str:
    if loc[:1] == ("board",) and family is not None:
        f = next(f for f in dataclasses.fields(BOARDS[family]) if f.name == loc[1])
        b = bound_of(f.name, int if isinstance(f.default, int) else float)
        return b.unit if b else ""
    return ""


def _first(e: ValidationError, prefix: tuple, data: Any, family: str | None) -> str:
    """The first error of ``e`` as one line; extra and missing keys of one object together."""
    errors = e.errors()
    first = errors[0]
    line = _message(first, prefix, data, family)
    if first["type"] in ("missing", "extra_forbidden"):
        same = [
            x
            for x in errors[1:]
            if x["type"] == first["type"] and x["loc"][:-1] == first["loc"][:-1]
        ]
        if same:
            names = [_key(x["loc"][-1]) for x in same]
            if first["type"] == "missing":
                names = [show(x["loc"][-1]) for x in same]
                line = line.replace("missing key ", "missing keys ", 1)
            line += ", " + ", ".join(names)
        errors = [x for x in errors[1:] if x not in same]
    else:
        errors = errors[1:]
    more = len(errors)
    return line + (f" (and {more} more problem{'s' * (more != 1)})" if more else "")


# ---------------------------------------------------------------------- JSON Schema


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a position document (steps 2 and 3; ``docs/position.schema.json``)."""
    schema = PositionModel.model_json_schema(ref_template="#/$defs/{model}")
    defs = schema.setdefault("$defs", {})
    refs = []
    for family in BOARDS:
        sub = board_model(family).model_json_schema(ref_template="#/$defs/{model}")
        defs[sub["title"]] = sub
        refs.append({"$ref": f"#/$defs/{sub['title']}"})
    schema["properties"]["board"] = {
        "anyOf": [*refs, {"type": "null"}],
        "default": None,
        "description": "The board, of the variant's family (null or absent: its defaults). "
        "A field left out takes its default.",
    }
    return schema_document(
        schema,
        f"Documents larger than {MAX_BYTES} bytes, nested deeper than {MAX_DEPTH} levels, with "
        f"duplicate keys or with integer literals of more than {MAX_INT_DIGITS} digits are "
        "refused before this schema applies; see docs/positions.md.",
    )


def json_schema_text() -> str:
    """:func:`json_schema` as the text of ``docs/position.schema.json``."""
    return schema_text(json_schema())


if __name__ == "__main__":  # pragma: no cover
    write_schema(json_schema_text(), "docs/position.schema.json")
