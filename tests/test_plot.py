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


# ---------------------------------------------------------------------- legends


def _legend_texts(ax) -> list[str]:
    legends = [a for a in ax.artists if a.get_gid() == "board-legend"]
    assert len(legends) == 1, "one board legend"
    return [t.get_text() for t in legends[0].get_texts()]


@pytest.mark.parametrize(("board", "cls"), BOARDS, ids=IDS)
def test_every_board_family_draws_a_legend(board, cls, tmp_path):
    ax = cls(board).draw()
    texts = _legend_texts(ax)
    assert len(texts) >= 3
    assert set(cls.piece_labels.values()) <= set(texts)  # the family's pieces, by colour
    if any(c.name.startswith("pocket") for c in board.layout.captures):
        assert "pockets" in texts
    # below the board, not clipped by it: the saved picture grows to hold it
    ax.figure.savefig(tmp_path / "board.png", dpi=40, bbox_inches="tight")
    assert not cls(board, legend=False).draw().artists
    assert not cls(board).draw(legend=False).artists


def test_company_boards_say_which_ring_is_whose():
    force_out = _legend_texts(draw_position(standard_position("force-out-opening")))
    assert force_out[:2] == ["red's rings", "green's rings"]
    assert {"centre hole", "pegs", "pockets"} <= set(force_out)
    assert "rings (nobody's)" in _legend_texts(
        draw_position(standard_position("ring-pegs-opening"))
    )
    carroms = _legend_texts(draw_position(standard_position("carroms-opening")))
    assert {"red's rings", "green's rings", "the black ring"} <= set(carroms)
    assert any("shooting lines" in t for t in carroms)
    # only the pieces of the position drawn: no shooting ring in the openings
    assert not [t for t in force_out if "shooting ring" in t]
    assert not draw_position(standard_position("carroms-opening"), legend=False).artists


def test_carrooka_legend_gives_the_colours_values():
    from carromlab.equipment.carrooka import COLOUR_VALUES

    texts = _legend_texts(draw_position(standard_position("carrooka-midgame")))
    for colour, value in COLOUR_VALUES.items():
        if colour != "red":
            assert f"{colour} ({value})" in texts
    assert "reds (1 point)" in texts and "striker" in texts


def test_icf_legend_names_coins_queen_and_baselines():
    texts = _legend_texts(draw_position(standard_position("icf-midgame")))
    assert texts[:3] == ["white coins", "black coins", "queen"]
    assert any("baselines" in t for t in texts)


# ---------------------------------------------------------------------- study figures


def test_intervals_name_each_arms_sample_size_and_title():
    import pandas as pd

    from carromlab.plot import draw_intervals, plot_ratings

    table = pd.DataFrame(
        dict(arm=["a", "b"], rate=[0.5, 0.6], lo=[0.4, 0.5], hi=[0.6, 0.7], boards=[200, 1201])
    )
    _, ax = plt.subplots()
    art = draw_intervals(table, "rate", "lo", "hi", ax=ax, n="boards", title="Rates")
    assert art is not None
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["a\nn = 200", "b\nn = 1,201"]
    assert ax.get_title() == "Rates" and ax.get_xlabel() == "n: boards an arm"
    _, ax = plt.subplots()
    draw_intervals(table, "rate", "lo", "hi", ax=ax, n="boards", unit="boards played")
    assert ax.get_xticklabels()[0].get_text() == "a\nn = 200"
    assert ax.get_xlabel() == "n: boards played an arm"
    # by default each arm's games (or boards, decisions), once where every arm has as many
    games = pd.DataFrame(dict(arm=list("abc"), rate=0.5, lo=0.4, hi=0.6, games=400))
    _, ax = plt.subplots()
    draw_intervals(games, "rate", "lo", "hi", ax=ax)
    assert ax.get_xlabel() == "n = 400 games an arm"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    # the rows' noun follows the label column; a size shared by every row says no "a row"
    options = games.rename(columns=dict(arm="option", games="decisions"))
    _, ax = plt.subplots()
    draw_intervals(options, "rate", "lo", "hi", label="option", ax=ax)
    assert ax.get_xlabel() == "n = 400 decisions an option"
    _, ax = plt.subplots()
    draw_intervals(options, "rate", "lo", "hi", label="option", ax=ax, per=None)
    assert ax.get_xlabel() == "n = 400 decisions"
    _, ax = plt.subplots()
    draw_intervals(table, "rate", "lo", "hi", ax=ax, n=None)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"] and not ax.get_xlabel()
    _, ax = plt.subplots()
    draw_intervals(table, "rate", "lo", "hi", ax=ax)
    assert ax.get_xticklabels()[1].get_text() == "b\nn = 1,201"  # the boards column
    # a win rate's fair share: a number across the axes, or each arm's own from a column
    _, ax = plt.subplots()
    draw_intervals(table, "rate", "lo", "hi", ax=ax, reference=0.5)
    (line,) = [ln for ln in ax.lines if ln.get_linestyle() == "--"]
    assert set(line.get_ydata()) == {0.5}
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["fair share 0.5"]
    seats = pd.DataFrame(
        dict(arm=["2p", "3p", "4p"], rate=0.4, lo=0.3, hi=0.5, fair=[1 / 2, 1 / 3, 1 / 4])
    )
    _, ax = plt.subplots()
    draw_intervals(seats, "rate", "lo", "hi", ax=ax, reference="fair")
    (steps,) = [p for p in ax.patches if p.get_label().startswith("fair share")]
    assert np.allclose(steps.get_data().values, [1 / 2, 1 / 3, 1 / 4])
    assert steps.get_label() == "fair share (1 / seats: 1/4 to 1/2)"
    ladder = pd.DataFrame(
        dict(player=["x", "y"], rating=[10.0, 0.0], lo=[0.0, -5.0], hi=[20.0, 5.0], games=[40, 60])
    )
    _, ax = plt.subplots()
    plot_ratings(ladder, ax=ax, n="games", title="t")
    assert {t.get_text() for t in ax.get_yticklabels()} == {"x (40 games)", "y (60 games)"}
