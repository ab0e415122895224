"""The verdicts' words (carromlab.studies.verdicts): a cell's word from its interval and margin,
Holm's levels, p-values that agree with scipy's tests, the games that would settle a cell, the
words across strengths and priors, and every word of docs/verdicts.md checked against its
cell."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from carromlab.studies.questions import Comparison, Difference, Estimate, parse_question
from carromlab.studies.verdicts import (
    DIFFERS,
    IDENTICAL,
    INCONCLUSIVE,
    WITHIN,
    Judgement,
    across,
    games_to_settle,
    holm_levels,
    judge,
    p_value,
    read_word,
)

ROOT = Path(__file__).resolve().parents[1]


def _mean_estimate(x, keys=None):
    from carromlab.analysis.intervals import sample_mean

    m, lo, hi = sample_mean(x, 0.95)
    keys = np.arange(len(x)) if keys is None else keys
    return Estimate(m, lo, hi, len(x), samples=np.asarray(x, float), keys=keys)


def _share_estimate(hits):
    from carromlab.analysis.intervals import rate

    hits = np.asarray(hits, bool)
    p, lo, hi = rate(int(hits.sum()), len(hits), 0.95)
    return Estimate(p, lo, hi, len(hits), int(hits.sum()), hits.astype(float),
                    np.arange(len(hits)))  # fmt: skip


def test_a_cells_word_reads_off_its_interval_and_margin():
    assert read_word(Difference(0.1, 0.02, 0.18), 0.05) == DIFFERS
    assert read_word(Difference(-0.1, -0.18, -0.02), 0.05) == DIFFERS
    assert read_word(Difference(0.01, -0.03, 0.04), 0.05) == WITHIN
    assert read_word(Difference(0.01, -0.06, 0.08), 0.05) == INCONCLUSIVE
    assert read_word(Difference(0.0, 0.0, 0.0, pairs=30, changed=0), 0.05) == IDENTICAL
    assert read_word(Difference(math.nan, math.nan, math.nan), 0.05) == ""
    # clear of zero and inside the margin: it differs (by less than matters)
    assert read_word(Difference(0.02, 0.01, 0.03), 0.05) == DIFFERS


def test_the_games_that_would_settle_a_cell_shrink_its_half_width_enough():
    """Half-width 0.1 at 100 games, the difference 0.01, margin 0.05: the interval must fit
    inside the margin (half-width 0.04), (0.1 / 0.04)^2 = 6.25 times the games; a difference
    of 0.08 needs the half-width below 0.08 (1.5625 times)."""
    assert games_to_settle(Difference(0.01, -0.09, 0.11), 0.05, 100) == 625
    assert games_to_settle(Difference(0.08, -0.02, 0.18), 0.05, 100) == 157
    assert games_to_settle(Difference(0.08, 0.02, 0.14), 0.05, 100) is None  # it differs


def test_holms_levels_step_down_and_stop_at_the_first_failure():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    levels = holm_levels(p, 0.05)
    # sorted: 0.005 at 0.05/4 (passes), 0.01 at 0.05/3 (passes), 0.03 at 0.05/2 (fails)
    assert levels == pytest.approx([0.05 / 3, 0.025, 0.025, 0.0125])
    assert holm_levels(np.array([0.2, 0.9]), 0.05) == pytest.approx([0.025, 0.025])


def test_p_values_agree_with_scipys_tests():
    """A paired mean's p-value is the paired t test's; a share against a reference value has
    the Wilson interval's p (the score test's, without continuity correction)."""
    from scipy import stats

    rng = np.random.default_rng(3)
    x = rng.normal(0.0, 1.0, 60)
    y = x + rng.normal(0.3, 0.8, 60)
    q = parse_question("mean:strokes")
    c = Comparison(q, _mean_estimate(y), _mean_estimate(x), paired=True)
    assert p_value(c) == pytest.approx(stats.ttest_rel(y, x).pvalue, rel=1e-6)
    hits = rng.random(200) < 0.58
    share = Comparison(parse_question("first-wins"), _share_estimate(hits), 0.5)
    k, n = int(hits.sum()), len(hits)
    z = (k / n - 0.5) / math.sqrt(0.25 / n)
    assert p_value(share) == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-5)


def test_judging_many_cells_widens_each_interval_to_its_holm_level():
    """Twenty cells without a difference and one with a large one: the large one differs at
    level 0.05 / 21; the rest are read at a level where their intervals hold zero."""
    rng = np.random.default_rng(5)
    q = parse_question("mean:strokes")
    cells = {}
    for i in range(20):
        x = rng.normal(0, 1, 80)
        cells[i] = (Comparison(q, _mean_estimate(x + rng.normal(0, 1, 80)), _mean_estimate(x),
                               paired=True), 0.05)  # fmt: skip
    x = rng.normal(0, 1, 80)
    cells["big"] = (Comparison(q, _mean_estimate(x + 2.0 + rng.normal(0, 1, 80)),
                               _mean_estimate(x), paired=True), 0.05)  # fmt: skip
    judged = judge(cells, 0.95)
    assert judged["big"].word == DIFFERS
    assert judged["big"].confidence == pytest.approx(1 - 0.05 / 21)
    assert judged["big"].cells == 21
    for i in range(20):
        j = judged[i]
        assert j.word != DIFFERS and j.d.lo <= 0 <= j.d.hi
        assert j.confidence > 0.95
        assert j.word == INCONCLUSIVE and j.settle is not None and j.settle > 80


def _j(word, value=0.1):
    d = {
        DIFFERS: Difference(value, value / 2, 1.5 * value),
        WITHIN: Difference(0.0, -0.01, 0.01),
        INCONCLUSIVE: Difference(0.0, -0.2, 0.2),
    }[word]
    if word == DIFFERS and value < 0:
        d = Difference(value, 1.5 * value, value / 2)
    return Judgement(d, word, 0.05, 0.99, 0.01, 4)


def test_across_says_holds_only_from_conclusive_cells():
    up, down, none, unsure = _j(DIFFERS), _j(DIFFERS, -0.1), _j(WITHIN), _j(INCONCLUSIVE)
    assert across(up, {"a": up, "b": up}) == "holds"
    assert across(none, {"a": none}) == "holds"
    assert across(up, {"a": up, "b": unsure}) == "holds at a; inconclusive at b"
    assert across(up, {"a": down}) == "flips at a"
    assert across(none, {"a": up}) == "differs at a"
    assert across(up, {"a": none}) == "vanishes at a"
    assert across(unsure, {"a": up, "b": none, "c": unsure}) == (
        "shown at a; none beyond the margin at b; inconclusive at c"
    )
    assert "holds" not in across(unsure, {"a": unsure})


# ---------------------------------------------------------------- docs/verdicts.md

_CELL = re.compile(
    r"^(?P<value>[+-]\d+\.\d+) \[(?P<lo>[+-]\d+\.\d+), (?P<hi>[+-]\d+\.\d+)\] (?P<word>.*)$"
)
_HALF = 0.0005  # the tables round to three places


def _rule(value, lo, hi, margin) -> set[str]:
    """The words the cell's printed numbers allow (both at a rounding boundary)."""
    words = set()
    for dl in (-_HALF, _HALF):
        for dh in (-_HALF, _HALF):
            d = Difference(value, lo + dl, hi + dh)
            words.add(read_word(d, margin))
    return words


def _word(text: str) -> str:
    if text.startswith(DIFFERS):
        return DIFFERS
    if text.startswith(WITHIN):
        return WITHIN
    if text.startswith(INCONCLUSIVE):
        return INCONCLUSIVE
    raise AssertionError(f"no word in {text!r}")


def _check_cell(text: str, margin: float, where: str) -> str:
    """The cell's word, checked against its numbers; "" for a cell not played."""
    text = text.strip()
    if text == "not played":
        return ""
    if text.startswith("identical in all"):
        return IDENTICAL
    m = _CELL.match(text)
    assert m, f"{where}: cannot read {text!r}"
    value, lo, hi = (float(m[k]) for k in ("value", "lo", "hi"))
    word = _word(m["word"])
    assert word in _rule(value, lo, hi, margin), f"{where}: {text!r} at margin {margin}"
    if word == WITHIN:
        assert m["word"] == f"{WITHIN} ±{margin:g}", where
    if word == INCONCLUSIVE:
        assert re.search(r"\((about [\d,]+|more than [\d,]+) games an arm\)$", m["word"]), where
    return word


def _tables(page: str):
    """Each table of the page: (study, header, rows as dicts)."""
    study = None
    lines = page.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## `"):
            study = line.split("`")[1]
        if line.startswith("| question |"):
            header = [c.strip() for c in line.strip("|").split("|")]
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in lines[i].strip("|").split("|")]
                rows.append(dict(zip(header, cells, strict=True)))
                i += 1
            yield study, header, rows
        i += 1


def _named(word: str, head: str) -> list[str]:
    """The names a part of an across word lists after ``head`` (e.g. "holds at")."""
    for part in word.split("; "):
        if part.startswith(head + " "):
            return [k.strip() for k in part[len(head) + 1 :].split(",")]
    return []


def test_every_word_in_the_verdicts_page_follows_its_cell():
    """docs/verdicts.md: every cell's word follows from its printed interval and the row's
    margin (differs: clear of zero; no difference beyond: inside the margin; inconclusive:
    neither, with the games that would settle it); "holds" (alone, or "holds at" a list)
    comes only from conclusive cells, and the reference cell of any "holds" is conclusive."""
    page = (ROOT / "docs" / "verdicts.md").read_text()
    checked = holds = 0
    for study, header, rows in _tables(page):
        strengths = [h[3:] for h in header if h.startswith("at ")]
        written_col = next(h for h in header if h.startswith("as written"))
        for r in rows:
            where = f"{study}: {r['question']} {r['arm']} against {r['against']}"
            margin = float(r["margin"].lstrip("±"))
            words = {written_col: _check_cell(r[written_col], margin, where)}
            for s in strengths:
                words[s] = _check_cell(r[f"at {s}"], margin, f"{where} at {s}")
            checked += len(words)
            conclusive = {k for k, w in words.items() if w in (DIFFERS, WITHIN, IDENTICAL)}
            word = r.get("across strengths", "")
            if "holds" in word:
                holds += 1
                assert written_col in conclusive, f"{where}: {word!r} from an inconclusive cell"
                named = strengths if word.startswith("holds") and ";" not in word else []
                named = named or _named(word, "holds at")
                for k in named:
                    assert k in conclusive, f"{where}: {word!r} names inconclusive {k}"
            if "physics priors" in r and r["physics priors"] not in ("", "not played"):
                pw, _, ends = r["physics priors"].partition(": ")
                end_words = {}
                for part in ends.split("; "):
                    name, _, cell = part.partition(" ")
                    end_words[name] = _check_cell(cell, margin, f"{where} at {name}")
                checked += len(end_words)
                top = strengths[-1] if strengths else written_col
                if "holds" in pw:
                    holds += 1
                    assert words[top] in (DIFFERS, WITHIN, IDENTICAL), f"{where}: priors {pw!r}"
                    named = _named(pw, "holds at") or [k for k, w in end_words.items() if w]
                    for k in named:
                        assert end_words[k] in (DIFFERS, WITHIN, IDENTICAL), (where, pw, k)
    assert checked > 300 and holds > 5  # the page has its tables
