"""Drawing shot maps: heat maps over the shot grid, aim fans on the board, target maps.

A *shot map* is a tidy :class:`pandas.DataFrame`, one row per grid cell, with the grid columns
``placement`` (m, the striker's x on the South baseline), ``angle`` (degrees, counter-clockwise
from +x) and ``speed`` (m/s), the number of shots ``n`` in the cell, and value columns such as
``p_continue``, ``p_continue_lo``, ``p_continue_hi``, ``p_foul``, ``points``, ``points_lo``,
``points_hi``. The statistics are computed elsewhere; this module only draws them.

Colour scales are **fixed** by default so that maps of different positions compare at a glance
(see :func:`default_norm`):

- probabilities (``p``, ``p_*`` and their ``_lo``/``_hi`` bounds): ``Normalize(0, 1)``,
  colour map ``viridis``;
- points-like values (``points*``, ``ev*``, ``score*``, ``gain*``, ``margin*``): the symmetric
  ``Normalize(-POINTS_LIMIT, POINTS_LIMIT)`` (±3 points), centred on 0, with the diverging
  colour map ``RdBu`` (red: losing points, blue: gaining); values beyond saturate, and the
  colour bar shows an arrow end;
- any other column: ``Normalize`` over the data's range (not comparable between maps).

Every function takes ``ax=`` (a new figure when None) and returns what it drew; nothing here
calls ``plt.show()``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import Normalize

from carromlab.plot.boards import Z_PIECE, draw_position

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.collections import QuadMesh
    from matplotlib.colors import Colormap

    from carromlab.position import Position

#: Half-range of the fixed colour scale of points-like values (points per shot).
POINTS_LIMIT = 3.0
#: Default colour maps: probabilities (and other one-signed values), signed values.
PROB_CMAP = "viridis"
SIGNED_CMAP = "RdBu"
#: Drawing order on the board: aim lines and target lines under the pieces, over the lines.
Z_RAYS = Z_PIECE - 1.0

_PROB_BOUNDS = ("_lo", "_hi", "_se")
_SIGNED_PREFIXES = ("points", "ev", "score", "gain", "margin")
_AXIS_LABELS = {
    "placement": "striker placement x (m)",
    "angle": "aim angle (° from +x)",
    "speed": "speed (m/s)",
    "n": "shots in cell",
}


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


def default_norm(value: str, data=None) -> Normalize:
    """The default colour scale of column ``value``: fixed ``Normalize(0, 1)`` for
    probabilities, fixed ``Normalize(-POINTS_LIMIT, POINTS_LIMIT)`` for points-like values,
    else the range of ``data`` (``Normalize(0, 1)`` when there is no finite data)."""
    kind = value_kind(value)
    if kind == "probability":
        return Normalize(0.0, 1.0)
    if kind == "signed":
        return Normalize(-POINTS_LIMIT, POINTS_LIMIT)
    finite = np.asarray(data, dtype=float) if data is not None else np.array([])
    finite = finite[np.isfinite(finite)]
    if finite.size == 0:
        return Normalize(0.0, 1.0)
    lo, hi = float(finite.min()), float(finite.max())
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return Normalize(lo, hi)


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


def _norm_cmap(value: str, data, norm: Normalize | None, cmap) -> tuple[Normalize, Colormap]:
    import matplotlib as mpl

    norm = default_norm(value, data) if norm is None else norm
    cmap = default_cmap(value) if cmap is None else cmap
    return norm, mpl.colormaps[cmap] if isinstance(cmap, str) else cmap


def _extend(norm: Normalize, data) -> str:
    """Colour bar ``extend`` for values beyond the norm's range."""
    finite = np.asarray(data, dtype=float)
    finite = finite[np.isfinite(finite)]
    if finite.size == 0 or norm.vmin is None or norm.vmax is None:
        return "neither"
    low, high = finite.min() < norm.vmin, finite.max() > norm.vmax
    return {(False, False): "neither", (True, False): "min", (False, True): "max"}.get(
        (low, high), "both"
    )


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
) -> QuadMesh:
    """Heat map of ``value`` over two grid columns (any two of placement, angle, speed).

    One cell per grid point (``pcolormesh`` with edges half-way between the cell centres, so
    uneven grids draw right); cells with ``n < min_n`` (or NaN) are masked, blank. The colour
    scale is fixed by default (:func:`default_norm`: probabilities 0..1, points ±3), so maps
    compare; ``cmap`` defaults to viridis, or the diverging RdBu for points-like values.
    ``mark_best`` puts a star (``gid="best"``) on the highest unmasked cell. Returns the
    QuadMesh; its array is the masked [Y, X] grid.
    """
    xs, ys, z = shotmap_grid(df, value, x, y, min_n)
    norm, cmap = _norm_cmap(value, z.compressed(), norm, cmap)
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6.4, 4.8))
    mesh = ax.pcolormesh(_edges(xs), _edges(ys), z, norm=norm, cmap=cmap, shading="flat")
    ax.set_xlabel(_AXIS_LABELS.get(x, x))
    ax.set_ylabel(_AXIS_LABELS.get(y, y))
    if colorbar:
        ax.figure.colorbar(
            mesh, ax=ax, label=value_label(value), extend=_extend(norm, z.compressed())
        )
    if mark_best and z.count():
        iy, ix = np.unravel_index(np.ma.argmax(z), z.shape)
        ax.plot(
            xs[ix],
            ys[iy],
            marker="*",
            markersize=15,
            color="white",
            markeredgecolor="black",
            markeredgewidth=1.0,
            linestyle="none",
            gid="best",
            label=f"best: {value_label(value)} = {z[iy, ix]:.3g}",
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
) -> LineCollection:
    """The board and ``position``'s pieces with a fan of aim lines: for each (placement,
    angle) cell at one ``speed``, a ray of ``ray_length`` metres from the striker's spot
    (placement, ``baseline_y``) - or from the cell's origin (``x0``, ``y0``) when the map has
    those columns (Carrooka) - in the aim direction, coloured by ``value``.

    ``speed`` defaults to the map's only speed, else the speed of the best cell (named in
    the title). ``baseline_y`` defaults to the middle of the South baselines (of an ICF board
    when the position's board has none). Cells with ``n < min_n`` or a NaN value are left out;
    better cells are drawn wider and over worse ones, the best ray widest. Colour scale as
    :func:`draw_shotmap`. Returns the LineCollection (one segment per drawn cell, in drawing
    order: increasing value).
    """
    speed = _pick_speed(df, value, speed, min_n)
    cells = df if speed is None else df[np.isclose(df["speed"].astype(float), speed)]
    ok = np.isfinite(cells[value].to_numpy(dtype=float))
    if "n" in cells.columns:
        ok &= cells["n"].to_numpy() >= min_n
    cells = cells[ok].sort_values(value, kind="stable")
    y0 = _baseline_y(position) if baseline_y is None else float(baseline_y)
    if "x0" in cells.columns:  # cells that carry their origin (Carrooka)
        start = cells[["x0", "y0"]].to_numpy(dtype=float)
    else:
        px = cells["placement"].to_numpy(dtype=float)
        start = np.column_stack([px, np.full_like(px, y0)])
    a = np.radians(cells["angle"].to_numpy(dtype=float))
    end = start + ray_length * np.column_stack([np.cos(a), np.sin(a)])
    vals = cells[value].to_numpy(dtype=float)
    norm, cmap = _norm_cmap(value, vals, norm, cmap)

    title = f"{position.name}: {value_label(value)}"
    if speed is not None:
        title += f" at {speed:g} m/s"
    ax = draw_position(position, ax=ax, title=title)
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
            lc, ax=ax, shrink=0.8, label=value_label(value), extend=_extend(norm, vals)
        )
    return lc


def draw_target_map(
    df: pd.DataFrame,
    position: Position,
    ax: Axes | None = None,
    norm: Normalize | None = None,
    cmap: str | Colormap = "magma",
    colorbar: bool = True,
) -> LineCollection:
    """A target map on the board: for each row (``piece``, ``pocket``, ``p_best``) a line from
        the piece to the pocket (a capture name such as ``"pocket.NE"``), coloured and widened by
        ``p_best`` (the best probability any shot achieves to put that piece in that pocket).

        ``norm`` defaults to the fixed ``Normalize(0, 1)``; lines have a dark outline so the light
        end of ``magma`` reads on the board; higher values are drawn on top. Rows with a NaN
        ``p_best`` are drawn thinnest, in the colour map's "bad" colour (transparent for magma:
    only the outline shows). Returns the
        LineCollection, one segment per row (in drawing order: increasing ``p_best``)."""
    for col in ("piece", "pocket", "p_best"):
        if col not in df.columns:
            raise ValueError(f"target map has no column {col!r}; columns: {list(df.columns)}")
    rows = df.sort_values("p_best", kind="stable", na_position="first")
    captures = {c.name: c for c in position.board.layout.captures}
    segments = []
    for pid, pocket in zip(rows["piece"], rows["pocket"]):
        try:
            piece = position.by_id(pid)
        except KeyError:
            raise ValueError(f"target map names piece {pid!r}, not in {position.name!r}") from None
        if pocket not in captures:
            raise ValueError(f"target map names capture {pocket!r}; known: {list(captures)}")
        cap = captures[pocket]
        segments.append([(piece.x, piece.y), (cap.x, cap.y)])
    p = rows["p_best"].to_numpy(dtype=float)
    norm = Normalize(0.0, 1.0) if norm is None else norm
    import matplotlib as mpl

    cmap = mpl.colormaps[cmap] if isinstance(cmap, str) else cmap
    ax = draw_position(position, ax=ax, title=f"{position.name}: best chance per target")
    scaled = np.clip(np.nan_to_num(np.asarray(norm(p), dtype=float), nan=0.0), 0.0, 1.0)
    widths = 0.6 + 4.4 * scaled
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
    if colorbar:
        ax.figure.colorbar(lc, ax=ax, shrink=0.8, label="P(best shot pockets it there)")
    return lc
