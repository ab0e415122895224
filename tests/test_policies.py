"""Policies: random-legal shots are legal; greedy finds a good shot in the mid-game."""

import math

from carromlab.analysis import estimate
from carromlab.analysis.policies import Greedy, RandomLegal
from carromlab.analysis.variants import analysis_for
from carromlab.games.icf.rules import IcfTurn
from carromlab.registry import standard_position


def test_random_legal_shots_are_legal_and_reproducible():
    pos = standard_position("icf-midgame")
    va = analysis_for("icf")
    shots = [RandomLegal().choose(pos, None, seed=s) for s in range(200)]
    for s in shots:
        va.check_shot(pos, s)  # raises on an illegal shot
        assert 15 <= math.degrees(s.angle) <= 165 and 0.5 <= s.speed <= 5.0
    again = RandomLegal().choose(pos, None, seed=7)
    assert (again.x, again.angle, again.speed) == (shots[7].x, shots[7].angle, shots[7].speed)


def test_greedy_picks_a_shot_that_pockets_an_own_coin():
    pos = standard_position("icf-midgame")
    shot = Greedy(skill="club", n_eval=32).choose(pos, IcfTurn(shooter="white"), seed=0)
    analysis_for("icf").check_shot(pos, shot)
    df = estimate(pos, shot, skill="club", n=400, seed=1).set_index("quantity")
    assert df.loc["own_pocketed", "estimate"] > 0.3
    assert df.loc["points", "lo"] > 0.1
    # far better than a random legal shot
    rnd = RandomLegal().choose(pos, None, seed=3)
    base = estimate(pos, rnd, skill="club", n=400, seed=1).set_index("quantity")
    assert df.loc["points", "lo"] > base.loc["points", "hi"]
