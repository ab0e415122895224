"""Does the striker's own sliding friction matter? (``Physics.striker_friction``, docs/physics.md
"Per-piece sliding friction".)

The best shot of a mid-game ICF position under the one-friction model (``carromlab best``'s
search, default physics), then that same shot executed ``--n`` times with the striker's
friction at each multiple of the coins' in ``--k`` (the same seed: common random numbers, so
the columns differ by the friction alone): the pot rate, the striker pocketed (a foul), and
the points a stroke, each with its 95 % interval.

    python experiments/striker_friction.py --n 20000        # writes data/physics/striker-friction.csv
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "physics" / "striker-friction.csv"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--position", default="icf-midgame")
    ap.add_argument("--k", default="0.7,1.0,1.4", help="the striker's friction multiples")
    ap.add_argument("--n", type=int, default=20000, help="executions a setting")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)

    import pandas as pd

    import carromlab as cl
    from carromlab.analysis.variants import analysis_for
    from carromlab.physics import Physics
    from carromlab.shots import Shot

    pos = cl.standard_position(args.position)
    t0 = time.perf_counter()
    best = cl.best_shots(pos, n_final=2000, top_k=1, seed=args.seed)
    top = best.iloc[0]
    xs, ys = analysis_for(pos.variant).origin(pos, [float(top["placement"])])
    shot = Shot(float(xs[0]), float(ys[0]), math.radians(float(top["angle"])), float(top["speed"]))
    keep = ("own_pocketed", "opponent_pocketed", "striker_pocketed", "foul", "points")
    parts = []
    for k in (float(v) for v in args.k.split(",")):
        df = cl.estimate(pos, shot, n=args.n, seed=args.seed, physics=Physics(striker_friction=k))
        parts.append(df[df["quantity"].isin(keep)].assign(striker_friction=k))
    table = pd.concat(parts, ignore_index=True)
    cols = ["striker_friction", "quantity", "estimate", "lo", "hi", "n"]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    table[cols].to_csv(out, index=False)
    shown = table.assign(cell=[f"{e:.3f} [{lo:.3f}, {hi:.3f}]" for e, lo, hi in
                               zip(table["estimate"], table["lo"], table["hi"], strict=True)])  # fmt: skip
    print(shown.pivot(index="quantity", columns="striker_friction", values="cell").to_string())
    print(
        json.dumps(
            {
                "position": args.position,
                "shot": {c: float(top[c]) for c in ("placement", "angle", "speed")},
                "n": args.n,
                "seconds": round(time.perf_counter() - t0, 1),
                "wrote": str(out),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
