"""A study's report: each question's estimate per arm with its interval, each arm against the
baseline, the verdict in one sentence, the same verdict at every strength the study names and
under its physics priors; as tables, figures and one self-contained HTML page.

:class:`StudyReport` reads a study's folder (``carromlab study run``); its tables:

- ``table``: one row per question and arm (``question``, ``arm``, ``base``, ``strength``,
  ``prior``, ``games``, ``value``, ``lo``, ``hi``);
- ``comparisons``: one row per cell judged (:meth:`StudyReport.cells`): an arm minus the
  baseline's copy at the same strength and prior, paired game by game (``diff``, ``diff_lo``,
  ``diff_hi`` at the file's confidence; ``pairs``, ``changed``), or an arm minus the reference
  value; then the judgement (:mod:`carromlab.studies.verdicts`): ``p``, the interval at the
  cell's Holm level (``judged_confidence``, ``judged_lo``, ``judged_hi``), the ``margin``, the
  ``word`` (differs, no difference beyond, inconclusive, identical) and, where inconclusive,
  ``settle_games`` (games an arm that would likely settle it);
- ``verdicts``: one row per question and base arm outside the baseline: the sentence, the
  margin, the judged cell at the file's players and at each strength (one column each),
  whether the verdict holds across the strengths
  (:func:`~carromlab.studies.verdicts.across`: from the conclusive cells only), and the
  priors' column (at the top strength: :func:`prior_cell`); with a ``reference`` value, also
  one row per base arm for the first question against that value (``against``:
  ``reference``), the baseline's too.

``save(out)`` writes ``report.html`` (the figures embedded), ``summary.parquet`` and
``summary.csv`` (``table``), ``comparisons.csv``, ``verdicts.csv``, ``verdicts.md`` (the
verdict table in Markdown: :meth:`StudyReport.markdown`) and one PNG per question.
"""

from __future__ import annotations

import base64
import io
import json
import math
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from carromlab.reports.base import DPI, Report
from carromlab.reports.study_page import count_words
from carromlab.studies.questions import (
    Comparison,
    Difference,
    Estimate,
    answer,
    parse_question,
)
from carromlab.studies.run import STUDY_JSON, arm_rows, read_study
from carromlab.studies.verdicts import NOT_JUDGED, Judgement, across, judge, settle_words

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from carromlab.studies.spec import Study


def _cell(d: Difference) -> str:
    """A difference at the file's confidence (unjudged: the priors' ends are judged below)."""
    if math.isnan(d.value):
        return "not played"
    if d.identical:
        return f"identical in all {d.pairs:,}"
    return f"{d.value:+.3f} [{d.lo:+.3f}, {d.hi:+.3f}]"


def _est(e: Estimate) -> str:
    return "not played" if e.n == 0 else f"{e.value:.3f} [{e.lo:.3f}, {e.hi:.3f}]"


def _head(j: Judgement, arm: str, what: str, reference: str | None) -> str:
    """A verdict sentence's head: what the cell's word says of ``arm`` (against the
    baseline, or the ``reference`` value)."""
    m = f"±{j.margin:g}"
    if reference is not None:
        if j.verdict in ("+", "-"):
            return f"{arm}: {what} is {'above' if j.verdict == '+' else 'below'} {reference}"
        if j.verdict == "0":
            return f"{arm}: {what} is within {m} of {reference}"
        return f"{arm}: inconclusive whether {what} differs from {reference}"
    if j.verdict in ("+", "-"):
        return f"{arm} {'raises' if j.verdict == '+' else 'lowers'} {what}"
    if j.verdict == "0":
        return f"{arm}: no difference in {what} beyond {m}"
    return f"{arm}: inconclusive on {what} (margin {m})"


def prior_cell(ref: Judgement, ends: dict[str, Judgement]) -> str:
    """The physics priors' cell of a verdict: :func:`~carromlab.studies.verdicts.across` for
    ``ref``, the verdict at the top strength, against ``ends``, the same comparison at each
    prior's end (``"mu-low"``...), then each end's cell."""
    word = across(ref, ends)
    if word.startswith("not played"):
        return word
    return f"{word}: " + "; ".join(f"{k} {j.text()}" for k, j in ends.items())


class StudyReport(Report):
    """A study's results read from its folder (the module's docstring)."""

    def __init__(
        self,
        study: Study,
        out: Path,
        estimates: dict,
        info: dict[str, Any],
        rows: dict[str, pd.DataFrame] | None = None,
    ):
        self.study = study
        self.folder = Path(out)
        self.info = info
        self.estimates = estimates  # {(question, arm): Estimate}
        self.rows = rows or {}  # {arm: its game rows}: which games played out differently
        rows = []
        for (q, arm), e in estimates.items():
            a = study.arm(arm)
            rows.append(
                {
                    "question": q,
                    "arm": arm,
                    "base": a.base,
                    "strength": a.strength or "",
                    "prior": "" if a.prior is None else f"{a.prior[0]}-{a.prior[1]}",
                    "games": e.n if parse_question(q).rows == "games" else None,
                    "rows": e.n,
                    "value": e.value,
                    "lo": e.lo,
                    "hi": e.hi,
                }
            )
        super().__init__(pd.DataFrame(rows))
        self.table.attrs["config"] = {"study": study.name, "seed": study.seed}
        self.judgements = self._judge()
        self.comparisons = self._comparisons()
        self.verdicts = self._verdicts()

    # ------------------------------------------------------------------ reading

    @classmethod
    def from_folder(cls, out: str | Path) -> StudyReport:
        """The report of the study run into ``out``."""
        out = Path(out)
        study = read_study(out)
        info = json.loads((out / STUDY_JSON).read_text())
        estimates: dict = {}
        used: dict[str, int] = {}
        rows: dict[str, pd.DataFrame] = {}
        for arm in study.arms:
            games, boards, n = arm_rows(study, out, arm.name)
            used[arm.name] = n
            rows[arm.name] = games
            for q in study.questions:
                estimates[(q, arm.name)] = answer(
                    parse_question(q), games, boards, study.confidence
                )
        info["games_used"] = used
        return cls(study, out, estimates, info, rows)

    # ------------------------------------------------------------------ comparing

    def _twin(self, arm: str, base: str) -> str:
        """``base``'s copy at ``arm``'s strength and prior."""
        a = self.study.arm(arm)
        for b in self.study.arms:
            if b.base == base and b.strength == a.strength and b.prior == a.prior:
                return b.name
        return base

    def comparison(self, q: str, arm: str, against: str = "baseline") -> Comparison:
        """``arm`` minus the baseline's copy at its strength and prior on question ``q``,
        paired (a study's arms play game i on the same seed); ``against="reference"``: minus
        the study's reference value."""
        question, e = parse_question(q), self.estimates[(q, arm)]
        if against == "reference":
            return Comparison(question, e, float(self.study.reference or 0.0))
        base = self._twin(arm, self.study.baseline)
        return Comparison(question, e, self.estimates[(q, base)], paired=True)

    def difference(self, q: str, arm: str, against: str = "baseline") -> Difference:
        """:meth:`comparison` at the file's confidence (before the adjustment for the file's
        many cells: :meth:`judgement`)."""
        return self.comparison(q, arm, against).at(self.study.confidence)

    def margin(self, q: str, against: str = "baseline") -> float:
        """Question ``q``'s margin of practical difference (the file's, else its kind's
        default from the baseline's value as written, or the reference value)."""
        s = self.study
        if against == "reference":
            return s.margin_of(q, float(s.reference or 0.0))
        return s.margin_of(q, self.estimates[(q, s.baseline)].value)

    def cells(self) -> list[tuple[str, str, str]]:
        """Every cell the report judges: ``(question, arm, against)`` for every arm (copies
        too) against the baseline's, and with a reference value every arm on the first
        question against it."""
        s = self.study
        out = [(q, a.name, "baseline") for q in s.questions for a in s.arms
               if a.base != s.baseline]  # fmt: skip
        if s.reference is not None:
            out += [(s.questions[0], a.name, "reference") for a in s.arms]
        return out

    def _judge(self) -> dict[tuple[str, str, str], Judgement]:
        cells = {key: (self.comparison(*key), self.margin(key[0], key[2])) for key in self.cells()}
        return judge(cells, self.study.confidence)

    def judgement(self, q: str, arm: str, against: str = "baseline") -> Judgement:
        """The cell's judgement (:func:`~carromlab.studies.verdicts.judge`: its word from its
        interval at its Holm level and its margin)."""
        return self.judgements.get((q, arm, against), NOT_JUDGED)

    @property
    def judged(self) -> int:
        """How many cells were judged together (those played)."""
        return sum(j.played for j in self.judgements.values())

    def played_differently(self, arm: str, base: str) -> tuple[int, int]:
        """``(games, differ)``: the games both arms have, and how many of them have rows that
        differ (a winner, a score, a stroke count: the game went another way). ``(0, 0)``
        without rows."""
        a, b = self.rows.get(arm), self.rows.get(base)
        if a is None or b is None or not len(a) or not len(b):
            return 0, 0
        cols = [c for c in a.columns if c in b.columns]
        left = a[cols].astype(str).set_index("game")
        right = b[cols].astype(str).set_index("game")
        common = left.index.intersection(right.index)
        if not len(common):
            return 0, 0
        same = (left.loc[common] == right.loc[common]).all(axis=1)
        return len(common), int((~same).sum())

    def _comparisons(self) -> pd.DataFrame:
        rows = []
        for q, arm, against in self.cells():
            a = self.study.arm(arm)
            d, j = self.difference(q, arm, against), self.judgement(q, arm, against)
            rows.append(
                {
                    "question": q,
                    "arm": arm,
                    "base": a.base,
                    "against": self._twin(arm, self.study.baseline)
                    if against == "baseline"
                    else f"{self.study.reference:g}",
                    "strength": a.strength or "",
                    "prior": "" if a.prior is None else f"{a.prior[0]}-{a.prior[1]}",
                    "diff": d.value,
                    "diff_lo": d.lo,
                    "diff_hi": d.hi,
                    "pairs": d.pairs,
                    "changed": d.changed,
                    "p": j.p,
                    "judged_confidence": j.confidence,
                    "judged_lo": j.d.lo,
                    "judged_hi": j.d.hi,
                    "margin": j.margin,
                    "word": j.word,
                    "settle_games": j.settle,
                }
            )
        return pd.DataFrame(rows)

    def sentence(self, q: str, arm: str, against: str = "baseline") -> str:
        """The verdict on ``q`` for base arm ``arm`` at the file's players, in one sentence
        with its evidence (``against="reference"``: against the study's reference value)."""
        s = self.study
        question = parse_question(q)
        mine = self.estimates[(q, arm)]
        j = self.judgement(q, arm, against)
        unit = "boards" if question.rows == "boards" else "games"
        what = question.words()
        if mine.n == 0 or not j.played:
            return f"{arm}: not played yet."
        level = (
            f"{100 * j.confidence:.4g} % interval: Holm's level for this cell of the "
            f"{j.cells:,} judged"
        )
        if against == "reference":
            head = _head(j, arm, what, f"{s.reference:g}")
            evidence = f"{_est(mine)} at {round(100 * s.confidence)} %"
            size = f"{mine.n:,} {unit}"
        else:
            d = j.d
            if j.word == "identical":
                return self._identical(arm, what, mine, d.pairs, unit)
            base = self.estimates[(q, s.baseline)]
            head = _head(j, arm, what, None)
            evidence = f"{_est(mine)} against {_est(base)} under {s.baseline}"
            size = f"{mine.n:,} and {base.n:,} {unit}"
            if d.pairs:
                size += f"; paired over the {d.pairs:,} {unit} both played, {d.changed:,} differing"
        more = f"; {settle_words(j.settle)} would likely settle it" if j.settle else ""
        return f"{head}: {evidence}, a difference of {_cell(j.d)} ({level}; {size}){more}."

    def _identical(self, arm: str, what: str, mine: Estimate, pairs: int, unit: str) -> str:
        """The sentence of an arm whose every game gave the baseline's value."""
        s = self.study
        games, differ = self.played_differently(arm, s.baseline)
        if games and not differ:
            return (
                f"{arm} changed none of the {games:,} games: every game played out as "
                f"under {s.baseline} ({what}: {_est(mine)} in both)."
            )
        went = f"; {differ:,} of the {games:,} games went another way" if differ else ""
        return (
            f"{arm}: {what} is the same as under {s.baseline} in every one of the "
            f"{pairs:,} {unit} both played ({_est(mine)}{went})."
        )

    def _verdicts(self) -> pd.DataFrame:
        s = self.study
        rows = []
        players = "/".join(dict.fromkeys(s.base_arms[0].players))
        for q in s.questions:
            pairs = [(a.name, "baseline") for a in s.base_arms if a.name != s.baseline]
            if s.reference is not None and q == s.questions[0]:
                pairs = [(a.name, "reference") for a in s.base_arms] + pairs
            for arm, against in pairs:
                written = self.judgement(q, arm, against)
                at = {st: self.judgement(q, s.at(arm, st), against) for st in s.strengths}
                row: dict[str, Any] = {
                    "question": q,
                    "arm": arm,
                    "against": s.baseline if against == "baseline" else f"{s.reference:g}",
                    "margin": f"±{self.margin(q, against):g}",
                    "verdict": self.sentence(q, arm, against),
                    f"as written ({players})": written.text(),
                }
                for st, j in at.items():
                    row[f"at {st}"] = j.text()
                if s.strengths:
                    row["across strengths"] = across(written, at)
                if s.priors:  # the top strength's verdict (the file's players' without one)
                    ref = at[s.top] if s.top else written
                    row["physics priors"] = self._prior_cell(q, arm, against, ref)
                rows.append(row)
        # one arm and no reference value: nothing compared, the columns kept
        return pd.DataFrame(rows, columns=None if rows else ["question", "arm", "against",
                                                            "verdict"])  # fmt: skip

    def _prior_cell(self, q: str, arm: str, against: str, ref: Judgement) -> str:
        """``ref``, the verdict at the top strength, against each prior's ends
        (:func:`prior_cell`)."""
        s = self.study
        top = f"{arm}@{s.top}" if s.top else arm
        ends = {
            f"{field}-{end}": self.judgement(q, f"{top}~{field}-{end}", against)
            for field in s.priors
            for end in ("low", "high")
        }
        return prior_cell(ref, ends)

    def judged_line(self) -> str:
        """How the cells were judged, in one sentence (the report's and the tables' head)."""
        s = self.study
        levels = [j.confidence for j in self.judgements.values() if j.played]
        if not levels:
            return "No cell is played yet."
        lo, hi = min(levels), max(levels)
        span = f"{100 * lo:.4g} %" if lo == hi else f"from {100 * hi:.4g} % to {100 * lo:.4g} %"
        return (
            f"{count_words(self.judged, 'cell')} judged together (Holm's adjustment: the chance of any false "
            f"'differs' in the file is at most {100 * (1 - s.confidence):.3g} %); each interval "
            f"shown at its cell's level ({span}). A cell differs where its interval is clear of "
            "zero, shows no difference beyond the margin where it lies inside ±margin, and is "
            "inconclusive otherwise."
        )

    # ------------------------------------------------------------------ what is said

    def summary(self) -> dict[str, Any]:
        """The report as plain data (``carromlab study report --json``)."""
        return {
            "study": self.study.name,
            "game": self.study.game,
            "seed": self.study.seed,
            "games_used": self.info.get("games_used", {}),
            "verdicts": self.verdicts.to_dict("records"),
            "estimates": self.table.to_dict("records"),
        }

    def markdown(self) -> str:
        """The verdict table as Markdown: one row per question and arm against the baseline
        (or the reference value), a column for the file's players, one for each strength and
        the priors' column; each cell a difference with its interval."""
        v = self.verdicts
        if not len(v):
            return (
                "Nothing is compared: the study has one arm and no reference value "
                f"({', '.join(a.name for a in self.study.arms)}).\n"
            )
        cols = [c for c in v.columns if c != "verdict"]
        head = textwrap.fill(self.judged_line(), width=100, break_on_hyphens=False)
        lines = [head, "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        for r in v.to_dict("records"):
            cells = [str(r[c]).replace("|", "/") for c in cols]
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"

    def precision_line(self) -> str:
        """Where each arm stopped under the precision target."""
        s = self.study
        used = self.info.get("games_used", {})
        first = s.questions[0]
        parts = []
        for a in s.arms:
            n = int(used.get(a.name, 0))
            e = self.estimates[(first, a.name)]
            met = n and e.half_width <= float(s.precision or 0)
            how = f"+-{e.half_width:.3f}, target met" if met else "cap or not yet met"
            parts.append(f"{a.name} {n:,} games ({how})")
        return (
            f"Precision target: {first} to +-{s.precision:g}, checked every {s.block} games, at "
            f"most {s.games:,}: " + "; ".join(parts) + "."
        )

    def _table_heading(self) -> str:
        s = self.study
        where = [w for w, on in (("at each strength", s.strengths), ("under the physics "
                 "priors", s.priors)) if on]  # fmt: skip
        against = "the reference value" if not s.arms[1:] else "the baseline"
        return f"Against {against}" + (" " + " and ".join(where) if where else "")

    # ------------------------------------------------------------------ what is drawn

    def figure(self, q: str | None = None) -> Figure:
        """Question ``q``'s estimates (default: the first), one point per arm with its
        interval, the arms grouped by strength and prior."""
        import matplotlib.pyplot as plt

        from carromlab.plot.intervals import draw_grouped_intervals, draw_intervals

        q = q or self.study.questions[0]
        question = parse_question(q)
        t = self.table[self.table["question"] == q].reset_index(drop=True)
        if (t["rows"] > 0).any():  # the arms not played yet are named in the page, not drawn
            t = t[t["rows"] > 0].reset_index(drop=True)
        share = question.share
        reference = self.study.reference if q == self.study.questions[0] else None
        seats = {len(a.players) for a in self.study.arms}
        fair = question.kind in ("first-wins", "seat-wins") and reference is None
        if fair and len(seats) == 1:
            reference = 1 / seats.pop()  # every arm's fair share
        elif fair:  # each arm's own: 1 / its seats (drawn over it where the arms stand alone)
            t = t.assign(fair=[1 / len(self.study.arm(a).players) for a in t["arm"]])
        ylabel = question.words() if len(question.words()) < 40 else q
        unit = "boards" if question.rows == "boards" else "games"
        players = "/".join(dict.fromkeys(self.study.base_arms[0].players))
        setting = t["strength"].where(t["strength"] != "", f"as written\n({players})")
        setting = setting.where(t["prior"] == "", setting + "\n" + t["prior"])
        if setting.nunique() > 1:  # strengths or priors: one cluster each, an arm a colour
            groups, bases = setting.nunique(), t["base"].nunique()
            fig, ax = plt.subplots(figsize=(max(6.0, groups * (0.45 * bases + 0.6) + 1.5), 3.8))
            draw_grouped_intervals(t.assign(setting=setting), "value", "lo", "hi", "setting",
                                   "base", ax=ax, reference=reference, ylabel=ylabel,
                                   n="rows", unit=unit, title=f"{self.study.name}: {q}")  # fmt: skip
        else:
            fig, ax = plt.subplots(figsize=(max(4.5, 0.9 * len(t) + 1.5), 3.6))
            draw_intervals(t.assign(n=t["rows"]), "value", "lo", "hi", label="arm", ax=ax,
                           reference="fair" if "fair" in t else reference, ylabel=ylabel,
                           n="n", unit=unit,
                           title=f"{self.study.name}: {q}")  # fmt: skip
        if share:
            lo, hi = ax.get_ylim()
            ax.set_ylim(max(lo, -0.02), min(hi, 1.02))
        ax.tick_params(axis="x", labelsize=7)
        fig.tight_layout()
        return fig

    def strength_table(self) -> pd.DataFrame:
        """The first question's estimate for every base arm at every player the file plays it
        with (its players as written and each strength), with each player's rating where the
        game has a ladder (``carromlab/studies/ratings.json``), else its place in the file's
        order: columns ``arm``, ``player``, ``x``, ``rating``, ``rating_lo``, ``rating_hi``,
        ``value``, ``lo``, ``hi``, ``n``."""
        s = self.study
        q = s.questions[0]
        rated = player_ratings(s.game)
        rows = []
        for a in s.base_arms:
            own = "/".join(dict.fromkeys(a.players))
            settings = [(own, a.name)] + [(st, s.at(a.name, st)) for st in s.strengths]
            seen = set()
            for player, arm in settings:
                if player in seen:
                    continue
                seen.add(player)
                e = self.estimates[(q, arm)]
                r = rated.get(player, {})
                rows.append(
                    {"arm": a.name, "player": player, "rating": r.get("rating", math.nan),
                     "rating_lo": r.get("lo", math.nan), "rating_hi": r.get("hi", math.nan),
                     "value": e.value, "lo": e.lo, "hi": e.hi, "n": e.n}
                )  # fmt: skip
        t = pd.DataFrame(rows)
        if not len(t):
            return t
        order = list(dict.fromkeys(t["player"]))
        by_rating = t["rating"].notna().all()
        t["x"] = t["rating"] if by_rating else [float(order.index(p)) for p in t["player"]]
        return t[t["n"] > 0].reset_index(drop=True)

    def strength_figure(self) -> Figure | None:
        """Does the verdict settle as play gets stronger? The first question's estimate of
        every base arm against its players' rating (:meth:`strength_table`; by their order
        in the file where the game has no ladder); None where the file plays one player
        only."""
        import matplotlib.pyplot as plt

        from carromlab.plot.intervals import draw_by_strength

        t = self.strength_table()
        if not len(t) or t["player"].nunique() < 2:
            return None
        s = self.study
        q = parse_question(s.questions[0])
        rated = t["rating"].notna().all()
        fig, ax = plt.subplots(figsize=(6.4, 3.9))
        draw_by_strength(
            t, "x", "value", "lo", "hi", "arm", ax=ax,
            x_lo="rating_lo" if rated else None, x_hi="rating_hi" if rated else None,
            reference=s.reference,
            xlabel="player rating, Elo points (the ladder: greedy = 0; grey: its interval)"
            if rated else f"players in the file's order ({s.game} has no ladder yet)",
            ylabel=q.words() if len(q.words()) < 40 else q.text,
            title=f"{s.name}: {q.text} as play gets stronger ({round(100 * s.confidence)} %)",
        )  # fmt: skip
        if q.share:
            lo, hi = ax.get_ylim()
            ax.set_ylim(max(lo, -0.02), min(hi, 1.02))
        fig.tight_layout()
        return fig

    def save(self, out: str | Path | None = None) -> Path:
        """Write the report's files into ``out`` (default: the study's folder, ``report/``);
        returns the HTML page's path."""
        import matplotlib.pyplot as plt

        from carromlab.analysis.results import write_parquet

        out = Path(out) if out is not None else self.folder / "report"
        out.mkdir(parents=True, exist_ok=True)
        table = self.table.copy()
        table.attrs["config"] = {"study": self.study.document, "seed": self.study.seed}
        write_parquet(table, out / "summary.parquet")
        self.table.to_csv(out / "summary.csv", index=False)
        self.comparisons.to_csv(out / "comparisons.csv", index=False)
        self.verdicts.to_csv(out / "verdicts.csv", index=False)
        (out / "verdicts.md").write_text(self.markdown())
        images = {}
        for i, q in enumerate(self.study.questions):
            fig = self._drawn(lambda q=q: self.figure(q))
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
            fig.savefig(out / f"question-{i + 1}.png", dpi=DPI, bbox_inches="tight")
            plt.close(fig)
            images[q] = base64.b64encode(buf.getvalue()).decode()
        strength = self._drawn(self.strength_figure)
        if strength is not None:
            buf = io.BytesIO()
            strength.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
            strength.savefig(out / "strength.png", dpi=DPI, bbox_inches="tight")
            plt.close(strength)
            images["strength"] = base64.b64encode(buf.getvalue()).decode()
        page = out / "report.html"
        page.write_text(self.html(images), encoding="utf-8")
        self.out = out
        return page

    def html(self, images: dict[str, str] | None = None) -> str:
        """The report as one self-contained HTML page (``images``: each question's figure as
        base64 PNG, and ``"strength"``'s): :func:`~carromlab.reports.study_page.study_page`."""
        from carromlab.reports.study_page import study_page

        return study_page(self, images or {})


def player_ratings(game: str) -> dict[str, dict[str, float]]:
    """The ladder's ratings of ``game``'s players (``carromlab/studies/ratings.json``: player
    -> rating, lo, hi, games); empty where the game has no ladder."""
    from importlib import resources

    text = resources.files("carromlab.studies").joinpath("ratings.json").read_text()
    return json.loads(text)["games"].get(game, {})


__all__ = ["StudyReport"]
