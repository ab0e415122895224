"""The Carrom Company's reversible square board: the checker side and the crokinole side.

The Carrom Company publishes no dimensions. The board is about 28 in square overall with four
corner pockets through the board, so both sides share the frame and the pockets. The crokinole
side's circles follow the National Crokinole Association layout, unscaled: a
66 cm playing square holds the 66 cm NCA surface exactly.

Decision (documented in docs/decisions.md): the crokinole side's ``surround`` is ``"square"``
by default - the Carrom Company board, whose frame stops rings and whose corner pockets capture
them; ``"ditch"`` gives an NCA tournament crokinole board, where a disc whose centre leaves the
66 cm circle falls into the ditch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from carromlab.equipment._sourced import spec
from carromlab.equipment.base import SIDES, Board, side_rotated
from carromlab.equipment.geometry import (
    Capture,
    CircleZone,
    Layout,
    LineZone,
    PieceSpec,
    PolygonZone,
    Post,
    SurfaceEdge,
    corner_pockets,
    square_cushions,
)

CC = "Carrom Company board"
NCA = "National Crokinole Association layout"


@dataclass(frozen=True)
class _CompanySquare(Board):
    """Frame, pockets and rings shared by both sides of the Carrom Company board."""

    side: float = spec(0.66, "estimate", CC + ": about 28 in overall less the frame")
    frame_width: float = spec(0.025, "estimate", CC + ": frame width")
    pocket_diameter: float = spec(0.048, "estimate", CC + ": corner pockets, about 1 7/8 in")
    pocket_inset: float = spec(0.024, "estimate", "pocket circle tangent to both frame faces")
    ring_diameter: float = spec(0.0318, "secondary", "crokinole discs / rings 1 1/4 in (3.2 cm)")
    ring_mass: float = spec(0.0055, "estimate", "crokinole discs / rings about 5-6 g")
    ring_hole_diameter: float = spec(
        0.0127, "estimate", "rings have a 1/2 in hole (they sit over the 3/8 in pegs)"
    )

    @property
    def half(self) -> float:
        return self.side / 2

    @property
    def extent(self) -> float:
        return self.half + self.frame_width

    def _square_layout(self, **extra) -> Layout:
        return Layout(
            surface=SurfaceEdge("square", self.half, "cushion"),
            cushions=square_cushions(self.half),
            captures=corner_pockets(self.half, self.pocket_diameter / 2, self.pocket_inset),
            **extra,
        )

    def piece_specs(self) -> dict[str, PieceSpec]:
        ring = PieceSpec(
            self.ring_diameter / 2, self.ring_mass, "ring", hole_radius=self.ring_hole_diameter / 2
        )
        return {"ring": ring, "black": ring, "shooter": ring}


@dataclass(frozen=True)
class CheckerBoard(_CompanySquare):
    """The checker side, used for Carroms: 4 corner pockets and a shooting line per side."""

    family = "checker"

    shooting_line_offset: float = spec(0.10, "estimate", CC + ": shooting line from the frame")
    shooting_line_length: float = spec(
        0.36, "estimate", CC + ": shooting line length (end circles clear the corners)"
    )
    shooting_circle_diameter: float = spec(
        0.0318, "estimate", CC + ": circles closing the shooting lines (a ring's size)"
    )
    centre_circle_diameter: float = spec(0.17, "estimate", CC + ": centre circle (as ICF)")
    checker_side: float = spec(0.40, "estimate", CC + ": 8 x 8 checkerboard, 5 cm squares")

    def _layout(self) -> Layout:
        return self._square_layout()

    def _zones(self):
        zones = {"centre_circle": CircleZone(0.0, 0.0, self.centre_circle_diameter / 2)}
        h = self.checker_side / 2
        zones["checkerboard"] = PolygonZone(((-h, -h), (h, -h), (h, h), (-h, h)))
        y = -self.half + self.shooting_line_offset
        xl = self.shooting_line_length / 2
        r = self.shooting_circle_diameter / 2
        for s in SIDES:
            zones[f"shooting_line.{s}"] = LineZone(
                *side_rotated(s, -xl, y), *side_rotated(s, xl, y), width=0.002
            )
            for name, x in (("left", -xl - r), ("right", xl + r)):
                zones[f"shooting_circle.{s}.{name}"] = CircleZone(*side_rotated(s, x, y), r)
        return zones


@dataclass(frozen=True)
class CrokinoleBoard(_CompanySquare):
    """The crokinole side: scoring circles, centre hole, 8 pegs; Force Out, Ring Pegs,
    Circle Scores."""

    family = "crokinole"

    surround: Literal["square", "ditch"] = "square"
    surface_diameter: float = spec(0.66, "secondary", NCA + ": 26 in playing surface")
    ditch_width: float = spec(0.05, "secondary", NCA + ": ditch at least 2 in wide")
    outer_radius: float = spec(0.305, "secondary", NCA + ": 12 in shooting / outer line")
    middle_radius: float = spec(0.203, "secondary", NCA + ": 8 in circle")
    small_radius: float = spec(0.102, "secondary", NCA + ": 4 in circle (pegs stand on it)")
    hole_diameter: float = spec(0.035, "secondary", NCA + ": centre hole 1 3/8 in")
    hole_skip_speed: float = spec(
        1.4,
        "estimate",
        "free fall of about 3 mm while the centre crosses the 3.5 cm hole: "
        "0.035 m / sqrt(2 * 0.003 m / g) = 1.4 m/s",
    )
    peg_count: int = spec(8, "secondary", NCA + ": 8 pegs on the 4 in circle")
    peg_diameter: float = spec(0.0095, "estimate", "rubber-sleeved pegs about 3/8 in")
    peg_angle_offset: float = spec(
        math.pi / 8, "estimate", "pegs at 22.5 deg + k * 45 deg: the axes stay open"
    )

    def __post_init__(self):
        if self.surround not in ("square", "ditch"):
            raise ValueError(
                f"crokinole surround must be 'square' or 'ditch', not {self.surround!r}"
            )

    @property
    def extent(self) -> float:
        if self.surround == "ditch":
            return self.surface_diameter / 2 + self.ditch_width
        return super().extent

    def peg_centres(self) -> list[tuple[float, float]]:
        step = 2 * math.pi / self.peg_count
        return [
            (
                self.small_radius * math.cos(self.peg_angle_offset + k * step),
                self.small_radius * math.sin(self.peg_angle_offset + k * step),
            )
            for k in range(self.peg_count)
        ]

    def _layout(self) -> Layout:
        posts = tuple(
            Post(x, y, self.peg_diameter / 2, f"peg.{k}")
            for k, (x, y) in enumerate(self.peg_centres())
        )
        hole = Capture(0.0, 0.0, self.hole_diameter / 2, "hole", "hole", self.hole_skip_speed)
        if self.surround == "ditch":
            return Layout(
                surface=SurfaceEdge("circle", self.surface_diameter / 2, "ditch"),
                posts=posts,
                captures=(hole,),
            )
        layout = self._square_layout(posts=posts)
        return Layout(
            surface=layout.surface,
            cushions=layout.cushions,
            posts=posts,
            captures=(hole, *layout.captures),
        )

    def _zones(self):
        zones = {
            "outer_circle": CircleZone(0.0, 0.0, self.outer_radius),
            "middle_circle": CircleZone(0.0, 0.0, self.middle_radius),
            "small_circle": CircleZone(0.0, 0.0, self.small_radius),
        }
        if self.surround == "ditch":
            zones["surface"] = CircleZone(0.0, 0.0, self.surface_diameter / 2)
        # Quadrant lines between the small and the outer circle, on the diagonals.
        for k, name in enumerate(("SE", "NE", "NW", "SW")):
            a = -math.pi / 4 + k * math.pi / 2
            c, s = math.cos(a), math.sin(a)
            zones[f"quadrant_line.{name}"] = LineZone(
                self.small_radius * c,
                self.small_radius * s,
                self.outer_radius * c,
                self.outer_radius * s,
                width=0.002,
            )
        return zones
