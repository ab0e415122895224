"""Carroms (the Carrom Company's rule book, checker side; seed 002): one stroke,
vectorised over a batch of shots.

The kernel's disc 0 is the shooting ring, played from the shooter's shooting line; discs 1..
are the position's rings and the black (any ``shooter`` piece of the position is ignored).

The rules as evaluated (one stroke of the player whose colour is ``turn.shooter``):

- own rings pocketed: 1 point each, and the turn continues; the black pocketed: 5 points, and
  the turn continues;
- an opponent's ring pocketed counts 1 for the opponent; alone (no own ring, no black) it
  ends the turn;
- the shooting ring pocketed (``foul.shooter_pocketed``) or off the board
  (``foul.shooter_off``): the turn ends, every piece pocketed in that stroke goes back to the
  centre, and one ring the shooter pocketed before is forfeited (back to the centre, its
  point lost) when there is one (``forfeit``).

Decisions where the book is silent (each documented):

1. The black is nobody's: whoever pockets it legally scores 5 and continues.
2. With the shooting ring pocketed, nothing of that stroke counts (the opponent's rings come
   back too).
3. Points (the stroke's value, ``CarromsScoring``): +1 an own ring, +5 the black, -1 an
   opponent's ring (it counts for them), -1 a forfeited ring.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carromlab.errors import CarromlabError
from carromlab.rules.outcome import VariantRules, check_discs, outcome_field

VARIANTS = ("carroms",)
COLOURS = ("red", "green")
FOUL_KINDS = ("shooter_pocketed", "shooter_off")
PROBABILITIES = ("continues", "forfeit", "foul", *(f"foul.{k}" for k in FOUL_KINDS))
MEANS = ("own_pocketed", "opponent_pocketed", "black_pocketed", "points")


def _whole(name: str, v) -> None:
    """Refuse a count that is not a whole number >= 0 (one line naming the field)."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise CarromlabError(f"{name} must be a whole number >= 0, not {v!r}")


@dataclass(frozen=True)
class CarromsTurn:
    """The shooter's colour, how many rings the shooter has pocketed so far (one can be
    forfeited) and whether the stroke is a board's break (its first stroke; the rules treat
    it like any other, a player may play a break of its own)."""

    shooter: str = "red"
    own_down: int = 0
    is_break: bool = False

    def __post_init__(self):
        if self.shooter not in COLOURS:
            raise CarromlabError(f"the shooter's colour must be red or green, not {self.shooter!r}")
        _whole("CarromsTurn.own_down", self.own_down)

    def describe(self, position=None) -> str:
        """The turn in words: "red to play, 3 own rings down"."""
        down = f"{self.own_down} own ring{'s' * (self.own_down != 1)} down"
        return f"{self.shooter} to {'break' if self.is_break else 'play'}, " + (
            down if self.own_down else "no own rings down (none to forfeit)"
        )


@dataclass(frozen=True)
class CarromsScoring:
    own_ring: float = 1.0
    black: float = 5.0
    opponent_ring: float = -1.0
    forfeit: float = -1.0


def pieces_of(position) -> tuple:
    """The rings and the black, in the kernel's order after the shooting ring."""
    return tuple(p for p in position.pieces if p.kind != "shooter")


def evaluate_carroms(capture, position, turn=None, scoring=None) -> dict[str, np.ndarray]:
    turn = turn or CarromsTurn()
    scoring = scoring or CarromsScoring()
    capture = np.atleast_2d(np.asarray(capture))
    ps = pieces_of(position)
    check_discs(capture, ps, position, "pieces and the shooting ring")
    n_pockets = len(position.board.layout.captures)
    down = (capture[:, 1:] >= 0) & (capture[:, 1:] < n_pockets)
    own = np.array([p.kind == "ring" and p.owner == turn.shooter for p in ps], bool)
    opp = np.array([p.kind == "ring" and p.owner != turn.shooter for p in ps], bool)
    black = np.array([p.kind == "black" for p in ps], bool)
    shooter_pocketed = (capture[:, 0] >= 0) & (capture[:, 0] < n_pockets)
    shooter_off = capture[:, 0] >= n_pockets
    foul = shooter_pocketed | shooter_off
    n_own = (down & own).sum(axis=1)
    n_opp = (down & opp).sum(axis=1)
    n_black = (down & black).sum(axis=1)
    forfeit = foul & (turn.own_down > 0)
    continues = ~foul & (n_own + n_black > 0)
    points = np.where(
        foul,
        scoring.forfeit * forfeit,
        scoring.own_ring * n_own + scoring.black * n_black + scoring.opponent_ring * n_opp,
    )
    return {
        "continues": continues,
        "forfeit": forfeit,
        "foul": foul,
        "foul.shooter_pocketed": shooter_pocketed,
        "foul.shooter_off": shooter_off,
        "own_pocketed": np.where(foul, 0, n_own).astype(np.int64),
        "opponent_pocketed": np.where(foul, 0, n_opp).astype(np.int64),
        "black_pocketed": np.where(foul, 0, n_black).astype(np.int64),
        "points": points.astype(float),
    }


class CarromsRules(VariantRules):
    """Carroms for the analysis layer."""

    variant = "carroms"
    variants = VARIANTS
    turn_type = CarromsTurn
    scoring_type = CarromsScoring
    foul_kinds = FOUL_KINDS
    probabilities = PROBABILITIES
    means = MEANS

    def legal_pots(self, position, turn: CarromsTurn | None = None) -> tuple[str, ...]:
        """The shooter's own rings and the black (decision 1: nobody's, 5 points)."""
        turn = turn or CarromsTurn()
        return tuple(
            p.id
            for p in pieces_of(position)
            if (p.kind == "ring" and p.owner == turn.shooter) or p.kind == "black"
        )

    def evaluate(self, position, outcome_arrays, turn=None, scoring=None) -> dict[str, np.ndarray]:
        return evaluate_carroms(outcome_field(outcome_arrays, "capture"), position, turn, scoring)
