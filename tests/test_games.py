"""Whole games on the real kernel: random-legal play never reaches an illegal state, over
many seeds (every game index is its own random stream), singles and doubles."""

import pytest

from carromlab.analysis.policies import RandomLegal
from carromlab.games.icf.machine import IcfConfig
from carromlab.play import play_game, play_games


def _check(state):
    """The laws' invariants between strokes."""
    board = state.board
    assert board.position.validate() == []
    assert all(0 <= s for s in state.scores)
    assert state.boards_played <= state.config.max_boards or state.config.tie_rule != "draw"
    if state.over or board.over:
        return
    for side in (0, 1):
        colour = board.colours[side]
        on = sum(1 for p in board.position.pieces if p.kind == "coin" and p.owner == colour)
        assert on + board.down[side] == 9, (side, on, board.down)  # coins are conserved
        assert board.dues[side] == 0 or board.down[side] == 0
    queens = sum(1 for p in board.position.pieces if p.kind == "queen")
    assert queens == (1 if board.queen == "on_board" else 0)


def _check_record(rec, config):
    assert rec.state.over  # the board (the game) always ends
    assert not rec.strokes["truncated"].any()
    b = rec.boards
    assert ((b["points"] >= 0) & (b["points"] <= config.board_cap)).all()
    assert b["winner"].isin([0, 1]).all()
    assert sum(rec.state.scores) == b["points"].sum()  # scores are the boards' points
    assert rec.state.winner in (0, 1, None)


@pytest.mark.parametrize("doubles, n_games", [(False, 24), (True, 8)])
def test_random_legal_boards_stay_legal_and_end(doubles, n_games):
    config = IcfConfig(doubles=doubles, max_boards=1)
    seats = 4 if doubles else 2
    recs = play_games([RandomLegal()] * seats, config, seed=11, games=n_games, on_stroke=_check)
    for rec in recs:
        _check_record(rec, config)
        assert len(rec.boards) == 1


def test_a_random_legal_game_ends_by_the_laws():
    # three boards at most (the laws' cap is a setting; random play rarely reaches 25
    # points, so a game runs to the cap: eight boards took most of a minute)
    config = IcfConfig(max_boards=3)
    rec = play_game([RandomLegal()] * 2, config, seed=5, on_stroke=_check)
    _check_record(rec, config)
    scores = rec.state.scores
    # a game ends at 25 points or after 8 boards; before the last board both had < 25
    assert max(scores) >= config.game_points or rec.state.boards_played >= config.max_boards
    last = rec.boards.iloc[-1]
    assert max(scores) - last["points"] * (rec.state.winner is not None) < config.game_points
    # determinism: the same seed plays the same game (its first 60 strokes, replayed)
    again = play_game([RandomLegal()] * 2, config, seed=5, max_strokes=60)
    assert again.strokes.equals(rec.strokes.iloc[: len(again.strokes)])
    assert len(again.strokes) == min(60, len(rec.strokes))
