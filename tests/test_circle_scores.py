"""Golden rule tests for Circle Scores (a fragment of the Carrom Company's rule book, seed 002;
"Circle scores"): carromlab/games/circle_scores/rules.py, its decisions 1-3.

The fragment: "If it [the shooting ring] comes to rest in the largest circle area, count 5
points. A ring dislodged and coming to rest outside the circle area counts 10 points."

Kernel conventions: disc 0 is the shooting ring, discs 1.. the object rings of the position
in order; capture -1 on the board, 0 the centre hole, 1..4 the corner pockets.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from carromlab.equipment.company import CrokinoleBoard
from carromlab.errors import CarromlabError
from carromlab.games.circle_scores.machine import (
    CircleScoresConfig,
    CircleScoresState,
    apply_stroke,
    new_game,
)
from carromlab.games.circle_scores.players import CircleScoresRandom
from carromlab.games.circle_scores.rules import (
    CircleScoresScoring,
    evaluate_circle_scores,
    object_rings,
)
from carromlab.games.circle_scores.setups import circle_scores_opening
from carromlab.play import play_games
from carromlab.rules.crokinole import hole_code

BOARD = CrokinoleBoard()
R = BOARD.outer_radius
HOLE = hole_code(BOARD)
POCKET = HOLE + 1  # a corner pocket of the square surround
OPEN = circle_scores_opening()
N = len(object_rings(OPEN))
IN = (0.0, -0.2)  # at rest inside the large outer circle
OUT = (0.0, R + 0.02)  # at rest on the board outside it
CORNER = (0.3, 0.3)


def arrays(position, shooter, capture0=-1, moved=None):
    """Kernel arrays [1 + rings] over ``position``: the shooting ring rests at ``shooter``
    (capture ``capture0``); every object ring stays put unless ``moved[k] = (capture, x,
    y)`` (k: 1-based disc index)."""
    rs = object_rings(position)
    capture = np.full(1 + len(rs), -1, np.int32)
    capture[0] = capture0
    x = np.array([shooter[0]] + [p.x for p in rs], float)
    y = np.array([shooter[1]] + [p.y for p in rs], float)
    for k, (c, mx, my) in (moved or {}).items():
        capture[k], x[k], y[k] = c, mx, my
    return capture, x, y


def score(shooter, capture0=-1, moved=None, position=OPEN, scoring=None) -> dict:
    capture, x, y = arrays(position, shooter, capture0, moved)
    res = evaluate_circle_scores(capture[None], x[None], y[None], position, None, scoring)
    return {k: v[0].item() for k, v in res.items()}


def shot(state, shooter, capture0=-1, moved=None, config=None) -> CircleScoresState:
    capture, x, y = arrays(state.position, shooter, capture0, moved)
    return apply_stroke(state, capture, np.c_[x, y], config)


# ------------------------------------------------------------------ one stroke


def test_the_shooting_ring_at_rest_in_the_largest_circle_counts_5():
    """ "If it comes to rest in the largest circle area, count 5 points" (decision 1: its
    centre inside the large outer circle, the line included)."""
    for spot in (IN, (0.15, 0.1), (0.0, R)):
        r = score(spot)
        assert r["points"] == 5.0 and r["shooter_in"] and r["rings_out"] == 0, spot


def test_the_shooting_ring_outside_in_the_hole_or_off_the_board_counts_0():
    """Decision 1: at rest outside the circle, in the centre hole, or in a corner pocket (off
    the board) the shooting ring scores nothing."""
    assert score(OUT)["points"] == 0.0 and not score(OUT)["shooter_in"]
    assert score((0.0, R + 1e-4))["points"] == 0.0
    holed = score((0.0, 0.0), capture0=HOLE)
    assert holed["points"] == 0.0 and holed["shooter_in_hole"] and not holed["shooter_in"]
    assert score(CORNER, capture0=POCKET)["points"] == 0.0


def test_each_object_ring_driven_out_counts_10():
    """ "A ring dislodged and coming to rest outside the circle area counts 10 points": each
    object ring that was inside and rests outside the circle, or went into a corner pocket,
    scores 10, on top of the shooting ring's 5."""
    one = score(OUT, moved={3: (-1, 0.0, R + 0.05)})
    assert one["rings_out"] == 1 and one["points"] == 10.0
    pocket = score(OUT, moved={2: (POCKET, *CORNER)})
    assert pocket["rings_out"] == 1 and pocket["points"] == 10.0
    three = score(
        IN, moved={1: (-1, R + 0.01, 0.0), 5: (-1, -0.25, -0.25), 8: (POCKET + 2, -0.3, 0.3)}
    )
    assert three["rings_out"] == 3 and three["points"] == 5.0 + 30.0


def test_an_object_ring_in_the_hole_or_still_inside_counts_nothing():
    """Decision 1: an object ring knocked into the centre hole scores nothing (it is counted as
    holed, not out); one knocked about but still inside the circle scores nothing."""
    holed = score(OUT, moved={4: (HOLE, 0.0, 0.0)})
    assert holed["rings_out"] == 0 and holed["rings_holed"] == 1 and holed["points"] == 0.0
    moved = score(OUT, moved={4: (-1, 0.2, -0.2)})  # 0.28 m from the centre < R
    assert moved["rings_out"] == 0 and moved["points"] == 0.0


def test_scoring_options_and_the_disc_count():
    """The 5 and 10 are options (CircleScoresScoring); an outcome with the wrong number of
    discs for the position is refused; one call judges a batch of shots."""
    r = score(IN, moved={1: (-1, *OUT)}, scoring=CircleScoresScoring(shooter_in=1.0, ring_out=2.0))
    assert r["points"] == 3.0
    a, b = arrays(OPEN, IN), arrays(OPEN, OUT, moved={2: (-1, *OUT)})
    cap, x, y = (np.stack(v) for v in zip(a, b))
    res = evaluate_circle_scores(cap, x, y, OPEN)
    assert res["points"].tolist() == [5.0, 10.0]
    with pytest.raises(CarromlabError, match="discs"):
        evaluate_circle_scores(cap[:, :-1], x[:, :-1], y[:, :-1], OPEN)


# ------------------------------------------------------------------ the game


def test_new_game_object_rings_start_inside_the_small_circle():
    """Decision 1: the object rings start inside the small circle; player 0 shoots first."""
    st = new_game()
    assert st.position.validate() == []
    assert N == 8 and all(np.hypot(p.x, p.y) < BOARD.small_radius for p in object_rings(OPEN))
    assert (st.player, st.taken, st.scores, st.racks, st.over) == (0, (0, 0), (0, 0), 1, False)


def test_rings_driven_out_or_holed_are_removed_and_the_rest_stay_where_they_lie():
    """Decision 2: rings driven out (and one in the hole) leave the board; the others stay
    where they came to rest; the shooting ring is picked up."""
    st = shot(
        new_game(),
        IN,
        moved={1: (-1, *OUT), 2: (POCKET, *CORNER), 3: (HOLE, 0.0, 0.0), 4: (-1, 0.1, 0.1)},
    )
    ids = [p.id for p in st.position.pieces]
    assert ids == [p.id for p in object_rings(OPEN)[3:]]
    assert [(p.x, p.y) for p in st.position.pieces if p.id == "g4"] == [(0.1, 0.1)]
    assert all(p.kind != "shooter" for p in st.position.pieces)
    assert st.position.validate() == []
    assert st.scores == (25, 0) and st.history[-1].rings_out == 2 and not st.history[-1].racked


def test_the_opening_is_set_up_again_when_no_object_ring_is_left():
    """Decision 3: when the last object ring leaves the circle the opening is set up again
    (a new rack) for the next shot."""
    st = replace(new_game(), position=OPEN.replace(pieces=object_rings(OPEN)[:2]))
    st = shot(st, IN, moved={1: (-1, *OUT), 2: (HOLE, 0.0, 0.0)})
    assert st.history[-1].racked and st.racks == 2 and st.scores == (15, 0)
    assert [p.id for p in st.position.pieces] == [p.id for p in OPEN.pieces]
    assert st.position.validate() == []


def test_shots_alternate_and_the_higher_total_wins():
    """Decision 3: ``shots`` shots each, alternating, player 0 first; the game ends after the
    last; the higher total wins; a shot after the end is refused."""
    cfg = CircleScoresConfig(shots=2)
    st = new_game(cfg)
    players = []
    for spot in (IN, OUT, IN, IN):
        players.append(st.player)
        assert not st.over
        st = shot(st, spot, config=cfg)
    assert players == [0, 1, 0, 1] and st.taken == (2, 2) and st.strokes == 4
    assert st.over and st.scores == (10, 5) and st.winner == 0
    with pytest.raises(CarromlabError, match="over"):
        shot(st, IN, config=cfg)
    st = new_game(cfg)
    for spot in (OUT, IN, OUT, IN):
        st = shot(st, spot, config=cfg)
    assert st.scores == (0, 10) and st.winner == 1


def test_equal_totals_are_a_draw():
    """Decision 3: equal totals after the last shot - a draw (no winner)."""
    cfg = CircleScoresConfig(shots=1)
    st = shot(new_game(cfg), IN, config=cfg)
    assert not st.over and st.player == 1
    st = shot(st, IN, config=cfg)
    assert st.over and st.scores == (5, 5) and st.winner is None
    with pytest.raises(CarromlabError):
        CircleScoresConfig(shots=0)


# ------------------------------------------------------------------ whole games (kernel)


def test_random_games_finish_with_the_shots_taken():
    """Whole random games on the kernel (3 shots each): every position validates, every game
    ends after 3 shots each, scores are multiples of 5 and the winner is the higher total."""

    def check(state):
        assert state.position.validate() == []
        assert all(p.kind == "ring" for p in state.position.pieces)

    cfg = CircleScoresConfig(shots=3)
    recs = play_games([CircleScoresRandom()] * 2, cfg, "club", seed=1, games=2, on_stroke=check)
    for rec in recs:
        st = rec.state
        assert st.over and st.taken == (3, 3) and len(rec.strokes) == 6
        assert rec.strokes["player"].tolist() == [0, 1, 0, 1, 0, 1]
        a, b = st.scores
        assert a % 5 == 0 and b % 5 == 0 and a >= 0 and b >= 0
        assert sum(h.points for h in st.history) == a + b
        assert st.winner == (None if a == b else int(b > a))
        assert not rec.strokes["truncated"].any()
