"""How many random shots from the packed openings reach the kernel's event cap?

From each packed opening (Carrooka, Carroms, ICF), ``--n`` shots with a random legal origin
(the game's placements), a random direction (every way for Carrooka's break line, 30-150
degrees from a line) and a random speed (1-6 m/s), club noise, through the analysis runner
(the default contact model and hand-set openings, or ``--contacts``/``--hand-set``) at each
``--caps`` event cap: the truncated shots. Prints one JSON object.

    python experiments/opening_truncation.py --n 10240
"""

from __future__ import annotations

import argparse
import json

import numpy as np

OPENINGS = {"carrooka": "carrooka-opening", "carroms": "carroms-opening", "icf": "icf-opening"}


def random_cells(game: str, position, n: int, rng):
    """(x, y, angle rad, speed) arrays of ``n`` random legal shots."""
    from carromlab.analysis.variants import analysis_for

    va = analysis_for(position.variant)
    lo, hi = (-180.0, 180.0) if game == "carrooka" else (-0.15, 0.15)
    xs, ys = va.origin(position, rng.uniform(lo, hi, 4 * n))
    ok = va.legal_origin(position, xs, ys)
    xs, ys = xs[ok][:n], ys[ok][:n]
    if game == "carrooka":
        angle = np.radians(rng.uniform(0, 360, n))
    else:
        angle = np.radians(rng.uniform(30, 150, n))
    return xs, ys, angle, rng.uniform(1.0, 6.0, n)


def main(argv=None) -> int:
    from carromlab.analysis.runner import ShotRunner
    from carromlab.analysis.variants import analysis_for
    from carromlab.registry import standard_position
    from carromlab.shots import Shot, skill

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--n", type=int, default=10_240)
    ap.add_argument("--caps", default="512,4096")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--contacts", default="cluster", choices=("cluster", "sequential"))
    ap.add_argument("--hand-set", type=float, default=None, help="m; default: the package's")
    a = ap.parse_args(argv)
    if a.n < 1:
        raise SystemExit("--n must be positive")
    caps = [int(c) for c in a.caps.split(",")]
    out = {"n": a.n, "contacts": a.contacts, "hand_set": a.hand_set, "truncated": {}}
    for game, name in OPENINGS.items():
        pos = standard_position(name)
        va = analysis_for(pos.variant)
        xs, ys, ang, sp = random_cells(game, pos, a.n, np.random.default_rng(a.seed))
        cells = Shot(xs, ys, ang, sp)
        noise = va.noise(va.preset(skill("club")))
        out["truncated"][game] = {}
        for cap in caps:
            runner = ShotRunner(
                va.table_position(pos),
                va.shooter_kind,
                max_events=cap,
                contacts=a.contacts,
                hand_set=a.hand_set,
            )
            t = sum(
                int(np.asarray(ch.outcome["truncated"]).sum())
                for ch in runner.run(cells, 1, noise, a.seed)
            )
            out["truncated"][game][str(cap)] = t
        out["truncated"][game]["shots"] = len(xs)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
