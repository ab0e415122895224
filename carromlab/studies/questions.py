"""What a study asks of an arm's games, and how two arms compare.

A question is a short string, estimated from the arm's game rows (``games``: one row a game,
the game's own columns) or board rows (``boards``: carrom's boards):

- ``first-wins``: the share of games the first seat (seat 0: ICF's first breaker, Carrooka's
  first player) wins; a draw or an unfinished game counts as not won (Wilson interval);
  ``first-wins:decided``: the share of the games with a winner (draws and unfinished games
  left out, as the Carrooka studies count);
- ``seat-wins:K`` (``seat-wins:K:decided``): the same for seat ``K``;
- ``draws``: the share of games without a winner;
- ``mean:COLUMN``: the mean of a game row's number per game (t interval), e.g.
  ``mean:strokes`` (strokes a game: turns to finish), ``mean:boards``, ``mean:score_0``;
  ``mean:COLUMN/COLUMN``: per game, the first over the second (``mean:score_0/strokes``),
  games where the second is 0 left out;
- ``ratio:COLUMN/COLUMN``: the first column's sum over the second's, over all the games
  (``ratio:points_after_foul/turns_after_foul``: points of a turn after a foul, each turn
  counted once), with the delta method's interval: each game's linearised value
  ``R + (a - R b) / mean(b)`` (mean ``R``) is the sample a t interval and a comparison read;
- ``share:COLUMN``: the share of games whose true/false (or 0/1) column is true;
- ``margin``: the winner's margin, ``|score_0 - score_1|`` of the finished two-seat games
  (mean, t interval);
- ``winner-mean:COLUMN``: the mean of the winner's own ``COLUMN_<seat>`` over the games with
  a winner (``winner-mean:turns``: the winner's turns, Ring Pegs' turns to finish);
- ``breaker-wins``: the share of boards the breaking side wins (carrom's board rows);
- ``board-mean:COLUMN``, ``board-share:COLUMN``, ``board-ratio:COLUMN/COLUMN``: as
  ``mean:``, ``share:`` and ``ratio:``, per board.

Two arms compare by the difference of their estimates (arm minus baseline) with an
interval. Arms played on the same seeds (a study's arms: game ``i`` of every arm is drawn
from the study's seed and ``i``) are compared **paired**, game by game over the games both
have (``paired=True``): for shares Newcombe's hybrid score interval for paired proportions
(his 1998 method 10: the two Wilson intervals joined with the pairs' correlation), for means
the t interval of the per-game differences; the difference also counts the pairs and how
many of them differ in the question's value (``changed``: 0 when the arms agree game for
game). Unpaired (independent arms): Newcombe's hybrid score interval for two independent
proportions, Welch's t interval for means. A verdict reads the difference's interval: it
"differs" when the interval excludes 0, else "no difference found" at that size.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from carromlab.analysis.intervals import rate, sample_mean
from carromlab.errors import CarromlabError

KINDS = (
    "first-wins[:decided]",
    "seat-wins:K[:decided]",
    "draws",
    "mean:COLUMN",
    "ratio:COLUMN/COLUMN",
    "share:COLUMN",
    "margin",
    "winner-mean:COLUMN",
    "breaker-wins",
    "board-mean:COLUMN",
    "board-share:COLUMN",
    "board-ratio:COLUMN/COLUMN",
)
_COLUMN = r"[a-z][a-z0-9_]*"
_FORMS = {
    "first-wins": re.compile(r"^first-wins(?P<decided>:decided)?$"),
    "seat-wins": re.compile(r"^seat-wins:(?P<seat>\d{1,2})(?P<decided>:decided)?$"),
    "draws": re.compile(r"^draws$"),
    "mean": re.compile(rf"^mean:(?P<col>{_COLUMN})(/(?P<per>{_COLUMN}))?$"),
    "ratio": re.compile(rf"^ratio:(?P<col>{_COLUMN})/(?P<per>{_COLUMN})$"),
    "share": re.compile(rf"^share:(?P<col>{_COLUMN})$"),
    "margin": re.compile(r"^margin$"),
    "winner-mean": re.compile(rf"^winner-mean:(?P<col>{_COLUMN})$"),
    "breaker-wins": re.compile(r"^breaker-wins$"),
    "board-mean": re.compile(rf"^board-mean:(?P<col>{_COLUMN})(/(?P<per>{_COLUMN}))?$"),
    "board-share": re.compile(rf"^board-share:(?P<col>{_COLUMN})$"),
    "board-ratio": re.compile(rf"^board-ratio:(?P<col>{_COLUMN})/(?P<per>{_COLUMN})$"),
}
_MEANS = ("mean", "board-mean", "margin", "winner-mean", "ratio", "board-ratio")


@dataclass(frozen=True)
class Question:
    """A parsed question: ``kind`` (a key of the forms), ``column`` / ``per`` (mean and
    share), ``seat`` (seat-wins); ``share``: a proportion (else a mean)."""

    text: str
    kind: str
    column: str | None = None
    per: str | None = None
    seat: int | None = None
    decided: bool = False

    @property
    def share(self) -> bool:
        return self.kind not in _MEANS

    @property
    def rows(self) -> str:
        """``"games"`` or ``"boards"``: the rows it is estimated from."""
        on_boards = ("breaker-wins", "board-mean", "board-share", "board-ratio")
        return "boards" if self.kind in on_boards else "games"

    def words(self) -> str:
        """The question in words (a report's heading)."""
        tail = " (of the games with a winner)" if self.decided else ""
        if self.kind == "first-wins":
            return f"the first seat's share of the games won{tail}"
        if self.kind == "seat-wins":
            return f"seat {self.seat}'s share of the games won{tail}"
        if self.kind == "draws":
            return "the share of games without a winner"
        if self.kind == "breaker-wins":
            return "the breaking side's share of the boards won"
        what = "a board" if self.rows == "boards" else "a game"
        if self.kind == "margin":
            return "the winner's margin (points), mean per finished game"
        if self.kind == "winner-mean":
            return f"the winner's {(self.column or '').replace('_', ' ')}, mean per game won"
        if self.kind in ("ratio", "board-ratio"):
            col = f"{self.column} per {self.per}".replace("_", " ")
            return f"{col}, over all the {what.split()[1]}s (sum over sum)"
        if self.kind in ("mean", "board-mean"):
            col = self.column if self.per is None else f"{self.column} per {self.per}"
            return f"{col.replace('_', ' ')}, mean per {what.split()[1]}"
        return f"the share of {what.split()[1]}s with {self.column}"


def parse_question(text: str) -> Question:
    """A question from its text (the module's docstring); one line naming the forms if it is
    none of them."""
    for kind, form in _FORMS.items():
        m = form.match(text)
        if m:
            g = m.groupdict()
            seat = int(g["seat"]) if g.get("seat") is not None else None
            return Question(text, kind, g.get("col"), g.get("per"), seat, bool(g.get("decided")))
    raise CarromlabError(f"unknown question; use one of {', '.join(KINDS)}")


@dataclass(frozen=True)
class Estimate:
    """An arm's answer: ``value`` in [``lo``, ``hi``] from ``n`` rows (``successes`` for a
    share); ``samples``: the per-row values (a share's 0 or 1; a mean's value; a ratio's
    linearised value), for comparing; ``keys``: each sample's row (its game, or
    ``game * BOARD_KEY + board`` for board rows), for comparing paired."""

    value: float
    lo: float
    hi: float
    n: int
    successes: int | None = None
    samples: np.ndarray | None = None
    keys: np.ndarray | None = None

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2


def _column(df: pd.DataFrame, name: str, q: Question) -> pd.Series:
    if name not in df.columns:
        have = ", ".join(c for c in df.columns if c != "game") or "none"
        raise CarromlabError(f"question {q.text!r}: the {q.rows} rows have no column {name!r} "
                             f"(they have: {have})")  # fmt: skip
    return df[name]


#: Board rows are keyed ``game * BOARD_KEY + board`` (a game has fewer boards than this).
BOARD_KEY = 1000


def _keys(df: pd.DataFrame, q: Question) -> np.ndarray:
    """Each row's key (:class:`Estimate`): its game, and on board rows its board too; -1 for
    rows without a game column (they never pair)."""
    if "game" not in df.columns:
        return np.full(len(df), -1, np.int64)
    game = pd.to_numeric(df["game"], errors="coerce").fillna(-1).to_numpy(np.int64)
    if q.rows == "boards" and "board" in df.columns:
        board = pd.to_numeric(df["board"], errors="coerce").fillna(0).to_numpy(np.int64)
        return game * BOARD_KEY + board
    return game


def answer(q: Question, games: pd.DataFrame, boards: pd.DataFrame, confidence: float) -> Estimate:
    """``q`` estimated from an arm's rows."""
    df = boards if q.rows == "boards" else games
    n = len(df)
    if n == 0:  # an arm not played yet: no estimate, whatever the question
        empty = np.array([], float)
        return Estimate(math.nan, math.nan, math.nan, 0, successes=0, samples=empty,
                        keys=np.array([], np.int64))  # fmt: skip
    keys = _keys(df, q)
    if q.kind in ("first-wins", "seat-wins", "draws"):
        winner = pd.to_numeric(_column(df, "winner", q), errors="coerce").fillna(-1).astype(int)
        want = -1 if q.kind == "draws" else (q.seat if q.kind == "seat-wins" else 0)
        hit = (winner == want).to_numpy()
        counted = (winner >= 0).to_numpy() if q.decided else np.ones(n, bool)
        return _share(hit[counted], keys[counted], confidence)
    if q.kind == "breaker-wins":
        hit = (_column(df, "winner", q) == _column(df, "breaker_side", q)).to_numpy()
        return _share(hit, keys, confidence)
    if q.kind in ("share", "board-share"):
        col = _column(df, q.column or "", q)
        return _share(col.astype(str).str.lower().isin(("true", "1", "1.0")).to_numpy(), keys,
                      confidence)  # fmt: skip
    if q.kind == "margin":
        done = _column(df, "finished", q).astype(str).str.lower().isin(("true", "1")).to_numpy()
        x = (pd.to_numeric(df["score_0"]) - pd.to_numeric(df["score_1"])).abs().to_numpy(float)
        x, keys = x[done], keys[done]
    elif q.kind in ("ratio", "board-ratio"):
        return _ratio(
            pd.to_numeric(_column(df, q.column or "", q), errors="coerce").to_numpy(float),
            pd.to_numeric(_column(df, q.per or "", q), errors="coerce").to_numpy(float),
            keys,
            confidence,
        )
    elif q.kind == "winner-mean":
        winner = pd.to_numeric(_column(df, "winner", q), errors="coerce").fillna(-1).astype(int)
        seats = sorted({int(w) for w in winner if w >= 0})
        for seat in seats:
            _column(df, f"{q.column}_{seat}", q)
        won = (winner >= 0).to_numpy()
        x = np.array([float(df[f"{q.column}_{w}"].iloc[i]) if w >= 0 else math.nan
                      for i, w in enumerate(winner)])  # fmt: skip
        x, keys = x[won], keys[won]
    else:
        x = pd.to_numeric(_column(df, q.column or "", q), errors="coerce").to_numpy(float)
    if q.per is not None:
        per = pd.to_numeric(_column(df, q.per, q), errors="coerce").to_numpy(float)
        keep = per != 0
        x, keys = x[keep] / per[keep], keys[keep]
    finite = np.isfinite(x)
    x, keys = x[finite], keys[finite]
    if len(x) == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, samples=x, keys=keys)
    return _mean(x, keys, confidence)


def _mean(x: np.ndarray, keys: np.ndarray, confidence: float, value: float | None = None):
    """The t interval of the samples ``x`` (at least one: one alone has no interval), around
    their mean or ``value``."""
    m, lo, hi = sample_mean(x, confidence)
    if len(x) == 1:
        lo, hi = -math.inf, math.inf
    return Estimate(m if value is None else value, lo, hi, len(x), samples=x, keys=keys)


def _ratio(a: np.ndarray, b: np.ndarray, keys: np.ndarray, confidence: float) -> Estimate:
    """sum(a) / sum(b) over the rows (both finite), with the delta method's t interval: the
    rows' linearised values ``R + (a - R b) / mean(b)`` have mean ``R`` and are the samples a
    comparison reads."""
    keep = np.isfinite(a) & np.isfinite(b)
    a, b, keys = a[keep], b[keep], keys[keep]
    if len(a) == 0 or b.sum() == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, samples=np.array([], float), keys=keys)
    r = float(a.sum() / b.sum())
    return _mean(r + (a - r * b) / b.mean(), keys, confidence, value=r)


def _share(hit: np.ndarray, keys: np.ndarray, confidence: float) -> Estimate:
    """The share of ``hit`` (one bool a row) with its Wilson interval."""
    n, k = len(hit), int(np.sum(hit))
    x = np.asarray(hit, float)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, successes=0, samples=x, keys=keys)
    p, lo, hi = rate(k, n, confidence)
    return Estimate(p, lo, hi, n, successes=k, samples=x, keys=keys)


@dataclass(frozen=True)
class Difference:
    """Arm minus baseline, with its interval; compared paired (:func:`compare`), ``pairs``
    games (or boards) both arms have and ``changed``: how many of them differ in the
    question's value (``pairs`` 0: compared as independent arms)."""

    value: float
    lo: float
    hi: float
    pairs: int = 0
    changed: int = 0

    @property
    def differs(self) -> bool:
        return bool(self.lo > 0 or self.hi < 0)

    @property
    def sign(self) -> int:
        """+1 (the arm is higher), -1 (lower), 0 (no difference found)."""
        return 0 if not self.differs else (1 if self.value > 0 else -1)

    @property
    def identical(self) -> bool:
        """Compared paired, and every pair gave the same value."""
        return self.pairs > 0 and self.changed == 0


NOT_PLAYED = Difference(math.nan, math.nan, math.nan)


def compare(
    q: Question, arm: Estimate, base: Estimate, confidence: float, paired: bool = False
) -> Difference:
    """``arm`` minus ``base``: paired over the rows both have (``paired``; the module's
    docstring) where each has keys and at least two rows pair, else as independent arms
    (Newcombe's interval for shares, Welch's for means)."""
    if not (arm.n and base.n) or math.isnan(arm.value - base.value):
        return NOT_PLAYED
    if paired and arm.keys is not None and base.keys is not None:
        common, ia, ib = np.intersect1d(arm.keys, base.keys, return_indices=True)
        if len(common) >= 2 and arm.samples is not None and base.samples is not None:
            return _paired(q, arm.samples[ia], base.samples[ib], confidence)
    d = arm.value - base.value
    if q.share:
        lo = d - math.sqrt((arm.value - arm.lo) ** 2 + (base.hi - base.value) ** 2)
        hi = d + math.sqrt((arm.hi - arm.value) ** 2 + (base.value - base.lo) ** 2)
        return Difference(d, lo, hi)
    a, b = arm.samples, base.samples
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return Difference(d, -math.inf, math.inf)
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return Difference(d, d, d)
    dof = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = float(special.stdtrit(dof, 0.5 + confidence / 2)) * se
    return Difference(d, d - half, d + half)


def _paired(q: Question, x: np.ndarray, y: np.ndarray, confidence: float) -> Difference:
    """``x`` minus ``y``, row by row (the same games in both arms)."""
    n = len(x)
    changed = int(np.sum(~np.isclose(x, y, rtol=0.0, atol=1e-12)))
    if changed == 0:
        return Difference(0.0, 0.0, 0.0, n, 0)
    if q.share:
        lo, hi = paired_share_interval(x.astype(bool), y.astype(bool), confidence)
        d = float(x.mean() - y.mean())
        return Difference(d, lo, hi, n, changed)
    d, lo, hi = sample_mean(x - y, confidence)
    return Difference(float(d), float(lo), float(hi), n, changed)


def paired_share_interval(x: np.ndarray, y: np.ndarray, confidence: float = 0.95):
    """The interval of ``mean(x) - mean(y)`` for paired bools (Newcombe 1998, "Improved
    confidence intervals for the difference between binomial proportions based on paired
    data", Stat. Med. 17:2635, method 10): each share's Wilson interval, joined with the
    pairs' phi correlation (0 where a margin is empty)."""
    n = len(x)
    a = int(np.sum(x & y))
    b = int(np.sum(x & ~y))
    c = int(np.sum(~x & y))
    d = n - a - b - c
    p1, l1, u1 = rate(a + b, n, confidence)
    p2, l2, u2 = rate(a + c, n, confidence)
    den = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(den) if den > 0 else 0.0
    delta = p1 - p2
    lo = delta - math.sqrt(
        max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0)
    )
    hi = delta + math.sqrt(
        max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0)
    )
    return float(lo), float(hi)


__all__ = [
    "BOARD_KEY",
    "KINDS",
    "NOT_PLAYED",
    "Difference",
    "Estimate",
    "Question",
    "answer",
    "compare",
    "paired_share_interval",
    "parse_question",
]
