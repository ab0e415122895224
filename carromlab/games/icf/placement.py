"""Where the opponent places a returned piece in standard carrom (ICF laws; decisions 9-11 and
15 of :mod:`carromlab.games.icf.machine`)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from carromlab.errors import CarromlabError
from carromlab.games.icf.state import PLACEMENT_MODES, RANDOM_TRIES
from carromlab.position import Position
from carromlab.rules.placement import (
    _free,
    _obstacles,
    nearest_free_spot,
)


@lru_cache(maxsize=8)
def _outer_radius(position: Position) -> float:
    board = position.board
    d = getattr(board, "outer_circle_diameter", None)
    if d is None:
        raise CarromlabError(f"placement needs an ICF board (outer circle), not {board.family!r}")
    return d / 2


def place_returned(
    position: Position,
    kind: str,
    owner: str | None,
    rng: np.random.Generator | None = None,
    mode: str = "centre-first",
) -> tuple[float, float]:
    """Where the opponent places a returned piece (decisions 9-10): ``(x, y)`` in metres.

    The queen always goes as near the centre as possible; a coin goes by ``mode``:
    ``"centre-first"`` (the free spot nearest to the centre) or ``"random"`` (a uniform free
    spot inside the outer circle drawn from ``rng``). If nothing is free inside the outer
    circle, the free spot of the whole surface nearest to the centre.
    """
    if mode not in PLACEMENT_MODES:
        raise CarromlabError(f"placement mode must be one of {PLACEMENT_MODES}, not {mode!r}")
    specs = position.board.piece_specs()
    if kind not in specs:
        raise CarromlabError(f"unknown piece kind {kind!r}")
    r = specs[kind].radius
    rmax = _outer_radius(position) - r  # the whole piece inside the outer circle
    if mode == "random" and kind != "queen":
        if rng is None:
            raise CarromlabError("random placement needs a numpy random Generator (rng)")
        xy, radii = _obstacles(position)
        for _ in range(RANDOM_TRIES // 256):
            rho = rmax * np.sqrt(rng.random(256))
            a = 2 * math.pi * rng.random(256)
            pts = np.column_stack([rho * np.cos(a), rho * np.sin(a)])
            ok = _free(position, pts, r, xy, radii)
            if ok.any():
                x, y = pts[int(np.argmax(ok))]
                return float(x), float(y)
    spot = nearest_free_spot(position, r, rmax)
    if spot is None:
        spot = nearest_free_spot(position, r, None)
    if spot is None:
        raise CarromlabError(f"no free spot on the board for a returned {kind}")
    return spot


def _free_id(position: Position, kind: str, owner: str | None) -> str:
    used = {p.id for p in position.pieces}
    prefix = "q" if kind == "queen" else (owner or kind)[0]
    if kind == "queen" and "q" not in used:
        return "q"
    k = 1
    while f"{prefix}{k}" in used:
        k += 1
    return f"{prefix}{k}"


def _check_spot(position: Position, kind: str, xy) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in xy)
    except (TypeError, ValueError):
        raise CarromlabError(f"a placement policy must return (x, y), not {xy!r}") from None
    r = position.board.piece_specs()[kind].radius
    if not (math.isfinite(x) and math.isfinite(y)) or not _free(position, np.array([[x, y]]), r)[0]:
        raise CarromlabError(
            f"the placement policy put a {kind} at ({x:.4f}, {y:.4f}) m: not a free legal spot"
        )
    return x, y
