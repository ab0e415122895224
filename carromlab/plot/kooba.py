"""The KOOBA target board."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from matplotlib.patches import Polygon

from carromlab.equipment import CircleZone, PieceSpec, PolygonZone
from carromlab.plot.board_parts import LegendEntry, _disc
from carromlab.plot.boards import (
    Z_FILL,
    Z_LINE,
    Z_PIECE,
    Z_PIECE_TOP,
    BoardPlot,
)
from carromlab.plot.shotmap_parts import BEST_STAR

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from carromlab.equipment import Board
    from carromlab.plot.scale import ColourScale
    from carromlab.position import Piece

#: Drawing colour of each seat's marker, Aeros and Home.
SEAT_COLORS = {"N": "#1e88e5", "E": "#43a047", "S": "#f5f5f5", "W": "#8e24aa"}


class KoobaBoardPlot(BoardPlot):
    """Draws the black and yellow KOOBA target: the yellow Eye with its black Inner Eye; per
    seat a Home tinted in the seat's colour, a Run of 5 outlined steps numbered 1..5 (outside
    in), a solid yellow Lock, and a red corner Penalty Zone. Markers in their seat's colour,
    the KOOBA a small silver disc, Aeros as triangles with their central hole, on top of the
    other pieces."""

    family = "kooba"

    surface_color = "#151515"
    surface_edge_color = "#f2c200"
    yellow = "#f2c200"
    black = "#151515"
    penalty_color = "#b71c1c"
    piece_colors: ClassVar[dict[str, str]] = {
        **{f"marker.{seat}": c for seat, c in SEAT_COLORS.items()},
        **{f"aero.{seat}": c for seat, c in SEAT_COLORS.items()},
        "kooba": "#c9ccd1",
    }
    piece_labels: ClassVar[dict[str, str]] = {
        **{f"marker.{seat}": f"{seat}'s marker" for seat in SEAT_COLORS},
        **{f"aero.{seat}": f"{seat}'s Aeros" for seat in SEAT_COLORS},
        "kooba": "the KOOBA",
    }

    def feature_entries(self) -> list[LegendEntry]:
        """The Eye and Inner Eye, the Locks, the Penalty Zones, the Homes in their seat's
        colour and the Runs (steps 1..5, outside in)."""
        return [
            (_disc(self.yellow, self.black, 9), "Eye"),
            (_disc(self.black, self.yellow, 6), "Inner Eye"),
            (_disc(self.yellow, self.yellow, 7, marker="s"), "Locks"),
            (_disc(self.penalty_color, self.yellow, 7, marker="s"), "Penalty Zones"),
            (_disc("#888888", self.yellow, 7, marker="s"), "Homes (seat colour), Runs 1-5"),
        ]

    def zone_color(self, name: str, zone) -> str:
        kind = name.split(".")[0]
        if kind == "eye":
            return self.yellow
        if kind == "inner_eye":
            return self.black
        return super().zone_color(name, zone)

    def draw_zone(self, ax: Axes, name: str, zone) -> list:
        parts = name.split(".")
        if not isinstance(zone, PolygonZone) or parts[0] not in ("home", "run", "lock", "penalty"):
            return super().draw_zone(ax, name, zone)
        kind, seat = parts[0], parts[1]
        style = {
            "home": dict(facecolor=SEAT_COLORS.get(seat, "#555555"), alpha=0.6, zorder=Z_FILL),
            "run": dict(facecolor="none", zorder=Z_LINE),
            "lock": dict(facecolor=self.yellow, zorder=Z_FILL),
            "penalty": dict(facecolor=self.penalty_color, zorder=Z_FILL),
        }[kind]
        patch = Polygon(zone.points, closed=True, edgecolor=self.yellow, linewidth=0.8, **style)
        ax.add_patch(patch)
        out = [patch]
        if kind == "run":
            xs = [x for x, _ in zone.points]
            ys = [y for _, y in zone.points]
            out.append(
                ax.text(
                    sum(xs) / len(xs),
                    sum(ys) / len(ys),
                    parts[2],
                    ha="center",
                    va="center",
                    fontsize=6,
                    color=self.yellow,
                    zorder=Z_LINE,
                )
            )
        return out

    def draw_zones(self, ax: Axes) -> list:
        # The Inner Eye is painted over the Eye whatever the zones' order.
        zones = self.board.zones
        order = sorted(
            zones, key=lambda n: -zones[n].radius if isinstance(zones[n], CircleZone) else 0.0
        )
        out = []
        for name in order:
            out += self.draw_zone(ax, name, zones[name])
        return out

    def piece_zorder(self, piece: Piece, spec: PieceSpec) -> float:
        return Z_PIECE_TOP if spec.shape == "triangle" else Z_PIECE

    def triangle_vertices(self, piece: Piece, spec: PieceSpec, board: Board):
        return board.aero_vertices(piece.x, piece.y, piece.rotation)


#: What each column of an aim map means, in words (the tags: games/kooba/rules.py).
AIM_MEANINGS = {
    "p_eye": "P(the Aero tags the Eye)",
    "p_inner_eye": "P(the Aero tags the Inner Eye)",
    "p_kooba": "P(the Aero tags the KOOBA: touches or rings it)",
    "p_ring": "P(the Aero rings the KOOBA)",
    "p_penalty": "P(the Aero tags a Penalty Zone)",
    "p_own_run": "P(the Aero tags the thrower's own Run)",
    "p_off": "P(the Aero falls off the board)",
}


def aim_meaning(value: str) -> str:
    """An aim map's column in words: ``p_inner_eye`` -> ``P(the Aero tags the Inner Eye)``
    (another column: its readable label)."""
    from carromlab.plot.scale import value_label

    return AIM_MEANINGS.get(value, value_label(value))


def draw_aim_map(
    df,
    value: str = "p_eye",
    ax: Axes | None = None,
    board=None,
    alpha=0.8,
    scale: ColourScale | str | None = "fixed",
    title: str | None = None,
    mark_best: bool = True,
    **legacy,
):
    """The KOOBA board with an aim map (:func:`carromlab.games.kooba.maps.aim_map`) over
    it: each aim point's cell coloured by ``value`` (a probability). The colour scale is
    fixed, 0..1, by default: aim maps are drawn side by side to compare skills and distances
    (``scale="fitted"``: 0..max of the data; a :class:`~carromlab.plot.scale.ColourScale`
    sets its ends; ``vmin``/``vmax``, the earlier keywords, still do). The title names the
    value in words (:data:`AIM_MEANINGS`), the skill and ``n`` when the map's
    ``attrs["config"]`` has them (``title`` replaces it). ``mark_best`` stars the aim point
    with the highest value (``gid="best"``; the first in the table's order on a tie) and
    names it in the legend under the board with its 95 % interval and how many other aim
    points are as good (their intervals reach its lower end). Returns the QuadMesh."""
    import numpy as np

    from carromlab.equipment import KoobaBoard
    from carromlab.plot.boards import board_plot
    from carromlab.plot.scale import MapContext, scale_and_context, value_label
    from carromlab.plot.shotmap_parts import _edges

    colours, context = scale_and_context(value, scale, None, legacy, "draw_aim_map")
    board = board or KoobaBoard()
    plot = board_plot(board)
    ax = plot.draw(ax, legend=False)
    xs = np.sort(df["aim_x"].unique())
    ys = np.sort(df["aim_y"].unique())
    grid = df.pivot_table(index="aim_y", columns="aim_x", values=value).reindex(
        index=ys, columns=xs
    )
    z = np.ma.masked_invalid(grid.to_numpy(dtype=float))
    colours = colours.fit(z.compressed())
    mesh = ax.pcolormesh(
        _edges(xs),
        _edges(ys),
        z,
        norm=colours.norm,
        cmap=colours.colormap,
        shading="flat",
        alpha=alpha,
        zorder=50,
    )
    ax.figure.colorbar(mesh, ax=ax, shrink=0.8, label=value_label(value))
    if title is None:
        who = MapContext.of(df, context).who()
        title = f"{aim_meaning(value)} by aim point" + (f"\n{who}" if who else "")
    ax.set_title(title, fontsize=10)
    extra = []
    ok = df[np.isfinite(df[value].to_numpy(dtype=float))]
    if mark_best and len(ok):
        extra.append(_star_best(ax, ok, value))
    if plot.legend:
        plot.draw_legend(ax, extra=extra)
    return mesh


def _star_best(ax: Axes, df, value: str):
    """Star the aim point of ``df`` with the highest ``value``; its legend entry (the value,
    its interval, the aim points as good)."""
    best = df.loc[df[value].idxmax()]
    v = float(best[value])
    lo, hi = f"{value}_lo", f"{value}_hi"
    words = f"best aim ({best['aim_x']:+.3f}, {best['aim_y']:+.3f}) m: {v:.2f}"
    if lo in df.columns and hi in df.columns:
        words += f" (95 % {float(best[lo]):.2f} to {float(best[hi]):.2f})"
        others = int((df[hi] >= float(best[lo])).sum()) - 1
        if others > 0:
            words += f";\n{others} other aim point{'s' * (others > 1)} as good (intervals reach it)"
    (star,) = ax.plot(
        best["aim_x"],
        best["aim_y"],
        **BEST_STAR,
        zorder=60,
        gid="best",
    )
    return star, words
