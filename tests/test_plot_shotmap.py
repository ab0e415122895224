"""Shot-map drawing and recorded-shot drawing: artists, masks, colour scales (one
ColourScale object: fitted by default, fixed on request, shared by panels), titles that say
what a map shows (a MapContext), the best cell on the grid's edge, target maps of legal pots
only, given shots' aims and a shot's chances on the board (PositionPlot), legends, exact
positions."""

import matplotlib

matplotlib.use("Agg")

import warnings

import jax
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.animation import FuncAnimation
from matplotlib.collections import LineCollection, QuadMesh
from matplotlib.colors import Normalize
from matplotlib.lines import Line2D

from carromlab.bench.runner import scenario_template
from carromlab.bench.scenarios import scenario
from carromlab.physics import Physics
from carromlab.physics.kernel import make_simulator
from carromlab.plot import ColourScale, MapContext, PositionPlot, board_plot
from carromlab.plot.shotmap import (
    POINTS_LIMIT,
    POINTS_NOTES,
    BestOnEdgeWarning,
    default_norm,
    draw_aims,
    draw_chances,
    draw_shotmap,
    draw_shotmap_on_board,
    draw_target_map,
    shotmap_grid,
    warn_edge,
)
from carromlab.plot.trajectory import animate_shot, draw_trajectories, positions_at
from carromlab.registry import standard_position
from carromlab.shots import place_shooter

PLACEMENTS = np.linspace(-0.15, 0.15, 7)
ANGLES = np.linspace(50.0, 130.0, 9)
MIN_N = 20
DECEL = Physics().deceleration


@pytest.fixture(autouse=True)
def _close_figures(monkeypatch):
    def no_show(*args, **kwargs):
        raise AssertionError("the library must not call plt.show()")

    monkeypatch.setattr(plt, "show", no_show)
    yield
    plt.close("all")


def _shotmap(speeds=(2.0,)) -> pd.DataFrame:
    """7 placements x 9 angles (x speeds): a smooth bump in [0.02, 0.62], n varying."""
    p, a, s = (g.ravel() for g in np.meshgrid(PLACEMENTS, ANGLES, speeds, indexing="ij"))
    prob = 0.02 + 0.6 * np.exp(-(((p - 0.05) / 0.08) ** 2) - ((a - 80.0) / 20.0) ** 2)
    prob = prob * (0.8 + 0.1 * s)
    n = 10 + (np.arange(p.size) * 37) % 90  # 10..99: some cells below MIN_N
    return pd.DataFrame(
        dict(
            placement=p,
            angle=a,
            speed=s,
            n=n,
            p_continue=prob,
            p_foul=0.1 * (1 - prob),
            points=4.0 * prob - 1.0,
        )
    )


def test_draw_shotmap_masks_cells_and_marks_the_best():
    df = _shotmap()
    mesh = draw_shotmap(df, min_n=MIN_N)
    assert isinstance(mesh, QuadMesh)
    z = mesh.get_array()
    assert z.shape == (ANGLES.size, PLACEMENTS.size)
    # masked exactly where n < MIN_N
    low = np.zeros(z.shape, bool)
    ix = np.searchsorted(PLACEMENTS, df.placement)
    iy = np.searchsorted(ANGLES, df.angle)
    low[iy, ix] = df.n.to_numpy() < MIN_N
    assert low.any() and not low.all()
    np.testing.assert_array_equal(np.ma.getmaskarray(z), low)
    # default norm for probabilities: fitted, 0 to the largest drawn value (not 0..1)
    assert mesh.norm.vmin == 0.0
    assert mesh.norm.vmax == pytest.approx(z.max()) and z.max() < 0.7
    # the star sits on the argmax of the unmasked cells
    stars = [line for line in mesh.axes.lines if line.get_gid() == "best"]
    assert len(stars) == 1 and stars[0].get_marker() == "*"
    ok = df[df.n >= MIN_N]
    best = ok.loc[ok.p_continue.idxmax()]
    np.testing.assert_allclose(stars[0].get_xydata()[0], [best.placement, best.angle])
    assert mesh.axes.get_xlabel().endswith("(m)") and "°" in mesh.axes.get_ylabel()


def test_draw_shotmap_norms_and_axes():
    df = _shotmap(speeds=(1.5, 2.0, 2.5))
    with pytest.raises(ValueError, match="several rows"):
        draw_shotmap(df)
    _, axs = plt.subplots(1, 3)
    one = df[df.speed == 2.0]
    pts = draw_shotmap(one, value="points", ax=axs[0], mark_best=False)
    # points: fitted and symmetric about 0, diverging colour map
    biggest = np.abs(one.points).max()
    assert (pts.norm.vmin, pts.norm.vmax) == pytest.approx((-biggest, biggest))
    assert biggest < POINTS_LIMIT / 2 and pts.cmap.name == "RdBu"
    assert not [line for line in axs[0].lines if line.get_gid() == "best"]
    mine = draw_shotmap(
        one, value="p_foul", ax=axs[1], scale=Normalize(0, 0.2), colorbar=False, mark_best=False
    )
    assert mine.norm.vmax == 0.2
    # any two grid columns: speed x angle at one placement
    with pytest.warns(BestOnEdgeWarning):  # the best speed is the grid's highest
        by_speed = draw_shotmap(df[df.placement == PLACEMENTS[3]], x="speed", y="angle", ax=axs[2])
    assert by_speed.get_array().shape == (ANGLES.size, 3)
    assert axs[2].get_xlabel() == "speed (m/s)"
    assert default_norm("p_continue_lo").vmax == 1.0  # no data: 0..1
    assert default_norm("points_hi").vmin == -1.0
    assert default_norm("points_hi", scale="fixed").vmin == -POINTS_LIMIT
    assert default_norm("p_foul", [0.01, 0.21], scale="fixed").vmax == 1.0
    with pytest.raises(ValueError, match="scale"):
        default_norm("points", [1.0], scale="pale")


def test_colour_scales_fitted_fixed_and_by_hand():
    one = _shotmap()
    _, axs = plt.subplots(2, 3)
    # probabilities: 0..max of the data (0.21 stays 0.21, not 0..1), sequential
    low = one.assign(p_continues=one.p_continue * 0.34)
    fitted = draw_shotmap(low, value="p_continues", ax=axs[0, 0], mark_best=False)
    assert fitted.norm.vmin == 0.0
    assert fitted.norm.vmax == pytest.approx(low.p_continues.max()) and fitted.norm.vmax < 0.25
    assert fitted.cmap.name == "viridis"
    fixed = draw_shotmap(low, value="p_continues", ax=axs[0, 1], scale="fixed", mark_best=False)
    assert (fixed.norm.vmin, fixed.norm.vmax) == (0.0, 1.0)
    by_hand = draw_shotmap(
        low,
        "p_continues",
        ax=axs[0, 2],
        scale=ColourScale("p_continues", vmax=0.5),
        mark_best=False,
    )
    assert (by_hand.norm.vmin, by_hand.norm.vmax) == (0.0, 0.5)
    # points: symmetric about 0 even when the data are lopsided (-1.06..0.78)
    p = one.p_continue
    lop = one.assign(points=np.interp(p, [p.min(), p.max()], [-1.06, 0.78]))
    pts = draw_shotmap(lop, value="points", ax=axs[1, 0], mark_best=False)
    assert (pts.norm.vmin, pts.norm.vmax) == pytest.approx((-1.06, 1.06))
    pts_fixed = draw_shotmap(lop, value="points", ax=axs[1, 1], scale="fixed", mark_best=False)
    assert (pts_fixed.norm.vmin, pts_fixed.norm.vmax) == (-POINTS_LIMIT, POINTS_LIMIT)
    lc = draw_shotmap_on_board(lop, scenario("cut").position, value="points", ax=axs[1, 2])
    assert (lc.norm.vmin, lc.norm.vmax) == pytest.approx((-1.06, 1.06))
    sc = draw_shotmap_on_board(
        lop, scenario("cut").position, value="points", scale="fixed", colorbar=False
    )
    assert (sc.norm.vmin, sc.norm.vmax) == (-POINTS_LIMIT, POINTS_LIMIT)


def _with_config(df: pd.DataFrame, **config) -> pd.DataFrame:
    df = df.copy()
    df.attrs["config"] = {"variant": "icf", "position": "icf-midgame", **config}
    return df


def test_titles_name_position_skill_n_and_the_meaning():
    df = _with_config(_shotmap(), skill={"name": "club", "angle": 0.013}, n=200)
    mesh = draw_shotmap(df, value="points")
    title = mesh.axes.get_title()
    for words in ("icf-midgame", "expected points per stroke", "club player", "n = 200"):
        assert words in title
    assert "own coin +1" in title and "2 m/s" in title
    lc = draw_shotmap_on_board(df, scenario("cut").position, value="points")
    assert "club player" in lc.axes.get_title() and "n = 200" in lc.axes.get_title()
    # a frame without a configuration: skill and n from the arguments, else the n column
    plain = _shotmap()
    named = draw_shotmap(plain, value="p_continue", context=MapContext(skill="expert", n=50))
    assert "expert player" in named.axes.get_title() and "n = 50" in named.axes.get_title()
    counted = draw_shotmap(plain.assign(n=80), value="p_continue")
    assert "n = 80 shots per cell" in counted.axes.get_title()
    assert draw_shotmap(plain, title="mine").axes.get_title() == "mine"


def test_best_cell_named_with_its_interval():
    df = _shotmap().assign(points_lo=lambda d: d.points - 0.1, points_hi=lambda d: d.points + 0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BestOnEdgeWarning)  # the best cell is inside the grid
        mesh = draw_shotmap(df, value="points", min_n=MIN_N)
    ok = df[df.n >= MIN_N]
    best = ok.loc[ok.points.idxmax()]
    labels = [t.get_text() for t in mesh.axes.get_legend().get_texts()]
    assert labels[0].startswith(f"best: {best.points:.2f} (95 % {best.points - 0.1:.2f} to")
    assert not [t for t in mesh.axes.texts if t.get_gid() == "edge-warning"]
    assert any("cells near the best" in lb for lb in labels)
    assert any("grey" in lb for lb in labels)  # some cells are masked


def test_best_cell_on_the_edge_is_flagged():
    df = _shotmap()
    edge = df.assign(p_continue=np.where(df.angle == ANGLES[-1], 0.9, df.p_continue))
    with pytest.warns(BestOnEdgeWarning, match="angle = 130"):
        mesh = draw_shotmap(edge)
    ax = mesh.axes
    # written under the map, in red beside the star's entry: nothing on the map hides the star
    assert not [t for t in ax.texts if t.get_gid() == "edge-warning"]
    legend = ax.get_legend().get_texts()
    texts = [t for t in legend if t.get_gid() == "edge-warning"]
    assert len(texts) == 1 and "edge" in texts[0].get_text()
    assert legend[0].get_text().startswith("best:") and legend[1] is texts[0]
    ax.figure.canvas.draw()
    (star,) = [line for line in ax.lines if line.get_gid() == "best"]
    at = ax.transData.transform((star.get_xdata()[0], star.get_ydata()[0]))
    box = texts[0].get_window_extent()
    assert not box.contains(*at) and box.y1 < ax.get_window_extent().y0
    # written on the axes (warn_edge's own box): away from a star in the upper half
    for y, top in ((ANGLES[-1], False), (ANGLES[0], True)):
        fig, ax2 = plt.subplots()
        ax2.set_xlim(0, 1)
        ax2.set_ylim(ANGLES[0], ANGLES[-1])
        with pytest.warns(BestOnEdgeWarning):
            warn_edge(ax2, [("angle", y, "x")], avoid=(0.5, y))
        (t,) = [t for t in ax2.texts if t.get_gid() == "edge-warning"]
        fig.canvas.draw()
        at = ax2.transData.transform((0.5, y))
        assert not t.get_bbox_patch().get_window_extent().contains(*at)
        assert (t.get_position()[1] > 0.5) == top
        plt.close(fig)
    # an angle axis that goes all the way round has no edge
    p, a = (g.ravel() for g in np.meshgrid([0.0], np.arange(0.0, 360.0, 30.0), indexing="ij"))
    s = np.ones_like(a)
    ring = pd.DataFrame(dict(placement=p, angle=a, speed=s, n=10, p_x=np.where(a == 0, 0.9, 0.1)))
    ring = pd.concat([ring, ring.assign(speed=2.0, p_x=0.2)], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BestOnEdgeWarning)
        draw_shotmap(ring.iloc[:12], value="p_x", x="angle", y="speed")  # best at angle 0
    with pytest.warns(BestOnEdgeWarning, match="speed = 1") as caught:  # the lowest speed
        draw_shotmap(ring, value="p_x", x="angle", y="speed")
    assert "angle" not in str(caught[0].message)
    # no star, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", BestOnEdgeWarning)
        draw_shotmap(edge, mark_best=False)
        draw_shotmap(edge, warn_edge_cell=False)


def test_points_notes_agree_with_the_rules():
    from carromlab.equipment.carrooka import COLOUR_VALUES
    from carromlab.games.carroms.rules import CarromsScoring
    from carromlab.games.force_out.rules import ForceOutScoring
    from carromlab.games.icf.rules import IcfScoring

    def note(variant):
        return POINTS_NOTES[variant].replace("−", "-")

    icf = IcfScoring()
    for words, v in (
        ("own coin", icf.own_coin),
        ("opponent's coin", icf.opponent_coin),
        ("queen covered", icf.queen_covered),
        ("striker pocketed", icf.due),
    ):
        assert f"{words} {v:+g}" in note("icf") == note("icf-doubles")
    c = CarromsScoring()
    for words, v in (
        ("own ring", c.own_ring),
        ("the black", c.black),
        ("opponent's ring", c.opponent_ring),
        ("forfeited ring", c.forfeit),
    ):
        assert f"{words} {v:+g}" in note("carroms")
    ring = ForceOutScoring().ring
    assert f"forced out {ring:+g}" in note("force-out") and f"{-ring:+g}" in note("force-out")
    for colour in ("red", "yellow", "black"):
        assert f"{colour} {COLOUR_VALUES[colour]}" in note("carrooka")


def test_the_plots_points_notes_are_the_games_own():
    """The plots sit below the registry, so they keep a copy of each game's ``points_notes``
    (the caption of a ``points`` map); the copy must say what the game declares."""
    from carromlab.registry import GAMES, game_names

    game_names()  # the built-in games loaded
    declared = {v: note for g in GAMES.values() for v, note in g.points_notes.items()}
    assert declared == POINTS_NOTES


def test_shotmap_grid_masks_missing_cells():
    df = _shotmap().iloc[1:]  # one cell missing
    _, _, z = shotmap_grid(df, "p_continue")
    assert np.ma.getmaskarray(z)[0, 0] and z.count() == z.size - 1


def test_draw_shotmap_on_board_and_target_map():
    sc = scenario("cut")
    df = _shotmap(speeds=(1.5, 2.0))
    lc = draw_shotmap_on_board(df, sc.position, speed=2.0, min_n=MIN_N)
    assert isinstance(lc, LineCollection)
    at_speed = df[(df.speed == 2.0) & (df.n >= MIN_N)]
    segs = lc.get_segments()
    assert len(segs) == len(at_speed)
    assert (lc.norm.vmin, lc.norm.vmax) == pytest.approx((0.0, at_speed.p_continue.max()))
    # rays start on the baseline at a placement and have the given length
    starts = np.array([s[0] for s in segs])
    ends = np.array([s[1] for s in segs])
    assert np.allclose(starts[:, 1], sc.shot.y)
    assert np.isin(np.round(starts[:, 0], 9), np.round(PLACEMENTS, 9)).all()
    np.testing.assert_allclose(np.hypot(*(ends - starts).T), 0.25)
    # drawn by increasing value, the last one the best, aimed at its angle
    vals = lc.get_array()
    assert np.all(np.diff(vals) >= 0)
    best = at_speed.loc[at_speed.p_continue.idxmax()]
    d = ends[-1] - starts[-1]
    assert np.degrees(np.arctan2(d[1], d[0])) == pytest.approx(best.angle)

    # the legend below the board names the pieces and the best aim
    legend = _board_legend(lc.axes)
    assert "white coins" in legend and any(t.startswith("best aim: ") for t in legend)

    targets = pd.DataFrame(
        dict(
            piece=["w1", "w1", "q", "b1"],
            pocket=["pocket.NE", "pocket.NW", "pocket.SE", "pocket.SW"],
            p_best=[0.8, 0.2, 0.05, 0.5],
        )
    )
    tm = draw_target_map(targets, sc.position)
    assert isinstance(tm, LineCollection)
    assert len(tm.get_segments()) == 3  # the best pocket of each piece
    assert (tm.norm.vmin, tm.norm.vmax) == (0.0, 0.8)  # fitted: 0..max
    w1 = sc.position.by_id("w1")
    assert np.allclose(tm.get_segments()[-1][0], [w1.x, w1.y])  # highest p_best on top
    every = draw_target_map(targets, sc.position, best_only=False, scale="fixed")
    assert len(every.get_segments()) == len(targets)
    assert (every.norm.vmin, every.norm.vmax) == (0.0, 1.0)
    assert "line: piece to pocket" in " ".join(_board_legend(every.axes))
    with pytest.raises(ValueError, match="capture"):
        draw_target_map(targets.assign(pocket="pocket.XX"), sc.position)


def _board_legend(ax) -> list[str]:
    legends = [a for a in ax.artists if a.get_gid() == "board-legend"]
    assert len(legends) == 1
    return [t.get_text() for t in legends[0].get_texts()]


def _targets(position, p_of) -> pd.DataFrame:
    """Every piece into every pocket, p_best = p_of(piece id, pocket index)."""
    caps = [c.name for c in position.board.layout.captures]
    rows = [
        {"piece": p.id, "pocket": c, "p_best": p_of(p.id, k)}
        for p in position.pieces
        if p.kind != "striker"
        for k, c in enumerate(caps)
    ]
    return pd.DataFrame(rows)


def _starts(lc, position) -> set[str]:
    at = {(round(p.x, 9), round(p.y, 9)): p.id for p in position.pieces}
    return {at[(round(s[0][0], 9), round(s[0][1], 9))] for s in lc.get_segments()}


def test_icf_target_map_shows_only_the_shooters_own_coins():
    from carromlab.games.icf.rules import IcfRules, IcfTurn

    pos = standard_position("icf-midgame")
    df = _targets(pos, lambda pid, k: 0.1 + 0.2 * k + (0.05 if pid.startswith("b") else 0.0))
    legal = IcfRules().legal_pots(pos)  # white to shoot, no own coin down: no queen
    lc = draw_target_map(df, pos, legal=legal)
    drawn = _starts(lc, pos)
    assert drawn == {p.id for p in pos.pieces if p.kind == "coin" and p.owner == "white"}
    assert len(lc.get_segments()) == len(drawn)  # one line per coin, its best pocket
    widths = np.asarray(lc.get_linewidths())
    assert np.all(np.diff(lc.get_array()) >= 0) and np.all(np.diff(widths) >= 0)
    assert "only what the shooter may pocket: white coins" in lc.axes.get_title()
    black = IcfRules().legal_pots(pos, IcfTurn(shooter="black", own_down=2))
    assert {pid[0] for pid in black} == {"b", "q"}  # black's coins, and the queen now
    # a boolean 'legal' column of the frame is honoured too
    own = draw_target_map(df.assign(legal=df.piece.str.startswith("w")), pos)
    assert not {pid for pid in _starts(own, pos) if not pid.startswith("w")}


def test_carrooka_target_map_no_colour_while_red_is_on():
    from carromlab.games.carrooka.rules import CarrookaRules, CarrookaTurn

    pos = standard_position("carrooka-midgame")
    df = _targets(pos, lambda pid, k: 0.9 if pid == "pink" else 0.05 + 0.01 * k)
    red_on = CarrookaRules().legal_pots(pos)  # red is on: the reds only
    lc = draw_target_map(df, pos, legal=red_on)
    assert _starts(lc, pos) == {p.id for p in pos.pieces if p.kind == "red"}
    assert "pink" not in _starts(lc, pos)
    assert "pocket: reds (1 point)," in lc.axes.get_title()
    pink_on = CarrookaRules().legal_pots(pos, CarrookaTurn("pink"))
    assert _starts(draw_target_map(df, pos, legal=pink_on), pos) == {"pink"}
    # min_p leaves out the unlikely lines; nothing left is said in the legend
    empty = draw_target_map(df, pos, legal=red_on, min_p=0.5)
    assert not len(empty.get_segments())
    assert "no legal target reaches it" in _board_legend(empty.axes)


def test_colour_scale_fits_once_and_is_shared():
    one = _shotmap()
    scale = ColourScale("points")
    assert not scale.fitted and scale.kind == "signed" and scale.colormap.name == "RdBu"
    fitted = scale.fit(one.points)
    biggest = np.abs(one.points).max()
    assert (fitted.norm.vmin, fitted.norm.vmax) == pytest.approx((-biggest, biggest))
    assert fitted.fit([10.0]) is fitted  # a fitted scale keeps its range
    assert ColourScale("points", fixed=True).fit(one.points).norm.vmax == POINTS_LIMIT
    assert ColourScale("p_foul", vmin=0.1).fit([0.3]).norm.vmin == 0.1
    assert ColourScale("p_foul", cmap="magma").colormap.name == "magma"
    assert fitted.extend([0.0]) == "neither" and fitted.extend([9.0, -9.0]) == "both"
    assert fitted.label == "points per stroke" and ColourScale("p_foul").label == "P(foul)"
    # one scale for two panels: the board's aims drawn on the heat map's range
    _, axs = plt.subplots(1, 2)
    half = one[one.placement < 0]  # a smaller range than the whole map's
    mesh = draw_shotmap(one, "points", ax=axs[0], scale=fitted, mark_best=False)
    lc = draw_shotmap_on_board(half, scenario("cut").position, "points", ax=axs[1], scale=fitted)
    assert mesh.norm is lc.norm is fitted.norm
    assert ColourScale.of("points", "fixed").fixed and ColourScale.of("points", None) == scale
    with pytest.raises(ValueError, match="scale"):
        ColourScale.of("points", "pale")
    with pytest.raises(TypeError, match="scale"):
        ColourScale.of("points", 3)
    with pytest.raises(ValueError, match="not fitted"):
        scale.colour(0.5)


def test_the_earlier_keywords_still_work():
    """norm, cmap, vmin, vmax, skill and n fill the scale's and the context's fields."""
    one = _shotmap()
    old = draw_shotmap(one, "p_foul", norm=Normalize(0, 0.2), cmap="magma", mark_best=False)
    assert old.norm.vmax == 0.2 and old.cmap.name == "magma"
    by_hand = draw_shotmap(one, "p_continue", vmax=0.5, skill="expert", n=50, mark_best=False)
    assert by_hand.norm.vmax == 0.5
    assert "expert player" in by_hand.axes.get_title() and "n = 50" in by_hand.axes.get_title()
    pos = scenario("cut").position
    lc = draw_shotmap_on_board(one, pos, "points", vmin=-2.0, skill="pro", colorbar=False)
    assert lc.norm.vmin == -2.0 and "pro player" in lc.axes.get_title()
    targets = pd.DataFrame(dict(piece=["w1"], pocket=["pocket.NE"], p_best=[0.4]))
    assert draw_target_map(targets, pos, vmax=0.5).norm.vmax == 0.5
    with pytest.raises(TypeError, match="wobble"):
        draw_shotmap(one, wobble=1)


def _best_rows(position) -> pd.DataFrame:
    return pd.DataFrame(
        dict(
            rank=[2, 1, 3],
            placement=[0.05, -0.05, 0.10],
            angle=[80.0, 66.0, 120.0],
            speed=[2.0, 2.5, 1.5],
            points=[0.4, 0.7, -0.2],
            points_lo=[0.3, 0.6, -0.3],
            points_hi=[0.5, 0.8, -0.1],
            n=[100, 100, 100],
        )
    )


def test_aims_ranked_from_where_each_shot_starts():
    pos = standard_position("icf-midgame")
    rows = _best_rows(pos)
    lc = draw_aims(rows, pos, "points", ray_length=0.3)
    segs = lc.get_segments()
    assert len(segs) == 3
    # the first ranked drawn last, widest, from its placement on the baselines
    assert lc.get_array()[-1] == 0.7 and lc.get_linewidths()[-1] == max(lc.get_linewidths())
    assert segs[-1][0][0] == pytest.approx(-0.05)
    assert segs[-1][0][1] == pytest.approx(sum(pos.board.baseline_y()) / 2)
    d = segs[-1][1] - segs[-1][0]
    assert np.hypot(*d) == pytest.approx(0.3)
    assert np.degrees(np.arctan2(d[1], d[0])) == pytest.approx(66.0)
    ranks = sorted(t.get_text() for t in lc.axes.texts if t.get_gid() == "aim-rank")
    assert ranks == ["1", "2", "3"]
    legend = _board_legend(lc.axes)
    assert any(t.startswith("1: 0.70 (95 % 0.60 to 0.80), x = -0.050 m, aim 66°") for t in legend)
    assert "the best shots" in lc.axes.get_title()
    # rows that carry their origin start there; without a placement the legend gives none
    spot = rows.drop(columns="placement").assign(x0=0.05, y0=-0.25)
    carried = draw_aims(spot, pos, "points", shooter=True, colorbar=False)
    assert np.allclose([s[0] for s in carried.get_segments()], [0.05, -0.25])
    assert [p for p in carried.axes.patches if p.get_gid() == "shooter"]
    assert not [t for t in _board_legend(carried.axes) if "x = " in t]


def test_chances_ring_the_pieces_over_a_drawn_position():
    pos = standard_position("icf-midgame")
    view = PositionPlot(pos)
    ax = view.draw(legend=False)
    rings = view.chances({"w1": 0.6, "b8": 0.03, "q": 0.001}, ax=ax)
    assert [r.get_gid() for r in rings] == ["chance:b8", "chance:w1"]  # under 1 %: left out
    w1 = pos.by_id("w1")
    assert rings[-1].center == pytest.approx((w1.x, w1.y))
    labels = [t.get_text() for t in ax.texts if t.get_gid() == "chance-label"]
    assert labels == ["b8 3%", "w1 60%"]
    assert draw_chances(pos, pd.Series({"w1": 0.0}), colorbar=False) == []


def test_position_plot_draws_with_its_own_board_plot():
    pos = scenario("cut").position
    view = PositionPlot(pos, axis=True)  # the axes kept, in metres
    assert view.plot.axis and "PositionPlot" in repr(view)
    with pytest.raises(TypeError, match="not both"):
        PositionPlot(pos, board_plot(pos.board), axis=True)
    df = _shotmap()
    lc = view.shotmap(df, "points", colorbar=False)
    assert lc.axes.get_xlabel() == "x (m)"  # drawn by the given plot
    aims = view.aims(_best_rows(pos), "points", colorbar=False)
    assert aims.axes.get_xlabel() == "x (m)"
    targets = pd.DataFrame(dict(piece=["w1"], pocket=["pocket.NE"], p_best=[0.4]))
    assert view.targets(targets, colorbar=False).axes.get_xlabel() == "x (m)"
    assert view.draw().get_xlabel() == "x (m)"


@pytest.fixture(scope="module")
def cut_trace():
    sc = scenario("cut")
    table, template, pieces = scenario_template(sc)
    sim = jax.jit(make_simulator(table, pieces.n, 128, record=True))
    outcome, trace = sim(place_shooter(template, sc.shot), Physics())
    return sc, jax.device_get(outcome), jax.device_get(trace)


def test_draw_trajectories_paths_start_at_the_pieces(cut_trace):
    sc, outcome, trace = cut_trace
    lines = draw_trajectories(sc.position, [trace, trace], DECEL)
    assert lines and all(isinstance(line, Line2D) for line in lines)
    assert {"striker's path", "pocketed here"} <= set(_board_legend(lines[0].axes))
    paths = [line for line in lines if line.get_gid().startswith("path:")]
    start = {"striker": (sc.shot.x, sc.shot.y)} | {p.id: (p.x, p.y) for p in sc.position.pieces}
    ids = {line.get_gid().split(":")[2] for line in paths}
    assert {"striker", "w1"} <= ids
    for line in paths:
        pid = line.get_gid().split(":")[2]
        np.testing.assert_allclose(line.get_xydata()[0], start[pid], atol=1e-6)
    # the cut pockets w1: its path ends at its capture mark
    marks = [line for line in lines if line.get_gid().startswith("capture:")]
    assert int(outcome.capture[1]) >= 0 and len(marks) == 2
    w1 = next(line for line in paths if line.get_gid() == "path:0:w1").get_xydata()
    w1 = w1[np.isfinite(w1).all(axis=1)]
    np.testing.assert_allclose(w1[-1], marks[0].get_xydata()[0])


def test_position_plot_paths(cut_trace):
    sc, _, trace = cut_trace
    lines = PositionPlot(sc.position, axis=True).paths(trace, DECEL, legend=False)
    assert lines and lines[0].axes.get_xlabel() == "x (m)"
    assert not [a for a in lines[0].axes.artists if a.get_gid() == "board-legend"]


def test_positions_at_start_and_end(cut_trace):
    sc, outcome, trace = cut_trace
    t_end = float(outcome.t_end)
    x, y, alive = positions_at(trace, [0.0, t_end / 2, t_end, t_end + 1.0], DECEL)
    assert x.shape == y.shape == alive.shape == (4, len(sc.position.pieces) + 1)
    np.testing.assert_allclose(x[0], np.asarray(trace.x[0]), atol=1e-6)
    np.testing.assert_allclose(y[0], np.asarray(trace.y[0]), atol=1e-6)
    assert alive[0].all()
    for k in (2, 3):
        on = np.asarray(outcome.alive)
        np.testing.assert_array_equal(alive[k], on)
        np.testing.assert_allclose(x[k][on], np.asarray(outcome.x)[on], atol=1e-6)
        np.testing.assert_allclose(y[k][on], np.asarray(outcome.y)[on], atol=1e-6)
    # w1 disappears at its capture time
    tc = float(outcome.capture_time[1])
    _, _, a = positions_at(trace, [tc - 1e-3, tc + 1e-3], DECEL)
    assert a[0, 1] and not a[1, 1]


def test_animate_shot_writes_a_gif(cut_trace, tmp_path):
    from PIL import Image

    sc, _, trace = cut_trace
    path = tmp_path / "shot.gif"
    anim = animate_shot(sc.position, trace, DECEL, path=path, fps=5, duration=0.6)
    assert isinstance(anim, FuncAnimation)
    with Image.open(path) as im:
        assert im.n_frames > 1
