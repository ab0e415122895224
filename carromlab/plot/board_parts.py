"""The board drawings' small pieces (:mod:`carromlab.plot.boards`): a polygon with a round
hole, legend proxies (a disc, a painted line) and colour helpers (is it a colour, is it dark,
the outline of a face colour)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.colors import to_rgb
from matplotlib.lines import Line2D
from matplotlib.path import Path

if TYPE_CHECKING:
    from matplotlib.artist import Artist

#: A legend entry: a proxy artist and its label.
LegendEntry = tuple["Artist", str]


def holed_polygon(
    corners: list[tuple[float, float]],
    centre: tuple[float, float],
    hole_radius: float,
    n: int = 48,
) -> Path:
    """A polygon path (corners first, in order) with a round hole of ``hole_radius``."""
    outer = [(float(x), float(y)) for x, y in corners]
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(outer, outer[1:] + outer[:1]))
    if area < 0:  # outer ring counter-clockwise, so the clockwise hole is cut out
        outer = outer[::-1]
    verts = [*outer, outer[0]]
    codes = [Path.MOVETO] + [Path.LINETO] * (len(outer) - 1) + [Path.CLOSEPOLY]
    if hole_radius > 0:
        t = np.linspace(0.0, -2 * np.pi, n, endpoint=False)
        ring = np.column_stack(
            [centre[0] + hole_radius * np.cos(t), centre[1] + hole_radius * np.sin(t)]
        )
        verts += [*map(tuple, ring), tuple(ring[0])]
        codes += [Path.MOVETO] + [Path.LINETO] * (n - 1) + [Path.CLOSEPOLY]
    return Path(verts, codes)


def _disc(
    face: str, edge: str | None, size: float, marker: str = "o", ring: bool = False
) -> Line2D:
    """A legend proxy: one marker of ``face`` colour (a ring: a thick ``face`` edge round a
    light centre)."""
    if ring:
        return Line2D(
            [],
            [],
            marker=marker,
            linestyle="none",
            markersize=size,
            markerfacecolor="#f3ead5",
            markeredgecolor=face,
            markeredgewidth=size / 3.5,
        )
    return Line2D(
        [],
        [],
        marker=marker,
        linestyle="none",
        markersize=size,
        markerfacecolor=face,
        markeredgecolor=edge or _edge_for(face),
        markeredgewidth=0.6,
    )


def line_entry(color: str, label: str, width: float = 1.5, style: str = "-") -> LegendEntry:
    """A legend entry for a painted line."""
    return Line2D([], [], color=color, linewidth=width, linestyle=style), label


def _is_color(name: str) -> bool:
    try:
        to_rgb(name)
    except ValueError:
        return False
    return True


def _luminance(color: str) -> float:
    r, g, b = to_rgb(color)
    return 0.299 * r + 0.587 * g + 0.114 * b


def _is_dark(color: str) -> bool:
    return _luminance(color) < 0.45


def _edge_for(face: str) -> str:
    """A darker shade of ``face`` for its outline (mid grey around very dark pieces)."""
    if _luminance(face) < 0.15:
        return "#707070"
    r, g, b = to_rgb(face)
    return "#{:02x}{:02x}{:02x}".format(*(round(255 * 0.5 * c) for c in (r, g, b)))
