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
interval: for shares Newcombe's hybrid score interval (from the two Wilson intervals), for
means Welch's t interval. A verdict reads the difference's interval: it "differs" when the
interval excludes 0, else "no difference found" at that size.
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
    share); ``samples``: the per-row values (a mean's, for comparing)."""

    value: float
    lo: float
    hi: float
    n: int
    successes: int | None = None
    samples: np.ndarray | None = None

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2


def _column(df: pd.DataFrame, name: str, q: Question) -> pd.Series:
    if name not in df.columns:
        have = ", ".join(c for c in df.columns if c != "game") or "none"
        raise CarromlabError(f"question {q.text!r}: the {q.rows} rows have no column {name!r} "
                             f"(they have: {have})")  # fmt: skip
    return df[name]


def answer(q: Question, games: pd.DataFrame, boards: pd.DataFrame, confidence: float) -> Estimate:
    """``q`` estimated from an arm's rows."""
    df = boards if q.rows == "boards" else games
    n = len(df)
    if n == 0:  # an arm not played yet: no estimate, whatever the question
        empty = np.array([], float)
        return Estimate(math.nan, math.nan, math.nan, 0, successes=0, samples=empty)
    if q.kind in ("first-wins", "seat-wins", "draws"):
        winner = pd.to_numeric(_column(df, "winner", q), errors="coerce").fillna(-1).astype(int)
        want = -1 if q.kind == "draws" else (q.seat if q.kind == "seat-wins" else 0)
        k = int((winner == want).sum())
        if q.decided:
            n = int((winner >= 0).sum())
        return _share(k, n, confidence)
    if q.kind == "breaker-wins":
        k = int((_column(df, "winner", q) == _column(df, "breaker_side", q)).sum())
        return _share(k, n, confidence)
    if q.kind in ("share", "board-share"):
        col = _column(df, q.column or "", q)
        k = int(col.astype(str).str.lower().isin(("true", "1", "1.0")).sum())
        return _share(k, n, confidence)
    if q.kind == "margin":
        done = df[_column(df, "finished", q).astype(str).str.lower().isin(("true", "1"))]
        x = (pd.to_numeric(done["score_0"]) - pd.to_numeric(done["score_1"])).abs().to_numpy(float)
    elif q.kind in ("ratio", "board-ratio"):
        return _ratio(
            pd.to_numeric(_column(df, q.column or "", q), errors="coerce").to_numpy(float),
            pd.to_numeric(_column(df, q.per or "", q), errors="coerce").to_numpy(float),
            confidence,
        )
    elif q.kind == "winner-mean":
        winner = pd.to_numeric(_column(df, "winner", q), errors="coerce").fillna(-1).astype(int)
        seats = sorted({int(w) for w in winner if w >= 0})
        for seat in seats:
            _column(df, f"{q.column}_{seat}", q)
        x = np.array([float(df[f"{q.column}_{w}"].iloc[i]) for i, w in enumerate(winner)
                      if w >= 0])  # fmt: skip
    else:
        x = pd.to_numeric(_column(df, q.column or "", q), errors="coerce").to_numpy(float)
    if q.per is not None:
        per = pd.to_numeric(_column(df, q.per, q), errors="coerce").to_numpy(float)
        keep = per != 0
        x = x[keep] / per[keep]
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, samples=x)
    return _mean(x, confidence)


def _mean(x: np.ndarray, confidence: float, value: float | None = None) -> Estimate:
    """The t interval of the samples ``x`` (at least one: one alone has no interval), around
    their mean or ``value``."""
    m, lo, hi = sample_mean(x, confidence)
    if len(x) == 1:
        lo, hi = -math.inf, math.inf
    return Estimate(m if value is None else value, lo, hi, len(x), samples=x)


def _ratio(a: np.ndarray, b: np.ndarray, confidence: float) -> Estimate:
    """sum(a) / sum(b) over the rows (both finite), with the delta method's t interval: the
    rows' linearised values ``R + (a - R b) / mean(b)`` have mean ``R`` and are the samples a
    comparison (Welch) reads."""
    keep = np.isfinite(a) & np.isfinite(b)
    a, b = a[keep], b[keep]
    if len(a) == 0 or b.sum() == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, samples=np.array([], float))
    r = float(a.sum() / b.sum())
    return _mean(r + (a - r * b) / b.mean(), confidence, value=r)


def _share(k: int, n: int, confidence: float) -> Estimate:
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, successes=0)
    p, lo, hi = rate(k, n, confidence)
    return Estimate(p, lo, hi, n, successes=k)


@dataclass(frozen=True)
class Difference:
    """Arm minus baseline, with its interval."""

    value: float
    lo: float
    hi: float

    @property
    def differs(self) -> bool:
        return bool(self.lo > 0 or self.hi < 0)

    @property
    def sign(self) -> int:
        """+1 (the arm is higher), -1 (lower), 0 (no difference found)."""
        return 0 if not self.differs else (1 if self.value > 0 else -1)


def compare(q: Question, arm: Estimate, base: Estimate, confidence: float) -> Difference:
    """``arm`` minus ``base`` with Newcombe's interval (shares) or Welch's (means)."""
    d = arm.value - base.value
    if not (arm.n and base.n) or math.isnan(d):
        return Difference(math.nan, math.nan, math.nan)
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


__all__ = [
    "KINDS",
    "Difference",
    "Estimate",
    "Question",
    "answer",
    "compare",
    "parse_question",
]
