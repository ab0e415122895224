"""Force Out's and Fast Play's players: the crokinole side's ring-out players
(:mod:`carromlab.analysis.crokinole`, shared with Circle Scores) under Force Out's names.
:class:`ForceOutGreedy` is the greedy player over hits that drive the opponent's rings out of
the scoring circle, valued by Force Out's points; :class:`ForceOutRandom` shoots once at
random towards the centre. Their reprs are the ones Force Out's logged runs were claimed
with."""

from __future__ import annotations

from dataclasses import dataclass

from carromlab.analysis.crokinole import RingOutGreedy, RingOutRandom, ring_out_player
from carromlab.analysis.players import Player


@dataclass(frozen=True, repr=False)
class ForceOutGreedy(RingOutGreedy):
    """Force Out's greedy player: the ring-out player
    (:class:`~carromlab.analysis.crokinole.RingOutGreedy`) valued by Force Out's points."""


@dataclass(frozen=True)
class ForceOutRandom(RingOutRandom):
    """Force Out's random player: one random shot towards the centre (property tests)."""


def force_out_player(policy: str, skill: str = "club") -> Player:
    """Force Out's player ``policy`` (``greedy``, ``greedy-race``, ``search``, ``random``:
    :func:`~carromlab.analysis.crokinole.ring_out_player`)."""
    player: Player = ring_out_player(policy, skill, ForceOutGreedy, ForceOutRandom)
    return player


__all__ = ["ForceOutGreedy", "ForceOutRandom", "force_out_player"]
