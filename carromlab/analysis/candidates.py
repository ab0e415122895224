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

import numpy as np
import pandas as pd

from carromlab.analysis.variants import MAX_SPEED, VariantAnalysis, analysis_for
from carromlab.equipment.geometry import segment_clear, unit
from carromlab.physics import Physics

COLUMNS = ["placement", "angle", "speed", "piece", "pocket", "kind", "cut"]


def candidate_shots(position, pieces=None, **options) -> pd.DataFrame:
    """One row per candidate: ``placement``, ``angle`` (deg), ``speed``, ``piece``,
    ``pocket``, ``kind`` ("direct" or "bank:<cushion>"), ``cut`` (deg). Rows run by target
    (position order), pocket, placement, then direct before the banks (E, W, N). Options:
    ``placements`` (default every 3 cm of the legal line), ``max_cut_deg`` (70),
    ``arrive_speed`` (0.4 m/s), ``banks`` (True), ``physics``, ``max_speed``."""
    rows = candidate_arrays(position, pieces, **options)
    names = rows.pop("names")
    return pd.DataFrame(
        {
            **{k: rows[k] for k in ("placement", "angle", "speed")},
            "piece": [names["piece"][t] for t in rows["piece"]],
            "pocket": [names["pocket"][c] for c in rows["pocket"]],
            "kind": [names["kind"][k] for k in rows["kind"]],
            "cut": rows["cut"],
        },
        columns=COLUMNS,
    )


def _free_placements(va: VariantAnalysis, position, placements) -> np.ndarray:
    """The shooter's placements to try (default: every 3 cm along the variant's placement
    intervals), those where the shooter can stand."""
    if placements is None:
        placements = np.concatenate(
            [
                np.linspace(lo, hi, max(2, round((hi - lo) / 0.03)))
                for lo, hi in va.placement_intervals(position.board)
            ]
        )
    sx = np.asarray(placements, float)
    return sx[va.free_placement(position, sx)]


def _cushion_points(side, lim, S, ax_, ay_, y0, shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each bank's straight line from the placement ``S`` to its image (``ax_``,
    ``ay_``) crosses its cushion line (E, W: x = +-lim; N: y = lim), broadcast to ``shape``,
    and whether it crosses between the two (always, for a direct aim: ``side`` "")."""
    with np.errstate(invalid="ignore", divide="ignore"):
        xc = np.where(side == "E", lim, -lim)
        t_ew = (xc - S) / (ax_ - S)
        t_n = (lim - y0) / (ay_ - y0)
    is_n = side == "N"
    t_hit = np.where(is_n, t_n, t_ew)
    hit_ok = (t_hit > 0) & (t_hit < 1) | (side == "")
    hx = np.where(is_n, S + t_hit * (ax_ - S), xc)
    hy = np.where(is_n, lim, y0 + t_hit * (ay_ - y0))
    return np.broadcast_to(hx, shape), np.broadcast_to(hy, shape), hit_ok


def _clear_legs(ok, direct, sx, y0, cushion, ghost, discs, r_s, self_mask) -> tuple:
    """The (target, pocket, placement, kind) indices of the aims that passed the cheap tests
    (``ok``) whose legs are clear, tested only there: the last leg (to the ghost) clear of
    every piece but the target; a bank's first leg (to its cushion point) of every piece."""
    (hx, hy), (gx4, gy4), (px, py, pr) = cushion, ghost, discs
    t_i, c_i, s_i, k_i = np.nonzero(ok)
    sel = (t_i, c_i, s_i, k_i)
    is_direct = direct[k_i]
    start_x = np.where(is_direct, sx[s_i], hx[sel])
    start_y = np.where(is_direct, y0, hy[sel])
    keep = segment_clear(start_x, start_y, gx4[sel], gy4[sel], px, py, pr, r_s, self_mask[t_i])
    first = segment_clear(sx[s_i], y0, hx[sel], hy[sel], px, py, pr, r_s - 1e-9)
    keep &= is_direct | first
    return tuple(v[keep] for v in sel)


def _to_pockets(targets, caps, discs, r_s, a, arrive_speed) -> tuple:
    """Each target's line to each pocket, [T, C]: its unit direction (``ux``, ``uy``), the
    targets' mask over the pieces [T, P], whether the line is clear of the other pieces, the
    ghost spot (where the shooter's centre touches the target to send it along the line) and
    the target's speed to arrive at the pocket at ``arrive_speed``."""
    px, py, pr = discs
    n_t, n_c, n_p = len(targets), len(caps), len(px)
    tx, ty, rc = px[targets][:, None], py[targets][:, None], pr[targets][:, None]
    cx = np.array([c.x for c in caps])[None]
    cy = np.array([c.y for c in caps])[None]
    ux, uy, d_tp = unit(cx - tx, cy - ty)
    self_mask = targets[:, None] == np.arange(n_p)[None]  # [T, P]
    skip_tc = np.broadcast_to(self_mask[:, None, :], (n_t, n_c, n_p))
    clear_tp = segment_clear(tx, ty, cx, cy, px, py, pr, rc, skip_tc)
    gx, gy = tx - (r_s + rc) * ux, ty - (r_s + rc) * uy
    v_coin = np.sqrt(arrive_speed**2 + 2 * a * d_tp)
    return ux, uy, self_mask, clear_tp, gx, gy, v_coin


def candidate_arrays(
    position,
    pieces=None,
    placements=None,
    max_cut_deg: float = 70.0,
    arrive_speed: float = 0.4,
    banks: bool = True,
    physics: Physics | None = None,
    max_speed: float = MAX_SPEED,
    analysis: VariantAnalysis | None = None,
) -> dict:
    """:func:`candidate_shots` as numpy arrays (no table: cheap for a policy to call every
    stroke): ``placement``, ``angle``, ``speed``, ``cut`` and the indices ``piece``,
    ``pocket``, ``kind`` into the lists of ``names`` (``analysis``: the variant's hooks,
    where the caller holds them; None: looked up)."""
    physics = physics or Physics()
    va = analysis or analysis_for(position.variant)
    board = position.board
    specs = board.piece_specs()
    r_s = specs[va.shooter_kind].radius
    m_s = specs[va.shooter_kind].mass
    a = physics.mu * physics.g
    e = physics.e_cushion
    y0 = va.shot_y(board)
    sx = _free_placements(va, position, placements)
    wanted = set(pieces) if pieces is not None else None
    layout = board.layout
    lim = layout.surface.size - r_s
    allp = position.pieces
    px = np.array([p.x for p in allp])
    py = np.array([p.y for p in allp])
    pr = np.array([specs[p.kind].radius for p in allp])
    pm = np.array([specs[p.kind].mass for p in allp])
    targets = np.array([k for k, p in enumerate(allp) if wanted is None or p.id in wanted], int)
    caps = layout.captures
    kinds = ["direct"] + (["bank:E", "bank:W", "bank:N"] if banks else [])
    names = {"piece": [p.id for p in allp], "pocket": [c.name for c in caps], "kind": kinds}
    if not len(targets) or not len(caps) or not len(sx):
        empty, none = np.zeros(0), np.zeros(0, int)
        return dict(placement=empty, angle=empty, speed=empty, cut=empty, piece=none,
                    pocket=none, kind=none, names=names)  # fmt: skip
    n_t, n_c, n_s = len(targets), len(caps), len(sx)
    # -- target -> pocket: [T, C]
    to_pockets = _to_pockets(targets, caps, (px, py, pr), r_s, a, arrive_speed)
    ux, uy, self_mask, clear_tp, gx, gy, v_coin = to_pockets
    transfer = (1 + physics.e_striker) * m_s / (m_s + pm[targets][:, None])
    # -- aims: direct, then the images behind the E, W, N cushions: [T, C, A]
    aim_x = [gx] + ([lim + (lim - gx) / e, -lim - (gx + lim) / e, gx] if banks else [])
    aim_y = [gy] + ([gy, gy, lim + (lim - gy) / e] if banks else [])
    boost = np.array([1.0] + [1.0 / e] * (len(kinds) - 1))
    ax_ = np.stack(aim_x, axis=-1)[:, :, None, :]  # [T, C, 1, A]
    ay_ = np.stack(aim_y, axis=-1)[:, :, None, :]
    S = sx[None, None, :, None]  # [1, 1, S, 1]
    shape = (n_t, n_c, n_s, len(kinds))
    dx, dy, d_sg = unit(ax_ - S, ay_ - y0)
    ux4, uy4 = ux[:, :, None, None], uy[:, :, None, None]
    gx4, gy4 = (np.broadcast_to(g[:, :, None, None], shape) for g in (gx, gy))
    side = np.array([k[5:] if k != "direct" else "" for k in kinds])
    hx, hy, hit_ok = _cushion_points(side, lim, S, ax_, ay_, y0, shape)
    ix, iy, _ = unit(gx4 - hx, gy4 - hy)
    direct = side == ""
    cos_cut = np.where(direct, dx * ux4 + dy * uy4, ix * ux4 + iy * uy4)
    cut = np.degrees(np.arccos(np.clip(cos_cut, -1.0, 1.0)))
    ok = clear_tp[:, :, None, None] & hit_ok & (cut <= max_cut_deg) & (dy > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        v_hit = v_coin[:, :, None, None] / (np.cos(np.radians(cut)) * transfer[:, :, None, None])
        speed = np.sqrt(v_hit**2 + 2 * a * d_sg) * boost
    ok &= speed <= max_speed
    sel = _clear_legs(ok, direct, sx, y0, (hx, hy), (gx4, gy4), (px, py, pr), r_s, self_mask)
    t_i, c_i, s_i, k_i = sel
    angle = np.degrees(np.arctan2(dy[sel], dx[sel]))
    return dict(placement=sx[s_i], angle=angle, speed=speed[sel], cut=cut[sel],
                piece=targets[t_i], pocket=c_i, kind=k_i, names=names)  # fmt: skip
