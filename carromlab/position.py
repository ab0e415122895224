"""A position: a board plus pieces (id, kind, owner, x, y), its validation, and JSON I/O.

Validation refuses, naming the pieces and the numbers:

- unknown kinds and owners, duplicate or empty ids, piece counts the game does not allow;
- non-finite coordinates;
- pieces off the playing surface (or through the frame), inside a pocket or hole, on a peg;
- overlapping pieces (beyond ``OVERLAP_TOLERANCE``, 2 um; touching pieces are legal);
- for Ring Pegs, a pegged ring not centred on a peg, or two on one peg.

KOOBA's Aeros are magnetic and may lie on top of other pieces (the game set marks them
stackable), so they are not checked for overlap.

JSON: ``{"format": "carromlab-position", "version": 1, "variant", "name", "description",
"board": {"family", ...every board field}, "pieces": [{"id", "kind", "owner", "x", "y"
[, "rotation"]}]}``. A file stores the whole board, so it keeps meaning the same board when
the defaults change.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from carromlab.equipment import BOARDS, Board, game_set
from carromlab.equipment.kooba import KoobaBoard
from carromlab.errors import PositionError

FORMAT = "carromlab-position"
FORMAT_VERSION = 1

#: Pieces may interpenetrate by at most this much (m): touching pieces are legal. 2 um is
#: twice the float32 kernel's contact tolerance, so positions where a simulated shot left
#: pieces touching stay legal (a coin is 31 mm across).
OVERLAP_TOLERANCE = 2e-6
#: A pegged ring's centre must be this close to its peg's (m).
PEG_TOLERANCE = 1e-6
_MAX_FLOAT = sys.float_info.max


def _mm(metres: float) -> str:
    return f"{metres * 1000:.3g} mm"


@dataclass(frozen=True)
class Piece:
    """One piece. ``owner`` is a player or colour (None for neutral pieces); ``rotation``
    (radians) matters only for triangular pieces (KOOBA's Aero)."""

    id: str
    kind: str
    owner: str | None
    x: float
    y: float
    rotation: float = 0.0

    def label(self) -> str:
        return f"piece {self.id!r} ({self.kind})"


@dataclass(frozen=True)
class Position:
    """A board and its pieces, for one variant (a game from the registry)."""

    variant: str
    pieces: tuple[Piece, ...]
    board: Board = field(default=None)  # type: ignore[assignment]
    name: str = ""
    description: str = ""
    #: The pieces were set by hand as a packed group (an opening's rosette): analyses and
    #: games move them a little per shot (``carromlab.shots.HAND_SET``). A position made by
    #: changing the pieces (``replace(pieces=...)``) is no longer as set, unless it says so.
    set_by_hand: bool = False

    def __post_init__(self):
        gs = game_set(self.variant)
        object.__setattr__(self, "pieces", tuple(self.pieces))
        if self.board is None:
            object.__setattr__(self, "board", gs.default_board())

    # ------------------------------------------------------------------ queries
    def by_id(self, piece_id: str) -> Piece:
        for p in self.pieces:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)

    def count(self, kind: str, owner: str | None = None) -> int:
        return sum(1 for p in self.pieces if p.kind == kind and (owner is None or p.owner == owner))

    def radii(self) -> np.ndarray:
        specs = self.board.piece_specs()
        return np.array([specs[p.kind].radius for p in self.pieces], dtype=float)

    def replace(self, **changes) -> Position:
        """A copy with ``changes``; new ``pieces`` clear ``set_by_hand`` unless it is given."""
        if "pieces" in changes and "set_by_hand" not in changes:
            changes["set_by_hand"] = False
        return dataclasses.replace(self, **changes)

    # ------------------------------------------------------------------ validation
    def validate(self) -> list[str]:
        """Every problem found, each one line naming the pieces and numbers ([] if legal)."""
        problems = _check_set(self)
        if problems:
            return problems  # geometry needs known kinds and finite numbers
        return _check_geometry(self)

    def check(self) -> Position:
        """Raise :class:`PositionError` listing every problem; return self when legal."""
        problems = self.validate()
        if problems:
            where = f"position {self.name!r}: " if self.name else ""
            raise PositionError([where + problems[0], *problems[1:]])
        return self

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        pieces = []
        for p in self.pieces:
            d = {"id": p.id, "kind": p.kind, "owner": p.owner, "x": p.x, "y": p.y}
            if p.rotation != 0.0:
                d["rotation"] = p.rotation
            pieces.append(d)
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "variant": self.variant,
            "name": self.name,
            "description": self.description,
            "board": self.board.to_dict(),
            "pieces": pieces,
            **({"set_by_hand": True} if self.set_by_hand else {}),
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.to_json() + "\n")
        return path

    @classmethod
    def from_dict(cls, data: Any, check: bool = True) -> Position:
        """Parse a dict (as written by :meth:`to_dict`); with ``check``, also validate."""
        pos = _parse(data)
        return pos.check() if check else pos

    @classmethod
    def from_json(cls, text: str, check: bool = True) -> Position:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise PositionError(
                f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}"
            ) from None
        return cls.from_dict(data, check=check)

    @classmethod
    def load(cls, path: str | Path, check: bool = True) -> Position:
        path = Path(path)
        try:
            text = path.read_text()
        except OSError as e:
            raise PositionError(f"cannot read {path}: {e.strerror}") from None
        try:
            return cls.from_json(text, check=check)
        except PositionError as e:
            raise PositionError([f"{path}: {e.problems[0]}", *e.problems[1:]]) from None


# ---------------------------------------------------------------------- parsing


def _parse(data: Any) -> Position:
    if not isinstance(data, dict):
        raise PositionError(f"a position must be a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise PositionError(f"'format' must be {FORMAT!r}, found {data.get('format')!r}")
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise PositionError(
            f"unsupported position format version {version!r} (this carromlab reads version "
            f"{FORMAT_VERSION})"
        )
    for key in ("variant", "pieces"):
        if key not in data:
            raise PositionError(f"missing key {key!r}")
    variant = data["variant"]
    if not isinstance(variant, str):
        raise PositionError(f"'variant' must be a string, not {variant!r}")
    gs = game_set(variant)
    board = _parse_board(data.get("board"), gs.family, variant)
    raw = data["pieces"]
    if not isinstance(raw, list):
        raise PositionError(f"'pieces' must be a list, not {type(raw).__name__}")
    pieces = tuple(_parse_piece(i, p) for i, p in enumerate(raw))
    for key in ("name", "description"):
        if not isinstance(data.get(key, ""), str):
            raise PositionError(f"{key!r} must be a string, not {data[key]!r}")
    if not isinstance(data.get("set_by_hand", False), bool):
        raise PositionError(f"'set_by_hand' must be true or false, not {data['set_by_hand']!r}")
    return Position(
        variant,
        pieces,
        board,
        name=data.get("name", ""),
        description=data.get("description", ""),
        set_by_hand=data.get("set_by_hand", False),
    )


def _parse_board(raw: Any, family: str, variant: str) -> Board:
    cls = BOARDS[family]
    if raw is None:
        return cls()
    if not isinstance(raw, dict):
        raise PositionError(f"'board' must be an object, not {type(raw).__name__}")
    got = raw.get("family", family)
    if got != family:
        raise PositionError(f"variant {variant!r} is played on the {family!r} board, not {got!r}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    params = {k: v for k, v in raw.items() if k != "family"}
    unknown = sorted(set(params) - set(fields))
    if unknown:
        raise PositionError(f"unknown {family} board field(s): {', '.join(unknown)}")
    for k, v in params.items():
        default = fields[k].default
        numeric = isinstance(default, (int, float)) or default is None
        if numeric and v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise PositionError(f"board field {k!r} must be a number, not {v!r}")
        if isinstance(v, float) and not math.isfinite(v):
            raise PositionError(f"board field {k!r} must be finite, not {v!r}")
        if isinstance(v, int) and abs(v) > _MAX_FLOAT:
            raise PositionError(f"board field {k!r} is too large ({len(str(abs(v)))} digits)")
        if isinstance(default, int) and v is not None and not isinstance(v, int):
            raise PositionError(f"board field {k!r} must be a whole number, not {v!r}")
        if numeric and v is not None and v <= 0 and "angle" not in k:
            raise PositionError(f"board field {k!r} must be positive, not {v!r}")
    try:
        return cls(**params)
    except (TypeError, ValueError) as e:
        raise PositionError(f"bad {family} board: {e}") from None


def _parse_piece(i: int, raw: Any) -> Piece:
    if not isinstance(raw, dict):
        raise PositionError(f"pieces[{i}] must be an object, not {raw!r}")
    missing = [k for k in ("id", "kind", "x", "y") if k not in raw]
    if missing:
        raise PositionError(f"pieces[{i}] is missing {', '.join(repr(k) for k in missing)}")
    unknown = sorted(set(raw) - {"id", "kind", "owner", "x", "y", "rotation"})
    if unknown:
        raise PositionError(f"pieces[{i}] has unknown key(s) {', '.join(unknown)}")
    pid, kind, owner = raw["id"], raw["kind"], raw.get("owner")
    for key, v in (("id", pid), ("kind", kind)):
        if not isinstance(v, str):
            raise PositionError(f"pieces[{i}].{key} must be a string, not {v!r}")
    if owner is not None and not isinstance(owner, str):
        raise PositionError(f"pieces[{i}] ({pid!r}).owner must be a string or null, not {owner!r}")
    coords = {}
    for key in ("x", "y", "rotation"):
        v = raw.get(key, 0.0)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise PositionError(f"pieces[{i}] ({pid!r}).{key} must be a number, not {v!r}")
        # An integer too large for a float is infinite (as 1e400 is); validation reports it.
        too_big = isinstance(v, int) and abs(v) > _MAX_FLOAT
        coords[key] = (math.inf if v > 0 else -math.inf) if too_big else float(v)
    return Piece(pid, kind, owner, coords["x"], coords["y"], coords["rotation"])


# ---------------------------------------------------------------------- validation


def _check_set(pos: Position) -> list[str]:
    """Kinds, owners, counts, ids, finite numbers."""
    gs = game_set(pos.variant)
    problems = []
    if pos.board.family != gs.family:
        problems.append(
            f"variant {pos.variant!r} is played on the {gs.family!r} board, not {pos.board.family!r}"
        )
        return problems
    seen: dict[str, int] = {}
    for i, p in enumerate(pos.pieces):
        if not p.id:
            problems.append(f"pieces[{i}] ({p.kind}) has an empty id")
        elif p.id in seen:
            problems.append(f"duplicate piece id {p.id!r} (pieces[{seen[p.id]}] and pieces[{i}])")
        else:
            seen[p.id] = i
        rule = gs.kinds.get(p.kind)
        if rule is None:
            problems.append(
                f"{p.label()} has unknown kind {p.kind!r} for variant {pos.variant!r} "
                f"(known kinds: {', '.join(gs.kinds)})"
            )
        elif p.owner not in rule.owners:
            if rule.owners == (None,):
                problems.append(f"{p.label()} has owner {p.owner!r}; {p.kind} pieces have no owner")
            else:
                allowed = ", ".join(str(o) for o in rule.owners)
                problems.append(f"{p.label()} has owner {p.owner!r}; allowed owners: {allowed}")
        for key in ("x", "y", "rotation"):
            v = getattr(p, key)
            if not math.isfinite(v):
                problems.append(f"{p.label()} has a non-finite coordinate {key}={v}")
    for kind, rule in gs.kinds.items():
        for owner in rule.owners:
            n = sum(1 for p in pos.pieces if p.kind == kind and p.owner == owner)
            if n > rule.per_owner:
                whose = f" owned by {owner!r}" if owner is not None else ""
                problems.append(
                    f"too many {kind} pieces{whose} for variant {pos.variant!r}: "
                    f"{n} (at most {rule.per_owner})"
                )
        n = pos.count(kind)
        if rule.total is not None and n > rule.total:
            problems.append(
                f"too many {kind} pieces for variant {pos.variant!r}: {n} (at most {rule.total})"
            )
    return problems


def _check_geometry(pos: Position) -> list[str]:
    gs = game_set(pos.variant)
    board = pos.board
    specs = board.piece_specs()
    layout = board.layout
    surface = layout.surface
    problems = []
    for p in pos.pieces:
        spec = specs[p.kind]
        # On the surface: discs wholly; Aeros by their three corners.
        if spec.shape == "triangle" and isinstance(board, KoobaBoard):
            pts = board.aero_vertices(p.x, p.y, p.rotation)
        else:
            pts = None
        if pts is not None:
            off = [(x, y) for x, y in pts if not surface.contains(x, y)]
            if off:
                x, y = off[0]
                problems.append(
                    f"{p.label()} at ({p.x:.4f}, {p.y:.4f}) m is off the board: a corner lies at "
                    f"({x:.4f}, {y:.4f}) m, outside the {_mm(2 * surface.size)} board"
                )
        elif not surface.contains(p.x, p.y, spec.radius - OVERLAP_TOLERANCE):
            if surface.shape == "square":
                beyond = max(abs(p.x), abs(p.y)) + spec.radius - surface.size
                edge = f"the frame at {_mm(surface.size)} from the centre"
            else:
                beyond = math.hypot(p.x, p.y) + spec.radius - surface.size
                edge = f"the edge of the {_mm(surface.size)}-radius surface"
            centre_off = not surface.contains(p.x, p.y)
            what = "off the playing surface" if centre_off else "through the edge of the surface"
            problems.append(
                f"{p.label()} at ({p.x:.4f}, {p.y:.4f}) m is {what}: its edge is "
                f"{_mm(beyond)} beyond {edge}"
            )
        for cap in layout.captures:
            d = math.hypot(p.x - cap.x, p.y - cap.y)
            if d < cap.radius:
                problems.append(
                    f"{p.label()} at ({p.x:.4f}, {p.y:.4f}) m lies in {cap.name}: centre "
                    f"{_mm(d)} from its centre (radius {_mm(cap.radius)})"
                )
    problems += _check_posts(pos, gs, specs)
    problems += _check_overlaps(pos, gs, specs)
    return problems


def _check_posts(pos, gs, specs) -> list[str]:
    problems = []
    posts = pos.board.layout.posts
    on_post: dict[str, str] = {}
    for p in pos.pieces:
        r = specs[p.kind].radius
        dists = [math.hypot(p.x - q.x, p.y - q.y) for q in posts]
        if p.kind in gs.pegged:
            if not posts:
                problems.append(f"{p.label()} must sit on a peg, but this board has none")
                continue
            k = int(np.argmin(dists))
            if dists[k] > PEG_TOLERANCE:
                problems.append(
                    f"{p.label()} must sit on a peg: its centre is {_mm(dists[k])} from the "
                    f"nearest, {posts[k].name}"
                )
            elif posts[k].name in on_post:
                problems.append(
                    f"two rings on {posts[k].name}: {on_post[posts[k].name]!r} and {p.id!r}"
                )
            else:
                on_post[posts[k].name] = p.id
            continue
        for q, d in zip(posts, dists):
            overlap = r + q.radius - d
            if overlap > OVERLAP_TOLERANCE:
                problems.append(f"{p.label()} overlaps {q.name} by {_mm(overlap)}")
    return problems


def _check_overlaps(pos, gs, specs) -> list[str]:
    solid = [p for p in pos.pieces if p.kind not in gs.stackable]
    if len(solid) < 2:
        return []
    x = np.array([p.x for p in solid])
    y = np.array([p.y for p in solid])
    r = np.array([specs[p.kind].radius for p in solid])
    d = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    overlap = r[:, None] + r[None, :] - d
    i, j = np.nonzero(np.triu(overlap > OVERLAP_TOLERANCE, k=1))
    return [
        f"{solid[a].label()} overlaps {solid[b].label()} by {_mm(overlap[a, b])} "
        f"(centres {_mm(d[a, b])} apart, radii sum {_mm(r[a] + r[b])})"
        for a, b in zip(i, j)
    ]
