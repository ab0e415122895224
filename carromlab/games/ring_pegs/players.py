"""Whole Ring Pegs games: players and the game driver of
:func:`~carromlab.play.play_games`.

Views are turned so that the player on turn starts South. :class:`RingPegsGreedy` sweeps aims
from where its ring lies - stage 1 (the pass): every ``step_deg`` across +-30 deg of straight
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

import numpy as np

from carromlab.analysis.players import Decision
from carromlab.analysis.search import Candidates, screen_and_pick
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.company import CrokinoleBoard
from carromlab.games.ring_pegs.rules import (
    active_spot,
    apply,
    new_game,
)
from carromlab.physics import Physics
from carromlab.play.drivers import TurnedDriver
from carromlab.shots import Shot, take_shots
from carromlab.shots import skill as skill_named

#: The active ring, the opponent's ring and 8 pegged rings.
CAPACITY = 10


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


@dataclass(frozen=True)
class RingPegsGreedy:
    skill: str = "club"
    n_screen: int = 4
    keep: int = 6
    n_eval: int = 16
    step_deg: float = 1.0

    def plan(self, view, turn, seed: int = 0):
        noise = analysis_for("ring-pegs").noise(skill_named(self.skill))
        seeds = np.random.SeedSequence([seed, 7]).generate_state(2) >> 1
        shots = sweep(view, turn, self.step_deg)
        group = Candidates(view, shots, turn, noise)
        _, _, shot = yield from screen_and_pick(group, seeds, self.n_screen, self.keep, self.n_eval)
        return Decision(shot)


@dataclass(frozen=True)
class RingPegsRandom:
    """A random aim of the stage's sweep (for property tests)."""

    def plan(self, view, turn, seed: int = 0):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 29]))
        shots = sweep(view, turn, 5.0)
        return Decision(take_shots(shots, [int(rng.integers(len(shots.x)))]))
        yield  # a plan is a generator


class RingPegsDriver(TurnedDriver):
    """Whole Ring Pegs games for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CrokinoleBoard
    lies = True

    def new_state(self, g: int):
        return new_game(self.config)

    def board_position(self, state):
        return state.board_position()

    def _apply(self, gm, outcome) -> dict:
        gm.state = apply(gm.state, outcome, self.config)
        last = gm.state.history[-1]
        return {
            "player": last.player,
            "stage": last.stage,
            "passed": last.passed,
            "finished": last.finished,
            "touched_pegged": last.touched_pegged,
            "cleared": last.cleared,
        }

    def scores(self, state) -> tuple[int, int]:
        return int(state.winner == 0), int(state.winner == 1)

    def _extra(self, st, strokes) -> dict:
        return {
            "passes": self._total(strokes, "passed"),
            "touched_pegged": self._total(strokes, "touched_pegged"),
            "clearing_hits": self._total(strokes, "cleared"),
        }
