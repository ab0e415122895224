"""Shots that hit the kernel's event cap (``truncated``): counted from any result table, and
the one line that reports them.

A truncated shot stopped at the cap (``max_events``) with pieces still moving: it is counted
in every result, never dropped, and its outcome is incomplete. :func:`truncation` counts them
in the tables the analysis returns (an estimate's tidy table, a shot map's, a best-shot
search's or a sweep's cells, a game log's rows) and :meth:`Truncation.message` is the line
that reports them, written once here for every command.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Truncation:
    """``truncated`` of ``total`` shots (or strokes: ``unit``) hit the event cap."""

    truncated: int
    total: int
    unit: str = "shots"

    @property
    def fraction(self) -> float:
        return self.truncated / self.total if self.total else 0.0

    def __add__(self, other: Truncation) -> Truncation:
        return Truncation(self.truncated + other.truncated, self.total + other.total, self.unit)

    def counts(self) -> str:
        """``16 of 2,000 shots (0.80 %)``."""
        return f"{self.truncated:,} of {self.total:,} {self.unit} ({100 * self.fraction:.2f} %)"

    def message(self) -> str:
        """The one line that reports them (a command prefixes ``warning:`` or ``error:``)."""
        return f"{self.counts()} hit the event cap (truncated); their outcomes are incomplete"

    def as_dict(self) -> dict:
        """For a summary: ``truncated`` (the count) and ``p_truncated`` (the fraction)."""
        return {"truncated": int(self.truncated), "p_truncated": round(self.fraction, 6)}


def truncation(df: pd.DataFrame) -> Truncation | None:
    """The truncated shots of a result table, or ``None`` where it records none (KOOBA's
    throws have no event cap).

    - an estimate's tidy table (a ``quantity`` column): its ``truncated`` row's successes of n;
    - a table of cells (shot map, best shots, sweep): ``p_truncated`` times ``n`` summed over
      the cells that ran (``n > 0``);
    - a game log's games: ``truncated_strokes`` of ``strokes``.
    """
    if "quantity" in df.columns:
        rows = df[df["quantity"] == "truncated"]
        if not len(rows):
            return None
        return Truncation(int(rows["successes"].sum()), int(rows["n"].sum()))
    if "p_truncated" in df.columns and "n" in df.columns:
        ran = df[df["n"] > 0]
        n = ran["n"].to_numpy(float)
        k = np.rint(ran["p_truncated"].to_numpy(float) * n)
        return Truncation(int(k.sum()), int(n.sum()))
    if "truncated_strokes" in df.columns and "strokes" in df.columns:
        return Truncation(
            int(df["truncated_strokes"].sum()), int(df["strokes"].sum()), unit="strokes"
        )
    return None


def search_truncation(df: pd.DataFrame) -> Truncation | None:
    """The truncated shots of a best-shot search's grid and refinements (``best_shots``
    records them in its configuration; its rows count only the reported shots')."""
    config = df.attrs.get("config", {})
    if "search_shots" not in config:
        return None
    return Truncation(int(config["search_truncated"]), int(config["search_shots"]))


def summary_truncation(summary: dict) -> Truncation | None:
    """The truncated shots of a summary that holds ``truncated`` of ``shots`` (a shot map's,
    :func:`~carromlab.analysis.shotmap.map_summary`), or ``None``."""
    if "truncated" not in summary:
        return None
    return Truncation(int(summary["truncated"]), int(summary["shots"]))
