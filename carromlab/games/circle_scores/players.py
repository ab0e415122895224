"""Circle Scores' players: the crokinole side's ring-out players
(:mod:`carromlab.analysis.crokinole`, shared with Force Out) under Circle Scores' names.
:class:`CircleScoresGreedy` drives object rings out of the circle (every ring is a target:
object rings belong to nobody), valued by Circle Scores' points; :class:`CircleScoresRandom`
shoots once at random towards the centre.

Circle Scores' runs were logged before these names, with the Force Out players' reprs
(``ForceOutGreedy(...)``): the game declares those names as its players' old ones
(:attr:`~carromlab.registry.Game.player_aliases`), so a rerun of such a folder is accepted
(:mod:`carromlab.play.log`)."""

from __future__ import annotations

from dataclasses import dataclass

from carromlab.analysis.crokinole import RingOutGreedy, RingOutRandom, ring_out_player
from carromlab.analysis.players import Player


@dataclass(frozen=True, repr=False)
class CircleScoresGreedy(RingOutGreedy):
    """Circle Scores' greedy player: the ring-out player
    (:class:`~carromlab.analysis.crokinole.RingOutGreedy`) valued by Circle Scores' points."""


@dataclass(frozen=True)
class CircleScoresRandom(RingOutRandom):
    """Circle Scores' random player: one random shot towards the centre (property tests)."""


def circle_scores_player(policy: str, skill: str = "club") -> Player:
    """Circle Scores' player ``policy`` (``greedy``, ``greedy-race``, ``search``, ``random``:
    :func:`~carromlab.analysis.crokinole.ring_out_player`)."""
    player: Player = ring_out_player(policy, skill, CircleScoresGreedy, CircleScoresRandom)
    return player


__all__ = ["CircleScoresGreedy", "CircleScoresRandom", "circle_scores_player"]
