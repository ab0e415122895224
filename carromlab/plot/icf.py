"""The ICF carrom board."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from matplotlib.patches import Circle

from carromlab.plot.board_parts import LegendEntry, _disc, line_entry
from carromlab.plot.boards import Z_FILL, BoardPlot

if TYPE_CHECKING:
    from matplotlib.axes import Axes


class IcfBoardPlot(BoardPlot):
    """Draws the ICF board: dark wood frame, light plywood surface, 4 corner pockets, double
    baselines, base circles with their red cores, the diagonal arrows with heads, the outer and
    centre circles. Coins white and black, the queen red, the striker pale blue."""

    family = "icf"

    frame_color = "#5a3519"
    frame_edge_color = "#2a160a"
    surface_color = "#f2deb0"
    surface_edge_color = "#3a2210"
    line_color = "#141414"
    capture_color = "#0c0c0c"
    base_core_color = "#c62828"
    arrow_head = (0.011, 0.015)
    piece_colors: ClassVar[dict[str, str]] = {
        "coin.white": "#f7f2e2",
        "coin.black": "#222222",
        "queen": "#c0262d",
        "striker": "#bfe0f5",
    }
    piece_labels: ClassVar[dict[str, str]] = {
        "coin.white": "white coins",
        "coin.black": "black coins",
        "queen": "queen",
        "striker": "striker",
    }

    def feature_entries(self) -> list[LegendEntry]:
        """Pockets, the baselines (the striker is placed between them, on or inside the base
        circles) and the base circles' red cores."""
        return [
            *super().feature_entries(),
            line_entry(self.line_color, "baselines: the striker's place", width=2.0),
            (_disc(self.base_core_color, self.line_color, 6), "base circles"),
        ]

    @property
    def circle_line_width(self) -> float:  # type: ignore[override]
        return self.board.thin_line_width

    def draw_zone(self, ax: Axes, name: str, zone) -> list:
        """Base circles: a thin black circle round a red core; other zones as usual."""
        if not name.startswith("base_circle."):
            return super().draw_zone(ax, name, zone)
        ring = self.circle_line(
            zone.cx, zone.cy, zone.radius - self.circle_line_width / 2, self.line_color
        )
        core = Circle(
            (zone.cx, zone.cy),
            self.board.base_circle_core_diameter / 2,
            facecolor=self.base_core_color,
            edgecolor="none",
            zorder=Z_FILL,
        )
        ax.add_patch(ring)
        ax.add_patch(core)
        return [ring, core]
