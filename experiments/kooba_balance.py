"""KOOBA balance studies: whole games between greedy players on the throw kernel.

Arms (``data/studies/kooba/<arm>/games.csv``, written as games end, resumable): 2, 3 and 4
players with the standard rules; 2 players with the attack turn off; 2 players Pro. Summaries
with 95 % intervals (Wilson), a CSV and a figure each, in ``data/studies/kooba/``:

- ``seats``: the win rate of each seat (play order after the lag) for 2, 3 and 4 players,
  against the fair share 1/n;
- ``attack``: the first seat's win rate and rounds a game with the attack turn on and off;
- ``pro``: standard vs Pro, the first seat's win rate and rounds a game.

    python experiments/kooba_balance.py --games 300
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pandas as pd

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.games import GameLog, read_log
from carromlab.analysis.intervals import rate, sample_mean
from carromlab.analysis.kooba_play import KoobaGreedy, play_kooba
from carromlab.plot.intervals import save_study_figure
from carromlab.rules.kooba_game import KoobaConfig

OUT = Path("data/studies/kooba")
ARMS = {
    "2p": KoobaConfig(n_players=2),
    "3p": KoobaConfig(n_players=3),
    "4p": KoobaConfig(n_players=4),
    "2p-no-attack": KoobaConfig(n_players=2, attack=False),
    "2p-pro": KoobaConfig(n_players=2, pro=True),
}


def run_arm(folder: Path, config: KoobaConfig, n: int, seed: int, skill: str) -> tuple[float, int]:
    player = KoobaGreedy(skill=skill)
    meta = run_metadata(
        kind="kooba_balance", skill=skill, rules=dict(vars(config)), policy=repr(player), seed=seed
    )
    log = GameLog(folder, meta)
    todo = [g for g in range(n) if g not in log.done()]
    t0 = time.perf_counter()
    if todo:
        play_kooba(config, skill, seed, todo, player, on_game=log.add)
    log.write_parquet()
    return time.perf_counter() - t0, len(todo)


def _games(out: Path, arm: str):
    if not (out / arm / "games.csv").exists():
        return None
    g = read_log(out / arm)[1]
    return g[g["finished"].astype(bool)]


def seats(out: Path) -> pd.DataFrame:
    rows = []
    for arm in ("2p", "3p", "4p"):
        g = _games(out, arm)
        if g is None:
            continue
        n = int(g["players"].iloc[0])
        for seat in range(n):
            row = {"arm": f"{arm} seat {seat + 1}", "players": n, "seat": seat + 1, "games": len(g)}
            row["win"], row["win_lo"], row["win_hi"] = rate(
                int((g["winner"] == seat).sum()), len(g)
            )
            row["fair"] = 1 / n
            rows.append(row)
    return pd.DataFrame(rows)


def compare(out: Path, arms: tuple[str, ...]) -> pd.DataFrame:
    rows = []
    for arm in arms:
        g = _games(out, arm)
        if g is None:
            continue
        row = {"arm": arm, "games": len(g)}
        row["first_wins"], row["first_wins_lo"], row["first_wins_hi"] = rate(
            int((g["winner"] == 0).sum()), len(g)
        )
        row["rounds"], row["rounds_lo"], row["rounds_hi"] = sample_mean(g["rounds"])
        row["tie_breaks"] = float(g["tie_break"].astype(bool).mean())
        rows.append(row)
    return pd.DataFrame(rows)


def summarise(out: Path) -> dict[str, pd.DataFrame]:
    tables = {
        "seats": seats(out),
        "attack": compare(out, ("2p", "2p-no-attack")),
        "pro": compare(out, ("2p", "2p-pro")),
    }
    panels = {
        "seats": [("win", "win_lo", "win_hi", "seat's win rate", None)],
        "attack": [
            ("first_wins", "first_wins_lo", "first_wins_hi", "first seat's win rate", 0.5),
            ("rounds", "rounds_lo", "rounds_hi", "rounds a game", None),
        ],
        "pro": [
            ("first_wins", "first_wins_lo", "first_wins_hi", "first seat's win rate", 0.5),
            ("rounds", "rounds_lo", "rounds_hi", "rounds a game", None),
        ],
    }
    for name, table in tables.items():
        if len(table):
            table.to_csv(out / f"{name}.csv", index=False, float_format="%.4f")
            save_study_figure(
                table, panels[name], f"KOOBA {name}: greedy players", out / f"{name}.png"
            )
    return tables


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")  # figures are files
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skill", default="club")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--arms", default="", help="comma-separated arms (default all)")
    ap.add_argument("--summarise-only", action="store_true")
    args = ap.parse_args()
    chosen = set(args.arms.split(",")) if args.arms else set(ARMS)
    if not args.summarise_only:
        for arm, config in ARMS.items():
            if arm in chosen:
                took, played = run_arm(args.out / arm, config, args.games, args.seed, args.skill)
                print(json.dumps({"arm": arm, "games_played": played, "seconds": round(took, 1)}))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, table in summarise(args.out).items():
        print(f"\n{name}\n{table.to_string(index=False)}")


if __name__ == "__main__":
    main()
