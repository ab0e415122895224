"""Board drawing: a plot class per board family that draws the board to scale, in metres.

:class:`BoardPlot` draws any board from its ``layout`` (frame or rail, playing surface,
pockets and holes, pegs) and its ``zones`` (lines, circles, filled zones); the family classes
(``carromlab.plot.icf`` and friends) choose the colours and add the family's own touches.
:meth:`BoardPlot.draw_pieces` draws the pieces of a :class:`~carromlab.position.Position` to
scale. Every drawing method takes ``ax=`` and returns what it drew; nothing here calls
``plt.show()``.

Every board draws a legend below itself (:meth:`BoardPlot.draw_legend`): what each piece
colour is (the pieces of the position drawn, else the family's) and the board's features
(pockets, the lines a shot is played from, holes and pegs). ``legend=False`` leaves it out.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, ClassVar

from matplotlib.legend import Legend
from matplotlib.patches import Annulus, Circle, FancyArrow, PathPatch, Polygon, Rectangle

from carromlab.equipment import Board, CircleZone, LineZone, PieceSpec, PolygonZone
from carromlab.errors import CarromlabError
from carromlab.plot.board_parts import (
    LegendEntry,
    _disc,
    _edge_for,
    _is_color,
    _is_dark,
    holed_polygon,
)
from carromlab.plot.board_parts import line_entry as line_entry
from carromlab.position import Piece, Position

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.patches import Patch
    from matplotlib.text import Text


# Drawing order, bottom to top.
Z_FRAME = 1.0
Z_SURFACE = 1.5
Z_FILL = 2.0
Z_LINE = 3.0
Z_CAPTURE = 4.0
Z_POST = 5.0
Z_PIECE = 10.0
Z_PIECE_TOP = 11.0
Z_LABEL = 20.0

#: Family id -> plot class, filled as the family classes are defined.
_PLOTS: dict[str, type[BoardPlot]] = {}


class BoardPlot:
    """Draws a board to scale in metres: frame or rail, playing surface, pockets and holes,
    pegs, and every zone (painted lines, circles and filled zones).

    This base class draws any board generically; the family subclasses set the colours and add
    their own touches. ``axis=True`` keeps the axes (ticks in metres); ``margin`` is the blank
    border around the board, as a fraction of ``board.extent``.
    """

    family: ClassVar[str | None] = None

    frame_color: ClassVar[str] = "#6b4423"
    frame_edge_color: ClassVar[str] = "#2b1a0c"
    surface_color: ClassVar[str] = "#ecd9b0"
    surface_edge_color: ClassVar[str] = "#2b1a0c"
    ditch_color: ClassVar[str] = "#3d2b1a"
    line_color: ClassVar[str] = "#1a1a1a"
    fill_color: ClassVar[str] = "#1a1a1a"
    capture_color: ClassVar[str] = "#121212"
    post_color: ClassVar[str] = "#2b2b2b"
    #: Painted circles have no width in the equipment: this one, in metres.
    circle_line_width: ClassVar[float] = 0.002
    #: Arrow heads (width, length), in metres.
    arrow_head: ClassVar[tuple[float, float]] = (0.012, 0.016)
    #: Outline added to painted lines (points), so thin lines stay visible at low resolution.
    hairline: ClassVar[float] = 0.25
    #: Piece colours, looked up by ``"kind.owner"``, then ``kind``, then ``owner``.
    piece_colors: ClassVar[dict[str, str]] = {}
    default_piece_color: ClassVar[str] = "#9e9e9e"
    #: Legend labels of the pieces, by the key their colour is looked up by (see
    #: ``piece_colors``); the legend lists them in this order. A piece whose key has no label
    #: is named by its owner and kind.
    piece_labels: ClassVar[dict[str, str]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("family"):
            _PLOTS[cls.family] = cls

    def __init__(
        self,
        board: Board,
        *,
        axis: bool = False,
        figsize: tuple[float, float] = (6.0, 6.0),
        margin: float = 0.03,
        legend: bool = True,
    ):
        if self.family is not None and board.family != self.family:
            raise CarromlabError(
                f"{type(self).__name__} draws {self.family!r} boards, not {board.family!r}"
            )
        self.board = board
        self.axis = axis
        self.figsize = figsize
        self.margin = margin
        self.legend = legend

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.board!r})"

    # ------------------------------------------------------------------ the board
    def draw(self, ax: Axes | None = None, legend: bool | None = None) -> Axes:
        """Draw the board on ``ax`` (a new figure when None) and return the axes. ``legend``
        (default: the plot's ``legend``) adds the legend below the board
        (:meth:`draw_legend`, the family's pieces and the board's features)."""
        ax = self.setup_axes(ax)
        self.draw_frame(ax)
        self.draw_surface(ax)
        self.draw_zones(ax)
        self.draw_captures(ax)
        self.draw_posts(ax)
        if self.legend if legend is None else legend:
            self.draw_legend(ax)
        return ax

    def setup_axes(self, ax: Axes | None = None) -> Axes:
        """Equal aspect, limits ±extent plus the margin, axis off unless ``axis``."""
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(figsize=self.figsize)
        lim = self.board.extent * (1.0 + self.margin)
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_aspect("equal")
        if self.axis:
            ax.set_xlabel("x (m)")
            ax.set_ylabel("y (m)")
        else:
            ax.set_axis_off()
        return ax

    def draw_frame(self, ax: Axes) -> list[Patch]:
        """The frame (square boards), the rail (round boards) or the ditch, out to ``extent``."""
        surface = self.board.layout.surface
        e = self.board.extent
        if e <= surface.size or surface.beyond == "open":
            return []
        if surface.shape == "square":
            patch = Rectangle(
                (-e, -e),
                2 * e,
                2 * e,
                facecolor=self.frame_color,
                edgecolor=self.frame_edge_color,
                linewidth=0.8,
                zorder=Z_FRAME,
            )
        elif surface.beyond == "ditch":
            patch = Annulus(
                (0.0, 0.0),
                e,
                e - surface.size,
                facecolor=self.ditch_color,
                edgecolor=self.frame_edge_color,
                linewidth=0.8,
                zorder=Z_FRAME,
            )
        else:
            patch = Circle(
                (0.0, 0.0),
                e,
                facecolor=self.frame_color,
                edgecolor=self.frame_edge_color,
                linewidth=0.8,
                zorder=Z_FRAME,
            )
        ax.add_patch(patch)
        return [patch]

    def draw_surface(self, ax: Axes) -> list[Patch]:
        """The playing surface: a square of half-width ``size`` or a circle of that radius."""
        surface = self.board.layout.surface
        s = surface.size
        style = dict(
            facecolor=self.surface_color,
            edgecolor=self.surface_edge_color,
            linewidth=0.6,
            zorder=Z_SURFACE,
        )
        if surface.shape == "square":
            patch = Rectangle((-s, -s), 2 * s, 2 * s, **style)
        else:
            patch = Circle((0.0, 0.0), s, **style)
        ax.add_patch(patch)
        return [patch]

    def draw_zones(self, ax: Axes) -> list:
        """Every zone of the board, in the board's order."""
        out = []
        for name, zone in self.board.zones.items():
            out += self.draw_zone(ax, name, zone)
        return out

    def draw_zone(self, ax: Axes, name: str, zone) -> list:
        """One zone: a filled disc, a painted circle, a polygon outline or a painted line."""
        color = self.zone_color(name, zone)
        if isinstance(zone, CircleZone):
            if zone.filled:
                patch = Circle(
                    (zone.cx, zone.cy), zone.radius, facecolor=color, linewidth=0, zorder=Z_FILL
                )
            else:
                patch = self.circle_line(zone.cx, zone.cy, zone.radius, color)
        elif isinstance(zone, PolygonZone):
            patch = Polygon(
                zone.points,
                closed=True,
                fill=False,
                edgecolor=color,
                linewidth=0.8,
                zorder=Z_LINE,
            )
        elif isinstance(zone, LineZone):
            patch = self.line_patch(zone, color)
        else:  # pragma: no cover - every zone type is handled above
            raise TypeError(f"cannot draw zone {name!r} of type {type(zone).__name__}")
        ax.add_patch(patch)
        return [patch]

    def zone_color(self, name: str, zone) -> str:
        """Colour of a zone: ``fill_color`` for filled discs, ``line_color`` otherwise."""
        if isinstance(zone, CircleZone) and zone.filled:
            return self.fill_color
        return self.line_color

    def circle_line(
        self, cx: float, cy: float, radius: float, color: str, width: float | None = None
    ) -> Annulus:
        """A painted circle of ``width`` metres (default ``circle_line_width``) on ``radius``."""
        w = self.circle_line_width if width is None else width
        return Annulus(
            (cx, cy),
            radius + w / 2,
            w,
            facecolor=color,
            edgecolor=color,
            linewidth=self.hairline,
            zorder=Z_LINE,
        )

    def line_patch(self, zone: LineZone, color: str) -> Polygon:
        """A painted line as a polygon of the zone's width; an arrow when ``zone.arrow``."""
        dx, dy = zone.x1 - zone.x0, zone.y1 - zone.y0
        style = dict(facecolor=color, edgecolor=color, linewidth=self.hairline, zorder=Z_LINE)
        if zone.arrow:
            head_width, head_length = self.arrow_head
            return FancyArrow(
                zone.x0,
                zone.y0,
                dx,
                dy,
                width=zone.width,
                head_width=head_width,
                head_length=head_length,
                length_includes_head=True,
                **style,
            )
        n = math.hypot(dx, dy)
        nx, ny = -dy / n * zone.width / 2, dx / n * zone.width / 2
        corners = [
            (zone.x0 + nx, zone.y0 + ny),
            (zone.x1 + nx, zone.y1 + ny),
            (zone.x1 - nx, zone.y1 - ny),
            (zone.x0 - nx, zone.y0 - ny),
        ]
        return Polygon(corners, closed=True, **style)

    def draw_captures(self, ax: Axes) -> list[Patch]:
        """Pockets and holes, dark."""
        style = dict(facecolor=self.capture_color, edgecolor=self.frame_edge_color, linewidth=0.5)
        return _discs(ax, self.board.layout.captures, zorder=Z_CAPTURE, **style)

    def draw_posts(self, ax: Axes) -> list[Patch]:
        """Posts (pegs)."""
        style = dict(facecolor=self.post_color, edgecolor="#000000", linewidth=0.4)
        return _discs(ax, self.board.layout.posts, zorder=Z_POST, **style)

    # ------------------------------------------------------------------ the legend
    def feature_entries(self) -> list[LegendEntry]:
        """Legend entries of the board's features: its pockets or holes and its pegs (the
        family classes add their lines and zones)."""
        out: list[LegendEntry] = []
        caps = self.board.layout.captures
        pockets = [c for c in caps if c.name.startswith("pocket")]
        holes = [c for c in caps if not c.name.startswith("pocket")]
        if pockets:
            out.append((_disc(self.capture_color, self.frame_edge_color, 9), "pockets"))
        if holes:
            out.append((_disc(self.capture_color, self.frame_edge_color, 7), "centre hole"))
        if self.board.layout.posts:
            out.append((_disc(self.post_color, "#000000", 4), "pegs"))
        return out

    def piece_key(self, piece: Piece) -> str | None:
        """The key of ``piece`` in ``piece_colors`` (or ``piece_labels``), None if none."""
        for key in (f"{piece.kind}.{piece.owner}", piece.kind, piece.owner):
            if key is not None and (key in self.piece_colors or key in self.piece_labels):
                return key
        return None

    def piece_label(self, piece: Piece) -> str:
        """The legend label of ``piece``: ``piece_labels`` by its key, else owner and kind."""
        key = self.piece_key(piece)
        if key is not None and key in self.piece_labels:
            return self.piece_labels[key]
        return f"{piece.owner} {piece.kind}" if piece.owner else piece.kind

    def piece_entries(self, position: Position | None = None) -> list[LegendEntry]:
        """Legend entries of the pieces: one per label among ``position``'s pieces (in
        ``piece_labels`` order, then the others), or the family's ``piece_labels`` when no
        position is given."""
        if position is None:
            return [
                (_disc(self.piece_colors.get(k, self.default_piece_color), None, 8), label)
                for k, label in self.piece_labels.items()
            ]
        specs = position.board.piece_specs()
        seen: dict[str, tuple[Piece, PieceSpec]] = {}
        for piece in position.pieces:
            seen.setdefault(self.piece_label(piece), (piece, specs[piece.kind]))
        order = list(self.piece_labels.values())
        labels = sorted(seen, key=lambda lb: order.index(lb) if lb in order else len(order))
        out: list[LegendEntry] = []
        for label in labels:
            piece, spec = seen[label]
            face, edge = self.piece_color(piece)
            marker = "^" if spec.shape == "triangle" else "o"
            out.append(
                (_disc(face, edge, 8, marker=marker, ring=self.hole_radius(spec) > 0), label)
            )
        return out

    def draw_legend(
        self,
        ax: Axes,
        position: Position | None = None,
        extra: list[LegendEntry] | tuple = (),
        ncol: int | None = None,
        fontsize: float = 7.5,
    ) -> Legend:
        """The legend below the board: the pieces (:meth:`piece_entries`), the board's
        features (:meth:`feature_entries`), then ``extra`` entries (e.g. a shot map's best
        shot). It is added as an artist of its own (``gid="board-legend"``), so a later
        ``ax.legend()`` does not replace it. Returns the Legend."""
        entries = [*self.piece_entries(position), *self.feature_entries(), *extra]
        handles = [h for h, _ in entries]
        labels = [lb for _, lb in entries]
        ncol = ncol or min(3, max(1, len(entries)))
        below = -0.09 if self.axis else 0.0
        leg = Legend(
            ax,
            handles,
            labels,
            loc="upper center",
            bbox_to_anchor=(0.5, below),
            ncol=ncol,
            fontsize=fontsize,
            frameon=False,
            handlelength=1.6,
            columnspacing=1.2,
            borderaxespad=0.2,
        )
        leg.set_gid("board-legend")
        ax.add_artist(leg)
        leg.set_clip_on(False)  # below the axes: add_artist clips it to them
        return leg

    # ------------------------------------------------------------------ pieces
    def draw_pieces(
        self, position: Position, ax: Axes | None = None, labels: bool = False
    ) -> list[Patch]:
        """Draw the pieces of ``position`` to scale; return one patch per piece, in the order
        of ``position.pieces``. With ``ax=None`` the board is drawn first on a new figure.
        ``labels=True`` also writes each piece's id (see :meth:`label_pieces`)."""
        if position.board.family != self.board.family:
            raise CarromlabError(
                f"position {position.name!r} is on a {position.board.family!r} board; "
                f"this plot draws {self.board.family!r} boards"
            )
        if ax is None:
            ax = self.draw()
        specs = position.board.piece_specs()
        out = []
        for piece in position.pieces:
            patch = self.piece_patch(piece, specs[piece.kind], position.board)
            ax.add_patch(patch)
            out.append(patch)
        if labels:
            self.label_pieces(position, ax)
        return out

    def label_pieces(self, position: Position, ax: Axes) -> list[Text]:
        """Write each piece's id at its centre, in a colour that reads on the piece."""
        out = []
        for piece in position.pieces:
            face, _ = self.piece_color(piece)
            out.append(
                ax.text(
                    piece.x,
                    piece.y,
                    piece.id,
                    ha="center",
                    va="center",
                    fontsize=5,
                    color="white" if _is_dark(face) else "black",
                    zorder=Z_LABEL,
                )
            )
        return out

    def piece_color(self, piece: Piece) -> tuple[str, str]:
        """(face, edge) colours of a piece: from ``piece_colors``, else the owner's or the
        kind's name when it is a colour, else ``default_piece_color``."""
        face = None
        for key in (f"{piece.kind}.{piece.owner}", piece.kind, piece.owner):
            if key is not None and key in self.piece_colors:
                face = self.piece_colors[key]
                break
        if face is None:
            for key in (piece.owner, piece.kind):
                if key is not None and _is_color(key):
                    face = key
                    break
        face = face or self.default_piece_color
        return face, _edge_for(face)

    def piece_zorder(self, piece: Piece, spec: PieceSpec) -> float:
        return Z_PIECE

    def hole_radius(self, spec: PieceSpec) -> float:
        """Radius of the piece's hole (0: a plain disc)."""
        return spec.hole_radius

    def triangle_vertices(
        self, piece: Piece, spec: PieceSpec, board: Board
    ) -> list[tuple[float, float]]:
        """Corners of a triangular piece: circumradius ``spec.radius``, one corner at
        ``piece.rotation``."""
        return [
            (
                piece.x + spec.radius * math.cos(piece.rotation + k * 2 * math.pi / 3),
                piece.y + spec.radius * math.sin(piece.rotation + k * 2 * math.pi / 3),
            )
            for k in range(3)
        ]

    def piece_patch(self, piece: Piece, spec: PieceSpec, board: Board) -> Patch:
        """One piece: a disc (Circle), a ring (Annulus) or a triangle with its hole."""
        face, edge = self.piece_color(piece)
        style = dict(
            facecolor=face,
            edgecolor=edge,
            linewidth=0.6,
            zorder=self.piece_zorder(piece, spec),
        )
        hole = self.hole_radius(spec)
        if spec.shape == "triangle":
            corners = self.triangle_vertices(piece, spec, board)
            return PathPatch(holed_polygon(corners, (piece.x, piece.y), hole), **style)
        if hole > 0:
            return Annulus((piece.x, piece.y), spec.radius, spec.radius - hole, **style)
        return Circle((piece.x, piece.y), spec.radius, **style)


def board_plot(board: Board, **kwargs) -> BoardPlot:
    """The plot class for ``board``'s family (the generic :class:`BoardPlot` for an unknown
    family); ``kwargs`` go to its constructor."""
    return _PLOTS.get(board.family, BoardPlot)(board, **kwargs)


def draw_position(
    position: Position,
    ax: Axes | None = None,
    labels: bool = False,
    title: str | None = None,
    legend: bool = True,
    plot: BoardPlot | None = None,
) -> Axes:
    """Draw ``position``'s board and pieces; ``title`` defaults to the position's name;
    ``legend`` adds the legend below the board (its pieces and features); ``plot``: the board
    plot to draw with (default the family's, :func:`board_plot`). Return the axes."""
    plot = board_plot(position.board) if plot is None else plot
    ax = plot.draw(ax, legend=False)
    plot.draw_pieces(position, ax=ax, labels=labels)
    if legend:
        plot.draw_legend(ax, position)
    title = position.name if title is None else title
    if title:
        ax.set_title(title)
    return ax


def _discs(ax: Axes, spots, **style) -> list[Patch]:
    """A circle of ``style`` on ``ax`` at each of ``spots`` (``x``, ``y``, ``radius``)."""
    out: list[Patch] = []
    for spot in spots:
        patch = Circle((spot.x, spot.y), spot.radius, **style)
        ax.add_patch(patch)
        out.append(patch)
    return out
