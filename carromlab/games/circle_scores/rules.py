"""Circle Scores (a fragment of the Carrom Company's rule book, seed 002): one stroke,
vectorised over a batch of shots (the game-state machine: ``machine.py``).

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

from dataclasses import dataclass

import numpy as np

from carromlab.errors import CarromlabError
from carromlab.rules.crokinole import RestingRules, ring_moves, rings

VARIANTS = ("circle-scores",)
PROBABILITIES = ("shooter_in", "shooter_in_hole")
MEANS = ("rings_out", "rings_holed", "points")
PLAYERS = ("A", "B")


@dataclass(frozen=True)
class CircleScoresTurn:
    """Whose shot it is (object rings belong to nobody: every one is a target)."""

    shooter: str = "A"

    def __post_init__(self):
        if self.shooter not in PLAYERS:
            raise CarromlabError(
                f"the Circle Scores shooter is player {' or '.join(PLAYERS)}, not {self.shooter!r}"
            )

    def describe(self, position=None) -> str:
        """The turn in words: "player A to play"."""
        return f"player {self.shooter} to play"


@dataclass(frozen=True)
class CircleScoresScoring:
    shooter_in: float = 5.0
    ring_out: float = 10.0


#: The object rings, in the kernel's order after the shooting ring (as Force Out's rings).
object_rings = rings


def evaluate_circle_scores(capture, x, y, position, turn=None, scoring=None) -> dict:
    scoring = scoring or CircleScoresScoring()
    _, holed, inside, left = ring_moves(
        capture, x, y, position, "object rings and the shooting ring"
    )
    out = left.sum(axis=1)
    shooter_in = inside[:, 0]
    return {
        "shooter_in": shooter_in,
        "shooter_in_hole": holed[:, 0],
        "rings_out": out.astype(np.int64),
        "rings_holed": holed[:, 1:].sum(axis=1).astype(np.int64),
        "points": (scoring.shooter_in * shooter_in + scoring.ring_out * out).astype(float),
    }


class CircleScoresRules(RestingRules):
    variant = "circle-scores"
    variants = VARIANTS
    turn_type = CircleScoresTurn
    scoring_type = CircleScoresScoring
    foul_kinds = ()
    probabilities = PROBABILITIES
    means = MEANS

    def judge(self, capture, x, y, position, turn, scoring) -> dict:
        return evaluate_circle_scores(capture, x, y, position, turn, scoring)
