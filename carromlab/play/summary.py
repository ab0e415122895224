"""What a run of whole games comes to, for a person to read: who won, by seat, with an
interval; what each seat scored; what the games counted (boards, fouls, truncated strokes
and each game's own columns).

:func:`play_summary` reads the game rows (``games.parquet``: one row per game) and, for
carrom, the board rows (``boards.parquet``), whatever the game: its seats are the game row's
``<column>_<seat>`` columns (``score_0``, ``fouls_1``, ``marker_2``, ...), its counts the
other numeric columns. ``carromlab play`` prints it as tables (or JSON with ``--json``).

- A seat's **wins** are the games whose ``winner`` is that seat, out of every game played
  (draws and unfinished games count in the denominator: the rate is the chance that the seat
  wins a game), with the Wilson interval (:func:`carromlab.analysis.intervals.wilson`). The
  **fair share** is ``1 / seats``: what every seat would win if the seats were equal.
- A seat's other columns (points, fouls, turns, a KOOBA marker's last step) are **means per
  game**; true/false columns (a KOOBA seat's attack used) are shares of the games.
- The game's counts (strokes, boards, fouls, penalties, rings out, ...) are totals with a
  mean per game; the truncated strokes also as a share of the strokes.
- Carrom's boards (``boards.parquet``): the boards each side won, how often the breaker won
  its board (with its interval), the strikers pocketed (each a foul) and the queens covered.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pandas as pd

from carromlab.analysis.intervals import wilson

#: The game row's columns that are no count to total: who, which game, what the run was.
NOT_COUNTS = frozenset({"game", "winner", "winner_entrant", "players", "finished"})
#: Per-seat columns that are identities, not results (KOOBA's lag order: which entrant sat
#: where).
NOT_RESULTS = frozenset({"entrant"})
#: Plain words for a game row's columns (the rest are shown as their names, ``_`` as spaces).
WORDS = {
    "score": "points",
    "marker": "marker's step",
    "attacked": "attack used",
    "strokes": "strokes",
    "shots": "throws",
    "truncated_strokes": "truncated strokes",
    "tie_break": "tie breaks",
    "fouls": "fouls",
    "carrookad": "Carrooka'd decisions",
    "best_break_line": "Carrooka'd: break line valued best",
    "best_counter": "Carrooka'd: counter valued best",
    "best_pass": "Carrooka'd: pass valued best",
}

_SEAT_COLUMN = re.compile(r"^(?P<name>[a-z_]+?)_(?P<seat>\d+)$")


def seat_columns(games: pd.DataFrame) -> dict[str, list[str]]:
    """The game row's per-seat columns, grouped: ``{"score": ["score_0", "score_1"], ...}``
    (a group only where every seat ``0..k`` has its column, in seat order)."""
    groups: dict[str, dict[int, str]] = {}
    for col in games.columns:
        m = _SEAT_COLUMN.match(str(col))
        if m is not None:
            groups.setdefault(m["name"], {})[int(m["seat"])] = str(col)
    return {
        name: [cols[s] for s in range(len(cols))]
        for name, cols in groups.items()
        if sorted(cols) == list(range(len(cols)))
    }


def n_seats(games: pd.DataFrame) -> int:
    """How many seats (sides) the game rows have: KOOBA's ``players``, else the widest group
    of per-seat columns (2 when there is none)."""
    if "players" in games.columns and len(games):
        return int(games["players"].max())
    widths = [len(cols) for cols in seat_columns(games).values()]
    return max(widths, default=2)


def _rate(k: int, n: int, confidence: float) -> dict[str, float]:
    lo, hi = wilson(np.asarray([k]), np.asarray([n]), confidence)
    return {"rate": k / n if n else math.nan, "lo": float(lo[0]), "hi": float(hi[0])}


def _numeric(s: pd.Series) -> bool:
    return bool(pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s))


def _count(name: str, values: pd.Series, games: int) -> dict[str, Any]:
    total = values.astype(float).sum()
    whole = bool(np.all(np.mod(values.astype(float), 1) == 0))
    return {
        "name": name,
        "label": WORDS.get(name, name.replace("_", " ")),
        "total": int(total) if whole else float(total),
        "per_game": float(total / games) if games else math.nan,
    }


def play_summary(
    games: pd.DataFrame,
    boards: pd.DataFrame | None = None,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """A run's results from its game rows (and carrom's board rows): a dict of plain JSON
    data (module docstring).

    Keys: ``games``, ``finished``, ``unfinished``, ``draws`` (finished games without a
    winner), ``seats``, ``fair_share`` (1 / seats), ``confidence``; ``by_seat`` (one dict per
    seat: ``seat``, ``wins``, ``win_rate``, ``win_lo``, ``win_hi`` and the mean per game of
    each per-seat column, by its name: ``score``, ``fouls``, ``turns``, ...); ``per_seat``
    (those names, in order); ``counts`` (one dict per counted column: ``name``, ``label``,
    ``total``, ``per_game``; ``truncated_strokes`` also ``share`` of the strokes); ``boards``
    (carrom only: ``boards``, ``won`` by side, ``breaker_wins`` with ``rate``, ``lo``, ``hi``,
    ``striker_pocketed``, ``queen_covered``)."""
    n = len(games)
    seats = n_seats(games)
    finished = games["finished"].astype(bool) if "finished" in games.columns else None
    winner = games["winner"].astype(int) if "winner" in games.columns else pd.Series([-1] * n)
    n_finished = int(finished.sum()) if finished is not None else n
    draws = (
        int(((winner < 0) & finished).sum()) if finished is not None else int((winner < 0).sum())
    )
    groups = {
        name: cols
        for name, cols in seat_columns(games).items()
        if len(cols) == seats and name not in NOT_RESULTS and _numeric(games[cols[0]])
    }
    by_seat = []
    for s in range(seats):
        wins = int((winner == s).sum())
        r = _rate(wins, n, confidence)
        row: dict[str, Any] = {
            "seat": s,
            "wins": wins,
            "win_rate": r["rate"],
            "win_lo": r["lo"],
            "win_hi": r["hi"],
        }
        for name, cols in groups.items():
            row[name] = float(games[cols[s]].astype(float).mean()) if n else math.nan
        by_seat.append(row)
    in_groups = {c for cols in seat_columns(games).values() for c in cols}
    counts = []
    for col in games.columns:
        name = str(col)
        if name in NOT_COUNTS or name in in_groups or not _numeric(games[col]):
            continue
        counts.append(_count(name, games[col], n))
    strokes = next((c for c in counts if c["name"] in ("strokes", "shots")), None)
    for c in counts:
        if c["name"] == "truncated_strokes" and strokes is not None and strokes["total"]:
            c["share"] = c["total"] / strokes["total"]
    out: dict[str, Any] = {
        "games": n,
        "finished": n_finished,
        "unfinished": n - n_finished,
        "draws": draws,
        "seats": seats,
        "fair_share": 1 / seats,
        "confidence": confidence,
        "by_seat": by_seat,
        "per_seat": list(groups),
        "counts": counts,
    }
    if boards is not None and len(boards):
        out["boards"] = board_summary(boards, confidence)
    return out


def board_summary(boards: pd.DataFrame, confidence: float = 0.95) -> dict[str, Any]:
    """Carrom's board rows in a few numbers: the boards, the boards each side won, the
    breaker's board wins (with the Wilson interval), the strikers pocketed (a foul each) and
    the queens covered."""
    n = len(boards)
    winner = boards["winner"].astype(int)
    out: dict[str, Any] = {
        "boards": n,
        "won": [int((winner == side).sum()) for side in (0, 1)],
    }
    if "breaker_side" in boards.columns:
        k = int((winner == boards["breaker_side"].astype(int)).sum())
        out["breaker_wins"] = {"wins": k, **_rate(k, n, confidence)}
    if "striker_pocketed" in boards.columns:
        out["striker_pocketed"] = int(boards["striker_pocketed"].sum())
    if "queen_covered" in boards.columns:
        out["queen_covered"] = int(boards["queen_covered"].astype(bool).sum())
    return out
