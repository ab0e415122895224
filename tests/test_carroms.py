"""Golden tests of Carroms (the Carrom Company's rule book, checker side): the stroke rules
(``carromlab.games.carroms.rules``), the game-state machine
(``carromlab.games.carroms.machine``) and the shooting line of the analysis layer. Each test
cites one clause of seed 002 (the Carrom Company's rule book, an excerpt, "Carroms" on the
checker side) or one decision documented in the modules' docstrings: a small hand-built state +
a hand-made stroke outcome (capture codes, resting places) -> the exact result. The last test
plays whole games on the real kernel."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from carromlab.analysis.variants import analysis_for
from carromlab.equipment.company import CheckerBoard
from carromlab.errors import CarromlabError
from carromlab.games.carroms.machine import CarromsConfig, CarromsState, apply_stroke, new_game
from carromlab.games.carroms.rules import (
    CarromsRules,
    CarromsScoring,
    CarromsTurn,
    evaluate_carroms,
    pieces_of,
)
from carromlab.games.carroms.setups import carroms_opening
from carromlab.position import Piece, Position

BOARD = CheckerBoard()
R = BOARD.ring_diameter / 2
CENTRE_ZONE = BOARD.centre_circle_diameter / 2 - R  # a returned piece's centre lies within
ON = -1  # capture code: still on the board
POCKET = 2  # capture code: a corner pocket (0..3)
OFF = 4  # capture code past the 4 pockets: off the board
SHOOTER_REST = (0.0, -0.2)  # where the shooting ring stops when it stays on the board
RED, GREEN = CarromsTurn("red"), CarromsTurn("green")

#: A sparse hand-built table: 3 red, 3 green and the black in a row, the centre circle empty.
ROW = {
    "r1": (-0.12, 0.15),
    "r2": (-0.08, 0.15),
    "r3": (-0.04, 0.15),
    "black": (0.0, 0.15),
    "g1": (0.04, 0.15),
    "g2": (0.08, 0.15),
    "g3": (0.12, 0.15),
}


def piece(pid: str, x: float, y: float) -> Piece:
    if pid == "black":
        return Piece(pid, "black", None, x, y)
    return Piece(pid, "ring", "red" if pid.startswith("r") else "green", x, y)


def table(*ids: str) -> Position:
    """The row's pieces ``ids`` (all of them by default)."""
    return Position("carroms", tuple(piece(i, *ROW[i]) for i in ids or ROW), BOARD)


def state(*ids: str, **kw) -> CarromsState:
    return CarromsState(position=table(*ids), **kw)


def outcome(position: Position, shooter: int = ON, **codes: int):
    """A stroke outcome: the capture codes (shooting ring first, then ``pieces_of`` order;
    ``codes``: id -> code, the others stay on the board) and the resting places (unmoved)."""
    ps = pieces_of(position)
    capture = np.array([shooter, *(codes.get(p.id, ON) for p in ps)])
    xy = np.array([SHOOTER_REST, *((p.x, p.y) for p in ps)], float)
    return capture, xy


def evaluate(position: Position, turn=RED, shooter: int = ON, **codes: int) -> dict:
    capture, _ = outcome(position, shooter, **codes)
    return {k: v[0].item() for k, v in evaluate_carroms(capture, position, turn).items()}


def stroke(st: CarromsState, shooter: int = ON, config=None, **codes: int) -> CarromsState:
    capture, xy = outcome(st.position, shooter, **codes)
    return apply_stroke(st, capture, xy, config or CarromsConfig())


def ids(position: Position) -> set[str]:
    return {p.id for p in position.pieces}


def assert_near_centre(position: Position, pid: str) -> None:
    p = position.by_id(pid)
    assert math.hypot(p.x, p.y) <= CENTRE_ZONE + 1e-9, (pid, p.x, p.y)


# ---------------------------------------------------------------------- the equipment


def test_opening_has_12_red_12_green_rings_and_the_black():
    """Seed 002: "12 red and 12 green rings, 1 black" on the checker side; the
    opening (decision of ``carromlab.games.carroms.setups``) is legal and leaves both shooting lines
    clear."""
    pos = carroms_opening()
    assert pos.validate() == []
    assert (pos.count("ring", "red"), pos.count("ring", "green"), pos.count("black")) == (12, 12, 1)
    assert pieces_of(pos) == pos.pieces
    va = analysis_for("carroms")
    xs = np.linspace(*va.placement_intervals(pos.board)[0], 101)
    assert va.free_placement(pos, xs).all()


# ---------------------------------------------------------------------- one stroke


def test_own_ring_pocketed_scores_one_and_the_turn_continues():
    """The rule text: "own ring pocketed -> continue; each ring 1 point"."""
    res = evaluate(table(), RED, r2=POCKET)
    assert res["continues"] and not res["foul"] and not res["forfeit"]
    assert (res["own_pocketed"], res["opponent_pocketed"], res["black_pocketed"]) == (1, 0, 0)
    assert res["points"] == 1.0

    st = stroke(state(scores=(4, 7)), r2=POCKET)
    assert st.scores == (5, 7)
    assert st.down == (("r2",), ())
    assert st.player == 0 and st.turns == (1, 0)  # the same turn goes on
    assert ids(st.position) == set(ROW) - {"r2"}
    last = st.history[-1]
    assert (last.own, last.opponent, last.black, last.foul, last.continues) == (
        1,
        0,
        0,
        False,
        True,
    )


def test_black_pocketed_scores_five_and_the_turn_continues():
    """The rule text: "black 5"; decision 1 of ``carroms.py``: the black is nobody's, whoever
    pockets it scores 5 and continues (here green); decision 4 of ``games/carroms/machine.py``: it stays
    down."""
    res = evaluate(table(), GREEN, black=POCKET)
    assert res["continues"] and res["black_pocketed"] == 1 and res["points"] == 5.0

    st = stroke(state(player=1, turns=(1, 1)), black=0)
    assert st.scores == (0, 5)
    assert st.down == ((), ())  # the black is no one's ring
    assert st.player == 1 and st.turns == (1, 1)
    assert "black" not in ids(st.position)


def test_opponents_ring_alone_ends_the_turn_and_counts_for_the_opponent():
    """The rule text: "opponent's ring alone -> turn ends and it counts for the opponent";
    decision 3 of ``games/carroms/machine.py``: it stays down among the opponent's pocketed
    rings."""
    res = evaluate(table(), RED, g1=POCKET)
    assert not res["continues"] and not res["foul"]
    assert (res["own_pocketed"], res["opponent_pocketed"]) == (0, 1)
    assert res["points"] == -1.0  # the stroke's value for the shooter (scoring decision 3)

    st = stroke(state(scores=(2, 2)), g1=POCKET)
    assert st.scores == (2, 3)
    assert st.down == ((), ("g1",))
    assert st.player == 1 and st.turns == (1, 1)
    assert not st.history[-1].continues


def test_own_and_opponents_ring_continue_and_both_count_for_their_owners():
    """The rule text: only the opponent's ring *alone* ends the turn: with an own ring too the turn
    continues, each ring counting 1 for its owner."""
    res = evaluate(table(), RED, r1=0, g3=3)
    assert res["continues"]
    assert (res["own_pocketed"], res["opponent_pocketed"]) == (1, 1)
    assert res["points"] == 0.0  # +1 own, -1 the opponent's

    st = stroke(state(), r1=0, g3=3)
    assert st.scores == (1, 1)
    assert st.down == (("r1",), ("g3",))
    assert st.player == 0


def test_black_and_opponents_ring_continue():
    """The rule text + decision 1 of ``carroms.py``: the black pocketed continues the turn, so an
    opponent's ring pocketed with it is not "alone"."""
    res = evaluate(table(), RED, black=1, g2=1)
    assert res["continues"] and res["points"] == 4.0
    st = stroke(state(), black=1, g2=1)
    assert st.scores == (5, 1) and st.player == 0 and st.down == ((), ("g2",))


def test_nothing_pocketed_ends_the_turn():
    """The rule text: the turn continues only on a pocketed ring (own) or the black; a stroke that
    pockets nothing passes the turn, and the pieces stay where they stopped."""
    res = evaluate(table(), RED)
    assert not res["continues"] and res["points"] == 0.0
    capture, xy = outcome(table())
    xy[1] = (-0.2, 0.0)  # r1 moved
    st = apply_stroke(state(), capture, xy)
    assert st.player == 1 and st.turns == (1, 1) and st.scores == (0, 0)
    assert (st.position.by_id("r1").x, st.position.by_id("r1").y) == (-0.2, 0.0)
    assert st.position.validate() == []


def test_shooting_ring_pocketed_returns_the_stroke_and_forfeits_one_ring():
    """The rule text: "shooting ring pocketed -> turn ends, rings pocketed on that shot go back
    to the centre and one previously pocketed ring is forfeited"; decision 2 of ``carroms.py``:
    nothing of that stroke counts (the opponent's ring and the black come back too); decision 2
    of ``games/carroms/machine.py``: they go near the centre; the forfeited ring is the last one
    down."""
    st0 = state("r1", "r2", "black", "g1", "g2", down=(("r4", "r5"), ("g4",)), scores=(2, 1))
    res = evaluate(st0.position, st0.turn_state(), shooter=POCKET, r1=0, g2=1, black=3)
    assert res["foul"] and res["foul.shooter_pocketed"] and not res["foul.shooter_off"]
    assert res["forfeit"] and not res["continues"]
    assert (res["own_pocketed"], res["opponent_pocketed"], res["black_pocketed"]) == (0, 0, 0)
    assert res["points"] == -1.0

    st = stroke(st0, shooter=POCKET, r1=0, g2=1, black=3)
    assert st.scores == (1, 1)
    assert st.down == (("r4",), ("g4",))
    assert st.player == 1
    last = st.history[-1]
    assert last.foul and last.forfeited == "r5"
    assert set(last.returned) == {"r1", "g2", "black", "r5"}
    assert ids(st.position) == {"r1", "r2", "black", "g1", "g2", "r5"}
    for pid in last.returned:
        assert_near_centre(st.position, pid)
    assert st.position.by_id("r5").owner == "red"
    assert st.position.validate() == []


def test_shooting_ring_pocketed_with_nothing_down_before_forfeits_nothing():
    """The rule text: "one previously pocketed ring is forfeited": with none pocketed before (the
    opponent's rings down do not count: they are not the shooter's), nothing is forfeited and
    the score stays; the stroke's rings still come back."""
    st0 = state(down=((), ("g4",)), scores=(0, 1))
    res = evaluate(st0.position, st0.turn_state(), shooter=0, r3=0)
    assert res["foul"] and not res["forfeit"] and res["points"] == 0.0

    st = stroke(st0, shooter=0, r3=0)
    assert st.scores == (0, 1) and st.down == ((), ("g4",))
    assert st.history[-1].forfeited is None and st.history[-1].returned == ("r3",)
    assert ids(st.position) == set(ROW)
    assert_near_centre(st.position, "r3")
    assert st.player == 1


def test_shooting_ring_off_the_board_is_the_same_foul():
    """The rule text: "a shooting ring that leaves the board -> turn ends and a ring is forfeited"
    (``foul.shooter_off``, capture code 4); the stroke's rings come back as for a pocketed
    shooting ring."""
    st0 = state("r1", "r2", "black", "g1", "g2", "g3", down=(("r3",), ()), scores=(1, 0))
    res = evaluate(st0.position, st0.turn_state(), shooter=OFF, r1=2)
    assert res["foul"] and res["foul.shooter_off"] and not res["foul.shooter_pocketed"]
    assert res["forfeit"] and not res["continues"]

    st = stroke(st0, shooter=OFF, r1=2)
    assert st.scores == (0, 0) and st.down == ((), ())
    assert st.history[-1].forfeited == "r3"
    assert ids(st.position) == set(ROW)
    assert st.player == 1 and st.position.validate() == []


def test_forfeit_may_take_an_own_ring_the_opponent_pocketed():
    """Decision 3 of ``games/carroms/machine.py``: a ring pocketed by the opponent counts for its owner
    and is one of the owner's pocketed rings, so the owner may forfeit it later."""
    st0 = state("r1", "black", "g1", player=1, down=((), ("g2",)), scores=(0, 1), board_strokes=5)
    assert st0.turn_state() == CarromsTurn("green", 1)  # not the break: strokes were played
    assert dataclasses.replace(st0, board_strokes=0).turn_state().is_break
    st = stroke(st0, shooter=1)
    assert st.history[-1].forfeited == "g2" and st.scores == (0, 0) and st.player == 0
    assert_near_centre(st.position, "g2")


def test_a_piece_knocked_off_the_board_comes_back_and_scores_nothing():
    """Decision 5 of ``games/carroms/machine.py`` (the book is silent): a ring or the black that leaves
    the board is not pocketed (``evaluate_carroms`` does not count it), scores nothing and
    comes back near the centre."""
    res = evaluate(table(), RED, black=OFF, r1=OFF)
    assert not res["continues"] and res["points"] == 0.0
    st = stroke(state(), black=OFF, r1=OFF, g1=OFF)
    assert st.scores == (0, 0) and st.down == ((), ())
    assert st.history[-1].returned == ("r1", "black", "g1")
    assert ids(st.position) == set(ROW)
    for pid in ("r1", "black", "g1"):
        assert_near_centre(st.position, pid)
    assert st.player == 1 and st.position.validate() == []

    st = stroke(state(), r2=POCKET, black=OFF)  # an own ring still continues
    assert st.scores == (1, 0) and st.player == 0 and "black" in ids(st.position)


def test_evaluate_is_vectorised_and_checks_the_disc_count():
    """The stroke rules over a batch of outcomes (one row a shot), through ``CarromsRules`` as
    the analysis layer calls them; a custom ``CarromsScoring``; an outcome of the wrong width
    and a colour that is not red or green are refused."""
    pos = table()
    rows = np.array(
        [
            outcome(pos)[0],
            outcome(pos, r1=0)[0],
            outcome(pos, g1=0)[0],
            outcome(pos, black=0, r2=1)[0],
            outcome(pos, shooter=0, r1=0)[0],
        ]
    )
    res = CarromsRules().evaluate(pos, {"capture": rows}, RED)
    assert res["continues"].tolist() == [False, True, False, True, False]
    assert res["points"].tolist() == [0.0, 1.0, -1.0, 6.0, 0.0]
    assert res["foul"].tolist() == [False, False, False, False, True]
    scoring = CarromsScoring(own_ring=2.0, black=10.0, opponent_ring=0.0)
    assert evaluate_carroms(rows, pos, RED, scoring)["points"].tolist() == [0, 2, 0, 12, 0]
    with pytest.raises(CarromlabError, match="discs"):
        evaluate_carroms(rows[:, :-1], pos, RED)
    with pytest.raises(CarromlabError, match="red or green"):
        CarromsTurn("white")


# ---------------------------------------------------------------------- boards and the game


@pytest.mark.parametrize(
    "codes, scores",
    [({"r1": POCKET}, (6, 2)), ({"g1": POCKET}, (5, 3))],
    ids=["own-last-ring", "opponents-last-ring"],
)
def test_a_board_ends_when_one_colour_is_down_and_the_other_player_breaks(codes, scores):
    """Decision 1 of ``games/carroms/machine.py``: a board ends when all of one colour's rings are down;
    the opening is racked again and the other player breaks the next board; the scores
    carry over."""
    st0 = state("r1", "black", "g1", down=(("r2", "r3"), ("g3",)), scores=(5, 2))
    st = stroke(st0, **codes)
    assert st.scores == scores
    assert st.boards == 1 and not st.over
    assert st.breaker == 1 and st.player == 1 and st.turns == (1, 1)
    assert st.down == ((), ()) and st.board_strokes == 0
    assert st.position.pieces == carroms_opening().pieces

    st = CarromsState(carroms_opening(), player=1, breaker=1, boards=1)
    st = stroke(st, **{p.id: POCKET for p in st.position.pieces if p.owner == "green"})
    assert st.boards == 2 and st.breaker == 0 and st.player == 0  # and back to player 0


@pytest.mark.parametrize(
    "player, scores, codes, winner",
    [
        (0, (29, 3), {"r1": 0}, 0),
        (1, (3, 29), {"g1": 0}, 1),
        (0, (25, 10), {"black": 0}, 0),
        (0, (12, 29), {"g1": 0}, 1),  # the shooter's stroke takes the opponent to 30
        (0, (29, 29), {"r1": 0, "g1": 1}, 0),  # decision 6: a tie at the target: the shooter
        (1, (29, 29), {"r1": 0, "g1": 1}, 1),
    ],
)
def test_the_game_ends_when_a_player_reaches_30(player, scores, codes, winner):
    """The rule text: "30 points wins" (``CarromsConfig.target``, 30 by default); decision 6 of
    ``games/carroms/machine.py`` for both reaching it in one stroke with equal scores."""
    assert CarromsConfig().target == 30
    st = stroke(state(player=player, scores=scores), **codes)
    assert st.over and st.winner == winner and not st.unfinished
    assert max(st.scores) >= 30
    with pytest.raises(CarromlabError, match="over"):
        stroke(st)
    assert not stroke(state(scores=(28, 0)), r1=0).over  # 29 is not enough


@pytest.mark.parametrize("scores, winner", [((3, 4), None), ((4, 4), 0), ((3, 5), 1)])
def test_max_boards_ends_the_game_on_the_higher_score(scores, winner):
    """Decision 1 of ``games/carroms/machine.py``: after ``max_boards`` boards the higher score wins and
    equal scores are a draw (``winner`` None)."""
    config = CarromsConfig(max_boards=3)
    st0 = state("r1", "black", "g1", scores=scores, boards=2)
    st = stroke(st0, config=config, r1=POCKET)  # red's last ring: the third board ends
    assert st.boards == 3 and st.over and st.winner == winner and not st.unfinished
    assert st.scores == (scores[0] + 1, scores[1])


def score_invariant(st: CarromsState) -> None:
    """Each player's score = the rings pocketed for them (their own rings pocketed by either
    player) + 5 per black they pocketed - their forfeits, from the stroke records."""
    expect = [0, 0]
    for rec in st.history:
        expect[rec.player] += rec.own + 5 * rec.black - (rec.forfeited is not None)
        expect[1 - rec.player] += rec.opponent
    assert tuple(expect) == st.scores


def board_invariant(st: CarromsState, n_rings: int) -> None:
    """Within a board: every ring is on the board or in a pocketed list of its owner; the black
    is on the board or was pocketed (legally) once this board; score = pocketed list + 5 per
    black (as both are counted since the board began, for a fresh game's first board)."""
    pos = st.position
    assert pos.count("ring") + len(st.down[0]) + len(st.down[1]) == n_rings
    for k, colour in enumerate(("r", "g")):
        assert all(pid.startswith(colour) for pid in st.down[k])
        assert not ids(pos) & set(st.down[k])
    recent = st.history[len(st.history) - st.board_strokes :] if st.board_strokes else ()
    assert pos.count("black") + sum(r.black for r in recent) == 1
    assert pos.validate() == []


def test_scores_equal_rings_pocketed_plus_five_per_black_minus_forfeits():
    """The rule text's scoring ("each ring 1 point, black 5", a forfeited ring lost) over a
    hand-built board: after every stroke each score is the player's pocketed rings + 5 per black
    - the forfeits; the stroke's value (``points``) is the shooter's gain minus the
    opponent's."""
    st = state()
    strokes = [  # (shooter code, codes, expected scores, player after)
        (ON, {"r1": 0}, (1, 0), 0),
        (ON, {"r2": 1, "g1": 2}, (2, 1), 0),
        (ON, {"g2": 3}, (2, 2), 1),  # alone: green's turn
        (ON, {"black": 0}, (2, 7), 1),
        (0, {"g3": 1}, (2, 6), 0),  # foul: g3 back, g2 (green's last) forfeited
        (OFF, {"r3": 2}, (1, 6), 1),  # foul: r3 back, r2 forfeited
        (ON, {}, (1, 6), 0),
        (ON, {"r2": 0}, (2, 6), 0),
        (ON, {"g3": 0}, (2, 7), 1),
    ]
    for shooter, codes, scores, player in strokes:
        before = st
        res = evaluate(st.position, st.turn_state(), shooter, **codes)
        st = stroke(st, shooter, **codes)
        me = before.player
        gain = st.scores[me] - before.scores[me]
        given = st.scores[1 - me] - before.scores[1 - me]
        assert res["points"] == gain - given
        assert (st.scores, st.player) == (scores, player), codes
        score_invariant(st)
        board_invariant(st, 6)
        black = 5 * (st.position.count("black") == 0)  # green pocketed it
        assert st.scores == (len(st.down[0]), len(st.down[1]) + black)
    assert st.down == (("r1", "r2"), ("g1", "g3"))
    assert not st.over and st.boards == 0


def test_scores_and_rings_over_random_strokes():
    """The same invariants over random hand-made strokes from the opening (pocketed pieces,
    pieces off the board, fouls), across board ends (each reracks 24 rings and the black)."""
    rng = np.random.default_rng(2)
    config = CarromsConfig(target=10_000, max_boards=1_000)
    for _ in range(3):
        st = new_game(config)
        for _ in range(120):
            ps = pieces_of(st.position)
            shooter = rng.choice([ON, ON, ON, ON, 0, OFF])
            codes = rng.choice([ON] * 14 + [0, 1, 2, 3, OFF], size=len(ps))
            st = stroke(st, shooter, config, **{p.id: int(c) for p, c in zip(ps, codes)})
            score_invariant(st)
            board_invariant(st, 24)
        assert st.boards >= 1


# ---------------------------------------------------------------------- the shooting line


def test_shooting_line_and_legal_placements():
    """The rule text: "every shot from the shooter's shooting line": the shooting ring's centre on
    the South line (y = -half + offset, the painted line), anywhere between its end circles and
    on no piece (touching allowed)."""
    va = analysis_for("carroms")
    y0 = va.shot_y(BOARD)
    line = BOARD.zones["shooting_line.S"]
    assert y0 == pytest.approx(-BOARD.half + BOARD.shooting_line_offset) == pytest.approx(-0.23)
    assert y0 == pytest.approx(line.y0) == pytest.approx(line.y1)
    xl = BOARD.shooting_line_length / 2
    assert va.placement_intervals(BOARD) == [(-xl, xl)]
    assert (line.x0, line.x1) == pytest.approx((-xl, xl))
    left = BOARD.zones["shooting_circle.S.left"]
    assert left.cx + left.radius == pytest.approx(-xl)  # the end circle closes the line
    assert va.legal_placement(BOARD, [-xl, 0.0, xl, xl + 1e-3, -xl - 1e-3]).tolist() == [
        True,
        True,
        True,
        False,
        False,
    ]

    d = BOARD.ring_diameter
    eps = 1e-9  # touching, up to rounding
    pos = Position("carroms", (piece("r1", 0.05, y0), piece("black", -0.1, y0 + d + eps)), BOARD)
    xs = [0.05, 0.05 + d + eps, 0.05 + d - 1e-3, 0.05 - d - eps, -0.1, -0.1 + 1e-3, 0.15]
    assert va.free_placement(pos, xs).tolist() == [False, True, False, True, True, True, True]
    assert va.legal_origin(pos, [0.15, 0.15], [y0, y0 + 0.01]).tolist() == [True, False]

    from carromlab.analysis.policies import random_legal_shots

    rows = random_legal_shots(pos, 50, np.random.default_rng(0))
    assert va.free_placement(pos, rows[:, 0]).all()


# ---------------------------------------------------------------------- whole games


def test_whole_games_on_the_real_kernel():
    """Two whole games of random legal strokes on the real kernel (target 10): they finish with
    a winner at the target, every position after a stroke is legal, rings are conserved (on the
    board or in a pocketed list, 24 a board), the black once, and the scores follow the
    stroke records."""
    from carromlab.analysis.policies import RandomLegal
    from carromlab.play import play_games

    seen = []

    def on_stroke(st):
        board_invariant(st, 24)
        score_invariant(st)
        seen.append(st.strokes)

    config = CarromsConfig(target=10)
    records = play_games(
        [RandomLegal(), RandomLegal()], config, "club", seed=1, games=2, on_stroke=on_stroke
    )
    assert len(records) == 2 and len(seen) == sum(r.row["strokes"] for r in records)
    for rec in records:
        st = rec.state
        assert st.over and not st.unfinished and rec.row["finished"]
        assert st.winner in (0, 1)
        assert st.scores[st.winner] >= config.target > st.scores[1 - st.winner]
        assert (rec.row["score_0"], rec.row["score_1"]) == st.scores
        assert len(rec.strokes) == st.strokes == len(st.history)


def test_the_search_player_plays_what_the_map_search_finds():
    """Carroms' search-based player (MapGreedy over Carroms' targets) at its 16,384 kernel
    shots a decision, on the full rack with red to play: a legal stroke, the same again from
    the same seed, worth at least the greedy player's (paired estimates, same keys). (At 4,096
    shots the screen of Carroms' 2,000-cell map sees under one shot a cell and once chose a
    stroke worth 0.25 against greedy's 1.65; at 16,384 it chose one worth 2.11.)"""
    from carromlab.analysis import estimate
    from carromlab.games.carroms.players import CarromsGreedy, CarromsSearch
    from carromlab.registry import get_game

    player = get_game("carroms").make_player("search")
    assert isinstance(player, CarromsSearch) and player.break_shot == "search"
    assert player.capacity == CarromsGreedy().capacity and player.budget.shots == 16384
    pos = table()
    shot = player.choose(pos, RED, seed=0)
    analysis_for("carroms").check_shot(pos, shot)
    again = player.choose(pos, RED, seed=0)
    assert (again.x, again.angle, again.speed) == (shot.x, shot.angle, shot.speed)
    greedy = CarromsGreedy(skill="club").choose(pos, RED, seed=0)
    mine = estimate(pos, shot, skill="club", n=2000, seed=9).set_index("quantity")
    theirs = estimate(pos, greedy, skill="club", n=2000, seed=9).set_index("quantity")
    assert mine.loc["points", "estimate"] >= theirs.loc["points", "estimate"] - 0.05
