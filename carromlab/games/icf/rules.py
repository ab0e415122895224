"""Standard carrom (ICF laws): the evaluation of one stroke, vectorised over a batch of shots.

Pure numpy functions over the kernel's outcome arrays of one position (no import of the
kernel): ``piece_roles(position)`` gives masks over the kernel's disc order (index 0 the
striker, then ``position.pieces``), and ``evaluate_icf(capture, first_contact_kind,
first_contact, roles, turn)`` returns, per shot, what the stroke did under the laws: coins
pocketed, kept and returned, the queen, fouls by kind, dues, whether the turn continues, the
turn's state after the stroke and a shot value ("points"). ``IcfRules`` is the thin class the
analysis layer looks variants up by.

Sources: standard carrom as seed 004 (the Polish federation's text) and the ICF Laws of Carrom
(1993) give it; rule numbers below are the 1993 Laws'.

The laws as evaluated (one stroke of the shooter; "own" coins are the shooter's colour):

- pocketed: a capture code 0..3 (the ICF table's pockets SW, SE, NE, NW);
- own coin pocketed and kept -> the turn continues; an opponent's coin pocketed counts for the
  opponent (it stays down, even with the striker) and earns nothing (72-77, 125);
- striker pocketed (``foul.striker_pocketed``): one penalty coin (a due); own coins pocketed in
  the same stroke come back out and the turn continues; otherwise the turn ends;
- the queen may be pocketed once one own coin is down; pocketed with an own coin in the same
  stroke it is covered (97a), except when all the shooter's coins were on the board before
  the stroke (``own_down == 0``): queen + 1 own coin then still needs a cover (97b; queen + 2
  own coins is covered); pocketed alone (legally) it awaits a cover in the next stroke and the
  turn continues; not covered then, it is returned;
- the queen pocketed before any own coin is down (``own_down == 0`` and no own coin in the
  same stroke) or while a due is outstanding comes back and the turn ends (95:
  ``queen_illegal``; not a foul: no penalty);
- break (``is_break``): the striker must touch a coin (the queen counts: she is a carrom man),
  otherwise it is a failed break try (44-45, ``foul.break_no_coin``);
- the board ends when a player's last coin is pocketed; pocketing your last coin while the
  queen is uncovered loses the board (``foul.last_coin_before_queen``), and pocketing the
  opponent's last coin loses it too (``foul.opponent_last_coin``) (seed 004).

Decisions where the laws are silent or ambiguous (each one a documented choice):

1. Continuation: the turn continues when at least one own coin is pocketed in the stroke
   (kept, or returned because the striker fell with it) or the queen was legally pocketed and
   awaits its cover; an opponent's coin never ends a turn by itself, it only earns nothing.
   So own + opponent coin continues. A stroke that ends the board, an illegal queen and a
   failed break try never continue.
2. Queen with a due outstanding (95): "outstanding" is judged before the stroke
   (``turn.dues > 0``): the queen comes back and the turn ends even when own coins fall in the
   same stroke (those coins stay down and pay the due).
3. 97b is judged by ``turn.own_down == 0`` (in a real board that is "all 9 own coins on the
   board"); with a hand-made position holding fewer coins the turn's count still decides.
4. The striker pocketed with the queen: the queen comes back (with any own coins) and one due
   is owed; the same for a stroke that would cover a pending queen: no cover, the queen is
   returned. The turn continues only if own coins fell (the striker-with-own-coins law).
5. Dues: ``dues`` counts the penalty coins incurred by this stroke (one for the striker).
   Penalty coins are paid from the own coins down after the stroke (``own_down`` plus the own
   coins kept); what cannot be paid stays owed (``dues_after``). Old dues are paid the same
   way, so an own coin pocketed with a due outstanding comes back out at once.
6. Points (the value of one stroke, ``IcfScoring``): ``own_coin`` per own coin kept
   (whether it stays down or pays a due), ``opponent_coin`` per opponent coin pocketed,
   ``queen_covered`` when the queen is covered in this stroke (a pending queen is worth
   nothing until then; a returned queen costs nothing), ``due`` per penalty coin incurred
   (paid or owed). Own coins returned with the striker count nothing. This is the change in
   material of the board, not the board's score (only the board's winner scores, at its end).
7. A stroke that loses the board (``board_lost``: the last-coin clauses) is worth
   ``IcfScoring.board_lost``; by default (``None``) minus the board points the opponent then
   scores by seed 004 (``board_points_conceded``: 1 per own coin left on the board plus 3 if
   the queen is still uncovered). A stroke that wins the board (the last own coin kept with
   the queen gone) counts its coins as usual plus ``IcfScoring.board_won`` (default 0): the
   board's score needs who covered the queen, which is the game-state machine's business.
   Neither applies the 22-points queen limit (the game score is not in the turn state).
8. Last coin: ``foul.last_coin_before_queen`` when every own coin of the position is kept down
   by this stroke while the queen is on the board after it (never pocketed, or returned) or
   awaits a cover; covering the queen with the last coin (same stroke, 97a, or the stroke
   after) wins the board. ``foul.opponent_last_coin`` when the opponent's last coin of the
   position falls (even with the striker: that coin stays down); if both players' last coins
   fall in one stroke, the opponent's-last-coin clause wins: the board is lost.
9. Failed break try: ``foul.break_no_coin`` (counted in ``foul``) with no due, 0 points,
   ``continues`` False and ``break_retry`` True (the laws allow two more tries; counting them
   is the game-state machine's job). If the striker is pocketed on it, the turn is lost
   (``break_retry`` False) and the striker's due applies. The striker touched a coin when its
   first contact is a coin or the queen, or any coin took part in a contact (``contacts``,
   when given: every coin is at rest at the break, so any coin contact starts with the
   striker), or any coin was pocketed. Without ``contacts``, a striker that reaches a coin
   only after a cushion is judged a failed try.
10. A capture code beyond the pockets (the ditch / off the surface; the ICF table's frame is a
    cushion, so the kernel never gives it there) means the piece left the board: a coin or the
    queen is put back in the centre circle (65) and counts as not pocketed; the striker is
    simply retrieved (the digest names no penalty).
11. With ``queen_pending`` the queen is not on the board: a queen disc in the position, if
    any, is ignored (its capture counts for nothing).
12. Only disc 0 is the striker; a striker piece in the position, if any, is neither coin nor
    queen and its capture counts for nothing.
13. ``capture_order`` is accepted for uniformity with other variants and ignored: the laws
    judge a stroke as a whole (97a/97b do not depend on which piece fell first).
14. Doubles (``icf-doubles``): the same stroke rules; ``shooter`` is the side's colour, and the
    turn passing to the player on the right when it does not continue is the state machine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from carromlab.errors import CarromlabError
from carromlab.rules.outcome import VariantRules, outcome_field

VARIANTS = ("icf", "icf-doubles")
COLOURS = ("white", "black")
COINS_PER_SIDE = 9
#: Pockets of the ICF table, in the kernel's capture order (codes 0..3).
N_POCKETS = 4
#: Board points by seed 004: one per coin left, three for the queen.
BOARD_POINTS_COIN = 1
BOARD_POINTS_QUEEN = 3

FOUL_KINDS = (
    "striker_pocketed",
    "break_no_coin",
    "last_coin_before_queen",
    "opponent_last_coin",
)

#: Boolean per-shot outputs (estimated as probabilities).
PROBABILITIES = (
    "queen_pocketed",
    "queen_covered",
    "queen_returned",
    "queen_illegal",
    "queen_awaits_cover",
    "striker_pocketed",
    "foul",
    *(f"foul.{k}" for k in FOUL_KINDS),
    "break_retry",
    "continues",
    "board_won",
    "board_lost",
)
#: Numeric per-shot outputs (estimated as means).
MEANS = (
    "own_pocketed",
    "own_kept",
    "own_returned",
    "opponent_pocketed",
    "dues",
    "own_down_after",
    "opponent_down_after",
    "dues_after",
    "board_points_conceded",
    "points",
)


@dataclass(frozen=True)
class IcfTurn:
    """The state of the turn before the stroke."""

    shooter: str = "white"  # colour of the player on strike ("white" or "black")
    own_down: int = 0  # own coins already pocketed this board before this stroke
    opponent_down: int = 0  # opponent coins already pocketed this board
    queen_pending: bool = False  # the queen was pocketed on the previous stroke, awaits cover
    dues: int = 0  # penalty coins owed (could not be returned yet)
    is_break: bool = False  # first stroke of the board

    def __post_init__(self):
        if self.shooter not in COLOURS:
            raise CarromlabError(
                f"IcfTurn.shooter must be 'white' or 'black', not {self.shooter!r}"
            )
        for name in ("own_down", "opponent_down", "dues"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise CarromlabError(f"IcfTurn.{name} must be a whole number >= 0, not {v!r}")
        for name in ("own_down", "opponent_down"):
            if getattr(self, name) > COINS_PER_SIDE:
                raise CarromlabError(
                    f"IcfTurn.{name} must be at most {COINS_PER_SIDE}, not {getattr(self, name)}"
                )

    @property
    def opponent(self) -> str:
        return "black" if self.shooter == "white" else "white"

    def describe(self, position=None) -> str:
        """The turn in words: "white to play, 6 own coins down, 4 opponent's, queen on the
        board". The queen's words read ``position`` where given (on the board, or covered
        when it holds no queen); without it a queen that is not pending is not mentioned."""
        words = [f"{self.shooter} to {'break' if self.is_break else 'play'}"]
        if self.own_down or self.opponent_down:
            own = f"{self.own_down} own coin{'s' * (self.own_down != 1)} down"
            words += [own, f"{self.opponent_down} opponent's"]
        else:
            words.append("no coins down")
        if self.queen_pending:
            words.append("the queen pocketed, awaiting its cover")
        elif position is not None:
            on = any(p.kind == "queen" for p in position.pieces)
            words.append("queen on the board" if on else "queen covered")
        if self.dues:
            words.append(f"{self.dues} due{'s' * (self.dues != 1)} owed")
        return ", ".join(words)


@dataclass(frozen=True)
class IcfScoring:
    """Weights of the shot value ("points"); see decisions 6 and 7 of the module docstring."""

    own_coin: float = 1.0
    opponent_coin: float = -1.0
    queen_covered: float = 3.0
    due: float = -1.0  # each penalty coin (returned or owed)
    #: Value of a stroke that loses the board; None: minus ``board_points_conceded``.
    board_lost: float | None = None
    #: Added to the value of a stroke that wins the board.
    board_won: float = 0.0


def piece_roles(position) -> dict[str, np.ndarray]:
    """Boolean masks over the kernel's disc order (index 0 the striker, then
    ``position.pieces``): ``striker``, ``white``, ``black``, ``coin`` (either colour),
    ``queen``."""
    if position.variant not in VARIANTS:
        raise CarromlabError(
            f"ICF rules need an ICF position (variant {' or '.join(VARIANTS)}), "
            f"not {position.variant!r}"
        )
    kinds = ["striker"] + [p.kind for p in position.pieces]
    owners = [None] + [p.owner for p in position.pieces]
    n = len(kinds)
    striker = np.zeros(n, dtype=bool)
    striker[0] = True
    white = np.array([k == "coin" and o == "white" for k, o in zip(kinds, owners)])
    black = np.array([k == "coin" and o == "black" for k, o in zip(kinds, owners)])
    white[0] = black[0] = False
    queen = np.array([k == "queen" for k in kinds])
    queen[0] = False
    return {
        "striker": striker,
        "white": white,
        "black": black,
        "coin": white | black,
        "queen": queen,
    }


def _mask(roles: Mapping[str, Any], key: str, n: int) -> np.ndarray:
    m = np.asarray(roles[key], dtype=bool)
    if m.shape != (n,):
        raise CarromlabError(f"roles[{key!r}] has shape {m.shape}; the capture rows have {n} discs")
    return m


def _touched(fk, fc, pocketed, touchable, contacts) -> np.ndarray:
    """Whether each stroke touched a coin or the queen: first, pocketed, or (where the
    contact counts are given) at any contact."""
    b, n = pocketed.shape
    first_idx = np.clip(fc.astype(np.int64), 0, n - 1)
    touched = (fk == 1) & touchable[first_idx]
    touched |= (pocketed & touchable).any(axis=1)
    if contacts is not None:
        touched |= (np.asarray(contacts).reshape(b, n)[:, touchable] > 0).any(axis=1)
    return touched


def _queen(turn: IcfTurn, queen_pocketed, queen_present: bool, own_pocketed, own_kept,
           striker_pocketed) -> tuple:  # fmt: skip
    """The queen's clauses (decisions 10-12; laws 97a, 97b): whether pocketing her was
    illegal (a due outstanding, or no own coin down nor pocketed with her), covered (now or,
    pending, by this stroke), awaiting cover, returned, and uncovered after the stroke."""
    b = len(queen_pocketed)
    queen_illegal = queen_pocketed & (
        (turn.dues > 0) | ((turn.own_down == 0) & (own_pocketed == 0))
    )
    legal_queen = queen_pocketed & ~queen_illegal & ~striker_pocketed
    needed = 1 if turn.own_down > 0 else 2  # 97a / 97b
    covered_now = legal_queen & (own_kept >= needed)
    covered_pending = np.full(b, turn.queen_pending) & (own_kept >= 1)
    queen_covered = covered_now | covered_pending
    queen_awaits_cover = legal_queen & ~covered_now
    queen_returned = (queen_pocketed & ~legal_queen) | (
        np.full(b, turn.queen_pending) & ~covered_pending
    )
    queen_on_board_after = (queen_present & ~queen_pocketed) | queen_returned
    queen_uncovered_after = queen_on_board_after | queen_awaits_cover
    return queen_illegal, queen_covered, queen_awaits_cover, queen_returned, queen_uncovered_after


def _board_end(own, opp, own_kept, opp_pocketed, queen_uncovered_after) -> tuple:
    """The board's end (decisions 7, 8): the fouls of pocketing one's last coin before the
    queen is covered and of pocketing the opponent's last coin, the board lost or won, and
    the points conceded with a lost board."""
    n_own, n_opp = int(own.sum()), int(opp.sum())
    own_left = n_own - own_kept
    last_own = (n_own > 0) & (own_kept > 0) & (own_left == 0)
    opponent_last_coin = (n_opp > 0) & (opp_pocketed == n_opp)
    last_coin_before_queen = last_own & queen_uncovered_after & ~opponent_last_coin
    board_lost = last_coin_before_queen | opponent_last_coin
    board_won = last_own & ~board_lost
    conceded = np.where(
        board_lost,
        BOARD_POINTS_COIN * own_left + BOARD_POINTS_QUEEN * queen_uncovered_after,
        0,
    )
    return last_coin_before_queen, opponent_last_coin, board_lost, board_won, conceded


def evaluate_icf(
    capture,
    first_contact_kind,
    first_contact,
    roles: Mapping[str, Any],
    turn: IcfTurn | None = None,
    scoring: IcfScoring | None = None,
    capture_order=None,
    contacts=None,
    n_pockets: int = N_POCKETS,
) -> dict[str, np.ndarray]:
    """Evaluate a batch of strokes from one position under the ICF laws.

    ``capture``: int [B, N] (-1 on the board, 0..n_pockets-1 a pocket, more: off the board);
    ``first_contact_kind`` / ``first_contact``: [B] (0 none, 1 piece, 2 wall / its index);
    ``roles``: :func:`piece_roles`; ``contacts``: optional int [B, N], used only to judge a
    break; ``capture_order`` is accepted and ignored (decision 13). Returns per-shot arrays
    (length B): the keys of ``PROBABILITIES`` (bool) and ``MEANS`` (int, ``points`` float).
    """
    turn = turn or IcfTurn()
    scoring = scoring or IcfScoring()
    capture = np.asarray(capture)
    if capture.ndim == 1:
        capture = capture[None, :]
    if capture.ndim != 2:
        raise CarromlabError(f"capture must be [B, N], not shape {capture.shape}")
    b, n = capture.shape
    fk = np.broadcast_to(np.asarray(first_contact_kind).reshape(-1), (b,))
    fc = np.broadcast_to(np.asarray(first_contact).reshape(-1), (b,))
    for name, arr in (("capture_order", capture_order), ("contacts", contacts)):
        if arr is not None and np.size(arr) != b * n:
            raise CarromlabError(f"{name} must have the shape of capture ({b}, {n})")

    striker = _mask(roles, "striker", n)
    own = _mask(roles, turn.shooter, n)
    opp = _mask(roles, turn.opponent, n)
    queen = _mask(roles, "queen", n)
    if turn.queen_pending:
        queen = np.zeros(n, dtype=bool)  # decision 11: not on the board
    coins = own | opp

    pocketed = (capture >= 0) & (capture < n_pockets)
    striker_pocketed = (pocketed & striker).any(axis=1)
    own_pocketed = (pocketed & own).sum(axis=1)
    opp_pocketed = (pocketed & opp).sum(axis=1)
    queen_present = bool(queen.any())
    queen_pocketed = (pocketed & queen).any(axis=1)

    # -- break (decision 9): a break that touched no coin nor the queen
    touched = _touched(fk, fc, pocketed, coins | queen, contacts)
    break_no_coin = np.full(b, turn.is_break) & ~touched

    # -- coins kept / returned, dues (decision 5)
    own_kept = np.where(striker_pocketed, 0, own_pocketed)
    own_returned = own_pocketed - own_kept
    dues = striker_pocketed.astype(np.int64)
    owed = turn.dues + dues
    paid = np.minimum(turn.own_down + own_kept, owed)
    own_down_after = turn.own_down + own_kept - paid
    dues_after = owed - paid

    # -- the queen
    q = _queen(turn, queen_pocketed, queen_present, own_pocketed, own_kept, striker_pocketed)
    queen_illegal, queen_covered, queen_awaits_cover, queen_returned, queen_uncovered_after = q

    # -- the board's end (decisions 7, 8)
    end = _board_end(own, opp, own_kept, opp_pocketed, queen_uncovered_after)
    last_coin_before_queen, opponent_last_coin, board_lost, board_won, conceded = end

    # -- continuation (decision 1)
    continues = (own_pocketed > 0) | queen_awaits_cover
    continues &= ~queen_illegal & ~break_no_coin & ~board_lost & ~board_won

    fouls = {
        "foul.striker_pocketed": striker_pocketed,
        "foul.break_no_coin": break_no_coin,
        "foul.last_coin_before_queen": last_coin_before_queen,
        "foul.opponent_last_coin": opponent_last_coin,
    }
    foul = np.logical_or.reduce([np.zeros(b, dtype=bool), *fouls.values()])

    points = (
        scoring.own_coin * own_kept
        + scoring.opponent_coin * opp_pocketed
        + scoring.queen_covered * queen_covered
        + scoring.due * dues
        + scoring.board_won * board_won
    ).astype(float)
    lost_value = -conceded if scoring.board_lost is None else np.full(b, scoring.board_lost)
    points = np.where(board_lost, lost_value, points).astype(float)

    return {
        "own_pocketed": own_pocketed.astype(np.int64),
        "own_kept": own_kept.astype(np.int64),
        "own_returned": own_returned.astype(np.int64),
        "opponent_pocketed": opp_pocketed.astype(np.int64),
        "queen_pocketed": queen_pocketed,
        "queen_covered": queen_covered,
        "queen_returned": queen_returned,
        "queen_illegal": queen_illegal,
        "queen_awaits_cover": queen_awaits_cover,
        "striker_pocketed": striker_pocketed,
        **fouls,
        "foul": foul,
        "break_retry": break_no_coin & ~striker_pocketed,
        "dues": dues,
        "own_down_after": own_down_after.astype(np.int64),
        "opponent_down_after": (turn.opponent_down + opp_pocketed).astype(np.int64),
        "dues_after": dues_after.astype(np.int64),
        "continues": continues,
        "board_won": board_won,
        "board_lost": board_lost,
        "board_points_conceded": conceded.astype(np.int64),
        "points": points,
    }


class IcfRules(VariantRules):
    """The ICF laws for the analysis layer: one stroke's evaluation over a batch of shots."""

    variant = "icf"
    variants = VARIANTS
    turn_type = IcfTurn
    scoring_type = IcfScoring
    foul_kinds = FOUL_KINDS
    probabilities = PROBABILITIES
    means = MEANS

    def roles(self, position) -> dict[str, np.ndarray]:
        return piece_roles(position)

    def legal_pots(self, position, turn: IcfTurn | None = None) -> tuple[str, ...]:
        """The shooter's own coins, and the queen once an own coin is down with no due
        outstanding (95); never the opponent's coins (they count for the opponent)."""
        turn = turn or IcfTurn()
        queen = turn.own_down > 0 and turn.dues == 0 and not turn.queen_pending
        return tuple(
            p.id
            for p in position.pieces
            if (p.kind == "coin" and p.owner == turn.shooter) or (p.kind == "queen" and queen)
        )

    def evaluate(
        self,
        position,
        outcome_arrays,
        turn: IcfTurn | None = None,
        scoring: IcfScoring | None = None,
    ) -> dict[str, np.ndarray]:
        """``outcome_arrays``: a mapping (or a ``ShotOutcome``) with ``capture``,
        ``first_contact_kind``, ``first_contact`` and optionally ``capture_order``,
        ``contacts``; rows are shots of ``position`` with the striker as disc 0."""
        return evaluate_icf(
            np.asarray(outcome_field(outcome_arrays, "capture")),
            np.asarray(outcome_field(outcome_arrays, "first_contact_kind")),
            np.asarray(outcome_field(outcome_arrays, "first_contact")),
            piece_roles(position),
            turn,
            scoring,
            capture_order=outcome_field(outcome_arrays, "capture_order", required=False),
            contacts=outcome_field(outcome_arrays, "contacts", required=False),
            n_pockets=len(position.board.layout.captures),
        )
