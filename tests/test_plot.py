"""Board drawing: every standard position draws, boards to scale, one artist per piece."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.colors import to_hex
from matplotlib.patches import Annulus, PathPatch, Rectangle

from carromlab.equipment import (
    CarrookaBoard,
    CheckerBoard,
    CrokinoleBoard,
    IcfBoard,
    KoobaBoard,
)
from carromlab.errors import CarromlabError
from carromlab.plot import (
    BoardPlot,
    CarrookaBoardPlot,
    CheckerBoardPlot,
    CrokinoleBoardPlot,
    IcfBoardPlot,
    KoobaBoardPlot,
    board_plot,
    draw_position,
)
from carromlab.position import Piece, Position
from carromlab.registry import standard_names, standard_position

BOARDS = [
    (IcfBoard(), IcfBoardPlot),
    (CheckerBoard(), CheckerBoardPlot),
    (CrokinoleBoard(), CrokinoleBoardPlot),
    (CrokinoleBoard(surround="ditch"), CrokinoleBoardPlot),
    (CarrookaBoard(), CarrookaBoardPlot),
    (KoobaBoard(), KoobaBoardPlot),
]
IDS = ["icf", "checker", "crokinole", "crokinole-ditch", "carrooka", "kooba"]


@pytest.fixture(autouse=True)
def _close_figures(monkeypatch):
    def no_show(*args, **kwargs):
        raise AssertionError("the library must not call plt.show()")

    monkeypatch.setattr(plt, "show", no_show)
    yield
    plt.close("all")


def _aero_position() -> Position:
    board = KoobaBoard()
    pieces = (
        Piece("kooba", "kooba", None, 0.0, 0.0),
        Piece("marker.N", "marker", "N", *board.home_centre("N")),
        Piece("a1", "aero", "N", 0.05, 0.02, 0.3),
    )
    return Position("kooba", pieces, board, name="kooba-aero").check()


@pytest.mark.parametrize("name", standard_names())
def test_every_standard_position_draws(name, tmp_path):
    pos = standard_position(name)
    ax = draw_position(pos, labels=True)
    assert isinstance(ax, Axes)
    assert ax.get_title() == pos.name
    out = tmp_path / f"{name}.png"
    ax.figure.savefig(out, dpi=40)
    assert out.stat().st_size > 0


@pytest.mark.parametrize(("board", "cls"), BOARDS, ids=IDS)
def test_board_plot_picks_the_family_class(board, cls):
    plot = board_plot(board)
    assert type(plot) is cls
    assert plot.board is board


@pytest.mark.parametrize(("board", "cls"), BOARDS, ids=IDS)
def test_draw_new_axes_cover_the_extent(board, cls):
    ax = board_plot(board).draw()
    assert isinstance(ax, Axes)
    e = board.extent
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    assert x0 <= -e and x1 >= e and y0 <= -e and y1 >= e
    assert x1 < 1.2 * e  # a small margin, not a zoomed-out view
    assert ax.get_aspect() == 1.0
    assert not ax.axison
    assert len(ax.patches) > 0


@pytest.mark.parametrize(("board", "cls"), BOARDS, ids=IDS)
def test_draw_on_a_given_ax_returns_it(board, cls):
    _, ax = plt.subplots()
    assert cls(board).draw(ax=ax) is ax


def test_draw_position_on_a_given_ax():
    _, (left, right) = plt.subplots(1, 2)
    assert draw_position(standard_position("icf-opening"), ax=right, title="t") is right
    assert right.get_title() == "t"
    assert not left.patches


def test_axis_option_keeps_the_axes():
    ax = IcfBoardPlot(IcfBoard(), axis=True).draw()
    assert ax.axison
    assert ax.get_xlabel() == "x (m)"


@pytest.mark.parametrize("name", standard_names())
def test_one_artist_per_piece(name):
    pos = standard_position(name)
    plot = board_plot(pos.board)
    ax = plot.draw()
    artists = plot.draw_pieces(pos, ax=ax)
    assert len(artists) == len(pos.pieces)
    assert all(a in ax.patches for a in artists)


def test_pieces_to_scale_and_coloured():
    pos = standard_position("icf-opening")
    plot = board_plot(pos.board)
    artists = plot.draw_pieces(pos)  # draws the board on a new figure first
    specs = pos.board.piece_specs()
    for piece, patch in zip(pos.pieces, artists):
        assert patch.center == pytest.approx((piece.x, piece.y))
        assert patch.radius == pytest.approx(specs[piece.kind].radius)
    faces = {p.owner or p.kind: to_hex(a.get_facecolor()) for p, a in zip(pos.pieces, artists)}
    assert len(set(faces.values())) == 3  # white coins, black coins, the queen


def test_rings_are_annuli_with_a_hole():
    pos = standard_position("ring-pegs-opening")
    artists = board_plot(pos.board).draw_pieces(pos)
    peg = pos.board.layout.posts[0]
    for patch in artists:
        assert isinstance(patch, Annulus)
        outer = patch.radii[0]
        assert peg.radius < outer - patch.width < outer  # the peg shows through the hole


def test_labels_write_piece_ids():
    pos = standard_position("carroms-opening")
    ax = draw_position(pos, labels=True)
    texts = {t.get_text() for t in ax.texts}
    assert {p.id for p in pos.pieces} <= texts
    ax = draw_position(pos)
    assert not ax.texts


def test_crokinole_ditch_draws(tmp_path):
    board = CrokinoleBoard(surround="ditch")
    pos = standard_position("force-out-opening").replace(board=board).check()
    ax = draw_position(pos)
    ditch = [
        p
        for p in ax.patches
        if isinstance(p, Annulus) and p.radii[0] == pytest.approx(board.extent)
    ]
    assert ditch and ditch[0].width == pytest.approx(board.ditch_width)
    ax.figure.savefig(tmp_path / "ditch.png", dpi=40)
    assert (tmp_path / "ditch.png").stat().st_size > 0


def test_kooba_aero_draws_a_triangle_with_a_hole(tmp_path):
    pos = _aero_position()
    plot = board_plot(pos.board)
    ax = plot.draw()
    artists = plot.draw_pieces(pos, ax=ax)
    aero = artists[2]
    assert isinstance(aero, PathPatch)
    verts = aero.get_path().vertices
    expected = pos.board.aero_vertices(0.05, 0.02, 0.3)
    assert np.allclose(sorted(map(tuple, verts[:3])), sorted(expected))
    # The hole: path points at the hole radius from the centre.
    hole = pos.board.piece_specs()["aero"].hole_radius
    dist = np.hypot(verts[4:-1, 0] - 0.05, verts[4:-1, 1] - 0.02)
    assert np.allclose(dist, hole)
    assert aero.get_zorder() > artists[0].get_zorder()  # Aeros lie on top
    ax.figure.savefig(tmp_path / "aero.png", dpi=40)


def test_kooba_runs_are_numbered():
    ax = board_plot(KoobaBoard()).draw()
    numbers = [t.get_text() for t in ax.texts]
    for step in "12345":
        assert numbers.count(step) == 4


def test_icf_base_circles_have_red_cores():
    board = IcfBoard()
    ax = board_plot(board).draw()
    cores = [
        p
        for p in ax.patches
        if getattr(p, "radius", None) == pytest.approx(board.base_circle_core_diameter / 2)
    ]
    assert len(cores) == 8
    assert all(to_hex(p.get_facecolor()) == IcfBoardPlot.base_core_color for p in cores)


def test_checkerboard_is_8_by_8():
    board = CheckerBoard()
    ax = board_plot(board).draw()
    w = board.checker_side / 8
    squares = [
        p for p in ax.patches if isinstance(p, Rectangle) and p.get_width() == pytest.approx(w)
    ]
    assert len(squares) == 64


def test_wrong_board_is_refused():
    with pytest.raises(CarromlabError):
        IcfBoardPlot(KoobaBoard())
    plot = board_plot(IcfBoard())
    with pytest.raises(CarromlabError):
        plot.draw_pieces(standard_position("kooba-opening"))


def test_generic_board_plot_draws_any_board():
    ax = BoardPlot(CarrookaBoard()).draw()
    assert len(ax.patches) > 0
