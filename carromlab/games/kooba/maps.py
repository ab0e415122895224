"""KOOBA aim-point heat maps: for a grid of aim points, the chance of each tag from ``n``
noisy throws at a skill and a distance (physics/throw.py, games/kooba/rules.py).

Throw ``i`` at aim cell ``c`` uses the key ``fold_in(fold_in(key(seed), c), i)``. The
thrower stands on the seat's axis at ``sticks`` stick lengths from the board's centre
(seed 003: 4, Pro: 5). The tags of a throw are the rules' (``rules.py``: :data:`TAGS`,
:func:`tag_throws`).

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
from carromlab.games.kooba.rules import TAGS, tag_throws
from carromlab.physics.throw import throw_batch
from carromlab.shots import THROW_SKILLS, ThrowSkill


def thrower_spot(board: KoobaBoard, seat: str, sticks: int) -> tuple[float, float]:
    """Where a thrower on ``seat`` stands: ``sticks`` stick lengths out on the seat's axis."""
    if seat not in SEATS:
        raise CarromlabError(f"unknown seat {seat!r}; seats are {', '.join(SEATS)}")
    d = sticks * board.stick_length
    return rotate(0.0, d, SEAT_ANGLE[seat] - np.pi / 2)


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
