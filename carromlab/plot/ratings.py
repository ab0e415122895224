"""A strength ladder: one row per player, its rating as a point with a horizontal interval bar.

Takes a plain table (the statistics are computed elsewhere, e.g. by
``carromlab.analysis.ratings.fit_bradley_terry``; this layer does not import the analysis one):
columns ``player``, ``rating``, ``lo`` and ``hi``, ratings in Elo points.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.container import ErrorbarContainer


def plot_ratings(
    table: pd.DataFrame, ax: Axes | None = None, title: str | None = None, n: str | None = None
) -> ErrorbarContainer:
    """Draw the ratings of ``table`` as points with horizontal bars from ``lo`` to ``hi``, one
    row per player with the strongest on top, and a dashed vertical line at 0 (the anchor, or
    the mean rating). ``n`` names a column of each player's sample size (e.g. ``"games"``),
    written after its name. Returns the errorbar container (one point per player)."""
    import matplotlib.pyplot as plt

    ax = ax or plt.gca()
    t = table.sort_values("rating", ascending=False, kind="stable")
    r = np.asarray(t["rating"], float)
    low, high = np.asarray(t["lo"], float), np.asarray(t["hi"], float)
    y = np.arange(len(r))[::-1]  # the first (strongest) row at the top
    ax.axvline(0.0, color="grey", lw=0.8, ls="--")
    art = ax.errorbar(r, y, xerr=np.vstack([r - low, high - r]), fmt="o", capsize=4)
    names = [str(p) for p in t["player"]]
    if n is not None:
        names = [f"{name} ({int(k):,} {n})" for name, k in zip(names, t[n])]
    ax.set_yticks(y, names)
    ax.set_ylim(-0.5, len(r) - 0.5)
    ax.set_xlabel("rating (Elo points)")
    if title is not None:
        ax.set_title(title)
    return art


__all__ = ["plot_ratings"]
