"""The Force Out game-state machine (and Fast Play Force Out): turns, force-outs, the centre
hole, the shooting-ring penalty and the round's scoring (seed 002).

Player 0 plays red from the South side, player 1 green from the North. A state holds the
position (the rings; in Fast Play also a ``shooter`` piece where the one shooting ring lies),
whose turn it is, the rings each colour has out of play (forced out, in order), the points
scored in the hole, and the round and game scores. :func:`apply_stroke` applies one stroke;
positions are kept in board coordinates (the analysis layer turns them so the shooter sits
South).

Decisions where the rule book is silent (each documented, options where reasonable people
differ):

1. A game is ``rounds`` rounds (default 1); the first shooter alternates between rounds; the
   higher total wins, equal totals are a draw.
2. A round ends after the stroke that leaves one player with no ring in the scoring circle;
   then every ring still in the circle scores 5 for its owner (a ring in the hole scored 5
   when it fell). If both players' rings are gone at once the round simply ends.
3. The penalty's returned ring is the opponent's ring most recently forced out; it goes to
   the free place nearest the centre inside the small circle that does not overhang the
   centre hole (centre at least hole radius + ring radius from the centre; rings of 2 mm,
   every 5 deg).
4. Fast Play: the one shooting ring is played from where it lies by whoever is on turn; when
   it is lost (hole, outside the playing circle, off the board) the next shot starts from the
   outer line on the shooter's side. In Force Out each player's ring is retrieved after
   every stroke (a force-out: "shoot again from the starting line"; a miss: removed from
   play).
5. A stroke after which neither player has a ring in the circle ends the round; a game also
   ends after ``max_strokes`` strokes a round (safety; reported as unfinished).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from carromlab.equipment.company import CrokinoleBoard
from carromlab.errors import CarromlabError
from carromlab.games.force_out.rules import COLOURS, ForceOutTurn, evaluate_force_out
from carromlab.games.force_out.setups import force_out_opening
from carromlab.position import Piece, Position
from carromlab.rules.crokinole import hole_code, in_circle, rings
from carromlab.rules.interfaces import StrokeOutcome, check_declared


@dataclass(frozen=True)
class ForceOutConfig:
    """Rule options: ``fast`` (Fast Play, one shooting ring), ``rounds`` a game (decision
    1), ``ring_value`` (5)."""

    #: Fast Play: one shooting ring, played from where it lies (the variant force-out-fast).
    fast: bool = False
    #: Rounds a game; the higher total wins (decision 1).
    rounds: int = 1
    #: Points a ring scores in the circle or the hole at the round's end (decision 2).
    ring_value: int = 5
    #: Strokes a round before the game ends unfinished (a safety net, decision 5).
    max_strokes: int = 400
    #: The board (equipment, not a rule; None: the standard crokinole side).
    board: CrokinoleBoard | None = None

    n_seats = 2
    seats = ("S", "N")

    @property
    def variant(self) -> str:
        return "force-out-fast" if self.fast else "force-out"

    def __post_init__(self):
        if int(self.rounds) < 1:
            raise CarromlabError(f"a game needs at least 1 round, not {self.rounds}")


@dataclass(frozen=True)
class ForceOutStroke:
    player: int
    opponent_out: int
    own_out: int
    holed: tuple[int, int]  # rings holed this stroke, by player
    penalty: bool
    returned: str | None
    continues: bool


@dataclass(frozen=True)
class ForceOutState:
    position: Position
    player: int = 0
    round: int = 0
    first: int = 0  # who started this round
    out_of_play: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # forced-out ring ids
    holed: tuple[int, int] = (0, 0)  # rings each player has in the hole this round
    scores: tuple[int, int] = (0, 0)  # game totals of finished rounds
    round_scores: tuple[tuple[int, int], ...] = ()
    strokes: int = 0
    round_strokes: int = 0
    turns: tuple[int, int] = (1, 0)
    over: bool = False
    winner: int | None = None
    unfinished: bool = False
    history: tuple = field(default=(), repr=False)

    def colour(self, player: int) -> str:
        return COLOURS[player]

    def in_circle(self, player: int) -> int:
        """The player's rings in the scoring circle."""
        c = COLOURS[player]
        rs = [p for p in rings(self.position) if p.owner == c]
        return int(in_circle(self.position.board, [p.x for p in rs], [p.y for p in rs]).sum())

    def turn_state(self) -> ForceOutTurn:
        other = 1 - self.player
        return ForceOutTurn(COLOURS[self.player], len(self.out_of_play[other]))


def new_game(config: ForceOutConfig | None = None, first: int = 0) -> ForceOutState:
    config = config or ForceOutConfig()
    pos = force_out_opening(config.variant, config.board)
    return ForceOutState(position=pos, player=first, first=first, turns=_one(first))


def _one(player: int) -> tuple[int, int]:
    return (1, 0) if player == 0 else (0, 1)


def return_spot(position: Position, step: float = 0.002) -> tuple[float, float]:
    """Decision 3: the free place nearest the centre inside the small circle, not over the
    hole."""
    board = position.board
    r = board.ring_diameter / 2
    r0 = board.hole_diameter / 2 + r
    specs = board.piece_specs()
    for rho in np.arange(r0, board.small_radius - r + 1e-12, step):
        for a in np.radians(np.arange(-90.0, 270.0, 5.0)):
            x, y = rho * math.cos(a), rho * math.sin(a)
            if all(
                math.hypot(p.x - x, p.y - y) >= r + specs[p.kind].radius - 1e-9
                for p in position.pieces
            ):
                return x, y
    raise CarromlabError("no free place inside the small circle for a returned ring")


def apply_stroke(
    state: ForceOutState, capture, final_xy, config: ForceOutConfig | None = None
) -> ForceOutState:
    """Apply one stroke of ``state.player``: ``capture`` [1 + rings] (the shooting ring
    first), ``final_xy`` [1 + rings, 2] the resting places, in board coordinates."""
    config = config or ForceOutConfig()
    if state.over:
        raise CarromlabError("the game is over")
    capture = np.asarray(capture).reshape(-1)
    xy = np.asarray(final_xy, float).reshape(-1, 2)
    pos0 = state.position
    rs = rings(pos0)
    table = pos0.replace(pieces=rs)
    turn = state.turn_state()
    res = evaluate_force_out(capture[None], xy[None, :, 0], xy[None, :, 1], table, turn)
    res = {k: v[0] for k, v in res.items()}
    board = pos0.board
    hole = hole_code(board)
    me, other = state.player, 1 - state.player
    inside = (capture[1:] < 0) & in_circle(board, xy[1:, 0], xy[1:, 1])
    keep, out = [], [list(state.out_of_play[0]), list(state.out_of_play[1])]
    holed = [0, 0]
    for k, p in enumerate(rs):
        owner = COLOURS.index(p.owner)
        if capture[k + 1] == hole:
            holed[owner] += 1
        elif inside[k]:
            keep.append(Piece(p.id, p.kind, p.owner, *xy[k + 1]))
        else:
            out[owner].append(p.id)
    pos = pos0.replace(pieces=tuple(keep))
    returned = None
    if res["penalty"] and out[other]:
        returned = out[other].pop()
        x, y = return_spot(pos)
        pos = pos.replace(pieces=(*pos.pieces, Piece(returned, "ring", COLOURS[other], x, y)))
    if config.fast and not res["penalty"]:
        pos = pos.replace(pieces=(*pos.pieces, Piece("shooter", "shooter", None, *xy[0])))
    record = ForceOutStroke(
        player=me,
        opponent_out=int(res["opponent_out"]),
        own_out=int(res["own_out"]),
        holed=(holed[0], holed[1]),
        penalty=bool(res["penalty"]),
        returned=returned,
        continues=bool(res["continues"]),
    )
    new = replace(
        state,
        position=pos,
        out_of_play=(tuple(out[0]), tuple(out[1])),
        holed=(state.holed[0] + holed[0], state.holed[1] + holed[1]),
        strokes=state.strokes + 1,
        round_strokes=state.round_strokes + 1,
        history=(*state.history, record),
    )
    if new.in_circle(0) == 0 or new.in_circle(1) == 0:
        return _end_round(new, config)
    if new.round_strokes >= config.max_strokes:
        return replace(_end_round(new, config), over=True, unfinished=True)
    if record.continues:
        return new
    turns = list(new.turns)
    turns[other] += 1
    return replace(new, player=other, turns=tuple(turns))


def _end_round(state: ForceOutState, config: ForceOutConfig) -> ForceOutState:
    v = config.ring_value
    pts = tuple(v * (state.in_circle(p) + state.holed[p]) for p in (0, 1))
    scores = (state.scores[0] + pts[0], state.scores[1] + pts[1])
    done = state.round + 1
    if done >= config.rounds:
        a, b = scores
        winner = None if a == b else (0 if a > b else 1)
        return replace(
            state,
            scores=scores,
            round_scores=(*state.round_scores, pts),
            round=done,
            over=True,
            winner=winner,
        )
    first = 1 - state.first
    fresh = force_out_opening(config.variant, config.board)
    turns = list(state.turns)
    turns[first] += 1
    return replace(
        state,
        position=fresh,
        scores=scores,
        round_scores=(*state.round_scores, pts),
        round=done,
        first=first,
        player=first,
        out_of_play=((), ()),
        holed=(0, 0),
        round_strokes=0,
        turns=tuple(turns),
    )


def apply(
    state: ForceOutState, outcome: StrokeOutcome, config: ForceOutConfig | None = None, rng=None
) -> ForceOutState:
    """The game machine's one signature (:mod:`carromlab.rules.interfaces`)."""
    check_declared(outcome.declared, (), "Force Out")
    return apply_stroke(state, outcome.capture, outcome.final_xy, config)
