"""Whole Force Out games (and Fast Play): players and the game driver of
:func:`~carromlab.play.play_games`.

Views are turned so that the player on turn shoots from the South (player 1 sits North); a
player's ``plan(view, turn, seed)`` yields asks and returns the shot, like the ICF players.

:class:`ForceOutGreedy` aims ghost-ball hits that drive each of the opponent's rings in the
circle out of it - straight out from the centre and 30 deg either side, to 4 cm beyond the
line, past the pegs - from points of the South arc every 7.5 deg (or from where the Fast Play
ring lies), adds random shots, screens them with ``n_screen`` noisy shots, re-estimates the
best ``keep`` with ``n_eval`` and plays the best by the stroke value (``points``: +5 a
opponent's ring out, -5 an own ring out or a ring given back; games/force_out/rules.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from carromlab.analysis.aims import ghost_aims, piece_arrays
from carromlab.analysis.players import Decision
from carromlab.analysis.search import Candidates, race, screen_and_pick
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.company import CrokinoleBoard
from carromlab.errors import CarromlabError
from carromlab.games.force_out import circle_scores
from carromlab.games.force_out.machine import apply, new_game
from carromlab.games.force_out.rules import COLOURS
from carromlab.physics import Physics
from carromlab.play.drivers import TurnedDriver
from carromlab.rules import crokinole as ks
from carromlab.rules.crokinole import rings
from carromlab.shots import Shot, concat_shots
from carromlab.shots import skill as skill_named

#: The shooting ring and 16 rings.
CAPACITY = 17


def shooting_origins(view, step_deg: float = 7.5) -> tuple[np.ndarray, np.ndarray]:
    """Where the next shot may start: the Fast Play ring's spot, or free points of the South
    arc every ``step_deg``."""
    spot = ks.shooter_spot(view)
    if spot is not None:
        return np.array([spot[0]]), np.array([spot[1]])
    lo, hi = ks.SOUTH_ARC
    x, y = ks.arc_point(view.board, np.arange(lo, hi + 1e-9, step_deg))
    ok = ks.free_of_rings(view, x, y)
    return x[ok], y[ok]


def force_out_aims(view, turn, ox, oy, spread_deg=(-30.0, 0.0, 30.0), physics=None) -> dict:
    """Ghost-ball hits driving each opponent's ring in the circle out of it (see the module's
    docstring); the arrays of :func:`~carromlab.analysis.aims.ghost_aims`."""
    physics = physics or Physics()
    board = view.board
    rs = rings(view)
    specs = board.piece_specs()
    px, py, pr, pm = piece_arrays(rs, specs)
    inside = np.hypot(px, py) <= board.outer_radius
    tgt = np.flatnonzero(inside & np.array([p.owner != turn.shooter for p in rs], bool))
    tx, ty = px[tgt][:, None], py[tgt][:, None]
    rho = np.hypot(tx, ty)
    base = np.where(rho > 1e-9, np.arctan2(ty, tx), math.pi / 2)
    ang = base + np.radians(np.asarray(spread_deg))[None]  # [T, D]
    ux, uy = np.cos(ang), np.sin(ang)
    # distance along u from T to the outer circle, then 4 cm beyond
    tu = tx * ux + ty * uy
    s = -tu + np.sqrt(tu * tu - rho * rho + board.outer_radius**2) + 0.04
    pegs = np.array(board.peg_centres())
    obstacles = (pegs[:, 0], pegs[:, 1], np.full(len(pegs), board.peg_diameter / 2))
    shooter = (specs["shooter"].radius, specs["shooter"].mass, physics.e_piece)
    return ghost_aims(
        ox,
        oy,
        (px, py, pr, pm),
        tgt,
        tx + s * ux,
        ty + s * uy,
        shooter,
        physics,
        arrive_speed=0.3,
        obstacles=obstacles,
    )


def random_shots(ox, oy, count: int, rng: np.random.Generator) -> Shot:
    """Random shots from the origins, roughly towards the centre (+-35 deg), 1 to 4 m/s."""
    k = rng.integers(0, len(ox), count)
    x, y = np.asarray(ox)[k], np.asarray(oy)[k]
    centre = np.arctan2(-y, -x)
    return Shot(
        x, y, centre + np.radians(rng.uniform(-35, 35, count)), rng.uniform(1.0, 4.0, count)
    )


@dataclass(frozen=True)
class ForceOutGreedy:
    """The default Force Out player (see the module's docstring)."""

    skill: str = "club"
    n_screen: int = 4
    keep: int = 6
    n_eval: int = 16
    max_candidates: int = 40
    random_extra: int = 8
    step_deg: float = 7.5
    #: Several cuts instead of one (:func:`~carromlab.analysis.search.race`, as
    #: ``Greedy(rounds=...)``): after the screen, ``(keep, n)`` per round, survivors on common
    #: keys; None: ``keep`` and ``n_eval``, one cut.
    rounds: tuple[tuple[int, int], ...] | None = None

    def plan(self, view, turn, seed: int = 0):
        va = analysis_for(view.variant)
        noise = va.noise(skill_named(self.skill))
        rng = np.random.default_rng(np.random.SeedSequence([seed, 19]))
        seeds = np.random.SeedSequence([seed, 7]).generate_state(2) >> 1
        ox, oy = shooting_origins(view, self.step_deg)
        if not len(ox):
            raise CarromlabError("no free place on the shooting line")
        a = force_out_aims(view, turn, ox, oy)
        best = np.lexsort((a["speed"], a["cut"]))[: self.max_candidates]
        aims = Shot(
            ox[a["origin"][best]], oy[a["origin"][best]], a["angle"][best], a["speed"][best]
        )
        shots = concat_shots([aims, random_shots(ox, oy, self.random_extra, rng)])
        group = Candidates(view, shots, turn, noise)
        if self.rounds:
            _, shot = yield from race(group, seeds, self.n_screen, self.rounds)
        else:
            _, _, shot = yield from screen_and_pick(
                group, seeds, self.n_screen, self.keep, self.n_eval
            )
        return Decision(shot)


@dataclass(frozen=True)
class ForceOutRandom:
    """One random shot towards the centre from a random legal origin (for property tests)."""

    def plan(self, view, turn, seed: int = 0):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 23]))
        ox, oy = shooting_origins(view)
        return Decision(random_shots(ox, oy, 1, rng))
        yield  # a plan is a generator


class ForceOutDriver(TurnedDriver):
    """Whole Force Out games (and Fast Play) for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CrokinoleBoard

    def __init__(self, config):
        super().__init__(config)
        self.lies = bool(getattr(config, "fast", False))  # Fast Play: the ring stays

    def new_state(self, g: int):
        return new_game(self.config)

    def _apply(self, gm, outcome) -> dict:
        before = gm.state
        gm.state = apply(before, outcome, self.config)
        last = gm.state.history[-1]
        return {
            "round": before.round,
            "player": last.player,
            "opponent_out": last.opponent_out,
            "own_out": last.own_out,
            "holed": sum(last.holed),
            "penalty": last.penalty,
            "returned": last.returned is not None,
            "continues": last.continues,
        }

    def _extra(self, st, strokes) -> dict:
        return {
            "rounds": int(st.round),
            "penalties": self._total(strokes, "penalty"),
            "forced_out": self._total(strokes, "opponent_out", "own_out"),
            "holed": self._total(strokes, "holed"),
        }


class CircleScoresDriver(TurnedDriver):
    """Circle Scores games for :func:`~carromlab.play.play_games`."""

    capacity = CAPACITY
    board_type = CrokinoleBoard

    def new_state(self, g: int):
        return circle_scores.new_game(self.config)

    def _apply(self, gm, outcome) -> dict:
        gm.state = circle_scores.apply(gm.state, outcome, self.config)
        last = gm.state.history[-1]
        return {
            "player": last.player,
            "points": last.points,
            "shooter_in": last.shooter_in,
            "rings_out": last.rings_out,
            "racked": last.racked,
        }

    def _extra(self, st, strokes) -> dict:
        return {
            "rings_out": self._total(strokes, "rings_out"),
            "shooter_in": self._total(strokes, "shooter_in"),
            "racks": int(st.racks),
        }


__all__ = ["COLOURS", "CircleScoresDriver", "ForceOutDriver", "ForceOutGreedy", "ForceOutRandom"]
