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


def test_every_greedy_player_keeps_the_repr_its_logged_runs_were_claimed_with():
    """A logged run resumes only when its players' reprs match (play/log.py): the greedy
    players written over one search budget show the fields they always showed, in order; a
    budget field a player never showed appears only when it is changed."""
    from carromlab.analysis.policies import RACING
    from carromlab.games.carroms.players import CarromsGreedy
    from carromlab.games.carrooka.players import CarrookaGreedy
    from carromlab.games.force_out.players import ForceOutGreedy
    from carromlab.games.icf.players import icf_lookahead
    from carromlab.games.ring_pegs.players import RingPegsGreedy

    budget = "n_screen=4, keep=6, n_eval=16, max_candidates=48, random_extra=8"
    line = "value='points', capacity=20, scoring=None, placement_step=0.05"
    assert repr(Greedy()) == (
        f"Greedy(skill='club', {budget}, {line}, break_shot=(0.0, 90.0, 5.0), rounds=None)"
    )
    assert repr(Greedy(break_shot="search", budget=RACING)) == (
        "Greedy(skill='club', n_screen=4, keep=6, n_eval=16, max_candidates=96, "
        f"random_extra=16, {line}, break_shot='search', rounds=((16, 8), (6, 24), (2, 96)))"
    )
    assert repr(CarromsGreedy()) == (
        f"CarromsGreedy(skill='club', {budget}, {line.replace('20', '26')}, break_shot=None, "
        "rounds=None)"
    )
    assert repr(CarrookaGreedy(break_shot="search")) == (
        f"CarrookaGreedy(skill='club', {budget}, foul=-2.0, leave=1.0, break_step=15.0, "
        "max_cut_deg=70.0, break_shot='search')"
    )
    assert repr(ForceOutGreedy()) == (
        "ForceOutGreedy(skill='club', n_screen=4, keep=6, n_eval=16, max_candidates=40, "
        "random_extra=8, step_deg=7.5, rounds=None)"
    )
    assert repr(RingPegsGreedy(skill="pro")) == (
        "RingPegsGreedy(skill='pro', n_screen=4, keep=6, n_eval=16, step_deg=1.0)"
    )
    raced = RingPegsGreedy(budget=SearchBudget(rounds=((4, 8),)))
    assert repr(raced).endswith("step_deg=1.0, rounds=((4, 8),))")
    assert repr(icf_lookahead()).startswith(
        f"IcfLookahead(skill='club', n_screen=6, keep=8, n_eval=32, max_candidates=48, "
        f"random_extra=8, {line}, break_shot=(0.0, 90.0, 5.0), rounds=None, groups=2, "
    )


def test_a_racing_search_takes_one_group():
    import pytest

    from carromlab.analysis.search import Candidates
    from carromlab.errors import CarromlabError

    pos = standard_position("icf-midgame")
    group = Candidates(pos, Greedy().candidate_groups(pos, IcfTurn("white"), 0)[0].shots)
    plan = SearchBudget(rounds=((2, 4),)).search([group, group], [1, 2])
    with pytest.raises(CarromlabError, match="one group"):
        next(plan)


def test_common_random_numbers_give_every_candidate_the_same_draws():
    from carromlab.analysis.asks import Ask
    from carromlab.shots import Shot, skill

    pos = standard_position("icf-midgame")
    y0 = analysis_for("icf").shot_y(pos.board)
    two = Shot(np.array([0.03, 0.03]), np.full(2, y0), np.radians([142.0, 142.0]), np.full(2, 2.0))
    ev = Evaluator(pos.board.layout, 20)
    noise = skill("club").noise()
    common, apart = ev.answer([Ask(pos, two, 8, 5, noise, common=True), Ask(pos, two, 8, 5, noise)])
    x = common.outcome["x"][:, 0].reshape(2, 8)  # the striker's end, by candidate
    assert np.array_equal(x[0], x[1])  # the same shot, the same draws: the same outcomes
    y = apart.outcome["x"][:, 0].reshape(2, 8)
    assert not np.array_equal(y[0], y[1])
    # candidate 0's keys are the same with and without common numbers
    assert np.array_equal(common.outcome["x"][:8], apart.outcome["x"][:8])


def test_the_map_search_plays_what_best_finds_at_a_small_budget():
    """The search-based player at 4,096 shots a decision, on ICF's mid-game: a stroke worth
    at least greedy's (paired estimate, same keys), and its repr names its budget."""
    from carromlab.analysis.policies import MapGreedy

    pos = standard_position("icf-midgame")
    turn = IcfTurn(shooter="white")
    player = MapGreedy(skill="club", budget=SearchBudget(shots=4096))
    assert "shots=4096" in repr(player)
    shot = player.choose(pos, turn, seed=0)
    analysis_for("icf").check_shot(pos, shot)
    again = player.choose(pos, turn, seed=0)
    assert (again.x, again.angle, again.speed) == (shot.x, shot.angle, shot.speed)
    greedy = Greedy(skill="club").choose(pos, turn, seed=0)
    mine = estimate(pos, shot, skill="club", n=2000, seed=9).set_index("quantity")
    theirs = estimate(pos, greedy, skill="club", n=2000, seed=9).set_index("quantity")
    assert mine.loc["points", "estimate"] >= theirs.loc["points", "estimate"] - 0.05
