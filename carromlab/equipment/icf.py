"""The ICF carrom board and its pieces (ICF Laws of Carrom, 1993, section I).

Where the Laws give a range, the default is the middle of the range (tagged ``derived``) or,
for the striker, the largest size allowed (tagged ``estimate``: match strikers are made to the
limit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from carromlab.equipment._sourced import ICF_LAWS, spec
from carromlab.equipment.base import SIDES, Board, side_rotated
from carromlab.equipment.geometry import (
    CircleZone,
    Layout,
    LineZone,
    PieceSpec,
    SurfaceEdge,
    corner_pockets,
    square_cushions,
)

# ICF sides: South is the first player (the breaker of the first board).


@dataclass(frozen=True)
class IcfBoard(Board):
    """The 74 cm ICF board: 4 corner pockets, baselines, base circles, arrows, circles."""

    family = "icf"

    side: float = spec(0.74, "official", ICF_LAWS + ": playing surface 73.5-74.0 cm square")
    frame_width: float = spec(0.07, "derived", ICF_LAWS + ": frame 6.35-7.60 cm broad (middle)")
    pocket_diameter: float = spec(0.0445, "official", ICF_LAWS + ": pockets 4.45 cm (+-0.15)")
    pocket_inset: float = spec(
        0.02225, "estimate", "pocket circle tangent to both frame faces (half its diameter)"
    )
    pocket_skip_speed: float | None = spec(
        None,
        "estimate",
        "None: a coin never skips a pocket (default); about 1.5 m/s along a cushion is "
        "plausible (free fall over a 4.45 cm hole)",
    )
    baseline_length: float = spec(0.47, "official", ICF_LAWS + ": baselines 47 cm (+-0.30)")
    baseline_offset: float = spec(
        0.1015, "official", ICF_LAWS + ": outer baseline 10.15 cm from the frame"
    )
    baseline_gap: float = spec(
        0.0318, "official", ICF_LAWS + ": second baseline 3.18 cm beyond the outer one"
    )
    baseline_width: float = spec(
        0.006, "derived", ICF_LAWS + ": thick baseline 0.50-0.65 cm (rounded middle)"
    )
    thin_line_width: float = spec(0.001, "estimate", "width of the thin painted lines")
    base_circle_diameter: float = spec(
        0.0318, "official", ICF_LAWS + ": base circles 3.18 cm diameter"
    )
    base_circle_core_diameter: float = spec(
        0.0254, "official", ICF_LAWS + ": red core of the base circles 2.54 cm"
    )
    base_circle_from_side: float = spec(
        0.1492, "derived", "base circle centre 14.92 cm from the adjacent frame"
    )
    arrow_clearance: float = spec(
        0.05, "official", ICF_LAWS + ": arrows stop 5.00 cm clear of the pocket edge"
    )
    arrow_length: float = spec(0.257, "official", ICF_LAWS + ": arrows at most 25.70 cm long")
    centre_circle_diameter: float = spec(0.0318, "official", ICF_LAWS + ": centre circle 3.18 cm")
    outer_circle_diameter: float = spec(0.17, "official", ICF_LAWS + ": outer circle 17.00 cm")
    coin_diameter: float = spec(0.0310, "derived", ICF_LAWS + ": carrommen 3.02-3.18 cm (middle)")
    coin_mass: float = spec(0.00525, "derived", ICF_LAWS + ": carrommen 5.00-5.50 g (middle)")
    striker_diameter: float = spec(
        0.0413, "estimate", ICF_LAWS + ": striker at most 4.13 cm; made to the limit"
    )
    striker_mass: float = spec(
        0.015, "estimate", ICF_LAWS + ": striker at most 15.00 g; made to the limit"
    )

    # ----------------------------------------------------------------- derived geometry
    @property
    def half(self) -> float:
        """Half the side of the playing surface (distance from centre to a frame face)."""
        return self.side / 2

    @property
    def extent(self) -> float:
        return self.half + self.frame_width

    def baseline_y(self) -> tuple[float, float]:
        """South's two baselines: (outer line y, inner line y), derived."""
        outer = -self.half + self.baseline_offset
        return outer, outer + self.baseline_gap

    def base_circle_centres(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """South's base circles (left, right): midway between the baselines, derived."""
        y = sum(self.baseline_y()) / 2
        x = self.half - self.base_circle_from_side
        return (-x, y), (x, y)

    def _layout(self) -> Layout:
        return Layout(
            surface=SurfaceEdge("square", self.half, "cushion"),
            cushions=square_cushions(self.half),
            captures=corner_pockets(
                self.half,
                self.pocket_diameter / 2,
                self.pocket_inset,
                math.inf if self.pocket_skip_speed is None else self.pocket_skip_speed,
            ),
        )

    def _zones(self):
        zones = {
            "outer_circle": CircleZone(0.0, 0.0, self.outer_circle_diameter / 2),
            "centre_circle": CircleZone(0.0, 0.0, self.centre_circle_diameter / 2),
        }
        y_out, y_in = self.baseline_y()
        xl = self.baseline_length / 2
        (cxl, cy), (cxr, _) = self.base_circle_centres()
        r_base = self.base_circle_diameter / 2
        for side in SIDES:
            for name, y, w in (
                ("outer", y_out, self.baseline_width),
                ("inner", y_in, self.thin_line_width),
            ):
                a = side_rotated(side, -xl, y)
                b = side_rotated(side, xl, y)
                zones[f"baseline.{side}.{name}"] = LineZone(*a, *b, width=w)
            for name, cx in (("left", cxl), ("right", cxr)):
                zones[f"base_circle.{side}.{name}"] = CircleZone(
                    *side_rotated(side, cx, cy), r_base, filled=True
                )
        # Arrows: along each diagonal, head 5.00 cm clear of the pocket edge.
        c = self.half - self.pocket_inset
        head = self.pocket_diameter / 2 + self.arrow_clearance
        for pocket, (sx, sy) in {
            "SW": (-1, -1),
            "SE": (1, -1),
            "NE": (1, 1),
            "NW": (-1, 1),
        }.items():
            ux, uy = -sx / math.sqrt(2), -sy / math.sqrt(2)  # from the pocket towards the centre
            hx, hy = sx * c + ux * head, sy * c + uy * head
            tx, ty = hx + ux * self.arrow_length, hy + uy * self.arrow_length
            zones[f"arrow.{pocket}"] = LineZone(
                tx, ty, hx, hy, width=self.thin_line_width, arrow=True
            )
        return zones

    def piece_specs(self) -> dict[str, PieceSpec]:
        coin = PieceSpec(self.coin_diameter / 2, self.coin_mass, "coin")
        return {
            "coin": coin,
            "queen": coin,
            "striker": PieceSpec(self.striker_diameter / 2, self.striker_mass, "striker"),
        }
