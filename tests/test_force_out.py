"""Force Out and Fast Play Force Out (seed 002): golden tests per rule clause with hand-built
outcomes, the game machine, shot origins, and whole games on the kernel."""

from __future__ import annotations

import math

import numpy as np
import pytest

from carromlab.analysis.search import SearchBudget
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.company import CrokinoleBoard
from carromlab.games.force_out.machine import (
    ForceOutConfig,
    ForceOutState,
    apply_stroke,
    new_game,
    return_spot,
)
from carromlab.games.force_out.players import ForceOutGreedy, ForceOutRandom
from carromlab.games.force_out.rules import ForceOutTurn, evaluate_force_out
from carromlab.play import play_games
from carromlab.position import Piece, Position
from carromlab.rules.crokinole import hole_code

BOARD = CrokinoleBoard()
R = BOARD.outer_radius
HOLE = hole_code(BOARD)
POCKET = HOLE + 1  # a corner pocket of the square surround
OUT = (0.0, R + 0.05)  # resting outside the circle, on the board


def position(rings, variant="force-out", shooter=None):
    pieces = [Piece(i, "ring", c, x, y) for i, c, x, y in rings]
    if shooter is not None:
        pieces.append(Piece("shooter", "shooter", None, *shooter))
    return Position(variant, tuple(pieces), BOARD)


# r1, r2 red (player 0); g1, g2 green (player 1)
RINGS = [
    ("r1", "red", 0.05, 0.0),
    ("r2", "red", -0.05, 0.0),
    ("g1", "green", 0.0, 0.06),
    ("g2", "green", 0.0, -0.06),
]
POS = position(RINGS)


def outcome(moves=None, caps=None, shooter=(0.0, -0.2), shooter_cap=-1):
    """capture [1, 5] and final x, y for POS: rings stay unless moved / captured."""
    cap = np.full((1, 5), -1)
    xy = np.array([shooter] + [(x, y) for _, _, x, y in RINGS], float)
    cap[0, 0] = shooter_cap
    ids = [r[0] for r in RINGS]
    for pid, to in (moves or {}).items():
        xy[ids.index(pid) + 1] = to
    for pid, code in (caps or {}).items():
        cap[0, ids.index(pid) + 1] = code
    return cap, xy[None, :, 0], xy[None, :, 1]


RED = ForceOutTurn("red")


def ev(turn=RED, **kw):
    cap, x, y = outcome(**kw)
    return {k: v[0] for k, v in evaluate_force_out(cap, x, y, POS, turn).items()}


# ------------------------------------------------------------------ one stroke


def test_forcing_out_an_opponents_ring_scores_and_continues():
    """ "A force-out of an opponent's ring allows the player to shoot again": +5, continues."""
    r = ev(moves={"g1": OUT})
    assert r["opponent_out"] == 1 and r["continues"] and r["points"] == 5.0
    assert not r["penalty"]


def test_forcing_out_your_own_ring_removes_it_and_does_not_continue():
    """ "A player's own ring when forced out of the scoring circle area is out of play":
    -5, and it does not earn another shot."""
    r = ev(moves={"r1": OUT})
    assert r["own_out"] == 1 and r["opponent_out"] == 0 and not r["continues"]
    assert r["points"] == -5.0


def test_a_ring_in_a_corner_pocket_is_forced_out():
    """Off the board (a corner pocket of the Carrom Company board) is out of the circle."""
    r = ev(caps={"g2": POCKET})
    assert r["opponent_out"] == 1 and r["continues"]


def test_a_ring_in_the_centre_hole_scores_for_its_owner_and_is_not_forced_out():
    """ "A ring knocked into the center hole is scored as 5 points for the player to whom the
    ring belongs": holed, not forced out, no change in value, no extra shot."""
    r = ev(caps={"g1": HOLE, "r2": HOLE})
    assert r["opponent_holed"] == 1 and r["own_holed"] == 1
    assert r["opponent_out"] == 0 and not r["continues"] and r["points"] == 0.0


def test_a_ring_moved_inside_the_circle_is_not_out():
    """A ring knocked about but resting inside the large outer circle stays in play."""
    r = ev(moves={"g1": (0.0, R - 0.001)})
    assert r["opponent_out"] == 0 and not r["continues"]


def test_shooting_ring_in_the_hole_is_a_penalty_even_with_a_force_out():
    """ "If a Shooting Ring is landed in the center hole ... the player loses his turn"
    (decision 1: the penalty wins over the force-out)."""
    r = ev(moves={"g1": OUT}, shooter_cap=HOLE)
    assert r["foul.shooter_in_hole"] and r["penalty"] and not r["continues"]
    assert r["returned"]  # g1 is now out of play: it comes back
    assert r["points"] == 0.0  # +5 for g1 out, -5 for a ring given back


def test_shooting_ring_outside_the_playing_circle_or_off_the_board_is_a_penalty():
    """ "... or outside the playing circle or off the board": both end the turn."""
    out = ev(shooter=OUT)
    off = ev(shooter_cap=POCKET)
    assert out["foul.shooter_out"] and out["penalty"]
    assert off["foul.shooter_out"] and off["penalty"]


def test_a_penalty_returns_a_ring_only_when_the_opponent_has_one_out_of_play():
    """ "One opponent's out-of-play ring is replaced": nothing to replace, nothing returned."""
    none = ev(shooter_cap=HOLE)
    some = ev(turn=ForceOutTurn("red", 2), shooter_cap=HOLE)
    assert none["penalty"] and not none["returned"] and none["points"] == 0.0
    assert some["returned"] and some["points"] == -5.0


# ------------------------------------------------------------------ the game machine


def state(rings=RINGS, **kw) -> ForceOutState:
    return ForceOutState(position=position(rings), **kw)


def stroke(st, moves=None, caps=None, shooter=(0.0, -0.2), shooter_cap=-1, config=None):
    rs = [p for p in st.position.pieces if p.kind != "shooter"]
    cap = np.full(len(rs) + 1, -1)
    cap[0] = shooter_cap
    xy = np.array([shooter] + [(p.x, p.y) for p in rs], float)
    ids = [p.id for p in rs]
    for pid, to in (moves or {}).items():
        xy[ids.index(pid) + 1] = to
    for pid, code in (caps or {}).items():
        cap[ids.index(pid) + 1] = code
    return apply_stroke(st, cap, xy, config or ForceOutConfig())


def test_new_game_opening_and_first_shooter():
    """Each player places 8 rings of one colour inside the small circle, mixed."""
    s = new_game(ForceOutConfig(), first=1)
    assert s.player == 1 and s.turns == (0, 1)
    assert s.in_circle(0) == 8 and s.in_circle(1) == 8
    assert all(math.hypot(p.x, p.y) <= BOARD.small_radius for p in s.position.pieces)


def test_machine_force_out_continues_and_records_the_ring_out_of_play():
    s = stroke(state(), moves={"g1": OUT})
    assert s.player == 0 and s.out_of_play == ((), ("g1",))
    assert "g1" not in [p.id for p in s.position.pieces]


def test_machine_a_miss_passes_the_turn():
    """ "If a player fails to force-out his opponent's ring he loses his turn."""
    s = stroke(state(), moves={"g1": (0.0, 0.1)})
    assert s.player == 1 and s.turns == (1, 1)
    assert s.position.by_id("g1").y == pytest.approx(0.1)


def test_machine_penalty_returns_the_last_ring_forced_out_near_the_centre():
    """Decision 3: the opponent's most recently forced-out ring, at the free place nearest
    the centre inside the small circle, not over the hole."""
    s = state(out_of_play=((), ("g3", "g4")))
    s = stroke(s, shooter_cap=HOLE)
    assert s.player == 1 and s.out_of_play == ((), ("g3",))
    g4 = s.position.by_id("g4")
    d = math.hypot(g4.x, g4.y)
    assert BOARD.hole_diameter / 2 + BOARD.ring_diameter / 2 - 1e-9 <= d <= BOARD.small_radius
    assert not s.position.validate()


def test_return_spot_avoids_rings_and_the_hole():
    pos = position(RINGS)
    x, y = return_spot(pos)
    r = BOARD.ring_diameter / 2
    assert math.hypot(x, y) >= BOARD.hole_diameter / 2 + r - 1e-9
    for p in pos.pieces:
        assert math.hypot(p.x - x, p.y - y) >= 2 * r - 1e-9


def test_machine_round_ends_when_a_player_has_no_ring_in_the_circle():
    """ "A round is completed when all the rings of one player have been forced out ... A
    score of 5 is given to each of the rings remaining in the scoring circle" (and 5 for
    each ring in the hole)."""
    s = state(holed=(1, 0))
    s = stroke(s, moves={"g1": OUT, "g2": OUT})
    assert s.over and s.winner == 0
    assert s.scores == (5 * (2 + 1), 0) and s.round_scores == ((15, 0),)


def test_machine_holed_rings_leave_the_board_and_count_at_the_end():
    s = stroke(state(), caps={"g1": HOLE})
    assert s.holed == (0, 1) and "g1" not in [p.id for p in s.position.pieces]
    assert s.player == 1  # no force-out: the turn passes


def test_machine_two_rounds_alternate_the_first_shooter_and_add_up():
    cfg = ForceOutConfig(rounds=2)
    s = stroke(state(), moves={"g1": OUT, "g2": OUT}, config=cfg)
    assert not s.over and s.round == 1 and s.first == 1 and s.player == 1
    assert len([p for p in s.position.pieces if p.kind == "ring"]) == 16  # a fresh opening
    assert s.scores == (10, 0)


def test_machine_equal_totals_are_a_draw():
    s = state(holed=(0, 1))
    s = stroke(s, moves={"g1": OUT, "g2": OUT, "r2": OUT})
    assert s.over and s.scores == (5, 5) and s.winner is None


def test_fast_play_ring_stays_where_it_lies_and_is_lost_on_a_penalty():
    """Fast Play: "play after the first shot is made from wherever the Shooting Ring lies";
    decision 4: a lost ring is played next from the outer line."""
    cfg = ForceOutConfig(fast=True)
    s = ForceOutState(position=position(RINGS, "force-out-fast"))
    s = stroke(s, moves={"g1": (0.0, 0.12)}, shooter=(0.1, -0.1), config=cfg)
    assert s.player == 1
    ring = s.position.by_id("shooter")
    assert (ring.x, ring.y) == (0.1, -0.1)
    s = stroke(s, shooter_cap=HOLE, shooter=(0.0, 0.0), config=cfg)
    assert not any(p.kind == "shooter" for p in s.position.pieces)


def test_origins_on_the_south_arc_or_where_the_fast_ring_lies():
    va = analysis_for("force-out")
    x, y = va.origin(POS, [-90.0, -135.0, -45.0])
    assert va.legal_origin(POS, x, y).all()
    np.testing.assert_allclose(np.hypot(x, y), R)
    x2, y2 = va.origin(POS, [0.0, -150.0])
    assert not va.legal_origin(POS, x2, y2).any()  # not the South side
    fast = position(RINGS, "force-out-fast", shooter=(0.1, -0.1))
    vf = analysis_for("force-out-fast")
    fx, fy = vf.origin(fast, [12.0])
    assert (fx[0], fy[0]) == (0.1, -0.1) and vf.legal_origin(fast, fx, fy)[0]
    assert not vf.legal_origin(fast, x, y).any()


# ------------------------------------------------------------------ whole games


def _check(rec):
    st = rec.state
    assert st.over and rec.row["finished"] and not rec.strokes["truncated"].any()
    assert st.in_circle(0) == 0 or st.in_circle(1) == 0
    a, b = st.scores
    assert a % 5 == 0 and b % 5 == 0 and a + b <= 5 * 16
    assert st.winner == (None if a == b else int(b > a))


@pytest.mark.parametrize("fast", [False, True])
def test_random_games_keep_the_rings_accounted_for(fast):
    """Every stroke: the position validates and every ring is in play, in the hole or out of
    play; whole random games end with one player's circle empty."""

    def check(s):
        assert not s.position.validate()
        on = sum(1 for p in s.position.pieces if p.kind == "ring")
        out = len(s.out_of_play[0]) + len(s.out_of_play[1])
        if s.round == 0 or not s.over:
            assert on + out + sum(s.holed) == 16 or s.over

    cfg = ForceOutConfig(fast=fast)
    recs = play_games([ForceOutRandom()] * 2, cfg, "club", seed=2, games=3, on_stroke=check)
    for rec in recs:
        _check(rec)


def test_greedy_games_finish():
    quick = SearchBudget(n_screen=2, keep=2, n_eval=4, max_candidates=12, random_extra=2)
    player = ForceOutGreedy(budget=quick)
    for fast in (False, True):
        recs = play_games([player] * 2, ForceOutConfig(fast=fast), "club", seed=0, games=2)
        for rec in recs:
            _check(rec)
            assert rec.row["strokes"] < 200


# ------------------------------------------------------------------ Fast Play specifics

FAST = ForceOutConfig(fast=True)


def fast_state(shooter=None, **kw) -> ForceOutState:
    return ForceOutState(position=position(RINGS, "force-out-fast", shooter=shooter), **kw)


def test_fast_new_game_starts_from_the_line():
    """Fast Play: "one Shooting Ring only is used"; the first shot is from the starting line
    (no ring on the board yet)."""
    s = new_game(FAST)
    assert s.position.variant == "force-out-fast"
    assert not any(p.kind == "shooter" for p in s.position.pieces)
    view = analysis_for("force-out-fast")
    x, y = view.origin(s.position, [-90.0])
    assert view.legal_origin(s.position, x, y)[0]


def test_fast_force_out_shoots_again_from_where_the_ring_lies():
    """A force-out lets the player shoot again; in Fast Play from wherever the ring lies."""
    s = stroke(fast_state(), moves={"g1": OUT}, shooter=(0.02, 0.2), config=FAST)
    assert s.player == 0
    ring = s.position.by_id("shooter")
    assert (ring.x, ring.y) == (0.02, 0.2)
    va = analysis_for("force-out-fast")
    x, y = va.origin(s.position, [0.0])
    assert (x[0], y[0]) == (0.02, 0.2) and va.legal_origin(s.position, x, y)[0]


def test_fast_miss_gives_the_opponent_the_ring_where_it_lies():
    """ "Play after the first shot is made from wherever the Shooting Ring lies": after a miss
    the opponent shoots the same ring from there."""
    s = stroke(fast_state(shooter=(0.1, -0.1)), shooter=(-0.15, 0.05), config=FAST)
    assert s.player == 1
    ring = s.position.by_id("shooter")
    assert (ring.x, ring.y) == (-0.15, 0.05)


def test_fast_ring_outside_the_circle_is_lost_and_the_next_shot_starts_on_the_line():
    """The shooting ring outside the playing circle: penalty, turn over; decision 4: the next
    shot starts from the outer line (the ring is not on the board)."""
    s = stroke(fast_state(shooter=(0.1, -0.1)), shooter=OUT, config=FAST)
    assert s.player == 1 and s.history[-1].penalty
    assert not any(p.kind == "shooter" for p in s.position.pieces)


def test_fast_ring_in_the_hole_returns_an_opponents_ring():
    """The shooting ring in the centre hole: penalty; one of the opponent's out-of-play rings
    comes back inside the small circle."""
    s = fast_state(shooter=(0.1, -0.1), out_of_play=((), ("g7",)))
    s = stroke(s, shooter_cap=HOLE, shooter=(0.0, 0.0), config=FAST)
    assert s.history[-1].returned == "g7" and s.out_of_play == ((), ())
    assert math.hypot(s.position.by_id("g7").x, s.position.by_id("g7").y) <= BOARD.small_radius


def test_fast_ring_lying_on_the_board_is_not_a_ring_in_play():
    """The shooting ring on the board is disc 0 of the kernel, not one of the 16 rings: it is
    neither forced out nor scored."""
    pos = position(RINGS, "force-out-fast", shooter=(0.1, -0.1))
    va = analysis_for("force-out-fast")
    assert len(va.table_position(pos).pieces) == len(RINGS)
    cap = np.full((1, 5), -1)
    xy = np.array([(0.0, -0.2)] + [(x, y) for _, _, x, y in RINGS])
    r = evaluate_force_out(cap, xy[None, :, 0], xy[None, :, 1], pos, RED)
    assert r["opponent_out"][0] == 0 and r["own_out"][0] == 0
    s = fast_state(shooter=(0.1, -0.1))
    assert s.in_circle(0) == 2 and s.in_circle(1) == 2


def test_fast_shots_have_no_placement_noise_but_force_out_shots_do():
    """A Fast Play ring lies where it stopped (no placement error); a Force Out ring is placed
    on the line by hand."""
    import jax

    from carromlab.shots import SKILLS, Shot

    shot = Shot(0.1, -0.1, 1.0, 2.0)
    fast = analysis_for("force-out-fast").noise(SKILLS["club"])(jax.random.key(1), shot)
    slow = analysis_for("force-out").noise(SKILLS["club"])(jax.random.key(1), shot)
    assert float(fast.x) == pytest.approx(0.1) and float(slow.x) != pytest.approx(0.1)


def test_fast_round_ends_and_scores_like_force_out():
    """ "A round is completed when all the rings of one player have been forced out ..." in
    Fast Play too."""
    s = stroke(fast_state(shooter=(0.1, -0.1)), moves={"g1": OUT, "g2": OUT}, config=FAST)
    assert s.over and s.winner == 0 and s.scores == (10, 0)
