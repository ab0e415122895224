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

import math
import textwrap
import warnings
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch

from carromlab.plot.boards import Z_LABEL, Z_PIECE, board_plot, draw_position
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

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.collections import QuadMesh
    from matplotlib.colors import Normalize

    from carromlab.plot.boards import BoardPlot
    from carromlab.position import Position

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

#: Colour of cells without a value (no legal placement, too few shots).
BLANK_COLOR = "#cfcfcf"
#: Colour of the warning written on a figure.
WARNING_COLOR = "#b71c1c"
#: A target map writes the chance on its likeliest lines, this many.
LABELLED = 6
#: Drawing order on the board: aim lines and target lines under the pieces, over the lines.
Z_RAYS = Z_PIECE - 1.0

_AXIS_LABELS = {
    "placement": "striker placement x (m)",
    "angle": "aim angle (° from +x)",
    "speed": "speed (m/s)",
    "n": "shots in cell",
}


class BestOnEdgeWarning(UserWarning):
    """The best cell of a shot map lies on the edge of its grid: the best shot may lie
    outside the grid (widen it that way)."""


#: Title lines are wrapped at this many characters (a panel of a two-panel figure).
TITLE_WIDTH = 64


def _title(first: str, *lines: str, width: int = TITLE_WIDTH) -> str:
    """Title lines, each wrapped at ``width`` characters; empty lines left out."""
    return "\n".join(
        textwrap.fill(line, width, break_on_hyphens=False) for line in (first, *lines) if line
    )


def _fmt(value: float) -> str:
    return f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}"


def _coord(col: str, v: float, circle: bool = False) -> str:
    """One grid coordinate in words: ``x = -0.050 m``, ``aim 65.9°``, ``2 m/s``."""
    if col == "placement":
        return f"placement {v:.4g}°" if circle else f"x = {v:+.3f} m"
    if col == "angle":
        return f"aim {v:.4g}°"
    if col == "speed":
        return f"{v:.3g} m/s"
    return f"{col} = {v:.4g}"


def _interval(row, value: str) -> str:
    lo, hi = f"{value}_lo", f"{value}_hi"
    if row is None or lo not in row or hi not in row:
        return ""
    a, b = float(row[lo]), float(row[hi])
    if not (math.isfinite(a) and math.isfinite(b)):
        return ""
    return f" (95 % {_fmt(a)} to {_fmt(b)})"


def _noise(df: pd.DataFrame, value: str) -> float | None:
    """How uncertain the cells near the best are: the median half-width of the 95 % intervals
    of the best tenth of the cells (at least 3). Two such cells closer than about this may
    differ by chance alone. None without interval columns."""
    lo, hi = f"{value}_lo", f"{value}_hi"
    if lo not in df.columns or hi not in df.columns:
        return None
    v = df[value].to_numpy(dtype=float)
    half = (df[hi].to_numpy(dtype=float) - df[lo].to_numpy(dtype=float)) / 2
    ok = np.isfinite(v) & np.isfinite(half)
    if not ok.any():
        return None
    v, half = v[ok], half[ok]
    top = np.argsort(-v, kind="stable")[: max(3, v.size // 10)]
    return float(np.median(half[top]))


def _periodic(col: str, centres: np.ndarray) -> bool:
    """An angle axis that goes all the way round has no edge."""
    if col != "angle" or centres.size < 2:
        return False
    step = float(np.min(np.diff(centres)))
    return float(centres[-1] - centres[0]) + step >= 360.0 - 1e-6


def edge_of_grid(xs: np.ndarray, ys: np.ndarray, ix: int, iy: int, x: str, y: str) -> list:
    """The grid edges the cell (``ix``, ``iy``) lies on: ``(column, value, "lowest" |
    "highest")`` for each axis with more than one value where the cell is first or last."""
    out = []
    for col, centres, k in ((x, xs, ix), (y, ys, iy)):
        if centres.size < 2 or _periodic(col, centres):
            continue
        if k == 0:
            out.append((col, float(centres[0]), "lowest"))
        elif k == centres.size - 1:
            out.append((col, float(centres[-1]), "highest"))
    return out


def warn_edge(
    ax: Axes, edges: list, what: str = "best cell", on_axes: bool = True, avoid=None
) -> str:
    """Raise a :class:`BestOnEdgeWarning` (the best cell lies on the grid's edge) and return
    its text. ``on_axes``: also write it on ``ax`` (``gid="edge-warning"``) in a box at the
    top, or at the bottom when ``avoid`` (a point in data coordinates: the best cell's
    star) lies in the upper half, so that the box never hides it. (:func:`draw_shotmap`
    writes it under the map instead, in the legend beside the star's entry.)"""
    where = "; ".join(f"{col} = {v:g}, the {side} of the grid" for col, v, side in edges)
    text = f"⚠ {what} on the grid's edge ({where}): the best shot may lie outside; widen the grid"
    warnings.warn(text[2:], BestOnEdgeWarning, stacklevel=3)
    if not on_axes:
        return text
    top = True
    if avoid is not None:
        ax.get_xlim(), ax.get_ylim()  # the limits brought up to date
        to_axes = ax.transData + ax.transAxes.inverted()
        top = float(to_axes.transform(avoid)[1]) <= 0.5
    ax.text(
        0.5,
        0.985 if top else 0.015,
        text.replace(": the best", ":\nthe best"),
        transform=ax.transAxes,
        ha="center",
        va="top" if top else "bottom",
        fontsize=7.5,
        color=WARNING_COLOR,
        zorder=Z_LABEL + 5,
        gid="edge-warning",
        bbox=dict(boxstyle="round,pad=0.3", facecolor="white", edgecolor=WARNING_COLOR, alpha=0.9),
    )
    return text


# ---------------------------------------------------------------------- the heat map


def _edges(centres: np.ndarray) -> np.ndarray:
    """Cell edges around sorted cell centres: midpoints, the ends half a step out."""
    c = np.asarray(centres, dtype=float)
    if c.size == 1:
        half = 0.05 * abs(c[0]) or 0.5
        return np.array([c[0] - half, c[0] + half])
    mid = (c[1:] + c[:-1]) / 2
    return np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])


def shotmap_grid(
    df: pd.DataFrame, value: str, x: str = "placement", y: str = "angle", min_n: int = 1
) -> tuple[np.ndarray, np.ndarray, np.ma.MaskedArray]:
    """The shot map as a grid: sorted centres ``xs`` [X], ``ys`` [Y] and the masked values
    [Y, X]. Masked: cells missing from ``df``, with ``n < min_n`` or a NaN value.

    Raises ValueError when several rows share one (x, y) cell (select one value of the third
    grid column first, e.g. ``df[df.speed == 2.0]``)."""
    for col in (x, y, value):
        if col not in df.columns:
            raise ValueError(f"shot map has no column {col!r}; columns: {list(df.columns)}")
    if df.duplicated([x, y]).any():
        others = [c for c in ("placement", "angle", "speed") if c in df.columns and c not in (x, y)]
        hint = f" (several values of {', '.join(others)}: select one first)" if others else ""
        raise ValueError(f"shot map has several rows per ({x}, {y}) cell{hint}")
    xs = np.sort(df[x].unique().astype(float))
    ys = np.sort(df[y].unique().astype(float))
    ix = np.searchsorted(xs, df[x].to_numpy(dtype=float))
    iy = np.searchsorted(ys, df[y].to_numpy(dtype=float))
    z = np.full((ys.size, xs.size), np.nan)
    z[iy, ix] = df[value].to_numpy(dtype=float)
    mask = ~np.isfinite(z)
    if "n" in df.columns:
        n = np.zeros((ys.size, xs.size))
        n[iy, ix] = df["n"].to_numpy(dtype=float)
        mask |= n < min_n
    return xs, ys, np.ma.masked_array(z, mask=mask)


def best_cell(df: pd.DataFrame, value: str, min_n: int = 1) -> pd.Series | None:
    """The row with the highest ``value`` among cells with ``n >= min_n`` (None if none)."""
    ok = np.isfinite(df[value].to_numpy(dtype=float))
    if "n" in df.columns:
        ok &= df["n"].to_numpy() >= min_n
    if not ok.any():
        return None
    return df.loc[df[value].where(ok).idxmax()]


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
    is raised. ``legacy``: the earlier keywords (``norm``,
    ``cmap``, ``vmin``, ``vmax``, ``skill``, ``n``). Returns the QuadMesh; its array is the
    masked [Y, X] grid.
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
        label = colour_label(value)
        ax.figure.colorbar(mesh, ax=ax, label=label, extend=scale.extend(z.compressed()))
    entries: list = []
    if mark_best and z.count():
        row = best_cell(df, value, min_n)
        ix = int(np.searchsorted(xs, float(row[x])))
        iy = int(np.searchsorted(ys, float(row[y])))
        circle = "x0" in df.columns
        where = f"{_coord(x, xs[ix], circle)}, {_coord(y, ys[iy], circle)}"
        (star,) = ax.plot(
            xs[ix],
            ys[iy],
            marker="*",
            markersize=15,
            color="white",
            markeredgecolor="black",
            markeredgewidth=1.0,
            linestyle="none",
            gid="best",
            label=f"best: {_fmt(float(z[iy, ix]))}{_interval(row, value)} at {where}",
        )
        entries.append(star)
        edges = edge_of_grid(xs, ys, ix, iy, x, y)
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
    return mesh


def _wrap(text: str, width: int = 72) -> str:
    return textwrap.fill(text, width, break_on_hyphens=False)


# ---------------------------------------------------------------------- on the board


def _draw_rays(
    ax: Axes, start, end, vals, norm, cmap
) -> tuple[LineCollection, np.ndarray, np.ndarray]:
    """Aims as rays from ``start`` to ``end`` coloured by ``vals`` on ``norm`` / ``cmap``:
    wider for better values (on the colour scale), widest for the last (the best, drawn
    last), outlined, and a dot at each distinct start. Returns the rays, their widths and
    the starts."""
    widths = 0.8 + 1.6 * np.clip(np.nan_to_num(np.asarray(norm(vals), dtype=float)), 0.0, 1.0)
    if len(vals):
        widths[-1] = 3.2
    lc = LineCollection(
        np.stack([start, end], axis=1).reshape(-1, 2, 2),
        array=vals,
        norm=norm,
        cmap=cmap,
        linewidths=widths,
        capstyle="round",
        zorder=Z_RAYS,
    )
    _outline(ax, lc, widths + 1.0, "#00000080")
    ax.add_collection(lc)
    spots = np.unique(start, axis=0).reshape(-1, 2)
    ax.plot(
        spots[:, 0],
        spots[:, 1],
        "o",
        markersize=2.5,
        color="black",
        zorder=Z_RAYS + 0.1,
        gid="spots",
    )
    return lc, widths, spots


def _spaced_labels(
    ax: Axes, labels: list, gap: float, gid: str, boxstyle: str, most: int | None = None
) -> None:
    """Small boxed labels ``(at, text)`` in the order given, each left out where it would
    stand within ``gap`` of one already placed, and at most ``most`` of them."""
    placed: list[np.ndarray] = []
    for at, text in labels:
        if most is not None and len(placed) >= most:
            break
        if any(np.hypot(*(at - q)) < gap for q in placed):
            continue
        placed.append(at)
        ax.text(
            at[0],
            at[1],
            text,
            ha="center",
            va="center",
            fontsize=7,
            zorder=Z_LABEL,
            gid=gid,
            bbox=dict(boxstyle=boxstyle, facecolor="white", alpha=0.85, linewidth=0),
        )


def _outline(ax: Axes, lc: LineCollection, widths, color: str) -> LineCollection:
    """A dark outline under ``lc`` (same segments, wider), so light colours read on the
    board."""
    under = LineCollection(
        lc.get_segments(),
        colors=color,
        linewidths=widths,
        capstyle="round",
        zorder=lc.get_zorder() - 0.01,
        gid="outline",
    )
    ax.add_collection(under)
    return under


def _baseline_y(position: Position) -> float:
    board = position.board
    if hasattr(board, "baseline_y"):
        return float(sum(board.baseline_y()) / 2)
    from carromlab.equipment import IcfBoard

    return float(sum(IcfBoard().baseline_y()) / 2)


def _starts(cells: pd.DataFrame, position: Position, line_y: float | None = None) -> np.ndarray:
    """[N, 2] where each row's shot starts: its origin (``x0``, ``y0``) when the table has
    those columns (Carrooka, the crokinole side), else its placement on the line
    ``y = line_y`` (default: the middle of the South baselines, of an ICF board when the
    position's board has none)."""
    if "x0" in cells.columns:
        return cells[["x0", "y0"]].to_numpy(dtype=float)
    px = cells["placement"].to_numpy(dtype=float)
    y = _baseline_y(position) if line_y is None else float(line_y)
    return np.column_stack([px, np.full_like(px, y)])


def _board(position: Position, plot: BoardPlot | None) -> BoardPlot:
    """The board plot a drawing uses: ``plot``, else the family's for ``position``."""
    return board_plot(position.board) if plot is None else plot


def _pick_speed(df: pd.DataFrame, value: str, speed: float | None, min_n: int) -> float | None:
    """The speed to draw: the one given (matched to the nearest grid speed), the only one, or
    the speed of the best cell."""
    if "speed" not in df.columns:
        return None
    speeds = np.sort(df["speed"].unique().astype(float))
    if speed is None:
        if speeds.size == 1:
            return float(speeds[0])
        best = best_cell(df, value, min_n)
        return float(speeds[0] if best is None else best["speed"])
    k = int(np.argmin(np.abs(speeds - speed)))
    if not math.isclose(speeds[k], speed, rel_tol=1e-6, abs_tol=1e-9):
        raise ValueError(f"no speed {speed} in the shot map; speeds: {speeds.tolist()}")
    return float(speeds[k])


def draw_shotmap_on_board(
    df: pd.DataFrame,
    position: Position,
    value: str = "p_continue",
    speed: float | None = None,
    ax: Axes | None = None,
    *,
    scale: ColourScale | Normalize | str | None = None,
    context: MapContext | None = None,
    ray_length: float = 0.25,
    min_n: int = 1,
    what: str | None = None,
    baseline_y: float | None = None,
    colorbar: bool = True,
    legend: bool = True,
    title: str | None = None,
    plot: BoardPlot | None = None,
    legend_extra: list | tuple = (),
    **legacy,
) -> LineCollection:
    """The board and ``position``'s pieces with a fan of aim lines: for each (placement,
    angle) cell at one ``speed``, a ray of ``ray_length`` metres from the striker's spot
    (placement, ``baseline_y``: the y of the line shots start on, default the middle of the
    South baselines) - or from the cell's origin (``x0``, ``y0``) when the map has those
    columns (Carrooka) - in the aim direction, coloured by ``value``.

    ``speed`` defaults to the map's only speed, else the speed of the best cell (named in
    the title). Cells with ``n < min_n`` or a NaN value are left out; better cells are drawn
    wider and over worse ones, the best ray widest. ``scale`` and ``context`` as in
    :func:`draw_shotmap`. The title names the position, the value's meaning, ``what`` the
    rays are (default "each aim"), the skill, ``n`` and the speed; the legend below the board
    names the pieces and the best aim with its 95 % interval, then ``legend_extra`` (more
    (handle, label) entries: what is drawn over the map). ``plot``: the board plot to draw
    with (default the family's). Returns the LineCollection (one segment per drawn cell, in
    drawing order: increasing value).
    """
    scale, context = scale_and_context(value, scale, context, legacy, "draw_shotmap_on_board")
    plot = _board(position, plot)
    speed = _pick_speed(df, value, speed, min_n)
    cells = df if speed is None else df[np.isclose(df["speed"].astype(float), speed)]
    ok = np.isfinite(cells[value].to_numpy(dtype=float))
    if "n" in cells.columns:
        ok &= cells["n"].to_numpy() >= min_n
    # by increasing value; among equal values the map's first row last (the best, as
    # best_cell and draw_shotmap pick it)
    cells = cells[ok]
    cells = cells.iloc[np.lexsort((-np.arange(len(cells)), cells[value].to_numpy(dtype=float)))]
    start = _starts(cells, position, baseline_y)
    a = np.radians(cells["angle"].to_numpy(dtype=float))
    end = start + ray_length * np.column_stack([np.cos(a), np.sin(a)])
    vals = cells[value].to_numpy(dtype=float)
    scale = scale.fit(vals)
    norm, cmap = scale.norm, scale.colormap

    ctx = MapContext.of(df, context, position=position.name, variant=position.variant)
    if title is None:
        first = f"{position.name}: {value_meaning(value)}, {what or 'each aim'}"
        note = ctx.points_note(value)
        title = _title(first, ctx.who(speed), note, width=TITLE_WIDTH - 10)
    ax = draw_position(position, ax=ax, title=title, legend=False, plot=plot)
    ax.title.set_fontsize(10)
    lc, _, _ = _draw_rays(ax, start, end, vals, norm, cmap)
    if colorbar:
        ax.figure.colorbar(
            lc,
            ax=ax,
            shrink=0.8,
            label=colour_label(value),
            extend=scale.extend(vals),
        )
    if legend:
        extra = []
        if len(vals):
            best = cells.iloc[-1]
            circle = "x0" in cells.columns
            where = _coord("angle", float(best["angle"]))
            if cells["placement"].nunique() > 1:  # not a striker where it lies
                where = f"{_coord('placement', float(best['placement']), circle)}, {where}"
            ray = Line2D([], [], color=cmap(norm(vals[-1])), linewidth=3.2)
            label = f"best aim: {_fmt(vals[-1])}{_interval(best, value)}, {where}"
            extra.append((ray, label))
        plot.draw_legend(ax, position, extra=[*extra, *legend_extra], ncol=2)
    return lc


def draw_target_map(
    df: pd.DataFrame,
    position: Position,
    ax: Axes | None = None,
    *,
    scale: ColourScale | Normalize | str | None = None,
    context: MapContext | None = None,
    legal=None,
    best_only: bool = True,
    min_p: float = 0.0,
    labels: bool = True,
    colorbar: bool = True,
    title: str | None = None,
    plot: BoardPlot | None = None,
    **legacy,
) -> LineCollection:
    """A target map on the board: for each row (``piece``, ``pocket``, ``p_best``) a line from
    the piece to the pocket (a capture name such as ``"pocket.NE"``), coloured and widened by
    ``p_best`` (the best probability any shot of the map achieves to put that piece in that
    pocket), with the chance written on the ``LABELLED`` likeliest (``labels``; a label that
    would cover another is left out).

    ``legal``: the ids of the pieces the shooter may pocket (e.g. the rules'
    ``legal_pots(position, turn)``: ICF the shooter's own coins, Carrooka the reds while red
    is on); rows of other pieces are left out (None: every piece; a boolean ``legal`` column
    of ``df`` is honoured too). ``best_only`` keeps one line per piece, its best pocket;
    ``min_p`` leaves out lines below it. The colour scale (``scale``) is fitted, 0..max
    (``"fixed"``: 0..1); lines have a dark outline; likelier lines are drawn on top. Rows
    with a NaN ``p_best`` are drawn thinnest, in the colour map's "bad" colour. The title
    names the position, the skill and ``n`` (``context``, else the map's ``attrs["config"]``)
    and what was left out; the legend below the board names the pieces. ``plot``: the board
    plot to draw with. Returns the LineCollection, one segment per drawn row (in drawing
    order: increasing ``p_best``)."""
    scale, context = scale_and_context("p_best", scale, context, legacy, "draw_target_map")
    plot = _board(position, plot)
    for col in ("piece", "pocket", "p_best"):
        if col not in df.columns:
            raise ValueError(f"target map has no column {col!r}; columns: {list(df.columns)}")
    captures = {c.name: c for c in position.board.layout.captures}
    for pocket in df["pocket"]:
        if pocket not in captures:
            raise ValueError(f"target map names capture {pocket!r}; known: {list(captures)}")
    rows = df
    if "legal" in rows.columns:
        rows = rows[rows["legal"].astype(bool)]
    if legal is not None:
        legal = tuple(legal)
        rows = rows[rows["piece"].isin(legal)]
    if min_p > 0:
        rows = rows[rows["p_best"].to_numpy(dtype=float) >= min_p]
    if best_only and len(rows):
        order = rows.sort_values("p_best", kind="stable", na_position="first")
        rows = order.groupby("piece", sort=False).tail(1)
    rows = rows.sort_values("p_best", kind="stable", na_position="first")
    segments = []
    for pid, pocket in zip(rows["piece"], rows["pocket"]):
        try:
            piece = position.by_id(pid)
        except KeyError:
            raise ValueError(f"target map names piece {pid!r}, not in {position.name!r}") from None
        cap = captures[pocket]
        segments.append([(piece.x, piece.y), (cap.x, cap.y)])
    p = rows["p_best"].to_numpy(dtype=float)
    scale = scale.fit(p)
    norm, cmap = scale.norm, scale.colormap

    ctx = MapContext.of(df, context, position=position.name, variant=position.variant)
    if title is None:
        shown = "every piece"
        if legal is not None:  # named as the legend names them: "white coins"
            names = dict.fromkeys(plot.piece_label(q) for q in position.pieces if q.id in legal)
            shown = "only what the shooter may pocket: " + (", ".join(names) or "nothing")
        if best_only:
            shown += ", the best pocket of each"
        if min_p > 0:
            shown += f"; chances under {min_p:.0%} left out"
        title = _title(
            f"{position.name}: the best chance of each target", ctx.who(), shown, width=56
        )
    ax = draw_position(position, ax=ax, title=title, legend=False, plot=plot)
    ax.title.set_fontsize(10)
    scaled = np.clip(np.nan_to_num(np.asarray(norm(p), dtype=float), nan=0.0), 0.0, 1.0)
    widths = 1.0 + 5.0 * scaled
    lc = LineCollection(
        np.array(segments, dtype=float).reshape(-1, 2, 2),
        array=p,
        norm=norm,
        cmap=cmap,
        linewidths=widths,
        capstyle="round",
        zorder=Z_RAYS,
    )
    _outline(ax, lc, widths + 1.5, "#000000a0")
    ax.add_collection(lc)
    if labels:  # the chance on the likeliest lines, half-way along, none on another
        halfway = [
            (np.asarray(start) + 0.5 * (np.asarray(stop) - np.asarray(start)), f"{value:.0%}")
            for (start, stop), value in reversed(list(zip(segments, p)))
            if math.isfinite(value)
        ]
        _spaced_labels(
            ax, halfway, 0.12 * position.board.extent, "target-label", "round,pad=0.15", LABELLED
        )
    if colorbar:
        ax.figure.colorbar(lc, ax=ax, shrink=0.8, label="P(the best shot pockets it there)")
    top = float(np.nanmax(p)) if np.isfinite(p).any() else 1.0
    extra = [
        (
            Line2D([], [], color=cmap(norm(top)), linewidth=1.0 + 5.0 * float(norm(top))),
            "line: piece to pocket, wider and lighter = likelier",
        )
    ]
    if legal is not None and not len(rows):
        extra.append((Patch(facecolor="none", edgecolor="none"), "no legal target reaches it"))
    plot.draw_legend(ax, position, extra=extra, ncol=2)
    return lc


# ---------------------------------------------------------------------- given shots


def _where(row, unit: str) -> str:
    """How a shot is played, in words: its placement in ``unit`` (where the row has one), its
    aim and its speed."""
    parts = []
    if "placement" in row:
        parts.append(_coord("placement", float(row["placement"]), unit == "deg"))
    parts.append(_coord("angle", float(row["angle"])))
    if "speed" in row:
        parts.append(f"{float(row['speed']):.2f} m/s")
    return ", ".join(parts)


def draw_aims(
    df: pd.DataFrame,
    position: Position,
    value: str = "points",
    ax: Axes | None = None,
    *,
    scale: ColourScale | Normalize | str | None = None,
    context: MapContext | None = None,
    ray_length: float = 0.3,
    shooter: bool = False,
    unit: str | None = None,
    what: str | None = None,
    colorbar: bool = True,
    legend: bool = True,
    title: str | None = None,
    plot: BoardPlot | None = None,
    legend_extra: list | tuple = (),
) -> LineCollection:
    """Given shots on the board (the best shots of a search, or one shot): for each row of
    ``df`` (``placement``, ``angle`` in degrees, ``speed``, ``value``; its origin ``x0``,
    ``y0`` when it has those columns, else its placement on the South baselines) a ray of
    ``ray_length`` metres in the aim direction, coloured by ``value`` (``scale``, fitted by
    default). Rows are ranked by their ``rank`` column, else by ``value``; the first is drawn
    last and widest, and each ray's rank is written at its end (``gid="aim-rank"``).
    ``shooter`` draws the shooting disc, faint, at each origin. ``unit``: the placement's
    unit in the legend, ``"m"`` (on a line) or ``"deg"`` (on a circle; the default when the
    rows carry their origins); rows without a ``placement`` (a shooter played from where it
    lies, with ``x0``, ``y0``) are named by their aim and speed.

    The title names the position, what the value means, ``what`` the rays are (default "the
    best shots"), the skill and ``n`` (``context``, else the table's ``attrs["config"]``);
    the legend below the board names the pieces and each shot with its value and 95 %
    interval, then ``legend_extra`` (more (handle, label) entries). Returns the
    LineCollection, one segment per row (in drawing order: the first ranked last)."""
    from carromlab.plot.trajectory import _shooter_kind, _shooter_piece

    scale = ColourScale.of(value, scale)
    plot = _board(position, plot)
    if "rank" in df.columns:
        rows = df.sort_values("rank", kind="stable")
    else:
        rows = df.iloc[np.argsort(-df[value].to_numpy(dtype=float), kind="stable")]
    rows = rows.iloc[::-1]  # the first ranked drawn last, on top
    start = _starts(rows, position)
    a = np.radians(rows["angle"].to_numpy(dtype=float))
    end = start + ray_length * np.column_stack([np.cos(a), np.sin(a)])
    vals = rows[value].to_numpy(dtype=float)
    scale = scale.fit(vals)
    norm, cmap = scale.norm, scale.colormap
    ctx = MapContext.of(df, context, position=position.name, variant=position.variant)
    if title is None:
        first = f"{position.name}: {value_meaning(value)}, {what or 'the best shots'}"
        note = ctx.points_note(value)
        title = _title(first, ctx.who(per="each"), note)
    ax = draw_position(position, ax=ax, title=title, legend=False, plot=plot)
    ax.title.set_fontsize(10)
    lc, widths, spots = _draw_rays(ax, start, end, vals, norm, cmap)
    kind = _shooter_kind(position.board)
    if shooter and kind is not None:
        radius = position.board.piece_specs()[kind].radius
        for sx, sy in spots:
            face, edge = plot.piece_color(_shooter_piece(position, sx, sy, kind))
            ax.add_patch(
                Circle(
                    (sx, sy),
                    radius,
                    facecolor=face,
                    edgecolor=edge,
                    linewidth=0.8,
                    alpha=0.6,
                    zorder=Z_RAYS - 0.1,
                    gid="shooter",
                )
            )
    ranks = rows["rank"].to_numpy() if "rank" in rows.columns else np.arange(len(rows), 0, -1)
    # the first ranked first; a rank over another's is left to the legend
    shown = [(at, f"{int(k)}") for at, k in list(zip(end, ranks))[::-1]] if len(rows) > 1 else []
    _spaced_labels(ax, shown, 0.04 * position.board.extent, "aim-rank", "circle,pad=0.2")
    if colorbar and len(rows) > 1:
        ax.figure.colorbar(
            lc, ax=ax, shrink=0.8, label=colour_label(value), extend=scale.extend(vals)
        )
    if legend:
        unit = unit or ("deg" if "x0" in rows.columns else "m")
        extra = []
        for (_, row), v, w, k in list(zip(rows.iterrows(), vals, widths, ranks))[::-1]:
            ray = Line2D([], [], color=cmap(norm(v)), linewidth=w)
            head = f"{int(k)}: " if len(rows) > 1 else ""
            label = f"{head}{_fmt(v)}{_interval(row, value)}, {_where(row, unit)}"
            extra.append((ray, label))
        plot.draw_legend(ax, position, extra=[*extra, *legend_extra], ncol=2)
    return lc


def draw_chances(
    position: Position,
    chances,
    ax: Axes | None = None,
    *,
    scale: ColourScale | Normalize | str | None = None,
    min_p: float = 0.01,
    labels: bool = True,
    colorbar: bool = True,
    plot: BoardPlot | None = None,
) -> list[Circle]:
    """Each piece's chance of being pocketed, over a drawn position: a ring round each piece
    of ``chances`` (piece id -> probability, a mapping or a Series) at ``min_p`` or more,
    coloured by it (``scale``, fitted 0..max by default), with the chance written beside it
    (``labels``, ``gid="chance-label"``). ``ax``: the axes of the position drawn (a new
    drawing of ``position`` when None). Returns the rings (``gid="chance:<id>"``), likeliest
    last."""
    scale = ColourScale.of("p_capture", scale)
    plot = _board(position, plot)
    if ax is None:
        ax = draw_position(position, legend=False, plot=plot)
    items = [(pid, float(p)) for pid, p in dict(chances).items() if math.isfinite(float(p))]
    items = sorted((i for i in items if i[1] >= min_p), key=lambda i: i[1])
    scale = scale.fit([p for _, p in items])
    specs = position.board.piece_specs()
    rings = []
    for pid, p in items:
        piece = position.by_id(pid)
        radius = specs[piece.kind].radius
        ring = Circle(
            (piece.x, piece.y),
            radius * 1.45,
            facecolor="none",
            edgecolor=scale.colour(p),
            linewidth=2.4,
            zorder=Z_LABEL - 1,
            gid=f"chance:{pid}",
        )
        ax.add_patch(ring)
        rings.append(ring)
        if labels:
            ax.text(
                piece.x + radius * 1.6,
                piece.y + radius * 1.6,
                f"{pid} {p:.0%}",
                ha="left",
                va="bottom",
                fontsize=7,
                zorder=Z_LABEL,
                gid="chance-label",
                bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.85, linewidth=0),
            )
    if colorbar and rings:
        import matplotlib.cm as cm

        mappable = cm.ScalarMappable(norm=scale.norm, cmap=scale.colormap)
        ax.figure.colorbar(mappable, ax=ax, shrink=0.8, label="P(pocketed)")
    return rings
