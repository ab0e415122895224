"""Physics checks on many noisy breaks: every contact keeps momentum and never raises the
kinetic energy, nothing is NaN, no two discs overlap, no shot is cut short.

ICF breaks (the rosette struck straight up the middle at 5 m/s, club noise), ``--n`` of them
through the batched kernel with every event recorded, in chunks. For every pair event of
every shot (a two-body contact or a whole touching cluster solved at once) the velocities just
before it (the previous row's, slid on by friction to the event) are compared with those just
after it:

- momentum: the largest change of the total momentum at an event, relative to the shot's
  momentum (the striker's at the start), and in kg m/s;
- energy: the largest rise of the kinetic energy, relative to the energy before;
- overlap: the deepest overlap of two live discs in any recorded row (m);
- NaN anywhere; shots truncated at the event cap.

Prints one JSON object (and writes it to ``--out``); exit 1 when a check fails.

    python experiments/break_physics.py --n 100000
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np


def slide(vx, vy, dt, a):
    """Velocities after sliding ``dt`` under friction deceleration ``a`` (a disc stops)."""
    v = np.hypot(vx, vy)
    scale = np.where(v > 0, np.maximum(v - a * dt, 0.0) / np.where(v > 0, v, 1.0), 0.0)
    return vx * scale, vy * scale


def check_chunk(out, trace, mass, radius, a) -> dict:
    """The worst figures of one chunk of recorded shots."""
    t = np.asarray(trace.t, np.float64)  # (B, R)
    x, y = np.asarray(trace.x, np.float64), np.asarray(trace.y, np.float64)  # (B, R, N)
    vx, vy = np.asarray(trace.vx, np.float64), np.asarray(trace.vy, np.float64)
    alive = np.asarray(trace.alive)
    code = np.asarray(trace.event_code)  # (B, R): -1 pair, -2 rest, >=0 one-disc
    rows = np.asarray(trace.n)  # rows written per shot
    _, r, n = x.shape
    written = np.arange(r)[None, :] < rows[:, None]
    # pair events: row k (k >= 1) is the state after the event, row k - 1 before it
    pair = (code == -1) & written
    pair[:, 0] = False
    bi, ki = np.nonzero(pair)
    dt = t[bi, ki] - t[bi, ki - 1]
    px, py = slide(vx[bi, ki - 1], vy[bi, ki - 1], dt[:, None], a)
    live = alive[bi, ki]
    m = np.where(live, mass[None, :], 0.0)
    # the shot's momentum scale: the discs' momenta at the start (the striker's)
    p_shot = (mass[None, :] * np.hypot(vx[:, 0], vy[:, 0])).sum(1)[bi]
    dp = np.hypot((m * (vx[bi, ki] - px)).sum(1), (m * (vy[bi, ki] - py)).sum(1))
    ke_before = 0.5 * (m * (px**2 + py**2)).sum(1)
    ke_after = 0.5 * (m * (vx[bi, ki] ** 2 + vy[bi, ki] ** 2)).sum(1)
    # overlap in every written row
    gap_min = np.inf
    for k in range(r):
        rows_k = written[:, k]
        if not rows_k.any():
            break
        xk, yk, ak = x[rows_k, k], y[rows_k, k], alive[rows_k, k]
        d = np.hypot(xk[:, :, None] - xk[:, None, :], yk[:, :, None] - yk[:, None, :])
        g = d - (radius[:, None] + radius[None, :])[None]
        both = ak[:, :, None] & ak[:, None, :] & ~np.eye(n, dtype=bool)[None]
        if both.any():
            gap_min = min(gap_min, float(g[both].min()))
    finite = (
        all(np.isfinite(np.asarray(v)[np.asarray(out.alive)]).all() for v in (out.x, out.y))
        and np.isfinite(vx[written]).all()
        and np.isfinite(x[written]).all()
    )
    return {
        "pair_events": len(bi),
        "momentum_rel_max": float((dp / p_shot).max(initial=0.0)),
        "momentum_abs_max": float(dp.max(initial=0.0)),
        "energy_rise_rel_max": float(
            ((ke_after - ke_before) / np.maximum(ke_before, 1e-12)).max(initial=-1.0)
        ),
        "overlap_max_m": float(max(0.0, -gap_min)),
        "nan": not finite,
        "truncated": int(np.asarray(out.truncated).sum()),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--chunk", type=int, default=512)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-events", type=int, default=512, help="the kernel's event cap")
    ap.add_argument("--contacts", default="cluster", choices=("cluster", "sequential"))
    ap.add_argument("--out", type=Path, default=Path("data/studies/break_physics.json"))
    a = ap.parse_args(argv)
    if a.n < 1 or a.chunk < 1:
        raise SystemExit("--n and --chunk must be positive")
    from tqdm import tqdm

    from carromlab.analysis.estimate import run_metadata
    from carromlab.bench.runner import scenario_template
    from carromlab.bench.scenarios import scenario
    from carromlab.physics import Physics
    from carromlab.physics.kernel import make_batch_simulator
    from carromlab.shots import noisy_shots, place_shooter, shot_keys

    sc = scenario("break")
    table, template, pieces = scenario_template(sc)
    sim = make_batch_simulator(table, pieces.n, a.max_events, contacts=a.contacts, record=True)
    physics = Physics()
    mass = np.asarray(pieces.mass, np.float64)
    radius = np.asarray(pieces.radius, np.float64)
    decel = physics.mu * physics.g

    @jax.jit
    def discs_for(keys):
        return jax.vmap(place_shooter, in_axes=(None, 0))(
            template, noisy_shots(sc.shot, sc.noise, keys)
        )

    worst: dict = {}
    t0 = time.perf_counter()
    for start in tqdm(range(0, a.n, a.chunk), desc="breaks", unit="chunk"):
        count = min(a.chunk, a.n - start)
        keys = shot_keys(a.seed, start, a.chunk)
        out, trace = sim(discs_for(keys), physics)
        if count < a.chunk:
            out, trace = jax.tree_util.tree_map(lambda v, c=count: v[:c], (out, trace))
        res = check_chunk(out, trace, mass, radius, decel)
        for k, v in res.items():
            if k in ("pair_events", "truncated"):
                worst[k] = worst.get(k, 0) + v
            elif k == "nan":
                worst[k] = worst.get(k, False) or v
            else:
                worst[k] = max(worst.get(k, -math.inf), v)
    worst["seconds"] = round(time.perf_counter() - t0, 1)
    ok = (
        worst["momentum_rel_max"] < 1e-4
        and worst["energy_rise_rel_max"] <= 1e-5
        and worst["overlap_max_m"] <= 1e-5
        and not worst["nan"]
        and worst["truncated"] == 0
    )
    result = run_metadata(
        kind="break_physics",
        n=a.n,
        seed=a.seed,
        contacts=a.contacts,
        max_events=a.max_events,
        dtype=str(jnp.result_type(float)),
        checks=worst,
        ok=ok,
    )
    a.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = a.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(result, indent=2, default=str) + "\n")
    tmp.replace(a.out)
    print(json.dumps(result, default=str))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
