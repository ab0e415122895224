"""Standard mid-game ICF positions: pieces scattered, one clear cut to a corner pocket.

``icf-midgame`` (:func:`midgame_position`): all 19 pieces, made with a seeded RNG
(``seed=7``): ``w1`` stands at (0.12, 0.10) m; a striker from x = -0.05 on the South baseline
can cut it into the north-east pocket, and no coin blocks either path (the striker's path to
the "ghost" position, or ``w1``'s path to the pocket). It is the benchmark's ``cut`` scenario
and the demo's shot-map position.

``icf-queen-shot`` (:func:`queen_shot_position`): later in a board, with its turn. White to
play with 6 own coins down and 4 of black's (3 white and 5 black coins left) and the queen on
the board, at the same spot as ``w1``'s cut: the same striker cuts the queen into the
north-east pocket. Under the turn the queen may be pocketed (an own coin is down) and awaits
its cover; under the default turn (no coin down) the same stroke pockets her illegally (law
95: she comes back and the turn ends). docs/analysis.md gives the estimate under both.
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
    tx, ty = CUT_TARGET_XY
    ids = [p.id for p in rosette(board) if p.id != CUT_TARGET]
    placed = _scatter(board, Piece(CUT_TARGET, "coin", "white", tx, ty), ids, seed)
    return Position(
        "icf",
        tuple(placed),
        board,
        name="icf-midgame",
        description=f"Mid-game: 19 coins scattered (seed {seed}); the striker from "
        f"x={CUT_STRIKER_X} on the South baseline cuts {CUT_TARGET} into {CUT_POCKET}.",
    ).check()


#: The queen shot's position: the coins left on the board (3 white, 5 black), and its turn.
QUEEN_SHOT_COINS = ("w1", "w2", "w3", "b1", "b2", "b3", "b4", "b5")
QUEEN_SHOT_TURN = {"shooter": "white", "own_down": 6, "opponent_down": 4}


def queen_shot_position(seed: int = 7) -> Position:
    """The queen where ``w1`` stands in :func:`midgame_position`, 3 white and 5 black coins
    scattered with a seeded RNG clear of the cut's paths, and the turn: white to play, 6 own
    coins down, 4 of black's, the queen on the board."""
    board = IcfBoard()
    tx, ty = CUT_TARGET_XY
    placed = _scatter(board, Piece("q", "queen", None, tx, ty), list(QUEEN_SHOT_COINS), seed)
    return Position(
        "icf",
        tuple(placed),
        board,
        name="icf-queen-shot",
        description=f"Late in a board, white to play with 6 own coins down and 4 of black's; "
        f"the striker from x={CUT_STRIKER_X} on the South baseline cuts the queen into "
        f"{CUT_POCKET} (seed {seed}).",
        turn=QUEEN_SHOT_TURN,
    ).check()


def _scatter(board: IcfBoard, target: Piece, ids: list[str], seed: int) -> list[Piece]:
    """``target`` and the pieces ``ids`` (kinds and owners by their ids: ``q``, ``w*``,
    ``b*``) scattered with a seeded RNG, keeping the cut's paths (the striker's from
    ``CUT_STRIKER_X`` to the ghost position, the target's to ``CUT_POCKET``) and the
    striker's spot on the baseline clear."""
    specs = board.piece_specs()
    rc, rs = specs["coin"].radius, specs["striker"].radius
    cap = next(c for c in board.layout.captures if c.name == CUT_POCKET)
    tx, ty = target.x, target.y
    gx, gy = ghost(board, tx, ty, CUT_POCKET)
    rng = np.random.default_rng(seed)
    placed = [target]
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
    return placed
