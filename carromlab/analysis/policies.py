"""Policies: who chooses which shot. Pluggable: a policy has ``plan(position, turn, seed)``,
a generator that may yield :class:`~carromlab.analysis.asks.Ask` requests (noisy shots to be
simulated), receives an :class:`~carromlab.analysis.asks.Answer` for each, and returns the
:class:`~carromlab.shots.Shot` it plays (for a shooter on the South line). ``choose`` runs a
plan on its own; whole-game play runs the plans of many games together, so the kernel sees
one batch spanning all of them (``analysis/games.py``).

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

from carromlab.analysis.asks import Ask, Evaluator
from carromlab.analysis.candidates import candidate_shots
from carromlab.analysis.shotmap import _overlaps
from carromlab.analysis.variants import analysis_for
from carromlab.shots import Shot
from carromlab.shots import skill as skill_named


def run_plan(plan, evaluator: Evaluator) -> Shot:
    """Drive one policy's plan to its shot, answering each ask as it comes."""
    try:
        ask = next(plan)
        while True:
            ask = plan.send(evaluator.answer([ask])[0])
    except StopIteration as stop:
        return stop.value


def _choose(policy, position, turn, seed: int, capacity: int) -> Shot:
    evaluator = Evaluator(position.board.layout, max(capacity, len(position.pieces) + 1))
    return run_plan(policy.plan(position, turn, seed), evaluator)


@dataclass(frozen=True)
class RandomLegal:
    """Random legal shots: placement uniform over the legal line, aim 15-165 deg, speed
    0.5-5 m/s (decision: the range of real strokes)."""

    angle_deg: tuple[float, float] = (15.0, 165.0)
    speed: tuple[float, float] = (0.5, 5.0)

    def choose(self, position, turn=None, seed: int = 0) -> Shot:
        return self.shot(position, seed)

    def plan(self, position, turn=None, seed: int = 0):
        return self.shot(position, seed)
        yield  # a plan that asks nothing

    def shot(self, position, seed: int = 0) -> Shot:
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
    n_screen: int = 4
    keep: int = 6
    n_eval: int = 16
    max_candidates: int = 48
    random_extra: int = 8
    value: str = "points"
    capacity: int = 20
    #: The rules' shot-value weights (e.g. ``IcfScoring(queen_covered=5)`` when the queen is
    #: worth 5); None: the variant's defaults.
    scoring: object = None

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

    def plan(self, position, turn=None, seed: int = 0):
        va = analysis_for(position.variant)
        turn = turn if turn is not None else va.default_turn()
        noise = skill_named(self.skill).noise()
        y0 = va.shot_y(position.board)
        seeds = np.random.SeedSequence([seed, 7]).generate_state(2) >> 1
        cells = np.array(self.candidates(position, turn, seed), float)
        screen = yield Ask(
            position,
            _cell_shots(cells, y0),
            self.n_screen,
            int(seeds[0]),
            noise,
            turn,
            self.scoring,
        )
        value = np.nan_to_num(screen.means(self.value), nan=-np.inf)
        finalists = cells[np.argsort(-value, kind="stable")[: self.keep]]
        final = yield Ask(
            position,
            _cell_shots(finalists, y0),
            self.n_eval,
            int(seeds[1]),
            noise,
            turn,
            self.scoring,
        )
        best = finalists[int(np.nanargmax(np.nan_to_num(final.means(self.value), nan=-np.inf)))]
        return Shot(float(best[0]), y0, math.radians(best[1]), float(best[2]))

    def choose(self, position, turn=None, seed: int = 0) -> Shot:
        return _choose(self, position, turn, seed, self.capacity)


def _cell_shots(cells: np.ndarray, y0: float) -> Shot:
    """Base shots from rows (placement m, angle deg, speed m/s) on the line ``y = y0``."""
    return Shot(cells[:, 0], np.full(len(cells), y0), np.radians(cells[:, 1]), cells[:, 2])
