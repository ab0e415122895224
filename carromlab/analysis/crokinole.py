"""What the crokinole-side games played from the outer circle's line share above their rules
(the Carrom Company's Force Out, Fast Play Force Out and Circle Scores; their rules share
:mod:`carromlab.rules.crokinole`): the shot-analysis hooks (:func:`outer_line_analysis`), and
the players that knock rings out of the scoring circle.

:class:`RingOutGreedy` is the greedy player (:class:`~carromlab.analysis.policies.GreedyBase`)
over ghost-ball hits that drive each of the opponent's rings in the circle out of it (every
ring, in Circle Scores: object rings belong to nobody) - straight out from the centre and
30 deg either side, to 4 cm beyond the line, past the pegs - from points of the South arc
every 7.5 deg (or from where the Fast Play ring lies), with random shots added. It plays the
best by the stroke's value (``points``: Force Out's +5 an opponent's ring out, -5 an own ring
out or a ring given back; Circle Scores' 5 for the shooting ring in the circle, 10 a ring
out). :class:`RingOutRandom` shoots once at random towards the centre (property tests).

Each game names its own players after itself, thin subclasses in its folder's ``players.py``
(Force Out's ``ForceOutGreedy``, Circle Scores' ``CircleScoresGreedy``) made by
:func:`ring_out_player`: a player's repr, stored with its logged runs, names its game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from carromlab.analysis.aims import ghost_aims, piece_arrays
from carromlab.analysis.players import Decision
from carromlab.analysis.policies import RACING, GreedyBase, map_searching
from carromlab.analysis.search import BUDGET_FIELDS, Candidates, SearchBudget
from carromlab.analysis.variants import VariantAnalysis
from carromlab.errors import CarromlabError
from carromlab.physics import Physics
from carromlab.rules import crokinole as ks
from carromlab.rules.crokinole import rings
from carromlab.rules.outcome import VariantRules
from carromlab.shots import Shot, concat_shots


def outer_line_analysis(variant: str, rules: VariantRules, hand_placed: bool) -> VariantAnalysis:
    """The shot-analysis hooks of a crokinole-side game shot from the outer circle's line
    (placements on its South arc; a lying ``shooter`` piece is the origin instead), with the
    crokinole side's skill presets; ``hand_placed``: the ring is placed by hand on the line
    (placement noise applies; Fast Play plays it where it lies)."""
    from carromlab.calibration_presets import CROKINOLE_SKILLS

    return VariantAnalysis(
        variant,
        rules,
        "shooter",
        ks.no_line,
        ks.placement_intervals,
        origin_of=ks.origin,
        legal_origin_of=ks.legal_origin,
        table_of=ks.table_position,
        hand_placed=hand_placed,
        skills=CROKINOLE_SKILLS,
    )


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


def ring_out_aims(view, turn, ox, oy, spread_deg=(-30.0, 0.0, 30.0), physics=None) -> dict:
    """Ghost-ball hits driving each of the other players' rings in the circle out of it (see
    the module's docstring); the arrays of :func:`~carromlab.analysis.aims.ghost_aims`."""
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


#: The ring-out player's search: 40 aims and 8 random shots.
RING_OUT_BUDGET = SearchBudget(max_candidates=40)


@dataclass(frozen=True, repr=False)
class RingOutGreedy(GreedyBase):
    """The greedy ring-out player of Force Out, Fast Play and Circle Scores (see the
    module's docstring), which each subclass under their own names; ``step_deg``: the spacing
    of its origins on the arc."""

    budget: SearchBudget = RING_OUT_BUDGET
    step_deg: float = 7.5

    REPR: ClassVar[tuple[str, ...]] = ("skill", *BUDGET_FIELDS[:-1], "step_deg", "rounds")

    def candidate_groups(self, view, turn, seed: int) -> list[Candidates]:
        rng = np.random.default_rng(np.random.SeedSequence([seed, 19]))
        ox, oy = shooting_origins(view, self.step_deg)
        if not len(ox):
            raise CarromlabError("no free place on the shooting line")
        a = ring_out_aims(view, turn, ox, oy)
        best = np.lexsort((a["speed"], a["cut"]))[: self.budget.max_candidates]
        aims = Shot(
            ox[a["origin"][best]], oy[a["origin"][best]], a["angle"][best], a["speed"][best]
        )
        shots = concat_shots([aims, random_shots(ox, oy, self.budget.random_extra, rng)])
        return [self.group(view, shots, turn)]


@dataclass(frozen=True)
class RingOutRandom:
    """One random shot towards the centre from a random legal origin (for property tests)."""

    def plan(self, view, turn, seed: int = 0):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 23]))
        ox, oy = shooting_origins(view)
        return Decision(random_shots(ox, oy, 1, rng))
        yield  # a plan is a generator


def ring_out_player(
    policy: str,
    skill: str = "club",
    greedy: type[RingOutGreedy] = RingOutGreedy,
    random: type[RingOutRandom] = RingOutRandom,
):
    """A ring-out player by its policy name, of the classes a game gives (its own subclasses
    of :class:`RingOutGreedy` and :class:`RingOutRandom`): ``greedy``, ``greedy-race`` (the
    same racing twice the candidates: the ICF greedy-race's budget,
    :data:`~carromlab.analysis.policies.RACING`), ``search`` (the greedy player's aims, four
    times as many, on the map search: :func:`~carromlab.analysis.policies.map_searching`) or
    ``random``."""
    if policy == "random":
        return random()
    if policy == "search":
        return map_searching(greedy(skill=skill))
    if policy not in ("greedy", "greedy-race"):
        raise CarromlabError(f"unknown ring-out policy {policy!r}")
    return greedy(skill=skill, budget=RACING if policy == "greedy-race" else RING_OUT_BUDGET)


__all__ = [
    "RING_OUT_BUDGET",
    "RingOutGreedy",
    "RingOutRandom",
    "outer_line_analysis",
    "random_shots",
    "ring_out_aims",
    "ring_out_player",
    "shooting_origins",
]
