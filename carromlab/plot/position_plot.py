"""A position on its board, with analyses drawn over it, in mplsoccer's manner: one object
that knows the board and the pieces, whose methods each draw one kind of result on an axes.

::

    view = PositionPlot(position)
    fig, (left, right) = plt.subplots(1, 2)
    scale = ColourScale("points").fit(df["points"])
    view.shotmap(df, "points", ax=left, scale=scale)   # a shot map's aims, one colour scale
    view.targets(targets, ax=right)                      # each target's best chance

The methods wrap the drawing functions of :mod:`carromlab.plot.shotmap` and
:mod:`carromlab.plot.trajectory` with this position and this board plot (its family's by
default, or one given: ``PositionPlot(position, board_plot(position.board, axis=True))``).
Every method takes ``ax=`` (a new figure when None) and returns what it drew; nothing here
calls ``plt.show()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carromlab.plot.boards import BoardPlot, board_plot, draw_position
from carromlab.plot.shotmap import (
    draw_aims,
    draw_chances,
    draw_shotmap_on_board,
    draw_target_map,
)
from carromlab.plot.story import draw_story
from carromlab.plot.trajectory import draw_trajectories

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle

    from carromlab.analysis.story import ShotStory
    from carromlab.position import Position


class PositionPlot:
    """``position`` on its board, drawn by ``plot`` (default: the family's
    :class:`~carromlab.plot.boards.BoardPlot`, made with ``options`` such as ``axis=True``)."""

    def __init__(self, position: Position, plot: BoardPlot | None = None, **options):
        if plot is not None and options:
            raise TypeError("give a board plot or its options, not both")
        self.position = position
        self.plot = board_plot(position.board, **options) if plot is None else plot

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.position.name!r}, {type(self.plot).__name__})"

    def draw(
        self,
        ax: Axes | None = None,
        labels: bool = False,
        title: str | None = None,
        legend: bool = True,
    ) -> Axes:
        """The board and the pieces (:func:`~carromlab.plot.boards.draw_position`)."""
        return draw_position(
            self.position, ax=ax, labels=labels, title=title, legend=legend, plot=self.plot
        )

    def shotmap(
        self, df: pd.DataFrame, value: str = "p_continue", ax: Axes | None = None, **kw
    ) -> LineCollection:
        """A shot map's aims from each placement, coloured by ``value``: a fan of rays at one
        speed (:func:`~carromlab.plot.shotmap.draw_shotmap_on_board`; ``kw``: ``speed``,
        ``scale``, ``context``, ``ray_length``, ``min_n``, ``what``, ``colorbar``,
        ``legend``, ``title``)."""
        return draw_shotmap_on_board(df, self.position, value, ax=ax, plot=self.plot, **kw)

    def aims(
        self, df: pd.DataFrame, value: str = "points", ax: Axes | None = None, **kw
    ) -> LineCollection:
        """Given shots (the best shots of a search, one estimated shot) as ranked rays from
        where each starts (:func:`~carromlab.plot.shotmap.draw_aims`; ``kw``: ``scale``,
        ``context``, ``ray_length``, ``shooter``, ``what``, ``colorbar``, ``legend``,
        ``title``)."""
        return draw_aims(df, self.position, value, ax=ax, plot=self.plot, **kw)

    def targets(self, df: pd.DataFrame, ax: Axes | None = None, **kw) -> LineCollection:
        """A target map: each piece's best chance into each pocket
        (:func:`~carromlab.plot.shotmap.draw_target_map`; ``kw``: ``scale``, ``context``,
        ``legal``, ``best_only``, ``min_p``, ``labels``, ``colorbar``, ``title``)."""
        return draw_target_map(df, self.position, ax=ax, plot=self.plot, **kw)

    def chances(self, chances, ax: Axes | None = None, **kw) -> list[Circle]:
        """Each piece's chance of being pocketed, ringed, over the position drawn on ``ax``
        (:func:`~carromlab.plot.shotmap.draw_chances`; ``kw``: ``scale``, ``min_p``,
        ``labels``, ``colorbar``)."""
        return draw_chances(self.position, chances, ax=ax, plot=self.plot, **kw)

    def paths(self, traces, deceleration: float, ax: Axes | None = None, **kw) -> list[Line2D]:
        """Recorded shots' exact paths (:func:`~carromlab.plot.trajectory.draw_trajectories`;
        ``kw``: ``pieces``, ``striker_spot``, ``alpha``, ``shooter``, ``points``, ``legend``,
        ``zoom``)."""
        return draw_trajectories(self.position, traces, deceleration, ax=ax, plot=self.plot, **kw)

    def story(self, story: ShotStory, ax: Axes | None = None, **kw) -> list[Line2D]:
        """A shot's story: its typical execution's paths and its sentence as the title
        (:func:`~carromlab.plot.story.draw_story`; ``kw``: ``title``, ``legend``,
        ``zoom``)."""
        return draw_story(self.position, story, ax=ax, plot=self.plot, **kw)
