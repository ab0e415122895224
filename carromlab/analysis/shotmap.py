"""Shot maps: a grid of base shots (placement x angle x speed), n noisy executions per cell.

The result is a tidy DataFrame with one row per cell: ``placement`` (m, striker x on the
South baseline), ``angle`` (deg), ``speed`` (m/s), ``n``, then for every probability
quantity ``q`` of the rules the columns ``p_q``, ``p_q_lo``, ``p_q_hi`` (Wilson), and for every
mean ``m`` the columns ``m``, ``m_lo``, ``m_hi``; captures of the pieces named in ``pieces`` are
probability quantities ``capture:<id>``. Cells whose placement is illegal have ``n = 0`` and
NaN values (drawn blank). ``df.attrs["config"]`` holds the configuration, seed and versions.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from carromlab.analysis.estimate import prepare, run_config, tally_chunk, tally_frame
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.tally import Tally
from carromlab.analysis.truncation import truncation
from carromlab.analysis.variants import check_speed_angle
from carromlab.errors import CarromlabError
from carromlab.shots import Shot


def evaluate_cells(
    position,
    cells,
    skill="club",
    n: int = 200,
    seed: int = 0,
    chunk: int = 4096,
    turn=None,
    pieces: tuple[str, ...] = (),
    confidence: float = 0.95,
    physics=None,
    progress: bool = False,
    runner: ShotRunner | None = None,
    desc: str = "shot map",
    per_pocket: bool = False,
    key_ids=None,
    scoring=None,
    hand_set: float | None = None,
) -> pd.DataFrame:
    """Estimate a list of base shots ``cells`` = [(placement m, angle deg, speed m/s), ...].

    One row per cell, in order; cells with an illegal placement get ``n = 0`` and NaN values.
    ``pieces`` adds ``p_capture:<id>`` columns; with ``per_pocket`` also
    ``p_capture:<id>:<pocket>``. ``key_ids`` (one int per cell) replace the legal cells'
    running index as what their keys are folded from (analysis/runner.py): a sweep passes
    its task ids, so a cell's numbers do not depend on the cells evaluated with it.
    ``scoring`` replaces the rules' default scoring weights (e.g. ``IcfScoring``).
    ``hand_set``: how far the pieces of a position set by hand move per shot (m; ``None``:
    :data:`~carromlab.shots.HAND_SET`; 0: off).
    """
    sk, va, turn = prepare(position, n, skill, turn)
    if not len(cells):
        raise CarromlabError("the shot-map grid is empty")
    for _x, a, v in cells:
        check_speed_angle(float(v), np.radians(float(a)))
    xs, ys = va.origin(position, [float(c[0]) for c in cells])
    legal = va.legal_origin(position, xs, ys).tolist()
    ok = [c for c, good in zip(cells, legal) if good]
    if not ok:
        raise CarromlabError("no cell of the shot-map grid has a legal striker placement")
    base = Shot(
        x=xs[np.flatnonzero(legal)],
        y=ys[np.flatnonzero(legal)],
        angle=np.radians([c[1] for c in ok]),
        speed=np.array([c[2] for c in ok], float),
    )
    runner = runner or ShotRunner(
        va.table_position(position),
        va.shooter_kind,
        chunk=chunk,
        physics=physics,
        hand_set=hand_set,
    )
    tally = Tally(len(ok))
    if key_ids is not None:
        key_ids = np.asarray(key_ids, np.int64)
        if key_ids.shape != (len(cells),):
            raise CarromlabError(f"key_ids: one per cell ({len(cells)}), got {key_ids.shape}")
        key_ids = key_ids[np.flatnonzero(legal)]
    noise = va.noise(sk)
    for ch in runner.run(base, int(n), noise, seed, progress=progress, desc=desc, key_ids=key_ids):
        tally_chunk(tally, ch, runner, va, turn, scoring)
    long = tally_frame(tally, confidence)
    wanted = set(pieces)
    piece_of = long["quantity"].str.slice(8)
    if per_pocket:
        piece_of = piece_of.str.split(":").str[0]
    else:
        piece_of = piece_of.where(~piece_of.str.contains(":"), "")
    keep = ~long["quantity"].str.startswith("capture:") | piece_of.isin(wanted)
    wide = _widen(long[keep])
    frame = pd.DataFrame(
        {
            "placement": [float(c[0]) for c in cells],
            "angle": [float(c[1]) for c in cells],
            "speed": [float(c[2]) for c in cells],
        }
    )
    if va.origin_of is not None:  # not a line: where each cell's shot starts
        frame["x0"], frame["y0"] = xs, ys
    wide.index = np.flatnonzero(legal)[wide.index]
    out = frame.join(wide)
    out["n"] = out["n"].fillna(0).astype(int)
    extra = {} if scoring is None else {"scoring": vars(scoring)}
    out.attrs["config"] = run_config(
        "cells", position, sk, n, seed, runner, turn, confidence, **extra
    )
    return out


def shot_map(
    position,
    placements,
    angles_deg,
    speeds,
    skill="club",
    n: int = 200,
    seed: int = 0,
    **kw,
) -> pd.DataFrame:
    """Estimate every cell of the grid ``placements x angles_deg x speeds`` (see
    :func:`evaluate_cells` for the other options)."""
    grid = list(
        itertools.product(
            np.atleast_1d(placements), np.atleast_1d(angles_deg), np.atleast_1d(speeds)
        )
    )
    out = evaluate_cells(position, grid, skill=skill, n=n, seed=seed, **kw)
    out.attrs["config"].update(
        kind="shot_map",
        placements=[float(x) for x in np.atleast_1d(placements)],
        angles_deg=[float(a) for a in np.atleast_1d(angles_deg)],
        speeds=[float(v) for v in np.atleast_1d(speeds)],
    )
    return out


def _widen(long: pd.DataFrame) -> pd.DataFrame:
    """One row per cell: p_q / p_q_lo / p_q_hi for probabilities, m / m_lo / m_hi for means."""
    cols = {}
    for (q, kind), g in long.groupby(["quantity", "kind"], sort=False):
        g = g.set_index("cell")
        name = f"p_{q}" if kind == "probability" else q
        cols[name] = g["estimate"]
        cols[f"{name}_lo"] = g["lo"]
        cols[f"{name}_hi"] = g["hi"]
        cols["n"] = g["n"]
    return pd.DataFrame(cols)


def target_map(
    position,
    placements,
    angles_deg,
    speeds,
    skill="club",
    n: int = 100,
    seed: int = 0,
    pieces: tuple[str, ...] | None = None,
    **kw,
) -> pd.DataFrame:
    """For every piece and pocket, the best probability any shot of the grid achieves of
    putting that piece in that pocket (see :func:`targets_from_cells`)."""
    if pieces is None:
        pieces = tuple(p.id for p in position.pieces)
    cells = shot_map(
        position,
        placements,
        angles_deg,
        speeds,
        skill=skill,
        n=n,
        seed=seed,
        pieces=pieces,
        per_pocket=True,
        **kw,
    )
    return targets_from_cells(cells, position, pieces)


def targets_from_cells(cells: pd.DataFrame, position, pieces=None) -> pd.DataFrame:
    """One row per (piece, pocket) from a shot map made with ``per_pocket=True``: ``p_best``,
    its Wilson interval from the best cell's ``n`` shots (optimistic: the best of many cells),
    and that cell's ``placement``, ``angle`` and ``speed``."""
    if pieces is None:
        pieces = tuple(p.id for p in position.pieces)
    rows = []
    for pid in pieces:
        for pocket in (c.name for c in position.board.layout.captures):
            col = f"p_capture:{pid}:{pocket}"
            if col not in cells or cells[col].isna().all():
                continue
            best = cells.loc[cells[col].idxmax()]
            rows.append(
                {
                    "piece": pid,
                    "pocket": pocket,
                    "p_best": best[col],
                    "lo": best[f"{col}_lo"],
                    "hi": best[f"{col}_hi"],
                    "placement": best["placement"],
                    "angle": best["angle"],
                    "speed": best["speed"],
                    "n": int(best["n"]),
                }
            )
    out = pd.DataFrame(rows)
    out.attrs["config"] = {**cells.attrs.get("config", {}), "kind": "target_map"}
    return out


def map_summary(df, out, value: str, keys: tuple[str, ...]) -> dict:
    """A map's summary: its folder, size, its truncated shots (where the kernel counts them:
    ``truncated``, ``p_truncated``) and its best cell (by ``value``) with the interval."""
    best = df.loc[df[value].idxmax()]
    cut = truncation(df)
    return {
        "out": str(out),
        "cells": len(df),
        "shots": int(df["n"].sum()),
        **(cut.as_dict() if cut is not None else {}),
        "value": value,
        "best": {k: float(best[k]) for k in (*keys, value)},
        "best_interval": [float(best[f"{value}_lo"]), float(best[f"{value}_hi"])],
    }
