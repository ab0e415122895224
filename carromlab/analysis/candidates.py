"""Candidate shots for a position: direct cuts of each coin into each pocket, and one-cushion
bank shots, from legal placements on the shooter's line, with clear paths.

Geometry (no simulation): to send a coin at T into a pocket at P, the striker must touch it
at the "ghost" position G = T - (r_s + r_c) * unit(P - T). From a placement S the aim is the
direction S -> G; the cut angle is the angle between S -> G and T -> P (0 = full hit). A bank
shot aims at the image of G behind a cushion (the cushion line moved in by the striker's
radius; the image's distance scaled by 1 / e_cushion, since the cushion keeps the tangential
speed and scales the normal one by e), so the striker reaches G after one reflection.

Speeds (decision): the striker should arrive at the coin fast enough that the coin reaches
the pocket with ``arrive_speed`` to spare, by the smooth-impulse transfer along the line of
centres, ``v_coin = v_striker * cos(cut) * (1 + e) * m_s / (m_s + m_c)``, and friction over
each leg (``v^2`` falls by ``2 mu g d``); cushion losses are ignored (a bank shot's speed is
multiplied by ``1 / e_cushion`` instead). Speeds above ``max_speed`` drop the candidate.

Only forward shots are generated (the aim points away from the shooter's side; decision:
strokes are played forwards, coins behind the line are reached off a side cushion).
These are candidates to be scored by Monte Carlo (``evaluate_cells``); they are not promises.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from carromlab.analysis.variants import MAX_SPEED, analysis_for
from carromlab.physics import Physics


def _unit(dx, dy):
    n = math.hypot(dx, dy)
    return dx / n, dy / n, n


def _seg_clear(ax, ay, bx, by, others, reach) -> bool:
    """True if no (x, y, r) in ``others`` comes within r + reach of the segment A-B."""
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    for x, y, r in others:
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / ll))
        if math.hypot(x - (ax + t * dx), y - (ay + t * dy)) < r + reach:
            return False
    return True


def candidate_shots(
    position,
    pieces=None,
    placements=None,
    max_cut_deg: float = 70.0,
    arrive_speed: float = 0.4,
    banks: bool = True,
    physics: Physics | None = None,
    max_speed: float = MAX_SPEED,
) -> pd.DataFrame:
    """One row per candidate: ``placement``, ``angle`` (deg), ``speed``, ``piece``,
    ``pocket``, ``kind`` ("direct" or "bank:<cushion>"), ``cut`` (deg)."""
    physics = physics or Physics()
    va = analysis_for(position.variant)
    board = position.board
    specs = board.piece_specs()
    r_s = specs[va.shooter_kind].radius
    m_s = specs[va.shooter_kind].mass
    a = physics.mu * physics.g
    y0 = va.shot_y(board)
    if placements is None:
        placements = np.concatenate(
            [
                np.linspace(lo, hi, max(2, round((hi - lo) / 0.03)))
                for lo, hi in va.placement_intervals(board)
            ]
        )
    placements = [float(x) for x in placements if va.legal_placement(board, x)]
    wanted = set(pieces) if pieces is not None else None
    layout = board.layout
    half = layout.surface.size
    rows = []
    for target in position.pieces:
        if wanted is not None and target.id not in wanted:
            continue
        r_c, m_c = specs[target.kind].radius, specs[target.kind].mass
        others = [(p.x, p.y, specs[p.kind].radius) for p in position.pieces if p.id != target.id]
        transfer = (1 + physics.e_striker) * m_s / (m_s + m_c)
        for cap in layout.captures:
            ux, uy, d_tp = _unit(cap.x - target.x, cap.y - target.y)
            if not _seg_clear(target.x, target.y, cap.x, cap.y, others, r_c):
                continue
            gx, gy = target.x - (r_s + r_c) * ux, target.y - (r_s + r_c) * uy
            v_coin = math.sqrt(arrive_speed**2 + 2 * a * d_tp)
            for sx in placements:
                if any(
                    math.hypot(x - sx, y - y0) < r + r_s
                    for x, y, r in [*others, (target.x, target.y, r_c)]
                ):
                    continue
                aims = [("direct", gx, gy, 1.0)]
                if banks:
                    for name, (mx, my) in _mirrors(gx, gy, half - r_s, physics.e_cushion).items():
                        aims.append((f"bank:{name}", mx, my, 1.0 / physics.e_cushion))
                for kind, ax_, ay_, boost in aims:
                    dx, dy, d_sg = _unit(ax_ - sx, ay_ - y0)
                    if kind == "direct":
                        cut = math.degrees(math.acos(max(-1.0, min(1.0, dx * ux + dy * uy))))
                        legs = [((sx, y0), (gx, gy))]
                    else:
                        hit = _reflection_point(sx, y0, ax_, ay_, kind[5:], half - r_s)
                        if hit is None:
                            continue
                        ix, iy = _unit(gx - hit[0], gy - hit[1])[:2]
                        cut = math.degrees(math.acos(max(-1.0, min(1.0, ix * ux + iy * uy))))
                        legs = [((sx, y0), hit), (hit, (gx, gy))]
                    if cut > max_cut_deg or dy <= 0:  # forward shots only (decision)
                        continue
                    if not all(
                        _seg_clear(*p, *q, [*others, (target.x, target.y, r_c)], r_s - 1e-9)
                        for p, q in legs[:-1]
                    ):
                        continue
                    if not _seg_clear(*legs[-1][0], *legs[-1][1], others, r_s):
                        continue
                    v_hit = v_coin / (math.cos(math.radians(cut)) * transfer)
                    speed = math.sqrt(v_hit**2 + 2 * a * d_sg) * boost
                    if speed > max_speed:
                        continue
                    rows.append(
                        {
                            "placement": sx,
                            "angle": math.degrees(math.atan2(dy, dx)),
                            "speed": speed,
                            "piece": target.id,
                            "pocket": cap.name,
                            "kind": kind,
                            "cut": cut,
                        }
                    )
    return pd.DataFrame(
        rows, columns=["placement", "angle", "speed", "piece", "pocket", "kind", "cut"]
    )


def _mirrors(gx, gy, lim, e) -> dict[str, tuple[float, float]]:
    """Images of (gx, gy) behind the cushion lines moved in by the striker's radius (a
    square board of half-width ``lim + r``): a straight aim at an image hits (gx, gy) after
    one reflection. With restitution ``e`` the cushion keeps the tangential speed and
    multiplies the normal one by ``e``, so the image lies ``d / e`` behind the line when
    (gx, gy) is ``d`` in front of it (``e = 1``: the mirror image)."""
    return {
        "E": (lim + (lim - gx) / e, gy),
        "W": (-lim - (gx + lim) / e, gy),
        "N": (gx, lim + (lim - gy) / e),
    }


def _reflection_point(sx, sy, mx, my, side, lim):
    """Where the straight line from S to the mirror image crosses the cushion line."""
    if side in ("E", "W"):
        xc = lim if side == "E" else -lim
        if (mx - sx) == 0:
            return None
        t = (xc - sx) / (mx - sx)
        return (xc, sy + t * (my - sy)) if 0 < t < 1 else None
    yc = lim
    if (my - sy) == 0:
        return None
    t = (yc - sy) / (my - sy)
    return (sx + t * (mx - sx), yc) if 0 < t < 1 else None
