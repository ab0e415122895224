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
proportions, Welch's t interval for means. Every comparison can be redone at
another confidence (:class:`Comparison`: what a file's adjustment for its many cells needs,
:mod:`carromlab.studies.verdicts`).

Each kind of question is one small object (:class:`Kind`): its form (parse), the columns it
reads, how it estimates from an arm's rows, its words and its default margin of practical
difference; :data:`QUESTION_KINDS` lists them.
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

_COLUMN = r"[a-z][a-z0-9_]*"
#: The default margin of practical difference (:meth:`Kind.default_margin`): on a share, this
#: many (five points of a percentage); on a mean or a ratio, this share of the baseline's
#: value (its magnitude), the value the comparison is made from.
SHARE_MARGIN = 0.05
MEAN_MARGIN = 0.05


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

    @property
    def share(self) -> bool:
        """A proportion (Wilson interval) rather than a mean (t interval)."""
        return self.successes is not None

    def at(self, confidence: float) -> Estimate:
        """The same estimate with its interval at ``confidence`` (from its samples)."""
        if self.n == 0:
            return self
        if self.share:
            _, lo, hi = rate(int(self.successes or 0), self.n, confidence)
            return Estimate(self.value, lo, hi, self.n, self.successes, self.samples, self.keys)
        if self.samples is None or len(self.samples) < 2:
            return Estimate(self.value, -math.inf, math.inf, self.n, None, self.samples,
                            self.keys)  # fmt: skip
        m, lo, hi = sample_mean(self.samples, confidence)
        shift = self.value - m  # a ratio's interval sits around its value (the same, to rounding)
        return Estimate(self.value, lo + shift, hi + shift, self.n, None, self.samples, self.keys)


class Kind:
    """One kind of question: ``name`` (the text's head), ``syntax`` (its form in words),
    ``share`` (a proportion, else a mean), ``rows`` (``"games"`` or ``"boards"``: the rows it
    is estimated from); :meth:`parse`, :meth:`columns`, :meth:`estimate`, :meth:`words` and
    :meth:`default_margin`."""

    name: str = ""
    syntax: str = ""
    share: bool = True
    rows: str = "games"
    form: re.Pattern = re.compile("$^")

    def parse(self, text: str) -> Question | None:
        """The question ``text`` asks if it has this kind's form, else None."""
        m = self.form.match(text)
        if m is None:
            return None
        g = m.groupdict()
        seat = int(g["seat"]) if g.get("seat") is not None else None
        return Question(text, self.name, g.get("col"), g.get("per"), seat, bool(g.get("decided")))

    def columns(self, q: Question) -> tuple[str, ...]:
        """The columns of the rows the question reads."""
        return tuple(c for c in (q.column, q.per) if c)

    def estimate(self, q: Question, df: pd.DataFrame, keys: np.ndarray, confidence: float):
        raise NotImplementedError

    def words(self, q: Question) -> str:
        raise NotImplementedError

    def default_margin(self, base_value: float) -> float:
        """The margin of practical difference when the file gives none: :data:`SHARE_MARGIN` on
        a share; :data:`MEAN_MARGIN` of ``base_value``'s magnitude on a mean, to two
        significant figures (the number the tables print)."""
        if self.share:
            return SHARE_MARGIN
        if not math.isfinite(base_value) or base_value == 0:
            return math.nan if not math.isfinite(base_value) else 0.0
        return float(f"{MEAN_MARGIN * abs(base_value):.2g}")  # two figures: a number to read


def _numbers(df: pd.DataFrame, name: str, q: Question) -> np.ndarray:
    return pd.to_numeric(_column(df, name, q), errors="coerce").to_numpy(float)


def _winner(df: pd.DataFrame, q: Question) -> pd.Series:
    return pd.to_numeric(_column(df, "winner", q), errors="coerce").fillna(-1).astype(int)


class _Wins(Kind):
    """``first-wins``, ``seat-wins:K``, ``draws``: the share of games a seat wins (``-1``:
    none does), ``:decided`` of the games with a winner."""

    def __init__(self, name: str, syntax: str, form: str):
        self.name, self.syntax, self.form = name, syntax, re.compile(form)

    def columns(self, q):
        return ("winner",)

    def estimate(self, q, df, keys, confidence):
        winner = _winner(df, q)
        want = -1 if q.kind == "draws" else (q.seat if q.kind == "seat-wins" else 0)
        hit = (winner == want).to_numpy()
        counted = (winner >= 0).to_numpy() if q.decided else np.ones(len(df), bool)
        return _share(hit[counted], keys[counted], confidence)

    def words(self, q):
        tail = " (of the games with a winner)" if q.decided else ""
        if q.kind == "draws":
            return "the share of games without a winner"
        who = "the first seat's" if q.kind == "first-wins" else f"seat {q.seat}'s"
        return f"{who} share of the games won{tail}"


class _BreakerWins(Kind):
    name, syntax, rows = "breaker-wins", "breaker-wins", "boards"
    form = re.compile(r"^breaker-wins$")

    def columns(self, q):
        return ("winner", "breaker_side")

    def estimate(self, q, df, keys, confidence):
        hit = (_column(df, "winner", q) == _column(df, "breaker_side", q)).to_numpy()
        return _share(hit, keys, confidence)

    def words(self, q):
        return "the breaking side's share of the boards won"


class _Share(Kind):
    """``share:COLUMN`` (``board-share:COLUMN``): the share of rows whose true/false (or 0/1)
    column is true."""

    def __init__(self, name: str, rows: str):
        self.name, self.rows, self.syntax = name, rows, f"{name}:COLUMN"
        self.form = re.compile(rf"^{name}:(?P<col>{_COLUMN})$")

    def estimate(self, q, df, keys, confidence):
        col = _column(df, q.column or "", q).astype(str).str.lower()
        return _share(col.isin(("true", "1", "1.0")).to_numpy(), keys, confidence)

    def words(self, q):
        return f"the share of {self.rows} with {q.column}"


class _Mean(Kind):
    """``mean:COLUMN[/COLUMN]`` (``board-mean:``): the mean of a row's number, or of the first
    over the second per row (rows where the second is 0 left out)."""

    share = False

    def __init__(self, name: str, rows: str):
        self.name, self.rows, self.syntax = name, rows, f"{name}:COLUMN"
        self.form = re.compile(rf"^{name}:(?P<col>{_COLUMN})(/(?P<per>{_COLUMN}))?$")

    def estimate(self, q, df, keys, confidence):
        return _mean_of(q, _numbers(df, q.column or "", q), keys, df, confidence)

    def words(self, q):
        col = q.column if q.per is None else f"{q.column} per {q.per}"
        return f"{(col or '').replace('_', ' ')}, mean per {self.rows[:-1]}"


class _Ratio(Kind):
    """``ratio:COLUMN/COLUMN`` (``board-ratio:``): the first column's sum over the second's,
    with the delta method's interval (:func:`_ratio`)."""

    share = False

    def __init__(self, name: str, rows: str):
        self.name, self.rows, self.syntax = name, rows, f"{name}:COLUMN/COLUMN"
        self.form = re.compile(rf"^{name}:(?P<col>{_COLUMN})/(?P<per>{_COLUMN})$")

    def estimate(self, q, df, keys, confidence):
        a, b = _numbers(df, q.column or "", q), _numbers(df, q.per or "", q)
        return _ratio(a, b, keys, confidence)

    def words(self, q):
        col = f"{q.column} per {q.per}".replace("_", " ")
        return f"{col}, over all the {self.rows} (sum over sum)"


class _WinnerMargin(Kind):
    name, syntax, share = "margin", "margin", False
    form = re.compile(r"^margin$")

    def columns(self, q):
        return ("finished", "score_0", "score_1")

    def estimate(self, q, df, keys, confidence):
        done = _column(df, "finished", q).astype(str).str.lower().isin(("true", "1")).to_numpy()
        x = np.abs(_numbers(df, "score_0", q) - _numbers(df, "score_1", q))
        return _mean_of(q, x[done], keys[done], None, confidence)

    def words(self, q):
        return "the winner's margin (points), mean per finished game"


class _WinnerMean(Kind):
    """``winner-mean:COLUMN``: the mean of the winner's own ``COLUMN_<seat>`` over the games
    with a winner."""

    name, syntax, share = "winner-mean", "winner-mean:COLUMN", False
    form = re.compile(rf"^winner-mean:(?P<col>{_COLUMN})$")

    def columns(self, q):
        """``winner`` and the first seat's ``COLUMN_0`` (every seat's ``COLUMN_<seat>`` is
        read: each game names the columns its seats have)."""
        return ("winner", f"{q.column}_0")

    def estimate(self, q, df, keys, confidence):
        winner = _winner(df, q)
        for seat in sorted({int(w) for w in winner if w >= 0}):
            _column(df, f"{q.column}_{seat}", q)
        won = (winner >= 0).to_numpy()
        x = np.array([float(df[f"{q.column}_{w}"].iloc[i]) if w >= 0 else math.nan
                      for i, w in enumerate(winner)])  # fmt: skip
        return _mean_of(q, x[won], keys[won], None, confidence)

    def words(self, q):
        return f"the winner's {(q.column or '').replace('_', ' ')}, mean per game won"


#: Every kind of question, in the order the docs list them.
QUESTION_KINDS: tuple[Kind, ...] = (
    _Wins("first-wins", "first-wins[:decided]", r"^first-wins(?P<decided>:decided)?$"),
    _Wins(
        "seat-wins", "seat-wins:K[:decided]", r"^seat-wins:(?P<seat>\d{1,2})(?P<decided>:decided)?$"
    ),
    _Wins("draws", "draws", r"^draws$"),
    _Mean("mean", "games"),
    _Ratio("ratio", "games"),
    _Share("share", "games"),
    _WinnerMargin(),
    _WinnerMean(),
    _BreakerWins(),
    _Mean("board-mean", "boards"),
    _Share("board-share", "boards"),
    _Ratio("board-ratio", "boards"),
)
_BY_NAME = {k.name: k for k in QUESTION_KINDS}


@dataclass(frozen=True)
class Question:
    """A parsed question: ``kind`` (its :class:`Kind`'s name), ``column`` / ``per`` (mean,
    ratio and share), ``seat`` (seat-wins), ``decided`` (wins of the decided games)."""

    text: str
    kind: str
    column: str | None = None
    per: str | None = None
    seat: int | None = None
    decided: bool = False

    @property
    def of(self) -> Kind:
        """The question's kind."""
        return _BY_NAME[self.kind]

    @property
    def share(self) -> bool:
        """A proportion (else a mean)."""
        return self.of.share

    @property
    def rows(self) -> str:
        """``"games"`` or ``"boards"``: the rows it is estimated from."""
        return self.of.rows

    def columns(self) -> tuple[str, ...]:
        """The columns of its rows it reads (:meth:`Kind.columns`)."""
        return self.of.columns(self)

    def words(self) -> str:
        """The question in words (a report's heading)."""
        return self.of.words(self)

    def default_margin(self, base_value: float) -> float:
        return self.of.default_margin(base_value)


def parse_question(text: str) -> Question:
    """A question from its text (the module's docstring); one line naming the forms if it is
    none of them."""
    for kind in QUESTION_KINDS:
        q = kind.parse(text)
        if q is not None:
            return q
    raise CarromlabError(
        f"unknown question; use one of {', '.join(k.syntax for k in QUESTION_KINDS)}"
    )


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
    """``q`` estimated from an arm's rows (its kind's :meth:`Kind.estimate`)."""
    df = boards if q.rows == "boards" else games
    if len(df) == 0:  # an arm not played yet: no estimate, whatever the question
        empty = np.array([], float)
        successes = 0 if q.share else None
        return Estimate(math.nan, math.nan, math.nan, 0, successes=successes, samples=empty,
                        keys=np.array([], np.int64))  # fmt: skip
    return q.of.estimate(q, df, _keys(df, q), confidence)


def _mean_of(q: Question, x, keys, df, confidence: float) -> Estimate:
    """The t interval of the finite values ``x`` (over the column ``q.per`` of ``df``, row by
    row, where ``q`` has one: rows where it is 0 left out)."""
    if q.per is not None and df is not None:
        per = _numbers(df, q.per, q)
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


class Comparison:
    """``arm`` minus ``base`` on question ``q``, ready to be read at any confidence
    (:meth:`at`): paired over the rows both have where ``paired`` (the module's docstring),
    each has keys and at least two rows pair; else as independent arms (Newcombe's interval
    for shares, Welch's for means). ``base`` may be a number (a reference value: the arm's
    own interval, shifted)."""

    def __init__(self, q: Question, arm: Estimate, base: Estimate | float, paired: bool = False):
        self.q, self.arm, self.base = q, arm, base
        self.pairs: tuple[np.ndarray, np.ndarray] | None = None
        if isinstance(base, Estimate) and paired and arm.keys is not None and base.keys is not None:
            _, ia, ib = np.intersect1d(arm.keys, base.keys, return_indices=True)
            if len(ia) >= 2 and arm.samples is not None and base.samples is not None:
                self.pairs = (arm.samples[ia], base.samples[ib])

    @property
    def played(self) -> bool:
        base_n = self.base.n if isinstance(self.base, Estimate) else 1
        base_v = self.base.value if isinstance(self.base, Estimate) else self.base
        return bool(self.arm.n and base_n) and not math.isnan(self.arm.value - base_v)

    @property
    def games(self) -> int:
        """The rows an arm of the comparison has (the fewer of the two; the pairs)."""
        if self.pairs is not None:
            return len(self.pairs[0])
        if isinstance(self.base, Estimate):
            return min(self.arm.n, self.base.n)
        return self.arm.n

    def at(self, confidence: float) -> Difference:
        """The difference with its interval at ``confidence``."""
        if not self.played:
            return NOT_PLAYED
        if not isinstance(self.base, Estimate):
            e, ref = self.arm.at(confidence), float(self.base)
            return Difference(e.value - ref, e.lo - ref, e.hi - ref)
        if self.pairs is not None:
            return _paired(self.q, *self.pairs, confidence)
        arm, base = self.arm.at(confidence), self.base.at(confidence)
        d = arm.value - base.value
        if self.q.share:
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


def compare(
    q: Question, arm: Estimate, base: Estimate, confidence: float, paired: bool = False
) -> Difference:
    """``arm`` minus ``base`` at ``confidence`` (:class:`Comparison`)."""
    return Comparison(q, arm, base, paired).at(confidence)


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
    "MEAN_MARGIN",
    "NOT_PLAYED",
    "QUESTION_KINDS",
    "SHARE_MARGIN",
    "Comparison",
    "Difference",
    "Estimate",
    "Kind",
    "Question",
    "answer",
    "compare",
    "paired_share_interval",
    "parse_question",
]
