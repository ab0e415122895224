"""The kernel against an older commit's, alternating, in one run (docs/benchmarks.md).

    python experiments/bench_old_new.py --old 8e1ea36 --rounds 2 \
        --case cut:200000 --case break:40000 --out data/benchmarks/DATE-old-vs-new.jsonl

Each round runs every case with the old commit (a git worktree in a temporary folder, run
with ``PYTHONPATH`` on this environment) and then with this tree, one after the other, each
``carromlab bench --scenario S --batch N --json`` in its own process; ``--extra`` passes more
options to both (``--lanes 512``). Every result is one JSON line (with ``commit`` and
``round``) appended to ``--out`` as it comes, and a summary of new / old per case is printed.
Nothing else should run on the machine meanwhile.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bench(cwd: Path, scenario: str, batch: int, extra: list[str]) -> dict:
    args = [sys.executable, "-m", "carromlab", "bench", "--scenario", scenario]
    args += ["--batch", str(batch), "--json", *extra]
    env = {"PYTHONPATH": str(cwd)}
    import os

    res = subprocess.run(
        args, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, check=False
    )
    if res.returncode != 0:
        sys.exit(f"bench failed in {cwd}: {res.stderr.strip().splitlines()[-1:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def head(cwd: Path) -> str:
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=cwd, capture_output=True, text=True
    ).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="the older commit")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--case", action="append", required=True, help="SCENARIO:BATCH")
    ap.add_argument("--extra", default="", help="more bench options for both")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    cases = [(c.split(":")[0], int(c.split(":")[1])) for c in a.case]
    extra = shlex.split(a.extra)
    new_label = head(ROOT) + ("+" if subprocess.run(
        ["git", "diff", "--quiet", "HEAD", "--", "carromlab"], cwd=ROOT
    ).returncode else "")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-f", str(old), a.old],
            cwd=ROOT, check=True, capture_output=True,
        )  # fmt: skip
        rates: dict[tuple[str, str], list[float]] = {}
        try:
            for r in range(a.rounds):
                for scenario, batch in cases:
                    for label, cwd in ((a.old, old), (new_label, ROOT)):
                        d = bench(cwd, scenario, batch, extra)
                        d.update(commit=label, round=r + 1)
                        with a.out.open("a") as f:
                            f.write(json.dumps(d) + "\n")
                        rates.setdefault((f"{scenario}:{batch}", label), []).append(
                            d["shots_per_s"]
                        )
                        print(
                            f"round {r + 1} {scenario} {batch} {label}: "
                            f"{d['shots_per_s']:,.0f} shots/s (chunk {d['chunk']}, "
                            f"lanes {d['lanes']})",
                            flush=True,
                        )
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT)
    summary = {}
    for case, _ in ((f"{s}:{b}", None) for s, b in cases):
        o, n = rates[(case, a.old)], rates[(case, new_label)]
        summary[case] = {
            "old": [round(x) for x in o],
            "new": [round(x) for x in n],
            "new_over_old": [round(y / x, 3) for x, y in zip(o, n, strict=True)],
        }
    print(json.dumps({"old": a.old, "new": new_label, "cases": summary}))


if __name__ == "__main__":
    main()
