"""Drawing shot maps: heat maps over the shot grid, aim fans on the board, target maps,
best shots' aims and one shot's chances on the board.

A *shot map* is a tidy :class:`pandas.DataFrame`, one row per grid cell, with the grid columns
``placement`` (m, the striker's x on the South baseline), ``angle`` (degrees, counter-clockwise
from +x) and ``speed`` (m/s), the number of shots ``n`` in the cell, and value columns such as
``p_continue``, ``p_continue_lo``, ``p_continue_hi``, ``p_foul``, ``points``, ``points_lo``,
``points_hi``. The statistics are computed elsewhere; this module only draws them.

Every drawing takes two small objects instead of a list of keywords: ``scale``, a
:class:`~carromlab.plot.scale.ColourScale` (fitted to the data by default; ``"fixed"`` for
comparing maps; a fitted scale shared by two panels draws both on one range), and
``context``, a :class:`~carromlab.plot.scale.MapContext` (the position, variant, skill and
``n`` for the title, taken from the map's ``attrs["config"]`` where not given). The keywords
of the earlier signatures (``norm``, ``cmap``, ``vmin``, ``vmax``, ``skill``, ``n``) still work
and fill those objects' fields.

Each figure says what it shows: its title names the position, the value and what it means
(for points, the scoring of the position's variant), the skill and the shots per cell
``n``. The best cell is starred, with its 95 % interval in the legend; a best cell on the
grid's edge is flagged under the map, beside the star's entry (never over the star or the
cells), and with a :class:`BestOnEdgeWarning` (the best shot may lie outside the grid).

The drawings on the board are also the methods of
:class:`~carromlab.plot.position_plot.PositionPlot` (``shotmap``, ``aims``, ``targets``,
``chances``, ``paths``). Every function takes ``ax=`` (a new figure when None) and returns
what it drew; nothing here calls ``plt.show()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.patches import Patch

from carromlab.plot.scale import (
    POINTS_LIMIT,
    POINTS_NOTES,
    PROB_CMAP,
    SCALES,
    SIGNED_CMAP,
    VALUE_MEANINGS,
    ColourScale,
    MapContext,
    colour_label,
    default_cmap,
    default_norm,
    scale_and_context,
    value_kind,
    value_label,
    value_meaning,
)
from carromlab.plot.shotmap_board import (
    draw_aims,
    draw_chances,
    draw_shotmap_on_board,
    draw_target_map,
)
from carromlab.plot.shotmap_parts import (
    _AXIS_LABELS,
    BEST_STAR,
    BLANK_COLOR,
    WARNING_COLOR,
    BestOnEdgeWarning,
    _coord,
    _edges,
    _fmt,
    _interval,
    _noise,
    _title,
    _wrap,
    best_cell,
    edge_of_grid,
    shotmap_grid,
    warn_edge,
)

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.collections import QuadMesh
    from matplotlib.colors import Normalize
    from matplotlib.lines import Line2D


#: The colour scale's names, kept here for the callers that import them from this module.
__all__ = [
    "POINTS_LIMIT",
    "POINTS_NOTES",
    "PROB_CMAP",
    "SCALES",
    "SIGNED_CMAP",
    "VALUE_MEANINGS",
    "BestOnEdgeWarning",
    "ColourScale",
    "MapContext",
    "best_cell",
    "default_cmap",
    "default_norm",
    "draw_aims",
    "draw_chances",
    "draw_shotmap",
    "draw_shotmap_on_board",
    "draw_target_map",
    "edge_of_grid",
    "shotmap_grid",
    "value_kind",
    "value_label",
    "value_meaning",
    "warn_edge",
]


def draw_shotmap(
    df: pd.DataFrame,
    value: str = "p_continue",
    x: str = "placement",
    y: str = "angle",
    ax: Axes | None = None,
    *,
    scale: ColourScale | Normalize | str | None = None,
    context: MapContext | None = None,
    min_n: int = 1,
    colorbar: bool = True,
    mark_best: bool = True,
    title: str | None = None,
    warn_edge_cell: bool = True,
    **legacy,
) -> QuadMesh:
    """Heat map of ``value`` over two grid columns (any two of placement, angle, speed).

    One cell per grid point (``pcolormesh`` with edges half-way between the cell centres, so
    uneven grids draw right); cells with ``n < min_n`` (or NaN) are masked and show grey.
    ``scale``: a :class:`ColourScale` (default: fitted to the data, probabilities 0..max,
    points symmetric about 0), ``"fixed"`` (probabilities 0..1, points ±3: compares maps), or
    a matplotlib ``Normalize``; the colour map defaults to viridis, or the diverging RdBu for
    points-like values.

    The title (``title`` replaces it) names the position, what the value means, the skill,
    ``n`` (the shots per cell) and the speed when the map has one; ``context``
    (:class:`MapContext`) gives what the map's ``attrs["config"]`` does not. ``mark_best``
    stars the highest unmasked cell (``gid="best"``) and names it with its 95 % interval in
    the legend below the axes, with the typical interval of a cell (how much of the speckle
    is chance); when that cell lies on the grid's edge (``warn_edge_cell``) the legend says so
    in red under the star's entry (``gid="edge-warning"``), and a :class:`BestOnEdgeWarning`
    is raised. ``legacy``: the earlier keywords (``norm``, ``cmap``, ``vmin``, ``vmax``,
    ``skill``, ``n``). Returns the QuadMesh; its array is the masked [Y, X] grid.
    """
    scale, context = scale_and_context(value, scale, context, legacy, "draw_shotmap")
    xs, ys, z = shotmap_grid(df, value, x, y, min_n)
    scale = scale.fit(z.compressed())
    norm, cmap = scale.norm, scale.colormap
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6.4, 5.6))
    ax.set_facecolor(BLANK_COLOR)
    mesh = ax.pcolormesh(_edges(xs), _edges(ys), z, norm=norm, cmap=cmap, shading="flat")
    ax.set_xlabel(_AXIS_LABELS.get(x, x))
    ax.set_ylabel(_AXIS_LABELS.get(y, y))
    ctx = MapContext.of(df, context)
    speeds = df["speed"].unique() if "speed" in df.columns and "speed" not in (x, y) else []
    speed = float(speeds[0]) if len(speeds) == 1 else None
    first = value_meaning(value)
    if ctx.position:
        first = f"{ctx.position}: {first}"
    note = ctx.points_note(value)
    ax.set_title(title if title is not None else _title(first, ctx.who(speed), note), fontsize=10)
    if colorbar:
        extend = scale.extend(z.compressed())
        ax.figure.colorbar(mesh, ax=ax, label=colour_label(value), extend=extend)
    entries: list = []
    if mark_best and z.count():
        star, edges = _star_best(ax, df, value, xs, ys, z, x, y, min_n)
        entries.append(star)
        if edges and warn_edge_cell:
            # under the map, beside the star's entry: a box on the map hid the star or cells
            text = warn_edge(ax, edges, on_axes=False)
            entries.append(Patch(facecolor="none", edgecolor="none", label=_wrap(text)))
    noise = _noise(df[df["n"] >= min_n] if "n" in df.columns else df, value)
    if noise is not None:
        entries.append(
            Patch(
                facecolor="none",
                edgecolor="none",
                label=f"cells near the best: 95 % intervals about ±{_fmt(noise)} (noise)",
            )
        )
    if np.ma.getmaskarray(z).any():
        entries.append(Patch(facecolor=BLANK_COLOR, label="grey: no legal shot (or too few)"))
    if entries:
        _legend_below(ax, entries)
    return mesh


def _star_best(
    ax: Axes, df: pd.DataFrame, value: str, xs, ys, z, x: str, y: str, min_n: int
) -> tuple[Line2D, list]:
    """The best cell starred (``gid="best"``, labelled with its value, 95 % interval and
    where it is) and the grid edges it lies on (:func:`edge_of_grid`)."""
    row = best_cell(df, value, min_n)
    ix = int(np.searchsorted(xs, float(row[x])))
    iy = int(np.searchsorted(ys, float(row[y])))
    circle = "x0" in df.columns
    where = f"{_coord(x, xs[ix], circle)}, {_coord(y, ys[iy], circle)}"
    (star,) = ax.plot(
        xs[ix],
        ys[iy],
        **BEST_STAR,
        gid="best",
        label=f"best: {_fmt(float(z[iy, ix]))}{_interval(row, value)} at {where}",
    )
    return star, edge_of_grid(xs, ys, ix, iy, x, y)


def _legend_below(ax: Axes, entries: list) -> None:
    """The heat map's legend under the axes; a grid-edge warning's entry in red."""
    legend = ax.legend(
        handles=entries,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.11),
        fontsize=8,
        frameon=False,
        handlelength=1.2,
    )
    for t in legend.get_texts():
        if t.get_text().startswith("⚠"):
            t.set_color(WARNING_COLOR)
            t.set_gid("edge-warning")
