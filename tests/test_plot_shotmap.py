"""Shot-map drawing and recorded-shot drawing: artists, masks, fixed norms, exact positions."""

import matplotlib

matplotlib.use("Agg")

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
from carromlab.physics.simulate import make_simulator
from carromlab.plot.shotmap import (
    POINTS_LIMIT,
    default_norm,
    draw_shotmap,
    draw_shotmap_on_board,
    draw_target_map,
    shotmap_grid,
)
from carromlab.plot.trajectory import animate_shot, draw_trajectories, positions_at
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
    # default norm for probabilities: fixed (0, 1), whatever the data's range (0.02..0.6)
    assert (mesh.norm.vmin, mesh.norm.vmax) == (0.0, 1.0)
    assert df.p_continue.max() < 0.7
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
    assert (pts.norm.vmin, pts.norm.vmax) == (-POINTS_LIMIT, POINTS_LIMIT)
    assert not [line for line in axs[0].lines if line.get_gid() == "best"]
    mine = draw_shotmap(one, value="p_foul", ax=axs[1], norm=Normalize(0, 0.2), colorbar=False)
    assert mine.norm.vmax == 0.2
    # any two grid columns: speed x angle at one placement
    by_speed = draw_shotmap(df[df.placement == PLACEMENTS[3]], x="speed", y="angle", ax=axs[2])
    assert by_speed.get_array().shape == (ANGLES.size, 3)
    assert axs[2].get_xlabel() == "speed (m/s)"
    assert default_norm("p_continue_lo").vmax == 1.0
    assert default_norm("points_hi").vmin == -POINTS_LIMIT


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
    assert (lc.norm.vmin, lc.norm.vmax) == (0.0, 1.0)
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

    targets = pd.DataFrame(
        dict(
            piece=["w1", "w1", "q", "b1"],
            pocket=["pocket.NE", "pocket.NW", "pocket.SE", "pocket.SW"],
            p_best=[0.8, 0.2, 0.05, 0.5],
        )
    )
    tm = draw_target_map(targets, sc.position)
    assert isinstance(tm, LineCollection)
    assert len(tm.get_segments()) == len(targets)
    assert (tm.norm.vmin, tm.norm.vmax) == (0.0, 1.0)
    w1 = sc.position.by_id("w1")
    assert np.allclose(tm.get_segments()[-1][0], [w1.x, w1.y])  # highest p_best on top
    with pytest.raises(ValueError, match="capture"):
        draw_target_map(targets.assign(pocket="pocket.XX"), sc.position)


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
