"""A position: a board plus pieces (id, kind, owner, x, y), its validation, and JSON I/O.

Validation refuses, naming the pieces and the numbers:

- unknown kinds and owners, duplicate or empty ids, piece counts the game does not allow;
- non-finite coordinates;
- pieces off the playing surface (or through the frame), inside a pocket or hole, on a peg;
- overlapping pieces (beyond ``OVERLAP_TOLERANCE``, 2 um; touching pieces are legal);
- for Ring Pegs, a pegged ring not centred on a peg, or two on one peg;
- a board on which the shooter does not fit where its shots start (:func:`shooter_problem`),
  or whose shooting lines leave the shooter's own half of the surface (:func:`line_problem`).

KOOBA's Aeros are magnetic and may lie on top of other pieces (the game set marks them
stackable), so they are not checked for overlap.

A position may carry its game's turn state before the shot (``turn``: the fields of the
variant's rules' turn type by name, such as ICF's ``shooter``, ``own_down``, ``opponent_down``,
``queen_pending``, ``dues``, ``is_break``; None: the rules' default turn). Here it is only
checked as a document's part (scalars, bounded); which fields and values it takes is the
game's rules' word, said where it is used (``VariantAnalysis.turn_of``,
:func:`carromlab.registry.position_turn`, ``carromlab validate``).

JSON: ``{"format": "carromlab-position", "version": 1, "variant", "name", "description",
"board": {"family", ...every board field}, "pieces": [{"id", "kind", "owner", "x", "y"
[, "rotation"]}] [, "set_by_hand": true] [, "turn": {field: value, ...}]}``. A file stores
the whole board, so it keeps meaning the same board when the defaults change. What a file may hold (types, ranges, limits on size, depth, counts and
strings) is :mod:`carromlab.position_schema` (docs/positions.md); reading refuses anything else
in one line before the position is built.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from carromlab import position_schema as schema
from carromlab.equipment import Board, game_set
from carromlab.equipment.kooba import KoobaBoard
from carromlab.errors import PositionError
from carromlab.position_schema import FORMAT, FORMAT_VERSION, TurnValue

#: Pieces may interpenetrate by at most this much (m): touching pieces are legal. 2 um is
#: twice the float32 kernel's contact tolerance, so positions where a simulated shot left
#: pieces touching stay legal (a coin is 31 mm across).
OVERLAP_TOLERANCE = 2e-6
#: A pegged ring's centre must be this close to its peg's (m).
PEG_TOLERANCE = 1e-6


def _mm(metres: float) -> str:
    return f"{metres * 1000:.3g} mm"


def _at(x: float, y: float) -> str:
    """A point (m) for a message: 0.1 mm steps on the board's scale, 4 digits beyond it."""
    return "(" + ", ".join(f"{v:.4f}" if abs(v) < 1e3 else f"{v:.4g}" for v in (x, y)) + ")"


class TurnFields(Mapping[str, TurnValue]):
    """A position's turn fields: a read-only mapping, field name -> a JSON scalar, that
    hashes (a position is a cache key) and compares equal to a dict of the same items."""

    __slots__ = ("_items",)

    def __init__(self, fields: Mapping[str, Any] | None = None):
        items = {}
        for k, v in dict(fields or {}).items():
            items[k] = v.item() if isinstance(v, np.generic) else v  # numpy scalars as JSON's
        self._items = items

    @classmethod
    def of(cls, turn: Any) -> TurnFields:
        """``turn`` as turn fields: a mapping of fields, or a turn object (a dataclass of the
        game's turn type, every field of it)."""
        if isinstance(turn, TurnFields):
            return turn
        if dataclasses.is_dataclass(turn) and not isinstance(turn, type):
            return cls({f.name: getattr(turn, f.name) for f in dataclasses.fields(turn)})
        if isinstance(turn, Mapping):
            return cls(turn)
        raise PositionError(
            "a position's turn is a mapping of the game's turn fields or a turn object, not "
            f"{type(turn).__name__}"
        )

    def __getitem__(self, key: str) -> TurnValue:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items))  # the names: equal mappings hash equal

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._items) == dict(other.items())

    def __repr__(self) -> str:
        return f"TurnFields({self._items!r})"


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
    #: changing the pieces (``replace(pieces=...)``) is no longer as set, unless it says so
    #: or only lists the same pieces in another order.
    set_by_hand: bool = False
    #: The game's turn state before the shot, by the fields of the variant's rules' turn type
    #: (ICF: ``{"shooter": "white", "own_down": 6, ...}``; a field left out takes its
    #: default), or None: the rules' default turn. A turn object (``IcfTurn(...)``) is taken
    #: as its fields. Analyses value shots under it (``VariantAnalysis.turn_of``).
    turn: Mapping[str, TurnValue] | None = None

    def __post_init__(self):
        gs = game_set(self.variant)
        object.__setattr__(self, "pieces", tuple(self.pieces))
        if self.board is None:
            object.__setattr__(self, "board", gs.default_board())
        if self.turn is not None:
            object.__setattr__(self, "turn", TurnFields.of(self.turn))

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
        """A copy with ``changes``; new ``pieces`` clear ``set_by_hand`` unless it is given or
        they are the same pieces listed in another order (listing is not moving: a set-up's
        layout does not depend on its order, docs/physics.md)."""
        if "pieces" in changes and "set_by_hand" not in changes:
            relisted = Counter(changes["pieces"]) == Counter(self.pieces)
            changes["set_by_hand"] = self.set_by_hand and relisted
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
            **({"turn": dict(self.turn)} if self.turn is not None else {}),
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.to_json() + "\n")
        return path

    @classmethod
    def from_dict(cls, data: Any, check: bool = True) -> Position:
        """Parse a dict (as written by :meth:`to_dict`) against the schema
        (:mod:`carromlab.position_schema`); with ``check``, also validate."""
        doc = schema.parse(data)
        pos = cls(
            doc.variant,
            tuple(Piece(**p) for p in doc.pieces),
            doc.board,
            name=doc.name,
            description=doc.description,
            set_by_hand=doc.set_by_hand,
            turn=doc.turn,
        )
        return pos.check() if check else pos

    @classmethod
    def from_json(cls, text: str, check: bool = True) -> Position:
        """Parse JSON text: the document's limits (size, depth, integer digits) first."""
        return cls.from_dict(schema.loads(text), check=check)

    @classmethod
    def load(cls, path: str | Path, check: bool = True) -> Position:
        """Read a position file (bytes: at most ``schema.MAX_BYTES``, UTF-8)."""
        path = Path(path)
        data = schema.read_bytes(path)
        try:
            return cls.from_dict(schema.loads_bytes(data), check=check)
        except PositionError as e:
            raise PositionError([f"{path}: {e.problems[0]}", *e.problems[1:]]) from None


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
    if pos.turn is not None:
        turn = schema.turn_problem(pos.turn)
        if turn:
            problems.append(turn)
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
    shooter = shooter_problem(board) or line_problem(board)
    problems = [f"{board.family} board: {shooter}"] if shooter else []
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
                    f"{p.label()} at {_at(p.x, p.y)} m is off the board: a corner lies at "
                    f"{_at(x, y)} m, outside the {_mm(2 * surface.size)} board"
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
                f"{p.label()} at {_at(p.x, p.y)} m is {what}: its edge is "
                f"{_mm(beyond)} beyond {edge}"
            )
        for cap in layout.captures:
            d = math.hypot(p.x - cap.x, p.y - cap.y)
            if d < cap.radius:
                problems.append(
                    f"{p.label()} at {_at(p.x, p.y)} m lies in {cap.name}: centre "
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


def _beyond(what: str, reach: float, edge: float, fields: dict[str, float]) -> str | None:
    over = reach - edge
    if over <= 1e-9:
        return None
    named = ", ".join(f"{k} {v:g}" for k, v in fields.items())
    return f"{what} reaches {_mm(over)} beyond the edge of the surface ({named})"


def shooter_problem(board: Board) -> str | None:
    """Whether the shooter fits wholly on the surface at the ends of the line or circle its
    shots start from (None when it does): a board whose start lies off the surface or puts the
    shooter through the frame is refused, naming the fields that place it."""
    b: Any = board
    if b.family == "icf":
        r = b.striker_diameter / 2
        y = b.baseline_offset + b.baseline_gap / 2  # the striker's centre above South's frame
        far = b.half - b.base_circle_from_side + r - b.base_circle_diameter / 2
        return _beyond(
            "the striker between the baselines",
            max(r - y, y + r - b.side),
            0.0,
            {"baseline_offset": b.baseline_offset, "baseline_gap": b.baseline_gap, "side": b.side},
        ) or _beyond(
            "the striker covering a base circle",
            far + r,
            b.half,
            {"base_circle_from_side": b.base_circle_from_side, "striker_diameter": 2 * r},
        )
    if b.family == "checker":
        r = b.ring_diameter / 2
        y = b.shooting_line_offset
        return _beyond(
            "the shooter on its shooting line",
            max(r - y, y + r - b.side, b.shooting_line_length / 2 + r - b.half),
            0.0,
            {
                "shooting_line_offset": y,
                "shooting_line_length": b.shooting_line_length,
                "side": b.side,
            },
        )
    if b.family == "crokinole":
        edge = b.surface_diameter / 2 if b.surround == "ditch" else b.half
        key = "surface_diameter" if b.surround == "ditch" else "side"
        return _beyond(
            "the shooting ring on the outer circle",
            b.outer_radius + b.ring_diameter / 2,
            edge,
            {"outer_radius": b.outer_radius, "ring_diameter": b.ring_diameter, key: 2 * edge},
        )
    if b.family == "carrooka":
        return _beyond(
            "the striker on the break line",
            b.break_radius + b.striker_diameter / 2,
            b.radius,
            {"break_radius": b.break_radius, "diameter": b.diameter},
        )
    return None  # KOOBA's pieces are thrown from off the board


def line_problem(board: Board) -> str | None:
    """Whether the line a square board's shots start from lies on the shooter's own half of
    the surface (None when it does): the ICF baselines (both, and no longer than the side)
    and the Carroms shooting line. A line past the centre is another player's side (South's
    line would lie beyond North's), and the rules' "behind the baseline" loses its meaning;
    the message names the fields and their values. Circles (Carrooka's break line, the
    crokinole side) have no half; :func:`shooter_problem` checks that their shooter fits."""
    b: Any = board
    own = "a shooter's lines must lie in its own half of the surface"
    if b.family == "icf":
        far = b.baseline_offset + b.baseline_gap
        if far >= b.half:
            return (
                f"the baselines lie past the centre: baseline_offset {b.baseline_offset:g} + "
                f"baseline_gap {b.baseline_gap:g} = {far:g} m from the frame, at least half "
                f"the side ({b.half:g} m of side {b.side:g}); {own}"
            )
        if b.baseline_length > b.side:
            return (
                f"the baselines run off the surface: baseline_length {b.baseline_length:g} "
                f"m, longer than the side {b.side:g} m"
            )
    if b.family == "checker" and b.shooting_line_offset >= b.half:
        return (
            f"the shooting line lies past the centre: shooting_line_offset "
            f"{b.shooting_line_offset:g} m from the frame, at least half the side "
            f"({b.half:g} m of side {b.side:g}); {own}"
        )
    return None
