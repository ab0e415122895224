"""The Circle Scores game-state machine (a fragment of the Carrom Company's rule book, seed
002; its decisions are numbered in ``rules.py``): shots taken in turn, the points, the rack set
up again when the circle is empty, the game's end after ``shots`` shots each."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from carromlab.equipment.company import CrokinoleBoard
from carromlab.errors import CarromlabError
from carromlab.games.circle_scores.rules import (
    PLAYERS,
    CircleScoresTurn,
    evaluate_circle_scores,
    object_rings,
)
from carromlab.games.circle_scores.setups import circle_scores_opening
from carromlab.position import Piece, Position
from carromlab.rules.crokinole import in_circle
from carromlab.rules.interfaces import StrokeOutcome, check_declared


@dataclass(frozen=True)
class CircleScoresConfig:
    #: Shots each player takes; then the game ends.
    shots: int = 5
    #: The board (equipment, not a rule; None: the standard crokinole side).
    board: CrokinoleBoard | None = None

    variant = "circle-scores"
    n_seats = 2
    seats = ("S", "N")

    def __post_init__(self):
        if int(self.shots) < 1:
            raise CarromlabError(f"each player needs at least 1 shot, not {self.shots}")


@dataclass(frozen=True)
class CircleScoresStroke:
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
    shot = CircleScoresStroke(me, pts, bool(res["shooter_in"]), int(res["rings_out"]), racked)
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
