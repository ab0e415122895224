"""Golden tests of the Carrooka stroke evaluation (``carromlab.games.carrooka.rules``): a small
hand-built position + hand-made kernel outcome rows (capture codes, first piece) -> the exact
verdict, one rule clause of seed 000 ("How to Play Carrooka") per test. Pure numpy, no kernel."""

from __future__ import annotations

import numpy as np
import pytest

from carromlab.equipment import COLOURS, CarrookaBoard
from carromlab.errors import CarromlabError
from carromlab.games.carrooka.rules import (
    CarrookaRules,
    CarrookaScoring,
    CarrookaTurn,
    evaluate_carrooka,
    pucks,
    striker_spot,
)
from carromlab.position import Piece, Position

BOARD = CarrookaBoard()
SPOTS = BOARD.spots()
ON = -1  # capture code: still on the board
OFF = 6  # capture code beyond the 6 pockets: left the board
NONE = -1  # first_piece: the striker touched no piece

REDS = [Piece(f"r{i + 1}", "red", None, x, 0.0) for i, x in enumerate((-0.04, 0.0, 0.04))]
COLOUR_PIECES = [Piece(c, c, None, *SPOTS[c]) for c in COLOURS]
# the striker piece (where the striker lies) is listed first on purpose: it is not a puck
POS = Position(
    "carrooka",
    (Piece("striker", "striker", None, 0.0, -0.3), *REDS, *COLOUR_PIECES),
    BOARD,
    name="three-reds",
)
IDS = [p.id for p in pucks(POS)]


def disc(pid: str) -> int:
    """Kernel disc index of a puck (disc 0 is the striker)."""
    return 1 + IDS.index(pid)


def row(pocket=(), striker=ON, off=()) -> np.ndarray:
    """One capture row: ``pocket`` ids into pocket 0, ``off`` ids off the board."""
    cap = np.full(1 + len(IDS), ON, dtype=np.int32)
    cap[0] = striker
    for pid in pocket:
        cap[disc(pid)] = 0
    for pid in off:
        cap[disc(pid)] = OFF
    return cap


def verdict(turn, pocket=(), first=None, striker=ON, off=(), scoring=None) -> dict:
    """The evaluation of one stroke, as plain Python values."""
    fp = NONE if first is None else disc(first)
    out = evaluate_carrooka(row(pocket, striker, off)[None], np.array([fp]), POS, turn, scoring)
    return {k: v[0].item() for k, v in out.items()}


def fouls(v: dict) -> set[str]:
    return {k.removeprefix("foul.") for k, x in v.items() if k.startswith("foul.") and x}


RED = CarrookaTurn("red")


# ------------------------------------------------------------------ the kernel's view


def test_pucks_are_the_pieces_without_the_striker():
    """Kernel convention: disc 0 is the striker, discs 1.. the position's pieces without its
    ``striker`` piece, in order; the striker piece only marks where the striker lies (seed:
    "after that, shoot from wherever the striker is on the board")."""
    assert IDS == ["r1", "r2", "r3", *COLOURS]
    assert striker_spot(POS) == (0.0, -0.3)
    assert striker_spot(POS.replace(pieces=pucks(POS))) is None
    two = POS.replace(pieces=(*POS.pieces, Piece("s2", "striker", None, 0.1, -0.3)))
    with pytest.raises(CarromlabError, match="strikers"):
        striker_spot(two)


def test_outcome_width_must_match_the_pucks():
    """The outcome is [B, 1 + pucks]; a row of the wrong width is refused."""
    with pytest.raises(CarromlabError, match="pucks and the striker"):
        evaluate_carrooka(np.full((1, len(IDS)), ON), np.array([1]), POS, RED)


def test_turn_must_be_red_or_a_colour():
    """The piece on is a red or one of the six colours (seed: "calling one of the 6 colour
    pieces")."""
    with pytest.raises(CarromlabError, match="piece on"):
        CarrookaTurn("white")
    assert [CarrookaTurn(c).value for c in ("red", *COLOURS)] == [1, 2, 3, 4, 5, 6, 7]


# ------------------------------------------------------------------ the red phase


def test_red_hit_first_and_potted_scores_one():
    """Red phase: "You MUST hit a red piece with the striker first. If successful, leave the
    red(s) in the pocket, and tally up your points" - a red is worth 1 and the turn goes on."""
    v = verdict(RED, pocket=["r2"], first="r2")
    assert v["foul"] is False and fouls(v) == set()
    assert v["hit_on"] and v["potted"] and v["continues"]
    assert v["points"] == 1.0
    assert v["reds_pocketed"] == 1 and v["colours_pocketed"] == 0
    assert v["pieces_on_pocketed"] == 1


def test_every_red_pocketed_counts_one():
    """Red phase: "Put the 15 red pieces ... these are worth 1 point each" - every red
    pocketed on a legal red shot counts, not only the one hit."""
    v = verdict(RED, pocket=["r1", "r2", "r3"], first="r1")
    assert not v["foul"]
    assert v["points"] == 3.0
    assert v["reds_pocketed"] == 3 and v["pieces_on_pocketed"] == 3


def test_red_hit_first_nothing_potted_is_a_legal_miss():
    """ "Your turn continues ... until you miss": hitting a red first and pocketing nothing is
    no foul, scores 0 and does not continue the turn."""
    v = verdict(RED, first="r3")
    assert v["hit_on"] and not v["foul"]
    assert not v["potted"] and not v["continues"]
    assert v["points"] == 0.0


def test_colour_first_on_a_red_shot_is_a_foul_scoring_nothing():
    """Fouls: "Hitting the wrong piece first" - a colour touched before any red is a foul,
    and "you gain no points for a foul shot" even if reds went down."""
    v = verdict(RED, pocket=["r1"], first="blue")
    assert v["foul"] and fouls(v) == {"wrong_first"}
    assert not v["hit_on"] and not v["potted"] and not v["continues"]
    assert v["points"] == 0.0
    assert v["pieces_on_pocketed"] == 0
    assert v["reds_pocketed"] == 1  # it went down all the same (it stays out: the game's job)


def test_hitting_nothing_is_a_foul():
    """Fouls: "Not hitting anything"."""
    v = verdict(RED, first=None)
    assert v["foul"] and fouls(v) == {"no_contact"}
    assert not v["hit_on"]
    assert v["points"] == 0.0


def test_colour_pocketed_on_a_red_shot_is_a_foul():
    """Fouls: "Pocketing the wrong piece" - on a red shot a colour going down is a foul, even
    with a red hit first and a red pocketed too (no points)."""
    v = verdict(RED, pocket=["r1", "pink"], first="r1")
    assert v["foul"] and fouls(v) == {"wrong_pocketed"}
    assert v["hit_on"]
    assert v["points"] == 0.0
    assert v["reds_pocketed"] == 1 and v["colours_pocketed"] == 1


# ------------------------------------------------------------------ the colour phase


@pytest.mark.parametrize("colour, value", list(zip(COLOURS, (2, 3, 4, 5, 6, 7))))
def test_nominated_colour_scores_its_value(colour, value):
    """Colour phase: "Whichever one you call, you must hit that piece first, and you must
    pocket only that piece. If successful, count your points" - yellow 2, green 3, brown 4,
    blue 5, pink 6, black 7."""
    v = verdict(CarrookaTurn(colour), pocket=[colour], first=colour)
    assert not v["foul"] and v["potted"] and v["continues"]
    assert v["points"] == float(value)
    assert v["colours_pocketed"] == 1 and v["pieces_on_pocketed"] == 1


def test_colour_shot_must_hit_the_nomination_first():
    """Colour phase: "you must hit that piece first" - hitting another colour (or a red)
    first is a foul, even if the nominated colour drops."""
    for first in ("black", "r2"):
        v = verdict(CarrookaTurn("green"), pocket=["green"], first=first)
        assert v["foul"] and fouls(v) == {"wrong_first"}, first
        assert v["points"] == 0.0


def test_colour_shot_must_pocket_only_the_nomination():
    """Colour phase: "you must pocket only that piece" - the nomination plus another colour,
    or plus a red, is a foul scoring nothing."""
    for extra in ("yellow", "r1"):
        v = verdict(CarrookaTurn("blue"), pocket=["blue", extra], first="blue")
        assert v["foul"] and fouls(v) == {"wrong_pocketed"}, extra
        assert v["points"] == 0.0 and not v["continues"]


def test_colour_shot_hit_but_not_potted_is_a_legal_miss():
    """Colour phase: the nomination hit first, nothing pocketed - a miss, no foul."""
    v = verdict(CarrookaTurn("black"), first="black")
    assert v["hit_on"] and not v["foul"] and not v["continues"]
    assert v["points"] == 0.0


# ------------------------------------------------------------------ other fouls


def test_pocketed_striker_is_a_foul_even_with_a_good_pot():
    """Fouls: "Pocketing the striker" - no points for the red that went down with it."""
    v = verdict(RED, pocket=["r1"], first="r1", striker=3)
    assert v["foul"] and fouls(v) == {"striker_pocketed"}
    assert v["striker_pocketed"]
    assert v["points"] == 0.0 and not v["potted"]


def test_piece_off_the_board_is_a_foul():
    """Fouls: "Removing pieces from the board (flying out of play)" - a capture code past the
    pockets; the piece is not counted as pocketed, and the shot scores nothing."""
    v = verdict(RED, pocket=["r1"], first="r1", off=["r2"])
    assert v["foul"] and fouls(v) == {"off_board"}
    assert v["reds_pocketed"] == 1  # r2 left the board, it was not pocketed
    assert v["points"] == 0.0
    s = verdict(RED, pocket=["r1"], first="r1", striker=OFF)
    assert s["foul"] and fouls(s) == {"off_board"} and not s["striker_pocketed"]


def test_several_fouls_at_once_are_all_reported():
    """A stroke may commit several fouls; each kind is flagged, the stroke still scores 0."""
    v = verdict(RED, pocket=["yellow"], first="yellow", striker=1)
    assert fouls(v) == {"wrong_first", "wrong_pocketed", "striker_pocketed"}
    assert v["points"] == 0.0


def test_foul_price_is_the_analysis_layers_weight():
    """Decision 3: a foul is worth 0 to the shooter by the rules; ``CarrookaScoring.foul``
    adds an analysis price for the opponent's bonus shot (legal strokes are untouched)."""
    priced = CarrookaScoring(foul=-2.5)
    assert verdict(RED, first=None, scoring=priced)["points"] == -2.5
    assert verdict(RED, pocket=["r1"], first="r1", scoring=priced)["points"] == 1.0


# ------------------------------------------------------------------ the free counter


def test_free_counter_in_the_red_phase_scores_a_reds_value():
    """Carrooka'd, free counter: "Nominate any piece to act as the 'colour on'. Hitting this
    piece counts as a valid shot, and pocketing this piece counts for as many points as
    whatever you were supposed to hit" - the black as counter for a red scores 1."""
    turn = CarrookaTurn("red", counter="black")
    v = verdict(turn, pocket=["black"], first="black")
    assert not v["foul"] and v["hit_on"] and v["potted"]
    assert v["points"] == 1.0
    # decision 2: in the red phase reds may go down with the counter, each worth 1
    v2 = verdict(turn, pocket=["black", "r1"], first="black")
    assert not v2["foul"] and v2["points"] == 2.0
    # the counter stands in for the piece on: a red first is now the wrong first piece
    v3 = verdict(turn, pocket=["r1"], first="r1")
    assert fouls(v3) == {"wrong_first"}


def test_free_counter_in_a_colour_phase_scores_the_colours_value():
    """Free counter: a red nominated as counter for the green scores green's 3; another
    piece going down with it is a foul (decision 2: only the piece on may go down)."""
    turn = CarrookaTurn("green", counter="r3")
    v = verdict(turn, pocket=["r3"], first="r3")
    assert not v["foul"] and v["points"] == 3.0
    assert verdict(turn, pocket=["green"], first="r3")["foul"]
    with pytest.raises(CarromlabError, match="not a piece"):
        verdict(CarrookaTurn("red", counter="ghost"), first="r1")


# ------------------------------------------------------------------ batches


def test_batch_rows_are_judged_independently():
    """The evaluation is vectorised: each row of a batch is a separate stroke (the same
    verdicts as one at a time), and ``CarrookaRules.evaluate`` takes the outcome mapping."""
    caps = np.stack([row(["r1"]), row(["r1", "pink"]), row(), row(["r2"], striker=2)])
    firsts = np.array([disc("r1"), disc("r1"), NONE, disc("r2")])
    out = CarrookaRules().evaluate(POS, {"capture": caps, "first_piece": firsts}, RED)
    assert out["points"].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert out["foul"].tolist() == [False, True, True, True]
    assert out["foul.wrong_pocketed"].tolist() == [False, True, False, False]
    assert out["foul.no_contact"].tolist() == [False, False, True, False]
    assert out["foul.striker_pocketed"].tolist() == [False, False, False, True]
    assert out["continues"].tolist() == [True, False, False, False]
    assert set(out) == set(CarrookaRules.probabilities) | set(CarrookaRules.means)
