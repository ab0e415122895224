"""A sweep's declaration: a TOML file read into a :class:`Sweep` and its list of tasks.

The file (docs/sweeps.md)::

    name = "icf-cut-by-friction"   # optional label
    seed = 0                       # the root seed
    n = 2000                       # noisy shots per task
    confidence = 0.95              # intervals
    captures = false               # also p_capture:<piece> columns

    [grid]                         # every combination of the axes is one task
    variant = ["icf"]              # optional when positions are given
    position = ["icf-midgame"]     # standard names or JSON files (relative to this file)
    skill = ["club", "pro"]
    placement = [0.0]              # m on a line, deg on a circle (default: mid-line / -90)
    angle = {start = 60.0, stop = 120.0, count = 13}   # degrees
    speed = [2.0, 3.0]             # m/s

    [grid.physics]                 # Physics fields (traced: no recompilation)
    mu = [0.08, 0.10, 0.12]

    [grid.equipment]               # board fields (a new board layout compiles a new kernel)
    pocket_diameter = [0.0445, 0.05]

    [grid.turn]                    # fields of the variant's turn (e.g. carrooka's piece on)
    on = ["red", "yellow"]          # the piece on

    [grid.scoring]                 # the rules' scoring weights (e.g. IcfScoring)
    queen_covered = [3.0, 5.0]

An axis is a list, a single value, or ``{start, stop, count}`` (``count`` evenly spaced values).
Task ids number the combinations in this order, the last axis fastest: variant, position,
skill, equipment fields, physics fields, turn fields, scoring fields (each in the file's
order), placement, angle, speed. A task's keys are ``fold_in(key(seed), task id)`` and its shot ``i``'s
``fold_in(task key, i)``, so its numbers depend only on the file and the task, never on how
the sweep is run. Bad input is one :class:`CarromlabError` line naming the key and value
(``sweep.toml: grid.physics.mu = inf: must be finite``): the file and every value are checked
against the schema of ``carromlab.sweeps.schema`` (the bounds of ``carromlab.input_schema`` and,
for equipment fields, of the position schema), and a sweep of more than 10**6 tasks or 10**10
shots is refused from the axes' lengths before any task or value is made.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path

from carromlab.errors import CarromlabError
from carromlab.sweeps.schema import (
    GROUPS,
    SHOT_AXES,
    check_size,
    item_type,
    length,
    read_toml,
    shown,
    validate,
    values,
)


@dataclass(frozen=True)
class Task:
    """One task: a base shot of one position under one set of options, ``n`` noisy shots."""

    id: int
    variant: str
    position: str
    skill: str
    equipment: tuple[tuple[str, float], ...]
    physics: tuple[tuple[str, float], ...]
    turn: tuple[tuple[str, object], ...]
    scoring: tuple[tuple[str, object], ...]
    placement: float
    angle: float
    speed: float

    @property
    def group(self) -> tuple:
        """What tasks must share to run in one kernel batch (all but the base shot)."""
        return (
            self.variant,
            self.position,
            self.skill,
            self.equipment,
            self.physics,
            self.turn,
            self.scoring,
        )

    def columns(self) -> dict:
        """The task's own columns in the results table."""
        row = {"task": self.id, "variant": self.variant, "position": self.position}
        row["skill"] = self.skill
        groups = (self.equipment, self.physics, self.turn, self.scoring)
        for prefix, pairs in zip(GROUPS, groups, strict=True):
            row.update({f"{prefix}.{k}": v for k, v in pairs})
        row.update(placement=self.placement, angle=self.angle, speed=self.speed)
        return row


@dataclass(frozen=True)
class Sweep:
    """A parsed sweep file: settings, positions by label, and the axes."""

    name: str
    seed: int
    n: int
    confidence: float
    captures: bool
    positions: dict  # label -> Position
    axes: dict  # axis -> list of values; groups: {"physics": {field: [values]}, ...}
    source: str = ""

    @property
    def spec(self) -> dict:
        """Everything the numbers depend on, as plain JSON data (stored with the results)."""
        return {
            "name": self.name,
            "seed": self.seed,
            "n": self.n,
            "confidence": self.confidence,
            "captures": self.captures,
            "axes": self.axes,
            "positions": {k: p.to_dict() for k, p in self.positions.items()},
        }

    @property
    def digest(self) -> str:
        """A short hash of :attr:`spec`: a results folder belongs to one sweep."""
        text = json.dumps(self.spec, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def tasks(self) -> list[Task]:
        from carromlab.registry import get_game

        groups = [(g, list(self.axes.get(g, {}).items())) for g in GROUPS]
        group_values = [
            [tuple(zip([k for k, _ in items], combo, strict=True)) for combo in _product(items)]
            for _, items in groups
        ]
        out = []
        for variant, label in self._pairs():
            placements = self.axes.get("placement") or [get_game(variant).default_placement]
            for combo in itertools.product(
                self.axes["skill"],
                *group_values,
                placements,
                self.axes["angle"],
                self.axes["speed"],
            ):
                skill, eq, ph, tu, sc, x, a, v = combo
                out.append(Task(len(out), variant, label, skill, eq, ph, tu, sc, x, a, v))
        return out

    def _pairs(self) -> list[tuple[str, str]]:
        return [
            (v, p)
            for v in self.axes["variant"]
            for p in self.axes["position"]
            if self.positions[p].variant == v
        ]


def _product(items):
    return itertools.product(*[values for _, values in items]) if items else [()]


def load_sweep(path: str | Path) -> Sweep:
    """Read and check a sweep file (``carromlab.sweeps.schema``: one line for a missing file,
    a folder, a file over 1 MiB, not UTF-8 or not TOML, then :func:`parse_sweep`)."""
    path = Path(path)
    raw = read_toml(path)
    return parse_sweep(raw, base=path.parent, source=str(path))


def parse_sweep(raw: dict, base: Path | None = None, source: str = "sweep") -> Sweep:
    """Check a sweep's TOML data (a dict) against its schema (``carromlab.sweeps.schema``),
    bound its size before any task or value is made, and build the :class:`Sweep`."""
    from carromlab.analysis.variants import analysed_variants, analysis_for, default_position
    from carromlab.shots import SKILLS

    def fail(key: str, msg: str, *value):
        shown_value = f" = {shown(value[0])}" if value else ""
        raise CarromlabError(f"{source}: {key}{shown_value}: {msg}")

    doc = validate(raw, source)
    grid = raw.get("grid", {})
    tables = {g: grid.get(g) or {} for g in GROUPS}

    # the size, from the axes' lengths alone (the positions' variants multiply it below)
    lengths = [length(grid[a]) for a in ("skill", *SHOT_AXES) if a in grid]
    lengths += [length(v) for g in GROUPS for v in tables[g].values()]
    check_size(math.prod(lengths), doc.n, source, "the product of the axes' lengths")

    axes: dict = {}
    variants = _unique(grid, "variant", fail) if "variant" in grid else None
    analysed = analysed_variants()
    for v in variants or []:
        if v not in analysed:
            fail("grid.variant", f"has no shot analysis; choose from {', '.join(analysed)}", v)
    labels = _unique(grid, "position", fail) if "position" in grid else None
    if labels is None:
        if variants is None:
            fail("grid", "give a variant or a position axis")
        labels = [default_position(v) for v in variants]
    positions = {label: _position(label, base, fail) for label in dict.fromkeys(labels)}
    if variants is None:
        variants = list(dict.fromkeys(p.variant for p in positions.values()))
    for label, pos in positions.items():
        if pos.variant not in variants:
            fail("grid.position", f"is a {pos.variant} position, not one of {variants}", label)
    axes["variant"], axes["position"] = variants, list(positions)
    for v in variants:
        if not any(p.variant == v for p in positions.values()):
            fail("grid.variant", "no position of the grid is for it", v)
    pairs = sum(1 for v in variants for p in positions.values() if p.variant == v)
    check_size(pairs * math.prod(lengths), doc.n, source, "the axes' product over the positions")

    axes["skill"] = _unique(grid, "skill", fail) if "skill" in grid else ["club"]
    for s in axes["skill"]:
        if s not in SKILLS:
            fail("grid.skill", f"unknown skill; known: {', '.join(SKILLS)}", s)

    for g in GROUPS:
        if tables[g]:
            axes[g] = {
                k: _axis(v, f"grid.{g}.{k}", _field_type(g, k), source, fail)
                for k, v in tables[g].items()
            }
    if "physics" in axes:
        axes["physics"] = {k: [float(x) for x in v] for k, v in axes["physics"].items()}
    if "equipment" in axes:
        axes["equipment"] = _check_equipment(axes["equipment"], positions, fail)
    _check_rules_fields("turn", axes.get("turn", {}), variants, analysis_for, fail)
    _check_rules_fields("scoring", axes.get("scoring", {}), variants, analysis_for, fail)

    for a, default in (("placement", None), ("angle", [90.0]), ("speed", [2.0])):
        if a in grid:
            made = _axis(grid[a], f"grid.{a}", item_type(a), source, fail)
            axes[a] = [float(x) for x in made]
        elif default is not None:
            axes[a] = default
    name = doc.name if doc.name is not None else Path(source).stem
    return Sweep(
        name, doc.seed, doc.n, float(doc.confidence), doc.captures, positions, axes, source
    )


def _field_type(group: str, k: str):
    """The type of one value of the group's field ``k`` (the schema knows every physics and
    equipment field; turn and scoring fields are checked against the variants below)."""
    return item_type(group, k if group in ("physics", "equipment") else None)


def _axis(v, key: str, item, source: str, fail) -> list:
    """An axis' values (validated by the schema): a range made and each value checked against
    ``item``; a list whose values are all different."""
    out = values(v, item, key, source)
    if isinstance(v, dict):
        return out
    seen = set()
    for x in out:
        r = repr(x)
        if r in seen:
            fail(key, "a value is given twice", x)
        seen.add(r)
    return out


def _unique(grid, axis, fail) -> list[str]:
    return _axis(grid[axis], f"grid.{axis}", None, "", fail)


def _position(label: str, base: Path | None, fail):
    from carromlab.position import Position, PositionError
    from carromlab.registry import STANDARD, standard_position

    if label in STANDARD:
        return standard_position(label)
    path = Path(label)
    if base is not None and not path.is_absolute():
        path = base / path
    try:
        exists = path.exists()
    except (OSError, ValueError):
        exists = False
    if not exists:
        fail("grid.position", "is neither a standard position nor a file", label)
    try:
        return Position.load(path)
    except (PositionError, CarromlabError, ValueError) as e:
        fail("grid.position", f"{e}", label)


def _check_equipment(fields: dict, positions: dict, fail) -> dict:
    """The equipment axes (validated by the schema), each a field of every position's board
    and leaving every position legal."""
    from carromlab.position_schema import COUNTS

    def typed(k, x):  # counts stay whole, a choice (crokinole's surround) a string
        return x if k in COUNTS or isinstance(x, str) else float(x)

    out = {k: [typed(k, x) for x in v] for k, v in fields.items()}
    for label, pos in positions.items():
        names = [f.name for f in dataclasses.fields(pos.board)]
        board = type(pos.board).__name__
        for k, values_ in out.items():
            if k not in names:
                fail(f"grid.equipment.{k}", f"not a field of {board} (the board of {label!r})")
            for x in values_:
                try:
                    with_board(pos, ((k, x),)).check()
                except CarromlabError as e:
                    fail(f"grid.equipment.{k}", f"makes {label!r} invalid: {e}", x)
    return out


def _check_rules_fields(group: str, fields: dict, variants, analysis_for, fail) -> None:
    """Fields of each variant's turn state or scoring weights, and values they accept."""
    for v in variants:
        rules = analysis_for(v).rules
        kind = rules.turn_type if group == "turn" else rules.scoring_type
        if fields and kind is None:
            fail(f"grid.{group}", f"{v} has no {group} options")
        if not fields:
            continue
        default = kind()
        names = [f.name for f in dataclasses.fields(default)]
        for k, values_ in fields.items():
            if k not in names:
                fail(f"grid.{group}.{k}", f"not a field of {v}'s {kind.__name__}")
            for x in values_:
                try:
                    dataclasses.replace(default, **{k: x})
                except (CarromlabError, TypeError, ValueError) as e:
                    fail(f"grid.{group}.{k}", f"not a valid value for {v}: {e}", x)


def with_board(position, fields: tuple):
    """``position`` on its board with ``fields`` ((name, value) pairs) changed, the board
    checked by the position schema (``position_schema.parse_board``: strict types, finite
    values in the same physical ranges as a position file's board)."""
    if not fields:
        return position
    from carromlab.equipment import BOARDS
    from carromlab.position_schema import parse_board

    board = position.board
    family = next(f for f, cls in BOARDS.items() if type(board) is cls)
    raw = {f.name: getattr(board, f.name) for f in dataclasses.fields(board)}
    raw.update(dict(fields))
    return position.replace(board=parse_board(raw, family, position.variant))
