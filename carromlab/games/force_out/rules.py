"""Force Out and Fast Play Force Out (the Carrom Company's rule book, seed 002): one stroke,
vectorised over a batch of shots.

The kernel's disc 0 is the shooting ring; discs 1.. are the position's rings (its pieces
without a ``shooter`` piece, which only marks where a Fast Play ring lies).

The rules as evaluated (one stroke of the player whose colour is ``turn.shooter``):

- a ring is *in the scoring circle* when it lies on the board with its centre inside the
  large outer circle (the digest's decision: "scoring circle" and "playing circle" are both
  the area inside the large outer circle);
- a ring that was in the circle and is not after the stroke, without falling into the centre
  hole, is *forced out* (corner pockets and the ditch count as out): out of play, removed;
  forcing out an opponent's ring lets the shooter shoot again; forcing out an own ring
  removes it too;
- a ring knocked into the centre hole scores 5 for its owner and is removed;
- the shooting ring in the centre hole, outside the playing circle or off the board ends the
  turn (``penalty``) and one of the opponent's out-of-play rings goes back inside the small
  circle (``returned`` when the opponent has one).

Decisions (each documented; the game-state machine holds those about turns):

1. The penalty wins: a stroke that forces out an opponent's ring but loses the shooting ring
   ends the turn (the forced-out rings stay out).
2. ``continues``: at least one opponent's ring forced out and no penalty.
3. Points (the stroke's value, ``ForceOutScoring``): a ring in the circle at the end of the
   round is worth ``ring`` (5) to its owner, so an opponent's ring forced out is worth
   +``ring``, an own ring forced out -``ring``, an opponent's ring brought back -``ring``.
   A ring in the hole keeps its 5 (scored at once): it changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carromlab.errors import CarromlabError
from carromlab.rules.crokinole import RestingRules, ring_moves

VARIANTS = ("force-out", "force-out-fast")
COLOURS = ("red", "green")
FOUL_KINDS = ("shooter_in_hole", "shooter_out")
PROBABILITIES = ("continues", "penalty", "returned", *(f"foul.{k}" for k in FOUL_KINDS))
MEANS = ("opponent_out", "own_out", "opponent_holed", "own_holed", "points")


@dataclass(frozen=True)
class ForceOutTurn:
    """The shooter's colour and how many of the opponent's rings are out of play (forced out,
    so one can be brought back by a penalty)."""

    shooter: str = "red"
    opponent_out_of_play: int = 0

    def __post_init__(self):
        if self.shooter not in COLOURS:
            raise CarromlabError(f"the shooter's colour must be red or green, not {self.shooter!r}")
        v = self.opponent_out_of_play
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise CarromlabError(
                f"ForceOutTurn.opponent_out_of_play must be a whole number >= 0, not {v!r}"
            )

    def describe(self, position=None) -> str:
        """The turn in words: "red to play, 2 of the opponent's rings out of play"."""
        n = self.opponent_out_of_play
        out = f"{n} of the opponent's rings" if n else "none of the opponent's rings"
        return f"{self.shooter} to play, {out} out of play"


@dataclass(frozen=True)
class ForceOutScoring:
    """A ring's worth in the stroke value (decision 3)."""

    ring: float = 5.0


def evaluate_force_out(
    capture, x, y, position, turn: ForceOutTurn | None = None, scoring=None
) -> dict[str, np.ndarray]:
    """Per shot: ``capture``, ``x``, ``y`` are the kernel's [B, 1 + rings] arrays."""
    turn = turn or ForceOutTurn()
    scoring = scoring or ForceOutScoring()
    rs, holed, inside_after, forced = ring_moves(
        capture, x, y, position, "rings and the shooting ring"
    )
    own = np.array([p.owner == turn.shooter for p in rs], dtype=bool)
    opp_out = (forced & ~own).sum(axis=1)
    own_out = (forced & own).sum(axis=1)
    shooter_in_hole = holed[:, 0]
    shooter_out = ~holed[:, 0] & ~inside_after[:, 0]
    penalty = shooter_in_hole | shooter_out
    returned = penalty & (turn.opponent_out_of_play + opp_out > 0)
    continues = (opp_out > 0) & ~penalty
    points = scoring.ring * (opp_out - own_out - returned)
    return {
        "continues": continues,
        "penalty": penalty,
        "returned": returned,
        "foul.shooter_in_hole": shooter_in_hole,
        "foul.shooter_out": shooter_out,
        "opponent_out": opp_out.astype(np.int64),
        "own_out": own_out.astype(np.int64),
        "opponent_holed": (holed[:, 1:] & ~own).sum(axis=1).astype(np.int64),
        "own_holed": (holed[:, 1:] & own).sum(axis=1).astype(np.int64),
        "points": points.astype(float),
    }


class ForceOutRules(RestingRules):
    """Force Out for the analysis layer: one stroke's evaluation over a batch of shots."""

    variant = "force-out"
    variants = VARIANTS
    turn_type = ForceOutTurn
    scoring_type = ForceOutScoring
    foul_kinds = FOUL_KINDS
    probabilities = PROBABILITIES
    means = MEANS

    def judge(self, capture, x, y, position, turn, scoring) -> dict[str, np.ndarray]:
        return evaluate_force_out(capture, x, y, position, turn, scoring)
