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
the sweep is run. Bad input is one :class:`CarromlabError` line naming the key and value.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from carromlab.errors import CarromlabError

TOP_KEYS = ("name", "seed", "n", "confidence", "captures", "grid")
SHOT_AXES = ("placement", "angle", "speed")
GROUPS = ("equipment", "physics", "turn", "scoring")


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
    """Read and check a sweep file."""
    path = Path(path)
    if not path.exists():
        raise CarromlabError(f"{path}: no such sweep file")
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise CarromlabError(f"{path}: not valid TOML ({e})") from None
    return parse_sweep(raw, base=path.parent, source=str(path))


def parse_sweep(raw: dict, base: Path | None = None, source: str = "sweep") -> Sweep:
    """Check a sweep's TOML data (a dict) and build the :class:`Sweep`."""
    from carromlab.analysis.variants import analysed_variants, analysis_for, default_position
    from carromlab.shots import SKILLS

    def fail(key: str, msg: str):
        raise CarromlabError(f"{source}: {key}: {msg}")

    unknown = sorted(set(raw) - set(TOP_KEYS))
    if unknown:
        fail(unknown[0], f"unknown key; the keys are {', '.join(TOP_KEYS)}")
    seed = _int(raw.get("seed", 0), "seed", fail, low=0)
    n = _int(raw.get("n", 1000), "n", fail, low=1)
    confidence = raw.get("confidence", 0.95)
    if not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        fail("confidence", f"must be between 0 and 1, not {confidence!r}")
    captures = raw.get("captures", False)
    if not isinstance(captures, bool):
        fail("captures", f"must be true or false, not {captures!r}")
    grid = raw.get("grid", {})
    if not isinstance(grid, dict):
        fail("grid", "must be a table of axes")
    known = ("variant", "position", "skill", *SHOT_AXES, *GROUPS)
    unknown = sorted(set(grid) - set(known))
    if unknown:
        fail(f"grid.{unknown[0]}", f"unknown axis; the axes are {', '.join(known)}")

    axes: dict = {}
    variants = _strings(grid, "variant", fail) if "variant" in grid else None
    analysed = analysed_variants()
    for v in variants or []:
        if v not in analysed:
            fail("grid.variant", f"{v!r} has no shot analysis; choose from {', '.join(analysed)}")
    labels = _strings(grid, "position", fail) if "position" in grid else None
    if labels is None:
        if variants is None:
            fail("grid", "give a variant or a position axis")
        labels = [default_position(v) for v in variants]
    positions = {label: _position(label, base, fail) for label in dict.fromkeys(labels)}
    if variants is None:
        variants = list(dict.fromkeys(p.variant for p in positions.values()))
    for label, pos in positions.items():
        if pos.variant not in variants:
            fail("grid.position", f"{label!r} is a {pos.variant} position, not one of {variants}")
    axes["variant"], axes["position"] = variants, list(positions)
    for v in variants:
        if not any(p.variant == v for p in positions.values()):
            fail("grid.variant", f"no position of the grid is for {v!r}")

    axes["skill"] = _strings(grid, "skill", fail) if "skill" in grid else ["club"]
    for s in axes["skill"]:
        if s not in SKILLS:
            fail("grid.skill", f"unknown skill {s!r}; known: {', '.join(SKILLS)}")

    for g in GROUPS:
        table = grid.get(g, {})
        if not isinstance(table, dict):
            fail(f"grid.{g}", "must be a table of fields")
        if table:
            axes[g] = {k: _values(v, f"grid.{g}.{k}", fail) for k, v in table.items()}
    if "physics" in axes:
        axes["physics"] = _check_physics(axes["physics"], fail)
    if "equipment" in axes:
        axes["equipment"] = _check_equipment(axes["equipment"], positions, fail)
    _check_rules_fields("turn", axes.get("turn", {}), variants, analysis_for, fail)
    _check_rules_fields("scoring", axes.get("scoring", {}), variants, analysis_for, fail)

    if "placement" in grid:
        axes["placement"] = _numbers(grid["placement"], "grid.placement", fail)
    axes["angle"] = _numbers(grid.get("angle", [90.0]), "grid.angle", fail)
    axes["speed"] = _numbers(grid.get("speed", [2.0]), "grid.speed", fail)
    for v in axes["speed"]:
        if v <= 0:
            fail("grid.speed", f"speeds are positive m/s, not {v}")
    name = raw.get("name", Path(source).stem)
    return Sweep(str(name), seed, n, float(confidence), captures, positions, axes, source)


def _int(v, key, fail, low):
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        fail(key, f"must be an integer >= {low}, not {v!r}")
    return int(v)


def _values(v, key, fail) -> list:
    """An axis: a list, one value, or {start, stop, count}."""
    if isinstance(v, dict):
        if set(v) != {"start", "stop", "count"}:
            fail(key, "a range is {start = A, stop = B, count = K}")
        count = v["count"]
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            fail(key, f"count must be a positive integer, not {count!r}")
        for end in ("start", "stop"):
            if isinstance(v[end], bool) or not isinstance(v[end], (int, float)):
                fail(key, f"{end} must be a number, not {v[end]!r}")
        return [float(x) for x in np.linspace(v["start"], v["stop"], count)]
    values = v if isinstance(v, list) else [v]
    if not values:
        fail(key, "an axis needs at least one value")
    for x in values:
        if isinstance(x, (list, dict)):
            fail(key, f"values are numbers, strings or booleans, not {x!r}")
    if len(set(map(repr, values))) != len(values):
        fail(key, "a value is given twice")
    return values


def _numbers(v, key, fail) -> list[float]:
    values = _values(v, key, fail)
    for x in values:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            fail(key, f"values must be finite numbers, not {x!r}")
    return [float(x) for x in values]


def _strings(grid, axis, fail) -> list[str]:
    values = _values(grid[axis], f"grid.{axis}", fail)
    for x in values:
        if not isinstance(x, str):
            fail(f"grid.{axis}", f"values must be strings, not {x!r}")
    return values


def _position(label: str, base: Path | None, fail):
    from carromlab.position import Position, PositionError
    from carromlab.registry import STANDARD, standard_position

    if label in STANDARD:
        return standard_position(label)
    path = Path(label)
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.exists():
        fail("grid.position", f"{label!r} is neither a standard position nor a file")
    try:
        return Position.load(path)
    except (PositionError, CarromlabError, ValueError) as e:
        fail("grid.position", f"{label}: {e}")


def _floats(key: str, values: list, fail, low: float, strict: bool) -> list[float]:
    """``values`` as floats, each a number above ``low`` (at least ``low`` unless ``strict``)."""
    for x in values:
        bad = isinstance(x, bool) or not isinstance(x, (int, float))
        if bad or not (x > low if strict else x >= low):
            what = "positive numbers" if strict else f"numbers >= {low:g}"
            fail(key, f"values must be {what}, not {x!r}")
    return [float(x) for x in values]


def _check_physics(fields: dict, fail) -> dict:
    """The physics axes, checked, as floats."""
    from carromlab.physics import Physics

    names = [f.name for f in dataclasses.fields(Physics)]
    for k in fields:
        if k not in names:
            fail(f"grid.physics.{k}", f"unknown Physics field; the fields are {', '.join(names)}")
    return {k: _floats(f"grid.physics.{k}", v, fail, 0.0, False) for k, v in fields.items()}


def _check_equipment(fields: dict, positions: dict, fail) -> dict:
    """The equipment axes, checked against every position's board, as floats."""
    out = {k: _floats(f"grid.equipment.{k}", v, fail, 0.0, True) for k, v in fields.items()}
    for label, pos in positions.items():
        names = [f.name for f in dataclasses.fields(pos.board)]
        board = type(pos.board).__name__
        for k, values in out.items():
            if k not in names:
                fail(f"grid.equipment.{k}", f"not a field of {board} (the board of {label!r})")
            for x in values:
                try:
                    with_board(pos, ((k, x),)).check()
                except CarromlabError as e:
                    fail(f"grid.equipment.{k}", f"{x} makes {label!r} invalid: {e}")
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
        for k, values in fields.items():
            if k not in names:
                fail(f"grid.{group}.{k}", f"not a field of {v}'s {kind.__name__}")
            for x in values:
                try:
                    dataclasses.replace(default, **{k: x})
                except (CarromlabError, TypeError, ValueError) as e:
                    fail(f"grid.{group}.{k}", f"{x!r} is not a valid value for {v}: {e}")


def with_board(position, fields: tuple):
    """``position`` on its board with ``fields`` ((name, value) pairs) changed."""
    if not fields:
        return position
    return position.replace(board=dataclasses.replace(position.board, **dict(fields)))
