"""A standard mid-game ICF position: 19 coins scattered, one clear cut to a corner pocket.

Made with a seeded RNG (``seed=7``): ``w1`` stands at (0.12, 0.10) m; a striker from x = -0.05
on the South baseline can cut it into the north-east pocket, and no coin blocks either path
(the striker's path to the "ghost" position, or ``w1``'s path to the pocket). It is the
benchmark's ``cut`` scenario and the demo's shot-map position.
"""

from __future__ import annotations

import math

import numpy as np

from carromlab.equipment import IcfBoard
from carromlab.games.icf.setups import rosette
from carromlab.position import Piece, Position

#: Striker centre between the two baselines on the South side (derived from IcfBoard).
BASELINE_Y = sum(IcfBoard().baseline_y()) / 2

CUT_TARGET = "w1"
CUT_POCKET = "pocket.NE"
CUT_TARGET_XY = (0.12, 0.10)
CUT_STRIKER_X = -0.05


def ghost(board: IcfBoard, tx: float, ty: float, pocket: str) -> tuple[float, float]:
    """Where the striker's centre must be at contact to send a coin at (tx, ty) into
    ``pocket`` (the "ghost" position, one striker-plus-coin radius behind the coin)."""
    cap = next(c for c in board.layout.captures if c.name == pocket)
    specs = board.piece_specs()
    reach = specs["coin"].radius + specs["striker"].radius
    ux, uy = cap.x - tx, cap.y - ty
    n = math.hypot(ux, uy)
    return tx - reach * ux / n, ty - reach * uy / n


def ghost_aim(board: IcfBoard, sx, sy, tx, ty, pocket: str) -> float:
    """Angle that sends a striker at (sx, sy) to the ghost position."""
    gx, gy = ghost(board, tx, ty, pocket)
    return math.atan2(gy - sy, gx - sx)


def _dist_to_segment(px, py, ax, ay, bx, by) -> float:
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def midgame_position(seed: int = 7) -> Position:
    """19 coins scattered with a seeded RNG, keeping the striker's and w1's paths clear."""
    board = IcfBoard()
    specs = board.piece_specs()
    rc, rs = specs["coin"].radius, specs["striker"].radius
    cap = next(c for c in board.layout.captures if c.name == CUT_POCKET)
    tx, ty = CUT_TARGET_XY
    gx, gy = ghost(board, tx, ty, CUT_POCKET)
    rng = np.random.default_rng(seed)
    ids = [p.id for p in rosette(board) if p.id != CUT_TARGET]
    placed = [Piece(CUT_TARGET, "coin", "white", tx, ty)]
    lim = board.half - rc - 0.002
    for pid in ids:
        for _ in range(10_000):
            x, y = rng.uniform(-lim, lim, 2)
            ok = all(math.hypot(x - p.x, y - p.y) > 2 * rc + 0.002 for p in placed)
            ok &= all(math.hypot(x - c.x, y - c.y) > c.radius + rc for c in board.layout.captures)
            ok &= _dist_to_segment(x, y, CUT_STRIKER_X, BASELINE_Y, gx, gy) > rs + rc + 0.005
            ok &= _dist_to_segment(x, y, tx, ty, cap.x, cap.y) > 2 * rc + 0.005
            ok &= abs(y - BASELINE_Y) > rs + rc + 0.005  # the striker's spot stays free
            if ok:
                owner = (
                    "white" if pid.startswith("w") else ("black" if pid.startswith("b") else None)
                )
                kind = "queen" if pid == "q" else "coin"
                placed.append(Piece(pid, kind, owner, float(x), float(y)))
                break
        else:  # pragma: no cover - the seed is fixed
            raise RuntimeError(f"could not place {pid}")
    return Position(
        "icf",
        tuple(placed),
        board,
        name="icf-midgame",
        description=f"Mid-game: 19 coins scattered (seed {seed}); the striker from "
        f"x={CUT_STRIKER_X} on the South baseline cuts {CUT_TARGET} into {CUT_POCKET}.",
    ).check()
