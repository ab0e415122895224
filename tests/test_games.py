"""Whole games on the real kernel: random-legal play never reaches an illegal state."""

import pytest

from carromlab.analysis.games import play_game
from carromlab.analysis.policies import RandomLegal
from carromlab.rules.icf_game import IcfGameConfig


def _check(state):
    board = state.board
    assert board.position.validate() == []
    if state.over or board.over:
        return
    for side in (0, 1):
        colour = board.colours[side]
        on = sum(1 for p in board.position.pieces if p.kind == "coin" and p.owner == colour)
        assert on + board.down[side] == 9, (side, on, board.down)
        assert board.dues[side] == 0 or board.down[side] == 0
    queens = sum(1 for p in board.position.pieces if p.kind == "queen")
    assert queens == (1 if board.queen == "on_board" else 0)
    assert all(0 <= s for s in state.scores)


@pytest.mark.parametrize("seed, doubles", [(0, False), (1, False), (2, True)])
def test_random_legal_games_stay_legal_and_boards_end(seed, doubles):
    config = IcfGameConfig(doubles=doubles, max_boards=1)
    seats = 4 if doubles else 2
    rec = play_game([RandomLegal()] * seats, config, skill="club", seed=seed, on_stroke=_check)
    assert rec.state.over
    assert len(rec.boards) == 1
    row = rec.boards.iloc[0]
    assert 0 <= row["points"] <= 12 and row["winner"] in (0, 1)
    assert sum(rec.state.scores) == row["points"]
    assert not rec.strokes["truncated"].any()
    # determinism: the same seed plays the same game
    again = play_game([RandomLegal()] * seats, config, skill="club", seed=seed)
    assert again.strokes.equals(rec.strokes)
