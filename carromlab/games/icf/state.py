"""Standard carrom's game state (ICF laws): the rule options (:class:`IcfConfig`), a board's
state (:class:`IcfBoardState`), a stroke's record (:class:`IcfStroke`) and the whole game's
(:class:`IcfState`), seats and sides. The machine that moves them is
:mod:`carromlab.games.icf.machine`, whose docstring gives the decisions they follow."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carromlab.errors import CarromlabError
from carromlab.games.icf.rules import (
    COINS_PER_SIDE,
    COLOURS,
    IcfTurn,
)
from carromlab.position import Position

#: Where each seat sits: singles (S, N), doubles (S, E, N, W): turns go to the right.
SEATS_SINGLES = ("S", "N")
SEATS_DOUBLES = ("S", "E", "N", "W")
PLACEMENT_MODES = ("centre-first", "random")
TIE_RULES = ("extra-board", "draw")
QUEEN_STATES = ("on_board", "pending", "covered")
#: Random draws before the "random" placement falls back to the nearest free spot.
RANDOM_TRIES = 2048


@dataclass(frozen=True)
class IcfConfig:
    """Rule options (defaults per the laws and the decisions of the module docstring)."""

    #: Doubles: four players, partners sitting opposite (the variant icf-doubles).
    doubles: bool = False
    #: Points the queen adds to a board won by the side that covered her.
    queen_value: int = 3
    #: The queen counts while the winner's score before the board is at most this (decision 3).
    queen_bonus_limit: int = 21
    #: At most this many points a board (decision 4).
    board_cap: int = 12
    #: Points that win the game (checked at the end of a board).
    game_points: int = 25
    #: At most this many boards a game; then the higher score wins (decision 14).
    max_boards: int = 8
    #: Tries the breaker has to break (laws 44-45).
    break_tries: int = 3
    #: Pocketing the striker costs a penalty coin (a due); False: it costs none (decision 8).
    due_rule: bool = True
    #: Where returned coins go: "centre-first" or "random" (decision 9).
    placement: str = "centre-first"
    #: A tie after max_boards: "extra-board" (boards until one side leads) or "draw"
    #: (decision 14).
    tie_rule: str = "extra-board"
    #: After a failed break the next player must break too, with fresh tries (decision 2).
    rebreak_after_failed: bool = False
    #: An opponent's coin pocketed while the opponent owes a due pays it at once (decision 7).
    opponent_coin_pays_due: bool = True
    #: Each due the loser still owes at a board's end counts a point for the winner
    #: (decision 5).
    score_loser_dues: bool = False

    def __post_init__(self):
        if self.placement not in PLACEMENT_MODES:
            raise CarromlabError(
                f"IcfConfig.placement must be one of {PLACEMENT_MODES}, not {self.placement!r}"
            )
        if self.tie_rule not in TIE_RULES:
            raise CarromlabError(
                f"IcfConfig.tie_rule must be one of {TIE_RULES}, not {self.tie_rule!r}"
            )
        for name in ("queen_value", "queen_bonus_limit", "board_cap"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise CarromlabError(f"IcfConfig.{name} must be a whole number >= 0, not {v!r}")
        for name in ("game_points", "max_boards", "break_tries"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise CarromlabError(f"IcfConfig.{name} must be a whole number >= 1, not {v!r}")

    @property
    def n_seats(self) -> int:
        return 4 if self.doubles else 2

    @property
    def seats(self) -> tuple[str, ...]:
        """The board side each seat sits at."""
        return SEATS_DOUBLES if self.doubles else SEATS_SINGLES

    @property
    def variant(self) -> str:
        return "icf-doubles" if self.doubles else "icf"


def side_of(seat: int) -> int:
    """The side (0 or 1) a seat plays for: partners sit opposite."""
    return seat % 2


@dataclass(frozen=True)
class IcfBoardState:
    """One board: the pieces on it and the state of play (see the module docstring)."""

    position: Position
    turn: int = 0  # seat on strike
    breaker: int = 0  # seat that broke this board
    colours: tuple[str, str] = ("white", "black")  # colour of side 0, side 1
    down: tuple[int, int] = (0, 0)  # own coins pocketed and kept down, per side
    dues: tuple[int, int] = (0, 0)  # penalty coins owed, per side
    queen: str = "on_board"  # "on_board", "pending" (awaits a cover) or "covered"
    queen_side: int | None = None  # side that pocketed (pending) or covered the queen
    is_break: bool = True  # the next stroke is a break
    break_tries: int = 0  # failed break tries used
    strokes: int = 0  # strokes played on this board (failed break tries included)
    over: bool = False
    winner: int | None = None  # side that won the board
    points: int = 0  # points the winner scored on this board

    def __post_init__(self):
        object.__setattr__(self, "colours", tuple(self.colours))
        object.__setattr__(self, "down", tuple(int(v) for v in self.down))
        object.__setattr__(self, "dues", tuple(int(v) for v in self.dues))
        if sorted(self.colours) != sorted(COLOURS):
            raise CarromlabError(f"colours must be one white and one black, not {self.colours}")
        if self.queen not in QUEEN_STATES:
            raise CarromlabError(f"queen must be one of {QUEEN_STATES}, not {self.queen!r}")
        if self.queen != "on_board" and self.queen_side not in (0, 1):
            raise CarromlabError(f"a {self.queen} queen needs queen_side 0 or 1")
        for name in ("down", "dues"):
            v = getattr(self, name)
            if len(v) != 2 or min(v) < 0:
                raise CarromlabError(f"{name} must be two whole numbers >= 0, not {v}")
        if max(self.down) > COINS_PER_SIDE:
            raise CarromlabError(f"down must be at most {COINS_PER_SIDE}, not {self.down}")

    @property
    def side(self) -> int:
        """The side on strike."""
        return side_of(self.turn)

    def colour(self, side: int) -> str:
        return self.colours[side]

    def side_of_colour(self, colour: str) -> int:
        return self.colours.index(colour)

    def on_board(self, side: int) -> int:
        """Coins of ``side``'s colour in the position."""
        return self.position.count("coin", self.colours[side])

    def turn_state(self, due_rule: bool = True) -> IcfTurn:
        """The ``IcfTurn`` of the player on strike (what ``evaluate_icf`` needs)."""
        s = self.side
        if self.queen == "pending" and self.queen_side != s:
            raise CarromlabError(
                f"the queen awaits a cover by side {self.queen_side}, but side {s} is on strike"
            )
        return IcfTurn(
            shooter=self.colours[s],
            own_down=self.down[s],
            opponent_down=self.down[1 - s],
            queen_pending=self.queen == "pending",
            dues=self.dues[s] if due_rule else 0,
            is_break=self.is_break,
        )


@dataclass(frozen=True)
class IcfStroke:
    """What one stroke did: the seat and side that played it, ``evaluate_icf``'s facts (as
    Python scalars, after ``due_rule``), the pieces placed back (``(id, kind, owner, x, y)``)
    and whether it ended the board."""

    seat: int
    side: int
    facts: Mapping[str, Any]
    placed: tuple[tuple[str, str, str | None, float, float], ...] = ()
    board_ended: bool = False


@dataclass(frozen=True)
class IcfState:
    """A game: scores per side, boards played, who breaks next, the current board."""

    board: IcfBoardState
    config: IcfConfig = field(default_factory=IcfConfig)
    scores: tuple[int, int] = (0, 0)
    boards_played: int = 0  # finished boards
    next_breaker: int = 1  # seat that breaks the board after the current one
    over: bool = False
    winner: int | None = None  # side; None while playing, or a drawn game
    last_board: IcfBoardState | None = None  # the last finished board
    last_stroke: IcfStroke | None = None

    def __post_init__(self):
        object.__setattr__(self, "scores", tuple(int(v) for v in self.scores))
