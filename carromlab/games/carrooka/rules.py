"""Carrooka: the evaluation of one stroke, vectorised over a batch of shots.

Pure numpy functions over the kernel's outcome arrays of one position (no import of the
kernel). The kernel's disc 0 is the striker and discs 1.. are the position's *pucks*: its
pieces without the striker (a Carrooka position may hold a ``striker`` piece: where the
striker lies, the origin of the next shot; see :func:`pucks`). ``CarrookaRules`` is the thin
class the analysis layer looks variants up by.

Sources: seed 000, the Carrooka rules ("How to Play Carrooka").

The rules as evaluated (one stroke; the *piece on* is what the shooter must hit first):

- red phase (``turn.on == "red"``): the striker must hit a red first; every red pocketed
  counts 1 point;
- colour phase (``turn.on`` a colour, the nomination; or the end sequence's lowest colour):
  the striker must hit that colour first and pocket only it; it scores its value (yellow 2,
  green 3, brown 4, blue 5, pink 6, black 7);
- free counter (``turn.counter``, a piece id; only after a foul left the shooter
  "Carrooka'd"): that piece acts as the piece on: hitting it first is valid and pocketing it
  scores the value of the piece that was on (a red's 1 in the red phase);
- fouls, each a key ``foul.<kind>``: ``no_contact`` (the striker hit no piece),
  ``wrong_first`` (its first piece is not on), ``wrong_pocketed`` (a piece that is not on went
  down), ``striker_pocketed``, ``off_board`` (a piece left the board: a capture code beyond
  the pockets). A foul scores nothing (seed 000: "you gain no points for a foul shot").

Decisions where seed 000 is silent (each one documented; the game-state machine,
:mod:`carromlab.games.carrooka.machine`, holds the ones about turns):

1. The wrong first contact is judged on the first *piece* the striker touches, after any
   rail contacts (the kernel's ``first_piece``): a rail-first shot onto the piece on is legal,
   as in snooker.
2. In the red phase with a free counter, the counter (scoring a red's value) and any reds
   may be pocketed; in the colour phase only the piece on (or the counter) may go down.
3. A foul is worth 0 points to the shooter; the penalty is the opponent's bonus shot. The
   analysis layer may price it with ``CarrookaScoring.foul`` (default 0: the rules' value).
4. ``continues``: a legal stroke that pocketed at least one piece on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carromlab.equipment.carrooka import COLOUR_VALUES, COLOURS
from carromlab.errors import CarromlabError
from carromlab.rules.outcome import VariantRules, check_discs, lying_spot, outcome_field

VARIANTS = ("carrooka",)
FOUL_KINDS = ("no_contact", "wrong_first", "wrong_pocketed", "striker_pocketed", "off_board")

PROBABILITIES = (
    "hit_on",
    "potted",
    "continues",
    "striker_pocketed",
    "foul",
    *(f"foul.{k}" for k in FOUL_KINDS),
)
MEANS = ("reds_pocketed", "colours_pocketed", "pieces_on_pocketed", "points")


@dataclass(frozen=True)
class CarrookaTurn:
    """The shot's target: ``on`` is ``"red"`` or a colour (the nomination, or the end
    sequence's lowest colour); ``counter`` the id of a piece nominated as a free counter
    (None: no counter)."""

    on: str = "red"
    counter: str | None = None

    def __post_init__(self):
        if self.on != "red" and self.on not in COLOURS:
            raise CarromlabError(
                f"the piece on must be 'red' or a colour ({', '.join(COLOURS)}), not {self.on!r}"
            )

    @property
    def value(self) -> int:
        """Points for pocketing the piece on (or the counter standing in for it)."""
        return COLOUR_VALUES[self.on]

    def describe(self, position=None) -> str:
        """The turn in words: "on: black (7 points)", "on: red (1 point), piece r4 as a free
        counter"."""
        words = f"on: {self.on} ({self.value} point{'s' * (self.value != 1)})"
        if self.counter is not None:
            words += f", piece {self.counter} as a free counter"
        return words


@dataclass(frozen=True)
class CarrookaScoring:
    """Weights of a stroke's value for the analysis layer: ``points`` plus ``foul`` for a
    foul (0: the rules' own value; a player may price the opponent's bonus shot)."""

    foul: float = 0.0


def pucks(position) -> tuple:
    """The position's pieces in the kernel's order after the striker (every piece but a
    ``striker`` piece, which only marks where the striker lies)."""
    return tuple(p for p in position.pieces if p.kind != "striker")


def striker_spot(position) -> tuple[float, float] | None:
    """Where the striker lies in ``position`` (None: in hand, to be placed on the break line)."""
    return lying_spot(position, "striker", "strikers")


def targets(position, turn: CarrookaTurn) -> np.ndarray:
    """Mask over the pucks: the pieces the striker may hit first."""
    ps = pucks(position)
    if turn.counter is not None:
        ids = [p.id for p in ps]
        if turn.counter not in ids:
            raise CarromlabError(f"free counter {turn.counter!r} is not a piece of the position")
        return np.array([p.id == turn.counter for p in ps], dtype=bool)
    return np.array([p.kind == turn.on for p in ps], dtype=bool)


def legal_pots(position, turn: CarrookaTurn) -> np.ndarray:
    """Mask over the pucks: the pieces that may be pocketed (decision 2)."""
    ok = targets(position, turn)
    if turn.on == "red":
        ok = ok | np.array([p.kind == "red" for p in pucks(position)], dtype=bool)
    return ok


def pot_values(position, turn: CarrookaTurn) -> np.ndarray:
    """Points per puck when legally pocketed (0 for the others)."""
    ps = pucks(position)
    vals = np.array([COLOUR_VALUES.get(p.kind, 0) for p in ps], dtype=float)
    if turn.counter is not None:
        vals = np.where([p.id == turn.counter for p in ps], turn.value, vals)
    return np.where(legal_pots(position, turn), vals, 0.0)


def evaluate_carrooka(
    capture: np.ndarray,
    first_piece: np.ndarray,
    position,
    turn: CarrookaTurn | None = None,
    scoring: CarrookaScoring | None = None,
    n_pockets: int | None = None,
) -> dict[str, np.ndarray]:
    """Per shot: what the stroke did. ``capture`` is [B, 1 + pucks] (codes: -1 on the board,
    0..n_pockets-1 a pocket, larger: off the board); ``first_piece`` [B] the first piece the
    striker touched (disc index, -1 none)."""
    turn = turn or CarrookaTurn()
    scoring = scoring or CarrookaScoring()
    capture = np.atleast_2d(np.asarray(capture))
    first_piece = np.atleast_1d(np.asarray(first_piece)).astype(int)
    ps = pucks(position)
    check_discs(capture, ps, position, "pucks and the striker")
    n_pockets = len(position.board.layout.captures) if n_pockets is None else n_pockets
    pocketed = (capture >= 0) & (capture < n_pockets)
    off = capture >= n_pockets
    p_pk = pocketed[:, 1:]
    on_mask = targets(position, turn)
    legal = legal_pots(position, turn)
    is_red = np.array([p.kind == "red" for p in ps], dtype=bool)

    no_contact = first_piece < 1
    first_ok = np.concatenate([[False], on_mask])[np.clip(first_piece, 0, None)]
    wrong_first = ~no_contact & ~first_ok
    wrong_pocketed = (p_pk & ~legal).any(axis=1)
    striker_pocketed = pocketed[:, 0]
    off_board = off.any(axis=1)
    fouls = {
        "foul.no_contact": no_contact,
        "foul.wrong_first": wrong_first,
        "foul.wrong_pocketed": wrong_pocketed,
        "foul.striker_pocketed": striker_pocketed,
        "foul.off_board": off_board,
    }
    foul = np.zeros(len(capture), dtype=bool)
    for v in fouls.values():
        foul = foul | v
    legal_down = p_pk & legal
    pieces_on = legal_down.sum(axis=1)
    value = legal_down @ pot_values(position, turn)
    points = np.where(foul, 0.0, value)
    potted = ~foul & (pieces_on > 0)
    return {
        "hit_on": first_ok,
        "potted": potted,
        "continues": potted,
        "striker_pocketed": striker_pocketed,
        **fouls,
        "foul": foul,
        "reds_pocketed": (p_pk & is_red).sum(axis=1).astype(np.int64),
        "colours_pocketed": (p_pk & ~is_red).sum(axis=1).astype(np.int64),
        "pieces_on_pocketed": np.where(foul, 0, pieces_on).astype(np.int64),
        "points": points + scoring.foul * foul,
    }


class CarrookaRules(VariantRules):
    """Carrooka for the analysis layer: one stroke's evaluation over a batch of shots."""

    variant = "carrooka"
    variants = VARIANTS
    turn_type = CarrookaTurn
    scoring_type = CarrookaScoring
    foul_kinds = FOUL_KINDS
    probabilities = PROBABILITIES
    means = MEANS

    def legal_pots(self, position, turn: CarrookaTurn | None = None) -> tuple[str, ...]:
        """The pieces that may go down (:func:`legal_pots`): the reds while red is on,
        else only the piece on (or the free counter)."""
        turn = turn or CarrookaTurn()
        return tuple(p.id for p, ok in zip(pucks(position), legal_pots(position, turn)) if ok)

    def evaluate(self, position, outcome_arrays, turn=None, scoring=None) -> dict[str, np.ndarray]:
        """``outcome_arrays``: a mapping (or a ``ShotOutcome``) with ``capture`` and
        ``first_piece``; rows are shots of ``position`` with the striker as disc 0."""
        return evaluate_carrooka(
            np.asarray(outcome_field(outcome_arrays, "capture")),
            np.asarray(outcome_field(outcome_arrays, "first_piece")),
            position,
            turn,
            scoring,
        )
