"""Ghost-ball aims: from origins, hit target pieces so that they travel to destinations.

For a target T of radius r_t and a destination P, the shooter (radius r_s) must touch T at
the ghost position G = T - (r_s + r_t) * unit(P - T). From an origin S the aim is G - S; the
cut is the angle between S -> G and T -> P. A smooth impulse gives T the speed
``transfer * cos(cut) * v_hit`` with ``transfer = (1 + e) m_s / (m_s + m_t)``; the speed asked
for brings T to P with ``arrive_speed`` to spare and the shooter to G at ``v_hit`` (both
decelerating at mu g). Both legs must be clear: T -> P of every other piece (and obstacle),
S -> G of every piece but T.
"""

from __future__ import annotations

import numpy as np

from carromlab.analysis.variants import MAX_SPEED
from carromlab.equipment.geometry import segment_clear, unit


def piece_arrays(pieces, specs) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(x, y, radius, mass) arrays of ``pieces`` (sizes from the board's ``specs``)."""
    return (
        np.array([p.x for p in pieces], float),
        np.array([p.y for p in pieces], float),
        np.array([specs[p.kind].radius for p in pieces], float),
        np.array([specs[p.kind].mass for p in pieces], float),
    )


def ghost_aims(
    ox,
    oy,
    pieces: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    targets: np.ndarray,
    dest_x,
    dest_y,
    shooter: tuple[float, float, float],
    physics,
    max_cut_deg: float = 70.0,
    arrive_speed: float = 0.4,
    obstacles: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    max_speed: float = MAX_SPEED,
) -> dict:
    """Aims from every origin (``ox, oy``: [O]) at every target (``targets``: indices into
    ``pieces`` = (x, y, radius, mass) arrays) towards each of its destinations (``dest_x,
    dest_y``: [T, D], or broadcastable to it). ``shooter`` is (radius, mass, restitution with
    the targets); ``obstacles`` (x, y, radius) block paths but are never targets (pegs).
    Arrays ``origin`` (index), ``target`` (piece index), ``dest`` (index), ``angle`` (rad),
    ``speed``, ``cut`` (deg), for the aims with a cut of at most ``max_cut_deg``, a speed of
    at most ``max_speed`` and both legs clear."""
    px, py, pr, pm = (np.asarray(v, float) for v in pieces)
    r_s, m_s, e = shooter
    a = physics.mu * physics.g
    tgt = np.asarray(targets, int)
    ox, oy = np.atleast_1d(np.asarray(ox, float)), np.atleast_1d(np.asarray(oy, float))
    names = ("origin", "target", "dest", "angle", "speed", "cut")
    if not len(tgt) or not len(ox):
        return {k: np.zeros(0, int if k in names[:3] else float) for k in names}
    bx, by, br = px, py, pr
    if obstacles is not None:
        bx, by, br = (
            np.concatenate([u, np.asarray(w, float)]) for u, w in zip((px, py, pr), obstacles)
        )
    tx, ty, rc = px[tgt][:, None], py[tgt][:, None], pr[tgt][:, None]  # [T, 1]
    cx, cy = np.asarray(dest_x, float), np.asarray(dest_y, float)
    ux, uy, d_tp = unit(cx - tx, cy - ty)  # [T, D]
    skip = tgt[:, None, None] == np.arange(len(bx))[None, None]
    clear_tp = segment_clear(
        tx, ty, cx, cy, bx, by, br, rc, np.broadcast_to(skip, (*ux.shape, len(bx)))
    )
    gx, gy = tx - (r_s + rc) * ux, ty - (r_s + rc) * uy
    v_piece = np.sqrt(arrive_speed**2 + 2 * a * d_tp)
    transfer = (1 + e) * m_s / (m_s + pm[tgt][:, None])
    dx, dy, d_sg = unit(gx[..., None] - ox, gy[..., None] - oy)  # [T, D, O]
    cos_cut = dx * ux[..., None] + dy * uy[..., None]
    cut = np.degrees(np.arccos(np.clip(cos_cut, -1.0, 1.0)))
    with np.errstate(invalid="ignore", divide="ignore"):
        v_hit = v_piece[..., None] / (np.cos(np.radians(cut)) * transfer[..., None])
        speed = np.sqrt(v_hit**2 + 2 * a * d_sg)
    ok = clear_tp[..., None] & (cut <= max_cut_deg) & (speed <= max_speed) & (d_sg > 1e-9)
    t_i, c_i, o_i = np.nonzero(ok)
    sel = (t_i, c_i, o_i)
    keep = segment_clear(
        ox[o_i], oy[o_i], gx[t_i, c_i], gy[t_i, c_i], bx, by, br, r_s, skip[t_i, 0]
    )
    t_i, c_i, o_i = (v[keep] for v in sel)
    sel = (t_i, c_i, o_i)
    return {
        "origin": o_i,
        "target": tgt[t_i],
        "dest": c_i,
        "angle": np.arctan2(dy[sel], dx[sel]),
        "speed": speed[sel],
        "cut": cut[sel],
    }
