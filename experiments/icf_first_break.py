"""First-break advantage in ICF singles: how often does the breaker win the board?

Plays single boards (greedy policy for both players, one skill) and writes, as it goes, one
row per board to ``boards.csv`` in the output folder; a rerun skips the boards already there
(resumable). At the end it writes ``summary.csv`` (the breaker's board-win rate per skill with
a Wilson interval) and ``summary.png``.

    python experiments/icf_first_break.py --boards 200 --skills novice,club,expert
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis.games import play_game
from carromlab.analysis.intervals import wilson
from carromlab.analysis.policies import Greedy
from carromlab.rules.icf_game import IcfGameConfig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20)
    ap.add_argument("--skills", default="club")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("data/studies/icf_first_break"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "boards.csv"
    done = pd.read_csv(path) if path.exists() else pd.DataFrame()
    fields = ["skill", "board", "seed", "breaker_won", "points", "strokes"]
    new_file = not path.exists()
    with path.open("a", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        if new_file:
            writer.writeheader()
        for skill in args.skills.split(","):
            have = set(done[done["skill"] == skill]["board"]) if len(done) else set()
            policy = Greedy(skill=skill)
            for b in range(args.boards):
                if b in have:
                    continue
                rec = play_game(
                    [policy, policy],
                    IcfGameConfig(max_boards=1),
                    skill=skill,
                    seed=args.seed,
                    game=b,
                )
                row = rec.boards.iloc[0]
                writer.writerow(
                    {
                        "skill": skill,
                        "board": b,
                        "seed": args.seed,
                        "breaker_won": int(row["winner"] == row["breaker"]),
                        "points": int(row["points"]),
                        "strokes": int(row["strokes"]),
                    }
                )
                fh.flush()
                print(
                    f"{skill} board {b}: breaker won={row['winner'] == row['breaker']}", flush=True
                )
    summarise(args.out)


def summarise(out: Path) -> pd.DataFrame:
    boards = pd.read_csv(out / "boards.csv")
    g = boards.groupby("skill")
    k, n = g["breaker_won"].sum(), g["breaker_won"].count()
    lo, hi = wilson(k.to_numpy(), n.to_numpy())
    summary = pd.DataFrame(
        {
            "skill": k.index,
            "boards": n.to_numpy(),
            "breaker_wins": k.to_numpy(),
            "breaker_win_rate": (k / n).to_numpy(),
            "lo": lo,
            "hi": hi,
            "mean_points": g["points"].mean().to_numpy(),
            "mean_strokes": g["strokes"].mean().to_numpy(),
        }
    )
    summary.to_csv(out / "summary.csv", index=False)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.5))
    x = np.arange(len(summary))
    rate = summary["breaker_win_rate"].to_numpy()
    err = np.vstack([rate - summary["lo"], summary["hi"] - rate])
    ax.errorbar(x, rate, yerr=err, fmt="o", capsize=4)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x, summary["skill"])
    ax.set_ylim(0, 1)
    ax.set_ylabel("breaker's board-win rate (95 % Wilson)")
    ax.set_title("ICF singles, greedy players")
    fig.savefig(out / "summary.png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    return summary


if __name__ == "__main__":
    main()
