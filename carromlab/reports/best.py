"""A best-shot search as one object: its table, its summary, its figure and its files.

``BestShotsReport.run(position, ...)`` searches the best shots under noise
(:func:`~carromlab.analysis.best_shots`) and ``BestShotsReport.from_table(df, position)``
wraps a search made before. ``.table`` holds the reported shots, best first, with their
intervals and each one's story (what it does: :func:`~carromlab.analysis.story.shot_story`);
``.rows`` the columns ``carromlab best`` prints; ``.summary()`` what it prints (and its
``--json``); ``.stories`` each shot's :class:`~carromlab.analysis.story.ShotStory` (a search
run here; none for a table read back); ``.figure()`` the shots' aims on the board, ranked,
with the best shot's typical path where its story is at hand; ``.save(out)`` writes
``best.parquet`` (and ``best.png``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from carromlab.errors import CarromlabError
from carromlab.reports.base import Report
from carromlab.run_options import BestOptions

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from carromlab.analysis.story import ShotStory
    from carromlab.analysis.truncation import Truncation
    from carromlab.position import Position
    from carromlab.shot_setup import ShotSetup

#: A best shot's story in the table (:meth:`~carromlab.analysis.story.ShotStory.row`): what
#: ``carromlab best`` prints under each shot.
STORY_COLUMNS = ("first_hit", "p_first_hit", "outcome", "p_outcome", "story")


class BestShotsReport(Report):
    """The best shots of ``position`` (``table``: one row per shot, ``rank`` 1 first), by
    ``value`` (default: the one the search maximised, from the table's configuration)."""

    position: Position

    def __init__(
        self,
        table: pd.DataFrame,
        position: Position,
        value: str | None = None,
        stories: list[ShotStory] | None = None,
    ):
        super().__init__(table, position)
        self.value = value or self.config.get("value") or "points"
        if self.value not in table.columns:
            raise CarromlabError(f"no column {self.value!r} in the best shots' table")
        #: Each reported shot's story, best first (empty for a table read back).
        self.stories: list[ShotStory] = list(stories or [])

    @classmethod
    def run(
        cls,
        position: Position,
        *,
        skill=BestOptions.skill,
        value: str = BestOptions.value,
        speeds=None,
        n_grid: int = BestOptions.n_grid,
        iterations: int = BestOptions.iterations,
        population: int = BestOptions.population,
        n_cem: int = BestOptions.n_cem,
        top: int = BestOptions.top,
        n: int = BestOptions.n,
        seed: int = BestOptions.seed,
        chunk: int = BestOptions.chunk,
        turn=None,
        hand_set: float | None = BestOptions.hand_set,
        progress: bool = False,
        story: bool = True,
        **options,
    ) -> BestShotsReport:
        """Search the ``top`` best shots by ``value`` (``carromlab best``'s defaults): the
        search's own grid over ``speeds`` joined with the default shot map's, ``n_grid``
        shots a cell, ``iterations`` of cross-entropy with ``population`` candidates of
        ``n_cem`` shots, the finalists estimated again with ``n`` fresh shots each
        (:func:`~carromlab.analysis.best_shots`; ``options``: its other keywords). ``story``:
        each reported shot's story, told from its final executions (:attr:`stories`, and
        the table's story columns). ``speeds`` None: the command's
        (:class:`~carromlab.run_options.BestOptions`, 1, 2 and 3.5 m/s)."""
        from carromlab.analysis import best_shots

        if speeds is None:
            speeds = BestOptions().speed_values

        stories: list[ShotStory] = []
        df = best_shots(
            position,
            turn=turn,
            skill=skill,
            value=value,
            speeds=speeds,
            n_grid=n_grid,
            iterations=iterations,
            population=population,
            n_cem=n_cem,
            top_k=top,
            n_final=n,
            seed=seed,
            chunk=chunk,
            progress=progress,
            hand_set=hand_set,
            story=story,
            stories=stories if story else None,
            **options,
        )
        return cls(df, position, value, stories)

    @classmethod
    def from_options(
        cls,
        options: BestOptions,
        *,
        setup: ShotSetup | None = None,
        progress: bool = False,
        **more,
    ) -> BestShotsReport:
        """What ``carromlab best`` computes for its ``options``, in the position and turn of
        ``setup`` (default: :func:`~carromlab.shot_setup.setup_shot` of the options' variant
        and position, the game's own options at their defaults); ``more``: the search's
        other keywords (:meth:`run`)."""
        from carromlab.shot_setup import setup_shot

        if setup is None:
            setup = setup_shot("best", options.variant, options.position)
        return cls.run(
            setup.position, turn=setup.turn, progress=progress, **options.keywords(), **more
        )

    @classmethod
    def from_table(
        cls, table: pd.DataFrame, position: Position, value: str | None = None
    ) -> BestShotsReport:
        """A report of a search made before (``best_shots``' table, or ``best.parquet``)."""
        return cls(table, position, value)

    # ------------------------------------------------------------------ what it says
    @property
    def columns(self) -> list[str]:
        """The columns ``carromlab best`` prints: rank, placement, angle, speed, the value
        with its interval, n, the truncated shots' fraction, and each shot's story where the
        table tells it (:data:`STORY_COLUMNS`)."""
        value = self.value
        cols = ["rank", "placement", "angle", "speed", value, f"{value}_lo", f"{value}_hi", "n"]
        if value != "p_truncated" and "p_truncated" in self.table.columns:
            cols.append("p_truncated")
        cols += [c for c in STORY_COLUMNS if c in self.table.columns and c not in cols]
        return cols

    @property
    def rows(self) -> pd.DataFrame:
        """The reported shots, in :attr:`columns`."""
        return self.table[self.columns]

    @property
    def truncations(self) -> tuple[Truncation | None, Truncation | None]:
        """The truncated shots: the reported rows', and the search's (grid, screen,
        refinements)."""
        from carromlab.analysis.truncation import search_truncation, truncation

        return truncation(self.table), search_truncation(self.table)

    @property
    def truncation(self) -> Truncation | None:
        """Every truncated shot, reported and searched (None where none are counted)."""
        reported, search = self.truncations
        if reported is None or search is None:
            return reported or search
        return reported + search

    def origin(self) -> tuple[float, float] | None:
        """Where the shooter lies when it is played from there (a Carrooka striker on the
        board), else None: the shots differ by their placement."""
        from carromlab.analysis.variants import analysis_for
        from carromlab.input_checks import fixed_origin

        return fixed_origin(analysis_for(self.position.variant), self.position)

    @property
    def placement_unit(self) -> str:
        """``"m"`` where shots start on a line (ICF, Carroms), else ``"deg"`` (a circle)."""
        from carromlab.analysis.variants import analysis_for
        from carromlab.input_checks import line_origin

        return "m" if line_origin(analysis_for(self.position.variant)) else "deg"

    def summary(self) -> dict:
        """What ``carromlab best`` prints: the position, the value, the placement's unit, the
        shooter's spot where it is played from where it lies (``origin``, else None), the
        reported shots (``rows``: :attr:`columns`, as ``--json`` writes them), the best of
        them (``best``), the truncated shots, reported and in the search
        (``truncated``), and where the run has one ``turn``: the turn the shots were valued
        under, in words (:attr:`turn_text`)."""
        from carromlab.analysis.variants import analysis_for

        rows = json.loads(self.rows.to_json(orient="records"))
        spot = self.origin()
        reported, search = self.truncations
        cut = {
            "reported": reported.as_dict() if reported is not None else None,
            "search": search.as_dict() if search is not None else None,
        }
        return {
            "position": self.position.name or self.position.variant,
            "value": self.value,
            "placement_unit": self.placement_unit,
            "origin": None
            if spot is None
            else {"piece": analysis_for(self.position.variant).shooter_kind, "at": list(spot)},
            "best": rows[0] if rows else None,
            "rows": rows,
            "truncated": cut,
            **({"turn": self.turn_text} if self.turn_text else {}),
        }

    # ------------------------------------------------------------------ what it draws
    def drawn_rows(self) -> pd.DataFrame:
        """The shots as the figure draws them: each with its origin (``x0``, ``y0``); without
        a placement where the shooter is played from where it lies."""
        from carromlab.analysis.variants import analysis_for

        va = analysis_for(self.position.variant)
        rows = self.table.copy()
        if "x0" not in rows.columns:
            rows["x0"], rows["y0"] = va.origin(self.position, rows["placement"].to_numpy(float))
        if self.origin() is not None:
            rows = rows.drop(columns="placement")
        return rows

    def figure(self) -> Figure:
        """The reported shots' aims on the board, from where each starts, coloured by the
        value and ranked (the best widest, on top); the legend gives each one's value with
        its 95 % interval, placement, aim and speed."""
        return self._drawn(self._figure)

    def _figure(self) -> Figure:
        import matplotlib.pyplot as plt

        from carromlab.plot import PositionPlot
        from carromlab.plot.story import (
            OVER_AIMS_COLOR,
            draw_story_paths,
            story_legend_entries,
            story_title,
        )

        fig, ax = plt.subplots(figsize=(7.5, 7.5))
        many = len(self.table) > 1
        what = f"the best {len(self.table)} shots" if many else "the best shot"
        story = self.stories[0] if self.stories else None
        extra = (
            ()
            if story is None
            else story_legend_entries(
                OVER_AIMS_COLOR, "typical path of 1" if many else "typical path"
            )
        )
        view = PositionPlot(self.position)
        view.aims(
            self.drawn_rows(),
            self.value,
            ax=ax,
            unit=self.placement_unit,
            what=what,
            legend_extra=extra,
        )
        if story is not None:  # the best shot's typical execution over its aim
            draw_story_paths(
                self.position, story, ax, plot=view.plot, shooter_color=OVER_AIMS_COLOR, width=1.4
            )
            head = "1: " if many else ""
            ax.set_title(f"{ax.get_title()}\n{story_title(story, 70, head)}", fontsize=10)
        return fig

    # ------------------------------------------------------------------ its files
    def save(self, out, figures: bool = True) -> list[Path]:
        """Write ``best.parquet`` (the table with its run's configuration) to the folder
        ``out``, and with ``figures`` ``best.png`` (:meth:`figure`). Returns the paths
        written."""
        from carromlab.analysis.results import write_parquet

        folder = self._folder(out)
        written = [write_parquet(self.table, folder / "best.parquet")]
        if figures:
            written.append(self._write(self.figure(), folder / "best.png"))
        return written
