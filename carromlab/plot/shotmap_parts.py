"""The shot maps' shared pieces: colours, the grid of a tidy map, its best cell, the words
for a cell and its interval, and the warning for a best cell on the grid's edge. The drawings
are :mod:`carromlab.plot.shotmap` (the heat map) and :mod:`carromlab.plot.shotmap_board` (on
the board)."""

from __future__ import annotations

import math
import textwrap
import warnings
from typing import TYPE_CHECKING

import numpy as np

from carromlab.plot.boards import Z_LABEL, Z_PIECE

#: The best cell's or aim's marker on a map (a white star outlined in black).
BEST_STAR = {
    "marker": "*",
    "markersize": 15,
    "color": "white",
    "markeredgecolor": "black",
    "markeredgewidth": 1.0,
    "linestyle": "none",
}

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

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


def _wrap(text: str, width: int = 72) -> str:
    return textwrap.fill(text, width, break_on_hyphens=False)
