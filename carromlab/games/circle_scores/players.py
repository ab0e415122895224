"""Circle Scores' players: the crokinole side's ring-out players
(:mod:`carromlab.analysis.crokinole`, shared with Force Out): :class:`ForceOutGreedy` drives
object rings out of the circle (every ring is a target: object rings belong to nobody), valued
by Circle Scores' points; :class:`ForceOutRandom` shoots once at random towards the centre."""

from __future__ import annotations

from carromlab.analysis.crokinole import ForceOutGreedy, ForceOutRandom

__all__ = ["ForceOutGreedy", "ForceOutRandom"]
