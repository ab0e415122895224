"""Carrooka on the real kernel: shot origins, the analysis layer, whole games (greedy and
random players) with their invariants, and the nomination analysis."""

from __future__ import annotations

import math

import numpy as np
import pytest

from carromlab.analysis import estimate, shot_map
from carromlab.analysis.asks import Ask, Evaluator
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.search import SearchBudget
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.carrooka import COLOUR_VALUES
from carromlab.errors import CarromlabError
from carromlab.games.carrooka.driver import CAPACITY, turn_summary
from carromlab.games.carrooka.machine import CarrookaConfig
from carromlab.games.carrooka.nominate import nominations
from carromlab.games.carrooka.players import CarrookaGreedy, CarrookaRandom, pot_candidates
from carromlab.games.carrooka.rules import CarrookaTurn, pucks
from carromlab.physics.kernel import disc_bucket
from carromlab.play import play_games
from carromlab.registry import standard_position
from carromlab.shots import SKILLS, Shot

VA = analysis_for("carrooka")
OPENING = standard_position("carrooka-opening")
MID = standard_position("carrooka-midgame")
QUICK_GREEDY = CarrookaGreedy(
    budget=SearchBudget(n_screen=2, keep=2, n_eval=4, max_candidates=12, random_extra=2)
)


def test_origins_break_line_in_hand_and_the_spot_where_the_striker_lies():
    """Without a striker piece the placement is a break-line angle; with one the shot
    starts where the striker lies, whatever the placement."""
    x, y = VA.origin(OPENING, [-90.0, 0.0])
    np.testing.assert_allclose(np.hypot(x, y), OPENING.board.break_radius)
    np.testing.assert_allclose([x[0], y[0]], [0.0, -OPENING.board.break_radius], atol=1e-12)
    assert VA.legal_origin(OPENING, x, y).all()
    assert not VA.legal_origin(OPENING, [0.0], [-0.2])[0]  # off the break line
    sx, sy = VA.origin(MID, [12.0, -40.0])
    spot = MID.by_id("striker")
    assert (sx == spot.x).all() and (sy == spot.y).all()
    assert VA.legal_origin(MID, sx, sy).all()
    assert not VA.legal_origin(MID, [0.0], [-0.12])[0]  # not where it lies
    assert VA.table_position(MID).count("striker") == 0
    with pytest.raises(CarromlabError, match="cannot start"):
        VA.check_shot(MID, Shot(0.0, -0.12, 1.0, 2.0))


def test_no_placement_noise_the_striker_lies_where_it_is():
    """Carrooka shots start where the striker lies: the skill's placement error is not
    applied (angle and speed errors are)."""
    import jax

    club = SKILLS["club"]
    shot = Shot(0.03, -0.17, 1.0, 2.0)
    noisy = VA.noise(club)(jax.random.key(3), shot)
    assert float(noisy.x) == pytest.approx(0.03) and float(noisy.y) == pytest.approx(-0.17)
    assert float(noisy.angle) != 1.0


def test_evaluator_and_shot_runner_agree_on_carrooka_shots():
    """The same keys in both engines (fold_in(fold_in(key(seed), cell), i)): the same
    outcomes, the striker piece of the position not simulated twice."""
    x, y = MID.by_id("striker").x, MID.by_id("striker").y
    shots = Shot(np.array([x, x]), np.array([y, y]), np.radians([0.0, 150.0]), np.array([2.0, 3.0]))
    noise = VA.noise(SKILLS["club"])
    ans = Evaluator(MID.board.layout, CAPACITY).answer([Ask(MID, shots, 8, 5, noise)])[0]
    # (the evaluator's kernel settings: one compiled program serves both; what differs is how
    # each makes its discs, keys and noise)
    runner = ShotRunner(
        VA.table_position(MID), "striker", max_events=4096, capacity=disc_bucket(CAPACITY)
    )
    chunks = list(runner.run(shots, 8, noise, 5))
    cap = np.concatenate([c.outcome["capture"] for c in chunks])
    assert ans.outcome["capture"].shape == (16, len(pucks(MID)) + 1)
    np.testing.assert_array_equal(ans.outcome["capture"], cap)


def test_estimate_and_shot_map_value_a_nominated_colour():
    """A direct pot of the black (worth 7) from the mid-game striker: the estimate names the
    piece on, the points are 7 per pot, and hitting a red first would be a foul."""
    spot = MID.by_id("striker")
    c = pot_candidates(MID, CarrookaTurn("black"), [spot.x], [spot.y])
    assert len(c["angle"]) >= 1
    shot = Shot(spot.x, spot.y, float(c["angle"][0]), float(c["speed"][0]))
    df = estimate(MID, shot, "club", n=400, seed=1, turn=CarrookaTurn("black")).set_index(
        "quantity"
    )
    p_pot, points = df.loc["potted", "estimate"], df.loc["points", "estimate"]
    assert p_pot > 0.5
    assert points == pytest.approx(COLOUR_VALUES["black"] * p_pot)
    assert df.attrs["config"]["turn"] == {"on": "black", "counter": None}
    red = estimate(MID, shot, "club", n=400, seed=1, turn=CarrookaTurn("red")).set_index("quantity")
    assert red.loc["foul.wrong_first", "estimate"] > 0.9
    sm = shot_map(OPENING, [-90.0], [80.0, 90.0, 100.0], [3.0], n=32, seed=2)
    assert {"x0", "y0"} <= set(sm.columns) and (sm["n"] == 32).all()
    np.testing.assert_allclose(sm["y0"], -OPENING.board.break_radius)


def test_nominations_rank_colours_by_value():
    """One row per colour, best value first; values carry intervals; the striker is
    required."""
    df = nominations(MID, n=64, seed=0)
    assert set(df["colour"]) == {"yellow", "green", "brown", "blue", "pink", "black"}
    valued = df.dropna(subset=["value"])
    assert len(valued) >= 2
    assert (np.diff(valued["value"].to_numpy()) <= 1e-12).all()
    assert (valued["value_lo"] <= valued["value"]).all()
    assert (valued["value"] <= valued["value_hi"]).all()
    assert df.attrs["config"]["kind"] == "nominations"
    with pytest.raises(CarromlabError, match="striker"):
        nominations(OPENING, n=8)


def _check_game(rec):
    """Invariants of a finished game record."""
    st = rec.state
    assert st.over and rec.row["finished"]
    per_player = rec.strokes.groupby("player")["points"].sum()
    assert [int(per_player.get(p, 0)) for p in (0, 1)] == list(st.scores)
    assert sum(r.points for r in st.history) == sum(st.scores)
    assert rec.row["score_0"] + rec.row["score_1"] == rec.strokes["points"].sum()
    turn_points = [int(t) for t in rec.row["turn_points"].split()]
    assert sum(turn_points) == sum(st.scores)
    assert not rec.strokes["truncated"].any()
    if st.winner is not None:
        a, b = st.scores
        assert st.winner == (0 if a > b else 1) or rec.row["tie_break"]
    # the game ends with the black potted in the sequence (or the tie-break)
    assert st.position.count("red") == 0
    assert st.position.count("black") == 0 or rec.row["tie_break"]


def test_random_games_keep_every_invariant_stroke_by_stroke():
    """Random players foul a lot (bonus shots, Carrooka'd options, re-spots): after every
    stroke the position validates, reds never come back, the six colours are all on the
    board until the sequence, and the striker lies on the board inside the margin line
    (or on the break line after a foul)."""
    seen = []

    def check(state):
        assert not state.position.validate(), state.position.validate()
        seen.append(state)
        n_colours = sum(state.position.count(c) for c in COLOUR_VALUES if c != "red")
        if state.phase in ("red", "colour", "last_colour"):
            assert n_colours == 6
        if state.strokes > 1:  # one game at a time (slots=1): the previous state is its own
            assert state.position.count("red") <= seen[-2].position.count("red")
        if state.striker is not None:
            r = math.hypot(*state.striker)
            assert r <= state.position.board.margin_radius - 0.0205 + 1e-6

    recs = play_games(
        [CarrookaRandom(), CarrookaRandom()],
        CarrookaConfig(),
        "club",
        seed=4,
        games=3,
        on_stroke=check,
        max_strokes=3000,
        slots=1,
    )
    for rec in recs:
        _check_game(rec)
    strokes = sum(len(r.strokes) for r in recs)
    assert strokes == len(seen)
    assert sum(r.row["bonus_shots"] for r in recs) > 0
    assert sum(r.row["carrookad"] for r in recs) > 0


def test_greedy_games_finish_and_scores_add_up_to_the_pieces_potted():
    """Whole games between (cheap) greedy players finish; each player's score is the sum of
    their stroke points, i.e. the values of the pieces they potted legally."""
    recs = play_games([QUICK_GREEDY, QUICK_GREEDY], CarrookaConfig(), "club", seed=0, games=2)
    for rec in recs:
        _check_game(rec)
        assert rec.row["strokes"] < 400
    # a game depends on its seed and index only
    again = play_games([QUICK_GREEDY, QUICK_GREEDY], CarrookaConfig(), "club", seed=0, games=[1])
    assert again[0].row == recs[1].row


def test_turn_summary_counts_turns_after_fouls_and_best_options():
    import pandas as pd

    strokes = pd.DataFrame(
        {
            "player": [0, 0, 1, 1, 0],
            "points": [1, 3, 2, 0, 0],
            "foul": [False, False, False, True, False],
            "value_break_line": [np.nan, np.nan, np.nan, 1.0, np.nan],
            "value_counter": [np.nan, np.nan, np.nan, 2.0, np.nan],
            "value_pass": [np.nan, np.nan, np.nan, -1.0, np.nan],
        }
    )
    out = turn_summary(strokes)
    assert out["turn_points"] == "4 2 0"
    assert out["turns_after_foul"] == 1 and out["points_after_foul"] == 0
    assert out["best_counter"] == 1 and out["best_break_line"] == 0 and out["best_pass"] == 0
