"""Policies: who chooses which shot. Pluggable: anything with ``choose(position, turn, seed)``
returning a :class:`~carromlab.shots.Shot` for a shooter on the South line.

- :class:`RandomLegal`: a uniformly random legal placement (not on a coin), aim and speed.
- :class:`Greedy`: the candidate shots of :func:`candidate_shots` on the shooter's own coins
  (and the queen once an own coin is down) plus a few random legal shots, screened by a small
  Monte Carlo at the policy's skill under the turn's state, the best few re-estimated; the best
  expected ``value`` wins.
  Noise-aware: the same candidate scores differently at different skills.

Whole-game code rotates the board so that the player on strike always shoots from South.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from carromlab.analysis.candidates import candidate_shots
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.shotmap import _overlaps, evaluate_cells
from carromlab.analysis.variants import analysis_for
from carromlab.shots import Shot


@dataclass(frozen=True)
class RandomLegal:
    """Random legal shots: placement uniform over the legal line, aim 15-165 deg, speed
    0.5-5 m/s (decision: the range of real strokes)."""

    angle_deg: tuple[float, float] = (15.0, 165.0)
    speed: tuple[float, float] = (0.5, 5.0)

    def choose(self, position, turn=None, seed: int = 0) -> Shot:
        rng = np.random.default_rng(seed)
        va = analysis_for(position.variant)
        spans = va.placement_intervals(position.board)
        widths = np.array([hi - lo for lo, hi in spans])
        y0 = va.shot_y(position.board)
        for _ in range(1000):
            lo, hi = spans[rng.choice(len(spans), p=widths / widths.sum())]
            x = float(rng.uniform(lo, hi))
            if not _overlaps(position, va.shooter_kind, x, y0):
                break
        angle = math.radians(rng.uniform(*self.angle_deg))
        return Shot(x, y0, angle, float(rng.uniform(*self.speed)))


@dataclass
class Greedy:
    """Best expected ``value`` over generated candidates, by successive halving: every
    candidate is screened with ``n_screen`` noisy shots at ``skill``, the ``keep`` best are
    re-estimated with ``n_eval`` fresh shots, and the best of those is played."""

    skill: str = "club"
    n_screen: int = 8
    keep: int = 8
    n_eval: int = 32
    max_candidates: int = 48
    random_extra: int = 8
    value: str = "points"
    capacity: int = 20

    def candidates(self, position, turn, seed: int) -> list[tuple[float, float, float]]:
        """Candidate shots on the shooter's coins (and the queen once an own coin is down),
        padded with random legal shots to ``max_candidates + random_extra``."""
        own = [
            p.id
            for p in position.pieces
            if (p.kind == "coin" and p.owner == turn.shooter)
            or (p.kind == "queen" and turn.own_down > 0)
        ]
        cand = candidate_shots(position, pieces=own)
        cand = cand.sort_values(["cut", "speed"]).head(self.max_candidates)
        cells = list(zip(cand.placement, cand.angle, cand.speed))
        # random legal shots fill up to a fixed count: every call then has the same batch
        # shape, so the kernel compiles once for all strokes
        rnd = RandomLegal()
        k = 0
        while len(cells) < self.max_candidates + self.random_extra:
            s = rnd.choose(position, turn, seed=seed * 1000 + k)
            cells.append((s.x, math.degrees(s.angle), s.speed))
            k += 1
        return cells

    def scored(self, position, turn, seed: int = 0):
        """The ``keep`` best screened candidates with their re-estimated values."""
        cells = self.candidates(position, turn, seed)
        va = analysis_for(position.variant)
        runner = ShotRunner(position, va.shooter_kind, chunk=4096, capacity=self.capacity)
        common = dict(skill=self.skill, turn=turn, runner=runner)
        seeds = np.random.SeedSequence([seed, 7]).generate_state(2) >> 1
        screen = evaluate_cells(position, cells, n=self.n_screen, seed=int(seeds[0]), **common)
        order = screen[self.value].fillna(-np.inf).to_numpy().argsort()[::-1][: self.keep]
        finalists = [cells[i] for i in order]
        return evaluate_cells(position, finalists, n=self.n_eval, seed=int(seeds[1]), **common)

    def choose(self, position, turn=None, seed: int = 0) -> Shot:
        va = analysis_for(position.variant)
        turn = turn if turn is not None else va.default_turn()
        table = self.scored(position, turn, seed)
        best = table.loc[table[self.value].idxmax()]
        y0 = va.shot_y(position.board)
        return Shot(float(best.placement), y0, math.radians(best.angle), float(best.speed))
