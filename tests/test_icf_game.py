"""Golden tests of the ICF game-state machine: a crafted state + a hand-made stroke outcome
(capture row etc. as numpy arrays) -> the exact resulting state, one clause per test; and a
property test over random stroke outcomes."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from carromlab.errors import CarromlabError
from carromlab.games.icf.machine import (
    IcfBoardState,
    IcfConfig,
    IcfState,
    apply_stroke,
    new_game,
    place_returned,
    side_of,
)
from carromlab.position import Piece, Position
from carromlab.registry import standard_position

SW, SE, NE, NW = 0, 1, 2, 3
DITCH = 4  # a capture code beyond the pockets: the piece left the board
ON = -1
NONE, PIECE, WALL = 0, 1, 2

OPENING = standard_position("icf-opening")
BOARD = OPENING.board
R = BOARD.coin_diameter / 2
R_OUTER = BOARD.outer_circle_diameter / 2


def disc(position: Position, pid: str) -> int:
    """Disc index of a piece (the striker is disc 0)."""
    return 1 + [p.id for p in position.pieces].index(pid)


def outcome(state: IcfState, pocket=(), striker=False, off=(), first="w1", kind=PIECE):
    """(capture, first_contact_kind, first_contact) of one stroke on the current board."""
    pos = state.board.position
    cap = np.full(1 + len(pos.pieces), ON, dtype=np.int32)
    for pid in pocket:
        cap[disc(pos, pid)] = SW
    for pid in off:
        cap[disc(pos, pid)] = DITCH
    if striker:
        cap[0] = SE
    fc = disc(pos, first) if kind == PIECE and first in {p.id for p in pos.pieces} else 0
    return cap, kind, fc


def play(state, *args, config=None, placement=None, contacts=None, final_xy=None, **kw):
    cap, fk, fc = outcome(state, *args, **kw)
    return apply_stroke(state, cap, fk, fc, contacts, config, placement, final_xy=final_xy)


def crafted(
    remove=(),
    config: IcfConfig | None = None,
    pieces=None,
    scores=(0, 0),
    boards_played=0,
    **board,
) -> IcfState:
    """A mid-board state (not the break) from the opening minus ``remove`` (or ``pieces``)."""
    config = config or IcfConfig()
    g = new_game(config)
    pos = g.board.position
    if pieces is not None:
        pos = pos.replace(pieces=tuple(pieces))
    pos = pos.replace(pieces=tuple(p for p in pos.pieces if p.id not in remove))
    assert pos.validate() == []
    board.setdefault("is_break", False)
    b = dataclasses.replace(g.board, position=pos, **board)
    return dataclasses.replace(g, board=b, scores=scores, boards_played=boards_played)


def ids(state) -> set[str]:
    return {p.id for p in state.board.position.pieces}


def inside_outer(p: Piece) -> bool:
    return math.hypot(p.x, p.y) + R <= R_OUTER + 1e-12


def end_position(white=("w1",), black=("b1", "b2", "b3", "b4", "b5"), queen=False):
    """A sparse end-of-board position: the given coins (at their opening places)."""
    keep = set(white) | set(black) | ({"q"} if queen else set())
    return [p for p in OPENING.pieces if p.id in keep]


# --------------------------------------------------------------------------- set-up, break


def test_new_game_is_the_opening_broken_by_seat_0_playing_white():
    g = new_game()
    b = g.board
    assert b.position.pieces == OPENING.pieces and b.position.validate() == []
    assert (b.turn, b.breaker, b.colours, b.is_break, b.break_tries) == (
        0,
        0,
        ("white", "black"),
        True,
        0,
    )
    assert (b.down, b.dues, b.queen, b.queen_side, b.strokes) == (
        (0, 0),
        (0, 0),
        "on_board",
        None,
        0,
    )
    assert (g.scores, g.boards_played, g.next_breaker, g.over, g.winner) == (
        (0, 0),
        0,
        1,
        False,
        None,
    )
    d = new_game(IcfConfig(doubles=True))
    assert d.board.position.variant == "icf-doubles" and d.next_breaker == 1


def test_break_that_touches_no_coin_uses_a_try_and_the_breaker_breaks_again():
    g = new_game()
    g1 = play(g, kind=WALL, first=None)
    b = g1.board
    assert (b.turn, b.is_break, b.break_tries, b.strokes) == (0, True, 1, 1)
    assert b.position.pieces == OPENING.pieces and (b.down, b.dues) == ((0, 0), (0, 0))
    assert g1.last_stroke.facts["foul.break_no_coin"] and g1.last_stroke.facts["break_retry"]
    # a wall first but a coin touched later (contacts) is a break: the turn passes
    contacts = np.zeros(20, dtype=np.int32)
    contacts[disc(OPENING, "b3")] = 1
    g2 = play(g, kind=WALL, first=None, contacts=contacts)
    assert (g2.board.turn, g2.board.is_break, g2.board.break_tries) == (1, False, 0)


def test_three_failed_break_tries_pass_the_turn_to_an_ordinary_stroke():
    g = new_game()
    for k in range(1, 3):
        g = play(g, kind=NONE, first=None)
        assert (g.board.turn, g.board.is_break, g.board.break_tries) == (0, True, k)
    g = play(g, kind=NONE, first=None)
    assert (g.board.turn, g.board.is_break, g.board.break_tries, g.board.strokes) == (
        1,
        False,
        3,
        3,
    )
    assert g.board.colours == ("white", "black")  # the breaker's side keeps white
    g = play(g, kind=NONE, first=None)  # an ordinary miss by seat 1: no try, the turn passes
    assert (g.board.turn, g.board.is_break) == (0, False)
    # option: the next player must break instead, with fresh tries
    cfg = IcfConfig(rebreak_after_failed=True)
    h = new_game(cfg)
    for _ in range(3):
        h = play(h, kind=NONE, first=None)
    assert (h.board.turn, h.board.is_break, h.board.break_tries) == (1, True, 0)


# --------------------------------------------------------------------------- turns


def test_own_coin_pocketed_the_same_player_continues():
    g = crafted()
    cap = np.full(20, ON)
    cap[disc(OPENING, "w4")] = NE  # by hand: w4 into the north-east pocket
    g1 = apply_stroke(g, cap, PIECE, disc(OPENING, "w4"))
    b = g1.board
    assert (b.turn, b.down, b.dues, b.strokes) == (0, (1, 0), (0, 0), 1)
    assert ids(g1) == ids(g) - {"w4"} and b.on_board(0) == 8 and b.on_board(1) == 9
    assert g1.last_stroke.facts["continues"] and g1.last_stroke.placed == ()


def test_nothing_pocketed_the_turn_passes_to_the_opponent():
    g = crafted(remove=("w1",), down=(1, 0))
    g1 = play(g)
    assert (g1.board.turn, g1.board.down, g1.board.position) == (1, (1, 0), g.board.position)
    g2 = play(g1, first="b2")
    assert g2.board.turn == 0


def test_doubles_turn_passes_to_the_right_partners_opposite():
    cfg = IcfConfig(doubles=True)
    g = crafted(config=cfg)
    assert [side_of(s) for s in range(4)] == [0, 1, 0, 1] and cfg.seats == ("S", "E", "N", "W")
    seen = []
    for _ in range(4):
        seen.append(g.board.turn)
        g = play(g)
    assert seen == [0, 1, 2, 3] and g.board.turn == 0
    g = dataclasses.replace(g, board=dataclasses.replace(g.board, turn=2))
    g = play(g, ["w2"])  # seat 2 plays white (the breaker's side): continues
    assert (g.board.turn, g.board.down) == (2, (1, 0))
    g = play(g)
    assert g.board.turn == 3
    g = play(g, ["w3"])  # seat 3 (black) pockets a white coin: counts for white, turn ends
    assert (g.board.turn, g.board.down) == (0, (2, 0))


# --------------------------------------------------------------------------- the striker, dues


def test_striker_alone_a_pocketed_coin_comes_back_inside_the_outer_circle():
    g = crafted(remove=("w1", "w2"), down=(2, 0))
    g1 = play(g, striker=True, first=None, kind=WALL)
    b = g1.board
    assert (b.turn, b.down, b.dues) == (1, (1, 0), (0, 0))
    assert b.on_board(0) == 8 and b.position.validate() == []
    ((pid, kind, owner, x, y),) = g1.last_stroke.placed
    assert (pid, kind, owner) == ("w1", "coin", "white")
    new = b.position.by_id("w1")
    assert inside_outer(new) and (new.x, new.y) == (x, y)
    # centre-first: the nearest free spot, the hole w2 left (touching the queen; the holes
    # of w1 and w2 are as near, w2's has the smaller angle counter-clockwise from +x)
    w2 = OPENING.by_id("w2")
    assert (x, y) == pytest.approx((w2.x, w2.y), abs=1e-9)


def test_striker_alone_with_no_coin_down_owes_a_due_paid_later():
    g = crafted()
    g1 = play(g, striker=True)
    assert (g1.board.turn, g1.board.down, g1.board.dues) == (1, (0, 0), (1, 0))
    assert g1.board.position == g.board.position and g1.last_stroke.placed == ()
    g2 = play(g1, first="b1")  # black misses
    assert g2.board.turn == 0
    g3 = play(g2, ["w3"])  # white pockets w3: it pays the due, comes straight back out
    b = g3.board
    assert (b.turn, b.down, b.dues) == (0, (0, 0), (0, 0))
    assert b.on_board(0) == 9 and "w3" in ids(g3) and b.position.validate() == []
    assert inside_outer(b.position.by_id("w3"))


def test_striker_with_own_coins_they_come_back_plus_one_and_the_turn_continues():
    g = crafted(remove=("w1", "w2"), down=(2, 0))
    g1 = play(g, ["w3", "w4"], striker=True)
    b = g1.board
    assert (b.turn, b.down, b.dues) == (0, (1, 0), (0, 0))
    assert b.on_board(0) == 8 and b.position.validate() == []
    assert [p[0] for p in g1.last_stroke.placed] == ["w3", "w4", "w1"]  # then the penalty
    assert all(inside_outer(b.position.by_id(pid)) for pid in ("w1", "w3", "w4"))


def test_striker_with_an_opponent_coin_it_stays_down_a_due_and_the_turn_ends():
    g = crafted(remove=("w1", "w2"), down=(2, 0))
    g1 = play(g, ["b1"], striker=True)
    b = g1.board
    assert (b.turn, b.down, b.dues) == (1, (1, 1), (0, 0))
    assert b.on_board(0) == 8 and b.on_board(1) == 8 and "b1" not in ids(g1)


def test_opponent_coin_pays_the_opponents_due():
    g = crafted(dues=(0, 1))  # black owes a due, has nothing down
    g1 = play(g, ["b5"])  # white pockets a black coin: it pays black's due at once
    b = g1.board
    assert (b.turn, b.down, b.dues) == (1, (0, 0), (0, 0)) and b.on_board(1) == 9
    assert g1.last_stroke.placed[0][:3] == ("b5", "coin", "black")
    h = play(g, ["b5"], config=IcfConfig(opponent_coin_pays_due=False))
    assert (h.board.down, h.board.dues, h.board.on_board(1)) == ((0, 1), (0, 1), 8)


def test_due_rule_off_the_striker_costs_nothing():
    cfg = IcfConfig(due_rule=False)
    g = crafted(remove=("w1", "w2"), down=(2, 0), config=cfg)
    g1 = play(g, striker=True)
    assert (g1.board.turn, g1.board.down, g1.board.dues) == (1, (2, 0), (0, 0))
    assert g1.board.position == g.board.position
    g2 = play(g, ["w3"], striker=True)  # own coin with the striker: back, no penalty coin
    assert (g2.board.turn, g2.board.down, g2.board.dues) == (0, (2, 0), (0, 0))
    assert [p[0] for p in g2.last_stroke.placed] == ["w3"]
    g3 = play(crafted(config=cfg), striker=True)  # nothing down: nothing owed
    assert g3.board.dues == (0, 0)


# --------------------------------------------------------------------------- the queen


def test_queen_first_is_returned_to_the_centre_and_the_turn_ends():
    g = crafted()
    g1 = play(g, ["q"], first="q")
    b = g1.board
    assert (b.turn, b.queen, b.queen_side, b.down) == (1, "on_board", None, (0, 0))
    q = b.position.by_id("q")
    assert (q.x, q.y) == (0.0, 0.0) and b.position.validate() == []
    assert g1.last_stroke.facts["queen_illegal"]


def test_queen_with_own_coin_is_covered():
    g = crafted(remove=("w1",), down=(1, 0))
    g1 = play(g, ["q", "w2"])
    b = g1.board
    assert (b.turn, b.queen, b.queen_side, b.down) == (0, "covered", 0, (2, 0))
    assert "q" not in ids(g1)


def test_queen_then_cover_on_the_next_stroke():
    g = crafted(remove=("w1",), down=(1, 0))
    g1 = play(g, ["q"], first="q")
    assert (g1.board.turn, g1.board.queen, g1.board.queen_side) == (0, "pending", 0)
    assert g1.board.turn_state().queen_pending
    g2 = play(g1, ["w2"])
    assert (g2.board.turn, g2.board.queen, g2.board.queen_side, g2.board.down) == (
        0,
        "covered",
        0,
        (2, 0),
    )


def test_queen_not_covered_is_returned_as_near_the_centre_as_possible():
    g = crafted(remove=("w1",), down=(1, 0))
    g1 = play(g, ["q"], first="q")
    g2 = play(g1)  # no cover: the queen comes back; the centre is free
    b = g2.board
    assert (b.turn, b.queen, b.queen_side) == (1, "on_board", None)
    assert (b.position.by_id("q").x, b.position.by_id("q").y) == (0.0, 0.0)
    # the same, but the stroke left b1 resting on the centre spot (final_xy)
    final = np.array([[0.0, -0.2]] + [[p.x, p.y] for p in g1.board.position.pieces])
    final[disc(g1.board.position, "b1")] = (0.0, 0.0)
    g3 = play(g1, final_xy=final)
    b3 = g3.board
    q = b3.position.by_id("q")
    assert (b3.position.by_id("b1").x, b3.position.by_id("b1").y) == (0.0, 0.0)
    assert math.hypot(q.x, q.y) == pytest.approx(2 * R, abs=1e-9)  # touching b1
    assert b3.position.validate() == [] and inside_outer(q)
    assert play(g1, final_xy=final).board.position == b3.position  # deterministic


def test_97b_queen_and_one_coin_with_all_nine_on_the_board_needs_a_cover():
    g = crafted()
    g1 = play(g, ["q", "w1"])
    assert (g1.board.turn, g1.board.queen, g1.board.queen_side, g1.board.down) == (
        0,
        "pending",
        0,
        (1, 0),
    )
    g2 = play(g1, ["w2"])
    assert (g2.board.queen, g2.board.queen_side, g2.board.down) == ("covered", 0, (2, 0))
    g3 = play(g, ["q", "w1", "w2"])  # queen + 2 own coins: covered at once
    assert (g3.board.queen, g3.board.down) == ("covered", (2, 0))


def test_queen_with_a_due_outstanding_is_returned_and_the_turn_ends():
    g = crafted(dues=(1, 0))
    g1 = play(g, ["q", "w1"])
    b = g1.board
    assert (b.turn, b.queen, b.down, b.dues) == (1, "on_board", (0, 0), (0, 0))
    assert (b.position.by_id("q").x, b.position.by_id("q").y) == (0.0, 0.0)
    assert b.on_board(0) == 9 and b.position.validate() == []  # w1 paid the due
    assert [p[0] for p in g1.last_stroke.placed] == ["q", "w1"]


def test_coins_leaving_the_board_go_back_to_the_centre_circle():
    g = crafted(remove=("q", "w1"), queen="covered", queen_side=0, down=(1, 0))
    g1 = play(g, off=["b6"])  # b6 flies off the board: back in the centre circle, not down
    b = g1.board
    p = b.position.by_id("b6")
    assert (p.x, p.y) == (0.0, 0.0) and b.down == (1, 0) and b.turn == 1
    assert b.on_board(1) == 9 and b.position.validate() == []
    assert g1.last_stroke.placed == (("b6", "coin", "black", 0.0, 0.0),)
    # the queen off the board: back to the centre; the turn ends (nothing pocketed)
    h = play(crafted(), off=["q"], first="q")
    assert (h.board.queen, h.board.turn) == ("on_board", 1)
    assert (h.board.position.by_id("q").x, h.board.position.by_id("q").y) == (0.0, 0.0)


# --------------------------------------------------------------------------- end of a board


def test_last_own_coin_with_the_queen_on_board_the_opponent_wins_and_scores_the_queen():
    g = crafted(pieces=end_position(queen=True), down=(8, 4))
    g1 = play(g, ["w1"])
    last = g1.last_board
    assert (last.over, last.winner, last.points) == (True, 1, 3)  # no white coin left + queen
    assert (g1.scores, g1.boards_played, g1.over) == ((0, 3), 1, False)
    assert g1.last_stroke.board_ended and g1.last_stroke.facts["foul.last_coin_before_queen"]


@pytest.mark.parametrize(
    ("queen", "queen_side", "points"),
    [("on_board", None, 3 + 3), ("covered", 0, 3), ("covered", 1, 3 + 3)],
)
def test_pocketing_the_opponents_last_coin_the_opponent_wins(queen, queen_side, points):
    pieces = end_position(white=("w1", "w2", "w3"), black=("b1",), queen=queen == "on_board")
    g = crafted(pieces=pieces, down=(6, 8), queen=queen, queen_side=queen_side)
    g1 = play(g, ["b1"])
    assert (g1.last_board.winner, g1.last_board.points) == (1, points)
    assert g1.scores == (0, points)


@pytest.mark.parametrize(("queen_side", "points"), [(0, 5 + 3), (1, 5)])
def test_board_scoring_one_per_opponent_coin_left_plus_the_queen_when_the_winner_covered(
    queen_side, points
):
    g = crafted(pieces=end_position(), down=(8, 4), queen="covered", queen_side=queen_side)
    g1 = play(g, ["w1"])
    assert (g1.last_board.winner, g1.last_board.points, g1.scores) == (0, points, (points, 0))
    assert g1.last_stroke.facts["board_won"]


@pytest.mark.parametrize(("score", "points"), [(21, 8), (22, 5)])
def test_no_queen_bonus_when_the_winner_had_22_or_more(score, points):
    g = crafted(
        pieces=end_position(), down=(8, 4), queen="covered", queen_side=0, scores=(score, 0)
    )
    g1 = play(g, ["w1"])
    assert g1.last_board.points == points and g1.scores == (score + points, 0)


def test_board_points_are_capped_at_12():
    nine = [f"b{k}" for k in range(1, 10)]
    g = crafted(pieces=end_position(black=nine), down=(8, 0), queen="covered", queen_side=0)
    assert play(g, ["w1"]).last_board.points == 12  # 9 + 3
    cfg = IcfConfig(queen_value=5)
    g = dataclasses.replace(g, config=cfg)
    assert play(g, ["w1"]).last_board.points == 12  # 9 + 5, capped
    # option: the loser's dues count like coins left (black covered the queen: no bonus)
    cfg = IcfConfig(score_loser_dues=True)
    g = crafted(
        pieces=end_position(black=nine), down=(8, 0), queen="covered", queen_side=1, dues=(0, 2)
    )
    assert play(g, ["w1"]).last_board.points == 9  # dues written off by default
    assert play(g, ["w1"], config=cfg).last_board.points == 9 + 2


# --------------------------------------------------------------------------- boards and games


def test_breaks_alternate_between_boards_and_the_breaker_plays_white():
    g = crafted(pieces=end_position(), down=(8, 4), queen="covered", queen_side=0)
    g1 = play(g, ["w1"])
    b = g1.board
    assert (b.breaker, b.turn, b.colours, b.is_break, b.strokes) == (
        1,
        1,
        ("black", "white"),
        True,
        0,
    )
    assert (b.down, b.dues, b.queen, b.over) == ((0, 0), (0, 0), "on_board", False)
    assert g1.next_breaker == 0 and b.position.validate() == [] and len(b.position.pieces) == 19
    w1 = b.position.by_id("w1")  # the "Y" points at the breaker (North)
    assert w1.x == pytest.approx(0.0, abs=1e-12) and w1.y == pytest.approx(2 * R)
    # seat 1 breaks, plays white; ends the board -> seat 0 breaks the third
    end = end_position(white=("w1",), black=("b1", "b2"))
    g2 = dataclasses.replace(
        g1,
        board=dataclasses.replace(
            b,
            position=b.position.replace(pieces=tuple(end)),
            is_break=False,
            down=(7, 8),
            queen="covered",
            queen_side=1,
        ),
    )
    g3 = play(g2, ["w1"])
    assert (g3.last_board.winner, g3.last_board.points) == (1, 2 + 3)
    assert (g3.board.breaker, g3.board.colours, g3.scores) == (0, ("white", "black"), (8, 5))


def test_doubles_breaks_rotate_to_the_right():
    cfg = IcfConfig(doubles=True)
    g = crafted(pieces=end_position(), down=(8, 4), queen="covered", queen_side=0, config=cfg)
    g1 = play(g, ["w1"])
    b = g1.board
    assert (b.breaker, b.turn, b.colours, g1.next_breaker) == (1, 1, ("black", "white"), 2)
    w1 = b.position.by_id("w1")  # East
    assert w1.x == pytest.approx(2 * R) and w1.y == pytest.approx(0.0, abs=1e-12)
    assert b.position.variant == "icf-doubles"


def test_game_ends_at_25_points():
    g = crafted(pieces=end_position(), down=(8, 4), queen="covered", queen_side=0, scores=(20, 3))
    g1 = play(g, ["w1"])
    assert (g1.over, g1.winner, g1.scores, g1.boards_played) == (True, 0, (28, 3), 1)
    assert g1.board.over and g1.board is g1.last_board  # no next board
    with pytest.raises(CarromlabError, match="game is over"):
        play(g1)


def test_game_ends_after_8_boards_and_the_tie_rule():
    g = crafted(
        pieces=end_position(),
        down=(8, 4),
        scores=(10, 12),
        boards_played=7,
        queen="covered",
        queen_side=1,
    )
    g1 = play(g, ["w1"])
    assert (g1.over, g1.winner, g1.scores, g1.boards_played) == (True, 0, (15, 12), 8)
    # 22-22 after 8 boards: white pockets its last coin before the queen; black wins 0
    # (no white coin left, no queen bonus at 22)
    tie = crafted(pieces=end_position(queen=True), down=(8, 4), scores=(22, 22), boards_played=7)
    t1 = play(tie, ["w1"])
    assert (t1.last_board.winner, t1.last_board.points, t1.scores) == (1, 0, (22, 22))
    assert (t1.over, t1.boards_played, t1.board.breaker) == (False, 8, 1)  # an extra board
    extra = dataclasses.replace(
        t1,
        board=dataclasses.replace(
            t1.board,
            position=t1.board.position.replace(pieces=tuple(end_position())),
            colours=("white", "black"),
            turn=0,
            is_break=False,
            down=(8, 4),
            queen="covered",
            queen_side=0,
        ),
    )
    t2 = play(extra, ["w1"])
    assert (t2.over, t2.winner, t2.scores, t2.boards_played) == (True, 0, (27, 22), 9)
    draw = play(dataclasses.replace(tie, config=IcfConfig(tie_rule="draw")), ["w1"])
    assert (draw.over, draw.winner, draw.scores) == (True, None, (22, 22))


# --------------------------------------------------------------------------- placement


def test_random_placement_is_seeded_inside_the_outer_circle_and_free():
    cfg = IcfConfig(placement="random")
    g = crafted(remove=("w1", "w2", "w3"), down=(3, 0), config=cfg)
    a = play(g, striker=True, placement=np.random.default_rng(5))
    b = play(g, striker=True, placement=np.random.default_rng(5))
    assert a.board.position == b.board.position and a.board.position.validate() == []
    assert inside_outer(a.board.position.by_id("w1"))
    with pytest.raises(CarromlabError, match="needs a numpy"):
        play(g, striker=True)
    # the queen still goes as near the centre as possible
    q = play(crafted(config=cfg), ["q"], placement=np.random.default_rng(1)).board.position
    assert (q.by_id("q").x, q.by_id("q").y) == (0.0, 0.0)


def test_placement_widens_beyond_the_outer_circle_when_it_is_full():
    x, y = place_returned(OPENING, "coin", "white")  # the rosette fills the outer circle
    assert math.hypot(x, y) + R > R_OUTER
    xy = np.array([[p.x, p.y] for p in OPENING.pieces])
    assert (np.hypot(xy[:, 0] - x, xy[:, 1] - y) >= 2 * R - 1e-9).all()
    moved = OPENING.replace(
        pieces=tuple(
            dataclasses.replace(p, x=x, y=y) if p.id == "w9" else p for p in OPENING.pieces
        )
    )
    assert moved.validate() == []


def test_a_placement_policy_callable_places_returned_coins():
    g = crafted(remove=("w1",), down=(1, 0))
    spot = (0.2, 0.2)
    g1 = play(g, striker=True, placement=lambda pos, kind, owner: spot)
    assert (g1.board.position.by_id("w1").x, g1.board.position.by_id("w1").y) == spot
    with pytest.raises(CarromlabError, match="not a free legal spot"):
        play(g, striker=True, placement=lambda pos, kind, owner: (0.0, 0.0))  # on the queen


def test_bad_input_is_refused():
    g = crafted()
    with pytest.raises(CarromlabError, match="capture_row has 3 entries"):
        apply_stroke(g, np.array([ON, ON, ON]), PIECE, 1)
    with pytest.raises(CarromlabError, match="placement"):
        IcfConfig(placement="anywhere")
    with pytest.raises(CarromlabError, match="awaits a cover by side 1"):
        play(crafted(remove=("q",), queen="pending", queen_side=1))
    with pytest.raises(CarromlabError, match="colours"):
        IcfBoardState(OPENING, colours=("white", "white"))


# --------------------------------------------------------------------------- property


def _random_stroke(state: IcfState, rng: np.random.Generator, own_p: float):
    """A random outcome biased to pocket the shooter's own coins (``own_p`` each), so boards
    finish; a break misses every coin now and then."""
    b = state.board
    pos = b.position
    n = 1 + len(pos.pieces)
    cap = np.full(n, ON, dtype=np.int32)
    if b.is_break and rng.random() < 0.4:
        return cap, WALL, 0
    own = b.colours[b.side]
    for i, p in enumerate(pos.pieces, start=1):
        if p.kind == "coin" and p.owner == own:
            prob = own_p
        elif p.kind == "queen":
            prob = 0.15
        else:
            prob = 0.04
        u = rng.random()
        if u < prob:
            cap[i] = rng.integers(0, 4)
        elif u < prob + 0.005:
            cap[i] = DITCH
    if rng.random() < 0.1:
        cap[0] = rng.integers(0, 4)
    kind = int(rng.choice([NONE, PIECE, WALL], p=[0.05, 0.85, 0.10]))
    first = int(rng.integers(1, n)) if kind == PIECE and n > 1 else 0
    return cap, kind, first


def _check_invariants(state: IcfState, cfg: IcfConfig):
    b = state.board
    assert 0 <= b.turn < cfg.n_seats and b.position.variant == cfg.variant
    for side in (0, 1):
        assert b.on_board(side) + b.down[side] == 9  # every coin on the board or down
        assert b.dues[side] >= 0 and (b.dues[side] == 0 or b.down[side] == 0)
    queens = b.position.count("queen")  # the queen exactly once: on the board or down
    assert queens == (1 if b.queen == "on_board" else 0)
    assert b.queen == "on_board" or b.queen_side in (0, 1)
    assert b.position.validate() == []  # placed legally, nothing overlaps
    for p in b.position.pieces:
        assert math.hypot(p.x, p.y) + R <= R_OUTER + 1e-12  # nothing ever needed widening


@pytest.mark.parametrize(
    ("seed", "doubles", "placement", "own_p"),
    [
        (0, False, "centre-first", 0.25),
        (1, False, "random", 0.12),
        (2, True, "centre-first", 0.12),
        (3, True, "random", 0.25),
        (4, False, "centre-first", 0.08),
    ],
)
def test_random_strokes_conserve_coins_and_finish(seed, doubles, placement, own_p):
    cfg = IcfConfig(doubles=doubles, placement=placement)
    rng = np.random.default_rng(seed)
    seen = dict.fromkeys(["striker_pocketed", "queen_returned", "queen_covered", "break_retry"], 0)
    placed = 0
    for _game in range(3):
        state = new_game(cfg)
        _check_invariants(state, cfg)
        boards = strokes_this_board = 0
        for _ in range(5000):
            cap, kind, first = _random_stroke(state, rng, own_p)
            before = state
            state = apply_stroke(state, cap, kind, first, placement=rng)
            strokes_this_board += 1
            rec = state.last_stroke
            assert rec.seat == before.board.turn and rec.side == before.board.turn % 2
            placed += len(rec.placed)
            for key in seen:
                seen[key] += bool(rec.facts[key])
            if rec.board_ended:
                last = state.last_board
                assert 0 <= last.points <= cfg.board_cap and last.winner in (0, 1)
                assert state.scores[last.winner] == before.scores[last.winner] + last.points
                assert state.scores[1 - last.winner] == before.scores[1 - last.winner]
                assert strokes_this_board <= 400  # every board ends, in bounded strokes
                strokes_this_board = 0
                boards += 1
                assert state.boards_played == boards
                if not state.over:
                    assert state.board.breaker == boards % cfg.n_seats
            if state.over:
                break
            _check_invariants(state, cfg)
        assert state.over and 1 <= boards
        assert max(state.scores) >= cfg.game_points or boards >= cfg.max_boards
        if state.winner is None:
            assert state.scores[0] == state.scores[1]
        else:
            assert state.scores[state.winner] > state.scores[1 - state.winner]
    assert placed > 0 and min(seen.values()) > 0, seen  # the clauses were exercised
