"""KOOBA aim-point heat maps: for a grid of aim points, the chance of each tag from ``n``
noisy throws at a skill and a distance (physics/throw.py, games/kooba/geometry.py).

Throw ``i`` at aim cell ``c`` uses the key ``fold_in(fold_in(key(seed), c), i)``. The
thrower stands on the seat's axis at ``sticks`` stick lengths from the board's centre
(seed 003: 4, Pro: 5). Tags per throw (an Aero that lands with its centre off the board falls
and tags nothing):

- ``eye``, ``inner_eye``: the Aero's material shares area with the zone;
- ``kooba``: it touches the KOOBA (at the centre; tangency counts) or rings it; ``ring``: the
  KOOBA lies inside its hole. Decision: a ring is also a KOOBA tag - the KOOBA is then
  inside the Aero's outline, though it touches only the hole's empty space;
- ``penalty``: it shares area with any quadrant's Penalty Zone; ``own_run``: with any step of
  the seat's own run;
- ``off``: it fell off the board.

Every probability comes with its Wilson interval.
"""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pandas as pd

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.intervals import wilson
from carromlab.equipment.geometry import rotate
from carromlab.equipment.kooba import SEAT_ANGLE, SEATS, KoobaBoard
from carromlab.errors import CarromlabError
from carromlab.games.kooba.geometry import aero_overlaps_circle, aero_overlaps_polygon, rings
from carromlab.physics.throw import throw_batch
from carromlab.shots import THROW_SKILLS, ThrowSkill

TAGS = ("eye", "inner_eye", "kooba", "ring", "penalty", "own_run", "off")


def thrower_spot(board: KoobaBoard, seat: str, sticks: int) -> tuple[float, float]:
    """Where a thrower on ``seat`` stands: ``sticks`` stick lengths out on the seat's axis."""
    if seat not in SEATS:
        raise CarromlabError(f"unknown seat {seat!r}; seats are {', '.join(SEATS)}")
    d = sticks * board.stick_length
    return rotate(0.0, d, SEAT_ANGLE[seat] - np.pi / 2)


def tag_throws(board: KoobaBoard, x, y, rotation, seat: str) -> dict[str, np.ndarray]:
    """The tags of Aeros landed at (x, y, rotation) (arrays) for a thrower on ``seat``."""
    x, y, rotation = (np.asarray(v, float) for v in (x, y, rotation))
    side, hole = board.aero_side, board.aero_hole_diameter / 2
    on = (np.abs(x) <= board.half) & (np.abs(y) <= board.half)
    zones = board.zones
    ring = rings(x, y, hole, 0.0, 0.0, board.kooba_radius)
    kooba = aero_overlaps_circle(
        x, y, rotation, side, hole, 0.0, 0.0, board.kooba_radius, touch=True
    )
    tags = {
        "eye": aero_overlaps_circle(x, y, rotation, side, hole, 0.0, 0.0, board.eye_radius),
        "inner_eye": aero_overlaps_circle(
            x, y, rotation, side, hole, 0.0, 0.0, board.inner_eye_radius
        ),
        "kooba": kooba | ring,
        "ring": ring,
    }
    penalty = np.zeros(x.shape, bool)
    for s in SEATS:
        penalty |= aero_overlaps_polygon(x, y, rotation, side, hole, zones[f"penalty.{s}"].points)
    own = np.zeros(x.shape, bool)
    for step in range(1, 6):
        own |= aero_overlaps_polygon(x, y, rotation, side, hole, zones[f"run.{seat}.{step}"].points)
    tags.update(penalty=penalty, own_run=own)
    out = {k: v & on for k, v in tags.items()}
    out["off"] = ~on
    return out


def aim_map(
    aims_x,
    aims_y,
    skill="club",
    sticks: int = 4,
    n: int = 400,
    seed: int = 0,
    seat: str = "S",
    slide: float = 0.0,
    board: KoobaBoard | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """One row per aim point of the grid ``aims_x x aims_y`` (m): ``aim_x``, ``aim_y``,
    ``n`` and ``p_<tag>`` with ``p_<tag>_lo`` / ``_hi`` for every tag in :data:`TAGS`."""
    board = board or KoobaBoard()
    sk = skill if isinstance(skill, ThrowSkill) else THROW_SKILLS.get(skill)
    if sk is None:
        raise CarromlabError(f"unknown throw skill {skill!r}; known: {', '.join(THROW_SKILLS)}")
    if int(n) <= 0:
        raise CarromlabError(f"n must be a positive number of throws, not {n}")
    cells = list(itertools.product(np.atleast_1d(aims_x), np.atleast_1d(aims_y)))
    fx, fy = thrower_spot(board, seat, int(sticks))
    root = jax.random.key(int(seed))
    cell_keys = jax.vmap(lambda c: jax.random.fold_in(root, c))(jnp.arange(len(cells)))
    keys = jax.vmap(lambda k: jax.vmap(lambda i: jax.random.fold_in(k, i))(jnp.arange(n)))(
        cell_keys
    ).reshape(-1)
    ax = np.repeat([c[0] for c in cells], n)
    ay = np.repeat([c[1] for c in cells], n)
    x, y, rot = throw_batch(
        keys,
        jnp.asarray(ax),
        jnp.asarray(ay),
        jnp.full(len(ax), fx),
        jnp.full(len(ax), fy),
        sk.angle,
        sk.length,
        sk.release,
        float(slide),
    )
    tags = tag_throws(board, np.asarray(x), np.asarray(y), np.asarray(rot), seat)
    rows = {"aim_x": [c[0] for c in cells], "aim_y": [c[1] for c in cells]}
    df = pd.DataFrame(rows)
    df["n"] = int(n)
    for tag in TAGS:
        k = tags[tag].reshape(len(cells), n).sum(axis=1)
        lo, hi = wilson(k, np.full(len(cells), n), confidence)
        df[f"p_{tag}"], df[f"p_{tag}_lo"], df[f"p_{tag}_hi"] = k / n, lo, hi
    df.attrs["config"] = run_metadata(
        kind="kooba_aim_map",
        variant="kooba",
        skill=vars(sk),
        sticks=int(sticks),
        seat=seat,
        slide=float(slide),
        n=int(n),
        seed=int(seed),
    )
    return df


def aim_estimate(aim_x: float, aim_y: float, **kwargs) -> pd.DataFrame:
    """One aim point's tag probabilities as a long table: ``quantity`` (``p_<tag>``),
    ``estimate``, ``lo``, ``hi``, ``n``, ``kind`` ("probability"); ``kwargs`` as
    :func:`aim_map`."""
    table = aim_map([float(aim_x)], [float(aim_y)], **kwargs)
    one = table.iloc[0]
    rows = [
        {
            "quantity": f"p_{tag}",
            "estimate": float(one[f"p_{tag}"]),
            "lo": float(one[f"p_{tag}_lo"]),
            "hi": float(one[f"p_{tag}_hi"]),
            "n": int(one["n"]),
            "kind": "probability",
        }
        for tag in TAGS
    ]
    df = pd.DataFrame(rows)
    df.attrs["config"] = {**table.attrs["config"], "aim": [float(aim_x), float(aim_y)]}
    return df
