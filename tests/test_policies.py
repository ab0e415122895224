"""Policies: random-legal shots are legal; greedy finds a good shot in the mid-game."""

import math

import numpy as np

from carromlab.analysis import estimate
from carromlab.analysis.asks import Evaluator
from carromlab.analysis.policies import Greedy, RandomLegal
from carromlab.analysis.search import SearchBudget
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
    shot = Greedy(skill="club", budget=SearchBudget(n_eval=32)).choose(
        pos, IcfTurn(shooter="white"), seed=0
    )
    analysis_for("icf").check_shot(pos, shot)
    df = estimate(pos, shot, skill="club", n=400, seed=1).set_index("quantity")
    assert df.loc["own_pocketed", "estimate"] > 0.3
    assert df.loc["points", "lo"] > 0.1
    # far better than a random legal shot
    rnd = RandomLegal().choose(pos, None, seed=3)
    base = estimate(pos, rnd, skill="club", n=400, seed=1).set_index("quantity")
    assert df.loc["points", "lo"] > base.loc["points", "hi"]


def test_racing_greedy_cuts_in_rounds_on_common_keys():
    """``Greedy(budget=SearchBudget(rounds=...))``: the screen, then each round's survivors executed on one seed
    (common keys), the best of the last round played; reproducible, and a good shot."""
    from carromlab.analysis.search import Candidates, race
    from carromlab.shots import Shot, skill

    pos = standard_position("icf-midgame")
    turn = IcfTurn(shooter="white")
    player = Greedy(skill="club", budget=SearchBudget(rounds=((8, 8), (2, 32))))
    cells = np.array(player.candidates(pos, turn, 0), float)
    y0 = analysis_for("icf").shot_y(pos.board)
    shots = Shot(cells[:, 0], np.full(len(cells), y0), np.radians(cells[:, 1]), cells[:, 2])
    group = Candidates(pos, shots, turn, skill("club").noise())
    plan = race(group, [5, 9], 2, player.budget.rounds)
    screen = next(plan)
    assert screen.n == 2 and len(screen.shots.x) == len(cells)
    answer = Evaluator(pos.board.layout, 20).answer([screen])[0]
    first = plan.send(answer)
    assert len(first) == 8 and {a.seed for a in first} == {9} and {a.n for a in first} == {8}
    second = plan.send(Evaluator(pos.board.layout, 20).answer(first))
    assert len(second) == 2 and {a.seed for a in second} == {10}
    try:
        plan.send(Evaluator(pos.board.layout, 20).answer(second))
    except StopIteration as done:
        value, best = done.value
    assert np.isfinite(value) and len(best.x) == 1
    shot = player.choose(pos, turn, seed=0)
    assert player.choose(pos, turn, seed=0) == shot
    df = estimate(pos, shot, skill="club", n=400, seed=1).set_index("quantity")
    assert df.loc["points", "lo"] > 0.1
