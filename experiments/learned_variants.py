"""Which learned player? Its variants (race shape, shot budget, weight files) against the
search on ICF positions kept apart from the decision-quality positions.

Positions: every decision but the break of ``--games`` greedy club boards with seed
``--seed`` (321: not the 123 of ``experiments/decision_quality.py``, whose 50 positions
measure the chosen player once, so that the choice is not tuned on them), ``--positions``
drawn at random. Each variant plans at each position and its stroke is valued with ``--n``
executions on common keys (``decision_quality.choose_and_value``); the table gives each
variant's mean and its paired difference to the search (``search``: 16,384 kernel shots a
decision) with a t interval. Values are kept per variant and position in
``data/studies/learned-variants/values.csv``: a rerun values only what is missing, so a new
variant costs only its own decisions.

    python experiments/learned_variants.py --variants search,learned,top256
    python experiments/learned_variants.py --variants learned --weights v2=/tmp/v2.npz
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

import decision_quality as dq

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.intervals import sample_mean
from carromlab.analysis.policies import MapGreedy
from carromlab.analysis.search import SearchBudget
from carromlab.registry import get_game

OUT = Path("data/studies/learned-variants")
EVEN = (0.25, 0.25, 0.25, 0.25)


def variants(skill: str, weights: dict[str, str]) -> dict:
    """The variants by name: the search, the registered learned player and changes of it."""
    learned = get_game("icf").make_player("learned", skill=skill)
    pool = {
        "greedy": get_game("icf").make_player("greedy", skill=skill),
        "search": MapGreedy(skill=skill, budget=SearchBudget(shots=16384)),
        "learned": learned,
        "top32": replace(learned, top=32, race_rounds=(8, 2), race_shares=(0.34, 0.33, 0.33)),
        "top64": replace(learned, top=64, race_shares=EVEN),
        "top128": replace(learned, top=128, race_shares=EVEN),
        "top256": replace(learned, top=256, race_rounds=(32, 8, 2), race_shares=EVEN),
        "top1024": replace(learned, top=1024),
        "shots1024": replace(learned, shot_budget=1024),
        "shots1536": replace(learned, shot_budget=1536),
    }
    for name, path in weights.items():
        pool[name] = replace(learned, screen=path)
    return pool


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="search,learned")
    ap.add_argument("--weights", action="append", default=[], metavar="NAME=PATH",
                    help="a weight file as a variant of its own (repeatable)")  # fmt: skip
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--skill", default="club")
    ap.add_argument("--seed", type=int, default=321)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    weights = dict(w.split("=", 1) for w in args.weights)
    pool = variants(args.skill, weights)
    names = args.variants.split(",") + [w for w in weights if w not in args.variants]
    unknown = [n for n in names if n not in pool]
    if unknown:
        raise SystemExit(f"unknown variant {unknown[0]!r}; choose from {', '.join(pool)}")
    game = get_game("icf")
    seen = dq.positions(game, args.games, args.seed, args.skill)
    rng = np.random.default_rng(args.seed)
    pick = [int(k) for k in rng.choice(len(seen), size=min(args.positions, len(seen)),
                                       replace=False)]  # fmt: skip
    path = args.out / "values.csv"
    table = pd.read_csv(path, index_col="position") if path.exists() else pd.DataFrame()
    table = table.reindex(sorted(set(table.index) | set(pick)))
    table.index.name = "position"
    for name in names:
        t0 = time.perf_counter()
        for k in pick:
            if name in table and np.isfinite(table.at[k, name]):
                continue
            view, context = seen[k]
            _, value, seconds = dq.choose_and_value(
                game, pool[name], view, context, args.skill, args.n, k
            )
            table.loc[k, [name, f"{name}_seconds"]] = value, round(seconds, 3)
        args.out.mkdir(parents=True, exist_ok=True)
        table.to_csv(path)
        print(json.dumps({"variant": name, "s": round(time.perf_counter() - t0, 1)}), flush=True)
    rows = table.loc[pick]
    summary = []
    for name in [c for c in rows if not c.endswith("_seconds") and rows[c].notna().all()]:
        mean = sample_mean(rows[name])
        vs = sample_mean(rows[name] - rows["search"]) if "search" in rows else (np.nan,) * 3
        summary.append({"variant": name, "value": mean[0], "vs_search": vs[0],
                        "vs_search_lo": vs[1], "vs_search_hi": vs[2],
                        "seconds_a_decision": rows[f"{name}_seconds"].mean(),
                        "positions": len(rows)})  # fmt: skip
    summary = pd.DataFrame(summary)
    summary.to_csv(args.out / "summary.csv", index=False)
    meta = run_metadata(kind="learned_variants", **{k: str(v) for k, v in vars(args).items()})
    (args.out / "config.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(summary.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
