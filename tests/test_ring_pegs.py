"""Golden rule tests for Ring Pegs (the Carrom Company's rule book, crokinole side; seed 002,
cut short; "Ring Pegs"): carromlab/games/ring_pegs/rules.py, its decisions 1-5.

Seed 002: "The first player places the Shooting Ring outside the large outer circle midway
between the pockets and attempts to shoot the ring through and outside the pegged circle.
[...] He next shoots to land his ring in the center hole to complete his play. A player
continues shooting until he fails to pass between 2 rings or hits a ring. If an opponent's
Shooting Ring obstructs his passage, a player can hit his opponent as often as necessary to
clear the way. However, if in hitting the opponent's ring he also strikes a spot ring he loses
his turn."

Kernel conventions: disc 0 is the active shooting ring (id ``"shooter"``), discs 1.. the
pieces of ``table_position(view)`` (the 8 pegged rings, then the opponent's ring if it lies on
the board); capture -1 on the board, 0 the centre hole, 1..4 the corner pockets.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from carromlab.analysis.search import SearchBudget
from carromlab.equipment.company import CrokinoleBoard
from carromlab.errors import CarromlabError
from carromlab.games.ring_pegs.machine import RingPegsConfig, RingPegsState, apply_stroke, new_game
from carromlab.games.ring_pegs.players import RingPegsGreedy, RingPegsRandom
from carromlab.games.ring_pegs.rules import (
    RingPegsTurn,
    active_spot,
    crosses_circle,
    evaluate_ring_pegs,
    legal_origin,
    origin,
    start_spot,
    table_position,
)
from carromlab.play import play_games
from carromlab.rules.crokinole import hole_code

BOARD = CrokinoleBoard()
R = BOARD.outer_radius
S = BOARD.small_radius  # the pegged circle (pegs on the 4 in circle)
RR = BOARD.ring_diameter / 2
HOLE = hole_code(BOARD)
POCKET = HOLE + 1  # a corner pocket of the square surround
NAN = float("nan")
#: The North frame (the far side for the player at the South start).
FAR_NORTH = (0.0, BOARD.extent - RR)
#: Resting places well beyond the pegged circle on the far side, and inside it.
BEYOND = (0.01, 0.2)
INSIDE = (0.0, 0.06)
STAGE1, STAGE2 = RingPegsTurn(1), RingPegsTurn(2)


def arrays(view, ring, capture0=-1, touched=(), moved=None, wall=0):
    """Kernel arrays [1 + pieces] over ``view``'s table: the shooting ring rests at ``ring``
    (capture ``capture0``), every piece stays put unless ``moved[k] = (capture, x, y)`` (k:
    1-based disc index); the ring takes part in one contact with each disc in ``touched`` and
    in ``wall`` wall contacts."""
    table = table_position(view)
    n = len(table.pieces)
    capture = np.full(1 + n, -1, np.int32)
    capture[0] = capture0
    x = np.array([ring[0]] + [p.x for p in table.pieces], float)
    y = np.array([ring[1]] + [p.y for p in table.pieces], float)
    for k, (c, mx, my) in (moved or {}).items():
        capture[k], x[k], y[k] = c, mx, my
    contacts = np.zeros(1 + n, np.int32)
    contacts[0] = wall
    for k in touched:
        contacts[0] += 1
        contacts[k] += 1
    return capture, x, y, contacts


def judge(view, ring, first=(NAN, NAN), turn=STAGE1, **kw) -> dict:
    """evaluate_ring_pegs on one shot; booleans and the value."""
    capture, x, y, contacts = arrays(view, ring, **kw)
    res = evaluate_ring_pegs(
        capture[None], x[None], y[None], contacts[None], view, turn, [first[0]], [first[1]]
    )
    return {k: v[0].item() for k, v in res.items()}


def stroke(state, ring, first=(NAN, NAN), config=None, **kw) -> RingPegsState:
    capture, x, y, contacts = arrays(state.board_position(), ring, **kw)
    return apply_stroke(state, capture, np.c_[x, y], contacts, first, config)


OPEN = new_game().board_position()


def with_opponent(spot, player=0, stages=(1, 1)) -> RingPegsState:
    """A state whose opponent's ring lies at ``spot`` (board coordinates)."""
    rings = [None, None]
    rings[1 - player] = spot
    return replace(new_game(), player=player, stages=stages, rings=tuple(rings))


# ------------------------------------------------------------------ decision 1: the start


def test_the_start_is_on_the_outer_circle_midway_between_the_pockets():
    """Decision 1 ("places the Shooting Ring outside the large outer circle midway between
    the pockets"): its centre on the outer circle on the player's axis - South for player 0,
    North for player 1; 8 rings over the pegs; shots start where the active ring lies."""
    assert start_spot(BOARD) == (0.0, -R)
    st = new_game()
    assert (st.player, st.stages, st.rings, st.strokes, st.over) == (
        0,
        (1, 1),
        (None, None),
        0,
        False,
    )
    view = st.board_position()
    assert view.validate() == []
    rings = [p for p in view.pieces if p.kind == "ring"]
    assert [(p.x, p.y) for p in rings] == BOARD.peg_centres()
    assert active_spot(view) == (0.0, -R)
    assert [p.id for p in table_position(view).pieces] == [p.id for p in rings]
    ox, oy = origin(view, [0.0, 30.0])
    assert legal_origin(view, ox, oy).all()
    assert not legal_origin(view, [0.01], [-R]).any()
    north = replace(st, player=1).board_position()
    assert north.validate() == [] and active_spot(north) == pytest.approx((0.0, R))


# ------------------------------------------------------------------ decision 2: the pass


def test_a_first_leg_through_and_out_of_the_pegged_circle_passes():
    """Decision 2: the first straight leg (start to first contact) goes in through a gap and
    out beyond the pegged circle - a pass, the turn continues ("shoot the ring through and
    outside the pegged circle"). What follows the first leg does not matter: back inside the
    circle, or even into the hole."""
    r = judge(OPEN, BEYOND, first=FAR_NORTH, wall=1)
    assert r["passed"] and r["continues"] and r["points"] == 1.0 and not r["touched_pegged"]
    assert judge(OPEN, INSIDE, first=FAR_NORTH, wall=1)["passed"]
    assert judge(OPEN, (0.0, 0.0), first=FAR_NORTH, capture0=HOLE, wall=1)["passed"]


def test_a_first_leg_that_ends_inside_or_stays_outside_does_not_pass():
    """Decision 2: the leg must pass inside the pegged circle *and* end outside it. Ending
    inside (the ring stops there), or staying outside (too slow to reach the circle) - no
    pass, the turn ends."""
    for ring in (INSIDE, (0.0, 0.0), (0.0, -0.2), (0.0, -S - RR - 0.001)):
        r = judge(OPEN, ring)
        assert not r["passed"] and not r["continues"] and r["points"] == 0.0, ring


def test_a_first_leg_that_misses_the_pegged_circle_does_not_pass():
    """Decision 2: the first leg runs to a side wall without entering the pegged circle; the
    ring bounces on and comes to rest beyond the circle on the far side - still no pass (it
    did not go "through" the pegged circle)."""
    side = (BOARD.extent - RR, -0.05)
    assert not crosses_circle(0.0, -R, *side, S)
    r = judge(OPEN, BEYOND, first=side, wall=2)
    assert not r["passed"] and not r["continues"]


def test_the_first_leg_is_judged_at_the_first_contact_not_the_resting_place():
    """Decision 2: a first contact inside the pegged circle (here the opponent's ring, lying
    by the hole) ends the first leg inside - no pass, even if the ring then runs on and rests
    beyond the circle."""
    view = with_opponent((0.0, 0.04)).board_position()
    first = (0.0, 0.04 - 2 * RR)
    r = judge(view, BEYOND, first=first, touched=(9,), moved={9: (-1, 0.0, 0.25)})
    assert not r["passed"] and not r["touched_pegged"]


def test_no_first_contact_judges_the_leg_to_the_resting_place():
    """Decision 2: with no contact (first_x, first_y NaN) the first leg ends where the ring
    stopped; it must lie wholly beyond the pegged circle (centre beyond S + ring radius)."""
    assert judge(OPEN, BEYOND)["passed"]
    assert judge(OPEN, (0.0, S + RR + 1e-4))["passed"]
    assert not judge(OPEN, (0.0, S + RR - 1e-4))["passed"]  # over the circle's line
    assert not judge(OPEN, INSIDE)["passed"]


def test_touching_any_pegged_ring_fails_the_pass_and_the_finish():
    """ "A player continues shooting until he ... hits a ring": a contact with any of the 8
    pegged rings (kernel contacts > 0) fails the pass (however good the first leg) and the
    finish (even with the ring in the hole); the turn ends."""
    for k in range(1, 9):
        p = judge(OPEN, BEYOND, first=FAR_NORTH, touched=(k,), wall=1)
        assert p["touched_pegged"] and not p["passed"] and not p["continues"], k
        f = judge(OPEN, (0.0, 0.0), turn=STAGE2, capture0=HOLE, touched=(k,))
        assert f["touched_pegged"] and not f["finished"] and f["points"] == 0.0, k


def test_hitting_the_opponents_ring_is_allowed():
    """ "A player can hit his opponent as often as necessary to clear the way": a contact
    with the opponent's shooting ring is no touch of a pegged ring - the finish counts, and a
    pass whose first leg ends at the opponent's ring beyond the pegged circle counts. "If in
    hitting the opponent's ring he also strikes a spot ring he loses his turn.\""""
    view = with_opponent((0.0, 0.2)).board_position()
    assert len(table_position(view).pieces) == 9  # the opponent's ring is disc 9
    first = (0.0, 0.2 - 2 * RR)
    r = judge(view, (0.0, 0.16), first=first, touched=(9,), moved={9: (-1, 0.0, 0.27)})
    assert r["passed"] and not r["touched_pegged"]
    f = judge(view, (0.0, 0.0), turn=STAGE2, capture0=HOLE, touched=(9,))
    assert f["finished"] and f["continues"] and f["points"] == 1.0
    both = judge(view, (0.0, 0.0), turn=STAGE2, capture0=HOLE, touched=(9, 4))
    assert both["touched_pegged"] and not both["finished"]


def test_the_finish_is_the_ring_in_the_hole():
    """Decision 3 ("land his ring in the center hole to complete his play"): stage 2
    succeeds only with the shooting ring captured in the centre hole; at rest near it, or in a
    corner pocket, it fails. In stage 1 a ring in the hole is no finish (the value is the
    pass)."""
    assert judge(OPEN, (0.0, 0.0), turn=STAGE2, capture0=HOLE)["continues"]
    assert not judge(OPEN, (0.0, 0.03), turn=STAGE2)["finished"]
    assert not judge(OPEN, (0.3, 0.3), turn=STAGE2, capture0=POCKET)["finished"]
    r = judge(OPEN, (0.0, 0.0), turn=STAGE1, capture0=HOLE)
    assert r["finished"] and not r["continues"] and r["points"] == 0.0


def test_evaluation_is_vectorised_and_checks_the_disc_count():
    """One call judges a batch of shots; an outcome with the wrong number of discs for the
    position (8 pegged rings, the opponent's ring when on the board, and the ring) is
    refused; the stage is 1 or 2."""
    a = arrays(OPEN, BEYOND)
    b = arrays(OPEN, INSIDE)
    c = arrays(OPEN, BEYOND, touched=(3,))
    cap, x, y, con = (np.stack(v) for v in zip(a, b, c))
    res = evaluate_ring_pegs(cap, x, y, con, OPEN, STAGE1, [NAN] * 3, [NAN] * 3)
    assert res["passed"].tolist() == [True, False, False]
    assert res["touched_pegged"].tolist() == [False, False, True]
    view = with_opponent((0.0, 0.2)).board_position()
    with pytest.raises(CarromlabError, match="discs"):
        evaluate_ring_pegs(cap, x, y, con, view, STAGE1)
    with pytest.raises(CarromlabError):
        RingPegsTurn(3)


# ------------------------------------------------------------------ decisions 3-5: the game


def test_a_pass_continues_the_turn_into_stage_2_from_where_the_ring_lies():
    """Decision 4: after a pass the same player shoots the finish, from where the ring lies;
    its place is kept in board coordinates and it is the next shot's origin."""
    st = stroke(new_game(), BEYOND, first=FAR_NORTH, wall=1)
    assert (st.player, st.stages, st.rings[0], st.turns) == (0, (2, 1), BEYOND, (1, 0))
    view = st.board_position()
    assert view.validate() == [] and active_spot(view) == BEYOND
    assert st.turn_state() == STAGE2
    last = st.history[-1]
    assert (last.player, last.stage, last.passed, last.touched_pegged) == (0, 1, True, False)


def test_a_pass_that_ends_in_the_hole_or_off_the_board_finishes_from_the_start():
    """Decision 4: a passing ring that then fell into the hole or a corner pocket is played
    again from the start for the finish (still the same turn, stage 2)."""
    for capture0, ring in ((HOLE, (0.0, 0.0)), (POCKET, (0.3, 0.3))):
        st = stroke(new_game(), ring, first=FAR_NORTH, capture0=capture0, wall=1)
        assert (st.player, st.stages, st.rings, st.over) == (0, (2, 1), (None, None), False)
        assert active_spot(st.board_position()) == (0.0, -R)


def test_a_failed_pass_sends_the_ring_back_to_the_start_and_passes_the_turn():
    """Decision 4 ("continues shooting until he fails to pass between 2 rings or hits a
    ring"): a failed pass - or a pass that touched a pegged ring - ends the turn, and the ring
    goes back to the start for the next attempt."""
    for kw in ({"ring": INSIDE}, {"ring": BEYOND, "first": FAR_NORTH, "touched": (2,)}):
        st = stroke(new_game(), **kw)
        assert (st.player, st.stages, st.rings, st.turns) == (1, (1, 1), (None, None), (1, 1))
        assert st.history[-1].passed is False
        view = st.board_position()
        assert view.validate() == [] and active_spot(view) == pytest.approx((0.0, R))
        assert not any(p.id.startswith("shooter.") for p in view.pieces)  # 0's ring picked up


def test_the_finish_wins_the_game():
    """Decision 3: from stage 2, the ring in the hole with no pegged ring touched completes
    the play and wins; a stroke after the end is refused."""
    st = replace(new_game(), stages=(2, 1), rings=((0.0, -0.15), None))
    end = stroke(st, (0.0, 0.0), capture0=HOLE)
    assert end.over and end.winner == 0 and not end.unfinished and end.strokes == 1
    assert end.history[-1].finished
    with pytest.raises(CarromlabError, match="over"):
        stroke(end, (0.0, 0.0), capture0=HOLE)


def test_a_failed_finish_keeps_stage_2_and_the_ring_where_it_lies():
    """Decision 4: a missed finish ends the turn; the player keeps stage 2 and his ring stays
    where it lies (on the board, where the opponent may hit it); if it left the board, or fell
    into the hole touching a pegged ring, it goes back to the start."""
    st = replace(new_game(), stages=(2, 1), rings=((0.0, -0.15), None))
    miss = stroke(st, (0.02, 0.05))
    assert (miss.player, miss.stages, miss.rings, miss.over) == (
        1,
        (2, 1),
        ((0.02, 0.05), None),
        False,
    )
    view = miss.board_position()  # player 1 on turn sees player 0's ring
    assert view.validate() == []
    assert [(p.id, p.owner, p.x, p.y) for p in view.pieces if p.id == "shooter.p1"] == [
        ("shooter.p1", "p1", 0.02, 0.05)
    ]
    off = stroke(st, (0.3, 0.3), capture0=POCKET)
    assert (off.player, off.stages, off.rings) == (1, (2, 1), (None, None))
    touched = stroke(st, (0.0, 0.0), capture0=HOLE, touched=(5,))
    assert (touched.over, touched.player, touched.stages, touched.rings) == (
        False,
        1,
        (2, 1),
        (None, None),
    )


def test_progress_is_kept_between_turns():
    """Decision 3 ("progress is kept between turns"): player 0 passes and misses the finish;
    player 1 fails his pass; player 0 resumes at stage 2 from where his ring lies, and
    finishing wins."""
    st = stroke(new_game(), BEYOND, first=FAR_NORTH, wall=1)  # 0 passes
    st = stroke(st, (0.05, 0.12))  # 0 misses the finish
    assert (st.player, st.stages, st.rings[0]) == (1, (2, 1), (0.05, 0.12))
    st = stroke(st, (0.0, 0.2))  # 1 (North) stops short of the pegged circle: no pass
    assert (st.player, st.stages, st.rings, st.turns) == (0, (2, 1), ((0.05, 0.12), None), (2, 1))
    assert st.turn_state() == STAGE2 and active_spot(st.board_position()) == (0.05, 0.12)
    end = stroke(st, (0.0, 0.0), capture0=HOLE)
    assert end.winner == 0 and [h.player for h in end.history] == [0, 0, 1, 0]


def test_the_opponents_ring_is_recorded_where_a_stroke_leaves_it():
    """ "Hit his opponent as often as necessary to clear the way": the opponent's ring pushed
    by a stroke is recorded where it rests; knocked into the hole or off the board it is
    picked up (back to its start, off the board)."""
    st = with_opponent((0.0, 0.2), stages=(1, 2))
    pushed = stroke(st, BEYOND, first=(0.0, 0.2 - 2 * RR), touched=(9,), moved={9: (-1, 0.1, 0.25)})
    assert pushed.history[-1].passed and pushed.player == 0
    assert pushed.rings == (BEYOND, (0.1, 0.25))
    assert pushed.board_position().validate() == []
    holed = stroke(st, INSIDE, touched=(9,), moved={9: (HOLE, 0.0, 0.0)})
    assert holed.rings == (None, None) and holed.stages == (1, 2) and holed.player == 0
    assert holed.history[-1].cleared and holed.board_position().validate() == []


def test_a_clearing_hit_keeps_the_turn_unless_a_spot_ring_is_struck():
    """Decision 4: "a player can hit his opponent as often as necessary to clear the way.
    However, if in hitting the opponent's ring he also strikes a spot ring he loses his turn."
    A stroke that hits the opponent's ring and touches no pegged ring keeps the turn - in
    stage 1 the ring goes back to the start for the next attempt, in stage 2 it stays where it
    lies; the same hit that also touches a pegged ring ends the turn; the stroke limit still
    ends the game."""
    st = with_opponent((0.0, -0.1))
    pushed = {9: (-1, 0.05, -0.05)}
    clear = stroke(st, (0.0, -0.13), first=(0.0, -0.1 - 2 * RR), touched=(9,), moved=pushed)
    last = clear.history[-1]
    assert last.cleared and not last.passed and not last.touched_pegged
    assert (clear.player, clear.stages, clear.rings, clear.turns) == (
        0,
        (1, 1),
        (None, (0.05, -0.05)),
        (1, 0),
    )
    lost = stroke(st, (0.0, -0.13), touched=(9, 3), moved=pushed)
    assert not lost.history[-1].cleared and lost.player == 1 and lost.turns == (1, 1)
    # stage 2: the ring stays where it lies, and the player shoots again from there
    st2 = with_opponent((0.0, -0.05), stages=(2, 1))
    st2 = replace(st2, rings=((0.0, -0.15), (0.0, -0.05)))
    again = stroke(st2, (0.0, -0.08), touched=(9,), moved={9: (-1, 0.0, 0.02)})
    assert again.player == 0 and again.rings[0] == (0.0, -0.08)
    assert active_spot(again.board_position()) == (0.0, -0.08)
    # judged in the evaluation too: "cleared" keeps the turn ("continues") but scores nothing
    r = judge(st.board_position(), (0.0, -0.13), touched=(9,), moved=pushed)
    assert r["cleared"] and r["continues"] and r["points"] == 0.0
    assert not judge(OPEN, INSIDE)["cleared"]
    # bounded by the stroke limit
    cfg = RingPegsConfig(max_strokes=1)
    capped = stroke(st, (0.0, -0.13), touched=(9,), moved=pushed, config=cfg)
    assert capped.over and capped.unfinished


def test_max_strokes_ends_the_game_unfinished():
    """Decision 5: after ``max_strokes`` strokes the game ends unfinished (no winner) - also
    when the last stroke was a pass that would have continued the turn."""
    cfg = RingPegsConfig(max_strokes=2)
    st = stroke(new_game(), INSIDE, config=cfg)
    assert not st.over
    st = stroke(st, INSIDE, config=cfg)
    assert st.over and st.unfinished and st.winner is None and st.strokes == 2
    one = stroke(new_game(), BEYOND, first=FAR_NORTH, wall=1, config=RingPegsConfig(max_strokes=1))
    assert one.over and one.unfinished and one.winner is None and one.strokes == 1


def test_player_1_is_judged_in_his_own_turned_frame():
    """Player 1 starts North (0, +R) in board coordinates; his strokes are judged turned by
    180 deg, so a pass runs South through the pegged circle. The state keeps board
    coordinates (un-turned) and the pegged rings keep their disc order."""
    st = replace(new_game(), player=1)
    south_frame = (0.0, -(BOARD.extent - RR))
    passed = stroke(st, (-0.01, -0.2), first=south_frame, wall=1)
    assert (passed.player, passed.stages, passed.rings) == (1, (1, 2), (None, (-0.01, -0.2)))
    assert active_spot(passed.board_position()) == (-0.01, -0.2)
    assert stroke(st, (0.0, -0.2)).stages == (1, 2)  # no contact: the resting place
    short = stroke(st, (0.0, 0.2))  # stays on his own (North) side
    assert (short.player, short.stages, short.rings) == (0, (1, 1), (None, None))
    for k in range(1, 9):
        assert stroke(st, (0.0, -0.2), touched=(k,)).stages == (1, 1), k
    fin = stroke(replace(st, stages=(1, 2), rings=(None, (0.1, 0.1))), (0.0, 0.0), capture0=HOLE)
    assert fin.winner == 1


def test_a_start_covered_by_the_opponents_ring():
    """Decision 1: a failed finish can leave a ring lying on the other player's start (here
    player 1's ring at player 0's start spot); player 0's ring then starts at the nearest
    point of the outer circle clear of it, and the position is legal."""
    st = with_opponent((0.0, -R + 0.01))
    view = st.board_position()
    assert view.validate() == []
    ring = view.by_id("shooter")
    assert math.hypot(ring.x, ring.y) == pytest.approx(R)
    assert 0 < abs(ring.x) < 0.04


# ------------------------------------------------------------------ whole games (kernel)


def _history_consistent(st) -> None:
    for h in st.history:
        assert h.stage in (1, 2)
    if st.winner is not None:
        mine = [h for h in st.history if h.player == st.winner]
        assert mine[-1].stage == 2 and mine[-1].finished and not mine[-1].touched_pegged
        assert any(h.stage == 1 and h.passed for h in mine[:-1])  # a win needs a pass first


def test_random_games_keep_every_position_legal():
    """Whole random games on the kernel: after every stroke the position (pegged rings, both
    shooting rings) validates; each game ends with a finish or unfinished at max_strokes,
    never beyond it, and every win follows a pass."""
    cfg = RingPegsConfig(max_strokes=60)
    seen = []

    def check(state):
        assert state.board_position().validate() == []
        assert state.strokes <= cfg.max_strokes
        seen.append(state.strokes)

    recs = play_games([RingPegsRandom()] * 2, cfg, "club", seed=1, games=2, on_stroke=check)
    assert len(seen) == sum(len(r.strokes) for r in recs) > 0
    for rec in recs:
        st = rec.state
        assert st.over and st.strokes == len(rec.strokes) <= 60
        assert st.unfinished == (st.winner is None)
        assert rec.row["finished"] == (not st.unfinished)
        assert not rec.strokes["truncated"].any()
        _history_consistent(st)


def test_greedy_pro_game_finishes():
    """A greedy player at skill "pro" passes the pegged circle and holes the ring: the game
    has a winner within 60 strokes."""
    player = RingPegsGreedy(budget=SearchBudget(n_screen=2, keep=2, n_eval=4), step_deg=2.0)
    (rec,) = play_games([player] * 2, RingPegsConfig(max_strokes=60), "pro", seed=0, games=1)
    st = rec.state
    assert st.over and st.winner is not None and not st.unfinished
    assert st.strokes <= 60 and rec.row["finished"]
    _history_consistent(st)


def test_entry_gap_names_the_gap_the_first_leg_goes_in_through():
    """Gap k is centred at 45 k deg: straight up from the South start goes in at gap 6
    (270 deg); from the East, heading West, at gap 0; a leg that misses the pegged circle, or
    starts inside it, enters no gap (-1)."""
    from carromlab.games.ring_pegs.rules import entry_gap

    r = BOARD.small_radius
    assert entry_gap(0.0, -R, 0.0, 0.2, r) == 6
    assert entry_gap(R, 0.0, -0.2, 0.0, r) == 0
    assert entry_gap(0.0, -R, 0.2, -R, r) == -1
    assert entry_gap(0.0, 0.0, 0.0, 0.2, r) == -1
    a = np.radians(45.0)
    assert entry_gap(R * np.cos(a), R * np.sin(a), 0.0, 0.0, r) == 1
