"""Golden tests of the ICF stroke evaluation: hand-made capture arrays, one row per case."""

from __future__ import annotations

import numpy as np
import pytest

from carromlab.errors import CarromlabError
from carromlab.games.icf.rules import IcfRules, IcfScoring, IcfTurn, evaluate_icf, piece_roles
from carromlab.registry import standard_position

SW, SE, NE, NW = 0, 1, 2, 3
ON = -1
PIECE, WALL, NONE = 1, 2, 0


@pytest.fixture(scope="module")
def opening():
    return standard_position("icf-opening")


@pytest.fixture(scope="module")
def roles(opening):
    return piece_roles(opening)


@pytest.fixture(scope="module")
def idx(opening):
    """Disc index of each piece id (the striker is disc 0)."""
    return {"striker": 0, **{p.id: i + 1 for i, p in enumerate(opening.pieces)}}


def shots(n, *rows, kind=PIECE, first=None):
    """Capture rows for a position of ``n`` discs: each row maps disc index -> pocket."""
    cap = np.full((len(rows), n), ON, dtype=np.int32)
    for r, row in enumerate(rows):
        for i, pocket in row.items():
            cap[r, i] = pocket
    fk = np.full(len(rows), kind, dtype=np.int32)
    fc = np.full(len(rows), 2 if first is None else first, dtype=np.int32)  # w1 by default
    return cap, fk, fc


def run(roles, rows, turn=None, scoring=None, **kw):
    n = len(roles["striker"])
    first = kw.pop("first", None)
    kind = kw.pop("kind", PIECE)
    cap, fk, fc = shots(n, *rows, kind=kind, first=first)
    return evaluate_icf(cap, fk, fc, roles, turn or IcfTurn(own_down=2), scoring, **kw)


def test_roles_of_the_opening(roles, idx):
    assert len(roles["striker"]) == 20
    assert roles["striker"].tolist() == [True] + [False] * 19
    assert roles["white"].sum() == 9 and roles["black"].sum() == 9
    assert roles["queen"].sum() == 1 and roles["queen"][idx["q"]]
    assert roles["white"][idx["w1"]] and roles["black"][idx["b1"]]
    assert not (roles["white"] & roles["black"]).any()
    assert (roles["coin"] == roles["white"] | roles["black"]).all()


def test_own_coin_continues_one_point(roles, idx):
    r = run(roles, [{idx["w1"]: SW}])
    assert r["own_pocketed"][0] == 1 and r["own_kept"][0] == 1
    assert r["continues"][0]
    assert r["points"][0] == 1.0
    assert not r["foul"][0]
    assert r["own_down_after"][0] == 3


def test_opponent_coin_only_ends_minus_one(roles, idx):
    r = run(roles, [{idx["b1"]: NE}], turn=IcfTurn(own_down=2, opponent_down=1))
    assert r["opponent_pocketed"][0] == 1 and r["own_pocketed"][0] == 0
    assert not r["continues"][0]
    assert r["points"][0] == -1.0
    assert not r["foul"][0]
    assert r["opponent_down_after"][0] == 2


def test_own_and_opponent_coin_continues(roles, idx):
    r = run(roles, [{idx["w1"]: SW, idx["b1"]: NE, idx["b2"]: NW}])
    assert r["own_pocketed"][0] == 1 and r["opponent_pocketed"][0] == 2
    assert r["continues"][0]
    assert r["points"][0] == -1.0


def test_striker_alone_due_ends(roles, idx):
    r = run(roles, [{0: SE}, {0: SE}], turn=None)
    # row 0 with own_down 2: the penalty coin comes out at once
    assert r["striker_pocketed"][0] and r["foul.striker_pocketed"][0] and r["foul"][0]
    assert r["dues"][0] == 1
    assert not r["continues"][0]
    assert r["points"][0] == -1.0
    assert r["own_down_after"][0] == 1 and r["dues_after"][0] == 0
    # with nothing down the due is owed
    r0 = run(roles, [{0: SE}], turn=IcfTurn(own_down=0))
    assert r0["dues"][0] == 1 and r0["dues_after"][0] == 1 and r0["own_down_after"][0] == 0


def test_striker_with_own_coins_returns_them_and_continues(roles, idx):
    r = run(roles, [{0: SW, idx["w1"]: SW, idx["w2"]: NW}])
    assert r["own_pocketed"][0] == 2 and r["own_kept"][0] == 0 and r["own_returned"][0] == 2
    assert r["dues"][0] == 1
    assert r["continues"][0]
    assert r["foul.striker_pocketed"][0]
    assert r["points"][0] == -1.0
    assert r["own_down_after"][0] == 1  # 2 down, the penalty coin comes out


def test_striker_with_opponent_coin_stays_due_ends(roles, idx):
    r = run(roles, [{0: SW, idx["b1"]: SE}], turn=IcfTurn(own_down=2, opponent_down=3))
    assert r["opponent_pocketed"][0] == 1 and r["opponent_down_after"][0] == 4
    assert r["dues"][0] == 1
    assert not r["continues"][0]
    assert r["points"][0] == -2.0


def test_queen_with_own_coin_is_covered_97a(roles, idx):
    r = run(roles, [{idx["q"]: NE, idx["w1"]: SW}])
    assert r["queen_pocketed"][0] and r["queen_covered"][0]
    assert not r["queen_returned"][0] and not r["queen_awaits_cover"][0]
    assert not r["queen_illegal"][0]
    assert r["continues"][0]
    assert r["points"][0] == 4.0


def test_queen_and_one_coin_with_all_nine_on_board_needs_cover_97b(roles, idx):
    rows = [{idx["q"]: NE, idx["w1"]: SW}, {idx["q"]: NE, idx["w1"]: SW, idx["w2"]: SE}]
    r = run(roles, rows, turn=IcfTurn(own_down=0))
    assert r["queen_pocketed"].tolist() == [True, True]
    assert r["queen_illegal"].tolist() == [False, False]
    assert r["queen_covered"].tolist() == [False, True]
    assert r["queen_awaits_cover"].tolist() == [True, False]
    assert r["queen_returned"].tolist() == [False, False]
    assert r["continues"].tolist() == [True, True]
    assert r["points"].tolist() == [1.0, 5.0]


def test_queen_first_with_nothing_down_is_illegal(roles, idx):
    r = run(roles, [{idx["q"]: NW}], turn=IcfTurn(own_down=0))
    assert r["queen_illegal"][0] and r["queen_returned"][0]
    assert not r["queen_covered"][0] and not r["queen_awaits_cover"][0]
    assert not r["continues"][0]
    assert not r["foul"][0]  # returned, no penalty
    assert r["points"][0] == 0.0


def test_queen_with_due_outstanding_is_returned(roles, idx):
    r = run(roles, [{idx["q"]: NW, idx["w1"]: SW}], turn=IcfTurn(own_down=0, dues=1))
    assert r["queen_illegal"][0] and r["queen_returned"][0] and not r["queen_covered"][0]
    assert not r["continues"][0]
    # the own coin stays down and pays the due at once
    assert r["own_kept"][0] == 1 and r["dues_after"][0] == 0 and r["own_down_after"][0] == 0
    assert r["points"][0] == 1.0


def test_queen_alone_after_own_coin_awaits_cover_and_continues(roles, idx):
    r = run(roles, [{idx["q"]: SW}], turn=IcfTurn(own_down=3))
    assert r["queen_pocketed"][0] and r["queen_awaits_cover"][0]
    assert not r["queen_covered"][0] and not r["queen_returned"][0] and not r["queen_illegal"][0]
    assert r["continues"][0]
    assert r["points"][0] == 0.0


def test_pending_queen_covered_by_own_coin(roles, idx):
    turn = IcfTurn(own_down=3, queen_pending=True)
    r = run(roles, [{idx["w4"]: SE}, {}, {idx["b1"]: SE}], turn=turn)
    assert r["queen_covered"].tolist() == [True, False, False]
    assert r["queen_returned"].tolist() == [False, True, True]
    assert r["queen_pocketed"].tolist() == [False, False, False]
    assert r["continues"].tolist() == [True, False, False]
    assert r["points"].tolist() == [4.0, 0.0, -1.0]


def test_pending_queen_not_covered_when_striker_drops_with_the_coin(roles, idx):
    turn = IcfTurn(own_down=3, queen_pending=True)
    r = run(roles, [{0: SW, idx["w4"]: SE}], turn=turn)
    assert not r["queen_covered"][0] and r["queen_returned"][0]
    assert r["continues"][0]  # striker with own coin
    assert r["dues"][0] == 1 and r["points"][0] == -1.0


def test_striker_with_queen_returns_it(roles, idx):
    r = run(roles, [{0: SW, idx["q"]: NE}, {0: SW, idx["q"]: NE, idx["w1"]: NW}])
    assert r["queen_returned"].tolist() == [True, True]
    assert r["queen_covered"].tolist() == [False, False]
    assert r["continues"].tolist() == [False, True]
    assert r["dues"].tolist() == [1, 1]


def test_break_without_touching_a_coin_is_a_failed_try(roles, idx):
    turn = IcfTurn(own_down=0, is_break=True)
    r = run(roles, [{}, {0: NW}], turn=turn, kind=WALL, first=1)
    assert r["foul.break_no_coin"].tolist() == [True, True]
    assert r["foul"].tolist() == [True, True]
    assert r["break_retry"].tolist() == [True, False]  # a pocketed striker loses the turn
    assert r["continues"].tolist() == [False, False]
    assert r["dues"].tolist() == [0, 1]
    assert r["points"].tolist() == [0.0, -1.0]
    r = run(roles, [{}], turn=turn, kind=NONE, first=0)
    assert r["foul.break_no_coin"][0]


def test_break_touching_a_coin_is_no_foul(roles, idx):
    turn = IcfTurn(own_down=0, is_break=True)
    r = run(roles, [{}, {idx["w8"]: SW}], turn=turn, kind=PIECE, first=idx["b4"])
    assert r["foul.break_no_coin"].tolist() == [False, False]
    assert r["foul"].tolist() == [False, False]
    assert r["continues"].tolist() == [False, True]
    # the queen is a carrom man too
    r = run(roles, [{}], turn=turn, kind=PIECE, first=idx["q"])
    assert not r["foul.break_no_coin"][0]


def test_break_reaching_coins_after_a_cushion(roles, idx):
    turn = IcfTurn(own_down=0, is_break=True)
    n = len(roles["striker"])
    contacts = np.zeros((2, n), dtype=np.int32)
    contacts[:, 0] = 2
    contacts[0, idx["b4"]] = 1
    r = run(roles, [{}, {}], turn=turn, kind=WALL, first=0, contacts=contacts)
    assert r["foul.break_no_coin"].tolist() == [False, True]
    # a coin pocketed proves the striker reached the rack, even without contacts
    r = run(roles, [{idx["b4"]: SE}], turn=turn, kind=WALL, first=0)
    assert not r["foul.break_no_coin"][0] and not r["continues"][0]


def test_last_own_coin_with_queen_on_board_loses_the_board(opening, idx):
    keep = {"q", "w1", "b1", "b2", "b3"}
    pos = opening.replace(pieces=tuple(p for p in opening.pieces if p.id in keep))
    roles = piece_roles(pos)
    assert len(roles["striker"]) == 6
    w1, q = 2, 1  # pieces q, w1, b1, b2, b3 -> discs 1..5
    rows = [{w1: SW}, {w1: SW, q: NE}, {w1: SW, 0: SE}]
    r = run(roles, rows, turn=IcfTurn(own_down=8, opponent_down=6))
    assert r["foul.last_coin_before_queen"].tolist() == [True, False, False]
    assert r["board_lost"].tolist() == [True, False, False]
    assert r["board_won"].tolist() == [False, True, False]  # 97a with the last coin wins
    assert r["queen_covered"].tolist() == [False, True, False]
    assert r["continues"].tolist() == [False, False, True]
    assert r["board_points_conceded"].tolist() == [3, 0, 0]
    assert r["points"].tolist() == [-3.0, 4.0, -1.0]
    # a fixed value for a lost board
    r = run(roles, rows[:1], turn=IcfTurn(own_down=8), scoring=IcfScoring(board_lost=-10.0))
    assert r["points"][0] == -10.0


def test_last_own_coin_awaiting_cover_loses_pending_cover_wins(opening):
    keep = {"w1", "b1", "b2"}  # no queen on the board
    pos = opening.replace(pieces=tuple(p for p in opening.pieces if p.id in keep))
    roles = piece_roles(pos)
    r = run(roles, [{1: SW}, {1: SW}], turn=IcfTurn(own_down=8))
    assert r["board_won"].tolist() == [True, True]  # queen covered earlier: off the board
    r = run(roles, [{1: SW}], turn=IcfTurn(own_down=8, queen_pending=True))
    assert r["queen_covered"][0] and r["board_won"][0] and not r["board_lost"][0]
    assert r["points"][0] == 4.0


def test_opponent_last_coin_loses_the_board(opening):
    keep = {"q", "w1", "w2", "b1"}
    pos = opening.replace(pieces=tuple(p for p in opening.pieces if p.id in keep))
    roles = piece_roles(pos)
    b1 = 1 + [p.id for p in pos.pieces].index("b1")
    r = run(roles, [{b1: SW}, {b1: SW, 0: NE}], turn=IcfTurn(own_down=7, opponent_down=8))
    assert r["foul.opponent_last_coin"].tolist() == [True, True]
    assert r["board_lost"].tolist() == [True, True]
    assert r["continues"].tolist() == [False, False]
    # the opponent scores the shooter's 2 coins left and the queen
    assert r["board_points_conceded"].tolist() == [5, 5]
    assert r["points"].tolist() == [-5.0, -5.0]


def test_nothing_pocketed_ends_zero(roles):
    r = run(roles, [{}], kind=WALL, first=0)
    assert not r["continues"][0] and not r["foul"][0]
    assert r["points"][0] == 0.0 and r["dues"][0] == 0
    assert r["own_down_after"][0] == 2


def test_black_shooter_and_coins_off_the_board(roles, idx):
    turn = IcfTurn(shooter="black", own_down=1)
    r = run(roles, [{idx["b1"]: SW}, {idx["w1"]: SW}, {idx["b1"]: 4}], turn=turn)
    assert r["own_pocketed"].tolist() == [1, 0, 0]  # a coin off the board is not pocketed
    assert r["opponent_pocketed"].tolist() == [0, 1, 0]
    assert r["continues"].tolist() == [True, False, False]
    assert r["points"].tolist() == [1.0, -1.0, 0.0]


def test_scoring_weights(roles, idx):
    scoring = IcfScoring(own_coin=2.0, opponent_coin=-0.5, queen_covered=5.0, due=-3.0)
    rows = [{idx["w1"]: SW, idx["q"]: NE}, {idx["b1"]: SW, 0: SE}]
    r = run(roles, rows, scoring=scoring)
    assert r["points"].tolist() == [7.0, -3.5]


def test_rules_class_evaluates_outcome_arrays(opening, idx):
    rules = IcfRules()
    assert rules.variant == "icf" and rules.turn_type is IcfTurn
    assert set(rules.foul_kinds) >= {"striker_pocketed", "break_no_coin"}
    cap, fk, fc = shots(20, {idx["w1"]: SW}, {0: SE})
    out = {"capture": cap, "first_contact_kind": fk, "first_contact": fc}
    r = rules.evaluate(opening, out, IcfTurn(own_down=2), IcfScoring())
    q = rules.quantities
    assert set(r) == set(q["probabilities"]) | set(q["means"])
    assert not set(q["probabilities"]) & set(q["means"])
    for k in q["probabilities"]:
        assert r[k].dtype == bool and r[k].shape == (2,), k
    for k in q["means"]:
        assert np.issubdtype(r[k].dtype, np.number) and r[k].shape == (2,), k
    assert {f"foul.{k}" for k in rules.foul_kinds} <= set(q["probabilities"])
    assert r["points"].tolist() == [1.0, -1.0]
    assert r["continues"].tolist() == [True, False]


def test_bad_input_is_refused(roles, opening):
    with pytest.raises(CarromlabError, match="shooter"):
        IcfTurn(shooter="red")
    with pytest.raises(CarromlabError, match="own_down"):
        IcfTurn(own_down=-1)
    cap = np.full((1, 7), ON)
    with pytest.raises(CarromlabError, match="discs"):
        evaluate_icf(cap, [1], [1], roles, IcfTurn())
    with pytest.raises(CarromlabError, match="ICF"):
        piece_roles(standard_position("carroms-opening"))
