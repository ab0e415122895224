"""KOOBA game machine: golden tests per rule clause of seed 003 (hand-made shot tags)."""

from __future__ import annotations

import pytest

from carromlab.errors import CarromlabError
from carromlab.games.kooba.machine import (
    KoobaConfig,
    apply_shot,
    declare_attack,
    lag_order,
    new_game,
)
from carromlab.games.kooba.rules import LOCK, ShotTags

EYE = ShotTags(eye=True)
INNER = ShotTags(eye=True, inner_eye=True)
MISS = ShotTags()
KOOBA = ShotTags(eye=True, inner_eye=True, kooba=True)
PENALTY = ShotTags(penalty=True)
CFG = KoobaConfig(n_players=2)


def turn(state, shots, config=CFG):
    for tags in shots:
        state = apply_shot(state, tags, config)
    return state


def test_lag_closest_aero_plays_first():
    """ "The closest to the KOOBA is player 1, the next closest is player 2 and so on."""
    assert lag_order([0.3, 0.05, 0.2]) == [1, 2, 0]


def test_three_shots_a_turn_then_the_next_player():
    """ "Each player takes three shots ... per turn"; then the next player (clockwise)."""
    s = turn(new_game(CFG), [MISS, MISS])
    assert s.player == 0 and s.shot == 2
    s = apply_shot(s, MISS, CFG)
    assert s.player == 1 and s.shot == 0


def test_each_eye_tag_advances_the_marker_after_the_three_shots():
    """ "Every shot that tags the eye is a score, and advances the shooter's marker one space
    ... The marker is moved after the player has finished all three shots."""
    s = turn(new_game(CFG), [EYE, EYE])
    assert s.markers == (0, 0) and s.pending == 2
    s = apply_shot(s, MISS, CFG)
    assert s.markers == (2, 0)


def test_the_end_of_the_run_then_the_lock_never_beyond():
    """ "When the shooter has reached the end of their run, the next score moves their marker
    to their lock"; a marker never passes the Lock."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (4, 0)})
    s = turn(s, [EYE, EYE, EYE])
    assert s.markers == (LOCK, 0)


def test_a_locked_run_cannot_be_attacked():
    """ "A locked run cannot be attacked."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (0, LOCK)})
    with pytest.raises(CarromlabError, match="locked"):
        declare_attack(s, 1, CFG)


def test_locked_players_score_only_by_tagging_the_kooba_and_win_at_the_round_end():
    """ "Once a player's run is locked they must tag the KOOBA to win": eye tags do nothing;
    the KOOBA tag wins once the round is complete."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (LOCK, 2)})
    s = turn(s, [EYE, KOOBA, MISS])
    assert s.markers[0] == LOCK and s.finishers == (0,) and not s.over
    s = turn(s, [EYE, MISS, MISS])  # player 1 cannot tie: not locked
    assert s.over and s.winner == 0


def test_later_players_in_the_round_may_tie_and_go_to_the_tie_breaker():
    """ "Players who have not had their turn yet in the round can continue to shoot to tie";
    two finishers play a tie breaker."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (LOCK, LOCK)})
    s = turn(s, [KOOBA, MISS, MISS, MISS, MISS, KOOBA])
    assert not s.over and s.tiebreak == (0, 1) and s.player == 0


def test_tie_breaker_the_only_one_to_tag_the_kooba_in_a_round_wins():
    """ "The first player to be the only one in a round to tag the KOOBA wins."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "tiebreak": (0, 1)})
    s = turn(s, [MISS, MISS, MISS, MISS, KOOBA, MISS])
    assert s.over and s.winner == 1


def test_tie_breaker_players_who_miss_when_another_tags_are_out():
    """ "If any player tags the KOOBA in the round, all other remaining players must also tag
    it to stay in the game"; nobody tagging keeps everyone in."""
    cfg = KoobaConfig(n_players=3)
    s = new_game(cfg)
    s = s.__class__(**{**vars(s), "tiebreak": (0, 1, 2)})
    s = turn(s, [KOOBA, MISS, MISS, KOOBA, MISS, MISS, MISS, MISS, MISS], cfg)
    assert not s.over and s.tiebreak == (0, 1)
    s = turn(s, [MISS] * 6, cfg)
    assert not s.over and s.tiebreak == (0, 1)


def test_ringing_the_kooba_in_the_tie_breaker_wins_at_once():
    """ "If any player rings the KOOBA during a tie breaker, they win and the game is over."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "tiebreak": (0, 1)})
    s = apply_shot(s, ShotTags(kooba=True, ring=True), CFG)
    assert s.over and s.winner == 0 and s.shot == 0


def test_attack_run_tags_send_the_marker_back_a_step_each():
    """Attack: "Run = send marker back one step for every tag"; once a run is tagged the
    remaining shots score."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (1, 4)})
    s = declare_attack(s, 1, CFG)
    s = turn(s, [MISS, ShotTags(runs=frozenset({1})), EYE])
    assert s.markers == (2, 3) and s.attacks_used == (True, False)


RUN_1 = ShotTags(runs=frozenset({1}))


def test_attack_every_run_tag_sends_the_marker_back_a_step():
    """ "Run = send marker back one step for every tag": every tag of the attack's three shots
    counts, not only the first (target on step 5, two run tags, a miss -> step 3)."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (0, 5)})
    s = declare_attack(s, 1, CFG)
    s = turn(s, [RUN_1, RUN_1, MISS])
    assert s.markers == (0, 3) and s.player == 1
    # three tags: three steps back
    s = declare_attack(
        s.__class__(**{**vars(s), "player": 0, "markers": (0, 5), "attacks_used": (False, False)}),
        1,
        CFG,
    )
    s = turn(s, [RUN_1, RUN_1, RUN_1])
    assert s.markers == (0, 2)


def test_attack_after_the_first_tag_a_shot_can_tag_and_score():
    """ "Once a run or marker is tagged, you can use the remaining shots to score": a later
    shot that tags the run and the Eye counts both; a later marker tag still sends it Home."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (1, 4)})
    s = declare_attack(s, 1, CFG)
    s = turn(s, [RUN_1, ShotTags(eye=True, runs=frozenset({1})), EYE])
    assert s.markers == (3, 2)
    s = s.__class__(**{**vars(s), "player": 0, "markers": (1, 4), "attacks_used": (False, False)})
    s = declare_attack(s, 1, CFG)
    s = turn(s, [RUN_1, ShotTags(markers=frozenset({1}), runs=frozenset({1})), EYE])
    assert s.markers == (2, 0)


def test_a_penalty_tag_after_a_run_tag_negates_the_attack():
    """ "Penalty zone = attack over, all attack shots negated": markers (1, 4), attack on
    player 1, shot 1 tags the run, shot 2 the penalty zone -> the target stays on 4."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (1, 4)})
    s = declare_attack(s, 1, CFG)
    s = turn(s, [RUN_1, PENALTY])
    assert s.markers == (1, 4) and s.player == 1 and s.shot == 0
    # the attacker's own scores after the tag are negated too
    s = s.__class__(**{**vars(s), "player": 0, "attacks_used": (False, False)})
    s = declare_attack(s, 1, CFG)
    s = turn(s, [ShotTags(markers=frozenset({1})), EYE, PENALTY])
    assert s.markers == (1, 4) and s.player == 1


def test_attack_marker_tag_sends_it_home():
    """ "Marker = send marker to home, use remaining shots to score"."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (0, 5)})
    s = declare_attack(s, 1, CFG)
    s = turn(s, [ShotTags(markers=frozenset({1}), runs=frozenset({1})), EYE, EYE])
    assert s.markers == (2, 0)


def test_a_penalty_tag_cancels_the_attack():
    """ "Penalty zone = attack over, all attack shots negated" (decision 2: the turn ends)."""
    s = new_game(CFG)
    s = s.__class__(**{**vars(s), "markers": (0, 5)})
    s = declare_attack(s, 1, CFG)
    s = turn(s, [MISS, PENALTY])
    assert s.markers == (0, 5) and s.player == 1 and s.attacks_used[0]


def test_one_attack_a_game_declared_before_the_turn():
    """ "Each player gets one attack turn per game"; it is declared before the turn."""
    s = declare_attack(new_game(CFG), 1, CFG)
    s = turn(s, [MISS, MISS, MISS, MISS, MISS, MISS])
    assert s.player == 0
    with pytest.raises(CarromlabError, match="used"):
        declare_attack(s, 1, CFG)
    s = apply_shot(s, MISS, CFG)
    with pytest.raises(CarromlabError, match="before the first shot"):
        declare_attack(s, 1, KoobaConfig(n_players=2))
    with pytest.raises(CarromlabError, match="switched off"):
        declare_attack(new_game(CFG), 1, KoobaConfig(n_players=2, attack=False))


def test_pro_only_the_inner_eye_scores_and_penalties_cost_a_step():
    """Pro: "Shoot from distance of 5 sticks", "Tag inner eye to score", "Tag penalty zone =
    move marker back one step" (not below Home)."""
    pro = KoobaConfig(n_players=2, pro=True)
    assert pro.sticks == 5 and CFG.sticks == 4
    s = turn(new_game(pro), [EYE, INNER, INNER], pro)
    assert s.markers[0] == 2
    s = turn(s, [MISS, MISS, MISS], pro)
    s = turn(s, [PENALTY, MISS, INNER], pro)
    assert s.markers[0] == 2
    s = turn(s, [PENALTY] * 3 + [MISS] * 3, pro)  # player 1: not below Home
    assert s.markers[0] == 2 and s.markers[1] == 0


def test_deuces_a_kooba_tag_counts_two():
    """Deuces mod: a KOOBA tag counts 2 (while the run is not locked)."""
    deuces = KoobaConfig(n_players=2, deuces=True)
    s = turn(new_game(deuces), [KOOBA, MISS, MISS], deuces)
    assert s.markers[0] == 2
    s = turn(new_game(CFG), [KOOBA, MISS, MISS])
    assert s.markers[0] == 1


def test_seats_and_players():
    """Player 1 starts in the North run, the others clockwise; 2-4 players."""
    assert KoobaConfig(n_players=3).seats == ("N", "E", "S")
    with pytest.raises(CarromlabError):
        KoobaConfig(n_players=5)


def test_max_rounds_ends_unfinished():
    """Decision 4: a game that reaches max_rounds ends without a winner."""
    cfg = KoobaConfig(n_players=2, max_rounds=1)
    s = turn(new_game(cfg), [MISS] * 6, cfg)
    assert s.over and s.unfinished and s.winner is None
    with pytest.raises(CarromlabError, match="over"):
        apply_shot(s, MISS, cfg)
