"""Whole KOOBA games on the throw kernel: the lag, tags, the machine, the greedy player."""

from __future__ import annotations

import numpy as np

from carromlab.analysis.kooba_play import KoobaGreedy, marker_spot, play_kooba, shot_tags
from carromlab.equipment import KoobaBoard
from carromlab.rules.kooba_game import LOCK, KoobaConfig

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
