"""A shot map as one object: its table, its summary, its figures and its files.

``ShotMapReport.run(position, placements, angles, speeds, ...)`` estimates every cell of the
grid (every piece's capture in each pocket too, for the target map) and
``ShotMapReport.from_table(df, position)`` wraps a map made before. ``.table`` is the map,
``.targets`` each piece's best chance into each pocket, ``.summary()`` what ``carromlab
shotmap`` prints, ``.figure()`` its two panels (the heat map and the aims on the board, on
one colour scale), ``.targets_figure()`` the target map, and ``.save(out)`` writes
``shotmap.parquet``, ``shotmap.png``, ``targets.parquet`` and ``targets.png``, the files of
``carromlab shotmap --out``. A map run here tells its best cell's story (what the shot does:
:func:`~carromlab.analysis.story.shot_story`, on the cell's own keys): ``.story``, the
summary's ``story`` line (kept in the table's configuration, so a map read back says it too)
and its typical path drawn on the board panel.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from carromlab.errors import CarromlabError
from carromlab.reports.base import Report
from carromlab.run_options import ShotMapOptions

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from carromlab.analysis.story import ShotStory
    from carromlab.analysis.truncation import Truncation
    from carromlab.position import Position
    from carromlab.shot_setup import MapGrid, ShotSetup, Warn

#: A shot map's grid columns.
AXES = ("placement", "angle", "speed")
#: The files :meth:`ShotMapReport.save` writes (the targets' where the map has them).
FILES = ("shotmap.parquet", "shotmap.png", "targets.parquet", "targets.png")


class ShotMapReport(Report):
    """A shot map (``table``: one row per cell, see :func:`~carromlab.analysis.shot_map`) of
    ``position``, read by ``value`` (the column its summary and figures pick the best cell
    by), on the rules' ``turn`` (None: the variant's default; Carrooka: the piece on).
    ``store``: the folder that kept the map's finished cells while it ran, removed once the
    map is saved."""

    position: Position

    def __init__(
        self,
        table: pd.DataFrame,
        position: Position,
        value: str = "points",
        turn=None,
        store=None,
    ):
        super().__init__(table, position)
        self.value = value
        self.turn = turn
        self.store = None if store is None else Path(store)
        self._targets: pd.DataFrame | None = None
        #: The best cell's story with its typical path (:meth:`tell`), or None.
        self.story: ShotStory | None = None

    # ------------------------------------------------------------------ making one
    @classmethod
    def run(
        cls,
        position: Position,
        placements,
        angles,
        speeds,
        *,
        skill=ShotMapOptions.skill,
        n: int = ShotMapOptions.n,
        seed: int = ShotMapOptions.seed,
        chunk: int = ShotMapOptions.chunk,
        value: str = ShotMapOptions.value,
        turn=None,
        hand_set: float | None = ShotMapOptions.hand_set,
        store=None,
        on_resume=None,
        progress: bool = False,
        story: bool = ShotMapOptions.story,
        **options,
    ) -> ShotMapReport:
        """Estimate the grid ``placements x angles x speeds`` (degrees, m/s) from
        ``position``: ``n`` shots a cell by a ``skill`` player, every piece's capture in each
        pocket counted. ``store``: a folder that keeps the finished cells as they come, so an
        interrupted map (:class:`~carromlab.analysis.shotmap.ShotMapInterrupted`) resumes
        (``on_resume(kept, total)`` is called when it holds cells already); ``options`` go to
        :func:`~carromlab.analysis.shot_map` (``runner``, ``physics``, ``scoring``,
        ``confidence``). The grid's size, the skill and the speeds are checked before any
        shot. ``story``: tell the best cell's story once the map is made (:meth:`tell`). The
        defaults are ``carromlab shotmap``'s (:class:`~carromlab.run_options.ShotMapOptions`)."""
        from carromlab.analysis import shot_map

        df = shot_map(
            position,
            placements,
            angles,
            speeds,
            skill=skill,
            n=n,
            seed=seed,
            chunk=chunk,
            progress=progress,
            pieces=_pieces(position),
            per_pocket=True,
            turn=turn,
            hand_set=hand_set,
            store=store,
            on_resume=on_resume,
            **options,
        )
        report = cls(df, position, value=value, turn=turn, store=store)
        if story and value in df.columns:
            report.tell(
                skill=skill,
                runner=options.get("runner"),
                physics=options.get("physics"),
                hand_set=hand_set,
            )
        return report

    @classmethod
    def from_options(
        cls,
        options: ShotMapOptions,
        *,
        setup: ShotSetup | None = None,
        grid: MapGrid | tuple | None = None,
        warn: Warn | None = None,
        store=None,
        on_resume=None,
        progress: bool = False,
        **more,
    ) -> ShotMapReport:
        """What ``carromlab shotmap`` computes for its ``options``: the grid they describe
        (:func:`~carromlab.shot_setup.map_grid`: the game's where an axis is not given;
        unless ``grid`` is given, a MapGrid or its placements, angles and speeds) in the position and turn of ``setup`` (default:
        :func:`~carromlab.shot_setup.setup_shot` of the options' variant and position, the
        game's own options at their defaults). ``warn`` receives the warning lines (default:
        stderr); ``store``, ``on_resume``, ``progress`` and ``more`` as in :meth:`run`. A
        game with its own shot map (KOOBA's throws) is refused: it makes no such report."""
        from carromlab.shot_setup import map_grid, setup_shot

        if setup is None:
            setup = setup_shot("shotmap", options.variant, options.position)
        if grid is None:
            grid = map_grid(options, setup, warn)
        axes = grid.axes() if hasattr(grid, "axes") else tuple(grid)
        return cls.run(
            setup.position,
            *axes,
            turn=setup.turn,
            store=store,
            on_resume=on_resume,
            progress=progress,
            **options.keywords(),
            **more,
        )

    def tell(
        self, skill=None, n: int | None = None, runner=None, physics=None, hand_set=None
    ) -> ShotStory | None:
        """The story of the map's best cell by ``value`` (:attr:`story`; None where no cell
        has a value): ``n`` executions (default the larger of
        :data:`~carromlab.analysis.story.STORY_N` and the map's shots a cell) on the cell's
        own keys (the map's seed, the cell's index among its legal cells: the cell's own
        executions come first), by the map's ``skill`` (default its configuration's),
        ``runner``, ``physics`` and ``hand_set`` (defaults: the configuration's). The
        sentence is kept in the table's configuration (``story``) for the summary."""
        import math

        import numpy as np

        from carromlab.analysis.story import STORY_N, shot_story
        from carromlab.analysis.variants import analysis_for
        from carromlab.shots import Shot, Skill

        value, df, config = self._value(), self.table, self.config
        values = df[value].to_numpy(float)
        if not np.isfinite(values).any():
            return None
        at = int(df.index.get_loc(df[value].idxmax()))  # the summary's best cell
        best = df.iloc[at]
        key_id = int((df["n"].to_numpy()[:at] > 0).sum())  # its index among the legal cells
        va = analysis_for(self.position.variant)
        if "x0" in df.columns:
            x0, y0 = float(best["x0"]), float(best["y0"])
        else:
            xs, ys = va.origin(self.position, [float(best["placement"])])
            x0, y0 = float(xs[0]), float(ys[0])
        shot = Shot(x0, y0, math.radians(float(best["angle"])), float(best["speed"]))
        if skill is None:
            skill = Skill(**config["skill"]) if "skill" in config else "club"
        if physics is None and runner is None and config.get("physics"):
            physics = _physics(config["physics"])
        if hand_set is None and runner is None:
            hand_set = config.get("hand_set")
        n = max(STORY_N, int(config.get("n") or 0)) if n is None else int(n)
        self.story = shot_story(
            self.position,
            shot,
            skill=skill,
            n=n,
            seed=int(config.get("seed", 0)),
            turn=self.turn,
            runner=runner,
            physics=physics,
            key_id=key_id,
            hand_set=hand_set,
        )
        told = {"value": value, "cell": at, "n": n, **self.story.row()}
        self.table.attrs.setdefault("config", {})["story"] = told
        return self.story

    def _told(self) -> dict | None:
        """The best cell's story as the configuration keeps it, when it is of this value."""
        told = self.config.get("story")
        if not told or told.get("value") != self.value or self.value not in self.table:
            return None
        at = int(self.table.index.get_loc(self.table[self.value].idxmax()))
        return told if told.get("cell") == at else None

    @classmethod
    def from_table(
        cls, table: pd.DataFrame, position: Position, value: str = "points", turn=None
    ) -> ShotMapReport:
        """A report of a map made before (by :func:`~carromlab.analysis.shot_map`, or read
        back from ``shotmap.parquet``) in ``position``."""
        return cls(table, position, value=value, turn=turn)

    # ------------------------------------------------------------------ what it says
    def values(self) -> list[str]:
        """The columns the map can be read by (its estimates, not their bounds)."""
        return [c for c in self.table.columns if not c.endswith(("_lo", "_hi"))]

    def _value(self) -> str:
        if self.value not in self.table.columns:
            from carromlab.input_schema import shorten

            raise CarromlabError(
                f"no column {self.value!r} in the shot map; values: "
                f"{shorten([v for v in self.values() if not v.startswith('p_capture:')], 8)}"
            )
        return self.value

    @property
    def targets(self) -> pd.DataFrame:
        """One row per (piece, pocket): the best chance any cell gives of putting that piece
        there (:func:`~carromlab.analysis.shotmap.targets_from_cells`); empty where the map
        counted no captures by pocket."""
        if self._targets is None:
            from carromlab.analysis.shotmap import targets_from_cells

            self._targets = targets_from_cells(self.table, self.position, _pieces(self.position))
        return self._targets

    @property
    def truncation(self) -> Truncation | None:
        """The map's shots that hit the kernel's event cap (None where none are counted)."""
        from carromlab.analysis.truncation import truncation

        return truncation(self.table)

    @property
    def placement_unit(self) -> str:
        """``"m"`` where shots start on a line (ICF, Carroms), else ``"deg"`` (a circle)."""
        from carromlab.analysis.variants import analysis_for
        from carromlab.input_checks import line_origin

        return "m" if line_origin(analysis_for(self.position.variant)) else "deg"

    def summary(self) -> dict:
        """What ``carromlab shotmap`` prints: the folder it was saved to (``out``, once
        saved), the cells, the shots, the truncated shots (``truncated``, ``p_truncated``),
        the value, the best cell (``best``: its placement, angle, speed and value; where the
        shooter lies on the board, its spot instead of the placement), the best value's
        95 % interval (``best_interval``), where it was told (:meth:`tell`), the best
        cell's ``story``: what it first hits, its likeliest outcome, and ``turn``: the turn
        its shots were valued under, in words (:attr:`turn_text`)."""
        from carromlab.analysis.shotmap import map_summary
        from carromlab.analysis.variants import analysis_for
        from carromlab.input_checks import fixed_origin

        out = map_summary(self.table, self.out, self._value(), AXES)
        if self.out is None:
            del out["out"]
        va = analysis_for(self.position.variant)
        spot = fixed_origin(va, self.position)
        if spot is not None:  # the shooter where it lies: its spot, not the placement
            best = {k: v for k, v in out["best"].items() if k != "placement"}
            out["best"] = {va.shooter_kind: [round(spot[0], 6), round(spot[1], 6)], **best}
        told = self._told()
        if told is not None:
            out["story"] = told["story"]
        turn = self.turn_text  # the turn its shots were valued under, in words
        if turn:
            out["turn"] = turn
        return out

    # ------------------------------------------------------------------ what it draws
    def figure(self) -> Figure:
        """The map's two panels on one colour scale, fitted to what they show: the heat map
        over placement x angle at the grid's first speed with, on the board, the best aim
        from each placement; or, where every shot starts from one spot (a Carrooka striker
        where it lies) over several speeds, the heat map over angle x speed with every aim
        at the best speed on the board. Aims start where the variant's shots do (on its
        line, or from each cell's origin). A best cell on the grid's edge is written on the
        figure and kept in :attr:`warnings`."""
        value = self._value()
        return self._drawn(lambda: self._figure(value))

    def _figure(self, value: str) -> Figure:
        import matplotlib.pyplot as plt

        from carromlab.plot import ColourScale, PositionPlot
        from carromlab.plot.shotmap import draw_shotmap
        from carromlab.plot.story import (
            OVER_AIMS_COLOR,
            draw_story_paths,
            story_legend_entries,
            story_title,
        )

        df, view = self.table, PositionPlot(self.position)
        line = _line_y(self.position)
        story = self.story if self._told() is not None else None
        extra = (
            ()
            if story is None
            else story_legend_entries(OVER_AIMS_COLOR, "best cell's typical path")
        )
        fig, axes = plt.subplots(1, 2, figsize=(13, 6.5))
        if df["placement"].nunique() == 1 and df["speed"].nunique() > 1:
            scale = ColourScale(value).fit(df[value])
            draw_shotmap(df, value, x="angle", y="speed", ax=axes[0], scale=scale)
            on_board, ray_length = df, 0.2
            what = "every aim at the best speed"
        else:
            sub = df[df["speed"] == df["speed"].iloc[0]]
            scale = ColourScale(value).fit(sub[value])
            draw_shotmap(sub, value, ax=axes[0], scale=scale)
            if "x0" in df.columns:  # placements are angles on a circle, not baseline x
                axes[0].set_xlabel("placement: the origin's angle on the circle (deg)")
            # on the board: the best aim from each placement (every cell hides the board)
            per_spot = sub.dropna(subset=[value])
            on_board = per_spot.loc[per_spot.groupby("placement")[value].idxmax()]
            ray_length, what = 0.35, "the best aim from each placement"
        view.shotmap(
            on_board,
            value,
            ax=axes[1],
            ray_length=ray_length,
            scale=scale,
            what=what,
            baseline_y=line,
            legend_extra=extra,
        )
        if story is not None:  # the best cell's typical execution, its sentence in the title
            board = axes[1]
            draw_story_paths(
                self.position,
                story,
                board,
                plot=view.plot,
                shooter_color=OVER_AIMS_COLOR,
                width=1.4,
            )
            title = f"{board.get_title()}\n{story_title(story, 58, 'best cell: ')}"
            board.set_title(title, fontsize=board.title.get_fontsize())
        return fig

    def targets_figure(self) -> Figure:
        """The target map: for each piece the shooter may pocket (the rules' ``legal_pots``
        on the report's turn), its best pocket, chances under 5 % left out."""
        targets = self.targets
        if not len(targets):
            raise CarromlabError(
                "the shot map counted no captures by pocket (made without per_pocket=True): "
                "no target map"
            )
        return self._drawn(lambda: self._targets_figure(targets))

    def _targets_figure(self, targets: pd.DataFrame) -> Figure:
        import matplotlib.pyplot as plt

        from carromlab.analysis.variants import analysis_for
        from carromlab.plot import PositionPlot

        va = analysis_for(self.position.variant)
        turn = self.turn if self.turn is not None else va.turn_of(self.position)
        legal = va.rules.legal_pots(self.position, turn)
        fig, ax = plt.subplots(figsize=(7, 6.5))
        PositionPlot(self.position).targets(targets, ax=ax, legal=legal, min_p=0.05)
        return fig

    # ------------------------------------------------------------------ its files
    def save(self, out) -> list[Path]:
        """Write the map to the folder ``out``: ``shotmap.parquet`` (the table with its run's
        configuration), ``shotmap.png`` (:meth:`figure`), and where the map counted captures
        by pocket ``targets.parquet`` and ``targets.png`` (:meth:`targets_figure`). The
        folder of finished cells (``store``) is removed once the map is written. Returns the
        paths written."""
        from carromlab.analysis.results import write_parquet
        from carromlab.analysis.shotmap import drop_partial

        value = self._value()
        folder = self._folder(out)
        written = [write_parquet(self.table, folder / "shotmap.parquet")]
        if self.store is not None:
            drop_partial(self.store)
        written.append(self._write(self._drawn(lambda: self._figure(value)), folder / FILES[1]))
        targets = self.targets
        if len(targets):
            written.append(write_parquet(targets, folder / "targets.parquet"))
            fig = self._drawn(lambda: self._targets_figure(targets))
            written.append(self._write(fig, folder / "targets.png"))
        return written


def _pieces(position: Position) -> tuple[str, ...]:
    """The pieces a map counts the captures of: every piece but a striker lying on the
    board."""
    return tuple(p.id for p in position.pieces if p.kind != "striker")


def _line_y(position: Position) -> float | None:
    """The y of the line a variant's shots start on (ICF's baselines, the Carroms shooting
    line), None where they start on a circle or from where the shooter lies."""
    from carromlab.analysis.variants import analysis_for

    va = analysis_for(position.variant)
    return None if va.origin_of is not None else float(va.shot_y(position.board))


def _physics(described: dict):
    """The physics a map's configuration describes (a :class:`~carromlab.physics.Physics`),
    or refused: a prior's draws are not kept there (give ``physics`` or ``runner``)."""
    import dataclasses

    from carromlab.physics import Physics

    names = {f.name for f in dataclasses.fields(Physics)}
    if set(described) <= names:
        return Physics(**described)
    raise CarromlabError("the map was made with a physics prior: give tell() its physics or runner")
