"""Static geometry and piece arrays, compiled from a board layout and a position.

``Table`` holds numpy arrays of the board's physics primitives (shapes are static for JAX);
``Pieces`` holds per-piece arrays (x, y, vx, vy, radius, mass, material, alive, static).
Pegged pieces (Ring Pegs' rings over the pegs) are ``static``: they never move and act as
immovable discs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from carromlab.equipment.geometry import Layout

SURFACE_SHAPES = {"square": 0, "circle": 1}
BEYOND = {"cushion": 0, "ditch": 1, "open": 2}


@dataclass(frozen=True, eq=False)
class Table:
    """The board's physics primitives as arrays.

    - ``segments`` (S, 4): x0, y0, x1, y1 of each straight cushion (inward normal on the left);
    - ``rail`` (R, 3): cx, cy, radius of each circular rail (discs move inside);
    - ``posts`` (P, 3): x, y, radius of each static circle;
    - ``captures`` (C, 4): x, y, radius, skip speed (inf: never skips) of each pocket/hole;
    - ``surface``: shape ("square"/"circle"), size, and what lies beyond.
    """

    segments: np.ndarray
    segment_materials: tuple[str, ...]
    rails: np.ndarray
    rail_materials: tuple[str, ...]
    posts: np.ndarray
    post_materials: tuple[str, ...]
    captures: np.ndarray
    capture_names: tuple[str, ...]
    capture_kinds: tuple[str, ...]
    surface_shape: str
    surface_size: float
    surface_beyond: str

    @classmethod
    def from_layout(cls, layout: Layout) -> Table:
        def arr(rows, width):
            return np.array(rows, dtype=float).reshape(-1, width)

        return cls(
            segments=arr([(s.x0, s.y0, s.x1, s.y1) for s in layout.cushions], 4),
            segment_materials=tuple(s.material for s in layout.cushions),
            rails=arr([(r.cx, r.cy, r.radius) for r in layout.rails], 3),
            rail_materials=tuple(r.material for r in layout.rails),
            posts=arr([(p.x, p.y, p.radius) for p in layout.posts], 3),
            post_materials=tuple(p.material for p in layout.posts),
            captures=arr([(c.x, c.y, c.radius, c.skip_speed) for c in layout.captures], 4),
            capture_names=tuple(c.name for c in layout.captures),
            capture_kinds=tuple(c.kind for c in layout.captures),
            surface_shape=layout.surface.shape,
            surface_size=float(layout.surface.size),
            surface_beyond=layout.surface.beyond,
        )

    def label(self) -> str:
        """A short name for the board in the kernel's eyes: its surface, its primitives'
        counts and a hash of every number, exactly (two boards with one label: one program,
        and one stored program: carromlab/physics/programs.py)."""
        import hashlib

        parts = [self.segments, self.rails, self.posts, self.captures]
        text = "|".join(
            [repr(p.tolist()) for p in parts]
            + [repr(m) for m in (self.segment_materials, self.rail_materials)]
            + [repr((self.post_materials, self.capture_kinds, self.surface_size))]
            + [self.surface_shape, self.surface_beyond]
        )
        h = hashlib.sha1(text.encode()).hexdigest()[:6]
        counts = f"{len(self.segments)}s{len(self.rails)}r{len(self.posts)}p{len(self.captures)}c"
        return f"{self.surface_shape}/{self.surface_beyond} {counts} #{h}"

    @property
    def cushion_names(self) -> tuple[str, ...]:
        """Names of the walls in the kernel's wall order: segments, then rails, then posts."""
        return (
            tuple(f"segment.{k}" for k in range(len(self.segments)))
            + tuple(f"rail.{k}" for k in range(len(self.rails)))
            + tuple(f"post.{k}" for k in range(len(self.posts)))
        )


@dataclass(frozen=True, eq=False)
class Pieces:
    """Per-piece arrays for one shot (numpy, float64). Index 0 is usually the shooter."""

    ids: tuple[str, ...]
    x: np.ndarray
    y: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    radius: np.ndarray
    mass: np.ndarray
    materials: tuple[str, ...]
    alive: np.ndarray
    static: np.ndarray

    @property
    def n(self) -> int:
        return len(self.ids)

    @classmethod
    def from_position(cls, position, shooter=None, speed: float = 0.0, angle: float = 0.0):
        """Arrays for ``position``; with ``shooter=(kind, owner, x, y)`` a shooting piece is
        added first (index 0) moving at ``speed`` (m/s) towards ``angle`` (radians)."""
        from carromlab.equipment import game_set

        specs = position.board.piece_specs()
        pegged = game_set(position.variant).pegged
        rows = []
        if shooter is not None:
            kind, _owner, sx, sy = shooter
            s = specs[kind]
            rows.append((kind, sx, sy, speed * math.cos(angle), speed * math.sin(angle), s, False))
        for p in position.pieces:
            rows.append((p.id, p.x, p.y, 0.0, 0.0, specs[p.kind], p.kind in pegged))
        return cls(
            ids=tuple(r[0] for r in rows),
            x=np.array([r[1] for r in rows], dtype=float),
            y=np.array([r[2] for r in rows], dtype=float),
            vx=np.array([r[3] for r in rows], dtype=float),
            vy=np.array([r[4] for r in rows], dtype=float),
            radius=np.array([r[5].radius for r in rows], dtype=float),
            mass=np.array([r[5].mass for r in rows], dtype=float),
            materials=tuple(r[5].material for r in rows),
            alive=np.ones(len(rows), dtype=bool),
            static=np.array([r[6] for r in rows], dtype=bool),
        )

    def padded(self, capacity: int) -> Pieces:
        """These pieces followed by dead ones (``alive`` False) up to ``capacity``: the kernel
        ignores dead discs, so positions with fewer pieces share one compiled simulator."""
        extra = capacity - self.n
        if extra < 0:
            raise ValueError(f"{self.n} pieces do not fit a capacity of {capacity}")
        if extra == 0:
            return self
        pad = np.zeros(extra)
        return Pieces(
            ids=self.ids + ("",) * extra,
            x=np.concatenate([self.x, pad]),
            y=np.concatenate([self.y, pad]),
            vx=np.concatenate([self.vx, pad]),
            vy=np.concatenate([self.vy, pad]),
            radius=np.concatenate([self.radius, np.full(extra, float(self.radius.min()))]),
            mass=np.concatenate([self.mass, np.ones(extra)]),
            materials=self.materials + ("pad",) * extra,
            alive=np.concatenate([self.alive, np.zeros(extra, dtype=bool)]),
            static=np.concatenate([self.static, np.zeros(extra, dtype=bool)]),
        )
