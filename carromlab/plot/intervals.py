"""Estimates with their intervals, one point per arm of a study (the statistics are computed
elsewhere; this only draws)."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes


def draw_intervals(
    table,
    value: str,
    lo: str,
    hi: str,
    label: str = "arm",
    ax: Axes | None = None,
    reference: float | None = None,
    ylabel: str | None = None,
    n: str | None = None,
    title: str | None = None,
    unit: str = "",
):
    """One point per row of ``table`` at ``value`` with an error bar from ``lo`` to ``hi``,
    x labelled by the ``label`` column; ``reference`` draws a dashed horizontal line (e.g.
    0.5 for a fair rate). ``n`` names the column of each arm's sample size (e.g.
    ``"boards"``), written under its label as ``n = 200`` plus ``unit`` (e.g. ``"boards"``);
    ``title`` titles the axes. Returns the errorbar container."""
    import matplotlib.pyplot as plt

    ax = ax or plt.gca()
    v = np.asarray(table[value], float)
    low, high = np.asarray(table[lo], float), np.asarray(table[hi], float)
    x = np.arange(len(v))
    art = ax.errorbar(x, v, yerr=np.vstack([v - low, high - v]), fmt="o", capsize=4)
    if reference is not None:
        ax.axhline(reference, color="grey", lw=0.8, ls="--")
    names = [str(s) for s in table[label]]
    if n is not None:
        sizes = [int(k) for k in table[n]]
        names = [f"{name}\nn = {k:,}{' ' + unit if unit else ''}" for name, k in zip(names, sizes)]
    ax.set_xticks(x, names)
    ax.set_xlim(-0.5, len(v) - 0.5)
    ax.set_ylabel(ylabel or f"{value} (interval {lo}..{hi})")
    if title is not None:
        ax.set_title(title, fontsize=10)
    return art


def save_study_figure(
    table, panels, title: str, path, label: str = "arm", n: str | None = None, unit: str = ""
) -> None:
    """One panel per ``(value, lo, hi, ylabel, reference)`` in ``panels``, drawn with
    :func:`draw_intervals` side by side under ``title`` and saved to ``path``; ``n`` and
    ``unit`` as in :func:`draw_intervals` (each arm's sample size under its label)."""
    import matplotlib.pyplot as plt

    names = [str(v) for v in table[label]] if label in table else []
    longest = max((len(n) for n in names), default=0)
    crowded = len(names) * longest > 48  # the labels would run into each other level
    width = max(4.0, 0.6 * len(names) + 1.5) if crowded else 4.0
    fig, axes = plt.subplots(
        1, len(panels), figsize=(width * len(panels), 3.2 + 0.07 * longest * crowded), squeeze=False
    )
    for ax, (col, lo, hi, ylabel, ref) in zip(axes[0], panels):
        draw_intervals(
            table,
            col,
            lo,
            hi,
            label=label,
            ax=ax,
            reference=ref,
            ylabel=ylabel + " (95 %)",
            n=n,
            unit=unit,
        )
        if crowded:
            ax.tick_params(axis="x", labelrotation=35)
            for t in ax.get_xticklabels():
                t.set_horizontalalignment("right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
