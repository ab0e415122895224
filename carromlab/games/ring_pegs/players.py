"""Ring Pegs' players (the driver, ``driver.py``, plays them on the game loop, the view turned
so that the player on turn starts South).

:class:`RingPegsGreedy` is the greedy player (:class:`~carromlab.analysis.policies.GreedyBase`)
over aims swept from where its ring lies - stage 1 (the pass): every ``step_deg`` across +-30 deg of straight
up, at speeds that stop the ring between the far side of the pegged circle and the far frame;
stage 2 (the finish): +-10 deg round the line to the hole, at speeds that reach the hole slowly
- screens them with ``n_screen`` noisy shots, re-estimates the best ``keep`` with ``n_eval``
and plays the one most likely to succeed. A clearing hit (the opponent's ring hit, no pegged
ring touched) keeps the turn (rules decision 4) but is no success: the player does not aim
for one, it takes the turn it leaves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from carromlab.analysis.players import Decision
from carromlab.analysis.policies import GreedyBase
from carromlab.analysis.search import Candidates
from carromlab.games.ring_pegs.rules import active_spot
from carromlab.physics import Physics
from carromlab.shots import Shot, take_shots


def sweep(view, turn, step_deg: float = 1.0, physics: Physics | None = None) -> Shot:
    """The candidate aims of the stage on turn (see the module's docstring)."""
    physics = physics or Physics()
    a = physics.mu * physics.g
    board = view.board
    x, y = active_spot(view)
    if turn.stage == 1:
        angles = np.radians(np.arange(60.0, 120.0 + 1e-9, step_deg))
        # over the hole faster than its skip speed (or the ring falls in), then on
        d = math.hypot(x, y)
        skip = getattr(board, "hole_skip_speed", 1.4)
        speeds = np.sqrt((skip * np.array([1.05, 1.2, 1.4])) ** 2 + 2 * a * d)
    else:
        to_hole = math.atan2(-y, -x)
        angles = to_hole + np.radians(np.arange(-10.0, 10.0 + 1e-9, step_deg / 2))
        d = math.hypot(x, y)
        speeds = np.sqrt(2 * a * (d + np.array([0.005, 0.02])))
        speeds = np.append(speeds, math.sqrt(0.36 + 2 * a * d))
    ang, spd = np.meshgrid(angles, speeds, indexing="ij")
    n = ang.size
    return Shot(np.full(n, x), np.full(n, y), ang.ravel(), spd.ravel())


@dataclass(frozen=True, repr=False)
class RingPegsGreedy(GreedyBase):
    """The default Ring Pegs player (see the module's docstring); ``step_deg``: the sweep's
    spacing of aims (its budget's candidate counts do not apply: every aim is screened)."""

    step_deg: float = 1.0

    REPR: ClassVar[tuple[str, ...]] = ("skill", "n_screen", "keep", "n_eval", "step_deg")

    def candidate_groups(self, view, turn, seed: int) -> list[Candidates]:
        return [self.group(view, sweep(view, turn, self.step_deg), turn)]


@dataclass(frozen=True)
class RingPegsRandom:
    """A random aim of the stage's sweep (for property tests)."""

    def plan(self, view, turn, seed: int = 0):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 29]))
        shots = sweep(view, turn, 5.0)
        return Decision(take_shots(shots, [int(rng.integers(len(shots.x)))]))
        yield  # a plan is a generator
