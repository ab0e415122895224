"""Estimates with their intervals, one point per arm of a study (the statistics are computed
elsewhere; this only draws)."""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.axes import Axes

#: The sample-size columns :func:`draw_intervals` looks for when ``n="auto"`` (in order).
SIZE_COLUMNS = ("games", "boards", "decisions")


def _per_row(label: str) -> str:
    """``an arm``, ``an option``, ``a seat``: one row of a table labelled by ``label``."""
    noun = label.replace("_", " ")
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def draw_intervals(
    table,
    value: str,
    lo: str,
    hi: str,
    label: str = "arm",
    ax: Axes | None = None,
    reference: float | str | None = None,
    ylabel: str | None = None,
    n: str | None = "auto",
    title: str | None = None,
    unit: str = "",
    reference_label: str = "fair share",
    per: str | None = "auto",
):
    """One point per row of ``table`` at ``value`` with an error bar from ``lo`` to ``hi``,
    x labelled by the ``label`` column.

    ``reference`` draws a dashed line, named in a small legend as ``reference_label`` with
    its value (a win rate's fair share: ``0.5``, drawn across the axes), or names a column
    of ``table`` holding each arm's own (``"fair"``: 1 / seats, which differs between two-
    and four-player arms), drawn as a dashed step over each arm. ``n`` names the column of
    each arm's sample size (e.g. ``"boards"``), written under its label as ``n = 200`` with
    ``unit`` (default: the column's name) under the axis (``n: boards an arm``), or once
    under the axis when more than two arms share one size (``n = 400 games an arm``);
    ``"auto"`` (default) takes the first of :data:`SIZE_COLUMNS` the table has; None leaves
    it out. ``per`` ends that line: ``"auto"`` (default) says ``an arm`` after the ``label``
    column's name, a string says itself, None nothing (a size shared by every row, not each
    row's own: ``n = 1,200 decisions``). ``title`` titles the axes. Returns the errorbar
    container."""
    import matplotlib.pyplot as plt

    ax = ax or plt.gca()
    v = np.asarray(table[value], float)
    low, high = np.asarray(table[lo], float), np.asarray(table[hi], float)
    x = np.arange(len(v))
    art = ax.errorbar(x, v, yerr=np.vstack([v - low, high - v]), fmt="o", capsize=4)
    if reference is not None:
        style = dict(color="grey", lw=0.9, ls="--", zorder=0.5)
        if isinstance(reference, str):
            fair = np.asarray(table[reference], float)
            edges = np.arange(len(fair) + 1) - 0.5
            ax.stairs(
                fair, edges, baseline=None, label=_reference_words(reference_label, fair), **style
            )
        else:
            ax.axhline(reference, label=f"{reference_label} {reference:g}", **style)
        ax.legend(loc="best", fontsize=7.5, frameon=False, handlelength=1.8)
    if n == "auto":
        n = next((c for c in SIZE_COLUMNS if c in table), None)
    unit = unit or (n or "")  # by default the column's name: games, boards
    names = [str(s) for s in table[label]]
    if n is not None:
        sizes = [int(k) for k in table[n]]
        tail = f" {unit}" if unit else ""
        each = _per_row(label) if per == "auto" else per
        each = f" {each}" if each else ""
        if len(sizes) > 2 and len(set(sizes)) == 1:  # once for all, under the axis
            ax.set_xlabel(f"n = {sizes[0]:,}{tail}{each}", fontsize=8.5)
        else:  # under each arm, the unit once under the axis
            names = [f"{name}\nn = {k:,}" for name, k in zip(names, sizes)]
            if unit:
                ax.set_xlabel(f"n: {unit}{each}", fontsize=8.5)
    ax.set_xticks(x, names)
    ax.set_xlim(-0.5, len(v) - 0.5)
    ax.set_ylabel(ylabel or f"{value} (interval {lo}..{hi})")
    if title is not None:
        ax.set_title(title, fontsize=10)
    return art


def draw_grouped_intervals(
    table,
    value: str,
    lo: str,
    hi: str,
    group: str,
    series: str,
    ax: Axes | None = None,
    reference: float | None = None,
    ylabel: str | None = None,
    n: str | None = None,
    unit: str = "",
    title: str | None = None,
    reference_label: str = "fair share",
):
    """:func:`draw_intervals` for arms that come in groups: one cluster of points per value of
    the ``group`` column (a study's strengths and priors), in the table's order, and within
    it one point per value of ``series`` (the study's arms as written), each series its own
    colour and marker, named in the legend. ``n`` names the sample-size column, written
    under each group's label (``n = 50``, or its range where a group's arms differ);
    ``reference`` a dashed line across. Returns the axes."""
    import matplotlib.pyplot as plt

    ax = ax or plt.gca()
    groups = list(dict.fromkeys(table[group]))
    names = list(dict.fromkeys(table[series]))
    width = 0.8 / max(len(names), 1)
    markers = "osD^vP*X"
    for k, name in enumerate(names):
        rows = table[table[series] == name]
        x = np.array([groups.index(g) for g in rows[group]], float) - 0.4 + width * (k + 0.5)
        v = np.asarray(rows[value], float)
        err = np.vstack([v - np.asarray(rows[lo], float), np.asarray(rows[hi], float) - v])
        ax.errorbar(x, v, yerr=err, fmt=markers[k % len(markers)], capsize=3, ms=5, label=name)
    for i in range(1, len(groups)):
        ax.axvline(i - 0.5, color="0.85", lw=0.8, zorder=0.3)
    if reference is not None:
        ax.axhline(reference, label=f"{reference_label} {reference:g}", color="grey", lw=0.9,
                   ls="--", zorder=0.5)  # fmt: skip
    labels = [str(g) for g in groups]
    if n is not None:
        for i, g in enumerate(groups):
            sizes = [int(k) for k in table.loc[table[group] == g, n]]
            shown = (
                f"{min(sizes):,}" if min(sizes) == max(sizes) else f"{min(sizes):,}-{max(sizes):,}"
            )
            labels[i] += f"\nn = {shown}"
        if unit:
            ax.set_xlabel(f"n: {unit} an arm", fontsize=8.5)
    ax.set_xticks(np.arange(len(groups)), labels)
    ax.set_xlim(-0.5, len(groups) - 0.5)
    # outside the axes, on the right: the clusters fill the width
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7.5, frameon=False,
              handlelength=1.8)  # fmt: skip
    ax.set_ylabel(ylabel or f"{value} (interval {lo}..{hi})")
    if title is not None:
        ax.set_title(title, fontsize=10)
    return ax


def draw_by_strength(
    table,
    x: str,
    value: str,
    lo: str,
    hi: str,
    series: str,
    player: str = "player",
    ax: Axes | None = None,
    x_lo: str | None = None,
    x_hi: str | None = None,
    reference: float | None = None,
    xlabel: str = "player rating (Elo points)",
    ylabel: str | None = None,
    title: str | None = None,
    reference_label: str = "reference",
):
    """An estimate against the players' strength: one line per value of ``series`` (a study's
    arms), its points at ``x`` (a rating, or a rank) with their intervals ``lo``..``hi``, the
    players named under the axis at their ``x`` (and ``x_lo``..``x_hi``, a rating's interval,
    drawn as a grey band along the bottom); the series are nudged apart sideways so that
    their bars do not hide each other. Returns the axes."""
    import matplotlib.pyplot as plt

    ax = ax or plt.gca()
    names = list(dict.fromkeys(table[series]))
    xs = np.asarray(table[x], float)
    span = (np.nanmax(xs) - np.nanmin(xs)) if len(xs) else 1.0
    nudge = 0.012 * (span or 1.0)
    markers = "osD^vP*X"
    for k, name in enumerate(names):
        rows = table[table[series] == name].sort_values(x, kind="stable")
        xv = np.asarray(rows[x], float) + nudge * (k - (len(names) - 1) / 2)
        v = np.asarray(rows[value], float)
        err = np.vstack([v - np.asarray(rows[lo], float), np.asarray(rows[hi], float) - v])
        ax.errorbar(xv, v, yerr=err, fmt=markers[k % len(markers)] + "-", capsize=3, ms=5,
                    lw=1.0, label=name)  # fmt: skip
    players = table.drop_duplicates(player).sort_values(x, kind="stable")
    if x_lo is not None and x_hi is not None:
        for r in players.itertuples():
            a, b = getattr(r, x_lo), getattr(r, x_hi)
            if np.isfinite(a) and np.isfinite(b) and b > a:
                ax.axvspan(a, b, ymin=0.0, ymax=0.03, color="0.75", lw=0)
    if reference is not None:
        ax.axhline(reference, label=f"{reference_label} {reference:g}", color="grey", lw=0.9,
                   ls="--", zorder=0.5)  # fmt: skip
    ticks = np.asarray(players[x], float)
    ax.set_xticks(ticks, [str(p) for p in players[player]], rotation=30, ha="right",
                  fontsize=8)  # fmt: skip
    pad = 0.08 * (span or 1.0)
    ax.set_xlim(np.nanmin(ticks) - pad, np.nanmax(ticks) + pad)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7.5, frameon=False,
              handlelength=1.8)  # fmt: skip
    ax.set_ylabel(ylabel or value)
    if title is not None:
        ax.set_title(title, fontsize=10)
    return ax


def _reference_words(words: str, fair: np.ndarray) -> str:
    """A per-arm reference's legend label: its value where every arm shares one, else its
    range as fractions (``1/4 to 1/2``: the fair shares of 2 to 4 seats)."""
    values = np.unique(np.round(fair, 6))
    if values.size == 1:
        return f"{words} {values[0]:.3g}"
    as_seats = [1 / f for f in (values.min(), values.max())]
    if all(abs(k - round(k)) < 1e-3 for k in as_seats):
        return f"{words} (1 / seats: 1/{round(as_seats[0])} to 1/{round(as_seats[1])})"
    return f"{words} ({values.min():.3g} to {values.max():.3g})"


def save_study_figure(
    table,
    panels,
    title: str,
    path,
    label: str = "arm",
    n: str | None = "auto",
    unit: str = "",
    per: str | None = "auto",
) -> None:
    """One panel per ``(value, lo, hi, ylabel, reference)`` in ``panels``, drawn with
    :func:`draw_intervals` side by side under ``title`` and saved to ``path``; ``n``,
    ``unit`` and ``per`` as in :func:`draw_intervals` (each arm's sample size under its
    label: by default its games, boards or decisions), ``reference`` a number or a column
    (a win rate's fair share, 0.5 or each arm's 1 / seats)."""
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
            per=per,
        )
        if crowded:
            ax.tick_params(axis="x", labelrotation=35)
            for t in ax.get_xticklabels():
                t.set_horizontalalignment("right")
    # wrapped to the figure's width (about 13 characters an inch at 10 points)
    fig.suptitle(textwrap.fill(title, int(13 * width * len(panels))), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
