"""Drawing shot maps: heat maps over the shot grid, aim fans on the board, target maps.

A *shot map* is a tidy :class:`pandas.DataFrame`, one row per grid cell, with the grid columns
``placement`` (m, the striker's x on the South baseline), ``angle`` (degrees, counter-clockwise
from +x) and ``speed`` (m/s), the number of shots ``n`` in the cell, and value columns such as
``p_continue``, ``p_continue_lo``, ``p_continue_hi``, ``p_foul``, ``points``, ``points_lo``,
``points_hi``. The statistics are computed elsewhere; this module only draws them.

Colour scales are **fitted to the data** by default (``scale="fitted"``, see
:func:`default_norm`), so one map reads at a glance:

- probabilities (``p``, ``p_*`` and their ``_lo``/``_hi`` bounds): ``Normalize(0, max)``, the
  data's largest value, with the sequential colour map ``viridis``;
- points-like values (``points*``, ``ev*``, ``score*``, ``gain*``, ``margin*``): symmetric
  about 0, ``Normalize(-m, m)`` with ``m`` the largest absolute value, with the diverging
  colour map ``RdBu`` (red: losing points, white: nothing, blue: gaining);
- any other column: ``Normalize`` over the data's range.

``scale="fixed"`` gives the fixed scales for comparing maps of different positions or skills
(probabilities 0..1, points ±``POINTS_LIMIT``; values beyond saturate and the colour bar shows
an arrow end); ``vmin``/``vmax`` set either end by hand, and ``norm`` replaces the scale.

Each figure says what it shows: its title names the position, the value and what it means
(for points, the scoring of the position's variant), the skill and the shots per cell
``n`` (from the map's ``attrs["config"]``, as the analysis layer writes it, or from the
``skill``/``n`` arguments). The best cell is starred, with its 95 % interval in the legend;
a best cell on the grid's edge is flagged on the figure and with a :class:`BestOnEdgeWarning`
(the best shot may lie outside the grid).

Every function takes ``ax=`` (a new figure when None) and returns what it drew; nothing here
calls ``plt.show()``.
"""

from __future__ import annotations

import math
import textwrap
import warnings
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import Normalize
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from carromlab.plot.boards import Z_LABEL, Z_PIECE, board_plot, draw_position

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.collections import QuadMesh
    from matplotlib.colors import Colormap

    from carromlab.position import Position

#: Half-range of the fixed colour scale of points-like values (points per shot).
POINTS_LIMIT = 3.0
#: The colour scales: fitted to the data (the default) or fixed (for comparisons).
SCALES = ("fitted", "fixed")
#: Default colour maps: probabilities (and other one-signed values), signed values.
PROB_CMAP = "viridis"
SIGNED_CMAP = "RdBu"
#: Colour of cells without a value (no legal placement, too few shots).
BLANK_COLOR = "#cfcfcf"
#: Colour of the warning written on a figure.
WARNING_COLOR = "#b71c1c"
#: A target map writes the chance on its likeliest lines, this many.
LABELLED = 6
#: Drawing order on the board: aim lines and target lines under the pieces, over the lines.
Z_RAYS = Z_PIECE - 1.0

#: What a stroke's ``points`` count in each variant (the rules' default scoring weights;
#: tests/test_plot_shotmap.py checks them against the rules).
POINTS_NOTES = {
    "icf": "own coin +1, opponent's coin −1, queen covered +3, striker pocketed −1",
    "icf-doubles": "own coin +1, opponent's coin −1, queen covered +3, striker pocketed −1",
    "carrooka": "legal pots score red 1, yellow 2 … black 7; a foul 0",
    "carroms": "own ring +1, the black +5, opponent's ring −1, forfeited ring −1",
    "force-out": "opponent's ring forced out +5, own ring forced out −5, ring brought back −5",
    "force-out-fast": (
        "opponent's ring forced out +5, own ring forced out −5, ring brought back −5"
    ),
}
#: Plain words for some values (the others: :func:`value_label`).
VALUE_MEANINGS = {
    "points": "expected points per stroke",
    "p_continue": "P(the turn continues)",
    "p_continues": "P(the turn continues)",
    "p_foul": "P(a foul)",
    "p_penalty": "P(a penalty)",
}

_PROB_BOUNDS = ("_lo", "_hi", "_se")
_SIGNED_PREFIXES = ("points", "ev", "score", "gain", "margin")
_AXIS_LABELS = {
    "placement": "striker placement x (m)",
    "angle": "aim angle (° from +x)",
    "speed": "speed (m/s)",
    "n": "shots in cell",
}


class BestOnEdgeWarning(UserWarning):
    """The best cell of a shot map lies on the edge of its grid: the best shot may lie
    outside the grid (widen it that way)."""


# ---------------------------------------------------------------------- colour scales


def value_kind(value: str) -> str:
    """``"probability"``, ``"signed"`` (points-like) or ``"other"``, from the column name."""
    base = value
    for suffix in _PROB_BOUNDS:
        if base.endswith(suffix):
            base = base[: -len(suffix)]
            break
    if base == "p" or base.startswith("p_"):
        return "probability"
    if any(base == p or base.startswith(p + "_") for p in _SIGNED_PREFIXES):
        return "signed"
    return "other"


def _finite(data) -> np.ndarray:
    a = np.ma.filled(np.ma.asarray(data, dtype=float), np.nan).ravel() if data is not None else []
    a = np.asarray(a, dtype=float)
    return a[np.isfinite(a)]


def default_norm(
    value: str,
    data=None,
    scale: str = "fitted",
    vmin: float | None = None,
    vmax: float | None = None,
) -> Normalize:
    """The colour scale of column ``value`` over ``data``.

    ``scale="fitted"`` (default): probabilities ``Normalize(0, max(data))``; points-like values
    symmetric about 0, ``Normalize(-m, m)`` with ``m = max(|data|)``; others the data's range.
    ``scale="fixed"``: probabilities ``Normalize(0, 1)``, points-like values
    ``Normalize(-POINTS_LIMIT, POINTS_LIMIT)``, others the data's range. ``vmin``/``vmax``
    replace either end. Without finite data: 0..1 (points: -1..1)."""
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, not {scale!r}")
    kind = value_kind(value)
    finite = _finite(data)
    if scale == "fixed" and kind == "probability":
        lo, hi = 0.0, 1.0
    elif scale == "fixed" and kind == "signed":
        lo, hi = -POINTS_LIMIT, POINTS_LIMIT
    elif finite.size == 0:
        lo, hi = (-1.0, 1.0) if kind == "signed" else (0.0, 1.0)
    elif kind == "probability":
        top = float(finite.max())
        lo, hi = 0.0, (top if top > 0 else 1.0)
    elif kind == "signed":
        m = float(np.abs(finite).max())
        lo, hi = (-m, m) if m > 0 else (-1.0, 1.0)
    else:
        lo, hi = float(finite.min()), float(finite.max())
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
    return Normalize(lo if vmin is None else float(vmin), hi if vmax is None else float(vmax))


def default_cmap(value: str) -> str:
    """``SIGNED_CMAP`` (diverging) for points-like values, else ``PROB_CMAP``."""
    return SIGNED_CMAP if value_kind(value) == "signed" else PROB_CMAP


def value_label(value: str) -> str:
    """A readable label: ``p_continue`` -> ``P(continue)``, ``points_lo`` -> ``points (lower
    bound)``."""
    suffix = ""
    base = value
    for s, words in (("_lo", " (lower bound)"), ("_hi", " (upper bound)"), ("_se", " (s.e.)")):
        if base.endswith(s):
            base, suffix = base[: -len(s)], words
            break
    if base.startswith("p_"):
        base = f"P({base[2:].replace('_', ' ')})"
    return base + suffix


def value_meaning(value: str, variant: str | None = None) -> str:
    """What ``value`` means in plain words; for points also what a stroke scores in
    ``variant`` (:data:`POINTS_NOTES`), e.g. ``"expected points per stroke: own coin +1,
    ..."``."""
    words = VALUE_MEANINGS.get(value, value_label(value))
    if value == "points" and variant in POINTS_NOTES:
        words += f": {POINTS_NOTES[variant]}"
    return words


def _norm_cmap(
    value: str,
    data,
    norm: Normalize | None,
    cmap,
    scale: str = "fitted",
    vmin: float | None = None,
    vmax: float | None = None,
) -> tuple[Normalize, Colormap]:
    import matplotlib as mpl

    norm = default_norm(value, data, scale, vmin, vmax) if norm is None else norm
    cmap = default_cmap(value) if cmap is None else cmap
    return norm, mpl.colormaps[cmap] if isinstance(cmap, str) else cmap


def _extend(norm: Normalize, data) -> str:
    """Colour bar ``extend`` for values beyond the norm's range."""
    finite = _finite(data)
    if finite.size == 0 or norm.vmin is None or norm.vmax is None:
        return "neither"
    low, high = finite.min() < norm.vmin, finite.max() > norm.vmax
    return {(False, False): "neither", (True, False): "min", (False, True): "max"}.get(
        (low, high), "both"
    )


# ---------------------------------------------------------------------- what a map shows


def map_context(df: pd.DataFrame, skill=None, n=None, variant=None, position=None) -> dict:
    """What a map was made with, for its title: ``position`` (name), ``variant``, ``skill``
    (name) and ``n`` (shots per cell), from the arguments, else the map's
    ``attrs["config"]``, else (``n``) the ``n`` column: one number, or a range as text."""
    config = df.attrs.get("config") or {}
    sk = skill if skill is not None else config.get("skill")
    if isinstance(sk, dict):
        sk = sk.get("name")
    elif sk is not None and not isinstance(sk, str):
        sk = getattr(sk, "name", str(sk))
    if n is None:
        n = config.get("n")
    if n is None and "n" in df.columns and len(df):
        counts = df["n"].to_numpy()
        counts = counts[counts > 0]
        if counts.size:
            lo, hi = int(counts.min()), int(counts.max())
            n = lo if lo == hi else f"{lo}–{hi}"
    return {
        "position": position if position is not None else config.get("position"),
        "variant": variant if variant is not None else config.get("variant"),
        "skill": sk,
        "n": n,
    }


def _who(ctx: dict, speed: float | None = None) -> str:
    """``"club player, n = 200 shots per cell, 2 m/s"`` (the parts that are known)."""
    parts = []
    if ctx["skill"]:
        parts.append(f"{ctx['skill']} player")
    if ctx["n"] is not None:
        parts.append(f"n = {ctx['n']} shots per cell")
    if speed is not None:
        parts.append(f"{speed:g} m/s")
    return ", ".join(parts)


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


def warn_edge(ax: Axes, edges: list, what: str = "best cell") -> str:
    """Write a warning on ``ax`` (``gid="edge-warning"``) and raise a
    :class:`BestOnEdgeWarning`: the best cell lies on the grid's edge. Returns the text."""
    where = "; ".join(f"{col} = {v:g}, the {side} of the grid" for col, v, side in edges)
    text = f"⚠ {what} on the grid's edge ({where}): the best shot may lie outside; widen the grid"
    warnings.warn(text[2:], BestOnEdgeWarning, stacklevel=3)
    ax.text(
        0.5,
        0.985,
        text.replace(": the best", ":\nthe best"),
        transform=ax.transAxes,
        ha="center",
        va="top",
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
    norm: Normalize | None = None,
    cmap: str | Colormap | None = None,
    min_n: int = 1,
    colorbar: bool = True,
    mark_best: bool = True,
    scale: str = "fitted",
    vmin: float | None = None,
    vmax: float | None = None,
    title: str | None = None,
    skill=None,
    n=None,
    warn_edge_cell: bool = True,
) -> QuadMesh:
    """Heat map of ``value`` over two grid columns (any two of placement, angle, speed).

    One cell per grid point (``pcolormesh`` with edges half-way between the cell centres, so
    uneven grids draw right); cells with ``n < min_n`` (or NaN) are masked and show grey. The
    colour scale is fitted to the data (``scale="fitted"``: probabilities 0..max, points
    symmetric about 0); ``scale="fixed"`` (probabilities 0..1, points ±3) compares maps;
    ``vmin``/``vmax`` set an end and ``norm`` replaces the scale (:func:`default_norm`).
    ``cmap`` defaults to viridis, or the diverging RdBu for points-like values.

    The title (``title`` replaces it) names the position, what the value means, the skill,
    ``n`` (the shots per cell) and the speed when the map has one; ``skill`` and ``n``
    default to the map's ``attrs["config"]``. ``mark_best`` stars the highest unmasked cell
    (``gid="best"``) and names it with its 95 % interval in the legend below the axes, with
    the typical interval of a cell (how much of the speckle is chance); when that cell lies
    on the grid's edge (``warn_edge_cell``) the figure says so and a
    :class:`BestOnEdgeWarning` is raised. Returns the QuadMesh; its array is the masked
    [Y, X] grid.
    """
    xs, ys, z = shotmap_grid(df, value, x, y, min_n)
    norm, cmap = _norm_cmap(value, z.compressed(), norm, cmap, scale, vmin, vmax)
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6.4, 5.6))
    ax.set_facecolor(BLANK_COLOR)
    mesh = ax.pcolormesh(_edges(xs), _edges(ys), z, norm=norm, cmap=cmap, shading="flat")
    ax.set_xlabel(_AXIS_LABELS.get(x, x))
    ax.set_ylabel(_AXIS_LABELS.get(y, y))
    ctx = map_context(df, skill, n)
    speeds = df["speed"].unique() if "speed" in df.columns and "speed" not in (x, y) else []
    speed = float(speeds[0]) if len(speeds) == 1 else None
    first = value_meaning(value)
    if ctx["position"]:
        first = f"{ctx['position']}: {first}"
    note = POINTS_NOTES.get(ctx["variant"], "") if value == "points" else ""
    ax.set_title(title if title is not None else _title(first, _who(ctx, speed), note), fontsize=10)
    if colorbar:
        label = value_label(value)
        if value == "points":
            label = "points per stroke"
        ax.figure.colorbar(mesh, ax=ax, label=label, extend=_extend(norm, z.compressed()))
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
            warn_edge(ax, edges)
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
        ax.legend(
            handles=entries,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.11),
            fontsize=8,
            frameon=False,
            handlelength=1.2,
        )
    return mesh


# ---------------------------------------------------------------------- on the board


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
    baseline_y: float | None = None,
    ray_length: float = 0.25,
    min_n: int = 1,
    norm: Normalize | None = None,
    cmap: str | Colormap | None = None,
    colorbar: bool = True,
    scale: str = "fitted",
    vmin: float | None = None,
    vmax: float | None = None,
    title: str | None = None,
    what: str | None = None,
    skill=None,
    n=None,
    legend: bool = True,
) -> LineCollection:
    """The board and ``position``'s pieces with a fan of aim lines: for each (placement,
    angle) cell at one ``speed``, a ray of ``ray_length`` metres from the striker's spot
    (placement, ``baseline_y``) - or from the cell's origin (``x0``, ``y0``) when the map has
    those columns (Carrooka) - in the aim direction, coloured by ``value``.

    ``speed`` defaults to the map's only speed, else the speed of the best cell (named in
    the title). ``baseline_y`` defaults to the middle of the South baselines (of an ICF board
    when the position's board has none). Cells with ``n < min_n`` or a NaN value are left out;
    better cells are drawn wider and over worse ones, the best ray widest. Colour scale as
    :func:`draw_shotmap` (fitted by default; ``scale``, ``vmin``, ``vmax``, ``norm``). The
    title names the position, the value's meaning, ``what`` the rays are (default "each
    aim"), the skill, ``n`` and the speed; the legend below the board names the pieces and
    the best aim with its 95 % interval. Returns the LineCollection (one segment per drawn
    cell, in drawing order: increasing value).
    """
    speed = _pick_speed(df, value, speed, min_n)
    cells = df if speed is None else df[np.isclose(df["speed"].astype(float), speed)]
    ok = np.isfinite(cells[value].to_numpy(dtype=float))
    if "n" in cells.columns:
        ok &= cells["n"].to_numpy() >= min_n
    # by increasing value; among equal values the map's first row last (the best, as
    # best_cell and draw_shotmap pick it)
    cells = cells[ok]
    cells = cells.iloc[np.lexsort((-np.arange(len(cells)), cells[value].to_numpy(dtype=float)))]
    y0 = _baseline_y(position) if baseline_y is None else float(baseline_y)
    if "x0" in cells.columns:  # cells that carry their origin (Carrooka)
        start = cells[["x0", "y0"]].to_numpy(dtype=float)
    else:
        px = cells["placement"].to_numpy(dtype=float)
        start = np.column_stack([px, np.full_like(px, y0)])
    a = np.radians(cells["angle"].to_numpy(dtype=float))
    end = start + ray_length * np.column_stack([np.cos(a), np.sin(a)])
    vals = cells[value].to_numpy(dtype=float)
    norm, cmap = _norm_cmap(value, vals, norm, cmap, scale, vmin, vmax)

    ctx = map_context(df, skill, n, variant=position.variant, position=position.name)
    if title is None:
        first = f"{position.name}: {value_meaning(value)}, {what or 'each aim'}"
        note = POINTS_NOTES.get(ctx["variant"], "") if value == "points" else ""
        title = _title(first, _who(ctx, speed), note, width=TITLE_WIDTH - 10)
    ax = draw_position(position, ax=ax, title=title, legend=False)
    ax.title.set_fontsize(10)
    # wider for better cells (on the colour scale), widest for the best one, drawn last
    widths = 0.8 + 1.6 * np.clip(np.asarray(norm(vals), dtype=float), 0.0, 1.0)
    if len(vals):
        widths[-1] = 3.2
    lc = LineCollection(
        np.stack([start, end], axis=1),
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
    if colorbar:
        ax.figure.colorbar(
            lc,
            ax=ax,
            shrink=0.8,
            label="points per stroke" if value == "points" else value_label(value),
            extend=_extend(norm, vals),
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
        board_plot(position.board).draw_legend(ax, position, extra=extra, ncol=2)
    return lc


def draw_target_map(
    df: pd.DataFrame,
    position: Position,
    ax: Axes | None = None,
    norm: Normalize | None = None,
    cmap: str | Colormap = PROB_CMAP,
    colorbar: bool = True,
    legal=None,
    best_only: bool = True,
    min_p: float = 0.0,
    scale: str = "fitted",
    vmin: float | None = None,
    vmax: float | None = None,
    title: str | None = None,
    skill=None,
    n=None,
    labels: bool = True,
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
    ``min_p`` leaves out lines below it. The colour scale is fitted, 0..max (``scale="fixed"``:
    0..1; ``vmin``, ``vmax``, ``norm`` as in :func:`draw_shotmap`); lines have a dark outline;
    likelier lines are drawn on top. Rows with a NaN ``p_best`` are drawn thinnest, in the
    colour map's "bad" colour. The title names the position, the skill and ``n`` (from the
    map's ``attrs["config"]`` or the arguments) and what was left out; the legend below the
    board names the pieces. Returns the LineCollection, one segment per drawn row (in drawing
    order: increasing ``p_best``)."""
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
    norm, cmap = _norm_cmap("p_best", p, norm, cmap, scale, vmin, vmax)

    ctx = map_context(df, skill, n, variant=position.variant, position=position.name)
    if title is None:
        shown = "every piece"
        if legal is not None:  # named as the legend names them: "white coins"
            plot = board_plot(position.board)
            names = dict.fromkeys(plot.piece_label(q) for q in position.pieces if q.id in legal)
            shown = "only what the shooter may pocket: " + (", ".join(names) or "nothing")
        if best_only:
            shown += ", the best pocket of each"
        if min_p > 0:
            shown += f"; chances under {min_p:.0%} left out"
        title = _title(
            f"{position.name}: the best chance of each target", _who(ctx), shown, width=56
        )
    ax = draw_position(position, ax=ax, title=title, legend=False)
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
        placed: list[np.ndarray] = []
        gap = 0.12 * position.board.extent
        for (start, stop), value in reversed(list(zip(segments, p))):
            at = np.asarray(start) + 0.5 * (np.asarray(stop) - np.asarray(start))
            if not math.isfinite(value) or len(placed) >= LABELLED:
                continue
            if any(np.hypot(*(at - q)) < gap for q in placed):
                continue
            placed.append(at)
            ax.text(
                at[0],
                at[1],
                f"{value:.0%}",
                ha="center",
                va="center",
                fontsize=7,
                zorder=Z_LABEL,
                gid="target-label",
                bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.85, linewidth=0),
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
    board_plot(position.board).draw_legend(ax, position, extra=extra, ncol=2)
    return lc
