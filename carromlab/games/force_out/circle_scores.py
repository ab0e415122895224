"""Circle Scores (a fragment of the Carrom Company's rule book, seed 002): one
stroke, vectorised over a batch of shots, and the game-state machine.

The fragment: "If it [the shooting ring] comes to rest in the largest circle area, count 5
points. A ring dislodged and coming to rest outside the circle area counts 10 points."

The kernel's disc 0 is the shooting ring, played from the outer circle's line on the
shooter's side (as in Force Out: rules/crokinole.py); discs 1.. are the object rings.

Decisions (the digest's, each an option where it makes sense):

1. Object rings start inside the small circle (the opening); each shot scores 5 when the
   shooting ring comes to rest on the board with its centre inside the large outer circle,
   plus 10 for every object ring that was inside it and is not after the shot (at rest
   outside it, or in a corner pocket). A ring that falls into the centre hole scores nothing
   and is removed; so is the shooting ring in the hole (0 for it).
2. Rings driven out are removed; the shooting ring is picked up after every shot.
3. A game is ``shots`` shots per player (default 5), alternating, player 0 first; when no
   object ring is left in the circle the opening is set up again. The higher total wins;
   equal totals are a draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from carromlab.equipment.company import CrokinoleBoard
from carromlab.errors import CarromlabError
from carromlab.games.force_out.setups import circle_scores_opening
from carromlab.position import Piece, Position
from carromlab.rules.crokinole import circle_moves, in_circle, rings
from carromlab.rules.interfaces import StrokeOutcome, check_declared
from carromlab.rules.outcome import VariantRules, check_discs, outcome_field

VARIANTS = ("circle-scores",)
PROBABILITIES = ("shooter_in", "shooter_in_hole")
MEANS = ("rings_out", "rings_holed", "points")
PLAYERS = ("A", "B")


@dataclass(frozen=True)
class CircleScoresTurn:
    """Whose shot it is (object rings belong to nobody: every one is a target)."""

    shooter: str = "A"


@dataclass(frozen=True)
class CircleScoresScoring:
    shooter_in: float = 5.0
    ring_out: float = 10.0


#: The object rings, in the kernel's order after the shooting ring (as Force Out's rings).
object_rings = rings


def evaluate_circle_scores(capture, x, y, position, turn=None, scoring=None) -> dict:
    scoring = scoring or CircleScoresScoring()
    capture = np.atleast_2d(np.asarray(capture))
    x, y = np.atleast_2d(np.asarray(x, float)), np.atleast_2d(np.asarray(y, float))
    rs = object_rings(position)
    check_discs(capture, rs, position, "object rings and the shooting ring")
    holed, inside, left = circle_moves(capture, x, y, position, rs)
    out = left.sum(axis=1)
    shooter_in = inside[:, 0]
    return {
        "shooter_in": shooter_in,
        "shooter_in_hole": holed[:, 0],
        "rings_out": out.astype(np.int64),
        "rings_holed": holed[:, 1:].sum(axis=1).astype(np.int64),
        "points": (scoring.shooter_in * shooter_in + scoring.ring_out * out).astype(float),
    }


class CircleScoresRules(VariantRules):
    variant = "circle-scores"
    variants = VARIANTS
    turn_type = CircleScoresTurn
    scoring_type = CircleScoresScoring
    foul_kinds = ()
    probabilities = PROBABILITIES
    means = MEANS

    def evaluate(self, position, outcome_arrays, turn=None, scoring=None) -> dict:
        return evaluate_circle_scores(
            outcome_field(outcome_arrays, "capture"),
            outcome_field(outcome_arrays, "x"),
            outcome_field(outcome_arrays, "y"),
            position,
            turn,
            scoring,
        )


# --------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class CircleScoresConfig:
    shots: int = 5
    board: CrokinoleBoard | None = None

    variant = "circle-scores"
    n_seats = 2
    seats = ("S", "N")

    def __post_init__(self):
        if int(self.shots) < 1:
            raise CarromlabError(f"each player needs at least 1 shot, not {self.shots}")


@dataclass(frozen=True)
class CircleScoresShot:
    player: int
    points: int
    shooter_in: bool
    rings_out: int
    racked: bool


@dataclass(frozen=True)
class CircleScoresState:
    position: Position
    player: int = 0
    taken: tuple[int, int] = (0, 0)
    scores: tuple[int, int] = (0, 0)
    racks: int = 1
    over: bool = False
    winner: int | None = None
    history: tuple = field(default=(), repr=False)

    @property
    def strokes(self) -> int:
        return sum(self.taken)

    @property
    def turns(self) -> tuple[int, int]:
        return self.taken

    def turn_state(self) -> CircleScoresTurn:
        return CircleScoresTurn(PLAYERS[self.player])


def new_game(config: CircleScoresConfig | None = None) -> CircleScoresState:
    config = config or CircleScoresConfig()
    return CircleScoresState(circle_scores_opening(config.board))


def apply_stroke(state, capture, final_xy, config: CircleScoresConfig | None = None):
    """Apply one shot: ``capture`` [1 + rings], ``final_xy`` [1 + rings, 2] (board
    coordinates, the shooting ring first)."""
    config = config or CircleScoresConfig()
    if state.over:
        raise CarromlabError("the game is over")
    capture = np.asarray(capture).reshape(-1)
    xy = np.asarray(final_xy, float).reshape(-1, 2)
    rs = object_rings(state.position)
    table = state.position.replace(pieces=rs)
    res = evaluate_circle_scores(capture[None], xy[None, :, 0], xy[None, :, 1], table)
    res = {k: v[0] for k, v in res.items()}
    board = state.position.board
    inside = (capture[1:] < 0) & in_circle(board, xy[1:, 0], xy[1:, 1])
    keep = tuple(Piece(p.id, p.kind, p.owner, *xy[k + 1]) for k, p in enumerate(rs) if inside[k])
    pos = state.position.replace(pieces=keep)
    racked = not keep
    if racked:
        pos = circle_scores_opening(config.board)
    me = state.player
    pts = round(float(res["points"]))
    scores = list(state.scores)
    scores[me] += pts
    taken = list(state.taken)
    taken[me] += 1
    shot = CircleScoresShot(me, pts, bool(res["shooter_in"]), int(res["rings_out"]), racked)
    new = replace(
        state,
        position=pos,
        player=1 - me,
        taken=(taken[0], taken[1]),
        scores=(scores[0], scores[1]),
        racks=state.racks + int(racked),
        history=(*state.history, shot),
    )
    if min(taken) >= config.shots:
        a, b = scores
        return replace(new, over=True, winner=None if a == b else int(b > a))
    return new


def apply(
    state: CircleScoresState,
    outcome: StrokeOutcome,
    config: CircleScoresConfig | None = None,
    rng=None,
) -> CircleScoresState:
    """The game machine's one signature (:mod:`carromlab.rules.interfaces`)."""
    check_declared(outcome.declared, (), "Circle Scores")
    return apply_stroke(state, outcome.capture, outcome.final_xy, config)
