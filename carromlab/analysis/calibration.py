"""Calibration of the physics defaults and of the crokinole-side skill presets.

Two real figures pin down numbers that are otherwise estimates (docs/calibration.md):

- **Liveliness (ICF).** "A 15 g striker struck with maximum force from a baseline must make
  at least 3.5 runs to the opposite frame" (ICF Laws of Carrom,
  1993, section I) [official]. It bounds the friction ``mu`` and the
  cushion restitution ``e_cushion`` together: :func:`liveliness_runs` sends a lone striker
  straight across an empty ICF board through the kernel and counts its runs.
- **The open twenty (crokinole side).** A disc shot from the outer (shooting) line of an empty
  board straight at the centre hole: top competitive players make about 65 % of them
  (docs/equipment.md) [secondary]. :func:`open_twenty` measures a skill's rate through the kernel,
  at the speed that skill does best with.

Counting rule of the runs. The striker's centre starts on the baseline (midway between the two
South baselines, where a stroke places it) and slides North along ``x = 0`` (no pocket, no
other piece). The first run goes from the baseline to the North frame (the centre's travel
``first_run`` until the striker touches it); every later run goes from one frame to the other
(``run``: the centre's travel between touching the South and the North frame). A run that is
not finished counts as the fraction of its length the striker travelled. So
``runs = k + f``, where ``k`` is the number of cushion contacts (each one ends a run) and ``f``
the fraction of the run in progress when the striker stops. With ``e_cushion = 1`` this is the
distance rule: ``runs = 1 + (s - first_run) / run`` with the path ``s = v0^2 / (2 mu g)``.

Capture model of the hole (``carromlab.physics.events.path_to_capture``, CrokinoleBoard): a
disc is captured when its centre is inside the hole circle (radius 1.75 cm, the hole's own
radius) moving at most the skip speed (1.4 m/s, ``hole_skip_speed``, an estimate); a disc that
enters faster is captured where friction has slowed it to the skip speed if that point is still
inside the circle, otherwise it crosses. Nothing else matters: neither the disc's size (3.18 cm,
almost the hole's 3.5 cm) nor how far off-centre it crosses.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
import pandas as pd

from carromlab.analysis.intervals import rate
from carromlab.analysis.variants import analysis_for
from carromlab.equipment import CrokinoleBoard, IcfBoard
from carromlab.errors import CarromlabError
from carromlab.physics import Physics
from carromlab.physics.kernel import Discs, batch_simulator_for, make_simulator
from carromlab.physics.params import TRACED_FIELDS
from carromlab.physics.programs import kernel_program
from carromlab.physics.table import Pieces, Table
from carromlab.position import Position
from carromlab.shots import (
    SHOT_FIELDS,
    SKILLS,
    Shot,
    Skill,
    noisy_shots,
    place_shooter,
    shot_keys,
)

# --------------------------------------------------------------------------- liveliness

#: The ICF liveliness rule: at least this many runs [official: ICF Laws of Carrom, 1993,
#: section I].
LIVELINESS_RUNS = 3.5
#: Striker speeds (m/s) of "maximum force": the reference derives its friction row "from the
#: 3.5-runs rule with v0 4-5 m/s" and gives a break / power shot 4-6 m/s [estimate,
#: docs/equipment.md; no measurement of a maximum carrom stroke was found].
STRIKE_SPEEDS = (4.0, 4.5, 5.0)
#: The speed the liveliness check uses: the low end of the 4-5 m/s range [estimate]. Runs grow
#: with the speed, so a board that passes at 4 m/s passes at every speed of the range: the
#: strictest reading of "maximum force" the reference allows.
MAX_STRIKE_SPEED = 4.0


@dataclass(frozen=True)
class Lane:
    """The straight line a liveliness striker runs along (South to North at ``x = 0``).

    ``y0`` its centre's start (on the baseline), ``y_south`` / ``y_north`` its centre's y when
    it touches the South / North frame (m).
    """

    y0: float
    y_south: float
    y_north: float
    radius: float
    mass: float

    @property
    def first_run(self) -> float:
        """The centre's travel of the first run: baseline to touching the opposite frame."""
        return self.y_north - self.y0

    @property
    def run(self) -> float:
        """The centre's travel of every later run: frame to frame."""
        return self.y_north - self.y_south


def lane(board: IcfBoard | None = None) -> Lane:
    """The liveliness lane of ``board`` (default the ICF board): the striker (the board's own,
    4.13 cm and 15 g by default: the rule's 15 g striker) on the South baselines' midline,
    where a stroke places it (the ICF striker's line, from the game's shot analysis)."""

    board = board or IcfBoard()
    spec = board.piece_specs()["striker"]
    return Lane(
        y0=analysis_for("icf").shot_y(board),
        y_south=-board.half + spec.radius,
        y_north=board.half - spec.radius,
        radius=spec.radius,
        mass=spec.mass,
    )


def runs_analytic(mu, e_cushion, v0, ln: Lane | None = None, g: float = 9.81) -> np.ndarray:
    """Runs by hand (no kernel): the squared speed loses ``2 mu g d`` over a travel ``d`` and
    is multiplied by ``e_cushion^2`` at each (head-on) cushion contact. Arrays broadcast."""
    ln = ln or lane()
    mu, e, v0 = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (mu, e_cushion, v0)))
    out = np.empty(mu.shape)
    for idx in np.ndindex(mu.shape):
        a = mu[idx] * g
        if a <= 0:
            out[idx] = math.inf
            continue
        v2 = v0[idx] ** 2
        if v2 <= 2 * a * ln.first_run:
            out[idx] = v2 / (2 * a) / ln.first_run
            continue
        v2 -= 2 * a * ln.first_run
        runs = 1
        while True:
            v2 *= e[idx] ** 2
            if v2 <= 2 * a * ln.run:
                out[idx] = runs + v2 / (2 * a) / ln.run
                break
            v2 -= 2 * a * ln.run
            runs += 1
    return out


def runs_from_outcome(ln: Lane, wall_contacts, y_final) -> np.ndarray:
    """Runs from a lane striker's outcome: ``k`` cushion contacts plus the fraction of the run
    in progress when it stopped (the module's counting rule)."""
    k = np.asarray(wall_contacts, dtype=int)
    y = np.asarray(y_final, dtype=float)
    first = (y - ln.y0) / ln.first_run  # k == 0: still on the first run
    back = (ln.y_north - y) / ln.run  # k odd: heading South
    forth = (y - ln.y_south) / ln.run  # k even > 0: heading North
    frac = np.where(k == 0, first, np.where(k % 2 == 1, back, forth))
    return k + frac


@functools.lru_cache(maxsize=4)
def _lane_simulator(layout, max_events: int):
    """One striker, vmapped over shots *and* physics (one parameter set per lane)."""
    table = Table.from_layout(layout)
    one = make_simulator(table, 1, max_events)
    return kernel_program(
        jax.vmap(one, in_axes=(0, 0)),
        "one-striker",
        None,
        board=table.label(),
        discs=1,
        events=max_events,
    )


#: Batch size of the liveliness kernel runs: batches are padded to a multiple of it, so a few
#: shapes compile (a numerical choice).
_LANE_BATCH = 32


def liveliness_runs(mu, e_cushion, v0, board: IcfBoard | None = None, physics=None):
    """Runs made by the board's striker struck straight across at ``v0`` (m/s), simulated by
    the kernel, for friction ``mu`` and cushion restitution ``e_cushion`` (arrays broadcast;
    the other parameters from ``physics``, default ``Physics()``). Returns a float array."""
    board = board or IcfBoard()
    ln = lane(board)
    base = physics or Physics()
    mu, e, v = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (mu, e_cushion, v0)))
    shape = mu.shape
    mu, e, v = mu.ravel(), e.ravel(), v.ravel()
    m = len(mu)
    size = -(-max(m, 1) // _LANE_BATCH) * _LANE_BATCH
    pad = size - m

    def padded(a, fill):
        return np.concatenate([a, np.full(pad, fill)]).astype(np.float32)

    fields = {f: np.full(size, getattr(base, f)) for f in TRACED_FIELDS}
    fields["mu"] = padded(mu, base.mu)
    fields["e_cushion"] = padded(e, base.e_cushion)
    phys = dataclasses.replace(base, **{k: jnp.asarray(a, jnp.float32) for k, a in fields.items()})
    pieces = Pieces.from_position(
        Position("icf", (), board), shooter=("striker", None, 0.0, ln.y0), speed=1.0, angle=0.0
    )
    one = Discs.arrays(pieces, np.float32)
    discs = Discs(**{k: jnp.asarray(np.repeat(a[None], size, axis=0)) for k, a in one.items()})
    discs = dataclasses.replace(
        discs, vx=jnp.zeros((size, 1), jnp.float32), vy=jnp.asarray(padded(v, 1.0)[:, None])
    )
    # One event a run: 60 runs at least (e_cushion 1 at 5 m/s needs mu >= 0.031); more is
    # refused below (truncated).
    out = _lane_simulator(board.layout, 64)(discs, phys)
    k = np.asarray(out.n_wall_contacts)[:m]
    x, y = np.asarray(out.x)[:m, 0], np.asarray(out.y)[:m, 0]
    bad = np.asarray(out.truncated)[:m] | (np.asarray(out.capture)[:m, 0] >= 0)
    bad |= np.abs(x) > 1e-6
    if bad.any():
        raise CarromlabError(
            f"liveliness lane left its line (truncated, captured or off x = 0) for "
            f"mu={mu[bad]}, e_cushion={e[bad]}, v0={v[bad]}"
        )
    return runs_from_outcome(ln, k, y).reshape(shape)


def max_mu(e_cushion: float, v0: float = MAX_STRIKE_SPEED, runs: float = LIVELINESS_RUNS):
    """The largest friction at which the board still makes ``runs`` runs (by hand: runs fall
    as ``mu`` grows), found by bisection to 1e-6."""
    lo, hi = 1e-4, 2.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if runs_analytic(mid, e_cushion, v0)[()] >= runs:
            lo = mid
        else:
            hi = mid
    return lo


#: The liveliness table's grid: friction across and beyond the reference's range 0.06-0.20
#: (0.2 an unpowdered board), cushion restitution across 0.6-0.8 and beyond (docs/equipment.md).
TABLE_MU = (0.06, 0.08, 0.10, 0.12, 0.15, 0.20)
TABLE_E = (0.6, 0.7, 0.8, 0.9)


def liveliness_table(mus=TABLE_MU, es=TABLE_E, speeds=STRIKE_SPEEDS) -> pd.DataFrame:
    """Runs (kernel and by hand) over the grid: one row per (mu, e_cushion, v0)."""
    mu, e, v = (a.ravel() for a in np.meshgrid(mus, es, speeds, indexing="ij"))
    runs = liveliness_runs(mu, e, v)
    return pd.DataFrame(
        {
            "mu": mu,
            "e_cushion": e,
            "v0": v,
            "runs": runs,
            "runs_analytic": runs_analytic(mu, e, v),
            "holds": runs >= LIVELINESS_RUNS,
        }
    )


# --------------------------------------------------------------------------- open twenty

#: Speeds (m/s) a player may choose for an open twenty: the nominal speeds the rate is
#: maximised over. On the default board a centred disc is captured for nominal speeds of about
#: 0.75-1.60 m/s (it must reach the hole, and be down to the 1.4 m/s skip speed before leaving
#: it); the grid covers that window and a little beyond, every 0.05 m/s (a numerical choice).
TWENTY_SPEEDS = tuple(round(0.70 + 0.05 * k, 2) for k in range(21))
#: Published open-twenty rate of the top tier (docs/equipment.md: "about 65 % for top competitive
#: players") [secondary].
TWENTY_TOP_RATE = 0.65
#: Open-twenty targets by tier. Only the top figure is published (``pro``, above); the lower
#: tiers' are estimates: a strong club player well under the top (expert 50 %), a regular club
#: player about a third (35 %), a newcomer about one in five (20 %) [estimate].
TWENTY_TARGETS = {"novice": 0.20, "club": 0.35, "expert": 0.50, "pro": TWENTY_TOP_RATE}
#: Shot placement of the open twenty: the outer line's point straight South of the hole
#: (degrees on the shooting arc; rules/crokinole.py). The line to the hole runs between
#: two pegs (pegs at 22.5 + k 45 deg).
TWENTY_PLACEMENT = -90.0
#: Shots per batch of the open-twenty runs (fixed: one compile; a numerical choice).
_TWENTY_CHUNK = 2048


def empty_crokinole(surround: str = "square", variant: str = "force-out") -> Position:
    """An empty crokinole-side board (``surround``: "square", the Carrom Company board the
    crokinole variants use by default, or "ditch", an NCA tournament board)."""
    return Position(
        variant,
        (),
        CrokinoleBoard(surround=surround),
        name="open-twenty",
        description="Empty crokinole-side board (the open twenty).",
    ).check()


def twenty_shot(position: Position, speed, variant: str = "force-out") -> Shot:
    """The open-twenty shots at ``speed`` (m/s; array for several): from the outer line's
    point South of the hole straight at the hole's centre."""
    va = analysis_for(variant)
    x0, y0 = va.origin(position, TWENTY_PLACEMENT)
    speed = np.atleast_1d(np.asarray(speed, dtype=float))
    angle = math.atan2(-float(y0[0]), -float(x0[0]))
    return Shot(
        np.full(speed.shape, float(x0[0])),
        np.full(speed.shape, float(y0[0])),
        np.full(speed.shape, angle),
        speed,
    )


@functools.lru_cache(maxsize=8)
def _twenty_maker(noise):
    @jax.jit
    def make(template, base: Shot, keys):
        shots = noisy_shots(base, noise, keys)
        return jax.vmap(place_shooter, in_axes=(None, 0))(template, shots)

    return make


def twenty_successes(
    skill: Skill,
    speeds,
    n: int,
    seed: int = 0,
    surround: str = "square",
    variant: str = "force-out",
    physics: Physics | None = None,
) -> np.ndarray:
    """Successes out of ``n`` noisy open twenties at each nominal speed, with the crokinole
    variants' noise of ``skill`` (``analysis_for(variant).noise(skill)``). Shot ``i`` uses the
    key ``fold_in(fold_in(key(seed), 0), i)`` (ShotRunner's scheme, task 0) at *every* speed:
    common random numbers, so the speeds are compared on the same execution errors (the
    relative speed error scales with the speed) and a speed search is not led by luck."""
    position = empty_crokinole(surround, variant)
    va = analysis_for(variant)
    layout = position.board.layout
    hole = Table.from_layout(layout).capture_names.index("hole")
    pieces = Pieces.from_position(va.table_position(position), shooter=("shooter", None, 0, 0))
    template = Discs.from_pieces(pieces)
    sim = batch_simulator_for(layout, pieces.n, 64)
    make = _twenty_maker(va.noise(skill))
    base = twenty_shot(position, speeds, variant)
    physics = physics or Physics()
    out = np.zeros(len(base.speed), dtype=np.int64)
    for c in range(len(base.speed)):
        one = Shot(*(jnp.asarray(getattr(base, f)[c], jnp.float32) for f in SHOT_FIELDS))
        for start in range(0, n, _TWENTY_CHUNK):
            keep = min(_TWENTY_CHUNK, n - start)
            keys = shot_keys(seed, start, _TWENTY_CHUNK)
            res = sim(make(template, one, keys), physics)
            out[c] += int((np.asarray(res.capture)[:keep, 0] == hole).sum())
    return out


def choose_speed(successes) -> int:
    """The index of the speed a player picks from a speed search: the most successes; among
    equals, the most successes summed with its two grid neighbours (aim for the middle of the
    window, not its edge); still equal, the middle one."""
    k = np.asarray(successes, dtype=float)
    smooth = np.convolve(np.pad(k, 1, mode="edge"), np.ones(3), mode="valid")
    smooth = np.where(k == k.max(), smooth, -np.inf)
    (tied,) = np.nonzero(smooth == smooth.max())
    return int(tied[len(tied) // 2])


@dataclass(frozen=True)
class TwentyRate:
    """A skill's open-twenty rate at the speed it chose, with a Wilson interval."""

    skill: str
    speed: float
    successes: int
    n: int
    rate: float
    lo: float
    hi: float
    choice: pd.DataFrame  # the speed search: speed, successes, n


def open_twenty(
    skill: Skill | str,
    n: int = 4000,
    n_choose: int = 1000,
    speeds=TWENTY_SPEEDS,
    seed: int = 0,
    surround: str = "square",
    variant: str = "force-out",
    physics: Physics | None = None,
    confidence: float = 0.95,
) -> TwentyRate:
    """The open-twenty rate of ``skill`` (a Skill, or a name of ``shots.SKILLS``).

    The player's speed is the one of ``speeds`` with the most successes in ``n_choose`` shots
    each (seed ``seed``); the rate is then measured afresh with ``n`` shots at that speed (seed
    ``seed + 1``), so the winner of the search is not flattered by its own luck.
    """
    sk = skill if isinstance(skill, Skill) else SKILLS[skill]
    kw = dict(surround=surround, variant=variant, physics=physics)
    found = twenty_successes(sk, speeds, n_choose, seed, **kw)
    best = float(np.asarray(speeds)[choose_speed(found)])
    k = int(twenty_successes(sk, [best], n, seed + 1, **kw)[0])
    p, lo, hi = rate(k, n, confidence)
    choice = pd.DataFrame({"speed": np.asarray(speeds, float), "successes": found, "n": n_choose})
    return TwentyRate(sk.name, best, k, int(n), float(p), lo, hi, choice)


# --------------------------------------------------------------------------- presets

#: Distance from the outer line to the hole's centre (m): the open twenty's length
#: (CrokinoleBoard.outer_radius, NCA 12 in [secondary]).
_TWENTY_LENGTH = CrokinoleBoard().outer_radius
#: The hole's capture radius (m): the hole's own radius (CrokinoleBoard.hole_diameter / 2).
_HOLE_RADIUS = CrokinoleBoard().hole_diameter / 2


def twenty_rate_model(placement: float, angle: float) -> float:
    """The open-twenty rate by hand: the path misses the hole's centre sideways by about
    ``dx - L dtheta`` (placement error ``dx``, direction error ``dtheta``, length ``L``), and
    the disc is captured when that is under the hole's radius. The speed window (about
    0.75-1.60 m/s around the chosen 1.25-1.45 m/s) is wide enough that a 10 % speed error
    seldom leaves it, so the speed is left out; so are the pegs, which turn some near-misses
    in (the kernel's rate is a few points higher)."""
    from scipy.stats import norm

    sigma = math.hypot(placement, _TWENTY_LENGTH * angle)
    return float(2 * norm.cdf(_HOLE_RADIUS / sigma) - 1) if sigma > 0 else 1.0


def angle_for_rate(target: float, placement: float) -> float:
    """The direction error (rad) that gives the open-twenty rate ``target`` by
    :func:`twenty_rate_model`, with the placement error ``placement`` (m)."""
    from scipy.stats import norm

    sigma = _HOLE_RADIUS / norm.ppf(0.5 + target / 2)
    if sigma <= placement:
        raise CarromlabError(f"placement {placement} m alone misses more than {1 - target:.0%}")
    return math.sqrt(sigma * sigma - placement * placement) / _TWENTY_LENGTH


def crokinole_skill(name: str, target: float, angle: float | None = None) -> Skill:
    """The crokinole-side preset of tier ``name``: the placement and speed errors of
    ``shots.SKILLS[name]`` (the open twenty cannot tell speed errors apart, and placement on
    the line is by hand and eye as in carrom) with the direction error calibrated so the open
    twenty succeeds at ``target`` (``angle`` overrides it, for fine tuning)."""
    base = SKILLS[name]
    a = angle_for_rate(target, base.placement) if angle is None else angle
    return Skill(
        name,
        base.placement,
        a,
        base.speed,
        f"about {math.degrees(a):.1f} deg, {base.speed * 100:g} % speed: open twenty about "
        f"{target:.0%} (calibrated, docs/calibration.md)",
    )


def fit_twenty_angle(
    name: str,
    target: float,
    n: int = 16_000,
    n_choose: int = 1000,
    seed: int = 100,
    steps: int = 14,
    **kw,
) -> tuple[float, TwentyRate]:
    """Fit the direction error of tier ``name`` so its open twenty (through the kernel)
    succeeds at ``target``.

    The player's speed is chosen once, with the direction error of the hand model
    (:func:`angle_for_rate`; the rate hardly depends on the speed inside the window). At that
    speed the error is bisected (``steps`` halvings of [0.5, 3] times the model's) on ``n``
    shots with one seed: common random numbers, so the errors only scale and the rate falls
    as the error grows. The model underestimates the rate (pegs turn some near-misses in), so
    the fitted error is larger. Returns (angle rounded to 1e-4 rad, the
    rate of the rounded preset by :func:`open_twenty`, speed chosen afresh, seed ``seed + 2``).
    """
    start = angle_for_rate(target, SKILLS[name].placement)
    found = twenty_successes(
        crokinole_skill(name, target, start), TWENTY_SPEEDS, n_choose, seed, **kw
    )
    speed = TWENTY_SPEEDS[choose_speed(found)]
    lo, hi = 0.5 * start, 3.0 * start
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        k = twenty_successes(crokinole_skill(name, target, mid), [speed], n, seed + 1, **kw)[0]
        lo, hi = (mid, hi) if k / n > target else (lo, mid)
    angle = round(0.5 * (lo + hi), 4)
    sk = crokinole_skill(name, target, angle)
    return angle, open_twenty(sk, n, n_choose, seed=seed + 2, **kw)
