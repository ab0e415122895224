"""How well do the ICF players choose a stroke? The immediate value each player's chosen
stroke really has, on positions taken from greedy games.

Positions: every non-break decision of ``--games`` single boards between greedy players at
club (seed ``--seed``), of which ``--positions`` are drawn at random. Each player chooses a
stroke for each position (seed: the position's index); the chosen stroke's value is then
estimated with ``--n`` executions on common keys (the same seed for every player's stroke at
a position, so the comparison is paired). The table gives each player's mean value and its
paired difference to greedy with a t interval; rows per position go to
``data/studies/decisions/values.csv``, the summary to ``summary.csv``.

    python experiments/decision_quality.py --positions 40

Each player's gap to a reference search (the search-based player at ``REFERENCE_TIMES``
its largest budget) is given with its paired t interval; positions are written as they are
valued (``values.partial.csv``), and a rerun resumes.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.intervals import sample_mean
from carromlab.analysis.policies import RACING, Greedy, MapGreedy
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.search import SearchBudget
from carromlab.analysis.variants import analysis_for
from carromlab.games.icf.machine import IcfConfig
from carromlab.games.icf.players import icf_lookahead
from carromlab.play import play_games
from carromlab.play.drivers import one_shot
from carromlab.shots import skill as skill_named

OUT = Path("data/studies/decisions")
RACE = SearchBudget(rounds=RACING.rounds)


#: The search-based player's budgets measured (kernel shots a decision), and the reference's
#: multiple of the largest.
SEARCH_BUDGETS = (4096, 16384)
REFERENCE_TIMES = 10


def players(skill: str, budgets=SEARCH_BUDGETS) -> dict:
    pool = {
        "greedy": Greedy(skill=skill),
        "greedy-big": Greedy(skill=skill, budget=SearchBudget(n_screen=6, keep=8, n_eval=32)),
        "race": Greedy(skill=skill, budget=RACE),
        "race-wide": Greedy(skill=skill, budget=RACING),
        "lookahead": icf_lookahead(skill=skill),
    }
    for b in budgets:
        pool[f"search-{b}"] = MapGreedy(skill=skill, budget=SearchBudget(shots=b))
    return pool


def reference(skill: str, budgets=SEARCH_BUDGETS) -> MapGreedy:
    """The reference search: the search-based player at ``REFERENCE_TIMES`` its largest
    budget."""
    return MapGreedy(skill=skill, budget=SearchBudget(shots=REFERENCE_TIMES * max(budgets)))


def positions(games: int, seed: int, skill: str) -> list:
    """(view, turn) of every non-break decision of greedy single boards."""
    seen = []

    @dataclass(frozen=True, repr=False)
    class Recording(Greedy):
        def plan(self, position, turn=None, seed: int = 0):
            if not getattr(turn, "is_break", False):
                seen.append((position, turn))
            return (yield from super().plan(position, turn, seed))

    play_games(
        [Recording(skill=skill), Recording(skill=skill)],
        IcfConfig(max_boards=1),
        skill=skill,
        games=games,
        seed=seed,
    )
    return seen


def value(view, turn, shot, skill: str, n: int, seed: int) -> float:
    """The mean points of ``n`` executions of ``shot`` (keys from ``seed``)."""
    va = analysis_for(view.variant)
    runner = ShotRunner(va.table_position(view), va.shooter_kind)
    base = one_shot(shot)
    points = [
        va.rules.evaluate(runner.position, ch.outcome, turn)["points"]
        for ch in runner.run(base, n, va.noise(skill_named(skill)), seed)
    ]
    return float(np.concatenate(points).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--games", type=int, default=8, help="greedy boards to draw positions from")
    ap.add_argument("--n", type=int, default=1000, help="executions valuing a chosen stroke")
    ap.add_argument("--skill", default="club")
    ap.add_argument("--seed", type=int, default=123)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--players", default="", help="comma-separated subset of the players")
    args = ap.parse_args()
    t0 = time.perf_counter()
    seen = positions(args.games, args.seed, args.skill)
    rng = np.random.default_rng(args.seed)
    pick = rng.choice(len(seen), size=min(args.positions, len(seen)), replace=False)
    pool = players(args.skill)
    if args.players:
        pool = {k: v for k, v in pool.items() if k in args.players.split(",")}
    pool["reference"] = reference(args.skill)
    rows = []
    done = set()
    part = args.out / "values.partial.csv"
    if part.exists():  # resume: positions already valued
        rows = pd.read_csv(part).to_dict("records")
        done = {int(r["position"]) for r in rows}
    for i, k in enumerate(pick):
        if int(k) in done:
            continue
        view, turn = seen[k]
        row = {"position": int(k), "own_down": turn.own_down, "pieces": len(view.pieces)}
        for name, player in pool.items():
            t = time.perf_counter()
            shot = player.choose(view, turn, seed=int(k))
            row[f"{name}_seconds"] = round(time.perf_counter() - t, 3)
            row[name] = value(view, turn, shot, args.skill, args.n, 99)
        rows.append(row)
        args.out.mkdir(parents=True, exist_ok=True)
        pd.DataFrame(rows).to_csv(part, index=False)
        print(i, json.dumps({key: round(v, 3) for key, v in row.items()}), flush=True)
    table = pd.DataFrame(rows)
    summary = []
    for name in pool:
        mean = sample_mean(table[name])
        diff = sample_mean(table[name] - table["greedy"]) if "greedy" in table else (np.nan,) * 3
        gap = sample_mean(table["reference"] - table[name])
        summary.append(
            {
                "player": name,
                "value": mean[0],
                "value_lo": mean[1],
                "value_hi": mean[2],
                "vs_greedy": diff[0],
                "vs_greedy_lo": diff[1],
                "vs_greedy_hi": diff[2],
                "gap_to_reference": gap[0],
                "gap_lo": gap[1],
                "gap_hi": gap[2],
                "seconds_a_decision": float(table[f"{name}_seconds"].mean()),
                "positions": len(table),
            }
        )
    summary = pd.DataFrame(summary)
    args.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out / "values.csv", index=False)
    part.unlink(missing_ok=True)
    summary.to_csv(args.out / "summary.csv", index=False)
    meta = run_metadata(kind="decision_quality", **{k: str(v) for k, v in vars(args).items()})
    meta["seconds"] = round(time.perf_counter() - t0, 1)
    (args.out / "config.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(summary.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
