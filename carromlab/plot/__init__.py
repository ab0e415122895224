"""Board drawing, mplsoccer style: a plot class per board family that draws itself to scale.

``board_plot(board).draw(ax=None)`` draws a board and returns the axes;
``draw_pieces(position, ax=...)`` adds the pieces and returns their patches;
``draw_position(position)`` does both. ``PositionPlot(position)`` draws analyses over a
position (``.shotmap``, ``.aims``, ``.targets``, ``.chances``, ``.paths``), each with a
``ColourScale`` and a ``MapContext`` instead of a list of keywords; ``draw_story`` a shot's
story (its typical path, its sentence as the title). Nothing here calls
``plt.show()``.
"""

from carromlab.plot.boards import BoardPlot, board_plot, draw_position
from carromlab.plot.carrooka import CarrookaBoardPlot
from carromlab.plot.company import CheckerBoardPlot, CrokinoleBoardPlot
from carromlab.plot.icf import IcfBoardPlot
from carromlab.plot.intervals import draw_intervals
from carromlab.plot.kooba import KoobaBoardPlot
from carromlab.plot.position_plot import PositionPlot
from carromlab.plot.ratings import plot_ratings
from carromlab.plot.scale import ColourScale, MapContext
from carromlab.plot.shotmap import draw_shotmap, draw_shotmap_on_board, draw_target_map
from carromlab.plot.story import draw_story
from carromlab.plot.trajectory import animate_shot, draw_trajectories, positions_at

__all__ = [
    "BoardPlot",
    "CarrookaBoardPlot",
    "CheckerBoardPlot",
    "ColourScale",
    "CrokinoleBoardPlot",
    "IcfBoardPlot",
    "KoobaBoardPlot",
    "MapContext",
    "PositionPlot",
    "animate_shot",
    "board_plot",
    "draw_intervals",
    "draw_position",
    "draw_shotmap",
    "draw_shotmap_on_board",
    "draw_story",
    "draw_target_map",
    "draw_trajectories",
    "plot_ratings",
    "positions_at",
]
