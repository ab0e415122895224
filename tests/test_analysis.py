"""Analysis layer: estimates with intervals, shot maps, determinism, bad input."""

import math

import numpy as np
import pytest

from carromlab.analysis import estimate, shot_map
from carromlab.analysis.intervals import mean_interval, wilson
from carromlab.errors import CarromlabError
from carromlab.games.icf.striker import baseline_y
from carromlab.position import Piece, Position
from carromlab.registry import standard_position
from carromlab.shots import Shot

Y0 = baseline_y(standard_position("icf-opening").board)


def one_coin_position(x, y, pid="w1", owner="white"):
    return Position("icf", (Piece(pid, "coin", owner, x, y),), name="one-coin")


def test_wilson_interval_covers_the_truth():
    """Coverage: for several true p, about 95 % of Wilson intervals from binomial draws hold p."""
    rng = np.random.default_rng(1)
    for p, n in ((0.02, 60), (0.3, 40), (0.5, 200), (0.97, 80)):
        k = rng.binomial(n, p, size=400)
        lo, hi = wilson(k, n)
        cover = np.mean((lo <= p) & (p <= hi))
        assert 0.90 <= cover <= 0.995, (p, n, cover)


def test_mean_interval_matches_numpy():
    x = np.random.default_rng(2).normal(1.5, 2.0, size=500)
    m, lo, hi = mean_interval(x.sum(), (x * x).sum(), len(x))
    assert m == pytest.approx(x.mean())
    half = (hi - lo) / 2
    assert half == pytest.approx(1.965 * x.std(ddof=1) / math.sqrt(len(x)), rel=0.01)


def test_a_shot_that_always_pockets_has_p_one():
    """A coin on the straight line from the striker to the north-east pocket, hit full: with
    no noise every execution pockets it."""
    board = standard_position("icf-opening").board
    pocket = next(c for c in board.layout.captures if c.name == "pocket.NE")
    # the coin on the 45-degree diagonal through the NE pocket, the striker behind it
    sx = 0.0
    ux, uy = pocket.x - sx, pocket.y - Y0
    d = math.hypot(ux, uy)
    ux, uy = ux / d, uy / d
    pos = one_coin_position(sx + ux * 0.25, Y0 + uy * 0.25)
    shot = Shot(sx, Y0, math.atan2(uy, ux), 2.5)
    df = estimate(pos, shot, skill="exact", n=64, seed=0).set_index("quantity")
    assert df.loc["capture:w1", "estimate"] == 1.0
    assert df.loc["capture:w1:pocket.NE", "successes"] == 64
    assert df.loc["capture:w1", "lo"] > 0.9
    # the heavier striker follows the coin in: a due, but the turn continues (ICF)
    assert df.loc["foul.striker_pocketed", "estimate"] == df.loc["capture:striker", "estimate"]
    assert df.loc["continues", "estimate"] == 1.0


def test_a_shot_that_always_misses_has_p_zero():
    pos = one_coin_position(-0.25, 0.25)
    shot = Shot(0.1, Y0, math.radians(80), 1.0)  # away from the coin, slow
    df = estimate(pos, shot, skill="club", n=64, seed=0).set_index("quantity")
    assert df.loc["capture:w1", "estimate"] == 0.0
    assert df.loc["capture:w1", "hi"] < 0.1
    assert df.loc["capture:striker", "estimate"] == 0.0


def test_same_seed_same_numbers_for_any_chunk():
    pos = standard_position("icf-midgame")
    shot = Shot(-0.05, Y0, 1.1509, 2.0)
    a = estimate(pos, shot, skill="club", n=300, seed=5, chunk=64)  # five chunks
    b = estimate(pos, shot, skill="club", n=300, seed=5)  # one chunk (4096, mostly padding)
    assert a.drop(columns=[]).equals(b)
    c = estimate(pos, shot, skill="club", n=300, seed=6)
    assert not a.equals(c)
    assert a.attrs["config"]["seed"] == 5 and "jax" in a.attrs["config"]


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"shot": Shot(0.3, Y0, 1.0, 2.0)}, "not a legal placement"),
        ({"shot": Shot(0.0, Y0 + 0.05, 1.0, 2.0)}, "off the South baseline"),
        ({"shot": Shot(0.0, Y0, 1.0, -1.0)}, "positive"),
        ({"shot": Shot(0.0, Y0, 1.0, 80.0)}, "absurd"),
        ({"n": 0}, "n must be a positive"),
        ({"skill": "grandmaster"}, "unknown skill"),
    ],
)
def test_bad_inputs_are_refused(kwargs, needle):
    args = {"shot": Shot(0.0, Y0, 1.0, 2.0), "n": 10, "skill": "club"}
    args.update(kwargs)
    with pytest.raises(CarromlabError, match=needle):
        estimate(standard_position("icf-midgame"), **args)


def test_invalid_position_is_refused():
    bad = Position(
        "icf", (Piece("a", "coin", "white", 0, 0), Piece("b", "coin", "white", 0.001, 0))
    )
    with pytest.raises(CarromlabError, match="overlaps"):
        estimate(bad, Shot(0.0, Y0, 1.0, 2.0), n=10)


def test_symmetric_position_gives_a_mirror_symmetric_map():
    pos = one_coin_position(0.0, 0.05)
    angles = [60.0, 75.0, 90.0, 105.0, 120.0]
    df = shot_map(pos, [-0.1, 0.0, 0.1], angles, [2.0], skill="exact", n=8, seed=0, pieces=("w1",))
    assert df["p_capture:w1"].max() > 0  # some cells pocket the coin
    df = df.set_index(["placement", "angle"])
    for x in (-0.1, 0.0, 0.1):
        for a in angles:
            mirror = df.loc[(-x, 180.0 - a)]
            mine = df.loc[(x, a)]
            assert mine["p_capture:w1"] == mirror["p_capture:w1"]
            assert mine["points"] == pytest.approx(mirror["points"], abs=1e-9)
            assert mine["n"] == mirror["n"]


def test_shot_map_blanks_illegal_placements():
    pos = standard_position("icf-midgame")
    df = shot_map(pos, [0.0, 0.2], [90.0], [1.0], skill="club", n=4, seed=0)
    legal = df.set_index("placement")
    assert legal.loc[0.0, "n"] == 4
    assert legal.loc[0.2, "n"] == 0 and np.isnan(legal.loc[0.2, "points"])


def test_best_shot_search_finds_the_coin_on_the_arrow():
    """One white coin on the north-east arrow, 10 cm from the pocket: the search for the shot
    most likely to pocket it finds one that nearly always does (the known best: a cut along
    the arrow), where a naive shot straight up never does."""
    from carromlab.analysis import best_shots

    board = standard_position("icf-opening").board
    pk = next(c for c in board.layout.captures if c.name == "pocket.NE")
    u = 0.1 / math.sqrt(2)
    pos = Position(
        "icf",
        (
            Piece("w1", "coin", "white", pk.x - u, pk.y - u),
            Piece("w2", "coin", "white", -0.30, 0.30),
            Piece("b1", "coin", "black", -0.30, 0.05),
        ),
        name="arrow-coin",
    )
    best = best_shots(
        pos,
        skill="expert",
        value="p_capture:w1",
        n_grid=12,
        iterations=2,
        population=32,
        n_cem=24,
        top_k=3,
        n_final=300,
        seed=1,
    )
    top = best.iloc[0]
    assert list(best["rank"]) == [1, 2, 3]
    assert top["p_capture:w1"] >= 0.9
    assert top["p_capture:w1_lo"] > 0.85
    assert top["p_continues"] >= 0.9
    assert (best["p_capture:w1"].diff().dropna() <= 1e-12).all()  # sorted best first
    naive = estimate(pos, Shot(0.0, Y0, math.pi / 2, 2.0), skill="expert", n=64)
    assert naive.set_index("quantity").loc["capture:w1", "estimate"] < 0.05


def test_wilson_matches_scipy_binomtest():
    from scipy import stats

    ks = np.array([0, 1, 5, 37, 99, 100])
    lo, hi = wilson(ks, 100, 0.9)
    for k, a, b in zip(ks, lo, hi):
        ci = stats.binomtest(int(k), 100).proportion_ci(confidence_level=0.9, method="wilson")
        assert (a, b) == pytest.approx((ci.low, ci.high), abs=1e-12)
    lo, hi = wilson(np.array([3]), np.array([0]))
    assert np.isnan(lo[0]) and np.isnan(hi[0])
