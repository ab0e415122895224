"""Whole KOOBA games on the throw kernel: the lag, tags, the machine, the greedy player."""

from __future__ import annotations

import numpy as np
import pandas as pd

from carromlab.equipment import KoobaBoard
from carromlab.games.kooba.driver import play_kooba
from carromlab.games.kooba.machine import LOCK, KoobaConfig
from carromlab.games.kooba.players import KoobaGreedy
from carromlab.games.kooba.rules import marker_spot, shot_tags

BOARD = KoobaBoard()
FAST = KoobaGreedy(n=40, grid=0.04)


def test_marker_spots_and_tags_of_a_landed_aero():
    """A marker sits mid-step; an Aero landing on it touches it and overlaps its run; one on
    the centre tags the Eye, the Inner Eye and the KOOBA."""
    x, y = marker_spot(BOARD, "N", 3)
    assert x == 0.0 and 0 < y < BOARD.half
    assert marker_spot(BOARD, "S", 0)[1] < -BOARD.step_span(1)[1]
    tags = shot_tags(BOARD, x, y, 0.0, ("N", "E"), (3, 0))
    assert tags.markers == frozenset({0}) and tags.runs == frozenset({0})
    centre = shot_tags(BOARD, 0.0, 0.0, 0.0, ("N", "E"), (3, 0))
    assert centre.eye and centre.inner_eye and centre.kooba and not centre.markers
    off = shot_tags(BOARD, 0.0, BOARD.half + 0.01, 0.0, ("N", "E"), (0, 0))
    assert not (off.eye or off.runs or off.markers)


def test_games_for_two_to_four_players_finish_with_a_locked_winner():
    for n in (2, 3, 4):
        recs = play_kooba(KoobaConfig(n_players=n), "club", seed=n, games=2, player=FAST)
        for rec in recs:
            row = rec.row
            assert row["finished"] and 0 <= row["winner"] < n
            assert rec.state.markers[row["winner"]] == LOCK
            assert row["shots"] == len(rec.strokes)
            assert set(rec.strokes["player"]) == set(range(n))


def test_games_are_reproducible_and_pro_games_run():
    a = play_kooba(KoobaConfig(), "club", seed=4, games=[0, 1], player=FAST)
    b = play_kooba(KoobaConfig(), "club", seed=4, games=[1], player=FAST)
    assert a[1].row == b[0].row
    np.testing.assert_array_equal(a[1].strokes["x"], b[0].strokes["x"])
    pro = play_kooba(KoobaConfig(pro=True), "pro", seed=1, games=1, player=FAST)
    assert pro[0].row["finished"]


def test_a_ringed_kooba_is_also_a_kooba_tag():
    """The KOOBA (2 cm) fits the Aero's 2.5 cm hole: an Aero centred on it rings it, and the
    ring counts as a KOOBA tag; 2 mm off centre it still rings, 8 mm off it touches."""
    for dx in (0.0, 0.002):
        t = shot_tags(BOARD, dx, 0.0, 0.3, ("N", "E"), (0, 0))
        assert t.ring and t.kooba
    t = shot_tags(BOARD, 0.008, 0.0, 0.3, ("N", "E"), (0, 0))
    assert t.kooba and not t.ring


def test_attack_targets_leader_or_next():
    from dataclasses import replace

    from carromlab.games.kooba.machine import new_game

    config = KoobaConfig(n_players=4)
    state = replace(new_game(config), player=1, markers=(4, 1, 3, 0))
    any4 = {"attack_players": 4}
    assert KoobaGreedy(attack_at=3, **any4).attack_target(state, 1, config) == 0
    assert KoobaGreedy(attack_at=3, target="next", **any4).attack_target(state, 1, config) == 2
    assert KoobaGreedy(attack_at=4, target="next", **any4).attack_target(state, 1, config) is None
    assert KoobaGreedy(attack_at=None, **any4).attack_target(state, 1, config) is None
    # the default attacks the leader at 4 steps, in two-player games only
    assert KoobaGreedy().attack_target(state, 1, config) is None
    two = KoobaConfig(n_players=2)
    duel = replace(new_game(two), player=1, markers=(4, 1))
    assert KoobaGreedy().attack_target(duel, 1, two) == 0
    assert KoobaGreedy().attack_target(replace(duel, markers=(3, 1)), 1, two) is None
    locked = replace(state, markers=(LOCK, 1, LOCK, 2))
    assert KoobaGreedy(attack_at=1, **any4).attack_target(locked, 1, config) == 3
    used = replace(state, attacks_used=(False, True, False, False))
    assert KoobaGreedy(attack_at=1, **any4).attack_target(used, 1, config) is None


def test_players_by_entrant_and_the_slide():
    """Each entrant plays its own policy wherever the lag seats it: a never-attacking entrant
    declares no attack. A slide moves where the Aeros rest."""
    import pytest

    from carromlab.errors import CarromlabError

    never = KoobaGreedy(n=40, grid=0.04, attack_at=None)
    eager = KoobaGreedy(n=40, grid=0.04, attack_at=1)
    recs = play_kooba(KoobaConfig(), seed=2, games=4, players=[eager, never])
    for rec in recs:
        assert sorted(rec.row[f"entrant_{p}"] for p in range(2)) == [0, 1]
        seat_never = next(p for p in range(2) if rec.row[f"entrant_{p}"] == 1)
        attacks = rec.strokes[rec.strokes["attack"] >= 0]
        assert (attacks["player"] != seat_never).all()
        assert rec.row["finished"]
    assert any((r.strokes["attack"] >= 0).any() for r in recs)
    slid = play_kooba(KoobaConfig(), seed=2, games=[0], player=FAST, slide=0.03)
    still = play_kooba(KoobaConfig(), seed=2, games=[0], player=FAST)
    assert slid[0].strokes["x"].iloc[0] != still[0].strokes["x"].iloc[0]
    with pytest.raises(CarromlabError, match="3 given for a 2-player"):
        play_kooba(KoobaConfig(), games=1, players=[FAST] * 3)
    with pytest.raises(CarromlabError, match="attack target"):
        KoobaGreedy(target="weakest")


def test_the_attacker_presses_on_the_marker_until_it_is_sent_home():
    """Every run tag of an attack counts, so the default player keeps aiming at the target's
    marker after a run tag (``press``), and scores once the marker has been sent Home;
    ``press=False`` scores after the first tag."""
    from dataclasses import replace

    from carromlab.games.kooba.driver import KoobaView
    from carromlab.games.kooba.machine import declare_attack, new_game

    two = KoobaConfig(n_players=2)
    state = declare_attack(replace(new_game(two), markers=(1, 4)), 1, two)
    state = replace(state, shot=1, attack_hit=True, attack_moves=-1)
    marker = marker_spot(BOARD, "E", 4)

    def aim(player, s):
        gen = player.plan(KoobaView(s, BOARD, two.seats, 0.0), two)
        try:
            next(gen)
        except StopIteration as stop:
            return tuple(stop.value.shot)
        raise AssertionError("the plan asked for evaluations")

    assert aim(FAST, state) == marker
    score = FAST.aims(BOARD, "N", two)["score"]
    assert aim(replace(FAST, press=False), state) == tuple(score) != marker
    assert aim(FAST, replace(state, attack_home=True)) == tuple(score)


def test_an_aero_landing_on_a_lying_one_rests_on_top_and_keeps_its_tags():
    """ "If two Aeros overlap, a tag is still counted if the top Aero visually overlaps the
    scoring area": an Aero thrown onto one lying on the Eye rests on top (``on_aeros``) and
    tags what its own outline overlaps; one clear of it lies on the board."""
    seats, markers = ("N", "E"), (3, 0)
    lying = [(0.0, 0.0, 0.0)]
    top = shot_tags(BOARD, 0.03, 0.01, 1.0, seats, markers, lying)
    alone = shot_tags(BOARD, 0.03, 0.01, 1.0, seats, markers)
    assert top.on_aeros == 1 and alone.on_aeros == 0
    assert top.eye and {**vars(top), "on_aeros": 0} == vars(alone)
    # two lying Aeros under it; one 10 cm away is clear (the Aero is 7.5 cm a side)
    assert (
        shot_tags(BOARD, 0.03, 0.01, 1.0, seats, markers, [*lying, (0.05, 0.0, 2.0)]).on_aeros == 2
    )
    assert shot_tags(BOARD, 0.1, 0.0, 0.0, seats, markers, lying).on_aeros == 0
    # corners touching only (tip to tip along x): no shared material
    rc = BOARD.aero_side / np.sqrt(3)
    assert shot_tags(BOARD, 2 * rc + 1e-6, 0.0, np.pi, seats, markers, lying).on_aeros == 0
    assert shot_tags(BOARD, 2 * rc - 1e-3, 0.0, np.pi, seats, markers, lying).on_aeros == 1


def test_a_turns_aeros_stack_and_the_next_turn_starts_on_a_clear_board():
    """Aimed at the Eye, a club player's three Aeros often land on one another; the first
    throw of every turn lands on a clear board."""
    recs = play_kooba(KoobaConfig(), "club", seed=3, games=2, player=FAST)
    shots = pd.concat([r.strokes for r in recs])
    assert (shots["on_aeros"] > 0).any()
    per_turn = shots.groupby(["game", "round", "player"], sort=False)
    firsts = per_turn.head(1)
    assert (firsts["on_aeros"] == 0).all()


def test_refined_aims_come_from_the_best_coarse_cells_and_keep_the_default_repr():
    """``refine=k``: each goal's aim is a point of the 3 x 3 sub-grid (a third of the spacing)
    of one of the coarse map's best k cells, the best of them by its own throws; off, the aim
    is the coarse map's best cell and the repr is the one logged runs were claimed with."""
    from carromlab.games.kooba.maps import aim_map
    from carromlab.games.kooba.players import STRONG, goal_values

    assert repr(KoobaGreedy()) == (
        "KoobaGreedy(skill='club', n=200, grid=0.02, attack_at=4, target='leader', "
        "attack_players=2, press=True)"
    )
    assert "refine=8" in repr(STRONG) and "refine_n" not in repr(STRONG)
    config = KoobaConfig(n_players=2)
    grid = 0.04
    coarse = KoobaGreedy(n=40, grid=grid).aims(BOARD, "S", config)
    fine = KoobaGreedy(n=40, grid=grid, refine=3, refine_n=400).aims(BOARD, "S", config)
    xs = np.arange(-BOARD.half + grid / 2, BOARD.half, grid)
    df = aim_map(xs, xs, "club", config.sticks, 40, seed=0, seat="S", board=BOARD)
    for goal, value in goal_values(df, config).items():
        best = df.loc[value.idxmax()]
        assert coarse[goal] == (best.aim_x, best.aim_y)
        top = df.loc[value.nlargest(3).index]
        near = np.hypot(top.aim_x - fine[goal][0], top.aim_y - fine[goal][1]).min()
        assert near <= np.hypot(grid / 3, grid / 3) + 1e-9
        # and it is the best of its candidates by their own throws (common keys, seed 1)
        one = aim_map(
            [fine[goal][0]],
            [fine[goal][1]],
            "club",
            config.sticks,
            400,
            seed=1,
            seat="S",
            board=BOARD,
        )
        tops = pd.concat(
            [
                aim_map([x], [y], "club", config.sticks, 400, seed=1, seat="S", board=BOARD)
                for x, y in zip(top.aim_x, top.aim_y, strict=True)
            ]
        )
        assert goal_values(one, config)[goal].iloc[0] >= goal_values(tops, config)[goal].max()


def test_the_registry_names_kooba_s_refined_players():
    """``search``: the greedy player with its aims refined from its own map; ``strong`` (the
    game's strongest): the studies' second strength, at the skill asked for."""
    from carromlab.games.kooba.players import STRONG
    from carromlab.registry import STRONGEST, get_game

    game = get_game("kooba")
    search = game.make_player("search", skill="pro")
    assert (search.refine, search.refine_n, search.skill) == (STRONG.refine, STRONG.refine_n, "pro")
    assert search.attack_at == KoobaGreedy().attack_at  # only the aims differ from greedy's
    assert game.make_player(game.policy_name(STRONGEST), skill="club") == STRONG


def test_every_seat_aims_from_one_map_turned_to_it():
    """One aim map (the South seat's) serves every seat, turned by its quarter turns: the seats
    share its luck, and each aim lands in the same zone of its own seat's frame."""
    from carromlab.games.kooba.players import quarter_turn

    config = KoobaConfig(n_players=4)
    player = KoobaGreedy(n=20, grid=0.04)
    south = player.aims(BOARD, "S", config)
    for seat, turn in {"E": (lambda x, y: (-y, x)), "N": (lambda x, y: (-x, -y)),
                       "W": (lambda x, y: (y, -x))}.items():  # fmt: skip
        aims = player.aims(BOARD, seat, config)
        for goal, (x, y) in south.items():
            assert aims[goal] == turn(x, y)
            assert aims[goal] == quarter_turn(x, y, seat)
    assert quarter_turn(0.1, 0.2, "S") == (0.1, 0.2)
