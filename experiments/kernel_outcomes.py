"""Every outcome array of the kernel on every board family, written or compared bit for bit.

The kernel's shots of the pymunk cross-check's cases (``carromlab.bench.validation.CASES``: the
ICF cut and break, the Carroms break, Carrooka's bank and break, Force Out's peg shot, Circle
Scores' hole, Ring Pegs' pass: every board family and every kind of wall) are run with noise
through the shot runner three ways - refilling lanes (the default), the plain batch simulator
(``lanes=0``), and the sequential contact model - plus a few recorded shots (the ``Trace``);
every array is stored in one ``.npz`` (``--write``) or compared exactly with one
(``--against``). Run it once in float32 and once with ``--x64`` (float64): a refactoring of
the kernel that leaves every number the same passes both.

    python experiments/kernel_outcomes.py --write /tmp/before32.npz --n 600
    python experiments/kernel_outcomes.py --against /tmp/before32.npz --n 600
    python experiments/kernel_outcomes.py --x64 --write /tmp/before64.npz --n 200

One line per case and way (``same`` or ``DIFFERENT: <arrays>``), then a JSON summary; exit
status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", help="write the outcomes to this .npz")
    what.add_argument("--against", help="compare the outcomes with this .npz")
    ap.add_argument("--n", type=int, default=600, help="shots per case and way (default 600)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--x64", action="store_true", help="float64 (jax_enable_x64)")
    ap.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    args = ap.parse_args(argv)
    if args.x64:
        os.environ["JAX_ENABLE_X64"] = "1"
    import jax

    if args.x64:
        jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import numpy as np

    from carromlab.analysis.runner import ShotRunner
    from carromlab.analysis.variants import analysis_for
    from carromlab.bench.validation import CASES, MAX_EVENTS, kernel_shots, prepare
    from carromlab.physics.kernel import make_batch_simulator
    from carromlab.shots import Shot, place_shooter

    cases = [c for c in CASES if not args.cases or c.name in args.cases.split(",")]
    arrays: dict[str, np.ndarray] = {}
    t0 = time.perf_counter()
    for case in cases:
        prep = prepare(case, args.n)
        kind = analysis_for(prep.runner.position.variant).shooter_kind
        pos, common = prep.runner.position, dict(chunk=args.n, max_events=MAX_EVENTS)
        ways = {
            "lanes": prep.runner,
            "batch": ShotRunner(pos, kind, lanes=0, **common),
            "sequential": ShotRunner(pos, kind, contacts="sequential", **common),
        }
        for way, runner in ways.items():
            for ch in runner.run(prep.base, args.n, prep.noise, args.seed):
                for k, v in ch.outcome.items():
                    arrays[f"{case.name}/{way}/{k}"] = np.asarray(v)
        # a few recorded shots: the trace rows
        # the runner's discs are padded to their bucket: the recorder takes the same count
        n_discs = int(prep.runner.template.x.shape[0])
        sim = make_batch_simulator(prep.table, n_discs, MAX_EVENTS, record=True)
        shots, _ = kernel_shots(prep, args.n, args.seed)
        dtype = prep.runner.template.x.dtype
        shot = Shot(*(jnp.asarray(shots[k][:8], dtype) for k in ("x", "y", "angle", "speed")))
        batch = jax.vmap(place_shooter, in_axes=(None, 0))(prep.runner.template, shot)
        out, trace = sim(batch, prep.runner.physics)
        for k, v in {**_fields(out, "out"), **_fields(trace, "trace")}.items():
            arrays[f"{case.name}/record/{k}"] = np.asarray(v)
    seconds = time.perf_counter() - t0
    bits = "float64" if args.x64 else "float32"
    if args.write:
        np.savez_compressed(args.write, **arrays)
        print(
            json.dumps(
                {
                    "wrote": args.write,
                    "arrays": len(arrays),
                    "dtype": bits,
                    "seconds": round(seconds, 1),
                }
            )
        )
        return 0
    ref = np.load(args.against)
    bad = []
    for name in sorted({k.rsplit("/", 1)[0] for k in arrays}):
        keys = sorted(k for k in arrays if k.startswith(name + "/"))
        diff = [
            k.rsplit("/", 1)[1]
            for k in keys
            if k not in ref
            or ref[k].shape != arrays[k].shape
            or ref[k].dtype != arrays[k].dtype
            or not np.array_equal(ref[k], arrays[k], equal_nan=ref[k].dtype.kind == "f")
        ]
        missing = [k for k in ref.files if k.startswith(name + "/") and k not in arrays]
        ok = not diff and not missing
        print(f"{name}: {'same' if ok else 'DIFFERENT: ' + ', '.join(diff + missing)}")
        bad += [] if ok else [name]
    print(
        json.dumps(
            {
                "against": args.against,
                "arrays": len(arrays),
                "dtype": bits,
                "different": bad,
                "seconds": round(seconds, 1),
            }
        )
    )
    return 1 if bad else 0


def _fields(tree, prefix):
    import dataclasses

    return {f"{prefix}.{f.name}": getattr(tree, f.name) for f in dataclasses.fields(tree)}


if __name__ == "__main__":
    sys.exit(main())
