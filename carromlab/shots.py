"""Shots and their noise: small composable pieces, one PRNG root, one key per shot.

A shot puts the shooting piece (index 0 of the discs) at (x, y) and sends it at ``speed`` m/s
towards ``angle`` (radians, counter-clockwise from +x). Noise is zero-mean Gaussian on each
parameter, applied by ``jitter_*`` functions that can be chained. Keys: one root
``jax.random.key(seed)``; ``task_key = fold_in(root, task)``; shot ``i`` uses
``fold_in(task_key, i)``, so a result never depends on how shots are chunked.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from carromlab.physics.kernel import Discs


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Shot:
    """Placement, direction and speed of the shooting piece (scalars, or arrays for a batch)."""

    x: jax.Array
    y: jax.Array
    angle: jax.Array
    speed: jax.Array


def shot_keys(seed: int, start: int, count: int, task: int = 0) -> jax.Array:
    """Keys of shots ``start .. start+count-1`` of ``task``: fold_in(fold_in(root, task), i)."""
    task_key = jax.random.fold_in(jax.random.key(seed), task)
    return jax.vmap(lambda i: jax.random.fold_in(task_key, i))(start + jnp.arange(count))


def jitter_angle(sigma: float):
    """Gaussian error of ``sigma`` radians on the direction."""

    def apply(key, shot: Shot) -> Shot:
        k = jax.random.fold_in(key, 1)
        return Shot(shot.x, shot.y, shot.angle + sigma * jax.random.normal(k), shot.speed)

    return apply


def jitter_speed(rel_sigma: float):
    """Gaussian relative error of ``rel_sigma`` on the speed (never below 0)."""

    def apply(key, shot: Shot) -> Shot:
        k = jax.random.fold_in(key, 2)
        speed = shot.speed * jnp.maximum(1.0 + rel_sigma * jax.random.normal(k), 0.0)
        return Shot(shot.x, shot.y, shot.angle, speed)

    return apply


def jitter_placement(sigma: float):
    """Gaussian error of ``sigma`` metres on the placement along x."""

    def apply(key, shot: Shot) -> Shot:
        k = jax.random.fold_in(key, 3)
        return Shot(shot.x + sigma * jax.random.normal(k), shot.y, shot.angle, shot.speed)

    return apply


def chain(*jitters):
    """Apply several jitters in turn (each draws from its own sub-key)."""

    def apply(key, shot: Shot) -> Shot:
        for jit_fn in jitters:
            shot = jit_fn(key, shot)
        return shot

    return apply


def noisy_shots(shot: Shot, noise, keys: jax.Array) -> Shot:
    """One noisy copy of ``shot`` per key."""
    return jax.vmap(lambda k: noise(k, shot))(keys)


SHOT_FIELDS = ("x", "y", "angle", "speed")


def take_shots(shots: Shot, idx) -> Shot:
    """The base shots ``idx`` of a Shot of arrays."""
    return Shot(*(np.asarray(getattr(shots, f))[idx] for f in SHOT_FIELDS))


def concat_shots(shots) -> Shot:
    """Shots of arrays (or scalars) laid end to end."""
    return Shot(
        *(np.concatenate([np.atleast_1d(getattr(s, f)) for s in shots]) for f in SHOT_FIELDS)
    )


def place_shooter(template: Discs, shot: Shot) -> Discs:
    """The template's discs with the shooting piece (index 0) placed and moving per ``shot``.

    Works on one shot; vmap it (or call with batched ``shot`` through ``jax.vmap``) for many.
    """
    dtype = template.x.dtype
    return Discs(
        x=template.x.at[0].set(jnp.asarray(shot.x, dtype)),
        y=template.y.at[0].set(jnp.asarray(shot.y, dtype)),
        vx=template.vx.at[0].set(jnp.asarray(shot.speed * jnp.cos(shot.angle), dtype)),
        vy=template.vy.at[0].set(jnp.asarray(shot.speed * jnp.sin(shot.angle), dtype)),
        radius=template.radius,
        inv_mass=template.inv_mass,
        hard=template.hard,
        alive=template.alive,
        static=template.static,
    )


@dataclass(frozen=True)
class Skill:
    """Execution noise of a player: standard deviations of placement (m), angle (rad) and
    relative speed."""

    name: str
    placement: float
    angle: float
    speed: float
    note: str = ""

    def noise(self):
        """The skill's noise function (the same object for equal skills, so compiled
        functions that close over it are reused)."""
        return _skill_noise(self.placement, self.angle, self.speed)


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class SkillNoise:
    """A skill's noise, ``chain(jitter_placement(placement), jitter_angle(angle),
    jitter_speed(speed))``, as a callable pytree: its three sigmas are leaves, so a compiled
    function that takes it as an argument (the shot runner's noise maker) serves every skill
    with one program; closed over, it is the same chain of constants."""

    placement: float
    angle: float
    speed: float

    def __call__(self, key, shot: Shot) -> Shot:
        return chain(
            jitter_placement(self.placement), jitter_angle(self.angle), jitter_speed(self.speed)
        )(key, shot)


@functools.lru_cache(maxsize=64)
def _skill_noise(placement: float, angle: float, speed: float) -> SkillNoise:
    return SkillNoise(placement, angle, speed)


#: Skill presets (estimates: no published measurement of carrom execution error exists).
#: Reasoning: a direct shot over about 0.5 m into a 4.45 cm pocket leaves a coin about
#: +-1.2 deg of direction error; a professional pockets such shots nearly always (sigma well
#: under a third of that), a club player most of the time, a novice about half the time.
#: Speed errors matter less for pocketing and are larger; placement on the baseline is
#: set by hand and eye (millimetres). The crokinole side plays its own presets of the same
#: names, calibrated to published open-twenty rates (carromlab/calibration_presets.py,
#: docs/calibration.md); these stay estimates.
SKILLS: dict[str, Skill] = {
    s.name: s
    for s in (
        Skill("novice", 0.003, 0.026, 0.10, "about 1.5 deg, 10 % speed"),
        Skill("club", 0.002, 0.013, 0.06, "about 0.75 deg, 6 % speed"),
        Skill("expert", 0.001, 0.007, 0.04, "about 0.4 deg, 4 % speed"),
        Skill("pro", 0.0005, 0.0035, 0.025, "about 0.2 deg, 2.5 % speed"),
        Skill("exact", 0.0, 0.0, 0.0, "no noise: every execution is the nominal shot"),
    )
}


def skill(name: str) -> Skill:
    from carromlab.errors import CarromlabError

    try:
        return SKILLS[name]
    except KeyError:
        raise CarromlabError(f"unknown skill {name!r}; known: {', '.join(SKILLS)}") from None


@dataclass(frozen=True)
class ThrowSkill:
    """Execution noise of a KOOBA throw (physics/throw.py): direction error ``angle``
    (radians), relative length error ``length``, release error ``release`` (m)."""

    name: str
    angle: float
    length: float
    release: float
    note: str = ""


#: Throw skill presets (estimates: no published measurements of KOOBA throws). Reasoning:
#: from 4 stick lengths (2.24 m) a casual player lands within a hand's width (about 5 cm) of
#: the aim most of the time, a good one within the Inner Eye (5 cm radius), a top one within
#: a few centimetres; length errors are taken half again as large as direction errors.
THROW_SKILLS: dict[str, ThrowSkill] = {
    s.name: s
    for s in (
        ThrowSkill("novice", 0.025, 0.035, 0.005, "about 5.6 cm across at 2.24 m"),
        ThrowSkill("club", 0.015, 0.022, 0.004, "about 3.4 cm across at 2.24 m"),
        ThrowSkill("expert", 0.009, 0.013, 0.003, "about 2 cm across at 2.24 m"),
        ThrowSkill("pro", 0.005, 0.0075, 0.002, "about 1.1 cm across at 2.24 m"),
        ThrowSkill("exact", 0.0, 0.0, 0.0, "no noise"),
    )
}


# --------------------------------------------------------------------------- hand-set openings

#: How far a piece of a hand-set opening may be from where the set-up puts it (m): an
#: estimate (nothing is published). Players set the rosette by hand, pushing the pieces
#: together, so they touch loosely: gaps of a few tenths of a millimetre. Each packed group is
#: spread about its centre until its closest pair is ``2 * HAND_SET`` apart, then every
#: piece moves by up to ``HAND_SET`` in a random direction (uniform over a disc): touching
#: pieces end up 0 to ``4 * HAND_SET`` apart, never overlapping.
HAND_SET = 0.0003
#: The most ``hand_set`` may be (m): beyond this a set-up is not the opening any more.
HAND_SET_MAX = 0.005
#: The stream of a shot's key that draws the set-up (``fold_in(key, HAND_SET_STREAM)``), apart
#: from the execution noise (the key itself).
HAND_SET_STREAM = 0x5E7


def piece_key(piece_id: str) -> int:
    """A piece's own draw of a hand-set move: a 31-bit number from its id (BLAKE2b), so that
    a piece moves the same way for a shot's key whichever slot the position lists it in."""
    import hashlib

    digest = hashlib.blake2b(str(piece_id).encode(), digest_size=4).digest()
    return int.from_bytes(digest, "little") & 0x7FFFFFFF


@dataclass(frozen=True)
class HandSetPlan:
    """How the pieces of a hand-set position move per shot (numpy, one entry per disc):
    ``movable`` pieces are spread about their packed group's centre (``cx``, ``cy``) by the
    factor ``1 + spread`` and moved by up to ``size`` metres, each by its own draw
    (``key``: :func:`piece_key` of its id). ``size`` 0: nothing moves."""

    movable: np.ndarray
    cx: np.ndarray
    cy: np.ndarray
    spread: np.ndarray
    size: float
    key: np.ndarray | None = None

    def arrays(self, dtype) -> dict[str, np.ndarray]:
        """The plan as arrays for a jitted function (``size`` repeated per disc)."""
        n = len(self.movable)
        key = np.arange(n) if self.key is None else self.key
        return {
            "hand_movable": np.asarray(self.movable, bool),
            "hand_cx": np.asarray(self.cx, dtype),
            "hand_cy": np.asarray(self.cy, dtype),
            "hand_spread": np.asarray(self.spread, dtype),
            "hand_size": np.full(n, self.size, dtype),
            "hand_key": np.asarray(key, np.int32),
        }


def check_hand_set(size) -> float:
    """``size`` as a float, or one clear line saying why it cannot be a hand-set size."""
    from carromlab.errors import CarromlabError

    try:
        value = float(size)
    except (TypeError, ValueError):
        raise CarromlabError(f"hand_set must be a number of metres, not {size!r}") from None
    if not np.isfinite(value) or value < 0:
        raise CarromlabError(f"hand_set must be a non-negative number of metres, not {size!r}")
    if value > HAND_SET_MAX:
        raise CarromlabError(
            f"hand_set {value} m is more than {HAND_SET_MAX} m: the pieces would no longer be "
            "the opening's set-up"
        )
    return value


def plan_hand_set(x, y, radius, movable, size: float, ids=None, present=None) -> HandSetPlan:
    """The :class:`HandSetPlan` of pieces at ``x``, ``y`` (radii ``radius``; ``movable``: the
    pieces set by hand, not the shooter or fixed pieces) for ``size`` metres.

    Packed groups (pieces touching within 1e-6 m, linked) are spread about their centroid so
    that their closest pair opens by ``2 * size``; a piece alone is only moved. Refuses, with one
    line, a size that is not a non-negative number or that could make a piece overlap one of
    another group or a fixed piece (names from ``ids``; pieces not ``present``, such as a
    shooter placed later or a dead disc, are left out)."""
    from carromlab.errors import CarromlabError

    size = check_hand_set(size)
    x, y, r = (np.asarray(a, float) for a in (x, y, radius))
    movable = np.asarray(movable, bool)
    n = len(x)
    ids = list(ids) if ids is not None else [str(k) for k in range(n)]
    key = np.array([piece_key(i) for i in ids], np.int64)
    cx, cy, spread = x.copy(), y.copy(), np.zeros(n)
    if size == 0 or not movable.any():
        return HandSetPlan(movable, cx, cy, spread, 0.0, key)
    dist = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    touch = (dist - r[:, None] - r[None, :] <= 1e-6) & movable[:, None] & movable[None, :]
    np.fill_diagonal(touch, False)
    from scipy.sparse.csgraph import connected_components

    _, group = connected_components(touch, directed=False)
    group = np.where(movable, group, -1)
    for g in np.unique(group[group >= 0]):
        members = np.flatnonzero(group == g)
        if len(members) < 2:
            continue
        sub = np.where(np.eye(len(members), dtype=bool), np.inf, dist[np.ix_(members, members)])
        spread[members] = 2 * size / sub.min()
        cx[members], cy[members] = x[members].mean(), y[members].mean()
    reach = np.where(movable, spread * np.hypot(x - cx, y - cy) + size, 0.0)
    apart = group[:, None] != group[None, :]
    apart |= ~movable[:, None] | ~movable[None, :]
    np.fill_diagonal(apart, False)
    if present is not None:
        present = np.asarray(present, bool)
        apart &= present[:, None] & present[None, :]
    slack = dist - r[:, None] - r[None, :] - reach[:, None] - reach[None, :]
    bad = apart & (reach[:, None] + reach[None, :] > 0) & (slack < 0)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise CarromlabError(
            f"hand_set {size} m could make {ids[i]} overlap {ids[j]} (they are "
            f"{dist[i, j] - r[i] - r[j]:.4f} m apart): use a smaller hand_set or 0"
        )
    return HandSetPlan(movable, cx, cy, spread, size, key)


def set_by_hand(key, x, y, movable, cx, cy, spread, size, piece):
    """One shot's set-up (jax): the movable pieces spread and moved per the plan's arrays,
    each piece's displacement drawn from ``fold_in(fold_in(key, HAND_SET_STREAM), piece)``
    (``piece``: its :func:`piece_key`), so a set-up's layout for a shot does not depend on the
    order its position lists the pieces in; where ``size`` is 0 the positions are returned
    unchanged (bit for bit)."""
    stream = jax.random.fold_in(key, HAND_SET_STREAM)

    def draw(k):
        k1, k2 = jax.random.split(jax.random.fold_in(stream, k))
        return jax.random.uniform(k1, (), x.dtype), jax.random.uniform(k2, (), x.dtype)

    u1, u2 = jax.vmap(draw)(piece)
    rho = size * jnp.sqrt(u1)
    phi = 2 * jnp.pi * u2
    nx = cx + (1 + spread) * (x - cx) + rho * jnp.cos(phi)
    ny = cy + (1 + spread) * (y - cy) + rho * jnp.sin(phi)
    on = movable & (size > 0)
    return jnp.where(on, nx, x), jnp.where(on, ny, y)


def hand_set_plan_for(position, pieces, hand_set=None) -> HandSetPlan:
    """The plan for ``position``'s discs ``pieces`` (a :class:`~carromlab.physics.table.Pieces`
    with the shooter first): ``hand_set`` metres (``None``: :data:`HAND_SET`) when the position
    is set by hand, else nothing moves. The shooter and fixed pieces never move."""
    size = check_hand_set(HAND_SET if hand_set is None else hand_set)
    if not getattr(position, "set_by_hand", False):
        size = 0.0
    present = np.asarray(pieces.alive, bool).copy()
    present[0] = False  # the shooter: placed per shot
    movable = present & ~np.asarray(pieces.static, bool)
    return plan_hand_set(pieces.x, pieces.y, pieces.radius, movable, size, pieces.ids, present)
