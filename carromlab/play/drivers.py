"""What the game loop asks of a game (:class:`Driver`), and the one base every built-in driver
is built on (:class:`BaseDriver`): who is on strike and what they see, the stroke executed
once with the seat's noise, its resting places settled and applied through the game's
machine, the stroke's and the game's rows. :class:`TurnedDriver` adds the turn of the view:
the player on strike shoots from the South of a view turned to their seat."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Protocol, runtime_checkable

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from carromlab.analysis.asks import SHOT_FIELDS, Ask
from carromlab.analysis.variants import analysis_for
from carromlab.equipment import game_set
from carromlab.equipment.geometry import rotate
from carromlab.errors import CarromlabError
from carromlab.physics.settle import separate
from carromlab.play.loop import GameInPlay, GameRecord, Row
from carromlab.position import Piece, Position
from carromlab.rules.interfaces import GameMachine, StrokeOutcome
from carromlab.shots import Shot, Skill

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.analysis.players import Decision, Plan, Player
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.equipment.base import Board

#: Rotation that carries South to each seat's side.
SEAT_ANGLE = {"S": 0.0, "E": math.pi / 2, "N": math.pi, "W": 3 * math.pi / 2}

#: ``on_stroke(state)``: called after every stroke with the game's state.
OnStroke = Callable[[Any], object] | None


class RowColumns(NamedTuple):
    """The columns of a game's rows, known before any game is played: ``games`` (the game
    row's, in order) and ``boards`` (a board row's; empty where the game keeps no board
    rows). A driver declares them (``row_columns()``, see :class:`Driver`) beside the code
    that builds the rows, so that a study's questions are checked against them before its
    games are played (:mod:`carromlab.studies.check`); a test plays a game of every game and
    compares (tests/test_study_check.py)."""

    games: tuple[str, ...]
    boards: tuple[str, ...] = ()


def turned(position: Position, angle: float) -> Position:
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
    sliding-disc kernel), and ``row_columns()``, the columns its records' rows will have
    (a :class:`RowColumns`; every built-in driver has it, from :class:`BaseDriver`: without
    it, or where it returns None, a study's questions are checked against the rows only once
    they are played)."""

    n_seats: int
    capacity: int
    layout: Any

    def new_state(self, g: int) -> Any: ...

    def plan(self, gm: GameInPlay, policies: Sequence[Player]) -> Plan: ...

    def execution(self, gm: GameInPlay, decision: Decision, skills: Sequence[Skill]) -> Any: ...

    def finish(self, gm: GameInPlay, answer: Any, on_stroke: OnStroke) -> None: ...

    def over(self, gm: GameInPlay) -> bool: ...

    def record(self, gm: GameInPlay) -> GameRecord: ...


def one_shot(shot: Shot) -> Shot:
    """A shot as a Shot of 1-element arrays (one base shot of an ask)."""
    # Any: a Shot holds NumPy arrays here (its fields are typed as JAX arrays)
    fields: list[Any] = [np.atleast_1d(np.asarray(getattr(shot, f), float)) for f in SHOT_FIELDS]
    return Shot(*fields)


def settled(
    table: Position,
    out: Mapping[str, ArrayLike],
    xy: ArrayLike,
    striker: bool = False,
    angle: float | None = None,
) -> NDArray[np.float64]:
    """``xy`` (the resting places, disc order) with the float32 overlaps of the discs that
    stay pushed apart (physics/settle.py); ``table`` is the kernel's position (discs 1.. are
    its pieces); the striker (disc 0) takes part only with ``striker`` (where it stays on the
    board for the next shot). A pegged piece (Ring Pegs' rings over the pegs: static in the
    kernel, and kept on its peg by the game) is not moved and is taken where the table has it
    (turned by ``angle`` where ``xy`` is in another frame), not at the kernel's float32
    rounding of it: the disc touching it moves by the whole overlap, so that it does not rest
    overlapping the peg's ring as the game keeps it."""
    stay = np.flatnonzero(np.asarray(out["capture"]) < 0)
    stay = stay if striker else stay[stay > 0]
    specs = table.board.piece_specs()
    shooter = analysis_for(table.variant).shooter_kind
    pegged = game_set(table.variant).pegged
    radius, movable = [specs[shooter].radius], [True]
    moved: NDArray[np.float64] = np.array(xy, float)
    for k, p in enumerate(table.pieces, start=1):
        radius.append(specs[p.kind].radius)
        movable.append(p.kind not in pegged)
        if not movable[k]:
            moved[k] = (p.x, p.y) if angle is None else rotate(p.x, p.y, angle)
    moved[stay] = separate(
        moved[stay], [radius[k] for k in stay], movable=[movable[k] for k in stay]
    )
    return moved


#: The columns :meth:`BaseDriver.record` puts before a game's own (``_extra``) and after
#: them (:meth:`BaseDriver.row_columns`).
HEAD_COLUMNS = ("game", "winner", "score_0", "score_1", "turns_0", "turns_1", "strokes")
TAIL_COLUMNS = ("truncated_strokes", "finished")


class BaseDriver:
    """The base of every built-in driver: what the drivers share, with hooks for what each
    game does its own way.

    A game's driver sets ``capacity`` (discs a kernel batch holds), ``board_type`` (its board
    when the configuration names none; None: no sliding-disc board), ``lies`` (the shooting
    piece stays on the board between strokes: its resting place is settled too),
    ``state_machine`` (its :class:`~carromlab.rules.interfaces.GameMachine`, usually its
    ``machine`` module) and ``totals`` (the game row's columns that total stroke columns).
    The rest it may take as they are:

    - :meth:`plan`: :meth:`on_strike` says who is on strike, what they see and the turn
      context (by default the player on turn sees the game's state and the rule
      configuration: Carrooka), and the seat's player plans;
    - :meth:`execution`: one execution of the decided shot from the view, with the seat's
      noise as the variant plays it;
    - :meth:`finish`: the executed stroke's resting places back in the board's frame
      (:meth:`seat_angle`), settled, applied through the machine (``_apply``); the stroke's
      row is ``game``, ``stroke``, its own columns (:meth:`stroke_row`: by default the
      fields of the machine's record of the stroke) and ``truncated``;
    - :meth:`over`, :meth:`record`: the game's row: winner, scores (:meth:`scores`), turns,
      strokes, the game's own columns (``_extra``: by default the ``totals``), truncated
      strokes, finished;
    - :meth:`row_columns`: those columns, declared without playing (:data:`HEAD_COLUMNS`,
      ``extra_columns``, :data:`TAIL_COLUMNS`; no board rows): a driver that overrides
      ``_extra`` names its columns in ``extra_columns``, one that builds other rows
      overrides :meth:`row_columns` beside them (else its columns are not known before
      its games: None).
    """

    capacity: int = 0
    board_type: type[Board] | None = None
    lies: bool = False
    # Any: each game's own configuration and state types
    state_machine: ClassVar[GameMachine[Any, Any] | None] = None
    #: The game row's columns that total stroke columns: column -> the strokes' columns.
    totals: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: The game row's own columns as ``_extra`` returns them, in order (None: the
    #: ``totals``' columns, which the default ``_extra`` returns).
    extra_columns: ClassVar[tuple[str, ...] | None] = None

    # Any: each game's own rule configuration (its seats, its board), read by its driver
    def __init__(self, config: Any) -> None:
        self.config = config
        self.n_seats = int(config.n_seats)
        board = getattr(config, "board", None)
        if board is None and self.board_type is not None:
            board = self.board_type()
        self.layout: Any = None if board is None else board.layout

    @functools.cached_property
    def va(self) -> VariantAnalysis:
        """The variant's shot-analysis hooks (noise, the kernel's view of a position)."""
        return analysis_for(self.config.variant)

    def _machine(self) -> GameMachine[Any, Any]:
        if self.state_machine is None:
            raise NotImplementedError(f"{type(self).__name__} names no game machine")
        return self.state_machine

    def new_state(self, g: int) -> Any:
        return self._machine().new_game(self.config)

    def _apply(self, gm: GameInPlay, outcome: StrokeOutcome) -> Row:
        """Apply ``outcome`` through the game's machine (``gm.state`` becomes the new state);
        the stroke's own columns."""
        before = gm.state
        gm.state = self._machine().apply(before, outcome, self.config, gm.rng)
        return self.stroke_row(gm, before)

    def stroke_row(self, gm: GameInPlay, before: Any) -> Row:
        """The stroke's own columns (``before``: the state it was played in; ``gm.state``:
        the state after it): the fields of the machine's record of it (the state's last
        ``history`` entry)."""
        return dataclasses.asdict(gm.state.history[-1])

    def on_strike(self, gm: GameInPlay) -> None:
        """Set ``gm.seat`` (who is on strike), ``gm.view`` (what they see) and ``gm.turn``
        (the turn context their player plans under)."""
        gm.seat = gm.state.player
        gm.view = gm.state
        gm.turn = self.config

    def plan(self, gm: GameInPlay, policies: Sequence[Player]) -> Plan:
        gm.policies = policies  # a driver may ask another seat's player (ICF: to place)
        self.on_strike(gm)
        return policies[gm.seat].plan(gm.view, gm.turn, seed=gm.stroke_seed)

    def execution(self, gm: GameInPlay, decision: Decision, skills: Sequence[Skill]) -> Any:
        noise = self.va.noise(skills[gm.seat])
        return Ask(gm.view, one_shot(decision.shot), 1, gm.stroke_seed, noise, gm.turn)

    def seat_angle(self, gm: GameInPlay) -> float | None:
        """The angle that turns the view of the stroke in hand back to the board's frame
        (None: the view is the board's own)."""
        return None

    def finish(self, gm: GameInPlay, answer: Any, on_stroke: OnStroke) -> None:
        if not answer.legal[0]:
            s = answer.ask.shots
            raise CarromlabError(
                f"game {gm.index}, stroke {gm.k}: the player's shot starts at an illegal origin "
                f"({float(s.x[0]):.4f}, {float(s.y[0]):.4f}) m"
            )
        out = {key: v[0] for key, v in answer.outcome.items()}
        angle = self.seat_angle(gm)
        first = (float(out["first_x"]), float(out["first_y"]))
        if angle is None:
            xy = np.stack([out["x"], out["y"]], axis=1)
        else:
            xy = np.array([rotate(x, y, angle) for x, y in zip(out["x"], out["y"])])
            first = rotate(*first, angle)
        xy = settled(self.va.table_position(gm.view), out, xy, striker=self.lies, angle=angle)
        row = self._apply(gm, StrokeOutcome.from_kernel(out, xy, first_xy=first, turn=gm.turn))
        gm.strokes.append(
            {"game": gm.index, "stroke": gm.k, **row, "truncated": bool(out["truncated"])}
        )
        if on_stroke is not None:
            on_stroke(gm.state)

    def over(self, gm: GameInPlay) -> bool:
        return bool(gm.state.over)

    def scores(self, state: Any) -> tuple[int, int]:
        """The two players' scores in the game's row."""
        a, b = state.scores
        return int(a), int(b)

    def _extra(self, state: Any, strokes: pd.DataFrame) -> Row:
        """A finished game's own columns (after ``strokes`` in its row): the ``totals``."""
        return {column: self._total(strokes, *of) for column, of in self.totals.items()}

    def _total(self, strokes: pd.DataFrame, *columns: str) -> int:
        return int(sum(strokes[c].sum() for c in columns)) if len(strokes) else 0

    def row_columns(self) -> RowColumns | None:
        """The columns of :meth:`record`'s rows (:class:`RowColumns`): the game row's
        :data:`HEAD_COLUMNS`, its own ``extra_columns`` and :data:`TAIL_COLUMNS`; no board
        rows. None (not known before the games) for a driver that builds its rows its own
        way without saying which columns they have: one that overrides ``_extra`` without
        ``extra_columns``, or :meth:`record` without :meth:`row_columns`."""
        kind = type(self)
        if kind.record is not BaseDriver.record and kind.row_columns is BaseDriver.row_columns:
            return None
        if self.extra_columns is None:
            if kind._extra is not BaseDriver._extra:
                return None
            return RowColumns((*HEAD_COLUMNS, *self.totals, *TAIL_COLUMNS))
        return RowColumns((*HEAD_COLUMNS, *self.extra_columns, *TAIL_COLUMNS))

    def record(self, gm: GameInPlay) -> GameRecord:
        st = gm.state
        strokes = pd.DataFrame(gm.strokes)
        n = len(strokes)
        score = self.scores(st)
        row = {
            "game": gm.index,
            "winner": -1 if st.winner is None else int(st.winner),
            "score_0": score[0],
            "score_1": score[1],
            "turns_0": int(st.turns[0]),
            "turns_1": int(st.turns[1]),
            "strokes": n,
            **self._extra(st, strokes),
            "truncated_strokes": self._total(strokes, "truncated"),
            "finished": bool(st.over and not getattr(st, "unfinished", False)),
        }
        return GameRecord(st, strokes, pd.DataFrame(), row=row)


class TurnedDriver(BaseDriver):
    """The base of the drivers whose player on strike shoots from the South of a view turned
    to their seat (ICF, Carroms, the crokinole-side games): the view is the board's position
    (:meth:`board_position`) turned by minus the seat's angle (:data:`SEAT_ANGLE` of the
    configuration's ``seats``), the turn context the state's ``turn_state()``; the stroke's
    resting places are turned back."""

    def on_strike(self, gm: GameInPlay) -> None:
        st = gm.state
        self.turn_to(gm, st.player, self.board_position(st), st.turn_state())

    def turn_to(self, gm: GameInPlay, seat: int, position: Position, turn: object) -> None:
        """``seat`` on strike, seeing ``position`` turned to their seat, under ``turn``."""
        gm.seat = seat
        gm.view = turned(position, -self._angle(seat))
        gm.turn = turn

    def board_position(self, state: Any) -> Position:
        """The position the player on turn sees (before turning)."""
        position: Position = state.position
        return position

    def _angle(self, seat: int) -> float:
        return SEAT_ANGLE[self.config.seats[seat]]

    def seat_angle(self, gm: GameInPlay) -> float | None:
        return self._angle(gm.seat)
