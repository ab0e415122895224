"""The KOOBA throw kernel and aim maps: the scatter model's moments, the slide, tags of exact
throws, reproducible keys."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from carromlab.equipment import KoobaBoard
from carromlab.errors import CarromlabError
from carromlab.games.kooba.maps import aim_map, thrower_spot
from carromlab.physics.throw import throw_batch
from carromlab.shots import THROW_SKILLS

BOARD = KoobaBoard()


def _throws(n, aim=(0.05, 0.02), skill="club", slide=0.0, seat="S", sticks=4):
    fx, fy = thrower_spot(BOARD, seat, sticks)
    sk = THROW_SKILLS[skill]
    keys = jax.random.split(jax.random.key(3), n)
    x, y, rot = throw_batch(
        keys,
        jnp.full(n, aim[0]),
        jnp.full(n, aim[1]),
        jnp.full(n, fx),
        jnp.full(n, fy),
        sk.angle,
        sk.length,
        sk.release,
        slide,
    )
    return np.asarray(x), np.asarray(y), np.asarray(rot), (fx, fy), sk


def test_scatter_grows_with_distance_along_and_across_the_line_of_flight():
    """Lateral spread d * angle, length spread d * length (plus the release error), centred
    on the aim point: checked on 40,000 throws to within 3 %."""
    n = 40_000
    aim = (0.05, 0.02)
    x, y, rot, (fx, fy), sk = _throws(n, aim)
    d = math.hypot(aim[0] - fx, aim[1] - fy)
    tx, ty = (aim[0] - fx) / d, (aim[1] - fy) / d
    along = (x - aim[0]) * tx + (y - aim[1]) * ty
    across = -(x - aim[0]) * ty + (y - aim[1]) * tx
    assert abs(along.mean()) < 4 * math.hypot(d * sk.length, sk.release) / math.sqrt(n)
    assert along.std() == pytest.approx(math.hypot(d * sk.length, sk.release), rel=0.03)
    assert across.std() == pytest.approx(math.hypot(d * sk.angle, sk.release), rel=0.03)
    assert abs(np.corrcoef(along, across)[0, 1]) < 0.02
    assert 0 <= rot.min() and rot.max() < 2 * math.pi
    # from 5 stick lengths (Pro) the spread is 5/4 as wide (the release error aside)
    x5, y5, *_ = _throws(n, aim, sticks=5)
    assert np.hypot(x5 - aim[0], y5 - aim[1]).std() > np.hypot(x - aim[0], y - aim[1]).std()


def test_exact_throws_land_on_the_aim_and_slides_go_along_the_flight():
    x, y, *_ = _throws(100, skill="exact")
    np.testing.assert_allclose(x, 0.05, atol=1e-7)
    np.testing.assert_allclose(y, 0.02, atol=1e-7)
    x, y, _, (fx, fy), _ = _throws(20_000, skill="exact", slide=0.01)
    d = math.hypot(0.05 - fx, 0.02 - fy)
    along = (x - 0.05) * (0.05 - fx) / d + (y - 0.02) * (0.02 - fy) / d
    assert along.min() >= 0 and along.mean() == pytest.approx(0.01, rel=0.03)


def test_aim_map_tags_of_exact_throws():
    """Exact throws: aimed at the centre an Aero covers the KOOBA, the Eye and the Inner
    Eye; aimed at a penalty corner it tags a penalty zone; aimed off the board it falls; a
    South thrower's own run is the South run."""
    zones = BOARD.zones
    corner = np.array(zones["penalty.N"].points).mean(axis=0)
    run = np.array(zones["run.S.3"].points).mean(axis=0)
    cells = [(0.0, 0.0), tuple(corner), tuple(run), (0.0, BOARD.half + 0.05)]
    rows = [aim_map([cx], [cy], "exact", n=8, seed=1).iloc[0] for cx, cy in cells]
    centre, pen, own, off = rows
    assert centre.p_kooba == 1 and centre.p_eye == 1 and centre.p_inner_eye == 1
    assert centre.p_penalty == 0 and centre.p_off == 0
    assert pen.p_penalty == 1 and pen.p_eye == 0
    assert own.p_own_run == 1
    assert off.p_off == 1 and off.p_eye == 0 and off.p_penalty == 0


def test_aim_map_is_reproducible_and_has_intervals():
    a = aim_map([0.0, 0.1], [0.0], "club", n=200, seed=5)
    b = aim_map([0.0, 0.1], [0.0], "club", n=200, seed=5)
    c = aim_map([0.0, 0.1], [0.0], "club", n=200, seed=6)
    assert a.equals(b) and not a.equals(c)
    assert (a.p_eye_lo <= a.p_eye).all() and (a.p_eye <= a.p_eye_hi).all()
    assert a.attrs["config"]["kind"] == "kooba_aim_map"
    with pytest.raises(CarromlabError, match="throw skill"):
        aim_map([0.0], [0.0], "wizard")
    with pytest.raises(CarromlabError, match="seat"):
        aim_map([0.0], [0.0], "club", seat="Q")


def test_draw_aim_map_puts_the_grid_over_the_board():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from carromlab.plot.kooba import draw_aim_map

    df = aim_map(np.linspace(-0.1, 0.1, 5), np.linspace(-0.1, 0.1, 4), "club", n=50, seed=2)
    mesh = draw_aim_map(df, "p_inner_eye")
    z = mesh.get_array().reshape(4, 5)
    centre = df[(df.aim_x == 0.0) & (df.aim_y.abs() < 0.04)]["p_inner_eye"].max()
    assert z.max() == pytest.approx(df["p_inner_eye"].max()) and centre > 0.5
    assert mesh.norm.vmin == 0.0 and mesh.norm.vmax == 1.0
    # a title in words, not the column's name; the best aim point starred and named
    ax = mesh.axes
    assert "p_inner_eye" not in ax.get_title() and "Inner Eye" in ax.get_title()
    (star,) = [line for line in ax.lines if line.get_gid() == "best"]
    best = df.loc[df["p_inner_eye"].idxmax()]
    assert (star.get_xdata()[0], star.get_ydata()[0]) == (best.aim_x, best.aim_y)
    (legend,) = [a for a in ax.artists if a.get_gid() == "board-legend"]
    (label,) = [t.get_text() for t in legend.get_texts() if t.get_text().startswith("best")]
    assert f"{best.p_inner_eye:.2f} (95 % {best.p_inner_eye_lo:.2f} to" in label
    as_good = int((df["p_inner_eye_hi"] >= best.p_inner_eye_lo).sum()) - 1
    assert (f"{as_good} other aim point" in label) == (as_good > 0)
    plt.close("all")
