"""Policies: who chooses which shot. Pluggable: a policy has ``plan(position, turn, seed)``,
a generator that may yield :class:`~carromlab.analysis.asks.Ask` requests (noisy shots to be
simulated), receives an :class:`~carromlab.analysis.asks.Answer` for each, and returns the
:class:`~carromlab.shots.Shot` it plays (for a shooter on the South line). ``choose`` runs a
plan on its own; whole-game play runs the plans of many games together, so the kernel sees
one batch spanning all of them (``play/loop.py``).

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

from carromlab.analysis.asks import Evaluator
from carromlab.analysis.candidates import candidate_arrays
from carromlab.analysis.players import Decision
from carromlab.analysis.search import Candidates, race, screen_and_pick
from carromlab.analysis.variants import analysis_for
from carromlab.errors import CarromlabError
from carromlab.shots import Shot
from carromlab.shots import skill as skill_named


def run_plan(plan, evaluator: Evaluator):
    """Drive one player's plan to its decision's shot, answering each ask as it comes (a
    plan that yields a list of asks gets a list of answers)."""
    try:
        asks = next(plan)
        while True:
            many = isinstance(asks, (list, tuple))
            answers = evaluator.answer(list(asks) if many else [asks])
            asks = plan.send(answers if many else answers[0])
    except StopIteration as stop:
        value = stop.value
    return value.shot if isinstance(value, Decision) else value


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
        return Decision(self.shot(position, seed))
        yield  # a plan that asks nothing

    def shot(self, position, seed: int = 0) -> Shot:
        rows = random_legal_shots(
            position, 1, np.random.default_rng(seed), self.angle_deg, self.speed
        )
        y0 = analysis_for(position.variant).shot_y(position.board)
        return Shot(float(rows[0, 0]), y0, math.radians(rows[0, 1]), float(rows[0, 2]))


def random_legal_shots(
    position, k: int, rng: np.random.Generator, angle_deg=(15.0, 165.0), speed=(0.5, 5.0)
) -> np.ndarray:
    """``k`` random legal shots as rows (placement m, angle deg, speed m/s): placements
    uniform over the legal intervals of the shooting line and not on a piece, aims and speeds
    uniform in their ranges."""
    va = analysis_for(position.variant)
    board = position.board
    spans = np.array(va.placement_intervals(board), float)
    widths = spans[:, 1] - spans[:, 0]
    xs: list[float] = []
    for _ in range(100):
        pick = rng.choice(len(spans), size=4 * k, p=widths / widths.sum())
        x = rng.uniform(spans[pick, 0], spans[pick, 1])
        xs.extend(x[va.free_placement(position, x)].tolist())
        if len(xs) >= k:
            break
    if len(xs) < k:
        raise CarromlabError(f"no free legal placement for the {va.shooter_kind} was found")
    angles = rng.uniform(*angle_deg, size=k)
    speeds = rng.uniform(*speed, size=k)
    return np.column_stack([xs[:k], angles, speeds])


#: Greedy racing twice the default candidates (96 cuts and 16 random shots, each screened
#: with 4 executions), then 16 x 8, 6 x 24 and 2 x 96 executions on common keys: about 900
#: kernel shots a stroke. At club it chose strokes worth +0.07 points more than the default
#: budget and won 0.655 of 400 ICF boards against it (docs/studies.md, "Stronger players").
RACING = {"max_candidates": 96, "random_extra": 16, "rounds": ((16, 8), (6, 24), (2, 96))}


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
    #: Spacing of the candidate placements on the shooting line (m).
    placement_step: float = 0.05
    #: The break (placement m, angle deg, speed m/s), played without screening; ``"search"``:
    #: the break found by :func:`~carromlab.analysis.breaks.searched_break` for this
    #: player's skill and scoring (stored per game, searched once when missing); None: the
    #: break is screened like any stroke. Decision: by default a hard, straight flick from
    #: the middle of the baseline at the centre of the rosette (a hard flick is 4-6 m/s,
    #: docs/equipment.md). Screening candidate cuts into a packed rosette finds little and
    #: costs as much as the rest of the board (break shots have 100+ events each).
    break_shot: tuple[float, float, float] | str | None = (0.0, 90.0, 5.0)
    #: Several cuts instead of one (:func:`~carromlab.analysis.search.race`): after the
    #: screen, ``(keep, n)`` per round, survivors on common keys; None: ``keep`` and
    #: ``n_eval``, one cut (:func:`~carromlab.analysis.search.screen_and_pick`).
    rounds: tuple[tuple[int, int], ...] | None = None

    def candidates(self, position, turn, seed: int) -> list[tuple[float, float, float]]:
        """Candidate shots on the shooter's coins (and the queen once an own coin is down),
        padded with random legal shots to ``max_candidates + random_extra``."""
        own = self.targets(position, turn)
        va = analysis_for(position.variant)
        placements = np.concatenate(
            [
                np.linspace(lo, hi, max(2, round((hi - lo) / self.placement_step) + 1))
                for lo, hi in va.placement_intervals(position.board)
            ]
        )
        cand = candidate_arrays(position, pieces=own, placements=placements)
        best = np.lexsort((cand["speed"], cand["cut"]))[: self.max_candidates]  # stable
        cells = list(zip(cand["placement"][best], cand["angle"][best], cand["speed"][best]))
        # random legal shots fill up to a fixed count (the same work every stroke)
        need = self.max_candidates + self.random_extra - len(cells)
        if need > 0:
            rng = np.random.default_rng(np.random.SeedSequence([seed, 11]))
            cells += [tuple(row) for row in random_legal_shots(position, need, rng)]
        return cells

    def targets(self, position, turn) -> list[str]:
        """The pieces worth pocketing: the shooter's coins, and the queen once one is down."""
        return [
            p.id
            for p in position.pieces
            if (p.kind == "coin" and p.owner == turn.shooter)
            or (p.kind == "queen" and turn.own_down > 0)
        ]

    def plan(self, position, turn=None, seed: int = 0):
        va = analysis_for(position.variant)
        turn = turn if turn is not None else va.default_turn()
        noise = skill_named(self.skill).noise()
        y0 = va.shot_y(position.board)
        if getattr(turn, "is_break", False) and self.break_shot is not None:
            x, a, v = self.opening(position, turn)
            return Decision(Shot(float(x), y0, math.radians(a), float(v)))
        seeds = np.random.SeedSequence([seed, 7]).generate_state(2) >> 1
        cells = np.array(self.candidates(position, turn, seed), float)
        group = Candidates(position, _cell_shots(cells, y0), turn, noise, self.scoring)
        if self.rounds:
            _, best = yield from race(group, seeds, self.n_screen, self.rounds, self.value)
        else:
            _, _, best = yield from screen_and_pick(
                group, seeds, self.n_screen, self.keep, self.n_eval, self.value
            )
        return Decision(Shot(float(best.x[0]), y0, float(best.angle[0]), float(best.speed[0])))

    def opening(self, position, turn) -> tuple[float, float, float]:
        """The break this player plays (``break_shot``; a search's when it is "search")."""
        if isinstance(self.break_shot, str):
            if self.break_shot != "search":
                raise CarromlabError(
                    f"break_shot must be (placement, angle, speed), 'search' or None, "
                    f"not {self.break_shot!r}"
                )
            from carromlab.analysis.breaks import searched_break

            return searched_break(position, self.skill, turn, scoring=self.scoring)
        return self.break_shot

    def choose(self, position, turn=None, seed: int = 0) -> Shot:
        return _choose(self, position, turn, seed, self.capacity)


def _cell_shots(cells: np.ndarray, y0: float) -> Shot:
    """Base shots from rows (placement m, angle deg, speed m/s) on the line ``y = y0``."""
    return Shot(cells[:, 0], np.full(len(cells), y0), np.radians(cells[:, 1]), cells[:, 2])
