"""Drawing a shot's story (:func:`~carromlab.analysis.story.shot_story`): the board with the
path of one typical execution and the story's sentence as the title.

The paths are drawn as :func:`~carromlab.plot.trajectory.draw_trajectories` draws a recorded
shot: the shooter's in ``STRIKER_PATH_COLOR``, each moved piece's in its own colour with a
dark outline, a cross where a piece fell, the shooter's outline at its starting spot. A story
carries its paths by piece id (the position's own pieces, and the shooter under its id), so
any position the story was told of draws it, a Carrooka striker lying on the board included.

Every function takes ``ax=`` (a new figure when None) and returns what it drew; nothing here
calls ``plt.show()``.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from matplotlib import patheffects
from matplotlib.lines import Line2D
from matplotlib.patches import Circle

from carromlab.plot.boards import Z_PIECE, board_plot, draw_position
from carromlab.plot.trajectory import (
    STRIKER_PATH_COLOR,
    Z_PATH,
    _outline_for,
    _shooter_kind,
    _shooter_piece,
    _zoom,
    capture_mark,
    path_legend_entries,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from carromlab.analysis.story import ShotStory
    from carromlab.plot.boards import BoardPlot
    from carromlab.position import Position

#: A story's title is wrapped at this many characters.
TITLE_WIDTH = 60
#: The shooter's path where a story is drawn over aims coloured by their value (a shot map's,
#: the best shots'), whose blues the shooter's usual path colour would vanish among: a violet
#: no game's pieces wear (Carrooka's green and blue, the checkers' red and green).
OVER_AIMS_COLOR = "#8e24aa"


def story_legend_entries(
    shooter_color: str = STRIKER_PATH_COLOR, what: str = "typical path"
) -> list[tuple[Line2D, str]]:
    """The legend's entries for a story's paths: the shooter's path (``what``), a piece's
    path, the capture mark."""
    return path_legend_entries(shooter_color, f"{what}: the shooter", f"{what}: a piece")


def draw_story_paths(
    position: Position,
    story: ShotStory,
    ax: Axes,
    plot: BoardPlot | None = None,
    alpha: float = 0.85,
    shooter_spot: bool = True,
    shooter_color: str = STRIKER_PATH_COLOR,
    width: float = 1.0,
) -> list[Line2D]:
    """The typical execution's paths of ``story`` over ``position`` already drawn on ``ax``
    (a shot map's or a best shots' board, say): each moved piece's path in its colour, the
    shooter's in ``shooter_color`` (over aims coloured by value: :data:`OVER_AIMS_COLOR`), a
    cross where a piece fell, and with ``shooter_spot`` the shooter's outline at its
    starting spot. ``width`` scales the lines (wider over a busy map). Returns the paths
    (``gid`` ``"story:<id>"``) then the capture marks (``gid`` ``"story-capture:<id>"``)."""
    plot = board_plot(position.board) if plot is None else plot
    pieces = {p.id: p for p in position.pieces}
    lines, marks = [], []
    for pid, (xs, ys) in story.paths.items():
        mine = pid == story.shooter
        color = shooter_color if mine else _piece_color(plot, pieces.get(pid))
        outline = "#ffffff" if mine else _outline_for(color)
        (line,) = ax.plot(
            xs,
            ys,
            color=color,
            linewidth=(1.6 if mine else 1.3) * width,
            alpha=alpha,
            solid_capstyle="round",
            zorder=Z_PATH + (0.1 if mine else 0.0),
            label=f"_{pid}",
            gid=f"story:{pid}",
        )
        line.set_path_effects(
            [
                patheffects.Stroke(linewidth=3.0 * width, foreground=outline, alpha=0.6 * alpha),
                patheffects.Normal(),
            ]
        )
        lines.append(line)
        if pid in story.captured and len(xs):
            marks.append(capture_mark(ax, xs[-1], ys[-1], pid, f"story-capture:{pid}"))
    kind = _shooter_kind(position.board)
    if shooter_spot and kind is not None:
        sx, sy = story.shooter_start
        ax.add_patch(
            Circle(
                (sx, sy),
                position.board.piece_specs()[kind].radius,
                facecolor=plot.piece_color(_shooter_piece(position, sx, sy, kind))[0],
                edgecolor=shooter_color,
                linewidth=1.0,
                alpha=0.7,
                zorder=Z_PIECE,
                gid="story-shooter",
            )
        )
    return lines + marks


def _piece_color(plot: BoardPlot, piece) -> str:
    return "#777777" if piece is None else plot.piece_color(piece)[0]


def story_title(story: ShotStory, width: int = TITLE_WIDTH, head: str = "") -> str:
    """``head`` and the story's sentence, wrapped at ``width`` characters (never inside a
    percentage)."""
    text = f"{head}{story.text()}".replace(" %", "\u00a0%")
    return "\n".join(textwrap.wrap(text, width=width, break_on_hyphens=False))


def draw_story(
    position: Position,
    story: ShotStory,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    legend: bool = True,
    zoom: bool | float = False,
    plot: BoardPlot | None = None,
) -> list[Line2D]:
    """The board with ``position``'s pieces, the path of ``story``'s typical execution
    (:func:`draw_story_paths`) and the story's sentence as the title (``title`` replaces
    it). ``legend`` adds the pieces and the paths' entries below the board; ``zoom`` (True,
    or a margin in metres; True: 0.06) narrows the view to the paths. Returns what
    :func:`draw_story_paths` does."""
    plot = board_plot(position.board) if plot is None else plot
    title = story_title(story) if title is None else title
    ax = draw_position(position, ax=ax, title=title, legend=False, plot=plot)
    ax.title.set_fontsize(10)
    drawn = draw_story_paths(position, story, ax, plot=plot)
    if zoom:
        paths = [d for d in drawn if d.get_gid().startswith("story:")]
        _zoom(ax, paths, [story.shooter_start], 0.06 if zoom is True else float(zoom))
    if legend:
        plot.draw_legend(ax, position, extra=story_legend_entries())
    return drawn
