"""Bradley–Terry ratings: known strengths are recovered inside their intervals, the closed form
for two players holds, symmetric and drawn games rate equal, a perfect player stays finite,
bad input names its problem, and the ladder plot draws one point per player."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer

from carromlab.analysis.intervals import rate
from carromlab.analysis.ratings import (
    ELO_PER_LOGIT,
    expected_score,
    fit_bradley_terry,
    pairwise_table,
)
from carromlab.errors import CarromlabError
from carromlab.plot.ratings import plot_ratings

TRUTH = {"p0": 0.0, "p100": 100.0, "p200": 200.0, "p400": 400.0}


def _games(pairs, winners) -> pd.DataFrame:
    return pd.DataFrame({"a": [p[0] for p in pairs], "b": [p[1] for p in pairs], "winner": winners})


def _simulate(n_games: int = 3000, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    names = np.array(list(TRUTH))
    i = rng.integers(0, 4, n_games)
    j = (i + rng.integers(1, 4, n_games)) % 4  # a different player, uniformly
    r = np.array(list(TRUTH.values()))
    a_wins = rng.random(n_games) < expected_score(r[i], r[j])
    return pd.DataFrame(
        {"a": names[i], "b": names[j], "winner": np.where(a_wins, names[i], names[j])}
    )


@pytest.fixture(scope="module")
def simulated() -> pd.DataFrame:
    return _simulate()


def test_expected_score_is_the_elo_curve():
    assert expected_score(400, 0) == pytest.approx(10 / 11)
    assert expected_score(0, 0) == 0.5
    assert expected_score(150, 20) + expected_score(20, 150) == pytest.approx(1.0)
    assert ELO_PER_LOGIT == pytest.approx(400 / math.log(10))
    assert np.allclose(expected_score(np.array([0, 400]), 0), [0.5, 10 / 11])


def test_recovers_known_strengths_with_covering_intervals(simulated):
    table = fit_bradley_terry(simulated, anchor="p0")
    assert list(table["player"]) == ["p400", "p200", "p100", "p0"]
    assert table.loc[table["player"] == "p0", ["rating", "lo", "hi"]].to_numpy().tolist() == [
        [0.0, 0.0, 0.0]
    ]
    for row in table.itertuples():
        truth = TRUTH[row.player]
        half = (row.hi - row.lo) / 2
        assert row.lo <= truth <= row.hi, row
        if row.player != "p0":
            assert 15 < half < 45, row  # ~1,500 games a player: about ±30 Elo points
            assert abs(row.rating - truth) < 1.5 * half, row
    # the mean-zero version: the same differences, intervals around the centred truth
    centred = fit_bradley_terry(simulated)
    assert centred["rating"].mean() == pytest.approx(0.0, abs=1e-9)
    mean_truth = np.mean(list(TRUTH.values()))
    for row in centred.itertuples():
        assert row.lo <= TRUTH[row.player] - mean_truth <= row.hi, row
    anchored = table.set_index("player")["rating"]
    shift = centred.set_index("player")["rating"] - anchored
    assert np.allclose(shift, shift.iloc[0], atol=1e-6)


def test_fit_is_the_maximum_likelihood(simulated):
    """At the MLE each player's expected score equals its actual score (the score equations),
    up to the negligible pull of the ridge prior."""
    table = fit_bradley_terry(simulated).set_index("player")
    rating = table["rating"]
    expected = dict.fromkeys(TRUTH, 0.0)
    for a, b in zip(simulated["a"], simulated["b"]):
        p = expected_score(rating[a], rating[b])
        expected[a] += p
        expected[b] += 1 - p
    for player, e in expected.items():
        assert e == pytest.approx(table.loc[player, "wins"], abs=0.05)
    assert table["games"].sum() == 2 * len(simulated)
    assert np.allclose(table["score"], table["wins"] / table["games"])


def test_two_players_match_the_closed_form():
    games = _games([("x", "y")] * 100, ["x"] * 70 + ["y"] * 30)
    table = fit_bradley_terry(games, anchor="y").set_index("player")
    diff = ELO_PER_LOGIT * math.log(0.7 / 0.3)
    half = 1.959964 * ELO_PER_LOGIT / math.sqrt(100 * 0.7 * 0.3)
    assert table.loc["x", "rating"] == pytest.approx(diff, abs=0.1)  # the prior: < 0.1 points
    assert table.loc["x", "hi"] - table.loc["x", "rating"] == pytest.approx(half, abs=0.1)
    centred = fit_bradley_terry(games).set_index("player")
    assert centred.loc["x", "rating"] == pytest.approx(diff / 2, abs=0.1)
    assert centred.loc["x", "hi"] - centred.loc["x", "rating"] == pytest.approx(half / 2, abs=0.1)
    narrow = fit_bradley_terry(games, anchor="y", confidence=0.5).set_index("player")
    assert narrow.loc["x", "hi"] - narrow.loc["x", "rating"] == pytest.approx(
        half * 0.6744898 / 1.959964, abs=0.1
    )


def test_symmetric_results_give_equal_ratings():
    pairs = [("a", "b"), ("b", "a"), ("b", "c"), ("c", "b"), ("a", "c"), ("c", "a")]
    winners = ["a", "b", "b", "c", "c", "a"]
    cycle = _games([("a", "b"), ("b", "c"), ("c", "a")] * 3, ["a", "b", "c"] * 3)
    for games in (_games(pairs, winners), cycle):
        table = fit_bradley_terry(games)
        assert np.allclose(table["rating"], 0.0, atol=1e-6)
        assert np.allclose(table["hi"] - table["rating"], table["hi"].iloc[0], atol=1e-6)
        assert np.allclose(table["score"], 0.5)


def test_draws_count_half_a_win():
    with_draws = _games([("x", "y")] * 6, ["x", "x", "x", None, np.nan, "y"])
    without = _games([("x", "y")] * 6, ["x", "x", "x", "x", "y", "y"])
    t1 = fit_bradley_terry(with_draws, anchor="y").set_index("player")
    t2 = fit_bradley_terry(without, anchor="y").set_index("player")
    assert t1.loc["x", "wins"] == 4.0 and t1.loc["y", "wins"] == 2.0
    assert t1.loc["x", "score"] == pytest.approx(4 / 6)
    assert np.allclose(t1[["rating", "lo", "hi"]], t2[["rating", "lo", "hi"]])
    all_drawn = fit_bradley_terry(_games([("x", "y")] * 4, [None] * 4))
    assert np.allclose(all_drawn["rating"], 0.0, atol=1e-9)


def test_pairwise_table_counts_and_wilson_intervals():
    games = _games(
        [("x", "y"), ("y", "x"), ("x", "y"), ("x", "y"), ("z", "y")], ["x", "x", None, "y", "z"]
    )
    pairs = pairwise_table(games)
    assert pairs[["a", "b"]].to_numpy().tolist() == [["x", "y"], ["y", "z"]]
    xy = pairs.iloc[0]
    assert (xy["games"], xy["wins_a"], xy["wins_b"], xy["draws"]) == (4, 2, 1, 1)
    assert (xy["score"], xy["lo"], xy["hi"]) == pytest.approx(rate(2.5, 4))
    yz = pairs.iloc[1]
    assert (yz["games"], yz["wins_a"], yz["wins_b"], yz["score"], yz["lo"]) == (1, 0, 1, 0.0, 0.0)


def test_a_player_winning_every_game_gets_a_finite_rating():
    pairs = [("best", "b"), ("c", "best"), ("b", "c"), ("c", "b")] * 5
    games = _games(pairs, ["best", "best", "b", "c"] * 5)
    table = fit_bradley_terry(games)
    assert np.isfinite(table[["rating", "lo", "hi"]].to_numpy()).all()
    assert table["player"].iloc[0] == "best"
    assert table["rating"].iloc[0] > table["rating"].iloc[1:].max() + 200
    loser = fit_bradley_terry(_games([("x", "y")] * 5, ["y"] * 5), anchor="y")
    assert np.isfinite(loser["rating"]).all() and loser["rating"].iloc[-1] < -200


@pytest.mark.parametrize(
    ("games", "kwargs", "match"),
    [
        (pd.DataFrame({"a": ["x"], "b": ["y"]}), {}, "lack the column.*'winner'"),
        (_games([("x", "x")], ["x"]), {}, "player 'x' plays itself"),
        (_games([("x", "y")], ["z"]), {}, "winner 'z' is neither a"),
        (_games([("x", None)], ["x"]), {}, "missing player name"),
        (_games([], []), {}, "at least 2 players"),
        (_games([("x", "y")], ["x"]), {"anchor": "w"}, "unknown anchor 'w'"),
        (_games([("x", "y"), ("u", "v")], ["x", "u"]), {}, "not connected by games"),
        (_games([("x", "y")], ["x"]), {"confidence": 1.5}, "confidence"),
        ([("x", "y", "x")], {}, "must be a pandas DataFrame"),
    ],
)
def test_bad_input_names_the_problem(games, kwargs, match):
    with pytest.raises(CarromlabError, match=match):
        fit_bradley_terry(games, **kwargs)


def test_bad_input_in_pairwise_table():
    with pytest.raises(CarromlabError, match="plays itself"):
        pairwise_table(_games([("x", "y"), ("y", "y")], ["x", "y"]))


def test_plot_draws_one_point_per_player(simulated):
    table = fit_bradley_terry(simulated, anchor="p0")
    fig, ax = plt.subplots()
    try:
        art = plot_ratings(table.iloc[::-1], ax=ax, title="ladder")  # any row order
        assert isinstance(art, ErrorbarContainer)
        x, y = art.lines[0].get_data()
        assert len(x) == len(table) == 4
        assert list(np.asarray(x)[np.argsort(y)[::-1]]) == pytest.approx(list(table["rating"]))
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert labels[int(np.argmax(ax.get_yticks()))] == "p400"  # the strongest on top
        assert ax.get_xlabel() == "rating (Elo points)"
        assert ax.get_title() == "ladder"
        assert any(list(line.get_xdata()) == [0.0, 0.0] for line in ax.get_lines())
    finally:
        plt.close(fig)
