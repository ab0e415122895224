"""A study's verdicts in words that match their evidence: each cell judged against a margin of
practical difference, the file's many cells adjusted together, and the words across strengths
and priors drawn only from conclusive cells.

**A cell** is one comparison of a study's report: an arm against the baseline's copy at the
same strength and prior, or an arm against the file's reference value, on one question
(:class:`~carromlab.studies.questions.Comparison`). Its **margin** is the difference that
matters in practice: the file's ``margin`` for the question, else the kind's default
(:meth:`~carromlab.studies.questions.Kind.default_margin`: 0.05 on a share; 5 % of the
baseline's value, as written, on a mean or a ratio).

**One word a cell** (:func:`read_word`), read off the interval the report shows:

- ``differs``: the interval is clear of zero (its sign says which way);
- ``no difference beyond ±m``: the interval lies inside (-m, m) (an arm that played every game
  as the baseline did is ``identical``, the same claim);
- ``inconclusive``: neither; :func:`games_to_settle` says how many games an arm would likely
  settle it at the spread observed.

**Many cells** (:func:`judge`): a file judges tens to hundreds of cells, and at 95 % a few
would clear zero by chance alone. The cells are adjusted together with Holm's step-down
procedure (Holm 1979, "A simple sequentially rejective multiple test procedure", Scand. J.
Statist. 6:65), which holds the chance of any false "differs" in the file at ``1 -
confidence`` whatever the cells' dependence (they share baselines and seeds). Each cell's
p-value (for "no difference") is found by bisection over the confidence of its own interval
(:func:`p_value`); sorted, the ``j``-th smallest of ``m`` is judged at level ``alpha / (m - j)``
(``j`` from 0) until one fails, and the rest at the failing level. Each cell's interval is then
shown at its own level (confidence ``1 - level``), so the word reads off the interval shown: a
cell that is not judged different has an interval holding zero, one that is has an interval
clear of it. The "no difference beyond ±m" word reads off the same interval (for that claim a
two-sided interval at its level is a two one-sided tests procedure at half the level: on the
safe side). Holm rather than Benjamini-Hochberg: a verdict in this project is a statement a
rule maker acts on, so the file's chance of any false one is what is held (docs/decisions.md).

**Across strengths and priors** (:func:`across`): ``holds`` only where the reference cell and
every other cell are conclusive and agree; otherwise the conclusive cells are named by what
they say (``flips at``, ``differs at``, ``vanishes at``, ``shown at``) and the inconclusive ones
as ``inconclusive at``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from carromlab.studies.questions import NOT_PLAYED, Comparison, Difference

DIFFERS = "differs"
WITHIN = "no difference beyond"
INCONCLUSIVE = "inconclusive"
IDENTICAL = "identical"
#: The smallest p-value told apart (the bisection's floor).
P_FLOOR = 1e-15
#: Games an arm beyond this are said as "more than" it.
SETTLE_CAP = 10**6


def read_word(d: Difference, margin: float) -> str:
    """The word for interval ``d`` at ``margin`` (the module's docstring): :data:`DIFFERS`,
    :data:`WITHIN`, :data:`INCONCLUSIVE`, :data:`IDENTICAL` ("" for a cell not played)."""
    if math.isnan(d.value):
        return ""
    if d.identical:
        return IDENTICAL
    if d.lo > 0 or d.hi < 0:
        return DIFFERS
    if -margin < d.lo and d.hi < margin:
        return WITHIN
    return INCONCLUSIVE


def games_to_settle(d: Difference, margin: float, n: int) -> int | None:
    """Games an arm that would likely make an inconclusive cell conclusive at the spread
    observed: the half-width must shrink below ``|d|`` (then it differs) or below ``margin -
    |d|`` (then it lies inside the margin), whichever is wider; a half-width falls as one over
    the square root of the games. None for a cell that is not inconclusive."""
    if read_word(d, margin) != INCONCLUSIVE or n <= 0:
        return None
    half = (d.hi - d.lo) / 2
    need = max(abs(d.value), margin - abs(d.value))
    if not math.isfinite(half) or need <= 0:
        return SETTLE_CAP + 1
    return min(SETTLE_CAP + 1, math.ceil(n * (half / need) ** 2))


def p_value(c: Comparison) -> float:
    """The smallest level ``alpha`` at which the comparison's interval (at confidence ``1 -
    alpha``) is clear of zero: its p-value for "no difference", by bisection on
    ``log10(alpha)`` (the intervals nest: a higher confidence, a wider interval). 1.0 for a
    cell not played or exactly zero."""
    if not c.played:
        return 1.0

    def clear(log_alpha: float) -> bool:
        d = c.at(1.0 - 10.0**log_alpha)
        return bool(d.lo > 0 or d.hi < 0)

    lo, hi = math.log10(P_FLOOR), 0.0
    if not clear(hi):
        return 1.0
    if clear(lo):
        return P_FLOOR
    for _ in range(48):
        mid = (lo + hi) / 2
        if clear(mid):
            hi = mid
        else:
            lo = mid
    return 10.0**hi


def holm_levels(p: np.ndarray, alpha: float) -> np.ndarray:
    """Holm's level for each p-value (the module's docstring): the ``j``-th smallest of ``m``
    at ``alpha / (m - j)`` while each passes, the rest at the first failing one's level."""
    p = np.asarray(p, float)
    m = len(p)
    levels = np.empty(m)
    failed = None
    for j, i in enumerate(np.argsort(p, kind="stable")):
        level = alpha / (m - j)
        if failed is None and p[i] > level:
            failed = level
        levels[i] = level if failed is None else failed
    return levels


@dataclass(frozen=True)
class Judgement:
    """One cell judged: the difference as shown (``d``, its interval at ``confidence``:
    Holm's level for the cell), the ``word`` (:func:`read_word`), the ``margin``, the
    unadjusted ``p``, the ``cells`` judged together, and for an inconclusive cell the games an
    arm that would likely settle it (``settle``)."""

    d: Difference
    word: str
    margin: float
    confidence: float
    p: float
    cells: int
    settle: int | None = None

    @property
    def played(self) -> bool:
        return self.word != ""

    @property
    def conclusive(self) -> bool:
        return self.word in (DIFFERS, WITHIN, IDENTICAL)

    @property
    def verdict(self) -> str:
        """``+``, ``-`` (differs, that way), ``0`` (no difference beyond the margin, or
        identical), ``?`` (inconclusive), ``""`` (not played)."""
        if self.word == DIFFERS:
            return "+" if self.d.value > 0 else "-"
        if self.word in (WITHIN, IDENTICAL):
            return "0"
        return "?" if self.word == INCONCLUSIVE else ""

    def text(self) -> str:
        """The cell as the tables show it: the difference, its interval and the word."""
        d = self.d
        if not self.played:
            return "not played"
        if self.word == IDENTICAL:
            return f"identical in all {d.pairs:,}"
        cell = f"{d.value:+.3f} [{d.lo:+.3f}, {d.hi:+.3f}]"
        if self.word == WITHIN:
            return f"{cell} {WITHIN} ±{self.margin:g}"
        if self.word == INCONCLUSIVE:
            return f"{cell} {INCONCLUSIVE} ({settle_words(self.settle)})"
        return f"{cell} {DIFFERS}"


def settle_words(n: int | None) -> str:
    if n is None:
        return ""
    if n > SETTLE_CAP:
        return f"more than {SETTLE_CAP:,} games an arm"
    return f"about {n:,} games an arm"


NOT_JUDGED = Judgement(NOT_PLAYED, "", math.nan, math.nan, 1.0, 0)


def judge(
    cells: Mapping[object, tuple[Comparison, float]], confidence: float
) -> dict[object, Judgement]:
    """Every cell (``key -> (comparison, margin)``) judged together at the file's
    ``confidence`` (Holm's adjustment over the cells played: the module's docstring)."""
    alpha = 1.0 - confidence
    played = [k for k, (c, _) in cells.items() if c.played]
    p = np.array([p_value(cells[k][0]) for k in played])
    levels = holm_levels(p, alpha) if len(played) else np.array([])
    out: dict[object, Judgement] = {k: NOT_JUDGED for k in cells}
    for k, pk, level in zip(played, p, levels, strict=True):
        c, margin = cells[k]
        shown = 1.0 - float(level)
        d = c.at(shown)
        word = read_word(d, margin)
        out[k] = Judgement(d, word, margin, shown, float(pk), len(played),
                           games_to_settle(d, margin, c.games))  # fmt: skip
    return out


def across(ref: Judgement, others: Mapping[str, Judgement]) -> str:
    """Whether a verdict (``ref``) holds in ``others`` (the same comparison at each strength,
    or at each prior's end), from the conclusive cells only:

    - ``holds``: ``ref`` and every other are conclusive and say the same (``holds where
      played`` while some are not played);
    - otherwise the others by what they say: ``holds at`` (conclusive, the same as a
      conclusive ``ref``), ``flips at`` (a difference the other way), ``differs at`` (a
      difference where ``ref`` found none beyond the margin), ``vanishes at`` (none beyond the
      margin where ``ref`` differs), ``shown at`` (a difference where ``ref`` is
      inconclusive), ``none beyond the margin at`` (where ``ref`` is inconclusive),
      ``inconclusive at``;
    - ``not played`` (``ref``, or all of ``others``: ``not played: <names>``).
    """
    if not ref.played:
        return "not played"
    played = {k: j for k, j in others.items() if j.played}
    if not played:
        return "not played: " + ", ".join(others)
    r = ref.verdict
    groups: dict[str, list[str]] = {}
    for k, j in played.items():
        o = j.verdict
        if o == "?":
            word = "inconclusive at"
        elif r == "?":
            word = "shown at" if o in "+-" else "none beyond the margin at"
        elif o == r:
            word = "holds at"
        elif o in "+-" and r in "+-":
            word = "flips at"
        elif o in "+-":
            word = "differs at"
        else:
            word = "vanishes at"
        groups.setdefault(word, []).append(k)
    if r != "?" and set(groups) == {"holds at"}:
        return "holds" if len(played) == len(others) else "holds where played"
    order = ("holds at", "flips at", "differs at", "vanishes at", "shown at",
             "none beyond the margin at", "inconclusive at")  # fmt: skip
    return "; ".join(f"{w} " + ", ".join(groups[w]) for w in order if w in groups)


__all__ = [
    "DIFFERS",
    "IDENTICAL",
    "INCONCLUSIVE",
    "NOT_JUDGED",
    "WITHIN",
    "Judgement",
    "across",
    "games_to_settle",
    "holm_levels",
    "judge",
    "p_value",
    "read_word",
    "settle_words",
]
