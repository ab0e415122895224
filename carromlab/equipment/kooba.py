"""The KOOBA magnetic target board, its markers, the KOOBA and the Aero.

The quadrant layout (North, East, South, West; each with a Home, a Run of 5 steps numbered
outside in, a Lock and a Penalty Zone; a central Eye, Inner Eye and KOOBA) is the game's
[official]; no sizes are published, so every size and the placement of the zones inside a
quadrant are estimates, all fields you can change.

Placement (estimate): each run lies on its quadrant's axis, from Home at the board's edge
inwards: Home, steps 1..5, Lock, then the Eye. Each quadrant's Penalty Zone is the square in
the corner clockwise from its axis (North's is the North-East corner).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from carromlab.equipment._sourced import spec
from carromlab.equipment.base import Board
from carromlab.equipment.geometry import (
    CircleZone,
    Layout,
    PieceSpec,
    PolygonZone,
    SurfaceEdge,
    rotate,
)

#: Seats clockwise from North (seed 003: player 1 starts in the North run).
SEATS = ("N", "E", "S", "W")
#: Angle of each seat's axis.
SEAT_ANGLE = {"N": math.pi / 2, "E": 0.0, "S": -math.pi / 2, "W": math.pi}

EST = "KOOBA estimate (sizes not published)"
SEC = "KOOBA product pages"


@dataclass(frozen=True)
class KoobaBoard(Board):
    """KOOBA's square magnetic target board."""

    family = "kooba"

    side: float = spec(0.58, "secondary", SEC + ": target board about 58 cm square")
    eye_radius: float = spec(0.12, "estimate", EST + ": Eye radius about 12 cm")
    inner_eye_radius: float = spec(0.05, "estimate", EST + ": Inner Eye radius about 5 cm")
    kooba_radius: float = spec(
        0.01,
        "estimate",
        EST + ": KOOBA about 2.5 cm; 2 cm across taken so that it fits the Aero's 2.5 cm hole, "
        "as the rules' ringing clause requires",
    )
    run_width: float = spec(0.06, "estimate", "width of a run's step spaces")
    step_depth: float = spec(0.022, "estimate", "depth of one step space (and of the Lock)")
    lock_gap: float = spec(0.005, "estimate", "gap between the Eye and the Lock")
    penalty_side: float = spec(0.08, "estimate", "side of the corner Penalty Zone squares")
    marker_diameter: float = spec(0.03, "estimate", "magnetic marker 3 cm")
    marker_mass: float = spec(0.01, "estimate", "magnetic marker 10 g")
    kooba_mass: float = spec(0.02, "estimate", "the KOOBA 20 g")
    aero_side: float = spec(0.075, "estimate", EST + ": Aero an equilateral triangle of 7.5 cm")
    aero_hole_diameter: float = spec(0.025, "estimate", EST + ": Aero hole 2.5 cm")
    aero_mass: float = spec(0.025, "estimate", EST + ": Aero about 25 g")
    stick_length: float = spec(0.56, "secondary", SEC + ": sticks about 56 cm")
    throw_sticks: int = spec(4, "official", "seed 003: shots from 4 stick lengths")
    pro_throw_sticks: int = spec(5, "official", "seed 003 (Pro mod): shots from 5 stick lengths")

    @property
    def half(self) -> float:
        return self.side / 2

    @property
    def extent(self) -> float:
        return self.half

    @property
    def throw_distance(self) -> float:
        """Derived: 4 stick lengths (about 2.24 m)."""
        return self.throw_sticks * self.stick_length

    def _radial_box(self, seat: str, r0: float, r1: float) -> PolygonZone:
        """A box on ``seat``'s axis from distance r0 to r1 from the centre, run_width wide."""
        w = self.run_width / 2
        pts = [(-w, r0), (w, r0), (w, r1), (-w, r1)]  # on the North axis (+y)
        a = SEAT_ANGLE[seat] - math.pi / 2
        return PolygonZone(tuple(rotate(x, y, a) for x, y in pts))

    def lock_span(self) -> tuple[float, float]:
        r0 = self.eye_radius + self.lock_gap
        return r0, r0 + self.step_depth

    def step_span(self, step: int) -> tuple[float, float]:
        """Radial span of step 1..5 (1 outermost)."""
        inner = self.lock_span()[1]
        r1 = inner + (6 - step) * self.step_depth
        return r1 - self.step_depth, r1

    def home_span(self) -> tuple[float, float]:
        return self.step_span(1)[1], self.half

    def home_centre(self, seat: str) -> tuple[float, float]:
        r = sum(self.home_span()) / 2
        return rotate(0.0, r, SEAT_ANGLE[seat] - math.pi / 2)

    def _layout(self) -> Layout:
        return Layout(surface=SurfaceEdge("square", self.half, "open"))

    def _zones(self):
        zones = {
            "eye": CircleZone(0.0, 0.0, self.eye_radius, filled=True),
            "inner_eye": CircleZone(0.0, 0.0, self.inner_eye_radius, filled=True),
        }
        h, p = self.half, self.penalty_side
        for seat in SEATS:
            zones[f"home.{seat}"] = self._radial_box(seat, *self.home_span())
            for step in range(1, 6):
                zones[f"run.{seat}.{step}"] = self._radial_box(seat, *self.step_span(step))
            zones[f"lock.{seat}"] = self._radial_box(seat, *self.lock_span())
            # The corner clockwise from the seat's axis: N -> NE, E -> SE, S -> SW, W -> NW.
            cx, cy = rotate(h, h, SEAT_ANGLE[seat] - math.pi / 2)
            sx, sy = math.copysign(p, cx), math.copysign(p, cy)
            corner = ((cx, cy), (cx - sx, cy), (cx - sx, cy - sy), (cx, cy - sy))
            zones[f"penalty.{seat}"] = PolygonZone(corner)
        return zones

    def piece_specs(self) -> dict[str, PieceSpec]:
        return {
            "aero": PieceSpec(
                self.aero_side / math.sqrt(3),
                self.aero_mass,
                "aero",
                shape="triangle",
                hole_radius=self.aero_hole_diameter / 2,
            ),
            "marker": PieceSpec(self.marker_diameter / 2, self.marker_mass, "marker"),
            "kooba": PieceSpec(self.kooba_radius, self.kooba_mass, "kooba"),
        }

    def aero_vertices(self, x: float, y: float, rotation: float) -> list[tuple[float, float]]:
        """The Aero's three corners; at rotation 0 one corner points along +x."""
        rc = self.aero_side / math.sqrt(3)
        return [
            (
                x + rc * math.cos(rotation + k * 2 * math.pi / 3),
                y + rc * math.sin(rotation + k * 2 * math.pi / 3),
            )
            for k in range(3)
        ]
