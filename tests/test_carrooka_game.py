"""Golden tests of the Carrooka game-state machine (``carromlab.games.carrooka.machine``) and the
striker's placement (``carromlab.games.carrooka.striker``): a small hand-built state + a
hand-made stroke outcome (capture codes, first piece, resting places) -> the exact resulting
state, one clause of seed 000 ("How to Play Carrooka") or one documented decision per test;
and a property test of the scores over random stroke outcomes."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from carromlab.equipment import COLOURS, CarrookaBoard
from carromlab.errors import CarromlabError
from carromlab.games.carrooka import striker as st
from carromlab.games.carrooka.machine import (
    CarrookaConfig,
    CarrookaState,
    apply_option,
    apply_stroke,
    is_carrookad,
    new_game,
    respot,
    shot_turns,
)
from carromlab.games.carrooka.rules import CarrookaTurn, pucks
from carromlab.games.carrooka.setups import carrooka_opening
from carromlab.position import Piece, Position

BOARD = CarrookaBoard()
SPOTS = BOARD.spots()
R_S = BOARD.striker_diameter / 2
ON = -1  # capture code: still on the board
OFF = 6  # capture code beyond the 6 pockets: left the board
REST = (0.3, 0.0)  # a resting place of the striker clear of every piece and spot
RED_XY = [(0.0, 0.0), (0.04, 0.0), (-0.04, 0.0), (0.0, 0.04), (0.0, -0.04)]
RED = CarrookaTurn("red")
SEQ_ORDER = list(COLOURS)  # yellow -> black


def reds(n: int) -> list[Piece]:
    return [Piece(f"r{i + 1}", "red", None, *RED_XY[i]) for i in range(n)]


def colours(*missing: str, **moved) -> list[Piece]:
    """The colours on their spots, without ``missing``; ``moved``: colour -> (x, y)."""
    return [Piece(c, c, None, *moved.get(c, SPOTS[c])) for c in COLOURS if c not in missing]


def state(pieces, striker=REST, **kw) -> CarrookaState:
    """A crafted state; ``striker``: where the striker lies (None: in hand, break line)."""
    ps = list(pieces)
    if striker is not None:
        ps.append(Piece("striker", "striker", None, *striker))
    return CarrookaState(position=Position("carrooka", tuple(ps), BOARD), **kw)


def stroke(
    s,
    turn,
    pocket=(),
    first=None,
    rest=REST,
    striker_in=None,
    off=(),
    moves=None,
    config=None,
    declared=(),
):
    """Apply one hand-made stroke: ``pocket`` ids (or id -> pocket) go down, ``off`` ids leave
    the board, ``first`` the first piece hit (None: nothing), the striker rests at ``rest`` (or
    falls in pocket ``striker_in``), ``moves`` id -> (x, y) new resting places."""
    ps = pucks(s.position)
    ids = [p.id for p in ps]
    pocket = pocket if isinstance(pocket, dict) else dict.fromkeys(pocket, 0)
    cap = np.full(1 + len(ps), ON, dtype=np.int32)
    if striker_in is not None:
        cap[0] = striker_in
    for pid, k in pocket.items():
        cap[1 + ids.index(pid)] = k
    for pid in off:
        cap[1 + ids.index(pid)] = OFF
    fp = -1 if first is None else 1 + ids.index(first)
    moves = moves or {}
    xy = np.array([rest] + [moves.get(p.id, (p.x, p.y)) for p in ps], dtype=float)
    return apply_stroke(s, turn, cap, fp, xy, config, declared)


def at(s: CarrookaState, pid: str) -> tuple[float, float]:
    p = s.position.by_id(pid)
    return float(p.x), float(p.y)


def on_board(s: CarrookaState) -> set[str]:
    return {p.id for p in pucks(s.position)}


def close(a, b, tol=1e-9) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= tol


def break_xy(angle_deg: float) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return BOARD.break_radius * math.cos(a), BOARD.break_radius * math.sin(a)


def history_sums(s: CarrookaState) -> tuple[int, int]:
    return tuple(sum(h.points for h in s.history if h.player == i) for i in (0, 1))


# ------------------------------------------------------------------ set-up, the red phase


def test_new_game_breaks_from_the_break_line_on_a_red():
    """Set-up: "Put the 15 red pieces in the centre triangle ... the 6 colour pieces in their
    matching colour spots"; "The first shot goes from the break line" (no striker on the
    board: in hand on the break line) and the first shot's goal is a red."""
    g = new_game()
    assert g.position.pieces == carrooka_opening().pieces
    assert g.reds() == 15 and all(at(g, c) == SPOTS[c] for c in COLOURS)
    assert g.striker is None
    assert (g.player, g.phase, g.scores, g.bonus, g.over) == (0, "red", (0, 0), False, False)
    assert shot_turns(g) == [RED]
    assert new_game(first=1).player == 1


def test_red_potted_scores_and_the_turn_goes_on_to_a_nomination():
    """Turns: "If successful, leave the red(s) in the pocket, and tally up your points. You
    get to shoot again, this time calling one of the 6 colour pieces"; after the first shot
    the striker is played from where it stopped."""
    g = stroke(new_game(), RED, pocket=["r1", "r2"], first="r1", rest=(0.25, -0.1))
    assert (g.player, g.phase, g.scores) == (0, "colour", (2, 0))
    assert g.reds() == 13 and not {"r1", "r2"} & on_board(g)
    assert g.striker == (0.25, -0.1)
    assert shot_turns(g) == [CarrookaTurn(c) for c in COLOURS]
    assert (g.last.points, g.last.foul, g.last.pocketed) == (2, False, ("r1", "r2"))


def test_red_missed_passes_the_turn_on_a_red():
    """Turns: "Your turn continues ... until you miss. Then it's your opponents turn, starting
    with red" - no foul, so no bonus shot."""
    s = stroke(state(reds(3) + colours()), RED, first="r2")
    assert (s.player, s.phase, s.scores, s.bonus, s.after_foul) == (1, "red", (0, 0), False, False)
    assert s.striker == REST  # the opponent plays from where it stopped
    assert s.turns == (1, 1)


# ------------------------------------------------------------------ the colour phase


def test_nominated_colour_potted_scores_and_is_respotted():
    """Colour phase: "If successful, count your points, then return the colour piece to its
    matching colour spot", then a red again."""
    s = state(reds(2) + colours(blue=(-0.25, -0.1)), phase="colour")
    s = stroke(s, CarrookaTurn("blue"), pocket=["blue"], first="blue")
    assert (s.player, s.phase, s.scores) == (0, "red", (5, 0))
    assert at(s, "blue") == SPOTS["blue"]
    assert s.last.respotted == ("blue",)
    assert shot_turns(s) == [RED]


def test_nominated_colour_missed_passes_the_turn_on_a_red():
    """Colour phase: a miss on the nomination ends the turn; the opponent starts with red."""
    s = state(reds(2) + colours(), phase="colour")
    s = stroke(s, CarrookaTurn("pink"), first="pink")
    assert (s.player, s.phase, s.scores, s.bonus) == (1, "red", (0, 0), False)


def test_only_the_open_targets_may_be_played():
    """Turns: in the red phase the target is a red (no nomination); a colour turn is refused."""
    with pytest.raises(CarromlabError, match="not open"):
        stroke(state(reds(2) + colours()), CarrookaTurn("black"), first="black")


# ------------------------------------------------------------------ re-spotting


def test_respot_on_a_spot_covered_by_a_red_goes_to_the_highest_free_spot():
    """Colour phase: "If the appropriate spot is covered, put the piece in the highest value
    spot available" - a red came to rest on yellow's spot; black's spot is free (black was
    knocked away), so yellow goes there."""
    s = state(reds(2) + colours(black=(0.0, -0.25)), phase="colour")
    s = stroke(
        s, CarrookaTurn("yellow"), pocket=["yellow"], first="yellow", moves={"r2": SPOTS["yellow"]}
    )
    assert s.scores == (2, 0)
    assert at(s, "yellow") == SPOTS["black"]


def test_respot_on_a_spot_covered_by_the_resting_striker():
    """ "If the appropriate spot is covered": the striker resting on green's own spot covers
    it; the highest-value free spot is pink's (black is on its own spot, pink was moved)."""
    s = state(reds(2) + colours(pink=(0.0, -0.25)), phase="colour")
    s = stroke(s, CarrookaTurn("green"), pocket=["green"], first="green", rest=SPOTS["green"])
    assert s.striker == SPOTS["green"]
    assert at(s, "green") == SPOTS["pink"]


def test_respot_with_every_spot_covered_goes_next_to_its_own_spot():
    """Decision 2: no free spot at all -> the nearest free point to the colour's own spot."""
    pos = Position("carrooka", tuple(colours("green", pink=(0.0, 0.3))), BOARD)
    pos = pos.replace(pieces=(*pos.pieces, Piece("r1", "red", None, *SPOTS["green"])))
    pos = pos.replace(pieces=(*pos.pieces, Piece("r2", "red", None, *SPOTS["pink"])))
    out = respot(pos, "green")
    g = at(CarrookaState(position=out), "green")
    d = math.hypot(g[0] - SPOTS["green"][0], g[1] - SPOTS["green"][1])
    assert BOARD.puck_diameter - 1e-9 <= d <= BOARD.puck_diameter + 0.001
    with pytest.raises(CarromlabError, match="already"):
        respot(out, "green")


def test_several_colours_respotted_in_one_foul():
    """Fouls: "colour pieces go back to their spot" - every colour pocketed on the foul, each
    on its own spot; the red pocketed with them stays out of play."""
    s = state(reds(3) + colours(yellow=(0.25, 0.1), brown=(-0.25, 0.1)))
    s = stroke(s, RED, pocket=["r1", "yellow", "brown"], first="r1")
    assert s.last.foul and s.scores == (0, 0)
    assert at(s, "yellow") == SPOTS["yellow"] and at(s, "brown") == SPOTS["brown"]
    assert "r1" not in on_board(s) and s.reds() == 2


def test_a_colour_keeps_its_own_free_spot_when_another_needs_a_spot():
    """ "Return the colour piece to its matching colour spot. If the appropriate spot is
    covered, put the piece in the highest value spot available": pink and black go down on a
    foul, a red lies on black's spot. Pink's own spot is free, so pink goes home; black takes
    the highest-value free spot left (blue's: blue was moved). (Before the fix black, re-spotted
    first, took pink's spot and pushed pink off the spots.)"""
    s = state(reds(2) + colours(blue=(0.0, -0.3)), phase="red")
    s = stroke(s, RED, pocket=["pink", "black"], first="r1", moves={"r2": SPOTS["black"]})
    assert at(s, "pink") == SPOTS["pink"]
    assert at(s, "black") == SPOTS["blue"]
    assert at(s, "r2") == SPOTS["black"]


# ------------------------------------------------------------------ the end sequence


def test_end_sequence_last_colour_then_yellow_to_black_staying_down():
    """ "Whoever pockets the last red will call one last colour (return it to the board if
    pocketed), then: the goal is to sink the remaining colour pieces in order, from lowest to
    highest value. This time they stay in the pocket. Once the black is pocketed, see who has
    won the game!" - one turn of player 0 from the last red to the black."""
    s = state(reds(1) + colours(), scores=(3, 20))
    s = stroke(s, RED, pocket=["r1"], first="r1")
    assert (s.phase, s.scores) == ("last_colour", (4, 20))
    assert shot_turns(s) == [CarrookaTurn(c) for c in COLOURS]
    s = stroke(s, CarrookaTurn("pink"), pocket=["pink"], first="pink")
    assert at(s, "pink") == SPOTS["pink"]  # the last colour is re-spotted
    assert (s.phase, s.sequence_on, s.scores) == ("sequence", "yellow", (10, 20))
    for k, c in enumerate(SEQ_ORDER):
        assert shot_turns(s) == [CarrookaTurn(c)]
        assert not s.over
        s = stroke(s, CarrookaTurn(c), pocket=[c], first=c)
        assert c not in on_board(s)  # stays down
        assert s.player == 0
        if k < 5:
            assert s.sequence_on == SEQ_ORDER[k + 1]
    assert on_board(s) == set()
    assert s.scores == (10 + 27, 20)
    assert (s.over, s.winner) == (True, 0)
    assert shot_turns(s) == []
    with pytest.raises(CarromlabError, match="over"):
        apply_stroke(s, CarrookaTurn("black"), np.array([ON]), -1, np.array([REST]))


def test_winner_by_score_not_by_potting_the_black():
    """ "Once the black is pocketed, see who has won the game" - the higher score wins, whoever
    potted the black."""
    s = state(colours(*COLOURS[:5]), phase="sequence", sequence_on="black", scores=(10, 30))
    s = stroke(s, CarrookaTurn("black"), pocket=["black"], first="black")
    assert s.scores == (17, 30)
    assert (s.over, s.winner) == (True, 1)


def test_miss_on_the_last_colour_starts_the_sequence_for_the_opponent():
    """Decision 1: a miss on the colour after the last red starts the sequence (yellow) for
    the next shot."""
    s = state(colours(), phase="last_colour")
    s = stroke(s, CarrookaTurn("blue"), first="blue")
    assert (s.player, s.phase, s.sequence_on) == (1, "sequence", "yellow")


def test_miss_in_the_sequence_keeps_the_same_colour_on():
    """Decision 1: in the sequence a miss passes the turn with the same colour on."""
    s = state(colours("yellow"), phase="sequence", sequence_on="green")
    s = stroke(s, CarrookaTurn("green"), first="green")
    assert (s.player, s.phase, s.sequence_on) == (1, "sequence", "green")
    assert shot_turns(s) == [CarrookaTurn("green")]


def test_foul_in_the_sequence_respots_the_colour_on():
    """Decision 6 / fouls: "colour pieces go back to their spot" - also in the sequence; the
    same colour stays on and the opponent gets the bonus shot."""
    s = state(colours("yellow", green=(0.25, 0.1)), phase="sequence", sequence_on="green")
    s = stroke(s, CarrookaTurn("green"), pocket=["green"], first="green", striker_in=2)
    assert s.last.foul and s.scores == (0, 0)
    assert at(s, "green") == SPOTS["green"]
    assert (s.player, s.phase, s.sequence_on, s.bonus) == (1, "sequence", "green", True)


def test_tie_respots_the_black_and_the_other_player_plays_first():
    """Decision 5 (tie="respot_black", snooker's convention): a tie after the black re-spots
    the black; the player who did not pot it plays first from the break line; the next legal
    pot of the black wins."""
    s = state(colours(*COLOURS[:5]), phase="sequence", sequence_on="black", scores=(20, 27))
    s = stroke(s, CarrookaTurn("black"), pocket=["black"], first="black")
    assert s.scores == (27, 27) and not s.over
    assert (s.phase, s.player, s.bonus) == ("black_respotted", 1, False)
    assert at(s, "black") == SPOTS["black"] and s.striker is None
    assert shot_turns(s) == [CarrookaTurn("black")]
    miss = stroke(s, CarrookaTurn("black"), first="black")  # a miss: the other's turn
    assert (miss.player, miss.over, miss.bonus) == (0, False, False)
    win = stroke(miss, CarrookaTurn("black"), pocket=["black"], first="black")
    assert (win.over, win.winner, win.scores) == (True, 0, (34, 27))


def test_foul_on_the_respotted_black_loses():
    """Decision 5: on the re-spotted black a foul loses the game (no bonus shots)."""
    s = state(colours(*COLOURS[:5]), phase="sequence", sequence_on="black", scores=(20, 27))
    s = stroke(s, CarrookaTurn("black"), pocket=["black"], first="black")
    lost = stroke(s, CarrookaTurn("black"), first=None)
    assert (lost.over, lost.winner) == (True, 0)


def test_tie_as_a_draw():
    """Decision 5, option tie="draw": a tied game ends as a draw (winner None)."""
    s = state(colours(*COLOURS[:5]), phase="sequence", sequence_on="black", scores=(20, 27))
    s = stroke(
        s,
        CarrookaTurn("black"),
        pocket=["black"],
        first="black",
        config=CarrookaConfig(tie="draw"),
    )
    assert (s.over, s.winner, s.scores) == (True, None, (27, 27))


# ------------------------------------------------------------------ fouls


def test_foul_pocketed_striker():
    """Fouls: "Pocketing the striker ... your turn ends immediately, and you gain no points
    for a foul shot. ... reds stay out of play - colour pieces go back to their spot - the
    striker is returned to the break line. And, your opponent gets a bonus shot." The striker
    goes to the break-line point towards the pocket it fell in (decision 2 of the striker)."""
    s = state(reds(3) + colours(), phase="red", scores=(4, 1))
    s = stroke(s, RED, pocket=["r1", "r2"], first="r1", striker_in=2)
    assert s.last.foul and s.last.points == 0
    assert s.scores == (4, 1)
    assert not {"r1", "r2"} & on_board(s) and s.reds() == 1  # the reds stay out
    px, py = BOARD.pocket_centres()[2]
    assert close(s.striker, break_xy(math.degrees(math.atan2(py, px))))
    assert (s.player, s.phase, s.bonus, s.after_foul) == (1, "red", True, True)


def test_interference_is_a_declared_foul_with_the_foul_penalty():
    """Fouls: "Interference (shaking the board excessively, hitting pieces with your hand)"
    and "If you foul: your turn ends immediately, and you gain no points for a foul shot ...
    reds stay out of play - colour pieces go back to their spot - the striker is returned to
    the break line. And, your opponent gets a bonus shot." Decision 7: the caller declares it
    on the stroke; a stroke that would have potted a red and a nominated colour legally then
    scores nothing and ends the turn."""
    s = state(reds(3) + colours(blue=(-0.25, -0.1)), phase="red")
    wrong = stroke(s, RED, pocket=["r1", "yellow"], first="r1", rest=(0.2, 0.1))
    assert wrong.last.foul and wrong.player == 1  # (pocketing a colour on a red is a foul too)
    legal = stroke(s, RED, pocket=["r1"], first="r1", rest=(0.2, 0.1))
    assert not legal.last.foul and legal.scores == (1, 0) and legal.player == 0
    spoilt = stroke(s, RED, pocket=["r1"], first="r1", rest=(0.2, 0.1), declared=("interference",))
    last = spoilt.last
    assert last.foul and last.points == 0 and not last.potted
    assert last.declared == ("interference",)
    assert spoilt.scores == (0, 0) and "r1" not in on_board(spoilt)  # the red stays out
    assert (spoilt.player, spoilt.bonus, spoilt.after_foul) == (1, True, True)
    assert math.isclose(math.hypot(*spoilt.striker), BOARD.break_radius, abs_tol=1e-9)
    # a colour nominated and potted, spoilt: back on its spot, no points
    c = state(reds(2) + colours(blue=(-0.25, -0.1)), phase="colour")
    c = stroke(c, CarrookaTurn("blue"), pocket=["blue"], first="blue", declared=["interference"])
    assert c.scores == (0, 0) and at(c, "blue") == SPOTS["blue"] and c.player == 1
    # through the machine's one signature, and a kind it does not know is refused
    from carromlab.games.carrooka.machine import apply
    from carromlab.rules.interfaces import StrokeOutcome

    xy = np.array([(0.2, 0.1)] + [(p.x, p.y) for p in pucks(s.position)])
    cap = np.full(len(xy), ON, np.int32)
    out = StrokeOutcome(cap, xy, first_piece=1, turn=RED, declared=("interference",))
    assert apply(s, out).last.foul
    with pytest.raises(CarromlabError, match="'shaking' is not a Carrooka foul"):
        apply(s, dataclasses.replace(out, declared=("shaking",)))


def test_foul_wrong_piece_first():
    """Fouls: "Hitting the wrong piece first" - the turn ends with nothing scored, the colour
    that went down is re-spotted, the striker goes to the break line at the point nearest
    where it stopped, the opponent gets the bonus shot."""
    s = state(reds(3) + colours(green=(0.2, 0.1)))
    s = stroke(s, RED, pocket=["green", "r3"], first="green", rest=(0.0, 0.3))
    assert s.last.foul and s.scores == (0, 0)
    assert at(s, "green") == SPOTS["green"] and "r3" not in on_board(s)
    assert close(s.striker, break_xy(90.0))
    assert (s.player, s.bonus) == (1, True)


def test_foul_no_contact_in_the_colour_phase():
    """Fouls: "Not hitting anything" - the turn ends, the opponent is on a red with a bonus
    shot; the striker goes to the break line."""
    s = state(reds(3) + colours(), phase="colour", scores=(6, 0))
    s = stroke(s, CarrookaTurn("black"), first=None, rest=(-0.3, 0.0))
    assert s.scores == (6, 0)
    assert close(s.striker, break_xy(180.0))
    assert (s.player, s.phase, s.bonus) == (1, "red", True)


def test_foul_taking_the_last_red_starts_the_sequence():
    """Decision 1: reds running out on a foul start the sequence (yellow) for the opponent."""
    s = state(reds(1) + colours())
    s = stroke(s, RED, pocket=["r1"], first="r1", striker_in=0)
    assert s.reds() == 0 and s.scores == (0, 0)
    assert (s.player, s.phase, s.sequence_on, s.bonus) == (1, "sequence", "yellow", True)


def test_foul_break_point_covered_goes_to_the_nearest_free_point():
    """Striker decision 2: if a piece covers the break-line point, the striker goes to the
    nearest free point along the line."""
    s = state([Piece("r1", "red", None, *break_xy(0.0)), *colours()])
    s = stroke(s, RED, first=None, rest=REST)
    x, y = s.striker
    assert math.isclose(math.hypot(x, y), BOARD.break_radius)
    assert st.free_of_pucks(s.position, x, y)[0]
    assert 0 < abs(math.degrees(math.atan2(y, x))) < 25


# ------------------------------------------------------------------ the bonus shot


def after_foul(n_reds=3, **kw) -> CarrookaState:
    """Player 1 to play after player 0's foul (striker on the break line)."""
    kw.setdefault("player", 1)
    return state(
        reds(n_reds) + colours(),
        striker=break_xy(-90.0),
        bonus=True,
        after_foul=True,
        turns=(1, 1),
        **kw,
    )


def test_bonus_shot_kept_while_potting_then_used_on_the_first_miss():
    """Bonus shot: "They play as normal, but once they miss, they get to shoot again at
    whatever they were just trying to pocket. If they score on a bonus shot, their turn
    continues" and "You must stick to your nomination with your bonus shot" - from where the
    striker stopped."""
    s = stroke(after_foul(), RED, pocket=["r1"], first="r1")  # pots: plays on, bonus kept
    assert (s.player, s.phase, s.bonus, s.again) == (1, "colour", True, None)
    s = stroke(s, CarrookaTurn("brown"), first="brown", rest=(0.1, -0.3))  # the first miss
    assert (s.player, s.phase, s.bonus) == (1, "colour", False)
    assert s.again == CarrookaTurn("brown") and shot_turns(s) == [CarrookaTurn("brown")]
    assert s.striker == (0.1, -0.3)
    s = stroke(s, CarrookaTurn("brown"), pocket=["brown"], first="brown")  # scores on it
    assert s.last.bonus_shot and s.last.points == 4
    assert (s.player, s.phase, s.again, s.scores) == (1, "red", None, (0, 5))
    s = stroke(s, RED, first="r2")  # the next miss ends the turn: one bonus shot a turn
    assert (s.player, s.bonus, s.again) == (0, False, None)


def test_miss_on_the_bonus_shot_ends_the_turn():
    """Bonus shot: a miss on the bonus re-shot ends the turn; nobody holds a bonus."""
    s = stroke(after_foul(), RED, first="r1")
    assert s.again == RED and s.player == 1
    s = stroke(s, RED, first="r1")
    assert s.last.bonus_shot
    assert (s.player, s.phase, s.bonus, s.again) == (0, "red", False, None)


def test_foul_on_the_bonus_shot_gives_the_bonus_to_the_opponent():
    """Bonus shot: "If you foul, your turn ends immediately - lose your bonus shot"; the foul
    gives the opponent a bonus shot in turn."""
    s = stroke(after_foul(), RED, first="r1")
    s = stroke(s, RED, first=None)
    assert s.last.foul
    assert (s.player, s.bonus, s.again, s.after_foul) == (0, True, None, True)


def test_no_bonus_shot_when_the_option_is_off():
    """Rule option CarrookaConfig(bonus_shot=False): a foul gives the opponent no bonus,
    so their first miss passes the turn."""
    off = CarrookaConfig(bonus_shot=False)
    s = stroke(state(reds(3) + colours()), RED, first=None, config=off)
    assert (s.player, s.bonus) == (1, False)
    s = stroke(s, RED, first="r1", config=off)
    assert (s.player, s.again) == (0, None)


# ------------------------------------------------------------------ the margin line


def test_striker_over_the_margin_line_is_moved_radially_in():
    """Margin line: "If the striker lands over the margin line, you are allowed to move it the
    shortest distance out from the railing / pocket, to where it is still touching the margin"
    - radially inward until its edge touches the line (decision 3 of the striker)."""
    s = state(reds(3) + colours())
    a = math.radians(30.0)
    rest = (0.37 * math.cos(a), 0.37 * math.sin(a))
    s = stroke(s, RED, pocket=["r1"], first="r1", rest=rest)
    x, y = s.striker
    assert math.isclose(math.hypot(x, y), BOARD.margin_radius - R_S, abs_tol=1e-12)
    assert math.isclose(math.atan2(y, x), a, abs_tol=1e-12)


def test_striker_inside_the_margin_line_is_left_alone():
    """Margin line: a striker whose disc does not cross the line stays where it stopped (as
    does one over the line with the option margin_relocation=False)."""
    inside = (BOARD.margin_radius - R_S - 0.001, 0.0)
    s = stroke(state(reds(3) + colours()), RED, pocket=["r1"], first="r1", rest=inside)
    assert s.striker == inside
    over = (0.0, -0.37)
    keep = CarrookaConfig(margin_relocation=False)
    s = stroke(state(reds(3) + colours()), RED, pocket=["r1"], first="r1", rest=over, config=keep)
    assert s.striker == over


def test_margin_relocation_steps_past_a_piece_in_the_way():
    """Striker decision 3: a piece at the touching place pushes the striker further in, in
    1 mm steps, to the first free place on the same ray."""
    rho = BOARD.margin_radius - R_S
    pos = Position("carrooka", (Piece("r1", "red", None, 0.0, -rho),), BOARD)
    x, y = st.margin_relocation(pos, 0.0, -0.37)
    assert x == pytest.approx(0.0, abs=1e-12) and y > -rho
    assert st.free_of_pucks(pos, x, y)[0]
    assert not st.free_of_pucks(pos, x, y - 0.001)[0]


# ------------------------------------------------------------------ Carrooka'd


def snookered(**kw) -> CarrookaState:
    """Player 0 fouls (no contact, striker stops at (0.3, 0)); the striker goes to the
    break-line point (0.12, 0), where the only red (at the centre) is hidden behind the
    yellow."""
    s = state([Piece("r1", "red", None, 0.0, 0.0), *colours(yellow=(0.06, 0.0))], **kw)
    return stroke(s, RED, first=None, rest=(0.3, 0.0))


def test_carrookad_after_a_foul_without_a_clear_line():
    """ "When you don't have a clear line at what you are supposed to hit, this is called being
    Carrooka'd ... If a Carrooka situation occurs as the result of a foul, the shooting player
    has three options"."""
    s = snookered()
    assert close(s.striker, break_xy(0.0))
    assert (s.player, s.after_foul, s.bonus) == (1, True, True)
    assert is_carrookad(s)


def test_not_carrookad_with_a_clear_line_or_without_a_foul():
    """Carrooka'd needs both: a foul just before ("as the result of a foul"; "in normal play,
    it's on the player to get out of the situation") and no clear line; no option applies
    otherwise."""
    no_foul = dataclasses.replace(snookered(), after_foul=False)
    assert not is_carrookad(no_foul)
    with pytest.raises(CarromlabError, match="not Carrooka'd"):
        apply_option(no_foul, "pass")
    clear = stroke(state(reds(1) + colours()), RED, first=None, rest=(0.3, 0.0))
    assert clear.after_foul and not is_carrookad(clear)


def test_option_break_line_keeps_the_bonus():
    """Option "Return to Break Line: Move the striker to the break line to where you have a
    line at the appropriate piece. NOTE that you keep your bonus shot." - refused at a point
    with no line."""
    s = snookered()
    with pytest.raises(CarromlabError, match="no clear line"):
        apply_option(s, "break_line", 0.0)
    t = apply_option(s, "break_line", 90.0)
    assert close(t.striker, break_xy(90.0))
    assert (t.player, t.bonus, t.after_foul) == (1, True, False)
    assert shot_turns(t) == [RED]


def test_option_free_counter_scores_the_value_of_the_piece_on():
    """Option "Free Counter: Nominate any piece to act as the 'colour on'. Hitting this piece
    counts as a valid shot, and pocketing this piece counts for as many points as whatever you
    were supposed to hit. NOTE that you keep your bonus shot." - the yellow for a red: 1
    point, and the yellow is re-spotted."""
    t = apply_option(snookered(), "counter", counter="yellow")
    assert shot_turns(t) == [CarrookaTurn("red", "yellow")]
    assert t.bonus
    u = stroke(t, CarrookaTurn("red", "yellow"), pocket=["yellow"], first="yellow")
    assert u.last.points == 1 and u.scores == (0, 1)
    assert at(u, "yellow") == SPOTS["yellow"]
    assert (u.player, u.phase, u.bonus, u.counter) == (1, "colour", True, None)
    with pytest.raises(CarromlabError, match="not a piece"):
        apply_option(snookered(), "counter", counter="ghost")


def test_free_counter_carries_into_the_bonus_shot():
    """Free counter: "The free counter only applies for that shot - however, it does carry
    over into your bonus shot, if you end up using it immediately"."""
    t = apply_option(snookered(), "counter", counter="yellow")
    u = stroke(t, CarrookaTurn("red", "yellow"), first="yellow")  # a miss
    assert u.again == CarrookaTurn("red", "yellow") and u.player == 1
    assert shot_turns(u) == [CarrookaTurn("red", "yellow")]
    v = stroke(u, CarrookaTurn("red", "yellow"), first="yellow")  # missed again
    assert (v.player, v.counter) == (0, None) and shot_turns(v) == [RED]


def test_free_counter_in_the_sequence_is_not_left_down():
    """Free counter in the sequence: the black as counter for the green scores green's 3;
    the colours "stay in the pocket" only when taken in order, so the black is re-spotted and
    the green stays on. (Before the fix the black stayed down and the game could end without
    it.)"""
    s = state(
        colours("yellow"),
        striker=break_xy(0.0),
        phase="sequence",
        sequence_on="green",
        player=1,
        bonus=True,
        after_foul=True,
    )
    t = dataclasses.replace(s, counter="black", after_foul=False)  # the option, taken
    u = stroke(t, CarrookaTurn("green", "black"), pocket=["black"], first="black")
    assert u.last.points == 3 and u.scores == (0, 3)
    assert at(u, "black") == SPOTS["black"]
    assert (u.phase, u.sequence_on) == ("sequence", "green")


def test_option_pass_gives_the_position_to_the_fouler_without_a_bonus():
    """Option "Skip your Turn: Pass the situation to your opponent, who has to play the shot as
    it is (no bonus shots for them)"."""
    s = snookered()
    t = apply_option(s, "pass")
    assert (t.player, t.bonus, t.after_foul) == (0, False, False)
    assert t.striker == s.striker and t.position == s.position
    assert not is_carrookad(t)
    u = stroke(t, RED, first="r1")  # their miss passes the turn: no bonus
    assert (u.player, u.again) == (1, None)


# ------------------------------------------------------------------ the scores


def test_scores_are_the_sum_of_the_recorded_stroke_points():
    """Scoring: a player's score is the sum of the points of their strokes in the history (a
    foul records 0), over random games of random stroke outcomes."""
    rng = np.random.default_rng(7)
    for game in range(12):
        s = state(reds(5) + colours(), striker=None, player=game % 2)
        for _ in range(400):
            if s.over:
                break
            if is_carrookad(s):
                option = ["pass", "counter"][rng.integers(2)]
                ids = [p.id for p in pucks(s.position)]
                s = apply_option(s, option, counter=ids[rng.integers(len(ids))])
            turns = shot_turns(s)
            turn = turns[rng.integers(len(turns))]
            ps = pucks(s.position)
            on = [k for k, p in enumerate(ps) if p.id == turn.counter or p.kind == turn.on]
            u = rng.random()
            if u < 0.1:
                first = None
            elif u < 0.8 and on:
                first = ps[on[rng.integers(len(on))]].id
            else:
                first = ps[rng.integers(len(ps))].id
            pocket = {p.id: int(rng.integers(6)) for p in ps if rng.random() < 0.2}
            off = [p.id for p in ps if p.id not in pocket and rng.random() < 0.01]
            a = rng.uniform(-math.pi, math.pi)
            s = stroke(
                s,
                turn,
                pocket=pocket,
                first=first,
                off=off,
                rest=(0.3 * math.cos(a), 0.3 * math.sin(a)),
                striker_in=int(rng.integers(6)) if rng.random() < 0.05 else None,
            )
            assert s.scores == history_sums(s)
            assert s.reds() <= 5 and len(s.history) == s.strokes
        assert s.over, game
