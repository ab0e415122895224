"""The Ring Pegs game-state machine (the Carrom Company's rule book, crokinole side; seed
002, cut short; its decisions are numbered in ``rules.py``): both players' shooting rings
where they lie, the stages (the pass, then the finish), the turn kept by a pass or a clearing
hit, the game's end."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from carromlab.equipment.company import CrokinoleBoard
from carromlab.errors import CarromlabError
from carromlab.games.ring_pegs.rules import (
    ACTIVE,
    PLAYERS,
    RingPegsTurn,
    evaluate_ring_pegs,
    start_spot,
    table_position,
)
from carromlab.games.ring_pegs.setups import ring_pegs_opening
from carromlab.position import Piece, Position
from carromlab.rules.interfaces import StrokeOutcome, check_declared


@dataclass(frozen=True)
class RingPegsConfig:
    #: Strokes before the game ends unfinished, without a winner.
    max_strokes: int = 300
    #: The board (equipment, not a rule; None: the standard crokinole side).
    board: CrokinoleBoard | None = None

    variant = "ring-pegs"
    n_seats = 2
    seats = ("S", "N")


@dataclass(frozen=True)
class RingPegsStroke:
    player: int
    stage: int
    passed: bool
    finished: bool
    touched_pegged: bool
    cleared: bool = False


@dataclass(frozen=True)
class RingPegsState:
    """``rings[p]``: where player p's shooting ring lies in board coordinates (None: at the
    start); ``stages[p]``: 1 or 2."""

    position: Position  # the pegged rings only
    player: int = 0
    stages: tuple[int, int] = (1, 1)
    rings: tuple = (None, None)
    strokes: int = 0
    turns: tuple[int, int] = (1, 0)
    over: bool = False
    winner: int | None = None
    unfinished: bool = False
    history: tuple = field(default=(), repr=False)

    def turn_state(self) -> RingPegsTurn:
        return RingPegsTurn(self.stages[self.player])

    def board_position(self) -> Position:
        """The pegged rings and both shooting rings where they lie (the active one, at the
        start if it is there, as ``shooter``; the other as ``shooter.<player>``)."""
        me, other = self.player, 1 - self.player
        pieces = list(self.position.pieces)
        spot = self.rings[me]
        if spot is None:
            spot = _free_start(self.position.board, me, self.rings[other])
        pieces.append(Piece(ACTIVE, "shooter", PLAYERS[me], *spot))
        if self.rings[other] is not None:
            pieces.append(
                Piece(f"shooter.{PLAYERS[other]}", "shooter", PLAYERS[other], *self.rings[other])
            )
        return self.position.replace(pieces=tuple(pieces))


def _free_start(board, player: int, other) -> tuple[float, float]:
    """Decision 1: the start, or - when the opponent's ring lies on it - the nearest point of
    the outer circle clear of that ring (steps of 0.5 deg, alternating sides)."""
    x0, y0 = _start(board, player)
    if other is None:
        return x0, y0
    a0 = np.arctan2(y0, x0)
    steps = np.arange(0, 361)
    offsets = np.stack([steps, -steps], axis=1).ravel()[1:] * 0.5  # 0, +0.5, -0.5, +1, ...
    for off in offsets:
        a = a0 + np.radians(off)
        x, y = board.outer_radius * np.cos(a), board.outer_radius * np.sin(a)
        if np.hypot(x - other[0], y - other[1]) >= board.ring_diameter - 1e-9:
            return float(x), float(y)
    raise CarromlabError("no free start on the outer circle")


def _start(board, player: int) -> tuple[float, float]:
    x, y = start_spot(board)
    return (x, y) if player == 0 else (-x, -y)


def new_game(config: RingPegsConfig | None = None) -> RingPegsState:
    config = config or RingPegsConfig()
    return RingPegsState(ring_pegs_opening(config.board))


def apply_stroke(
    state: RingPegsState, capture, final_xy, contacts, first_xy=(np.nan, np.nan), config=None
) -> RingPegsState:
    """Apply one stroke of the player on turn: kernel arrays over ``state.board_position()``'s
    table (the active ring first), resting places and ``first_xy`` (the ring's first contact,
    NaN: none) in board coordinates."""
    config = config or RingPegsConfig()
    if state.over:
        raise CarromlabError("the game is over")
    view = state.board_position()
    capture = np.asarray(capture).reshape(-1)
    xy = np.asarray(final_xy, float).reshape(-1, 2)
    contacts = np.asarray(contacts).reshape(-1)
    turn = state.turn_state()
    # judge in a frame where the active ring's start is South (decision 1): rotate player 1's
    me, other = state.player, 1 - state.player
    sign = 1.0 if me == 0 else -1.0
    res = evaluate_ring_pegs(
        capture[None],
        sign * xy[None, :, 0],
        sign * xy[None, :, 1],
        contacts[None],
        _turned(view, sign),
        turn,
        sign * np.array([first_xy[0]], float),
        sign * np.array([first_xy[1]], float),
    )
    res = {k: bool(v[0]) for k, v in res.items() if k != "points"}
    table = table_position(view)
    rings = list(state.rings)
    # the opponent's ring may have been pushed: where it rests (or back to its start)
    for k, p in enumerate(table.pieces):
        if p.kind == "shooter":
            rings[other] = None if capture[k + 1] >= 0 else tuple(xy[k + 1])
    stages = list(state.stages)
    finished = res["finished"] and turn.stage == 2  # a stage-1 ring in the hole finishes nothing
    shot = RingPegsStroke(
        me, turn.stage, res["passed"], finished, res["touched_pegged"], res["cleared"]
    )
    new = replace(state, strokes=state.strokes + 1, history=(*state.history, shot))
    if turn.stage == 2 and res["finished"]:
        rings[me] = None
        return replace(new, rings=tuple(rings), over=True, winner=me)
    lost = capture[0] >= 0
    if turn.stage == 1:
        if res["passed"]:
            stages[me] = 2
            rings[me] = None if lost else tuple(xy[0])
            new = replace(new, stages=tuple(stages), rings=tuple(rings))
            if new.strokes >= config.max_strokes:  # decision 5, even when the turn continues
                return replace(new, over=True, unfinished=True)
            return new
        rings[me] = None  # decision 4: back to the start
    else:
        rings[me] = None if lost else tuple(xy[0])
    new = replace(new, stages=tuple(stages), rings=tuple(rings))
    if new.strokes >= config.max_strokes:
        return replace(new, over=True, unfinished=True)
    if res["cleared"]:  # decision 4: a clearing hit keeps the turn
        return new
    turns = list(new.turns)
    turns[other] += 1
    return replace(new, player=other, turns=tuple(turns))


def _turned(position: Position, sign: float) -> Position:
    if sign > 0:
        return position
    return position.replace(
        pieces=tuple(Piece(p.id, p.kind, p.owner, -p.x, -p.y, p.rotation) for p in position.pieces)
    )


def apply(
    state: RingPegsState, outcome: StrokeOutcome, config: RingPegsConfig | None = None, rng=None
) -> RingPegsState:
    """The game machine's one signature (:mod:`carromlab.rules.interfaces`): the first leg
    ends at ``outcome.first_xy`` (NaN: no contact)."""
    check_declared(outcome.declared, (), "Ring Pegs")
    first = outcome.first_xy if outcome.first_xy is not None else (np.nan, np.nan)
    return apply_stroke(state, outcome.capture, outcome.final_xy, outcome.contacts, first, config)
