"""Touching clusters: the kernel's cluster contact model against the pymunk peer, converged.

The kernel solves a struck touching cluster as a whole (``contacts="cluster"``, its default:
docs/physics.md, "Touching clusters solved as a whole"); the pymunk peer
(carromlab/bench/pymunk_peer.py) steps time and solves the contacts of each step iteratively.
This script compares the two where the earlier validation (experiments/validate_pymunk.py)
could not: on touching clusters, with the peer driven to convergence in its time step and its
solver iterations (docs/validation.md, "Touching clusters (the cluster contact model)").

- **Deterministic cases** (no noise), all on the ICF board, the striker from (0, BASELINE_Y)
  straight up (90 deg): the 3-coin touching triangle, the 3-coin touching line along the shot
  and the 7-coin hexagon (a centre coin and six touching it, one of them facing the striker,
  as the rosette's inner ring), each at 3 m/s; and the full ICF opening rosette at 5 m/s. Each
  runs in the kernel (float32 ``ShotRunner``, as the analysis runs it), in the float64
  reference (``simulate_reference(..., contacts="cluster")``) and in pymunk at the steps
  ``DT, DT/2, DT/4, ...`` until the peer's end positions change by at most ``--tol`` between
  two successive halvings, ``CONFIRM`` times in a row (or the finest step allowed), then with
  more solver iterations (``ITERATIONS``; the halvings again at the higher count if that moves
  the ends). pymunk takes two discs for a contact only once they overlap, so the peer also
  runs with every touching pair closed or opened by 1 nm (``GEOMETRIES``). Reported: the
  peer's own change between successive steps, the kernel against the converged peer (and the
  reference), the pieces pocketed, each engine's left/right asymmetry of its end positions
  (every case is a mirror image of itself about x = 0), and each engine's change when the
  shot is turned by 1e-6 rad (the project's chaos test).
- **Distribution** (``rosette``): the ICF opening rosette broken straight up the middle from
  (0, BASELINE_Y) at 5 m/s with club noise, the same N noisy shots (drawn by the kernel's
  keys) in both engines, pymunk as placed at each step of ``--rosette-dts`` and closed and
  opened by 1 nm at the first (on the first half of the shots): per pocket, the probability that a piece other than the
  striker drops (a coin or the queen); any pocket; the striker pocketed; west minus east
  pockets (the mirror check); the mean pieces pocketed per break; each with its standard
  error and the difference kernel - pymunk in standard errors.

Writes ``<out>/deterministic.csv`` (one row per case and peer geometry), ``<out>/convergence.csv`` (every pymunk
run of the deterministic cases), ``<out>/ends.csv`` (every engine's end of every piece),
``<out>/rosette.csv`` (the distribution), ``<out>/config.json`` (versions, steps, seeds, N,
timings) and ``<out>/summary.md`` (the tables), each atomically; prints the tables.

    python experiments/validate_clusters.py                  # the documented run (N = 200)
    python experiments/validate_clusters.py --quick          # a small fast run (about 100 s)
    python experiments/validate_clusters.py --n 400 --seed 1 --out /tmp/clusters
    python experiments/validate_clusters.py --cases triangle line --no-rosette
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.bench.pymunk_peer import (
    COLLISION_SLOP,
    DT,
    REST_SPEED,
    SOLVER_ITERATIONS,
    place_shot,
    simulate_pymunk,
)
from carromlab.bench.validation import (
    CHAOS_TURN,
    MAX_EVENTS,
    Case,
    Prepared,
    _captures,
    _distances,
    _n_captured,
    kernel_shots,
    key_hits,
    prepare,
    start_layout,
    two_sample,
)
from carromlab.games.icf.midgame import BASELINE_Y
from carromlab.physics import Physics
from carromlab.shots import SKILLS, Shot, skill

#: Speed (m/s) of the striker into the small clusters, and into the rosette.
CLUSTER_SPEED = 3.0
ROSETTE_SPEED = 5.0
#: Every shot goes straight up the board's mirror axis.
SHOT_ANGLE_DEG = 90.0
#: The deterministic cases, in order.
DETERMINISTIC = ("triangle", "line", "hexagon", "rosette")
#: Convergence tolerance of the peer (m): its end positions change by at most this much from
#: one step to the half step (and to more solver iterations). The engines' differences on
#: these shots are tens to hundreds of millimetres; the kernel and the reference are 2 mm
#: apart on the triangle (docs/physics.md).
TOL_M = 1e-3
#: Successive halvings that must each change the peer's answer by at most ``TOL_M``.
CONFIRM = 2
#: Halvings of DT tried at most (DT / 2**MAX_HALVINGS is the finest step).
MAX_HALVINGS = 5
#: ... for the rosette (20 discs: 0.5 s a shot at DT, 4 s at DT / 8).
ROSETTE_MAX_HALVINGS = 3
#: Solver iterations the peer climbs through (the first is pymunk_peer.SOLVER_ITERATIONS).
ITERATIONS = (SOLVER_ITERATIONS, 5 * SOLVER_ITERATIONS, 25 * SOLVER_ITERATIONS)
#: pymunk steps of the rosette's Monte-Carlo (the break costs 0.5 s a shot at DT).
ROSETTE_DTS = (DT, DT / 2)
#: Noisy rosette breaks (the same shots in both engines).
N_DEFAULT = 200
#: The rosette's closed and opened runs in pymunk take this share of the N shots (the first
#: ones; the kernel is compared on the same shots).
GEOMETRY_SHARE = 0.5
#: The quick run: the peer as placed, at most DT / 4, no iteration, reference or turn check,
#: a few noisy breaks.
QUICK = {
    "max_halvings": 2,
    "iterations": (SOLVER_ITERATIONS,),
    "geometries": {"as placed": 0.0},
    "with_reference": False,
    "turn": False,
    "n": 8,
}
#: pymunk geometries of the deterministic cases: name -> nudge (m) of every touching pair
#: (:func:`nudged`). pymunk takes two discs for a contact only when they overlap, so whether
#: a pair placed touching is one is settled by the rounding of its coordinates (3.5e-18 m);
#: 1 nm either way makes every touching pair a contact from the first step ("closed") or
#: none until pressed ("opened"). 1 nm is far above that rounding, far below pymunk's
#: collision slop (1 um: no position correction) and the kernel's touch tolerance (1 um).
GEOMETRIES = {"as placed": 0.0, "closed 1 nm": -1e-9, "opened 1 nm": 1e-9}
#: The float64 reference's search step (s; it finds the contacts inside each step exactly).
REFERENCE_DT = 1e-4


# --------------------------------------------------------------------------- set-up


def cluster_coins(name: str, r: float) -> list[tuple[float, float]]:
    """The coin centres of a deterministic case (coin radius ``r``), all touching."""
    s3 = math.sqrt(3.0)
    if name == "triangle":
        return [(0.0, 0.0), (-r, s3 * r), (r, s3 * r)]
    if name == "line":
        return [(0.0, 0.0), (0.0, 2 * r), (0.0, 4 * r)]
    if name == "hexagon":  # the centre at (0, 2r), a ring coin at (0, 0) facing the striker
        h = s3 * r  # the right half mirrored by a sign change: an exact mirror image in floats
        return [(0.0, 2 * r), (0.0, 0.0), (h, r), (h, 3 * r), (0.0, 4 * r), (-h, 3 * r), (-h, r)]
    raise KeyError(f"no cluster case {name!r}; known: {', '.join(DETERMINISTIC)}")


def prepare_case(
    name: str, n: int = 1, physics: Physics = Physics(), hand_set: float | None = None
) -> Prepared:
    """The kernel's runner and the base shot of a deterministic case (chunks of ``n``): the
    rosette through :func:`carromlab.bench.validation.prepare` (``icf-opening``, the ICF
    analysis's origin at placement 0, club noise; ``hand_set``: its hand-set gaps, None the
    default, 0 the touching rosette as placed); the small clusters as coins on the ICF board,
    the striker at (0, BASELINE_Y)."""
    from carromlab.analysis.runner import ShotRunner
    from carromlab.equipment import IcfBoard
    from carromlab.position import Piece, Position

    if name == "rosette":
        case = Case(
            "rosette",
            "icf-opening",
            "ICF",
            0.0,
            SHOT_ANGLE_DEG,
            ROSETTE_SPEED,
            (("*", "any"),),
            cluster=True,
            note="the ICF opening rosette broken straight up the middle",
        )
        prep = prepare(case, n, physics, hand_set=hand_set)
        if abs(prep.x) > 1e-12 or abs(prep.y - BASELINE_Y) > 1e-12:
            raise RuntimeError(f"the ICF origin moved: ({prep.x}, {prep.y}), not (0, {BASELINE_Y})")
        return prep
    board = IcfBoard()
    r = board.piece_specs()["coin"].radius
    pieces = tuple(
        Piece(f"c{k}", "coin", ("white", "black")[k % 2], x, y)
        for k, (x, y) in enumerate(cluster_coins(name, r))
    )
    pos = Position("icf", pieces, board, name=f"cluster-{name}").check()
    case = Case(
        name, f"{len(pieces)} touching coins", "ICF", 0.0, SHOT_ANGLE_DEG, CLUSTER_SPEED, ()
    )
    runner = ShotRunner(pos, "striker", max_events=MAX_EVENTS, physics=physics)
    base = Shot(
        np.array([0.0]),
        np.array([BASELINE_Y]),
        np.array([math.radians(SHOT_ANGLE_DEG)]),
        np.array([CLUSTER_SPEED]),
    )
    exact = SKILLS["exact"]
    return Prepared(case, runner, 0.0, BASELINE_Y, base, exact.noise(), exact, math.inf)


def _shot(prep: Prepared) -> tuple[float, float, float, float]:
    return prep.x, prep.y, math.radians(prep.case.angle_deg), prep.case.speed


def nudged(pieces, nudge: float):
    """``pieces`` with every piece but the shooter (disc 0) spread about its centre line so
    that each touching pair is ``nudge`` metres apart (negative: overlapping); x is scaled
    about 0, so a mirror image stays one."""
    if nudge == 0.0:
        return pieces
    s = nudge / (2.0 * float(np.median(pieces.radius[1:])))
    x, y = pieces.x.copy(), pieces.y.copy()
    yc = float(y[1:].mean())
    x[1:] = x[1:] * (1.0 + s)
    y[1:] = yc + (y[1:] - yc) * (1.0 + s)
    return replace(pieces, x=x, y=y)


def peer(
    prep: Prepared,
    shot,
    physics: Physics,
    dt: float,
    iterations: int = SOLVER_ITERATIONS,
    nudge: float = 0.0,
    layout=None,
) -> dict:
    """One shot ``(x, y, angle, speed)`` of disc 0 in pymunk, the other pieces ``nudged``,
    from ``layout`` (pieces where the kernel started that shot: a hand-set opening's gaps)
    or as placed; the outcome arrays with a leading shot axis of length 1 (as the
    kernel's)."""
    pieces = nudged(place_shot(prep.pieces if layout is None else layout, *shot), nudge)
    out = simulate_pymunk(prep.table, pieces, physics, dt=dt, iterations=iterations)
    return {k: np.asarray(v)[None] for k, v in out.items()}


def kernel_turned(prep: Prepared, turns) -> list[dict]:
    """The base shot turned by each angle of ``turns`` (rad) in the kernel (the runner's
    chunk size, so it does not compile again); one outcome dict (shot axis of length 1) each."""
    x, y, angle, speed = _shot(prep)
    k = len(turns)
    cells = Shot(np.full(k, x), np.full(k, y), angle + np.asarray(turns), np.full(k, speed))
    outs = [ch.outcome for ch in prep.runner.run(cells, 1, SKILLS["exact"].noise(), 0)]
    out = {key: np.concatenate([o[key] for o in outs]) for key in outs[0]}
    return [{key: v[i : i + 1] for key, v in out.items()} for i in range(k)]


def reference(prep: Prepared, physics: Physics) -> dict:
    """The base shot in the float64 reference (cluster model), as outcome arrays with a
    leading shot axis of length 1."""
    from carromlab.physics.reference import simulate_reference

    ref = simulate_reference(
        prep.table, place_shot(prep.pieces, *_shot(prep)), physics, REFERENCE_DT, contacts="cluster"
    )
    return {
        "x": ref.x[None],
        "y": ref.y[None],
        "alive": ref.alive[None],
        "capture": ref.capture_index[None],
        "truncated": np.array([ref.truncated]),
    }


# --------------------------------------------------------------------------- figures


def max_distance(a: dict, b: dict, prep: Prepared) -> float:
    """Largest distance (m) between two ends of a shot (outcome arrays, shot 0), over the
    moving pieces on the board in both; ``inf`` when they pocket different pieces (or the
    same pieces in different pockets)."""
    ids, table = prep.ids, prep.table
    if _captures(a["capture"][0], ids, table) != _captures(b["capture"][0], ids, table):
        return math.inf
    return float(_distances(a, b, 0, prep.pieces.static).max(initial=0.0))


def mirror_asymmetry(out: dict, prep: Prepared) -> float:
    """How far an end (outcome arrays, shot 0) is from its own mirror image about x = 0 (m):
    every piece's partner is the piece that started at its mirror place (itself on the axis;
    the shooter starts where the base shot puts it); the largest ``|(x_i + x_p, y_i - y_p)|``
    over the pairs on the board; ``inf`` if a piece and its partner are not captured in mirror
    pockets (or one is and the other is not)."""
    p0 = place_shot(prep.pieces, *_shot(prep))
    x0, y0 = np.asarray(p0.x), np.asarray(p0.y)
    caps = np.asarray(prep.table.captures)
    x, y, cap = out["x"][0], out["y"][0], np.asarray(out["capture"][0])
    worst = 0.0
    for i in range(p0.n):
        j = int(np.argmin(np.hypot(x0 + x0[i], y0 - y0[i])))
        if math.hypot(x0[j] + x0[i], y0[j] - y0[i]) > 1e-9:
            raise ValueError(f"piece {p0.ids[i]} has no mirror partner")
        ci, cj = int(cap[i]), int(cap[j])
        if (ci < 0) != (cj < 0):
            return math.inf
        if ci >= 0:
            cx, cy = caps[ci, 0], caps[ci, 1]
            if math.hypot(caps[cj, 0] + cx, caps[cj, 1] - cy) > 1e-9:
                return math.inf
            continue
        worst = max(worst, math.hypot(x[i] + x[j], y[i] - y[j]))
    return worst


def _ends_rows(case: str, engine: str, dt, iterations, out: dict, prep: Prepared) -> list[dict]:
    names = (*prep.table.capture_names, "ditch")
    return [
        {
            "case": case,
            "engine": engine,
            "dt": dt,
            "iterations": iterations,
            "piece": pid,
            "x": float(out["x"][0][i]),
            "y": float(out["y"][0][i]),
            "captured": names[int(out["capture"][0][i])] if out["capture"][0][i] >= 0 else "",
        }
        for i, pid in enumerate(prep.ids)
    ]


def _mm(v: float) -> float:
    """Metres to millimetres (``inf``, other pieces pocketed, and ``nan`` kept)."""
    return 1e3 * v if math.isfinite(v) else v


def _peer_sequence(
    prep: Prepared,
    physics: Physics,
    geometry: str,
    nudge: float,
    max_halvings: int,
    iterations: tuple[int, ...],
    tol: float,
    confirm: int,
    ko: dict,
    ro: dict | None,
    say,
) -> tuple[list[dict], list[dict], dict]:
    """The peer driven to convergence. At the first count of ``iterations``: pymunk at
    DT / 2**k, k = 0, 1, ... until ``confirm`` successive halvings each change the ends by at
    most ``tol`` (or k = ``max_halvings``). Then the last step again with the next count: if
    the ends move by at most ``tol``, the peer has converged; if they move more (and the steps
    had converged), the halvings are run again at that count, and so on up the counts.
    Returns (convergence rows, ends rows, the converged run's summary with its outcome)."""
    name, ids, table = prep.case.name, prep.ids, prep.table
    shot = _shot(prep)
    rows: list[dict] = []
    ends: list[dict] = []

    def one(dt, it, prev, stage):
        t0 = time.perf_counter()
        po = peer(prep, shot, physics, dt, it, nudge)
        elapsed = time.perf_counter() - t0
        change = max_distance(po, prev, prep) if prev is not None else math.nan
        rows.append(
            {
                "case": name,
                "geometry": geometry,
                "nudge_m": nudge,
                "iterations": it,
                "dt": dt,
                "halvings": round(math.log2(DT / dt)),
                "change_from": stage,
                "captures": _captures(po["capture"][0], ids, table),
                "change_mm": _mm(change),
                "kernel_vs_peer_mm": _mm(max_distance(ko, po, prep)),
                "reference_vs_peer_mm": _mm(max_distance(ro, po, prep))
                if ro is not None
                else math.nan,
                "peer_asym_mm": _mm(mirror_asymmetry(po, prep)),
                "steps": int(po["steps"][0]),
                "truncated": bool(po["truncated"][0]),
                "pymunk_s": elapsed,
            }
        )
        ends.extend(_ends_rows(name, f"pymunk {geometry}", dt, it, po, prep))
        say(
            f"{name} ({geometry}): pymunk dt {dt:.3g} s, {it} iterations: change "
            f"{_mm(change):.3f} mm, kernel {rows[-1]['kernel_vs_peer_mm']:.2f} mm "
            f"({elapsed:.1f} s)"
        )
        return po, change

    def halvings(it):
        prev, calm = None, 0
        for k in range(max_halvings + 1):
            prev, change = one(DT / 2**k, it, prev, "" if k == 0 else "dt x 2")
            calm = calm + 1 if change <= tol else 0
            if calm >= confirm:
                break
        return prev, rows[-1], calm >= confirm

    po, last, dt_ok = halvings(iterations[0])
    it_ok, it_change, it_used = len(iterations) < 2, math.nan, iterations[0]
    for it in iterations[1:]:
        _, change = one(last["dt"], it, po, "fewer iterations")
        it_change = change
        if change <= tol or not dt_ok:
            it_ok = change <= tol
            break  # converged; or the steps had not converged and more iterations is a check
        po, last, dt_ok = halvings(it)
        it_used = it
    summary = {
        "peer_dt": last["dt"],
        "peer_iterations": it_used,
        "peer_last_change_mm": last["change_mm"],
        "peer_converged_dt": dt_ok,
        "peer_iteration_change_mm": _mm(it_change),
        "peer_converged": bool(dt_ok and it_ok),
        "peer_captures": last["captures"],
        "peer_asym_mm": last["peer_asym_mm"],
        "kernel_vs_peer_mm": last["kernel_vs_peer_mm"],
        "kernel_vs_peer_mean_mm": 1e3 * float(_distances(ko, po, 0, prep.pieces.static).mean())
        if math.isfinite(last["kernel_vs_peer_mm"])
        else math.inf,
        "reference_vs_peer_mm": last["reference_vs_peer_mm"],
    }
    return rows, ends, {"out": po, **summary}


def compare_cluster(
    name: str,
    physics: Physics = Physics(),
    max_halvings: int = MAX_HALVINGS,
    iterations: tuple[int, ...] = ITERATIONS,
    geometries: dict[str, float] | None = None,
    tol: float = TOL_M,
    confirm: int = CONFIRM,
    with_reference: bool = True,
    turn: bool = True,
    progress=None,
) -> dict:
    """One deterministic case: the kernel (float32, the default cluster model), the float64
    reference (``with_reference``) and, for each pymunk geometry of ``geometries`` (name ->
    nudge in m, :func:`nudged`; default :data:`GEOMETRIES`), pymunk at the steps DT / 2**k
    (k = 0 .. ``max_halvings``) until its ends change by at most ``tol`` (m) ``confirm`` times
    in a row, then with more solver iterations (:func:`_peer_sequence`; ``iterations``: the
    counts, the first the peer's default).
    ``turn``: also the kernel's and the converged peer's change when the shot is turned by
    +-CHAOS_TURN (the project's chaos test).

    Returns ``{"summary": [one row per geometry], "convergence": rows, "ends": rows}``; the
    distances are in mm (``inf``: the pieces pocketed differ), ``peer_converged`` says whether
    the step and the iteration criteria were met, ``peer_dt`` is the converged peer's step."""
    say = progress or (lambda _msg: None)
    geometries = GEOMETRIES if geometries is None else geometries
    # the touching cluster as placed in every engine (the rosette without its hand-set gaps:
    # this comparison is of touching clusters; the distribution below plays the gaps)
    prep = prepare_case(name, 1, physics, hand_set=0.0)
    ids, table = prep.ids, prep.table
    t0 = time.perf_counter()
    _, ko = kernel_shots(prep, 1, 0, exact=True)
    base: dict = {
        "case": name,
        "pieces": len(ids) - 1,
        "speed_m_s": prep.case.speed,
        "kernel_captures": _captures(ko["capture"][0], ids, table),
        "kernel_asym_mm": _mm(mirror_asymmetry(ko, prep)),
        "kernel_events": int(ko["n_events"][0]),
        "kernel_truncated": bool(ko["truncated"][0]),
        "kernel_s": time.perf_counter() - t0,
    }
    ends = _ends_rows(name, "kernel-f32", None, None, ko, prep)
    if turn:
        turned = kernel_turned(prep, (-CHAOS_TURN, CHAOS_TURN))
        base["kernel_turn_mm"] = max(_mm(max_distance(ko, o, prep)) for o in turned)
    say(f"{name}: kernel done ({base['kernel_s']:.0f} s)")
    ro = None
    if with_reference:
        t0 = time.perf_counter()
        ro = reference(prep, physics)
        base.update(
            reference_captures=_captures(ro["capture"][0], ids, table),
            reference_asym_mm=_mm(mirror_asymmetry(ro, prep)),
            kernel_vs_reference_mm=_mm(max_distance(ko, ro, prep)),
            reference_truncated=bool(ro["truncated"][0]),
            reference_s=time.perf_counter() - t0,
        )
        ends += _ends_rows(name, "reference-f64", REFERENCE_DT, None, ro, prep)
        say(f"{name}: reference done ({base['reference_s']:.0f} s)")
    summaries, rows = [], []
    for geometry, nudge in geometries.items():
        t0 = time.perf_counter()
        r, e, conv = _peer_sequence(
            prep,
            physics,
            geometry,
            nudge,
            max_halvings,
            tuple(iterations),
            tol,
            confirm,
            ko,
            ro,
            say,
        )
        rows += r
        ends += e
        po = conv.pop("out")
        row = {**base, "geometry": geometry, "nudge_m": nudge, **conv}
        if turn and not summaries:  # the first geometry's (the shot's chaos, not the nudge's)
            x, y, angle, speed = _shot(prep)
            turned = [
                peer(
                    prep,
                    (x, y, angle + t, speed),
                    physics,
                    row["peer_dt"],
                    row["peer_iterations"],
                    nudge,
                )
                for t in (-CHAOS_TURN, CHAOS_TURN)
            ]
            row["peer_turn_mm"] = max(_mm(max_distance(po, o, prep)) for o in turned)
        row["pymunk_s"] = time.perf_counter() - t0
        summaries.append(row)
    return {"summary": summaries, "convergence": rows, "ends": ends}


def rosette_distribution(
    n: int,
    seed: int = 0,
    physics: Physics = Physics(),
    dts: tuple[float, ...] = ROSETTE_DTS,
    geometries: dict[str, float] | None = None,
    iterations: int = SOLVER_ITERATIONS,
    progress=None,
) -> dict:
    """The rosette broken from (0, BASELINE_Y) at 5 m/s with club noise: ``n`` noisy shots
    drawn by the kernel's keys (``seed``), the very same executed shots in pymunk: the rosette
    as placed at each step of ``dts``, and each other geometry of ``geometries`` (name ->
    nudge, :func:`nudged`; default none) at the first step on the first ``GEOMETRY_SHARE``
    of the shots. Returns ``{"rows": [...],
    "timing": {...}}``: one row per (pymunk run, event): each engine's probability (or mean)
    with its standard error, the difference, its two-sample standard error, the difference in
    standard errors (z), the paired standard error and the shots called differently."""
    say = progress or (lambda _msg: None)
    prep = prepare_case("rosette", n, physics)
    if prep.skill != skill("club"):
        raise RuntimeError(f"the rosette's noise is not the club skill: {prep.skill}")
    ids, table = prep.ids, prep.table
    t0 = time.perf_counter()
    shots, ko = kernel_shots(prep, n, seed)
    timing: dict = {"kernel_s": time.perf_counter() - t0}
    say(f"rosette: {n} noisy breaks in the kernel ({timing['kernel_s']:.0f} s)")
    events = [(f"pocket {c.split('.')[-1]}", ("*", c)) for c in table.capture_names]
    events += [("any pocket", ("*", "any")), ("striker pocketed", ("striker", "any"))]
    west = [c for c, cap in zip(table.capture_names, table.captures) if cap[0] < 0]
    east = [c for c, cap in zip(table.capture_names, table.captures) if cap[0] > 0]

    def hit(out, key):
        return key_hits(out, ids, table, key, math.inf).astype(float)

    def side(out, names):
        return np.any([hit(out, ("*", c)) for c in names], axis=0).astype(float)

    m_other = max(2, round(GEOMETRY_SHARE * n))
    runs = [("as placed", 0.0, dt, n) for dt in dts]
    runs += [(g, nu, dts[0], m_other) for g, nu in (geometries or {}).items() if nu != 0.0]
    rows = []
    for geometry, nudge, dt, m in runs:
        t0 = time.perf_counter()
        pos = [
            peer(
                prep,
                tuple(float(shots[k][s]) for k in ("x", "y", "angle", "speed")),
                physics,
                dt,
                iterations,
                nudge,
                layout=start_layout(prep, shots, s),
            )
            for s in range(m)
        ]
        po = {k: np.concatenate([o[k] for o in pos]) for k in pos[0]}
        km = {k: v[:m] for k, v in ko.items()}  # the kernel on the same shots
        tag = f"pymunk_s_{geometry.replace(' ', '_')}_dt{dt:g}"
        timing[tag] = time.perf_counter() - t0
        say(f"rosette: pymunk {geometry} at {dt:g} s, {m} shots ({timing[tag]:.0f} s)")
        # (label, kernel per shot, pymunk per shot, a 0/1 event?)
        hits = [(label, hit(km, key), hit(po, key), True) for label, key in events]
        # the mirror check: a piece in a west pocket minus one in an east pocket, per shot
        hits.append(
            ("west - east", side(km, west) - side(km, east), side(po, west) - side(po, east), False)
        )
        hits.append(
            (
                "pieces pocketed (mean)",
                _n_captured(km).astype(float),
                _n_captured(po).astype(float),
                False,
            )
        )
        for label, a, b, binary in hits:
            if binary:
                diff, se, _ = two_sample(int(a.sum()), int(b.sum()), m)
                se_k, se_p = (math.sqrt(v.mean() * (1 - v.mean()) / m) for v in (a, b))
            else:
                diff = float(a.mean() - b.mean())
                se_k, se_p = (float(v.std(ddof=1) / math.sqrt(m)) for v in (a, b))
                se = math.hypot(se_k, se_p)
            d = a - b
            rows.append(
                {
                    "event": label,
                    "geometry": geometry,
                    "dt": dt,
                    "iterations": iterations,
                    "n": m,
                    "seed": seed,
                    "kernel": float(a.mean()),
                    "kernel_se": se_k,
                    "pymunk": float(b.mean()),
                    "pymunk_se": se_p,
                    "diff": diff,
                    "se": se,
                    "z": diff / se if se > 0 else (0.0 if diff == 0 else math.inf),
                    "paired_se": float(d.std(ddof=1) / math.sqrt(m)),
                    "discordant": int((a != b).sum()),
                }
            )
        rows.append(
            {
                "event": "same pieces in the same pockets",
                "geometry": geometry,
                "dt": dt,
                "iterations": iterations,
                "n": m,
                "seed": seed,
                "kernel": float(np.all(km["capture"] == po["capture"], axis=1).mean()),
                "truncated_kernel": int(np.sum(km["truncated"])),
                "truncated_pymunk": int(np.sum(po["truncated"])),
            }
        )
    return {"rows": rows, "timing": timing}


# --------------------------------------------------------------------------- output


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename,
    so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would outlive the rename
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _f(v, digits: int = 2, inf: str = "differ") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if isinstance(v, float) and math.isinf(v):
        return inf if v > 0 else f"-{inf}"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def markdown(result: dict) -> str:
    """The tables (peer convergence, deterministic comparison, rosette distribution)."""
    lines: list[str] = []
    conv = result.get("convergence") or []
    if conv:
        lines += [
            "**Peer convergence** (deterministic shots): each pymunk run: the largest change of "
            "any piece's end (mm) from the run before it (the step twice as long, or, on a "
            "row with more iterations, the same step with fewer; `differ`: other pieces "
            "pocketed), the largest distance to the kernel's end (mm), the peer's mirror "
            "asymmetry (mm)",
            "",
            "| case | geometry | iterations | dt (s) | change | kernel vs peer "
            "| peer asymmetry | pocketed | pymunk (s) |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in conv:
            lines.append(
                f"| {r['case']} | {r['geometry']} | {r['iterations']} | {r['dt']:.3g} "
                f"| {_f(r['change_mm'], 3)} | {_f(r['kernel_vs_peer_mm'])} "
                f"| {_f(r['peer_asym_mm'], 3)} | {r['captures']} | {r['pymunk_s']:.1f} |"
            )
    det = result.get("deterministic") or []
    if det:
        lines += [
            "",
            "**Deterministic cases**: the kernel (float32) against the peer at its last step "
            "(converged: `confirm` halvings each within the tolerance, and more iterations "
            "within it too); distances: the largest over the pieces (mm; `differ`: other "
            "pieces pocketed); asymmetry: the largest distance of a piece's end from its mirror "
            "partner's mirrored end (mm); turn: the largest change of the ends when the shot is "
            "turned by 1e-6 rad (mm)",
            "",
            "| case | peer geometry | peer dt (s) | converged (last change; more iterations) "
            "| pocketed: kernel | peer | kernel vs peer: max / mean | kernel vs reference "
            "| reference vs peer | asymmetry: kernel / reference / peer | turn: kernel / peer |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in det:
            lines.append(
                f"| {r['case']} | {r['geometry']} | {r['peer_dt']:.3g} "
                f"| {'yes' if r['peer_converged'] else 'no'} ({_f(r['peer_last_change_mm'], 3)}; "
                f"{_f(r['peer_iteration_change_mm'], 3)}) | {r['kernel_captures']} "
                f"| {r['peer_captures']} | {_f(r['kernel_vs_peer_mm'])} / "
                f"{_f(r['kernel_vs_peer_mean_mm'])} | {_f(r.get('kernel_vs_reference_mm'))} "
                f"| {_f(r.get('reference_vs_peer_mm'))} | {_f(r['kernel_asym_mm'], 4)} / "
                f"{_f(r.get('reference_asym_mm'), 4)} / {_f(r['peer_asym_mm'], 4)} "
                f"| {_f(r.get('kernel_turn_mm'))} / {_f(r.get('peer_turn_mm'))} |"
            )
    ros = [r for r in result.get("rosette") or [] if "z" in r]
    if ros:
        n = ros[0]["n"]
        lines += [
            "",
            f"**Rosette break**: the same {n} noisy shots (club) in both engines; each "
            "probability (or mean) +- its standard error; z = (kernel - pymunk) / SE, SE the "
            "two-sample standard error; discordant: shots the engines call differently",
            "",
            "| pymunk geometry, dt (s) | event | kernel | pymunk | kernel - pymunk | SE | z "
            "| discordant |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in ros:
            lines.append(
                f"| {r['geometry']}, {r['dt']:.3g} | {r['event']} "
                f"| {r['kernel']:.3f} +- {r['kernel_se']:.3f} "
                f"| {r['pymunk']:.3f} +- {r['pymunk_se']:.3f} | {r['diff']:+.3f} "
                f"| {r['se']:.3f} | {_f(r['z'], inf='inf')} | {r['discordant']} |"
            )
        lines.append("")
        for r in result["rosette"]:
            if "z" not in r:
                lines.append(
                    f"pymunk {r['geometry']} at {r['dt']:.3g} s: the same pieces in the same "
                    f"pockets as the kernel in {r['kernel']:.3f} of the shots; truncated: kernel "
                    f"{r['truncated_kernel']}, pymunk {r['truncated_pymunk']}."
                )
    return "\n".join(lines)


def _git() -> dict:
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return {"commit": rev, "uncommitted_changes": bool(dirty)}
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None}


def run(
    cases: tuple[str, ...] = DETERMINISTIC,
    n: int = N_DEFAULT,
    seed: int = 0,
    quick: bool = False,
    rosette: bool = True,
    rosette_dts: tuple[float, ...] = ROSETTE_DTS,
    tol: float = TOL_M,
    physics: Physics = Physics(),
    progress=None,
) -> dict:
    """Every comparison: ``{"deterministic": [...], "convergence": [...], "ends": [...],
    "rosette": [...], "timing": {...}, "settings": {...}}``. ``quick``: :data:`QUICK`'s
    settings (``n`` at most QUICK's, the rosette in pymunk as placed at the first step only)."""
    opts = {
        "max_halvings": MAX_HALVINGS,
        "iterations": ITERATIONS,
        "geometries": GEOMETRIES,
        "with_reference": True,
        "turn": True,
    }
    if quick:
        opts.update({k: v for k, v in QUICK.items() if k != "n"})
        n = min(n, QUICK["n"])
        rosette_dts = rosette_dts[:1]
    out: dict = {"deterministic": [], "convergence": [], "ends": [], "rosette": [], "timing": {}}
    for name in cases:
        t0 = time.perf_counter()
        kw = dict(opts)
        if name == "rosette":
            kw["max_halvings"] = min(kw["max_halvings"], ROSETTE_MAX_HALVINGS)
        res = compare_cluster(name, physics, tol=tol, progress=progress, **kw)
        out["deterministic"] += res["summary"]
        out["convergence"] += res["convergence"]
        out["ends"] += res["ends"]
        out["timing"][f"{name}_s"] = time.perf_counter() - t0
    if rosette:
        t0 = time.perf_counter()
        res = rosette_distribution(
            n, seed, physics, tuple(rosette_dts), opts["geometries"], progress=progress
        )
        out["rosette"] = res["rows"]
        out["timing"].update({f"rosette_{k}": v for k, v in res["timing"].items()})
        out["timing"]["rosette_s"] = time.perf_counter() - t0
    out["n"], out["seed"], out["quick"] = n, seed, quick
    out["settings"] = {
        **{k: v for k, v in opts.items()},
        "rosette_iterations": SOLVER_ITERATIONS,
        "rosette_dts": list(rosette_dts) if rosette else [],
        "tol_m": tol,
        "confirm": CONFIRM,
    }
    return out


def _csv(rows: list[dict]) -> str:
    return pd.DataFrame(rows).to_csv(index=False)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=N_DEFAULT, help="noisy rosette breaks (default 200)")
    ap.add_argument("--seed", type=int, default=0, help="root seed of the kernel's noise")
    ap.add_argument(
        "--out", type=Path, default=Path("data/validation/clusters"), help="output folder"
    )
    ap.add_argument("--quick", action="store_true", help="a small fast run (see QUICK)")
    ap.add_argument(
        "--cases",
        nargs="*",
        default=list(DETERMINISTIC),
        help=f"deterministic cases (default: {' '.join(DETERMINISTIC)}; none: skip them)",
    )
    ap.add_argument("--no-rosette", action="store_true", help="skip the rosette distribution")
    ap.add_argument(
        "--rosette-dts",
        type=float,
        nargs="+",
        default=list(ROSETTE_DTS),
        help="pymunk steps (s) of the rosette distribution (default: DT and DT/2)",
    )
    ap.add_argument("--tol", type=float, default=TOL_M, help="peer convergence tolerance (m)")
    args = ap.parse_args(argv)
    if args.n < 2:
        ap.error(f"--n must be at least 2, not {args.n}")
    if args.seed < 0:
        ap.error(f"--seed must be >= 0, not {args.seed}")
    if not args.tol > 0:
        ap.error(f"--tol must be a positive length in metres, not {args.tol}")
    bad = [c for c in args.cases if c not in DETERMINISTIC]
    if bad:
        ap.error(f"unknown case {bad[0]!r}; known: {', '.join(DETERMINISTIC)}")
    if any(not (dt > 0 and math.isfinite(dt)) for dt in args.rosette_dts):
        ap.error("--rosette-dts must be positive numbers of seconds")
    if args.out.exists() and not args.out.is_dir():
        ap.error(f"--out {args.out} exists and is not a folder")
    try:
        import pymunk
    except ImportError:
        ap.error("pymunk is not installed (pip install pymunk): the peer needs it")
    import jax

    import carromlab

    git = _git()  # the code the run starts with
    t0 = time.perf_counter()
    result = run(
        tuple(args.cases),
        n=args.n,
        seed=args.seed,
        quick=args.quick,
        rosette=not args.no_rosette,
        rosette_dts=tuple(args.rosette_dts),
        tol=args.tol,
        progress=lambda msg: print(f"[{time.perf_counter() - t0:6.0f} s] {msg}", flush=True),
    )
    elapsed = time.perf_counter() - t0
    config = {
        "command": "python experiments/validate_clusters.py " + " ".join(sys.argv[1:]),
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "n": result["n"],
        "seed": args.seed,
        "quick": args.quick,
        "cases": list(args.cases),
        "shot": {
            "origin": [0.0, BASELINE_Y],
            "angle_deg": SHOT_ANGLE_DEG,
            "cluster_speed_m_s": CLUSTER_SPEED,
            "rosette_speed_m_s": ROSETTE_SPEED,
            "rosette_skill": asdict(SKILLS["club"]),
        },
        "peer": {
            "dt_default_s": DT,
            "dts_s": [DT / 2**k for k in range(result["settings"]["max_halvings"] + 1)],
            **result["settings"],
            "pymunk": pymunk.version,
            "chipmunk": pymunk.chipmunk_version,
            "collision_slop_m": COLLISION_SLOP,
            "rest_speed_m_s": REST_SPEED,
        },
        "kernel": {
            "contacts": "cluster (default)",
            "dtype": str(jax.numpy.result_type(float)),
            "max_events": MAX_EVENTS,
            "jax_version": jax.__version__,
            "carromlab": carromlab.__version__,
            **git,
        },
        "reference": {"dtype": "float64", "dt_s": REFERENCE_DT, "contacts": "cluster"},
        "physics": asdict(Physics()),
        "timing_s": {**result["timing"], "total": elapsed},
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, "
        f"python {platform.python_version()}, numpy {np.__version__}",
    }
    out = args.out
    write_atomic(out / "deterministic.csv", _csv(result["deterministic"]))
    write_atomic(out / "convergence.csv", _csv(result["convergence"]))
    write_atomic(out / "ends.csv", _csv(result["ends"]))
    write_atomic(out / "rosette.csv", _csv(result["rosette"]))
    write_atomic(out / "config.json", json.dumps(config, indent=2, default=str) + "\n")
    table = markdown(result)
    write_atomic(out / "summary.md", table + "\n")
    print()
    print(table)
    print(f"\nN = {result['n']}, seed {args.seed}: {elapsed:.0f} s; written to {out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
