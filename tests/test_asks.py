"""The batched evaluator: the same numbers as the single-position runner, whatever shares the
batch; whole games the same alone or among others."""

import numpy as np
import pytest

from carromlab.analysis.asks import Ask, Evaluator, legal_shots
from carromlab.analysis.policies import RandomLegal
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.variants import analysis_for
from carromlab.errors import CarromlabError
from carromlab.games.icf.machine import IcfConfig
from carromlab.games.icf.rules import IcfTurn
from carromlab.play import play_games
from carromlab.registry import standard_position
from carromlab.shots import Shot, skill


def _shots(pos, xs, angles_deg, speeds):
    y0 = analysis_for("icf").shot_y(pos.board)
    return Shot(np.array(xs), np.full(len(xs), y0), np.radians(angles_deg), np.array(speeds))


def test_answers_match_the_runner_and_ignore_the_rest_of_the_batch():
    mid = standard_position("icf-midgame")
    opening = standard_position("icf-opening")
    noise = skill("club").noise()
    shots = _shots(mid, [0.0, 0.1, -0.12], [90.0, 70.0, 110.0], [2.0, 3.0, 1.5])
    runner = ShotRunner(mid, "striker", capacity=20)
    ref = np.concatenate([c.outcome["capture"] for c in runner.run(shots, 5, noise, seed=11)])
    # the shot runner's lanes, block and cap: its program
    ev = Evaluator(mid.board.layout, 20, max_events=512)
    turn = IcfTurn(shooter="white", own_down=1)
    alone = ev.answer([Ask(mid, shots, 5, 11, noise, turn)])[0]
    crowd = ev.answer(
        [
            # (enough breaks that the crowd takes two blocks)
            Ask(opening, _shots(opening, [0.05], [90.0], [5.0]), 4100, 3, noise),
            Ask(mid, shots, 5, 11, noise, turn),
            Ask(mid, shots, 2, 12, skill("novice").noise(), turn),
        ]
    )
    assert np.array_equal(alone.outcome["capture"], ref)
    assert np.array_equal(crowd[1].outcome["capture"], ref)
    assert np.array_equal(crowd[1].outcome["x"], alone.outcome["x"])
    # lanes and batches differ only in float rounding: no chaos in these shots
    runner_x = np.concatenate([c.outcome["x"] for c in runner.run(shots, 5, noise, seed=11)])
    assert np.allclose(alone.outcome["x"], runner_x, atol=1e-5)
    assert crowd[0].outcome["capture"].shape == (4100, 20)
    assert list(alone.cell) == [0] * 5 + [1] * 5 + [2] * 5
    means = alone.means("points")
    assert means.shape == (3,) and np.isfinite(means).all()


def test_illegal_base_shots_are_not_simulated():
    mid = standard_position("icf-midgame")
    xs = [0.0, 5.0]  # 5 m is off the baseline's legal intervals
    shots = _shots(mid, xs, [90.0, 90.0], [2.0, 2.0])
    ok = legal_shots(mid, shots)
    assert ok.tolist() == [True, False]
    ans = Evaluator(mid.board.layout, 20).answer([Ask(mid, shots, 3, 0, skill("club").noise())])[0]
    assert set(ans.cell) == {0}
    assert np.isnan(ans.means()[1])


def test_an_evaluator_refuses_another_board_or_too_many_discs():
    mid = standard_position("icf-midgame")
    crok = standard_position("force-out-opening")
    ev = Evaluator(mid.board.layout, 20)
    with pytest.raises(CarromlabError, match="another board"):
        ev.answer([Ask(crok, _shots(mid, [0.0], [90.0], [1.0]), 1, 0, skill("club").noise())])
    small = Evaluator(mid.board.layout, 5)
    with pytest.raises(CarromlabError, match="holds 8"):
        small.answer([Ask(mid, _shots(mid, [0.0], [90.0], [1.0]), 1, 0, skill("club").noise())])


def test_a_game_is_the_same_alone_or_among_others():
    config = IcfConfig(max_boards=1)
    together = play_games([RandomLegal()] * 2, config, seed=4, games=3, slots=3)
    alone = play_games([RandomLegal()] * 2, config, seed=4, games=[2], slots=1)
    assert together[2].strokes.equals(alone[0].strokes)
    assert together[2].boards.equals(alone[0].boards)
    assert together[2].state.scores == alone[0].state.scores
