"""The figures of the cross-check against pymunk (:mod:`carromlab.bench.validation`): read
from the two engines' outcome arrays (key events, first contacts, captures, distances) and
compared (the two-sample test, the verdict)."""

from __future__ import annotations

import math

import numpy as np

from carromlab.bench.validation_cases import Case

#: Agreement criterion: |p_kernel - p_pymunk| at most this many two-sample standard errors.
Z_AGREE = 3.0


def _capture_names(table) -> tuple[str, ...]:
    return (*table.capture_names, "ditch")


def key_hits(out: dict, ids, table, key: tuple[str, str], out_radius: float) -> np.ndarray:
    """Per shot (rows of the outcome arrays ``capture``, ``alive``, ``x``, ``y``,
    ``first_piece``), whether the key event ``(piece, where)`` happened. ``piece`` is a piece
    id or ``"*"`` (any piece but the shooter); ``where`` is a capture name, ``"any"`` (any
    capture), ``"first"`` (the piece is the first the shooter touched) or ``"out"`` (Force
    Out's forced out: captured in a pocket or the ditch, or at rest with its centre outside
    the outer circle of radius ``out_radius``)."""
    piece, where = key
    cols = list(range(1, len(ids))) if piece == "*" else [ids.index(piece)]
    capture = np.asarray(out["capture"])[:, cols]
    if where == "first":
        return np.isin(np.asarray(out["first_piece"]), cols)
    if where == "any":
        hit = capture >= 0
    elif where == "out":
        hole = [k for k, kind in enumerate(table.capture_kinds) if kind == "hole"]
        r = np.hypot(np.asarray(out["x"])[:, cols], np.asarray(out["y"])[:, cols])
        on_board_out = np.asarray(out["alive"])[:, cols] & (r > out_radius)
        hit = ((capture >= 0) & ~np.isin(capture, hole)) | on_board_out
    else:
        hit = capture == _capture_names(table).index(where)
    return hit.any(axis=1)


def two_sample(k1: int, k2: int, n1: int, n2: int | None = None) -> tuple[float, float, bool]:
    """(p1 - p2, its two-sample standard error, whether |diff| <= Z_AGREE * SE) for ``k1`` of
    ``n1`` and ``k2`` of ``n2`` (default ``n1``) successes; an SE of 0 agrees only on equal
    proportions."""
    n2 = n1 if n2 is None else n2
    p1, p2 = k1 / n1, k2 / n2
    diff = p1 - p2
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    return diff, se, abs(diff) <= Z_AGREE * se + 1e-12


def _first(kind: int, index: int, ids, table) -> str:
    if kind == 1:
        return ids[index]
    if kind == 2:
        return table.cushion_names[index]
    return "-"


def _captures(capture: np.ndarray, ids, table) -> str:
    """``piece>capture`` for every captured piece, sorted, or ``-``."""
    names = _capture_names(table)
    caps = sorted(f"{ids[i]}>{names[c]}" for i, c in enumerate(capture) if c >= 0)
    return " ".join(caps) or "-"


def _distances(k: dict, p: dict, s: int, static: np.ndarray) -> np.ndarray:
    """Distances (m) between the engines' final places, in shot ``s``, of the moving pieces
    on the board in both."""
    both = np.asarray(k["alive"][s]) & np.asarray(p["alive"][s]) & ~static
    return np.hypot(k["x"][s][both] - p["x"][s][both], k["y"][s][both] - p["y"][s][both])


def _n_captured(out: dict) -> np.ndarray:
    return (np.asarray(out["capture"])[:, 1:] >= 0).sum(axis=1)


#: The per-key columns of a row (after ``key{k}``).
KEY_FIELDS = (
    "",
    "_p_kernel",
    "_p_pymunk",
    "_diff",
    "_se",
    "_z",
    "_within_3se",
    "_verdict",
    "_discordant",
    "_discordant_chaotic",
    "_paired_se",
)


def _verdict(ok: bool, case: Case) -> str:
    if ok:
        return "agree"
    return "differs (cluster)" if case.cluster else "DIFFERS"


def _deterministic(kd: dict, pd_: dict, ids, table, static: np.ndarray) -> dict:
    """The deterministic comparison's figures (``det_*``) of the base shot's outcomes in the
    kernel (``kd``) and pymunk (``pd_``)."""
    dist = _distances(kd, pd_, 0, static)
    kf = _first(int(kd["first_contact_kind"][0]), int(kd["first_contact"][0]), ids, table)
    pf = _first(int(pd_["first_contact_kind"][0]), int(pd_["first_contact"][0]), ids, table)
    kfp = ids[kd["first_piece"][0]] if kd["first_piece"][0] >= 0 else "-"
    pfp = ids[pd_["first_piece"][0]] if pd_["first_piece"][0] >= 0 else "-"
    kc, pc = _captures(kd["capture"][0], ids, table), _captures(pd_["capture"][0], ids, table)
    return dict(
        det_first_kernel=kf,
        det_first_pymunk=pf,
        det_first_piece_kernel=kfp,
        det_first_piece_pymunk=pfp,
        det_first_same=(kf == pf) and (kfp == pfp),
        det_captures_kernel=kc,
        det_captures_pymunk=pc,
        det_captures_same=kc == pc,
        det_pos_max_mm=1e3 * float(dist.max(initial=0.0)),
        det_pos_mean_mm=1e3 * float(dist.mean()) if dist.size else 0.0,
        det_events_kernel=int(kd["n_events"][0]),
        det_truncated=bool(kd["truncated"][0]) or bool(pd_["truncated"][0]),
    )
