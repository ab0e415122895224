"""Shot maps: a grid of base shots (placement x angle x speed), n noisy executions per cell.

The result is a tidy DataFrame with one row per cell: ``placement`` (m, striker x on the
South baseline), ``angle`` (deg), ``speed`` (m/s), ``n``, then for every probability
quantity ``q`` of the rules the columns ``p_q``, ``p_q_lo``, ``p_q_hi`` (Wilson), and for every
mean ``m`` the columns ``m``, ``m_lo``, ``m_hi``; captures of the pieces named in ``pieces`` are
probability quantities ``capture:<id>``. Cells whose placement is illegal have ``n = 0`` and
NaN values (drawn blank). ``df.attrs["config"]`` holds the configuration, seed and versions.

**Kept as they finish** (``shot_map(..., store=folder)``, the command line's
``OUT/shotmap.partial/``): the legal cells are computed in blocks, and each finished block is
written to the folder at once (``cells-<first cell>.parquet``, to a temporary name then
renamed, so a killed run never leaves half a block), next to ``config.json``, the settings
that decide the numbers. An interrupted map (Ctrl-C: :class:`ShotMapInterrupted`) keeps its
finished blocks; a rerun with the same settings computes only the missing cells, and one
with other settings is refused, naming the option that differs. A cell's shots are keyed by
its index among the grid's legal cells, as in one uninterrupted run, and tallies are exact
sums (analysis/tally.py), so a resumed map equals an uninterrupted one (same numbers, same
columns; tests/test_shotmap_resume.py), whatever the blocks.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis.estimate import (
    describe_physics,
    prepare,
    run_config,
    shot_runner,
    tally_chunk,
    tally_frame,
)
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.tally import Tally
from carromlab.analysis.truncation import truncation
from carromlab.analysis.variants import check_speed_angle
from carromlab.errors import CarromlabError
from carromlab.shots import Shot


def _asked_rows(long: pd.DataFrame, pieces: tuple[str, ...], per_pocket: bool) -> pd.DataFrame:
    """A tally's long rows without the capture rows nobody asked for: ``capture:<id>`` only
    for the ids in ``pieces``, and ``capture:<id>:<pocket>`` only with ``per_pocket``."""
    piece_of = long["quantity"].str.slice(8)
    if per_pocket:
        piece_of = piece_of.str.split(":").str[0]
    else:
        piece_of = piece_of.where(~piece_of.str.contains(":"), "")
    keep = ~long["quantity"].str.startswith("capture:") | piece_of.isin(set(pieces))
    return long[keep]


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
    bar=None,
) -> pd.DataFrame:
    """Estimate a list of base shots ``cells`` = [(placement m, angle deg, speed m/s), ...].

    One row per cell, in order; cells with an illegal placement get ``n = 0`` and NaN values.
    ``pieces`` adds ``p_capture:<id>`` columns; with ``per_pocket`` also
    ``p_capture:<id>:<pocket>``. ``key_ids`` (one int per cell) replace the legal cells'
    running index as what their keys are folded from (analysis/runner.py): a sweep passes
    its task ids, so a cell's numbers do not depend on the cells evaluated with it.
    ``scoring`` replaces the rules' default scoring weights (e.g. ``IcfScoring``).
    ``hand_set``: how far the pieces of a position set by hand move per shot (m; ``None``:
    :data:`~carromlab.shots.HAND_SET`; 0: off). ``bar``: a progress bar the caller owns
    (:meth:`ShotRunner.run`).
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
    runner = runner or shot_runner(va, position, chunk=chunk, physics=physics, hand_set=hand_set)
    tally = Tally(len(ok))
    if key_ids is not None:
        key_ids = np.asarray(key_ids, np.int64)
        if key_ids.shape != (len(cells),):
            raise CarromlabError(f"key_ids: one per cell ({len(cells)}), got {key_ids.shape}")
        key_ids = key_ids[np.flatnonzero(legal)]
    noise = va.noise(sk)
    shots = runner.run(
        base, int(n), noise, seed, progress=progress, desc=desc, key_ids=key_ids, bar=bar
    )
    for ch in shots:
        tally_chunk(tally, ch, runner, va, turn, scoring)
    wide = _widen(_asked_rows(tally_frame(tally, confidence), pieces, per_pocket))
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
    store=None,
    block: int | None = None,
    on_resume=None,
    **kw,
) -> pd.DataFrame:
    """Estimate every cell of the grid ``placements x angles_deg x speeds`` (see
    :func:`evaluate_cells` for the other options).

    ``store``: a folder that keeps the finished cells as they come, so an interrupted map
    resumes (module docstring); ``block``: cells per block there (default about
    :data:`BLOCK_CHUNKS` kernel chunks of shots); ``on_resume(kept, total)`` is called when
    the folder already holds cells of this map. The result is the same with or without it.
    A grid of more than :data:`~carromlab.input_schema.MAX_CELLS` cells, or more shots than
    one kernel run can number, is refused before its cells are made."""
    from carromlab.input_schema import check_cells, check_run

    size = int(np.size(placements) * np.size(angles_deg) * np.size(speeds))
    check_cells(size, "shotmap")
    check_run(size, int(n), "shotmap")
    grid = list(
        itertools.product(
            np.atleast_1d(placements), np.atleast_1d(angles_deg), np.atleast_1d(speeds)
        )
    )
    if store is None:
        out = evaluate_cells(position, grid, skill=skill, n=n, seed=seed, **kw)
    else:
        axes = {
            "placements": [float(x) for x in np.atleast_1d(placements)],
            "angles": [float(a) for a in np.atleast_1d(angles_deg)],
            "speeds": [float(v) for v in np.atleast_1d(speeds)],
        }
        out = _stored_map(position, grid, axes, skill, n, seed, store, block, on_resume, kw)
    out.attrs["config"].update(
        kind="shot_map",
        placements=[float(x) for x in np.atleast_1d(placements)],
        angles_deg=[float(a) for a in np.atleast_1d(angles_deg)],
        speeds=[float(v) for v in np.atleast_1d(speeds)],
    )
    return out


#: The shot-map grid (placements, angles, speeds) of a game without its own
#: ``Game.default_grid``.
FALLBACK_GRID = ("0", "30:150:61", "2.0")


def default_grid(variant: str) -> tuple[list[float], list[float], list[float]]:
    """The default shot map's grid of ``variant`` (its game's ``default_grid``, else
    :data:`FALLBACK_GRID`): what ``carromlab shotmap`` computes when no grid is given, and
    what :func:`~carromlab.analysis.best.best_shots` starts from."""
    from carromlab.registry import get_game, parse_grid

    specs = get_game(variant).default_grid or FALLBACK_GRID
    p, a, v = (parse_grid(s, w) for s, w in zip(specs, ("placements", "angles", "speeds")))
    return p, a, v


#: Kernel chunks of shots per block of a stored shot map (the work an interruption can lose).
BLOCK_CHUNKS = 4

#: The folder under a shot map's ``--out`` that keeps its finished cells until it is written.
PARTIAL = "shotmap.partial"

#: Command-line names of the settings a stored map is checked against (the rest by key).
OPTION_NAMES = {
    "position": "--position",
    "skill": "--skill",
    "n": "--n",
    "seed": "--seed",
    "placements": "--placements",
    "angles": "--angles",
    "speeds": "--speeds",
    "hand_set": "--hand-set",
    "turn": "game option (the turn)",
}


class ShotMapInterrupted(KeyboardInterrupt):
    """A stored shot map interrupted (Ctrl-C): ``kept`` of its ``total`` legal cells are in
    ``folder``; the same call resumes it."""

    def __init__(self, kept: int, total: int, folder: Path):
        super().__init__(f"{kept:,} of {total:,} cells kept in {folder}")
        self.kept, self.total, self.folder = kept, total, Path(folder)


class CellStore:
    """The finished cells of one shot map in ``folder``: ``config.json`` (the settings that
    decide the numbers) and ``cells-<first cell>.parquet`` blocks (a ``cell`` column: the
    cell's index in the grid). Opening a folder holding another map's settings is refused
    with one line naming the first option that differs; temporary files left by a killed
    write are removed."""

    def __init__(self, folder, config: dict):
        self.folder = Path(folder)
        self.config = json.loads(json.dumps(config, default=str))
        self.folder.mkdir(parents=True, exist_ok=True)
        for tmp in self.folder.glob("*.tmp"):
            tmp.unlink()
        path = self.folder / "config.json"
        if path.exists():
            held = json.loads(path.read_text())
            if held != self.config:
                raise CarromlabError(self._refusal(held))
        else:
            if any(self.folder.glob("cells-*.parquet")):
                raise CarromlabError(
                    f"{self.folder} holds shot-map cells but no config.json; delete it"
                )
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(json.dumps(self.config, indent=1, sort_keys=True) + "\n")
            os.replace(tmp, path)

    def _refusal(self, held: dict) -> str:
        keys = [k for k in (*OPTION_NAMES, *sorted(set(held) | set(self.config))) if k]
        key = next(k for k in dict.fromkeys(keys) if held.get(k) != self.config.get(k))

        def show(v) -> str:
            text = json.dumps(v, default=str)
            return text if len(text) <= 40 else text[:37] + "..."

        return (
            f"{self.folder} holds a partial shot map made with another "
            f"{OPTION_NAMES.get(key, key)} ({show(held.get(key))} there, "
            f"{show(self.config.get(key))} here); rerun with the same options to resume it, "
            f"or use another --out, or delete {self.folder}"
        )

    def cells(self) -> pd.DataFrame | None:
        """Every kept cell (one row each, with its ``cell``), or None when none are kept."""
        from carromlab.analysis.results import read_parquet

        parts = [read_parquet(p) for p in sorted(self.folder.glob("cells-*.parquet"))]
        if not parts:
            return None
        return pd.concat(parts, ignore_index=True).drop_duplicates("cell", keep="last")

    def add(self, part: pd.DataFrame) -> None:
        """Keep a finished block (written whole, or not at all)."""
        from carromlab.analysis.results import write_parquet

        write_parquet(part, self.folder / f"cells-{int(part['cell'].iloc[0]):07d}.parquet")


def drop_partial(folder) -> None:
    """Remove a stored map's folder of finished cells (once the map itself is written)."""
    shutil.rmtree(folder, ignore_errors=True)


def _identity(position, sk, n, seed, axes, runner, turn, kw) -> dict:
    """What decides a shot map's numbers (not the chunk size, cores or lanes: they change
    none), as the command line names it where it can."""
    doc = json.dumps(position.to_dict(), sort_keys=True)
    scoring = kw.get("scoring")
    return {
        "position": f"{position.name} {hashlib.sha256(doc.encode()).hexdigest()[:12]}",
        "skill": vars(sk),
        "n": int(n),
        "seed": int(seed),
        **axes,
        "hand_set": runner.hand_set,
        "turn": vars(turn),
        "pieces": list(kw.get("pieces", ())),
        "per_pocket": bool(kw.get("per_pocket", False)),
        "scoring": None if scoring is None else vars(scoring),
        "confidence": kw.get("confidence", 0.95),
        "physics": describe_physics(runner.physics),
        "contacts": runner.contacts,
    }


def _blocks(todo: list[int], size: int, n: int, chunk: int) -> list[list[int]]:
    """``todo`` cut into blocks of ``size`` cells; a last block shorter than one kernel chunk
    joins the one before (a new chunk shape would compile the kernel again)."""
    out = [todo[i : i + size] for i in range(0, len(todo), size)]
    if len(out) > 1 and len(out[-1]) * n < chunk:
        last = out.pop()  # (popped first: ``out[-2] += out.pop()`` would index after the pop)
        out[-1] += last
    return out


def _stored_map(position, grid, axes, skill, n, seed, folder, block, on_resume, kw):
    """:func:`shot_map` with its finished cells kept in ``folder`` (module docstring)."""
    from tqdm import tqdm

    sk, va, turn = prepare(position, n, skill, kw.get("turn"))
    for _x, a, v in grid:
        check_speed_angle(float(v), np.radians(float(a)))
    xs, ys = va.origin(position, [float(c[0]) for c in grid])
    legal = np.flatnonzero(va.legal_origin(position, xs, ys))
    if not len(legal):
        raise CarromlabError("no cell of the shot-map grid has a legal striker placement")
    runner = kw.pop("runner", None) or shot_runner(
        va,
        position,
        chunk=kw.pop("chunk", 4096),
        physics=kw.pop("physics", None),
        hand_set=kw.pop("hand_set", None),
    )
    kw.pop("chunk", None), kw.pop("physics", None), kw.pop("hand_set", None)
    progress = kw.pop("progress", False)
    store = CellStore(folder, _identity(position, sk, n, seed, axes, runner, turn, kw))
    kept = store.cells()
    done = set() if kept is None else set(int(c) for c in kept["cell"])
    parts = [] if kept is None else [kept[kept["cell"].isin(legal)]]
    if done and on_resume is not None:
        on_resume(len(done), len(legal))
    rank = {int(c): k for k, c in enumerate(legal)}  # a cell's key id: its legal index
    todo = [int(c) for c in legal if int(c) not in done]
    size = block or max(1, BLOCK_CHUNKS * runner.chunk // int(n))
    bar = tqdm(
        total=len(legal) * int(n),
        initial=len(done) * int(n),
        desc="shot map",
        unit="shot",
        unit_scale=True,
        disable=not progress,
    )
    try:
        for cells in _blocks(todo, size, int(n), runner.chunk):
            part = evaluate_cells(
                position,
                [grid[c] for c in cells],
                skill=skill,
                n=n,
                seed=seed,
                runner=runner,
                key_ids=[rank[c] for c in cells],
                bar=bar,
                **kw,
            )
            part.insert(0, "cell", cells)
            store.add(part)
            parts.append(part)
            done.update(cells)
    except KeyboardInterrupt:
        raise ShotMapInterrupted(len(done), len(legal), store.folder) from None
    finally:
        bar.close()
    wide = pd.concat(parts, ignore_index=True).set_index("cell").sort_index()
    wide = wide.drop(columns=[c for c in ("placement", "angle", "speed", "x0", "y0") if c in wide])
    wide.index.name = None
    frame = pd.DataFrame(
        {
            "placement": [float(c[0]) for c in grid],
            "angle": [float(c[1]) for c in grid],
            "speed": [float(c[2]) for c in grid],
        }
    )
    if va.origin_of is not None:
        frame["x0"], frame["y0"] = xs, ys
    out = frame.join(wide)
    out["n"] = out["n"].fillna(0).astype(int)
    scoring = kw.get("scoring")
    extra = {} if scoring is None else {"scoring": vars(scoring)}
    confidence = kw.get("confidence", 0.95)
    out.attrs["config"] = run_config(
        "cells", position, sk, n, seed, runner, turn, confidence, **extra
    )
    return out


def _widen(long: pd.DataFrame) -> pd.DataFrame:
    """One row per cell: p_q / p_q_lo / p_q_hi for probabilities, m / m_lo / m_hi for means.

    A tally's long table holds every quantity for the same cells in the same order, one block
    per quantity: then the columns are cut from its arrays in one go (a 793-cell block of a
    shot map's 120 quantities took 0.1 s through pandas' groups); any other table goes
    through the groups, with the same result."""
    quantity, kind = long["quantity"].to_numpy(), long["kind"].to_numpy()
    cell = long["cell"].to_numpy()
    starts = np.flatnonzero(np.r_[True, (quantity[1:] != quantity[:-1]) | (kind[1:] != kind[:-1])])
    size = len(long) // max(len(starts), 1)
    blocks = len(starts) * size == len(long) and (starts == np.arange(len(starts)) * size).all()
    pairs = list(zip(quantity[starts], kind[starts]))
    if blocks and len(set(pairs)) == len(pairs) and len(long):
        shape = (len(starts), size)
        cells = cell.reshape(shape)
        if (cells == cells[:1]).all():
            est, lo, hi, n = (
                long[c].to_numpy().reshape(shape) for c in ("estimate", "lo", "hi", "n")
            )
            index = pd.Index(cells[0], name="cell")
            out: dict[str, np.ndarray] = {}
            for k, (q, kd) in enumerate(pairs):
                name = f"p_{q}" if kd == "probability" else q
                out[name], out[f"{name}_lo"], out[f"{name}_hi"] = est[k], lo[k], hi[k]
                out["n"] = n[k]
            return pd.DataFrame(out, index=index)
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
