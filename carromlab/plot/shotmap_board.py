"""Shot maps on the board: a fan of aim lines over the position (one speed of a map), a target
map (a line from each piece to its best pocket), given shots' aims, and each piece's chance of
being pocketed. The heat map over the grid is :mod:`carromlab.plot.shotmap`, which names these
too; each is also a method of :class:`~carromlab.plot.position_plot.PositionPlot`."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch

from carromlab.plot.boards import Z_LABEL, board_plot, draw_position
from carromlab.plot.scale import (
    ColourScale,
    MapContext,
    colour_label,
    scale_and_context,
    value_meaning,
)
from carromlab.plot.shotmap_parts import (
    LABELLED,
    TITLE_WIDTH,
    Z_RAYS,
    _coord,
    _fmt,
    _interval,
    _title,
    best_cell,
)

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.colors import Normalize

    from carromlab.plot.boards import BoardPlot
    from carromlab.position import Position


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
    segments = np.stack([start, end], axis=1)
    lc = _ray_lines(ax, segments, vals, norm, cmap, widths, widths + 1.0, "#00000080")
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
    end, vals, scale = _ray_ends(cells, start, ray_length, value, scale)
    norm, cmap = scale.norm, scale.colormap

    if title is None:
        who = {"speed": speed}
        title = _ray_title(df, context, position, value, what or "each aim", who, TITLE_WIDTH - 10)
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
        extra = [_best_aim_entry(cells, vals, value, norm, cmap)] if len(vals) else []
        plot.draw_legend(ax, position, extra=[*extra, *legend_extra], ncol=2)
    return lc


def _ray_lines(ax: Axes, segments, vals, norm, cmap, widths, outline, colour) -> LineCollection:
    """The rays ``segments`` (start, end) coloured by ``vals``, of ``widths``, outlined
    (``outline`` wide, in ``colour``), added to ``ax``."""
    lc = LineCollection(
        np.array(segments, dtype=float).reshape(-1, 2, 2),
        array=vals,
        norm=norm,
        cmap=cmap,
        linewidths=widths,
        capstyle="round",
        zorder=Z_RAYS,
    )
    _outline(ax, lc, outline, colour)
    ax.add_collection(lc)
    return lc


def _ray_ends(rows: pd.DataFrame, start, ray_length: float, value: str, scale: ColourScale):
    """Where each row's ray ends (``ray_length`` from ``start`` along its angle), its values,
    and ``scale`` fitted to them."""
    a = np.radians(rows["angle"].to_numpy(dtype=float))
    end = start + ray_length * np.column_stack([np.cos(a), np.sin(a)])
    vals = rows[value].to_numpy(dtype=float)
    return end, vals, scale.fit(vals)


def _ray_title(
    df: pd.DataFrame,
    context,
    position: Position,
    value: str,
    what: str,
    who: dict,
    width: int = TITLE_WIDTH,
) -> str:
    """The title of rays on the board: the position, what the value means and ``what`` the
    rays are; the skill and ``n`` (``MapContext.who(**who)``); the value's points note."""
    ctx = MapContext.of(df, context, position=position.name, variant=position.variant)
    first = f"{position.name}: {value_meaning(value)}, {what}"
    return _title(first, ctx.who(**who), ctx.points_note(value), width=width)


def _best_aim_entry(cells: pd.DataFrame, vals, value: str, norm, cmap) -> tuple[Line2D, str]:
    """The legend's entry for the best aim (the last of ``cells``): a wide ray in its colour,
    its value with its 95 % interval and where it is played."""
    best = cells.iloc[-1]
    circle = "x0" in cells.columns
    where = _coord("angle", float(best["angle"]))
    if cells["placement"].nunique() > 1:  # not a striker where it lies
        where = f"{_coord('placement', float(best['placement']), circle)}, {where}"
    ray = Line2D([], [], color=cmap(norm(vals[-1])), linewidth=3.2)
    return ray, f"best aim: {_fmt(vals[-1])}{_interval(best, value)}, {where}"


def _target_rows(
    df: pd.DataFrame, position: Position, legal: tuple | None, best_only: bool, min_p: float
) -> tuple[pd.DataFrame, list]:
    """A target map's rows to draw, by increasing ``p_best`` (checked: its columns, captures
    and pieces; filtered as :func:`draw_target_map` says), and each row's segment from the
    piece to the pocket."""
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
    return rows, segments


def _target_title(
    position: Position,
    plot: BoardPlot,
    ctx: MapContext,
    legal: tuple | None,
    best_only: bool,
    min_p: float,
) -> str:
    """A target map's title: the position, the skill and ``n``, and what was left out."""
    shown = "every piece"
    if legal is not None:  # named as the legend names them: "white coins"
        names = dict.fromkeys(plot.piece_label(q) for q in position.pieces if q.id in legal)
        shown = "only what the shooter may pocket: " + (", ".join(names) or "nothing")
    if best_only:
        shown += ", the best pocket of each"
    if min_p > 0:
        shown += f"; chances under {min_p:.0%} left out"
    return _title(f"{position.name}: the best chance of each target", ctx.who(), shown, width=56)


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
    legal = None if legal is None else tuple(legal)
    rows, segments = _target_rows(df, position, legal, best_only, min_p)
    p = rows["p_best"].to_numpy(dtype=float)
    scale = scale.fit(p)
    norm, cmap = scale.norm, scale.colormap

    ctx = MapContext.of(df, context, position=position.name, variant=position.variant)
    if title is None:
        title = _target_title(position, plot, ctx, legal, best_only, min_p)
    ax = draw_position(position, ax=ax, title=title, legend=False, plot=plot)
    ax.title.set_fontsize(10)
    scaled = np.clip(np.nan_to_num(np.asarray(norm(p), dtype=float), nan=0.0), 0.0, 1.0)
    widths = 1.0 + 5.0 * scaled
    lc = _ray_lines(ax, segments, p, norm, cmap, widths, widths + 1.5, "#000000a0")
    if labels:
        _target_labels(ax, position, segments, p)
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


def _target_labels(ax: Axes, position: Position, segments: list, p: np.ndarray) -> None:
    """The chance on the likeliest lines, half-way along, none on another."""
    halfway = [
        (np.asarray(start) + 0.5 * (np.asarray(stop) - np.asarray(start)), f"{value:.0%}")
        for (start, stop), value in reversed(list(zip(segments, p)))
        if math.isfinite(value)
    ]
    _spaced_labels(
        ax, halfway, 0.12 * position.board.extent, "target-label", "round,pad=0.15", LABELLED
    )


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


def _draw_shooters(ax: Axes, plot: BoardPlot, position: Position, spots) -> None:
    """The shooting disc, faint, at each of ``spots`` (none where the board has no shooter)."""
    from carromlab.plot.trajectory import _shooter_kind, _shooter_piece

    kind = _shooter_kind(position.board)
    if kind is None:
        return
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
    scale = ColourScale.of(value, scale)
    plot = _board(position, plot)
    if "rank" in df.columns:
        rows = df.sort_values("rank", kind="stable")
    else:
        rows = df.iloc[np.argsort(-df[value].to_numpy(dtype=float), kind="stable")]
    rows = rows.iloc[::-1]  # the first ranked drawn last, on top
    start = _starts(rows, position)
    end, vals, scale = _ray_ends(rows, start, ray_length, value, scale)
    norm, cmap = scale.norm, scale.colormap
    if title is None:
        who = {"per": "each"}
        title = _ray_title(df, context, position, value, what or "the best shots", who)
    ax = draw_position(position, ax=ax, title=title, legend=False, plot=plot)
    ax.title.set_fontsize(10)
    lc, widths, spots = _draw_rays(ax, start, end, vals, norm, cmap)
    if shooter:
        _draw_shooters(ax, plot, position, spots)
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
