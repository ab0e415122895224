"""The contracts every game's rules keep: one typed stroke outcome, one machine signature.

A game machine (``carromlab/games/<game>/machine.py``) is the rules' state machine over a
whole game (turns, scores, the end), one stroke's outcome at a time; it is not the kernel's
loop over one shot (:mod:`carromlab.physics.kernel`), which moves the discs and knows no
rules. It is a module, or any object, with

- ``new_game(config)``: the state of a new game under the rule configuration ``config``;
- ``apply(state, outcome, config, rng=None)``: the state after one stroke whose result is
  ``outcome`` (a :class:`StrokeOutcome`, in the board's own frame); ``rng`` is the game's
  generator for what the rules leave to chance (ICF: returned coins placed at random).

It is a :class:`GameMachine` ``[ConfigT, StateT]``: ``ConfigT`` its rule configuration (a
:class:`GameConfig`: it names its ``variant``), ``StateT`` its state (a :class:`GameState`:
``over`` and ``winner``; a :class:`SeatedState` also names the ``player`` on strike). The
types are structural (``typing.Protocol``): a game conforms by what its classes and modules
hold, whatever they are called. States are frozen dataclasses. The machines are pure: the
same state, outcome and configuration give the same new state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike

from carromlab.errors import CarromlabError


@runtime_checkable
class GameConfig(Protocol):
    """A game's rule configuration: it names the variant it plays (the registry finds the
    game, and so the driver, by it)."""

    @property
    def variant(self) -> str: ...


@runtime_checkable
class GameState(Protocol):
    """What every game's state says to the loop and the log: whether the game has ended and
    who won it (a side or seat; None while playing, for a draw or an unfinished game)."""

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...


@runtime_checkable
class SeatedState(GameState, Protocol):
    """A state that names the seat on strike, ``player`` (every game but ICF, whose state
    holds the seat on strike in its current board: ``state.board.turn``)."""

    @property
    def player(self) -> int: ...


#: A machine's rule configuration (only taken: contravariant).
ConfigT = TypeVar("ConfigT", contravariant=True)
#: A machine's state (taken and returned: invariant).
StateT = TypeVar("StateT", bound=GameState)


@dataclass(frozen=True)
class StrokeOutcome:
    """What one stroke did, as the rules read it. Disc 0 is the shooting piece (striker,
    shooting ring or Aero), discs 1.. the position's pieces in the order the stroke's view
    lists them.

    - ``capture`` [1 + pieces]: -1 on the board, 0..C-1 the board's captures (pockets, holes)
      in order, C the ditch / off the surface;
    - ``final_xy`` [1 + pieces, 2]: resting places in the board's frame, touching discs
      separated (``physics/settle.py``); a captured disc's entry is where it was captured;
    - ``first_contact_kind`` (0 none, 1 piece, 2 wall), ``first_contact`` (the piece's disc
      index or the wall's index), ``first_piece`` (the first piece the shooter touched after
      any walls, -1 none), ``first_xy`` (where the shooter was at its first contact, board
      frame; None if it touched nothing);
    - ``contacts`` [1 + pieces]: how many contacts each disc took part in;
    - ``truncated``: the kernel's event cap was reached;
    - ``turn``: the rules' turn state the stroke was played under, when the player chose it
      (Carrooka: the piece on); ``tags``: a thrown game's scoring tags (KOOBA);
    - ``declared``: fouls the caller declares on the stroke that the kernel cannot see (a
      recorded game replayed; Carrooka: ``"interference"``). A machine refuses a kind it
      does not know.
    """

    capture: np.ndarray
    final_xy: np.ndarray
    first_contact_kind: int = 0
    first_contact: int = -1
    first_piece: int = -1
    first_xy: tuple[float, float] | None = None
    contacts: np.ndarray | None = None
    truncated: bool = False
    # Any: each game's own turn-state type (Carrooka: the piece on), read only by that
    # game's machine; the loop and the drivers carry it without looking inside.
    turn: Any = None
    # Any: a thrown game's own tags type (KOOBA's ShotTags), read only by its machine.
    tags: Any = None
    declared: tuple[str, ...] = ()

    @classmethod
    def from_kernel(
        cls,
        out: Mapping[str, ArrayLike],
        final_xy: ArrayLike,
        first_xy: tuple[float, float] | None = None,
        turn: object = None,
    ) -> StrokeOutcome:
        """One shot of the kernel's outcome arrays (``out[key]`` for one shot)."""
        return cls(
            capture=np.asarray(out["capture"]),
            final_xy=np.asarray(final_xy, float),
            first_contact_kind=_scalar(out["first_contact_kind"]),
            first_contact=_scalar(out["first_contact"]),
            first_piece=_scalar(out["first_piece"]),
            first_xy=first_xy,
            contacts=np.asarray(out["contacts"]),
            truncated=bool(np.asarray(out["truncated"])),
            turn=turn,
        )


def _scalar(value: ArrayLike) -> int:
    """One shot's integer outcome (a NumPy or JAX scalar, or a Python int)."""
    return int(np.asarray(value))


@runtime_checkable
class GameMachine(Protocol[ConfigT, StateT]):
    """A game's rules as a state machine over whole games (see the module's docstring; not
    the kernel's loop over one shot): a module or an object with ``new_game`` and ``apply``. ``GameMachine[CarromsConfig | None, CarromsState]``, for
    instance, is what the Carroms machine module is."""

    def new_game(self, config: ConfigT) -> StateT: ...

    def apply(
        self,
        state: StateT,
        outcome: StrokeOutcome,
        config: ConfigT,
        rng: np.random.Generator | None = None,
    ) -> StateT: ...


__all__ = [
    "ConfigT",
    "GameConfig",
    "GameMachine",
    "GameState",
    "SeatedState",
    "StateT",
    "StrokeOutcome",
    "check_declared",
]


def check_declared(declared: Iterable[str], known: tuple[str, ...], game: str) -> tuple[str, ...]:
    """The fouls a caller declared on a stroke (``StrokeOutcome.declared``), refused in one
    line unless each is one of ``known``, the kinds ``game`` lets a caller declare."""
    kinds = tuple(declared)
    unknown = [k for k in kinds if k not in known]
    if unknown:
        choose = f"choose from: {', '.join(known)}" if known else "it has none"
        raise CarromlabError(
            f"declared foul {unknown[0]!r} is not a {game} foul a caller declares ({choose})"
        )
    return kinds
