"""The same study on one process and on a Dask cluster started as a user starts one: identical
rows.

Runs ``carromlab study run SPEC`` locally into ``OUT/local``; then starts ``dask scheduler``
and ``--workers`` ``dask worker`` processes (each one thread), runs the same command with
``--executor dask --scheduler tcp://127.0.0.1:PORT`` into ``OUT/dask``, stops the cluster,
and compares every arm's ``games.csv`` and ``boards.csv``, row for row and column for column.
Prints one JSON line (and writes it to ``OUT/executors.json``).

    python experiments/study_executors.py --spec studies/icf-due.toml --games 6 --block 2
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pandas as pd

BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(spec: Path, out: Path, *extra: str) -> float:
    t0 = time.perf_counter()
    cmd = [str(BIN / "carromlab"), "study", "run", str(spec), "--out", str(out), "--json"]
    subprocess.run([*cmd, *extra], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def _wait_for_workers(address: str, n: int, timeout: float = 120) -> None:
    from distributed import Client

    with Client(address, timeout="30s") as c:
        c.wait_for_workers(n, timeout=timeout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", type=Path, default=Path("studies/icf-due.toml"))
    ap.add_argument("--games", type=int, default=6, help="games an arm (overrides the file's)")
    ap.add_argument("--block", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("out/study-executors"))
    args = ap.parse_args()
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    doc = tomllib.loads(args.spec.read_text())
    doc.update(games=args.games, block=args.block, name=f"{doc.get('name', 'study')}-small")
    spec = args.out / "spec.toml"
    spec.write_text(_toml(doc))
    local_s = _run(spec, args.out / "local")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [
        subprocess.Popen(
            [str(BIN / "dask"), "scheduler", "--port", str(port), "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        time.sleep(2)
        for _ in range(args.workers):
            procs.append(
                subprocess.Popen(
                    [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-dashboard"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        _wait_for_workers(address, args.workers)
        dask_s = _run(spec, args.out / "dask", "--executor", "dask", "--scheduler", address)
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            p.wait(timeout=30)
    same = {}
    for arm in sorted(p.name for p in (args.out / "local" / "arms").iterdir()):
        for table in ("games.csv", "boards.csv"):
            a = args.out / "local" / "arms" / arm / table
            b = args.out / "dask" / "arms" / arm / table
            if not a.exists() and not b.exists():
                continue
            fa = pd.read_csv(a).sort_values("game", kind="stable").reset_index(drop=True)
            fb = pd.read_csv(b).sort_values("game", kind="stable").reset_index(drop=True)
            same[f"{arm}/{table}"] = bool(fa.equals(fb)) and len(fa) > 0
    result = {
        "spec": str(args.spec),
        "games_an_arm": args.games,
        "block": args.block,
        "dask_workers": args.workers,
        "local_s": round(local_s, 1),
        "dask_s": round(dask_s, 1),
        "identical": all(same.values()),
        "tables": same,
        "date": time.strftime("%Y-%m-%d"),
    }
    line = json.dumps(result)
    (args.out / "executors.json").write_text(line + "\n")
    print(line)
    sys.exit(0 if result["identical"] else 1)


def _toml(doc: dict, prefix: str = "") -> str:
    """A study document as TOML (plain values, inline tables, arrays of tables)."""

    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(v)

    lines, arrays = [], []
    for k, v in doc.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            arrays.append((k, v))
        else:
            lines.append(f"{k} = {value(v)}")
    for k, items in arrays:
        for item in items:
            lines += ["", f"[[{k}]]", *(f"{a} = {value(b)}" for a, b in item.items())]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
