"""The contracts every game's rules keep: one typed stroke outcome, one machine signature.

A game machine (``carromlab/games/<game>/machine.py``) is a module, or any object, with

- ``new_game(config)``: the state of a new game under the rule configuration ``config``;
- ``apply(state, outcome, config, rng=None)``: the state after one stroke whose result is
  ``outcome`` (a :class:`StrokeOutcome`, in the board's own frame); ``rng`` is the game's
  generator for what the rules leave to chance (ICF: returned coins placed at random).

States are frozen dataclasses with at least ``over`` (the game has ended). The machines are
pure: the same state, outcome and configuration give the same new state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from carromlab.errors import CarromlabError


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
    turn: Any = None
    tags: Any = None
    declared: tuple[str, ...] = ()

    @classmethod
    def from_kernel(
        cls, out: Mapping[str, Any], final_xy, first_xy=None, turn=None
    ) -> StrokeOutcome:
        """One shot of the kernel's outcome arrays (``out[key]`` for one shot)."""
        return cls(
            capture=np.asarray(out["capture"]),
            final_xy=np.asarray(final_xy, float),
            first_contact_kind=int(out["first_contact_kind"]),
            first_contact=int(out["first_contact"]),
            first_piece=int(out["first_piece"]),
            first_xy=first_xy,
            contacts=np.asarray(out["contacts"]),
            truncated=bool(out["truncated"]),
            turn=turn,
        )


@runtime_checkable
class GameMachine(Protocol):
    """A game's rules as a state machine (see the module's docstring)."""

    def new_game(self, config: Any) -> Any: ...

    def apply(
        self, state: Any, outcome: StrokeOutcome, config: Any, rng: np.random.Generator | None
    ) -> Any: ...


__all__ = ["GameMachine", "StrokeOutcome"]


def check_declared(declared, known: tuple[str, ...], game: str) -> tuple[str, ...]:
    """The fouls a caller declared on a stroke (``StrokeOutcome.declared``), refused in one
    line unless each is one of ``known``, the kinds ``game`` lets a caller declare."""
    declared = tuple(declared)
    unknown = [k for k in declared if k not in known]
    if unknown:
        choose = f"choose from: {', '.join(known)}" if known else "it has none"
        raise CarromlabError(
            f"declared foul {unknown[0]!r} is not a {game} foul a caller declares ({choose})"
        )
    return declared
