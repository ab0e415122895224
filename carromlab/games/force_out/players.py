"""Force Out's and Fast Play's players: the crokinole side's ring-out players
(:mod:`carromlab.analysis.crokinole`, shared with Circle Scores): :class:`ForceOutGreedy`, the
greedy player over hits that drive the opponent's rings out of the scoring circle, and
:class:`ForceOutRandom`."""

from __future__ import annotations

from carromlab.analysis.crokinole import ForceOutGreedy, ForceOutRandom

__all__ = ["ForceOutGreedy", "ForceOutRandom"]
