"""What the game loop asks of a game (:class:`Driver`), and the shared parts of the drivers:
turning a view to the seat on strike, settling resting places, and :class:`TurnedDriver`, the
base of every driver whose player shoots from the South of a view turned to their seat."""

from __future__ import annotations

import math
from typing import Any, Protocol, runtime_checkable

import numpy as np
import pandas as pd

from carromlab.analysis.asks import SHOT_FIELDS, Ask
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.geometry import rotate
from carromlab.errors import CarromlabError
from carromlab.physics.settle import separate
from carromlab.play.loop import GameInPlay, GameRecord
from carromlab.position import Piece
from carromlab.rules.interfaces import StrokeOutcome
from carromlab.shots import Shot

#: Rotation that carries South to each seat's side.
SEAT_ANGLE = {"S": 0.0, "E": math.pi / 2, "N": math.pi, "W": 3 * math.pi / 2}


def turned(position, angle: float):
    """``position`` with every piece rotated by ``angle`` about the centre. A turned position
    keeps ``set_by_hand``: turning the board does not change how its pieces were set (a
    game's opening is still the hand-set rosette or rack in the breaker's view)."""
    pieces = tuple(
        Piece(p.id, p.kind, p.owner, *rotate(p.x, p.y, angle), p.rotation) for p in position.pieces
    )
    return position.replace(pieces=pieces, set_by_hand=position.set_by_hand)


@runtime_checkable
class Driver(Protocol):
    """One game's part in :func:`~carromlab.play.loop.play_games`.

    ``n_seats`` players; ``layout`` (the board's physics primitives) and ``capacity`` (discs
    a kernel batch holds) size the evaluator. For each game in play (a
    :class:`~carromlab.play.loop.GameInPlay`): ``new_state(g)`` starts game ``g``;
    ``plan(gm, policies)`` sets ``gm.seat`` (and the view) and returns the player's plan
    (a generator of asks returning a :class:`~carromlab.analysis.players.Decision`);
    ``execution(gm, decision, skills)`` returns the ask that executes the decision once, with
    the seat's noise (None: the decision ended the stroke without a shot; plan again);
    ``finish(gm, answer, on_stroke)`` applies the executed stroke through the game's machine
    and appends its row; ``over(gm)``; ``record(gm)`` the finished game's
    :class:`~carromlab.play.loop.GameRecord`. A driver may also provide
    ``evaluator(seed, lanes, physics)``, the object that answers its asks (default: the
    sliding-disc kernel)."""

    n_seats: int
    capacity: int
    layout: Any

    def new_state(self, g: int) -> Any: ...

    def plan(self, gm: GameInPlay, policies) -> Any: ...

    def execution(self, gm: GameInPlay, decision, skills) -> Any: ...

    def finish(self, gm: GameInPlay, answer, on_stroke) -> None: ...

    def over(self, gm: GameInPlay) -> bool: ...

    def record(self, gm: GameInPlay) -> GameRecord: ...


def one_shot(shot) -> Shot:
    """A shot as a Shot of 1-element arrays (one base shot of an ask)."""
    return Shot(*(np.atleast_1d(np.asarray(getattr(shot, f), float)) for f in SHOT_FIELDS))


def settled(table, out: dict, xy: np.ndarray, striker: bool = False) -> np.ndarray:
    """``xy`` (the resting places, disc order) with the float32 overlaps of the discs that
    stay pushed apart (physics/settle.py); ``table`` is the kernel's position (discs 1.. are
    its pieces); the striker (disc 0) takes part only with ``striker`` (where it stays on the
    board for the next shot)."""
    stay = np.flatnonzero(out["capture"] < 0)
    stay = stay if striker else stay[stay > 0]
    specs = table.board.piece_specs()
    shooter = analysis_for(table.variant).shooter_kind
    radius = [specs[shooter].radius] + [specs[p.kind].radius for p in table.pieces]
    xy = np.array(xy, float)
    xy[stay] = separate(xy[stay], [radius[k] for k in stay])
    return xy


class TurnedDriver:
    """The common part of the drivers whose player on turn shoots from the South of a view
    turned to their seat (Carroms, the crokinole-side games): a subclass sets ``capacity``
    and ``board_type`` and provides ``new_state``, ``_apply(gm, outcome)`` (apply a
    :class:`~carromlab.rules.interfaces.StrokeOutcome` through the game's machine, return the
    stroke's row) and ``_extra`` (a finished game's own columns)."""

    capacity: int = 0
    board_type: type = type(None)
    n_seats = 2
    #: The shooter stays on the board between strokes (its resting place is separated too).
    lies = False

    def __init__(self, config):
        self.config = config
        self.layout = (config.board or self.board_type()).layout
        self.va = analysis_for(config.variant)

    def _angle(self, seat: int) -> float:
        return SEAT_ANGLE[self.config.seats[seat]]

    def board_position(self, state):
        """The position the player on turn sees (before turning)."""
        return state.position

    def plan(self, gm: GameInPlay, policies):
        gm.seat = gm.state.player
        gm.view = turned(self.board_position(gm.state), -self._angle(gm.seat))
        gm.turn = gm.state.turn_state()
        return policies[gm.seat].plan(gm.view, gm.turn, seed=gm.stroke_seed)

    def execution(self, gm: GameInPlay, decision, skills) -> Ask:
        noise = self.va.noise(skills[gm.seat])
        return Ask(gm.view, one_shot(decision.shot), 1, gm.stroke_seed, noise, gm.turn)

    def over(self, gm: GameInPlay) -> bool:
        return gm.state.over

    def finish(self, gm: GameInPlay, answer, on_stroke) -> None:
        if not answer.legal[0]:
            s = answer.ask.shots
            raise CarromlabError(
                f"game {gm.index}, stroke {gm.k}: the player's shot starts at an illegal origin "
                f"({float(s.x[0]):.4f}, {float(s.y[0]):.4f}) m"
            )
        out = {key: v[0] for key, v in answer.outcome.items()}
        angle = self._angle(gm.seat)
        xy = np.array([rotate(x, y, angle) for x, y in zip(out["x"], out["y"])])
        xy = settled(self.va.table_position(gm.view), out, xy, striker=self.lies)
        first = rotate(float(out["first_x"]), float(out["first_y"]), angle)
        row = self._apply(gm, StrokeOutcome.from_kernel(out, xy, first_xy=first))
        gm.strokes.append(
            {"game": gm.index, "stroke": gm.k, **row, "truncated": bool(out["truncated"])}
        )
        if on_stroke is not None:
            on_stroke(gm.state)

    def scores(self, state) -> tuple[int, int]:
        return state.scores

    def record(self, gm: GameInPlay) -> GameRecord:
        st = gm.state
        strokes = pd.DataFrame(gm.strokes)
        n = len(strokes)
        score = self.scores(st)
        row = {
            "game": gm.index,
            "winner": -1 if st.winner is None else int(st.winner),
            "score_0": int(score[0]),
            "score_1": int(score[1]),
            "turns_0": int(st.turns[0]),
            "turns_1": int(st.turns[1]),
            "strokes": n,
            **self._extra(st, strokes),
            "truncated_strokes": int(strokes["truncated"].sum()) if n else 0,
            "finished": bool(st.over and not getattr(st, "unfinished", False)),
        }
        return GameRecord(st, strokes, pd.DataFrame(), row=row)

    def _total(self, strokes: pd.DataFrame, *columns) -> int:
        return int(sum(strokes[c].sum() for c in columns)) if len(strokes) else 0
