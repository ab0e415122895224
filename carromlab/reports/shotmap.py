"""A shot map as one object: its table, its summary, its figures and its files.

``ShotMapReport.run(position, placements, angles, speeds, ...)`` estimates every cell of the
grid (every piece's capture in each pocket too, for the target map) and
``ShotMapReport.from_table(df, position)`` wraps a map made before. ``.table`` is the map,
``.targets`` each piece's best chance into each pocket, ``.summary()`` what ``carromlab
shotmap`` prints, ``.figure()`` its two panels (the heat map and the aims on the board, on
one colour scale), ``.targets_figure()`` the target map, and ``.save(out)`` writes
``shotmap.parquet``, ``shotmap.png``, ``targets.parquet`` and ``targets.png``, the files of
``carromlab shotmap --out``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from carromlab.errors import CarromlabError
from carromlab.reports.base import Report

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from carromlab.analysis.truncation import Truncation
    from carromlab.position import Position

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

    # ------------------------------------------------------------------ making one
    @classmethod
    def run(
        cls,
        position: Position,
        placements,
        angles,
        speeds,
        *,
        skill="club",
        n: int = 200,
        seed: int = 0,
        chunk: int = 4096,
        value: str = "points",
        turn=None,
        hand_set: float | None = None,
        store=None,
        on_resume=None,
        progress: bool = False,
        **options,
    ) -> ShotMapReport:
        """Estimate the grid ``placements x angles x speeds`` (degrees, m/s) from
        ``position``: ``n`` shots a cell by a ``skill`` player, every piece's capture in each
        pocket counted. ``store``: a folder that keeps the finished cells as they come, so an
        interrupted map (:class:`~carromlab.analysis.shotmap.ShotMapInterrupted`) resumes
        (``on_resume(kept, total)`` is called when it holds cells already); ``options`` go to
        :func:`~carromlab.analysis.shot_map` (``runner``, ``physics``, ``scoring``,
        ``confidence``). The grid's size, the skill and the speeds are checked before any
        shot."""
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
        return cls(df, position, value=value, turn=turn, store=store)

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
        shooter lies on the board, its spot instead of the placement) and the best value's
        95 % interval (``best_interval``)."""
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

        df, view = self.table, PositionPlot(self.position)
        line = _line_y(self.position)
        fig, axes = plt.subplots(1, 2, figsize=(13, 6.5))
        if df["placement"].nunique() == 1 and df["speed"].nunique() > 1:
            scale = ColourScale(value).fit(df[value])
            draw_shotmap(df, value, x="angle", y="speed", ax=axes[0], scale=scale)
            what = "every aim at the best speed"
            view.shotmap(
                df, value, ax=axes[1], ray_length=0.2, scale=scale, what=what, baseline_y=line
            )
        else:
            sub = df[df["speed"] == df["speed"].iloc[0]]
            scale = ColourScale(value).fit(sub[value])
            draw_shotmap(sub, value, ax=axes[0], scale=scale)
            if "x0" in df.columns:  # placements are angles on a circle, not baseline x
                axes[0].set_xlabel("placement: the origin's angle on the circle (deg)")
            # on the board: the best aim from each placement (every cell hides the board)
            per_spot = sub.dropna(subset=[value])
            per_spot = per_spot.loc[per_spot.groupby("placement")[value].idxmax()]
            what = "the best aim from each placement"
            view.shotmap(
                per_spot,
                value,
                ax=axes[1],
                ray_length=0.35,
                scale=scale,
                what=what,
                baseline_y=line,
            )
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

        legal = analysis_for(self.position.variant).rules.legal_pots(self.position, self.turn)
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
