"""The depth-2 lookahead player: outcome groups, signed leave values, the ICF leave under the
laws, and plans that depend only on their own game."""

import math

import numpy as np
import pytest

from carromlab.analysis.lookahead import Lookahead, pick_groups, signed_leaves
from carromlab.analysis.search import SearchBudget
from carromlab.analysis.variants import analysis_for
from carromlab.games.icf.machine import IcfConfig
from carromlab.games.icf.players import icf_leave, icf_lookahead
from carromlab.games.icf.rules import IcfTurn, evaluate_icf, piece_roles
from carromlab.play import play_games
from carromlab.registry import get_game, standard_position


def test_groups_keep_the_largest_and_one_of_each_kind():
    # 5 x (continues, pot 3), 1 x (continues, pot 4), 6 x (passes, nothing), 4 x (passes, striker)
    keys = [(True, (3,))] * 5 + [(True, (4,))] + [(False, ())] * 6 + [(False, (0,))] * 4
    reps, which = pick_groups(keys, 2)
    assert reps == [0, 6]  # the largest of each kind, in the order first seen
    assert list(which[:5]) == [0] * 5 and which[5] == -1 and list(which[6:12]) == [1] * 6
    assert (which[12:] == -1).all()
    reps3, _ = pick_groups(keys, 3)
    assert reps3 == [0, 6, 12]  # the next largest: the striker fouls
    one_kind, w = pick_groups([(False, ())] * 3, 3)
    assert one_kind == [0] and (w == 0).all()


def test_left_out_outcomes_take_their_own_kinds_mean():
    keys = [(True, (3,))] * 3 + [(True, (4,))] + [(False, ())] * 2 + [(False, (0,))]
    _, which = pick_groups(keys, 2)
    cont = np.array([k[0] for k in keys])
    values = np.array([2.0, -1.0])  # shooter plays on: +2; opponent: -1
    out = signed_leaves(which, cont, np.array([True, False]), values)
    assert list(out) == [2.0, 2.0, 2.0, 2.0, -1.0, -1.0, -1.0]


def _one_outcome(pos, capture, x=None, y=None):
    n = len(pos.pieces) + 1
    xs = np.array([0.0] + [p.x for p in pos.pieces]) if x is None else x
    ys = np.array([-0.3] + [p.y for p in pos.pieces]) if y is None else y
    return {"capture": np.asarray(capture), "x": xs, "y": ys, "alive": np.ones(n, bool)}


def _evaluated(pos, out, turn):
    ev = evaluate_icf(out["capture"][None], np.array([1]), np.array([1]), piece_roles(pos), turn)
    return {k: v[0] for k, v in ev.items()}


def test_an_own_coin_pocketed_leaves_the_shooter_on_strike_in_the_same_view():
    pos = standard_position("icf-midgame")
    turn = IcfTurn(shooter="white", own_down=2, opponent_down=1)
    own = next(k for k, p in enumerate(pos.pieces) if p.owner == "white")
    capture = np.full(len(pos.pieces) + 1, -1)
    capture[own + 1] = 0
    out = _one_outcome(pos, capture)
    leave = icf_leave(pos, turn, out, _evaluated(pos, out, turn))
    assert leave.sign == 1.0 and leave.turn.shooter == "white"
    assert leave.turn.own_down == 3 and leave.turn.opponent_down == 1
    assert [p.id for p in leave.view.pieces] == [p.id for k, p in enumerate(pos.pieces) if k != own]
    kept = {p.id: (p.x, p.y) for p in leave.view.pieces}
    for p in pos.pieces:
        if p.id in kept:
            assert kept[p.id] == pytest.approx((p.x, p.y), abs=1e-6)


def test_a_miss_passes_the_turn_and_turns_the_view_to_the_opponent():
    pos = standard_position("icf-midgame")
    turn = IcfTurn(shooter="white", own_down=2, opponent_down=1)
    capture = np.full(len(pos.pieces) + 1, -1)
    out = _one_outcome(pos, capture)
    leave = icf_leave(pos, turn, out, _evaluated(pos, out, turn))
    assert leave.sign == -1.0
    assert leave.turn == IcfTurn(shooter="black", own_down=1, opponent_down=2)
    for before, after in zip(pos.pieces, leave.view.pieces, strict=True):
        assert (after.x, after.y) == pytest.approx((-before.x, -before.y), abs=1e-9)
    doubles = icf_leave(pos, turn, out, _evaluated(pos, out, turn), next_seat=math.pi / 2)
    p0, q0 = pos.pieces[0], doubles.view.pieces[0]
    assert (q0.x, q0.y) == pytest.approx((p0.y, -p0.x), abs=1e-9)  # turned by -90 degrees


def test_the_striker_with_an_own_coin_brings_the_coin_back_to_the_centre():
    pos = standard_position("icf-midgame")
    turn = IcfTurn(shooter="white", own_down=2)
    own = next(k for k, p in enumerate(pos.pieces) if p.owner == "white")
    capture = np.full(len(pos.pieces) + 1, -1)
    capture[0] = 1
    capture[own + 1] = 0
    out = _one_outcome(pos, capture)
    ev = _evaluated(pos, out, turn)
    assert ev["striker_pocketed"] and ev["continues"]
    leave = icf_leave(pos, turn, out, ev)
    assert len(leave.view.pieces) == len(pos.pieces) + 1  # the coin back and a penalty coin
    assert leave.turn.own_down == 1  # one coin down paid the due
    spots = [(q.x, q.y) for q in pos.pieces]
    back = [
        p
        for p in leave.view.pieces
        if all(math.hypot(p.x - x, p.y - y) > 1e-6 for x, y in spots)  # not where a piece was
    ]
    assert len(back) == 2 and all(p.owner == "white" for p in back)
    assert len({p.id for p in leave.view.pieces}) == len(leave.view.pieces)  # ids unique
    assert all(math.hypot(p.x, p.y) < 0.1 for p in back)  # placed near the centre
    assert analysis_for("icf").rules.roles(leave.view)["white"].sum() == (
        analysis_for("icf").rules.roles(pos)["white"].sum() + 1
    )


def test_a_stroke_that_ends_the_board_leaves_nothing_to_reply_to():
    pos = standard_position("icf-midgame")
    whites = [k for k, p in enumerate(pos.pieces) if p.owner == "white"]
    turn = IcfTurn(shooter="white", own_down=9 - len(whites))
    capture = np.full(len(pos.pieces) + 1, -1)
    capture[np.array(whites) + 1] = 0
    out = _one_outcome(pos, capture)
    ev = _evaluated(pos, out, turn)
    assert ev["board_won"] or ev["board_lost"]
    assert icf_leave(pos, turn, out, ev) is None


SMALL = dict(
    budget=SearchBudget(n_screen=2, keep=2, n_eval=4, max_candidates=8, random_extra=2),
    reply_candidates=4,
)


def test_lookahead_plays_a_legal_reproducible_stroke_and_says_its_values():
    pos = standard_position("icf-midgame")
    player = icf_lookahead(**SMALL, n_reply=2)
    turn = IcfTurn(shooter="white", own_down=2)
    shot = player.choose(pos, turn, seed=3)
    analysis_for("icf").check_shot(pos, shot)
    again = player.choose(pos, turn, seed=3)
    assert (again.x, again.angle, again.speed) == (shot.x, shot.angle, shot.speed)
    assert isinstance(get_game("icf").make_player("lookahead"), Lookahead)


def test_a_lookahead_game_is_the_same_alone_or_among_others():
    config = IcfConfig(max_boards=1)
    player = icf_lookahead(**SMALL, n_reply=2)
    together = play_games([player] * 2, config, seed=5, games=2, slots=2, max_strokes=4)
    alone = play_games([player] * 2, config, seed=5, games=[1], slots=1, max_strokes=4)
    assert together[1].strokes.equals(alone[0].strokes)


def test_finalists_on_common_keys_draw_the_same_execution_errors():
    from carromlab.analysis.asks import Ask, Evaluator
    from carromlab.analysis.lookahead import joined
    from carromlab.shots import Shot, skill

    pos = standard_position("icf-midgame")
    y0 = analysis_for("icf").shot_y(pos.board)
    twice = Shot(np.array([0.05, 0.05]), np.full(2, y0), np.radians([80.0, 80.0]), np.ones(2))
    noise = skill("club").noise()
    ev = Evaluator(pos.board.layout, 20)
    one = [
        Ask(
            pos,
            Shot(*(np.asarray(getattr(twice, f))[[k]] for f in "x y angle speed".split())),
            6,
            9,
            noise,
        )
        for k in range(2)
    ]
    got = joined(ev.answer(one), Ask(pos, twice, 6, 9, noise))
    assert list(got.cell) == [0] * 6 + [1] * 6
    assert np.array_equal(got.outcome["x"][:6], got.outcome["x"][6:])  # the same draws
    apart = ev.answer([Ask(pos, twice, 6, 9, noise)])[0]
    assert not np.array_equal(apart.outcome["x"][:6], apart.outcome["x"][6:])


def test_free_spots_start_with_the_fixed_rules_spot_and_stay_free_and_apart():
    from carromlab.games.icf.machine import place_returned
    from carromlab.games.icf.players import free_spots

    pos = standard_position("icf-midgame")
    r = pos.board.piece_specs()["coin"].radius
    zone = pos.board.outer_circle_diameter / 2 - r
    spots = free_spots(pos, r, 6, zone)
    assert spots[0] == place_returned(pos, "coin", None)
    assert 2 <= len(spots) <= 6
    for k, (x, y) in enumerate(spots):
        assert math.hypot(x, y) <= zone + 1e-9
        for p in pos.pieces:
            assert math.hypot(x - p.x, y - p.y) >= 2 * r - 1e-6
        for x2, y2 in spots[:k]:
            assert math.hypot(x - x2, y - y2) >= 2 * r - 1e-9


def test_valued_placement_puts_the_foulers_coin_where_it_is_worth_least_to_them():
    from carromlab.games.icf.players import ValuedPlacement, free_spots

    # a white coin down (the one that comes back): 18 coins and the placed one, so the reply
    # asks fit the game's own 20-disc program
    mid = standard_position("icf-midgame")
    down = next(p.id for p in mid.pieces if p.owner == "white")
    pos = mid.replace(pieces=tuple(p for p in mid.pieces if p.id != down))
    place = ValuedPlacement({"white": 0.0, "black": math.pi}, placer="black", seed=1)
    r = pos.board.piece_specs()["coin"].radius
    spots = free_spots(pos, r, place.spots, pos.board.outer_circle_diameter / 2 - r)
    values = place.values(pos, "coin", "white", spots)
    assert place(pos, "coin", "white") == spots[int(np.argmin(values))]
    # the placer's own coin goes where it is worth most to the placer
    mine = place.values(pos, "coin", "black", spots)
    assert place(pos, "coin", "black") == spots[int(np.argmax(mine))]
    # the queen keeps the laws' spot
    from carromlab.games.icf.machine import place_returned

    assert place(pos, "queen", None) == place_returned(pos, "queen", None)


def test_a_valued_placement_game_is_the_same_alone_or_among_others():
    config = IcfConfig(max_boards=1)
    player = icf_lookahead(**SMALL, n_reply=2, placement="valued")
    together = play_games([player] * 2, config, seed=8, games=2, slots=2, max_strokes=12)
    alone = play_games([player] * 2, config, seed=8, games=[1], slots=1, max_strokes=12)
    assert together[1].strokes.equals(alone[0].strokes)
    with pytest.raises(Exception, match="'fixed' or 'valued'"):
        icf_lookahead(placement="best").placement_for({}, "white", 0)


@pytest.mark.parametrize("doubles", [False, True])
def test_the_driver_asks_the_next_seat_to_place_with_both_sides_seats(doubles):
    from carromlab.games.icf.driver import IcfDriver
    from carromlab.games.icf.players import ValuedPlacement
    from carromlab.play.loop import GameInPlay

    config = IcfConfig(doubles=doubles)
    driver = IcfDriver(config)
    gm = GameInPlay(0, driver.new_state(0), np.random.default_rng(0))
    gm.seat, gm.stroke_seed = 0, 5
    gm.policies = [icf_lookahead(placement="valued")] * config.n_seats
    place = driver.placement(gm)
    assert isinstance(place, ValuedPlacement) and place.seed == 5
    colours = gm.state.board.colours
    assert place.placer == colours[1]  # the next seat plays for the other side
    next_angle = math.pi / 2 if doubles else math.pi
    assert place.seat_angle == {colours[0]: 0.0, colours[1]: pytest.approx(next_angle)}
    gm.policies = [icf_lookahead()] * config.n_seats
    assert driver.placement(gm) is None  # the fixed rule: the machine's own


def test_lookahead_plays_doubles_with_the_next_seat_to_the_right():
    player = icf_lookahead(doubles=True, **SMALL, n_reply=2)
    assert player.leave.next_seat == pytest.approx(math.pi / 2)
    config = IcfConfig(max_boards=1, doubles=True)
    (rec,) = play_games([player] * 4, config, seed=2, games=1, slots=1, max_strokes=4)
    assert len(rec.strokes) == 4 and set(rec.strokes["seat"]) <= {0, 1, 2, 3}


def test_a_turned_opening_is_still_set_by_hand_and_finds_the_stored_break():
    from carromlab.analysis.breaks import break_key, read_breaks
    from carromlab.games.icf.driver import IcfDriver
    from carromlab.play.drivers import SEAT_ANGLE, turned

    config = IcfConfig(max_boards=1)
    board = IcfDriver(config).new_state(0).board
    assert board.position.set_by_hand
    view = turned(board.position, -SEAT_ANGLE[config.seats[board.turn]])
    assert view.set_by_hand  # the game's first stroke is played from the hand-set rosette
    key = break_key(view, "club", board.turn_state(config.due_rule))
    assert key in read_breaks("icf")  # the stored search is the break the game plays
    moved = view.replace(pieces=view.pieces[1:])
    assert not turned(moved, math.pi).set_by_hand  # a changed position stays unset


def test_a_racing_lookahead_values_the_races_last_survivors_with_their_leaves():
    """With ``rounds``, the finalists are the survivors of every round but the last, executed
    with the last round's ``(keep, n)`` on one seed (the race's last round's), and their
    leaves' replies are asked after; the stroke is legal and reproducible."""
    from carromlab.analysis.asks import Evaluator

    pos = standard_position("icf-midgame")
    turn = IcfTurn(shooter="white", own_down=2)
    race = SearchBudget(n_screen=2, max_candidates=12, random_extra=2, rounds=((6, 4), (2, 8)))
    player = icf_lookahead(budget=race, n_reply=2)
    ev = Evaluator(pos.board.layout, 20)
    plan = player.plan(pos, turn, seed=3)
    screen = next(plan)
    assert screen.n == 2 and len(screen.shots.x) == 14
    first = plan.send(ev.answer([screen])[0])
    assert len(first) == 6 and {a.n for a in first} == {4} and len({a.seed for a in first}) == 1
    finals = plan.send(ev.answer(first))
    assert len(finals) == 2 and {a.n for a in finals} == {8}
    assert {a.seed for a in finals} == {first[0].seed + 1}  # the race's next round's keys
    replies = plan.send(ev.answer(finals))
    assert replies and all(a.n == 2 for a in replies)  # the leaves' reply screens
    shot = player.choose(pos, turn, seed=3)
    analysis_for("icf").check_shot(pos, shot)
    again = player.choose(pos, turn, seed=3)
    assert (again.x, again.angle, again.speed) == (shot.x, shot.angle, shot.speed)
    assert get_game("icf").make_player("lookahead-race").budget.rounds[-1] == (3, 64)


def test_the_lookahead_on_the_search_values_the_searchs_own_finalists_with_their_leaves():
    """The search's screen, narrowing and refinement, then its finalists valued with their
    leaves: safety play weighs the leave only when no pot is worth it, so where one is it plays
    the search's stroke at the search's value; with no reply search it is the search; with
    one at every stroke its value is what it scores now plus its leave, and the same stroke
    again for the seed."""
    from dataclasses import replace

    from carromlab.analysis.decide import decide

    icf = get_game("icf")
    pos = standard_position("icf-midgame")
    search = decide(pos, "search", n=200, seed=3)
    safety = decide(pos, "search-safety", n=200, seed=3)
    assert search.decision.values["value"] >= 0.5  # a pot worth it: no safety play here
    assert safety.shot == search.shot and safety.decision.values["leave_weighed"] == 0.0
    assert safety.decision.values["value"] == pytest.approx(search.decision.values["value"])
    bare = replace(icf.make_player("search-lookahead"), replies=None)
    alone = decide(pos, "search", n=200, seed=3, player=bare)
    assert alone.shot == search.shot
    looked = decide(pos, "search-lookahead", n=200, seed=3)
    values = looked.decision.values
    assert values["leave_weighed"] == 1.0 and values["value"] != values["now"]
    assert looked.shots["plan"] > search.shots["plan"]  # the replies on top of the search
    assert decide(pos, "search-lookahead", n=200, seed=3).shot == looked.shot
