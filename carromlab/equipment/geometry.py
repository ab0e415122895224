"""Geometric primitives a board exports: what the physics kernel collides with, and named zones.

Units are SI (metres). The origin is the board centre, +x to the right of the first player,
+y away from them; angles are counter-clockwise from +x.

Physics primitives (static geometry; restitution and friction live with the physics
parameters and are looked up by ``material``):

- :class:`Segment`: a straight cushion; a disc's edge reflects off it.
- :class:`CircleRail`: the inside of a circular rail (Carrooka); discs move inside it.
- :class:`Post`: a static circle (a crokinole peg); discs reflect off its outside.
- :class:`Capture`: a pocket or hole; a disc is captured when its centre enters the circle,
  unless it moves faster than ``skip_speed`` (then it skips over).
- :class:`SurfaceEdge`: the edge of the playing surface and what lies beyond it.

Zones (for rules and drawing): :class:`CircleZone`, :class:`PolygonZone`, :class:`LineZone`.
Each has a vectorised ``contains(x, y)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

CaptureKind = Literal["pocket", "hole"]
SurfaceShape = Literal["square", "circle"]
Beyond = Literal["cushion", "ditch", "open"]


@dataclass(frozen=True)
class Segment:
    """A straight cushion from (x0, y0) to (x1, y1); ``normal`` points into the playing area."""

    x0: float
    y0: float
    x1: float
    y1: float
    name: str
    material: str = "frame"

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)

    @property
    def normal(self) -> tuple[float, float]:
        """Unit normal pointing to the left of the direction (x0, y0) -> (x1, y1).

        Boards list their cushions counter-clockwise, so this is the inward normal.
        """
        dx, dy = self.x1 - self.x0, self.y1 - self.y0
        n = math.hypot(dx, dy)
        return (-dy / n, dx / n)


@dataclass(frozen=True)
class CircleRail:
    """The inside of a circular rail of ``radius`` centred at (cx, cy)."""

    cx: float
    cy: float
    radius: float
    name: str
    material: str = "rail"


@dataclass(frozen=True)
class Post:
    """A static circle (peg) that discs bounce off."""

    x: float
    y: float
    radius: float
    name: str
    material: str = "peg"


@dataclass(frozen=True)
class Capture:
    """A pocket or hole: captures a disc whose centre enters the circle.

    ``skip_speed``: a disc crossing faster than this skips over (``math.inf``: never skips).
    """

    x: float
    y: float
    radius: float
    kind: CaptureKind
    name: str
    skip_speed: float = math.inf


@dataclass(frozen=True)
class SurfaceEdge:
    """The playing surface: a square of half-width ``size`` or a circle of radius ``size``.

    ``beyond`` says what lies past the edge: ``"cushion"`` (the frame: discs reflect, nothing
    leaves), ``"ditch"`` (a disc whose centre crosses the edge falls in and leaves play) or
    ``"open"`` (a throw target: nothing slides there).
    """

    shape: SurfaceShape
    size: float
    beyond: Beyond

    def contains(self, x, y, margin=0.0):
        """True where a disc of radius ``margin`` centred at (x, y) lies wholly on the surface."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        lim = self.size - np.asarray(margin, dtype=float)
        if self.shape == "square":
            return (np.abs(x) <= lim) & (np.abs(y) <= lim)
        return np.hypot(x, y) <= lim


@dataclass(frozen=True)
class Layout:
    """Everything the physics kernel needs from a board."""

    surface: SurfaceEdge
    cushions: tuple[Segment, ...] = ()
    rails: tuple[CircleRail, ...] = ()
    posts: tuple[Post, ...] = ()
    captures: tuple[Capture, ...] = ()


# --------------------------------------------------------------------------- zones


@dataclass(frozen=True)
class CircleZone:
    """A disc-shaped zone (``filled``) or a drawn circle line (not filled)."""

    cx: float
    cy: float
    radius: float
    filled: bool = False

    def contains(self, x, y):
        return np.hypot(np.asarray(x) - self.cx, np.asarray(y) - self.cy) <= self.radius


@dataclass(frozen=True)
class PolygonZone:
    """A simple polygon given by its vertices, counter-clockwise."""

    points: tuple[tuple[float, float], ...]

    def contains(self, x, y):
        """Even-odd ray casting, vectorised over points."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        inside = np.zeros(np.broadcast(x, y).shape, dtype=bool)
        pts = self.points
        for (xa, ya), (xb, yb) in zip(pts, pts[1:] + pts[:1]):
            crosses = (ya > y) != (yb > y)
            with np.errstate(divide="ignore", invalid="ignore"):
                xc = xa + (y - ya) * (xb - xa) / (yb - ya)
            inside ^= crosses & (x < xc)
        return inside


@dataclass(frozen=True)
class LineZone:
    """A painted line from (x0, y0) to (x1, y1) of ``width``; ``arrow`` adds a head at (x1, y1)."""

    x0: float
    y0: float
    x1: float
    y1: float
    width: float
    arrow: bool = False

    def contains(self, x, y):
        """True where (x, y) lies on the painted line (within width/2 of the segment)."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        dx, dy = self.x1 - self.x0, self.y1 - self.y0
        t = np.clip(((x - self.x0) * dx + (y - self.y0) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        return np.hypot(x - (self.x0 + t * dx), y - (self.y0 + t * dy)) <= self.width / 2


Zone = CircleZone | PolygonZone | LineZone


@dataclass(frozen=True)
class PieceSpec:
    """Size and mass of one kind of piece. ``shape`` is ``"disc"`` or ``"triangle"``.

    For triangles (KOOBA's Aero) ``radius`` is the circumradius and ``hole_radius`` the central
    hole's radius.
    """

    radius: float
    mass: float
    material: str
    shape: Literal["disc", "triangle"] = "disc"
    hole_radius: float = 0.0
    static: bool = False


def rotate(x: float, y: float, angle: float) -> tuple[float, float]:
    """Rotate the point (x, y) about the origin by ``angle`` radians counter-clockwise."""
    c, s = math.cos(angle), math.sin(angle)
    return (c * x - s * y, s * x + c * y)


def square_cushions(half: float, material: str = "frame") -> tuple[Segment, ...]:
    """The four frame faces of a square surface of half-width ``half``, counter-clockwise."""
    h = half
    corners = [(-h, -h), (h, -h), (h, h), (-h, h)]
    names = ["cushion.S", "cushion.E", "cushion.N", "cushion.W"]
    return tuple(
        Segment(*corners[i], *corners[(i + 1) % 4], name=names[i], material=material)
        for i in range(4)
    )


def corner_pockets(
    half: float, radius: float, inset: float, skip_speed: float = math.inf
) -> tuple[Capture, ...]:
    """Four corner pockets of ``radius`` whose centres lie ``inset`` from both frame faces."""
    c = half - inset
    spots = {"SW": (-c, -c), "SE": (c, -c), "NE": (c, c), "NW": (-c, c)}
    return tuple(
        Capture(x, y, radius, "pocket", f"pocket.{k}", skip_speed) for k, (x, y) in spots.items()
    )


def unit(dx, dy):
    """Unit vectors and lengths of (dx, dy) (a zero vector gives (0, 0) and 0)."""
    n = np.hypot(dx, dy)
    safe = np.where(n > 0, n, 1.0)
    return dx / safe, dy / safe, n


def segment_clear(ax, ay, bx, by, px, py, pr, reach, skip=None) -> np.ndarray:
    """For segments A-B (arrays of any one shape), True where no piece (``px, py, pr``: 1-d)
    comes within ``pr + reach`` of the segment; ``skip`` (the segments' shape + [pieces],
    bool) leaves pieces out of the test."""
    ax, ay, bx, by = (np.asarray(v, float)[..., None] for v in (ax, ay, bx, by))
    reach = np.asarray(reach, float)
    reach = reach[..., None] if reach.ndim else reach
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(ll == 0, 0.0, np.clip(((px - ax) * dx + (py - ay) * dy) / ll, 0.0, 1.0))
    near = np.hypot(px - (ax + t * dx), py - (ay + t * dy)) < pr + reach
    if skip is not None:
        near &= ~skip
    return ~near.any(axis=-1)
