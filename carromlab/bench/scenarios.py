"""Benchmark scenarios: a position, a base shot and its noise.

- ``break``: the ICF rosette; the striker from the middle of the baseline at 5 m/s straight
  at the queen; noise 1 mm placement, 0.005 rad, 1 % speed.
- ``cut``: a mid-game ICF position with all 19 coins scattered (``data/positions/bench-cut.json``,
  made by :func:`cut_position`); the striker from the baseline cuts ``w1`` into the north-east
  pocket at 2 m/s; noise 1 mm, 0.01 rad, 2 % speed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from carromlab.equipment import IcfBoard
from carromlab.position import Piece, Position
from carromlab.setups import rosette, standard_position
from carromlab.shots import Shot, chain, jitter_angle, jitter_placement, jitter_speed

#: Striker centre between the two baselines on the South side (derived from IcfBoard).
BASELINE_Y = sum(IcfBoard().baseline_y()) / 2

CUT_TARGET = "w1"
CUT_POCKET = "pocket.NE"
CUT_TARGET_XY = (0.12, 0.10)
CUT_STRIKER_X = -0.05


@dataclass(frozen=True)
class Scenario:
    name: str
    position: Position
    shot: Shot
    noise: object


def _ghost(board: IcfBoard, tx: float, ty: float, pocket: str) -> tuple[float, float]:
    """Where the striker's centre must be at contact to send a coin at (tx, ty) into
    ``pocket`` (the "ghost" position, one striker-plus-coin radius behind the coin)."""
    cap = next(c for c in board.layout.captures if c.name == pocket)
    specs = board.piece_specs()
    reach = specs["coin"].radius + specs["striker"].radius
    ux, uy = cap.x - tx, cap.y - ty
    n = math.hypot(ux, uy)
    return tx - reach * ux / n, ty - reach * uy / n


def _ghost_aim(board: IcfBoard, sx, sy, tx, ty, pocket: str) -> float:
    """Angle that sends a striker at (sx, sy) to the ghost position."""
    gx, gy = _ghost(board, tx, ty, pocket)
    return math.atan2(gy - sy, gx - sx)


def _dist_to_segment(px, py, ax, ay, bx, by) -> float:
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def cut_position(seed: int = 7) -> Position:
    """19 coins scattered with a seeded RNG, keeping the striker's and w1's paths clear."""
    board = IcfBoard()
    specs = board.piece_specs()
    rc, rs = specs["coin"].radius, specs["striker"].radius
    cap = next(c for c in board.layout.captures if c.name == CUT_POCKET)
    tx, ty = CUT_TARGET_XY
    gx, gy = _ghost(board, tx, ty, CUT_POCKET)
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
        name="bench-cut",
        description=f"Benchmark 'cut': 19 coins scattered (seed {seed}); the striker from "
        f"x={CUT_STRIKER_X} on the South baseline cuts {CUT_TARGET} into {CUT_POCKET}.",
    ).check()


def scenario(name: str) -> Scenario:
    board = IcfBoard()
    if name == "break":
        pos = standard_position("icf-opening")
        shot = Shot(0.0, BASELINE_Y, math.pi / 2, 5.0)
        noise = chain(jitter_placement(0.001), jitter_angle(0.005), jitter_speed(0.01))
        return Scenario(name, pos, shot, noise)
    if name == "cut":
        pos = cut_position()
        t = pos.by_id(CUT_TARGET)
        angle = _ghost_aim(board, CUT_STRIKER_X, BASELINE_Y, t.x, t.y, CUT_POCKET)
        shot = Shot(CUT_STRIKER_X, BASELINE_Y, angle, 2.0)
        noise = chain(jitter_placement(0.001), jitter_angle(0.01), jitter_speed(0.02))
        return Scenario(name, pos, shot, noise)
    from carromlab.errors import CarromlabError

    raise CarromlabError(f"unknown benchmark scenario {name!r}; known: break, cut")
