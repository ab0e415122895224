"""The Carroms game-state machine (the Carrom Company's rule book, checker side).

Player 0 plays red from the South shooting line, player 1 green from the North. A state holds
the position (rings and the black), whose turn it is, the rings each player has pocketed in
this board (their own, in order: one can be forfeited), and the scores.

Decisions where the rule book is silent (each documented; options where reasonable people
differ):

1. A *board* ends when all of one colour's rings are down (or no ring is left); the pieces are
   racked again (the opening) and the next board is broken by the other player. The game
   ends as soon as a player's score reaches ``target`` (30), or after ``max_boards`` boards
   (the higher score wins; equal is a draw).
2. Pieces that come back (a stroke with the shooting ring pocketed; a forfeited ring) go to
   the free place nearest the centre inside the centre circle (else anywhere on the board).
3. An opponent's ring pocketed counts 1 for the opponent and stays down (it belongs to their
   pocketed rings, so the opponent may forfeit it later).
4. The black, once pocketed legally, stays down for the board.
5. A ring or the black that leaves the board (a capture code past the pockets) is not
   pocketed: it scores nothing (as ``evaluate_carroms`` counts it) and comes back near the
   centre as in decision 2 (as in the ICF game, rule 65).
6. When one stroke brings both players to ``target`` with equal scores, the shooter wins (their
   stroke reached it); otherwise the higher score wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from carromlab.equipment.company import CheckerBoard
from carromlab.errors import CarromlabError
from carromlab.games.carroms.rules import COLOURS, CarromsTurn, evaluate_carroms, pieces_of
from carromlab.games.carroms.setups import carroms_opening
from carromlab.position import Piece, Position
from carromlab.rules.interfaces import StrokeOutcome, check_declared
from carromlab.rules.placement import nearest_free_spot


@dataclass(frozen=True)
class CarromsConfig:
    #: Points that win the game (decision 1).
    target: int = 30
    #: At most this many boards a game; then the higher score wins, equal a draw (decision 1).
    max_boards: int = 10
    #: Strokes a board before the game ends unfinished (a safety net).
    max_strokes: int = 600
    #: The board (equipment, not a rule; None: the standard checker board).
    board: CheckerBoard | None = None

    variant = "carroms"
    n_seats = 2
    seats = ("S", "N")


@dataclass(frozen=True)
class CarromsStroke:
    player: int
    own: int
    opponent: int
    black: int
    foul: bool
    forfeited: str | None
    returned: tuple[str, ...]
    continues: bool


@dataclass(frozen=True)
class CarromsState:
    position: Position
    player: int = 0
    breaker: int = 0
    down: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # rings pocketed for each player
    scores: tuple[int, int] = (0, 0)
    boards: int = 0
    board_strokes: int = 0
    strokes: int = 0
    turns: tuple[int, int] = (1, 0)
    over: bool = False
    winner: int | None = None
    unfinished: bool = False
    history: tuple = field(default=(), repr=False)

    def turn_state(self) -> CarromsTurn:
        own = sum(1 for pid in self.down[self.player] if pid.startswith(COLOURS[self.player][0]))
        return CarromsTurn(COLOURS[self.player], own, is_break=self.board_strokes == 0)


def new_game(config: CarromsConfig | None = None, first: int = 0) -> CarromsState:
    config = config or CarromsConfig()
    turns = (1, 0) if first == 0 else (0, 1)
    return CarromsState(carroms_opening(config.board), player=first, breaker=first, turns=turns)


def _put_back(position: Position, pid: str) -> Position:
    """Decision 2: the piece ``pid`` back near the centre."""
    kind = "black" if pid == "black" else "ring"
    owner = None if kind == "black" else ("red" if pid.startswith("r") else "green")
    board = position.board
    r = board.ring_diameter / 2
    spot = nearest_free_spot(position, r, board.centre_circle_diameter / 2 - r)
    if spot is None:
        spot = nearest_free_spot(position, r, None)
    if spot is None:
        raise CarromlabError(f"no free place for {pid!r}")
    return position.replace(pieces=(*position.pieces, Piece(pid, kind, owner, *spot)))


def apply_stroke(
    state: CarromsState, capture, final_xy, config: CarromsConfig | None = None
) -> CarromsState:
    """Apply one stroke of ``state.player``: ``capture`` [1 + pieces] (the shooting ring
    first), ``final_xy`` [1 + pieces, 2] resting places in board coordinates."""
    config = config or CarromsConfig()
    if state.over:
        raise CarromlabError("the game is over")
    capture = np.asarray(capture).reshape(-1)
    xy = np.asarray(final_xy, float).reshape(-1, 2)
    ps = pieces_of(state.position)
    table = state.position.replace(pieces=ps)
    turn = state.turn_state()
    res = {k: v[0] for k, v in evaluate_carroms(capture[None], table, turn).items()}
    me, other = state.player, 1 - state.player
    n_pockets = len(state.position.board.layout.captures)
    gone = capture[1:] >= 0
    stay = tuple(Piece(p.id, p.kind, p.owner, *xy[k + 1]) for k, p in enumerate(ps) if not gone[k])
    pocketed = [p for k, p in enumerate(ps) if 0 <= capture[k + 1] < n_pockets]
    left = [p.id for k, p in enumerate(ps) if capture[k + 1] >= n_pockets]  # decision 5
    pos = state.position.replace(pieces=stay)
    down = [list(state.down[0]), list(state.down[1])]
    scores = list(state.scores)
    returned: list[str] = list(left)
    forfeited = None
    if res["foul"]:
        returned = [p.id for k, p in enumerate(ps) if gone[k]]  # nothing of the stroke counts
        own_down = [pid for pid in down[me] if pid.startswith(COLOURS[me][0])]
        if own_down:
            forfeited = own_down[-1]
            down[me].remove(forfeited)
            scores[me] -= 1
            returned.append(forfeited)
    else:
        for p in pocketed:
            if p.kind == "black":
                scores[me] += 5
            else:
                owner = COLOURS.index(p.owner)
                down[owner].append(p.id)
                scores[owner] += 1
    for pid in returned:
        pos = _put_back(pos, pid)
    record = CarromsStroke(
        player=me,
        own=int(res["own_pocketed"]),
        opponent=int(res["opponent_pocketed"]),
        black=int(res["black_pocketed"]),
        foul=bool(res["foul"]),
        forfeited=forfeited,
        returned=tuple(returned),
        continues=bool(res["continues"]),
    )
    new = replace(
        state,
        position=pos,
        down=(tuple(down[0]), tuple(down[1])),
        scores=(scores[0], scores[1]),
        strokes=state.strokes + 1,
        board_strokes=state.board_strokes + 1,
        history=(*state.history, record),
    )
    if max(scores) >= config.target:
        a, b = scores
        return replace(new, over=True, winner=me if a == b else int(b > a))  # decision 6
    rings_left = [pos.count("ring", c) for c in COLOURS]
    if min(rings_left) == 0:
        return _next_board(new, config)
    if new.board_strokes >= config.max_strokes:
        return replace(new, over=True, unfinished=True, winner=None)
    if record.continues:
        return new
    turns = list(new.turns)
    turns[other] += 1
    return replace(new, player=other, turns=tuple(turns))


def _next_board(state: CarromsState, config: CarromsConfig) -> CarromsState:
    boards = state.boards + 1
    if boards >= config.max_boards:
        a, b = state.scores
        return replace(state, boards=boards, over=True, winner=None if a == b else int(b > a))
    breaker = 1 - state.breaker
    turns = list(state.turns)
    turns[breaker] += 1
    return replace(
        state,
        position=carroms_opening(config.board),
        boards=boards,
        breaker=breaker,
        player=breaker,
        down=((), ()),
        board_strokes=0,
        turns=tuple(turns),
    )


def apply(
    state: CarromsState, outcome: StrokeOutcome, config: CarromsConfig | None = None, rng=None
) -> CarromsState:
    """The game machine's one signature (:mod:`carromlab.rules.interfaces`)."""
    check_declared(outcome.declared, (), "Carroms")
    return apply_stroke(state, outcome.capture, outcome.final_xy, config)
