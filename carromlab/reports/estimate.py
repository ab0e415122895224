"""One shot's estimate as one object: its table, its summary, its figure and its files.

``EstimateReport.run(position, shot, ...)`` plays the shot ``n`` times with a skill's noise
(:func:`~carromlab.analysis.estimate`) and ``EstimateReport.from_table(df, position)`` wraps
an estimate made before. ``.table`` is the tidy table (one row per quantity, with its
interval); ``.summary()`` what ``carromlab estimate`` prints first (the pot rate, the foul
risk and the points, and the pieces most often pocketed); ``.figure()`` the board with the
shot's aim and each piece's chance of being pocketed; ``.save(out)`` writes
``estimate.parquet`` (and ``estimate.png``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from carromlab.reports.base import Report
from carromlab.run_options import EstimateOptions

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from carromlab.analysis.truncation import Truncation
    from carromlab.plot.boards import LegendEntry
    from carromlab.position import Position
    from carromlab.shot_setup import ShotSetup, Warn
    from carromlab.shots import Shot

#: An estimate's first rows: the pot rate, the foul risk and the points, each the first of
#: these quantities the variant's rules give.
HEADLINE = (
    ("pot rate", ("potted", "continues")),
    ("foul risk", ("foul", "penalty")),
    ("points", ("points",)),
)
#: The kernel's names for the shooting disc (disc 0) in a table of captures.
SHOOTERS = ("striker", "shooter")
#: The labels of the headline rows (a label names its quantity where the two differ).
HEADS = tuple(
    label for head, names in HEADLINE for label in (head, *(f"{head} ({n})" for n in names))
)
#: How many of the pieces most often pocketed the summary names.
POCKETED = 3


class EstimateReport(Report):
    """One shot's estimate (``table``: one row per quantity, see
    :func:`~carromlab.analysis.estimate`) in ``position`` (None for a game whose estimates
    play no position, KOOBA's throws: no figure then)."""

    @classmethod
    def run(
        cls,
        position: Position,
        shot: Shot,
        *,
        skill=EstimateOptions.skill,
        n: int = EstimateOptions.n,
        seed: int = EstimateOptions.seed,
        chunk: int = EstimateOptions.chunk,
        turn=None,
        hand_set: float | None = EstimateOptions.hand_set,
        progress: bool = False,
        **options,
    ) -> EstimateReport:
        """Play ``shot`` from ``position`` ``n`` times with a ``skill`` player's noise
        (``options``: :func:`~carromlab.analysis.estimate`'s other keywords: ``runner``,
        ``physics``, ``confidence``; the defaults are ``carromlab estimate``'s,
        :class:`~carromlab.run_options.EstimateOptions`)."""
        from carromlab.analysis import estimate

        df = estimate(
            position,
            shot,
            skill=skill,
            n=n,
            seed=seed,
            chunk=chunk,
            turn=turn,
            hand_set=hand_set,
            progress=progress,
            **options,
        )
        return cls(df, position)

    @classmethod
    def from_options(
        cls,
        options: EstimateOptions,
        *,
        setup: ShotSetup | None = None,
        shot: Shot | None = None,
        warn: Warn | None = None,
        progress: bool = False,
        **more,
    ) -> EstimateReport:
        """What ``carromlab estimate`` computes for its ``options``: the shot they describe
        (:func:`~carromlab.shot_setup.estimate_shot`, unless ``shot`` is given) played in
        the position and turn of ``setup`` (default: :func:`~carromlab.shot_setup.setup_shot`
        of the options' variant and position, the game's own options at their defaults); a
        game with its own estimate (KOOBA's throws) makes it its own way, without a
        position. ``warn`` receives the warning lines (default: stderr); ``more``: the
        analysis' other keywords (:meth:`run`)."""
        from carromlab.shot_setup import estimate_shot, setup_shot

        if setup is None:
            setup = setup_shot("estimate", options.variant, options.position)
        if setup.own_command:  # the game's own estimate (KOOBA)
            make = setup.game.commands["estimate"]
            return cls.from_table(
                make(skill=options.skill, n=options.n, seed=options.seed, options=setup.options)
            )
        if shot is None:
            shot = estimate_shot(options, setup, warn)
        return cls.run(
            setup.position, shot, turn=setup.turn, progress=progress, **options.keywords(), **more
        )

    @classmethod
    def from_table(cls, table: pd.DataFrame, position: Position | None = None) -> EstimateReport:
        """A report of an estimate made before (``estimate``'s table, or ``estimate.parquet``;
        a game's own estimate, KOOBA's, without a position)."""
        return cls(table, position)

    # ------------------------------------------------------------------ what it says
    @property
    def truncation(self) -> Truncation | None:
        """The shots that hit the kernel's event cap (None where none are counted)."""
        from carromlab.analysis.truncation import truncation

        return truncation(self.table)

    def chances(self) -> pd.Series:
        """Each piece's chance of being pocketed (any pocket), by piece id, the shooter
        left out (pocketing it is a foul, counted there)."""
        import pandas as pd

        df = self.table
        piece = df["quantity"].str.slice(8)
        rows = df[
            df["quantity"].str.startswith("capture:")
            & ~piece.str.contains(":")
            & ~piece.isin(SHOOTERS)
        ]
        return pd.Series(rows["estimate"].to_numpy(float), index=rows["quantity"].str.slice(8))

    def summary(self) -> dict:
        """What ``carromlab estimate`` prints first: the title's parts (``position``,
        ``skill``, ``n``, ``title``), the headline ``rows`` (the pot rate, the foul risk and
        the points, each the first of its quantities the rules give, then the
        :data:`POCKETED` pieces most often pocketed; every quantity for a game with others,
        KOOBA's tags), each ``{"label", "quantity", "kind", "estimate", "lo", "hi"}``,
        ``more``: how many quantities are left out (``--all`` prints them), and where the
        run has one ``turn``: the turn the shot was valued under, in words
        (:attr:`turn_text`)."""
        df, config = self.table, self.config
        n = int(df["n"].max()) if len(df) else 0
        skill = config.get("skill", {})
        skill = skill.get("name", "") if isinstance(skill, dict) else str(skill)
        where = config.get("position") or config.get("variant") or ""
        by_name = {r["quantity"]: r for r in df.to_dict("records")}

        def row(label: str, name: str) -> dict:
            r = by_name[name]
            keep = ("quantity", "kind", "estimate", "lo", "hi")
            return {"label": label, **{k: r[k] for k in keep}}

        rows = []
        for label, names in HEADLINE:
            name = next((q for q in names if q in by_name), None)
            if name is not None:
                rows.append(row(f"{label} ({name})" if name != label else label, name))
        chances = self.chances()
        for pid in chances[chances > 0].nlargest(POCKETED).index:
            rows.append(row(f"{pid} pocketed", f"capture:{pid}"))
        if not rows:  # a game with other quantities (KOOBA's tags): all of them
            rows = [row(q, q) for q in by_name]
        turn = self.turn_text
        return {
            "position": where,
            "skill": skill,
            "n": n,
            "title": ", ".join(x for x in (where, skill, f"{n:,} shots") if x),
            "rows": rows,
            "more": len(df) - len(rows),
            **({"turn": turn} if turn else {}),
        }

    # ------------------------------------------------------------------ what it draws
    def figure(self) -> Figure:
        """The board with the shot: the shooter where it starts, its aim, coloured by the
        points (else the first headline quantity); each piece it pockets at least once in a
        hundred ringed with its chance; the headline numbers (the pot rate, the foul risk,
        the points) with their 95 % intervals in the title."""
        self._needs_position("a figure")
        return self._drawn(self._figure)

    def _figure(self) -> Figure:
        import matplotlib.pyplot as plt
        import pandas as pd
        from matplotlib.patches import Patch

        from carromlab.plot import ColourScale, MapContext, PositionPlot

        position, config = self._needs_position("a figure"), self.config
        shot = config.get("shot") or {}
        summary = self.summary()
        lines = summary["rows"]
        head = next((r for r in lines if r["quantity"] == "points"), lines[0] if lines else None)
        value = "points" if head is None else _column(head)
        ray = {
            "x0": shot.get("x", 0.0),
            "y0": shot.get("y", 0.0),
            "angle": math.degrees(shot.get("angle", math.pi / 2)),
            "speed": shot.get("speed", float("nan")),
        }
        if head is not None:
            ray |= {value: head["estimate"], f"{value}_lo": head["lo"], f"{value}_hi": head["hi"]}
        else:
            ray[value] = float("nan")
        rows = pd.DataFrame([ray])
        view = PositionPlot(position)
        fig, ax = plt.subplots(figsize=(7.5, 7.5))
        who = f" by a {summary['skill']} player" if summary["skill"] else ""
        headline = [f"{r['label']}: {_words(r)}" for r in lines if r["label"] in HEADS]
        title = "\n".join(
            [
                f"{position.name}: one shot played {summary['n']:,} times{who}",
                f"from ({ray['x0']:+.3f}, {ray['y0']:+.3f}) m, aim {ray['angle']:.1f}°, "
                f"{ray['speed']:.2f} m/s",
                *headline,
            ]
        )
        context = MapContext(skill=summary["skill"] or None, n=summary["n"])
        view.aims(
            rows,
            value,
            ax=ax,
            scale=ColourScale(value),
            context=context,
            ray_length=0.35,
            shooter=True,
            colorbar=False,
            legend=False,
            title=title,
        )
        ax.title.set_fontsize(10)
        rings = view.chances(self.chances(), ax=ax)
        extra: list[LegendEntry] = []
        if rings:
            extra.append(
                (
                    Patch(facecolor="none", edgecolor="#555555", linewidth=2),
                    "ring: the piece's chance of being pocketed (1 % or more)",
                )
            )
        view.plot.draw_legend(ax, position, extra=extra, ncol=2)
        return fig

    # ------------------------------------------------------------------ its files
    def save(self, out, figures: bool = True) -> list[Path]:
        """Write ``estimate.parquet`` (the table with its run's configuration) to the folder
        ``out``, and with ``figures`` (where the report has its position) ``estimate.png``
        (:meth:`figure`). Returns the paths written."""
        from carromlab.analysis.results import write_parquet

        folder = self._folder(out)
        written = [write_parquet(self.table, folder / "estimate.parquet")]
        if figures and self.position is not None:
            written.append(self._write(self.figure(), folder / "estimate.png"))
        return written


def _column(row: dict) -> str:
    """A summary row's quantity as a shot map's column (``p_`` for probabilities)."""
    q = row["quantity"]
    return f"p_{q}" if row["kind"] == "probability" else q


def _words(row: dict) -> str:
    """An estimate with its interval: a probability in per cent, a mean to three decimals."""
    if row["kind"] == "probability":
        return (
            f"{100 * row['estimate']:.1f} % (95 % {100 * row['lo']:.1f} to {100 * row['hi']:.1f})"
        )
    return f"{row['estimate']:.3f} (95 % {row['lo']:.3f} to {row['hi']:.3f})"
