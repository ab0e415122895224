"""The Carrooka board: circular, on a turntable, 6 rim pockets, break line, colour spots, margin
line. No dimensions are published; every size here is an estimate and a field
you can change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from carromlab.equipment._sourced import spec
from carromlab.equipment.base import Board
from carromlab.equipment.geometry import (
    Capture,
    CircleRail,
    CircleZone,
    Layout,
    PieceSpec,
    SurfaceEdge,
)

#: The colours in value order (seed 000): yellow 2 ... black 7.
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
COLOUR_VALUES = {"red": 1, "yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}

EST = "Carrooka estimate (no published dimensions)"


@dataclass(frozen=True)
class CarrookaBoard(Board):
    """Circular Carrooka board. Pockets sit against the rail (tangent to it)."""

    family = "carrooka"

    diameter: float = spec(0.80, "estimate", EST + ": playing diameter 80 cm")
    rail_width: float = spec(0.04, "estimate", EST + ": rail width (drawing only)")
    pocket_count: int = spec(6, "secondary", "reviews: 6 pockets around the rim")
    pocket_diameter: float = spec(0.05, "estimate", EST + ": pockets 5.0 cm")
    pocket_angle: float = spec(
        math.pi / 2, "estimate", "first pocket at 90 deg, the others every 360/count deg"
    )
    break_radius: float = spec(0.12, "estimate", EST + ": break line about 12 cm")
    spot_radius: float = spec(0.20, "estimate", EST + ": colour spots at half the radius")
    spot_angle: float = spec(
        0.0, "estimate", "yellow's spot at 0 deg; the others every 60 deg counter-clockwise"
    )
    spot_diameter: float = spec(0.036, "estimate", "painted spot a little larger than a puck")
    margin_offset: float = spec(0.04, "estimate", EST + ": margin line 4 cm inside the rail")
    puck_diameter: float = spec(0.032, "estimate", EST + ": pucks as carrom coins (3.2 cm)")
    puck_mass: float = spec(0.0055, "estimate", EST + ": pucks 5.5 g")
    striker_diameter: float = spec(0.041, "estimate", EST + ": larger striker 4.1 cm")
    striker_mass: float = spec(0.015, "estimate", EST + ": striker 15 g")

    @property
    def radius(self) -> float:
        return self.diameter / 2

    @property
    def extent(self) -> float:
        return self.radius + self.rail_width

    @property
    def margin_radius(self) -> float:
        return self.radius - self.margin_offset

    def pocket_centres(self) -> list[tuple[float, float]]:
        rc = self.radius - self.pocket_diameter / 2
        step = 2 * math.pi / self.pocket_count
        return [
            (
                rc * math.cos(self.pocket_angle + k * step),
                rc * math.sin(self.pocket_angle + k * step),
            )
            for k in range(self.pocket_count)
        ]

    def spots(self) -> dict[str, tuple[float, float]]:
        """Colour spots, in value order around the spot ring."""
        out = {}
        for k, colour in enumerate(COLOURS):
            a = self.spot_angle + k * math.pi / 3
            out[colour] = (self.spot_radius * math.cos(a), self.spot_radius * math.sin(a))
        return out

    def _layout(self) -> Layout:
        return Layout(
            surface=SurfaceEdge("circle", self.radius, "cushion"),
            rails=(CircleRail(0.0, 0.0, self.radius, "rail"),),
            captures=tuple(
                Capture(x, y, self.pocket_diameter / 2, "pocket", f"pocket.{k}")
                for k, (x, y) in enumerate(self.pocket_centres())
            ),
        )

    def _zones(self):
        zones = {
            "break_line": CircleZone(0.0, 0.0, self.break_radius),
            "margin_line": CircleZone(0.0, 0.0, self.margin_radius),
        }
        for colour, (x, y) in self.spots().items():
            zones[f"spot.{colour}"] = CircleZone(x, y, self.spot_diameter / 2, filled=True)
        return zones

    def piece_specs(self) -> dict[str, PieceSpec]:
        puck = PieceSpec(self.puck_diameter / 2, self.puck_mass, "puck")
        specs = {"red": puck}
        specs.update({c: puck for c in COLOURS})
        specs["striker"] = PieceSpec(self.striker_diameter / 2, self.striker_mass, "striker")
        return specs
