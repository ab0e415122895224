"""Standard carrom (ICF laws): the game-state machine, singles and doubles.

Pure Python over one stroke's outcome at a time (no kernel calls): :func:`apply_stroke` takes
the state before a stroke and the kernel's outcome row of that stroke (``capture`` and the
first contact; optionally ``contacts`` and the pieces' resting places), asks
:func:`carromlab.games.icf.rules.evaluate_icf` what the stroke did under the laws, and performs the
consequences: pocketed pieces leave the position, returned coins are placed by the opponent,
the turn continues or passes, a board ends and is scored, the next board is set up, the game
ends. It is the rules layer of a whole-game simulator.

Sources: standard carrom as seed 004 (the Polish federation's text) and the ICF Laws of Carrom
(1993) give it (rule numbers are the 1993 Laws') and the decisions of
:mod:`carromlab.games.icf.rules`, which this module follows (it never re-judges a stroke: coins
kept, dues, the queen, continuation and the last-coin clauses all come from ``evaluate_icf``).

Seats and sides. Singles: seat 0 (South, the first breaker) and seat 1 (North). Doubles:
seats 0..3 sit S, E, N, W; a turn passes to the player on the right, ``seat -> seat + 1``
(counter-clockwise seen from above); partners sit opposite, so side ``seat % 2``: seats 0 and
2 are side 0, seats 1 and 3 side 1. Scores, coins down and dues are kept per side; on each
board the breaker's side plays white (``IcfBoardState.colours``).

The state: :class:`IcfState` (scores per side, boards played, who breaks next, game over
and winner, the current :class:`IcfBoardState`, the last finished board and the last stroke's
record) and :class:`IcfBoardState` (the position, whose turn, colours per side, coins down and
dues per side, the queen, the break, strokes played, board over / winner / points). Both are
frozen; every call returns a new state.

Coin accounting, per side: coins of its colour on the board + ``down`` = 9 between strokes
(for a position from the ICF opening); ``dues`` are penalty coins owed while nothing can be
paid (``dues > 0`` only with ``down == 0``); the queen is either in the position
(``queen == "on_board"``), pocketed and awaiting a cover (``"pending"``), or covered
(``"covered"``), with ``queen_side`` the side that pocketed / covered her.

Decisions where the laws and the digest are silent (each one a documented choice; the ones
marked *option* are fields of :class:`IcfConfig`):

1. Order of play: a stroke that continues (``evaluate_icf``'s ``continues``) keeps the seat;
   a failed break try keeps it while tries remain (``break_tries``, 44-45); anything else
   passes the turn to ``seat + 1`` (singles: the opponent; doubles: the player on the right).
2. Failed break: after ``break_tries`` failed tries (or a break try that pockets the striker
   without touching a coin, which loses the turn at once: ``evaluate_icf`` decision 9) the
   turn passes and the next stroke is an ordinary stroke: the break requirement binds the
   breaker only, and the colours stay (the breaker's side plays white). *Option*
   ``rebreak_after_failed``: the next player must break instead, with fresh tries.
3. Queen bonus limit: the queen's value counts when the winner's game score *before* the
   board is ``<= queen_bonus_limit`` (21: "only while the winner's score is 21 or less").
4. Board points: ``min(board_cap, coins + queen)``. A board won by pocketing the last own
   coin: coins = the loser's coins left on the board (coins of the loser's colour in the
   position before the stroke minus those pocketed in it, so a coin that left the board
   counts as left); queen = ``queen_value`` when the winner's side covered her. A board lost
   by a last-coin clause (the opponent wins): coins = the shooter's coins left
   (``evaluate_icf``'s ``own_left``: coins that fall with the striker count as left);
   queen = ``queen_value`` when she is not covered after the stroke (on the board, returned,
   or awaiting a cover) or was covered earlier by the winner's side; none when the loser
   covered her.
5. Dues at the end of a board are written off. *Option* ``score_loser_dues``: each due the
   loser still owes counts one point for the winner, like a coin left (the cap applies).
6. A stroke that ends the board returns nothing (no penalty coin, no coin or queen put back):
   the board is over; the finished board keeps the position after the stroke's removals.
7. An opponent's coin pocketed while the opponent owes a due pays that due at once: the coin
   comes back out (placed by the shooter, as any returned coin), which keeps ``dues > 0``
   only with ``down == 0``. *Option* ``opponent_coin_pays_due`` (False: the coin stays down
   and pays the due at the owner's next stroke, as ``evaluate_icf`` pays old dues).
8. ``due_rule=False`` (*option*, to study the due rule): pocketing the striker costs no
   penalty coin and nothing is ever owed; everything else about that stroke stands (own
   coins pocketed with the striker still come back and the turn then continues, otherwise it
   ends; a queen pocketed with the striker is returned).
9. Placement of returned pieces (the opponent places them; :func:`place_returned`): the queen
   goes as near the centre as possible (the centre if free, else the nearest free spot,
   decision 10); coins that left the board go back "in the centre circle" (65) the same way
   (the centre circle is barely a coin wide, so: as near the centre as possible); other
   returned coins (the striker's own coins, penalty coins, dues) go to a free spot inside the
   outer circle: *option* ``placement``: ``"centre-first"`` (default: the nearest free spot
   to the centre, deterministic) or ``"random"`` (uniform over the disc where a coin lies
   wholly inside the outer circle, drawn from the given ``numpy`` generator; after
   ``RANDOM_TRIES`` rejected draws - an exact hole in a packed cluster has no area - the
   nearest free spot). "Inside the outer circle" means the whole coin inside it. Free: no
   overlap with any piece on the board (the striker is back on a baseline and is no
   obstacle); touching is allowed (the rosette's coins touch), within ``TOUCH_TOLERANCE``.
   If no spot inside the outer circle is free, the search widens to the whole playing
   surface (nearest to the centre first, clear of the pockets); if nothing is free at all,
   :class:`CarromlabError`.
10. Nearest free spot, exactly (a deterministic search): the point nearest to the centre
    where the piece fits is the centre, or lies on the boundary of a forbidden disc (radius
    ``r + r_i`` around each piece) in line with the centre, or where two forbidden circles
    (or one and the zone's circle) cross. Those candidates are checked nearest first (ties:
    the smallest angle counter-clockwise from +x) and the first free one wins; so an exact
    hole left in the rosette is found. The widened search adds the pockets as forbidden
    discs and a 1 mm grid over the surface (for spots against the frame).
11. Placement order within one stroke: the queen, then pieces that left the board (in disc
    order), then the shooter's returned coins, then the opponent's (decision 7). Coins
    pocketed in the stroke that come back (with the striker, or paying a due) come back as
    themselves (disc order) and keep their ids, as does a piece that left the board; a
    penalty coin from those pocketed earlier takes the smallest free id of its colour
    (``w1``..``w9`` / ``b1``..``b9``).
12. Resting places: ``final_xy`` (optional, [N, 2] in disc order) moves the pieces still on
    the board to where the stroke left them; without it they stay where they were (hand-made
    outcomes, tests).
13. Boards and breaks: the first board is broken by seat 0; the breaker of each next board is
    the next seat (``breaker + 1``): singles alternate, doubles rotate through the four
    players, so the sides alternate. A new board is the rule-41 rosette with the "Y" pointing
    at the breaker (``carromlab.games.icf.setups.rosette`` rotated to the breaker's side).
14. End of the game: when a side reaches ``game_points`` at the end of a board, it wins;
    otherwise after ``max_boards`` boards the higher score wins. A tie after ``max_boards``
    (*option* ``tie_rule``): ``"extra-board"`` (default; tournament practice settles a tie
    with an extra board, whose break is tossed for - here the break rotation simply goes
    on): further boards are played until a board ends with the scores unequal (the queen
    limit and cap still apply; a board can score 0, e.g. the last coin before the queen
    when the winner has 22+); ``"draw"``: the game ends drawn (``winner`` None).
15. A custom placement policy (a callable passed instead of a generator) is called
    ``policy(position, kind, owner)`` for every piece to place and returns ``(x, y)``; the spot
    must be legal and free, or :class:`CarromlabError` (the laws' placement duties, such as the
    queen's "as near the centre as possible", are then the policy's).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from types import MappingProxyType

import numpy as np

from carromlab.equipment.base import SIDE_ANGLE
from carromlab.errors import CarromlabError
from carromlab.games.icf.placement import _check_spot, _free_id, place_returned
from carromlab.games.icf.rules import (
    N_POCKETS,
    evaluate_icf,
    piece_roles,
)
from carromlab.games.icf.setups import rosette
from carromlab.games.icf.state import (
    PLACEMENT_MODES,
    SEATS_DOUBLES,
    SEATS_SINGLES,
    TIE_RULES,
    IcfBoardState,
    IcfConfig,
    IcfState,
    IcfStroke,
    side_of,
)
from carromlab.position import Piece, Position
from carromlab.rules.interfaces import StrokeOutcome, check_declared
from carromlab.rules.placement import (
    nearest_free_spot,
)

# --------------------------------------------------------------------------- set-up


def board_position(config: IcfConfig, breaker: int, board=None) -> Position:
    """The rule-41 rosette with the "Y" pointing at ``breaker``'s side (decision 13)."""
    side = config.seats[breaker]
    angle = -math.pi / 2 + SIDE_ANGLE[side]
    return Position(
        config.variant,
        tuple(rosette(board, y_arm_angle=angle)),
        board,
        name=f"{config.variant}-board",
        description=f"ICF rule 41 opening; the Y points at the breaker ({side}).",
        set_by_hand=True,
    )


def new_board(config: IcfConfig, breaker: int, position: Position | None = None, board=None):
    """A fresh board broken by ``breaker``: that seat's side plays white."""
    if not 0 <= breaker < config.n_seats:
        raise CarromlabError(f"breaker must be a seat 0..{config.n_seats - 1}, not {breaker}")
    if position is None:
        position = board_position(config, breaker, board)
    colours = ("white", "black") if side_of(breaker) == 0 else ("black", "white")
    return IcfBoardState(position=position, turn=breaker, breaker=breaker, colours=colours)


def new_game(
    config: IcfConfig | None = None, position: Position | None = None, breaker: int = 0
) -> IcfState:
    """A game whose first board is broken by ``breaker`` (default seat 0, South), from
    ``position`` (default: the ICF opening, "Y" pointing at the breaker)."""
    config = config or IcfConfig()
    if position is not None and position.variant != config.variant:
        raise CarromlabError(
            f"a {'doubles' if config.doubles else 'singles'} game needs a {config.variant!r} "
            f"position, not {position.variant!r}"
        )
    board = new_board(config, breaker, position)
    return IcfState(board=board, config=config, next_breaker=(breaker + 1) % config.n_seats)


# --------------------------------------------------------------------------- the stroke


def _scalar(v):
    v = np.asarray(v).reshape(-1)[0]
    return v.item()


def _board_points(config, scores, winner, coins, queen_scores, loser_dues) -> int:
    pts = coins
    if queen_scores and scores[winner] <= config.queen_bonus_limit:
        pts += config.queen_value
    if config.score_loser_dues:
        pts += loser_dues
    return int(min(config.board_cap, pts))


def apply_stroke(
    state: IcfState,
    capture_row,
    first_contact_kind,
    first_contact,
    contacts_row=None,
    config: IcfConfig | None = None,
    placement: np.random.Generator | Callable | None = None,
    final_xy=None,
) -> IcfState:
    """The state after one stroke of the player on strike.

    ``capture_row``: int [N] over the disc order of ``state.board.position`` (disc 0 the
    striker, then the pieces): -1 on the board, 0..3 a pocket, more: off the board;
    ``first_contact_kind`` (0 none, 1 piece, 2 wall) and ``first_contact`` (its index);
    ``contacts_row``: optional int [N] (judges a break); ``config``: default ``state.config``;
    ``placement``: ``None`` (``config.placement``, which must then be "centre-first"), a
    ``numpy.random.Generator`` (``config.placement`` drawing from it) or a policy callable
    (decision 15); ``final_xy``: optional [N, 2] resting places (decision 12).

    In steps: the inputs checked (:func:`_checked_rows`), the rules' facts of the stroke
    (:func:`_stroke_facts`), coins down, dues and the queen (:func:`_tallies`), the pieces that
    stay (:func:`_kept_pieces`), then either the board's end (decisions 4-6) or the order of
    play (:func:`_next_turn`) and the pieces put back (:func:`_put_back`).
    """
    config = config or state.config
    bs = state.board
    pos = bs.position
    cap, contacts_row, final_xy = _checked_rows(state, config, capture_row, contacts_row, final_xy)
    side, opp = bs.side, 1 - bs.side
    turn = bs.turn_state(config.due_rule)
    n_pockets = len(pos.board.layout.captures) or N_POCKETS
    facts = _stroke_facts(pos, turn, config, cap, first_contact_kind, first_contact,
                          contacts_row, n_pockets)  # fmt: skip
    own_c, opp_c = bs.colours[side], bs.colours[opp]
    pocketed = [(0 <= c < n_pockets) for c in cap[1:]]
    n_own_before, n_opp_before = pos.count("coin", own_c), pos.count("coin", opp_c)
    down, dues, own_back, opp_back, queen, queen_side, queen_back = _tallies(
        bs, config, facts, turn
    )
    new_pos, gone = _kept_pieces(pos, cap, pocketed, n_pockets, final_xy)
    record = dict(seat=bs.turn, side=side, facts=MappingProxyType(facts))
    common = dict(down=tuple(down), dues=tuple(dues), queen=queen, queen_side=queen_side,
                  strokes=bs.strokes + 1)  # fmt: skip

    # -- the end of the board (decisions 4-6)
    if facts["board_won"] or facts["board_lost"]:
        if facts["board_won"]:
            winner = side
            coins = n_opp_before - facts["opponent_pocketed"]
            queen_scores = queen == "covered" and queen_side == winner
            loser_dues = dues[opp]
        else:
            winner = opp
            coins = n_own_before - facts["own_kept"]
            queen_scores = queen != "covered" or queen_side == winner
            loser_dues = dues[side]
        points = _board_points(config, state.scores, winner, coins, queen_scores, loser_dues)
        done = dataclasses.replace(bs, position=new_pos, **common, is_break=False, over=True,
                                   winner=winner, points=points)  # fmt: skip
        return _end_board(state, config, done, IcfStroke(**record, board_ended=True))

    is_break, tries, next_turn = _next_turn(bs, config, facts)
    backs = ((own_c, own_back), (opp_c, opp_back))
    new_pos, placed = _put_back(pos, new_pos, config, placement, pocketed, gone, queen_back, backs)
    nb = dataclasses.replace(bs, position=new_pos, turn=next_turn, is_break=is_break,
                             break_tries=tries, **common)  # fmt: skip
    return dataclasses.replace(
        state, board=nb, last_stroke=IcfStroke(**record, placed=tuple(placed))
    )


def _checked_rows(state: IcfState, config: IcfConfig, capture_row, contacts_row, final_xy):
    """The stroke's rows as arrays of the position's disc count (one line if not), on a board
    and in a game still going."""
    if state.over:
        raise CarromlabError("the game is over: no more strokes")
    bs = state.board
    if bs.over:
        raise CarromlabError("the board is over: no more strokes on it")
    pos = bs.position
    n = 1 + len(pos.pieces)
    cap = np.asarray(capture_row).reshape(-1)
    if cap.shape != (n,):
        raise CarromlabError(
            f"capture_row has {cap.size} entries; the position has {n} discs (striker + "
            f"{len(pos.pieces)} pieces)"
        )
    if contacts_row is not None:
        contacts_row = np.asarray(contacts_row).reshape(1, -1)
        if contacts_row.shape != (1, n):
            raise CarromlabError(f"contacts_row must have {n} entries, not {contacts_row.size}")
    if final_xy is not None:
        final_xy = np.asarray(final_xy, dtype=float)
        if final_xy.shape != (n, 2):
            raise CarromlabError(f"final_xy must be [{n}, 2], not {list(final_xy.shape)}")
    if not 0 <= bs.turn < config.n_seats:
        raise CarromlabError(f"seat {bs.turn} is not a seat of this game (0..{config.n_seats - 1})")
    return cap, contacts_row, final_xy


def _stroke_facts(pos, turn, config: IcfConfig, cap, first_contact_kind, first_contact,
                  contacts_row, n_pockets: int) -> dict:  # fmt: skip
    """What the rules say of the stroke (:func:`evaluate_icf`), one number a fact; without the
    due rule no due is owed (decision 8)."""
    raw = evaluate_icf(
        cap[None, :],
        np.asarray([first_contact_kind]),
        np.asarray([first_contact]),
        piece_roles(pos),
        turn,
        contacts=contacts_row,
        n_pockets=n_pockets,
    )
    facts = {k: _scalar(v) for k, v in raw.items()}
    if not config.due_rule:  # decision 8
        facts["dues"] = 0
        facts["own_down_after"] = turn.own_down + facts["own_kept"]
        facts["dues_after"] = 0
    return facts


def _tallies(bs: IcfBoardState, config: IcfConfig, facts: dict, turn):
    """Coins down and dues by side after the stroke, the coins that come back for a due (the
    shooter's, and the opponent's where their coin pays it: decision 7) and the queen's state:
    ``(down, dues, own_back, opp_back, queen, queen_side, queen_back)``."""
    side, opp = bs.side, 1 - bs.side
    down, dues = [0, 0], [0, 0]
    down[side] = facts["own_down_after"]
    dues[side] = facts["dues_after"]
    down[opp] = facts["opponent_down_after"]
    dues[opp] = bs.dues[opp] if config.due_rule else 0
    own_back = facts["own_pocketed"] - (facts["own_down_after"] - turn.own_down)
    opp_back = 0
    if config.opponent_coin_pays_due and dues[opp] > 0 and down[opp] > 0:  # decision 7
        opp_back = min(dues[opp], down[opp])
        down[opp] -= opp_back
        dues[opp] -= opp_back
    queen, queen_side = bs.queen, bs.queen_side
    queen_back = False
    if facts["queen_covered"]:
        queen, queen_side = "covered", side
    elif facts["queen_awaits_cover"]:
        queen, queen_side = "pending", side
    elif facts["queen_returned"]:
        queen, queen_side, queen_back = "on_board", None, True
    return down, dues, own_back, opp_back, queen, queen_side, queen_back


def _kept_pieces(pos, cap, pocketed: list[bool], n_pockets: int, final_xy):
    """The position of the pieces that stay (at their resting places: decision 12), and the
    pieces that left the board (65)."""
    left_board = [c >= n_pockets for c in cap[1:]]
    kept, gone = [], []
    for i, p in enumerate(pos.pieces):
        if pocketed[i]:
            continue
        if final_xy is not None:
            p = dataclasses.replace(p, x=float(final_xy[i + 1, 0]), y=float(final_xy[i + 1, 1]))
        if left_board[i]:
            gone.append(p)
        else:
            kept.append(p)
    return pos.replace(pieces=tuple(kept)), gone


def _next_turn(bs: IcfBoardState, config: IcfConfig, facts: dict) -> tuple[bool, int, int]:
    """The order of play (decisions 1-2): ``(is_break, break tries, next seat)``."""
    seat = bs.turn
    is_break, tries, next_turn = False, bs.break_tries, seat
    if facts["break_retry"]:
        tries += 1
        if tries < config.break_tries:
            is_break = True
        else:
            next_turn = (seat + 1) % config.n_seats
            if config.rebreak_after_failed:
                is_break, tries = True, 0
    elif not facts["continues"]:
        next_turn = (seat + 1) % config.n_seats
        if bs.is_break and facts["foul.break_no_coin"] and config.rebreak_after_failed:
            is_break, tries = True, 0  # striker pocketed on a failed try: the next one breaks
    return is_break, tries, next_turn


def _put_back(pos, new_pos, config: IcfConfig, placement, pocketed, gone, queen_back, backs):
    """Pieces back on the board (decisions 9-11; placed by the opponent): the queen and the
    pieces that left the board at the centre, the coins owed for dues (``backs``: (colour,
    count) pairs) returned; ``(position, placed)``."""
    todo: list[tuple[str, str | None, str | None, str]] = []  # kind, owner, keep-id, how
    if queen_back:
        todo.append(("queen", None, None, "centre"))
    for p in gone:
        todo.append((p.kind, p.owner, p.id, "centre"))
    for colour, count in backs:
        # coins pocketed in this stroke come back as themselves, penalty coins take free ids
        same = [p.id for i, p in enumerate(pos.pieces) if pocketed[i] and p.owner == colour]
        same = [pid for pid in same if pos.by_id(pid).kind == "coin"][:count]
        todo += [("coin", colour, pid, "returned") for pid in same]
        todo += [("coin", colour, None, "returned")] * (count - len(same))
    placed = []
    for kind, owner, pid, how in todo:
        if callable(placement) and not isinstance(placement, np.random.Generator):
            x, y = _check_spot(new_pos, kind, placement(new_pos, kind, owner))
        else:
            mode = "centre-first" if how == "centre" else config.placement
            x, y = place_returned(new_pos, kind, owner, placement, mode)
        pid = pid or _free_id(new_pos, kind, owner)
        new_pos = new_pos.replace(pieces=(*new_pos.pieces, Piece(pid, kind, owner, x, y)))
        placed.append((pid, kind, owner, x, y))
    return new_pos, placed


def _end_board(state: IcfState, config: IcfConfig, done: IcfBoardState, rec: IcfStroke) -> IcfState:
    """Score a finished board; end the game or set up the next board (decisions 13-14)."""
    scores = list(state.scores)
    scores[done.winner] += done.points
    boards = state.boards_played + 1
    over, winner = False, None
    if max(scores) >= config.game_points:
        over, winner = True, int(np.argmax(scores))
    elif boards >= config.max_boards:
        if scores[0] != scores[1]:
            over, winner = True, int(np.argmax(scores))
        elif config.tie_rule == "draw":
            over = True
    common = dict(
        scores=tuple(scores),
        boards_played=boards,
        last_board=done,
        last_stroke=rec,
    )
    if over:
        return dataclasses.replace(state, board=done, over=True, winner=winner, **common)
    breaker = state.next_breaker
    nb = new_board(config, breaker, board=done.position.board)
    return dataclasses.replace(
        state,
        board=nb,
        next_breaker=(breaker + 1) % config.n_seats,
        **common,
    )


def apply(
    state: IcfState,
    outcome: StrokeOutcome,
    config: IcfConfig | None = None,
    rng: np.random.Generator | None = None,
    placement: Callable | None = None,
) -> IcfState:
    """The game machine's one signature (:mod:`carromlab.rules.interfaces`): the state after
    a stroke with ``outcome``; ``rng`` places returned coins when ``config.placement`` is
    ``"random"``; a ``placement`` policy (decision 15), when given, places them instead."""
    check_declared(outcome.declared, (), "ICF")
    config = config or IcfConfig()
    return apply_stroke(
        state,
        outcome.capture,
        outcome.first_contact_kind,
        outcome.first_contact,
        outcome.contacts,
        config=config,
        placement=placement or (rng if config.placement == "random" else None),
        final_xy=outcome.final_xy,
    )


__all__ = [
    "PLACEMENT_MODES",
    "SEATS_DOUBLES",
    "SEATS_SINGLES",
    "TIE_RULES",
    "IcfBoardState",
    "IcfConfig",
    "IcfState",
    "IcfStroke",
    "apply",
    "apply_stroke",
    "board_position",
    "nearest_free_spot",
    "new_board",
    "new_game",
    "place_returned",
    "side_of",
]
