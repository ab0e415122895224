"""Cross-check the kernel against pymunk on the validation cases (docs/validation.md).

Writes ``<out>/pymunk.csv`` (one row per case, every figure), ``<out>/convergence.csv`` (the
deterministic shots at several pymunk steps), ``<out>/labelling.csv`` (the cluster cases with
the pieces listed in other orders), ``<out>/pymunk.json`` (the configuration: versions, step,
seed, N, cases, timings) and ``<out>/pymunk.md`` (the tables), and prints the tables.

    python experiments/validate_pymunk.py                 # the documented run (N = 200)
    python experiments/validate_pymunk.py --n 40 --cases icf-cut ring-pegs-pass
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from dataclasses import asdict
from pathlib import Path

import pandas as pd

from carromlab.bench.pymunk_peer import (
    COLLISION_SLOP,
    DT,
    RAIL_SEGMENTS,
    REST_SPEED,
    SOLVER_ITERATIONS,
)
from carromlab.bench.validation import (
    CASES,
    CONVERGENCE_DTS,
    LABEL_PYMUNK_FRACTION,
    MAX_EVENTS,
    N_DEFAULT,
    Z_AGREE,
    case_named,
    markdown,
    run_validation,
)
from carromlab.physics import Physics


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=N_DEFAULT, help="noisy shots per case")
    ap.add_argument("--seed", type=int, default=0, help="root seed of the kernel's noise")
    ap.add_argument("--out", type=Path, default=Path("data/validation"), help="output folder")
    ap.add_argument("--dt", type=float, default=DT, help="pymunk's time step (s)")
    ap.add_argument("--cases", nargs="*", default=None, help="case names (default: all)")
    ap.add_argument(
        "--label-n",
        type=int,
        default=None,
        help=f"pymunk shots of the labelling check (default {LABEL_PYMUNK_FRACTION} n; 0 skips)",
    )
    ap.add_argument(
        "--no-convergence", action="store_true", help="skip the time-step convergence check"
    )
    args = ap.parse_args(argv)
    if args.n < 2:
        ap.error("--n must be at least 2")
    import jax
    import pymunk

    cases = tuple(case_named(c) for c in args.cases) if args.cases else CASES
    physics = Physics()
    t0 = time.perf_counter()
    result = run_validation(
        cases,
        n=args.n,
        seed=args.seed,
        physics=physics,
        dt=args.dt,
        convergence_dts=() if args.no_convergence else CONVERGENCE_DTS,
        label_n=args.label_n,
        progress=lambda msg: print(f"[{time.perf_counter() - t0:6.0f} s] {msg}", flush=True),
    )
    elapsed = time.perf_counter() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(result["rows"]).to_csv(args.out / "pymunk.csv", index=False)
    if result["convergence"]:
        pd.DataFrame(result["convergence"]).to_csv(args.out / "convergence.csv", index=False)
    if result["labelling"]:
        pd.DataFrame(result["labelling"]).to_csv(args.out / "labelling.csv", index=False)
    config = {
        "command": "python experiments/validate_pymunk.py " + " ".join(sys.argv[1:]),
        "n": args.n,
        "seed": args.seed,
        "dt": args.dt,
        "convergence_dts": [] if args.no_convergence else list(CONVERGENCE_DTS),
        "label_pymunk_n": args.label_n
        if args.label_n is not None
        else max(1, int(LABEL_PYMUNK_FRACTION * args.n)),
        "z_agree": Z_AGREE,
        "pymunk": {
            "version": pymunk.version,
            "chipmunk": pymunk.chipmunk_version,
            "solver_iterations": SOLVER_ITERATIONS,
            "collision_slop_m": COLLISION_SLOP,
            "rail_segments": RAIL_SEGMENTS,
            "rest_speed_m_s": REST_SPEED,
        },
        "kernel": {
            "dtype": str(jax.numpy.result_type(float)),
            "max_events": MAX_EVENTS,
            "jax_version": jax.__version__,
        },
        "physics": asdict(physics),
        "cases": [asdict(c) for c in cases],
        "elapsed_s": elapsed,
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}, "
        f"python {platform.python_version()}",
    }
    (args.out / "pymunk.json").write_text(json.dumps(config, indent=2) + "\n")
    table = markdown(result)
    (args.out / "pymunk.md").write_text(table + "\n")
    print()
    print(table)
    print(
        f"\n{len(cases)} cases, N = {args.n}, seed {args.seed}, dt {args.dt:g} s: {elapsed:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
