"""The player interface: one ``plan(view, turn, seed)`` for every game, one :class:`Decision`.

A player's ``plan`` is a generator. It yields what it wants estimated (an
:class:`~carromlab.analysis.asks.Ask`, or a list of them, answered together in one kernel
batch with every other game's asks) and receives the answers; it returns a
:class:`Decision`. ``view`` is what the player sees: for the sliding-disc games the
position turned so that the player shoots from the South; for games whose choices depend on
more than the pieces, the game's state (Carrooka: the phase and the Carrooka'd options;
KOOBA: the markers, see its driver). ``turn`` is the rules' turn context (the turn state of
the stroke, or for Carrooka and KOOBA the game's rule configuration). ``seed`` is the
stroke's seed: a plan draws all its randomness from it, so a game depends only on its seed.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Decision:
    """What a player decided for one stroke.

    - ``shot``: the stroke to play (a :class:`~carromlab.shots.Shot` for the sliding-disc
      games, an aim point (x, y) for KOOBA's throws), or None for an option without a stroke;
    - ``turn``: the turn state the player chose to play it under (Carrooka: the piece on),
      None to play the driver's;
    - ``option``: a choice the rules offer besides the stroke (Carrooka'd: ``break_line``,
      ``counter``, ``pass``; KOOBA: ``attack``), with its ``params`` (``angle``, ``counter``,
      ``target``);
    - ``values``: what the player estimated for each option it weighed (recorded with the
      stroke).
    """

    shot: Any = None
    turn: Any = None
    option: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    values: Mapping[str, float] = field(default_factory=dict)


#: A player's plan: yields asks (one or a list), receives answers, returns a Decision.
Plan = Generator[Any, Any, Decision]


@runtime_checkable
class Player(Protocol):
    """Every game's players: ``plan(view, turn, seed)`` (see the module's docstring)."""

    def plan(self, view: Any, turn: Any, seed: int = 0) -> Plan: ...


def decided(value) -> Decision:
    """A plan's return value as a :class:`Decision` (a bare shot is a decision to play it)."""
    return value if isinstance(value, Decision) else Decision(shot=value)


__all__ = ["Decision", "Plan", "Player", "decided"]
