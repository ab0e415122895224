"""The Carrom Company board: its checker side and its crokinole side."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from matplotlib.patches import Circle, Rectangle

from carromlab.equipment import PolygonZone
from carromlab.plot.board_parts import LegendEntry, _disc, line_entry
from carromlab.plot.boards import Z_FILL, Z_FRAME, BoardPlot

if TYPE_CHECKING:
    from matplotlib.axes import Axes


class _CompanyPlot(BoardPlot):
    """Colours shared by both sides: wood frame, rings with a hole."""

    frame_color = "#3e2a18"
    frame_edge_color = "#1f140a"
    surface_color = "#eed6a3"
    surface_edge_color = "#2a1c0f"
    piece_colors: ClassVar[dict[str, str]] = {
        "ring.red": "#c62828",
        "ring.green": "#2e7d32",
        "ring": "#2e7d32",  # the neutral rings of Ring Pegs and Circle Scores are green
        "black": "#151515",
        "shooter.red": "#ef7b7b",
        "shooter.green": "#86c98a",
        "shooter.p1": "#1e88e5",
        "shooter.p2": "#fb8c00",
        "shooter": "#f5f1e6",
    }
    piece_labels: ClassVar[dict[str, str]] = {
        "ring.red": "red's rings",
        "ring.green": "green's rings",
        "ring": "rings (nobody's)",
        "black": "the black ring",
        "shooter.red": "red's shooting ring",
        "shooter.green": "green's shooting ring",
        "shooter.p1": "player 1's shooting ring",
        "shooter.p2": "player 2's shooting ring",
        "shooter": "shooting ring",
    }


class CheckerBoardPlot(_CompanyPlot):
    """Draws the checker side: frame, 4 corner pockets, the 8 x 8 red and black checkerboard,
    the centre circle, and each side's shooting line with its two circles. Rings red and
    green with their holes, the black ring black, shooters in a lighter shade."""

    family = "checker"

    checker_colors = ("#1b1b1b", "#8a1c21")
    centre_circle_color = "#f4ead2"

    def feature_entries(self) -> list[LegendEntry]:
        """Pockets, and the shooting lines (a shot starts on its player's line)."""
        return [
            *super().feature_entries(),
            line_entry(self.line_color, "shooting lines: a shot starts here", width=1.5),
        ]

    def draw_zone(self, ax: Axes, name: str, zone) -> list:
        if name == "checkerboard" and isinstance(zone, PolygonZone):
            return self.draw_checkerboard(ax, zone)
        return super().draw_zone(ax, name, zone)

    def zone_color(self, name: str, zone) -> str:
        if name == "centre_circle":  # painted over the checkerboard
            return self.centre_circle_color
        return super().zone_color(name, zone)

    def draw_checkerboard(self, ax: Axes, zone: PolygonZone, n: int = 8) -> list:
        """An ``n`` x ``n`` checkerboard filling the zone's bounding square (dark corner at
        the bottom left)."""
        xs = [x for x, _ in zone.points]
        ys = [y for _, y in zone.points]
        x0, y0 = min(xs), min(ys)
        w, h = (max(xs) - x0) / n, (max(ys) - y0) / n
        out = []
        for i in range(n):
            for j in range(n):
                patch = Rectangle(
                    (x0 + i * w, y0 + j * h),
                    w,
                    h,
                    facecolor=self.checker_colors[(i + j) % 2],
                    linewidth=0,
                    zorder=Z_FILL,
                )
                ax.add_patch(patch)
                out.append(patch)
        return out


class CrokinoleBoardPlot(_CompanyPlot):
    """Draws the crokinole side: the scoring circles, the quadrant lines, the centre hole and
    the 8 pegs; on the square surround the frame and corner pockets, on the ditch surround the
    66 cm round surface and the dark ditch ring around it. Rings red and green with their
    holes (a ring over a peg shows the peg)."""

    family = "crokinole"

    surface_color = "#f1dcab"
    ditch_color = "#3a2616"
    post_color = "#202020"

    def feature_entries(self) -> list[LegendEntry]:
        """The centre hole, the pegs, the scoring circles, and the pockets or the ditch."""
        out = super().feature_entries()
        out.append(line_entry(self.line_color, "scoring circles (the outer one: the circle)", 1.0))
        if getattr(self.board, "surround", "square") == "ditch":
            out.append((_disc(self.ditch_color, self.frame_edge_color, 9, marker="s"), "ditch"))
        return out

    def draw_frame(self, ax: Axes) -> list:
        out = super().draw_frame(ax)
        if getattr(self.board, "surround", "square") == "ditch":
            rim = Circle(
                (0.0, 0.0),
                self.board.extent,
                fill=False,
                edgecolor=self.frame_color,
                linewidth=1.5,
                zorder=Z_FRAME,
            )
            ax.add_patch(rim)
            out.append(rim)
        return out
