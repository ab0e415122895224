"""A position file's turn checked against its pieces before any work: pieces down plus on the
board within the game's count for a side, dues within what can be owed, the queen's state
where she is, a break on the opening set-up (docs/decisions.md, "A turn against its
position")."""

from __future__ import annotations

import json

import pytest
from cli_run import no_work, run

from carromlab.position import Position
from carromlab.registry import standard_position


def write(tmp_path, name: str, turn: dict, drop: tuple[str, ...] = ()) -> str:
    pos = standard_position(name)
    pos = pos.replace(pieces=tuple(p for p in pos.pieces if p.id not in drop), turn=turn)
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(pos.to_dict()))
    Position.load(path)  # a legal document: only its turn is in question
    return str(path)


# icf-queen-shot: the queen, w1-w3 and b1-b5 on the board
QUEEN_SHOT = {"shooter": "white", "own_down": 6, "opponent_down": 4}

IMPOSSIBLE = [
    (
        "icf-queen-shot",
        {**QUEEN_SHOT, "own_down": 9},
        "IcfTurn.own_down is 9 with 3 coins of white on the board: 12, more than the 9",
    ),
    (
        "icf-queen-shot",
        {**QUEEN_SHOT, "opponent_down": 9},
        "IcfTurn.opponent_down is 9 with 5 coins of black on the board: 14, more than the 9",
    ),
    ("icf-queen-shot", {**QUEEN_SHOT, "dues": 1000000}, "IcfTurn.dues is 1000000: at most 9"),
    (
        "icf-queen-shot",
        {**QUEEN_SHOT, "queen_pending": True},
        "IcfTurn.queen_pending is true but the queen ('q') is on the board",
    ),
    (
        "icf-queen-shot",
        {**QUEEN_SHOT, "is_break": True},
        "IcfTurn.is_break is true with own_down 6, opponent_down 4",
    ),
    (
        "icf-midgame",
        {"is_break": True},
        "IcfTurn.is_break is true but 18 pieces lie outside the opening set-up",
    ),
    (
        "carroms-opening",
        {"shooter": "green", "own_down": 2},
        "CarromsTurn.own_down is 2 with 12 rings of green on the board: 14, more than the 12",
    ),
    (
        "force-out-opening",
        {"shooter": "green", "opponent_out_of_play": 1},
        "ForceOutTurn.opponent_out_of_play is 1 with 8 rings of red on the board: 9",
    ),
]


@pytest.mark.parametrize(("name", "turn", "words"), IMPOSSIBLE)
@pytest.mark.parametrize("command", ["validate", "estimate", "decide"])
def test_an_impossible_turn_is_refused_before_any_work(
    tmp_path, capsys, name, turn, words, command
):
    path = write(tmp_path, name, turn)
    args = [path] if command == "validate" else ["--position", path]
    with no_work():
        code, out, err = run(capsys, command, *args)
    assert code in (1, 2) and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"error: {path}: turn: {words}"), err


def test_dues_are_owed_only_with_no_own_coin_down_and_a_queen_pending_is_off_the_board(
    tmp_path, capsys
):
    owed = write(tmp_path, "icf-queen-shot", {**QUEEN_SHOT, "dues": 2})
    code, _, err = run(capsys, "validate", owed)
    assert code == 1 and "IcfTurn.dues is 2 with own_down 6: a due is paid at once" in err
    # the same dues with no coin down, and a pending queen taken off the board, are possible
    fine = write(tmp_path, "icf-queen-shot", {**QUEEN_SHOT, "own_down": 0, "dues": 2})
    assert run(capsys, "validate", fine)[0] == 0
    pending = write(tmp_path, "icf-queen-shot", {**QUEEN_SHOT, "queen_pending": True}, ("q",))
    code, out, _ = run(capsys, "validate", pending)
    assert code == 0 and "the queen pocketed, awaiting its cover" in out
    alone = write(tmp_path, "icf-queen-shot", {"queen_pending": True}, ("q",))
    code, _, err = run(capsys, "validate", alone)
    assert code == 1 and "IcfTurn.queen_pending is true with own_down 0" in err


@pytest.mark.parametrize("name", ["icf-opening", "icf-doubles-opening", "carroms-opening"])
def test_a_break_is_on_the_opening_set_up(tmp_path, capsys, name):
    opening = write(tmp_path, name, {"is_break": True})
    code, out, err = run(capsys, "validate", opening)
    assert code == 0 and "to break" in out, err
    first = standard_position(name).pieces[1].id
    missing = write(tmp_path, name, {"is_break": True}, (first,))
    code, _, err = run(capsys, "validate", missing)
    assert code == 1 and "is_break is true but the position holds" in err, err
