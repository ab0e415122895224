"""Time to the first answer, compile included: one JSON line per measurement.

    python experiments/first_answer.py            # all, in a fresh cache folder
    python experiments/first_answer.py --repeat 3

1. ``carromlab estimate --position icf-midgame ... --n 2000`` in a new process (wall, Python
   start included): with an empty cache, then again with the cache filled (``--repeat``
   times);
2. in one Python process: an estimate on icf-midgame, then one on another ICF position with
   fewer coins and another skill: the second's seconds and how many kernel programs it
   compiled;
3. the demo's 13 x 61-cell shot map at 200 shots a cell in a new process with the cache
   filled (wall).

The cache is a fresh temporary folder (``CARROMLAB_CACHE_DIR``), so nothing of the user's is
touched and "empty" is empty. Run on a quiet machine: the figures are wall-clock.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ESTIMATE = [
    "estimate",
    "--position",
    "icf-midgame",
    "--placement",
    "-0.05",
    "--angle",
    "65.9",
    "--speed",
    "2",
    "--skill",
    "club",
    "--n",
    "2000",
    "--seed",
    "1",
    "--json",
]
SHOTMAP = [
    "shotmap",
    "--position",
    "icf-midgame",
    "--placements=-0.18:0.18:13",
    "--angles",
    "30:150:61",
    "--speeds",
    "2",
    "--n",
    "200",
    "--skill",
    "club",
]

IN_PROCESS = """
import json, time
import numpy as np
import carromlab as cl
from carromlab.analysis.estimate import estimate
from carromlab.physics.programs import compile_totals, programs
from carromlab.registry import standard_position
from carromlab.shots import Shot

mid = standard_position("icf-midgame")
shot = Shot(x=np.float64(-0.05), y=np.float64(0.0), angle=np.radians(65.9), speed=np.float64(2.0))
from carromlab.analysis.variants import analysis_for
va = analysis_for("icf")
x, y = va.origin(mid, [-0.05])
shot = Shot(x=np.float64(x[0]), y=np.float64(y[0]), angle=np.radians(65.9), speed=np.float64(2.0))
t = time.perf_counter(); estimate(mid, shot, skill="club", n=2000, seed=1)
first = time.perf_counter() - t
coins = [p for p in mid.pieces if p.kind != "queen"]
fewer = mid.replace(pieces=[p for p in mid.pieces if p.kind == "queen"] + coins[: len(coins) - 4])
before = compile_totals(); progs = len(programs())
t = time.perf_counter(); estimate(fewer, shot, skill="expert", n=2000, seed=2)
second = time.perf_counter() - t
after = compile_totals()
print(json.dumps({"first_s": round(first, 3), "second_s": round(second, 3),
    "second_pieces": len(fewer.pieces), "first_pieces": len(mid.pieces),
    "second_new_programs": len(programs()) - progs,
    "second_xla_compiles": after["compiles"] - before["compiles"] - (after["cache_hits"] - before["cache_hits"]),
    "second_cache_reads": after["cache_hits"] - before["cache_hits"]}))
"""


def wall(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    t0 = time.perf_counter()
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"failed: {' '.join(cmd)}\n{run.stderr[-2000:]}")
    return round(time.perf_counter() - t0, 3), run.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    cli = [str(Path(sys.executable).with_name("carromlab"))]
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "CARROMLAB_CACHE_DIR": tmp}
        env.pop("JAX_COMPILATION_CACHE_DIR", None)
        common = {
            "date": datetime.date.today().isoformat(),
            "machine": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "cores_used": env.get("CARROMLAB_CORES", "all"),
        }
        cold, _ = wall(cli + ESTIMATE, env)
        warm = [wall(cli + ESTIMATE, env)[0] for _ in range(a.repeat)]
        print(
            json.dumps(
                {
                    **common,
                    "what": "estimate n=2000, new process",
                    "empty_cache_s": cold,
                    "filled_cache_s": warm,
                    "goal_s": 3.0,
                }
            ),
            flush=True,
        )
        run = subprocess.run(
            [sys.executable, "-c", IN_PROCESS], env=env, capture_output=True, text=True
        )
        if run.returncode:
            sys.exit(run.stderr[-2000:])
        got = json.loads(run.stdout.strip().splitlines()[-1])
        print(
            json.dumps(
                {**common, "what": "two estimates in one process", **got, "goal_second_s": 0.3}
            ),
            flush=True,
        )
        out = Path(tmp) / "map"
        wall(cli + SHOTMAP + ["--out", str(out / "first")], env)  # (fills the cache)
        maps = [
            wall(cli + SHOTMAP + ["--out", str(out / f"m{k}")], env)[0] for k in range(a.repeat)
        ]
        print(
            json.dumps(
                {
                    **common,
                    "what": "shot map 13 x 61 x 200, new process, warm cache",
                    "filled_cache_s": maps,
                    "goal_s": 10.0,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
