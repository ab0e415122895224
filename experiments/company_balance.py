"""Balance studies of the Carrom Company games: whole games between greedy players.

Each *arm* is a folder ``data/studies/company/<arm>/`` with ``games.csv`` written as games end
(:func:`carromlab.play.play_logged`: a rerun skips what is there). Player 0 starts
every game (breaks at Carroms, shoots first elsewhere). Summaries with 95 % intervals (Wilson
for rates, t for means), each a CSV and a figure in ``data/studies/company/``:

- ``force-out``: the first player's win rate in Force Out and in Fast Play Force Out (club),
  with the winner's margin and strokes a game;
- ``carroms``: the breaker's win rate (club), points, boards and strokes a game; the arm
  ``carroms-break`` plays the same with the searched break for both players;
- ``ring-pegs``: turns to finish by skill - the winner's turns, and the first player's win rate;
- ``circle-scores``: the first player's win rate and points a shot (club).

    python experiments/company_balance.py --games 300
    python experiments/company_balance.py --summarise-only
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.intervals import rate, sample_mean
from carromlab.play import play_logged, read_log
from carromlab.plot.intervals import save_study_figure

OUT = Path("data/studies/company")
SKILLS = ("novice", "club", "expert", "pro")


def arms() -> dict:
    """Arm -> (variant, skill, player factory, config factory)."""
    # the crokinole side's ring-out player: Force Out's, Fast Play's and Circle Scores'
    from carromlab.analysis.crokinole import ForceOutGreedy
    from carromlab.analysis.policies import RACING
    from carromlab.games.carroms.machine import CarromsConfig
    from carromlab.games.carroms.players import CarromsGreedy
    from carromlab.games.circle_scores.machine import CircleScoresConfig
    from carromlab.games.force_out.machine import ForceOutConfig
    from carromlab.games.ring_pegs.machine import RingPegsConfig
    from carromlab.games.ring_pegs.players import RingPegsGreedy

    out = {
        "force-out": ("club", ForceOutGreedy(), ForceOutConfig()),
        "force-out-fast": ("club", ForceOutGreedy(), ForceOutConfig(fast=True)),
        "carroms": ("club", CarromsGreedy(), CarromsConfig()),
        # the stronger player: both play the searched break of their seat (greedy-break)
        "carroms-break": ("club", CarromsGreedy(break_shot="search"), CarromsConfig()),
        # the stronger player: racing twice the candidates (the ICF greedy-race's budget)
        "force-out-race": ("club", ForceOutGreedy(budget=RACING), ForceOutConfig()),
        "force-out-fast-race": ("club", ForceOutGreedy(budget=RACING), ForceOutConfig(fast=True)),
        "circle-scores": ("club", ForceOutGreedy(), CircleScoresConfig()),
    }
    for s in SKILLS:
        out[f"ring-pegs-{s}"] = (s, RingPegsGreedy(skill=s), RingPegsConfig())
    return out


def run_arm(folder: Path, skill, player, config, n: int, seed: int) -> tuple[float, int]:
    if hasattr(player, "skill"):
        player = type(player)(**{**vars(player), "skill": skill})
    meta = run_metadata(
        kind="company_balance",
        variant=config.variant,
        skill=skill,
        rules={k: v for k, v in vars(config).items() if k != "board"},
        policy=repr(player),
        seed=seed,
    )
    t0 = time.perf_counter()
    _, todo = play_logged(folder, meta, [player, player], config, skill, seed, n, progress=True)
    return time.perf_counter() - t0, len(todo)


def _games(out: Path, arm: str) -> pd.DataFrame | None:
    if not (out / arm / "games.csv").exists():
        return None
    games = read_log(out / arm)[1]
    return games[games["finished"].astype(bool)].reset_index(drop=True)


def _cols(row: dict, name: str, est) -> None:
    row[name], row[f"{name}_lo"], row[f"{name}_hi"] = est


def _first(row, g) -> None:
    decided = g[g["winner"] >= 0]
    _cols(row, "first_wins", rate(int((decided["winner"] == 0).sum()), len(decided)))
    row["draws"] = int((g["winner"] < 0).sum())


def _per_arm(out: Path, arms: tuple[str, ...], means: tuple[str, ...]) -> pd.DataFrame:
    """One row per arm that has games: the first player's win rate, the winner's margin and
    the means of ``means`` (columns of the games table), each with its interval."""
    rows = []
    for arm in arms:
        g = _games(out, arm)
        if g is None:
            continue
        row = {"arm": arm, "games": len(g)}
        _first(row, g)
        _cols(row, "margin", sample_mean((g["score_0"] - g["score_1"]).abs()))
        for column in means:
            _cols(row, column, sample_mean(g[column]))
        rows.append(row)
    return pd.DataFrame(rows)


def force_out(out: Path) -> pd.DataFrame:
    arms = ("force-out", "force-out-fast", "force-out-race", "force-out-fast-race")
    return _per_arm(out, arms, ("strokes", "penalties"))


def carroms(out: Path) -> pd.DataFrame:
    return _per_arm(out, ("carroms", "carroms-break"), ("boards", "strokes", "fouls"))


def ring_pegs(out: Path) -> pd.DataFrame:
    rows = []
    for s in SKILLS:
        g = _games(out, f"ring-pegs-{s}")
        if g is None:
            continue
        won = g[g["winner"] >= 0]
        turns = np.where(won["winner"] == 0, won["turns_0"], won["turns_1"])
        row = {"arm": s, "games": len(g)}
        _cols(row, "turns_to_finish", sample_mean(turns))
        _first(row, g)
        _cols(row, "strokes", sample_mean(g["strokes"]))
        if "clearing_hits" in g:  # a clearing hit keeps the turn (rules decision 4)
            _cols(row, "clearing_hits", sample_mean(g["clearing_hits"]))
        rows.append(row)
    return pd.DataFrame(rows)


def circle_scores(out: Path) -> pd.DataFrame:
    g = _games(out, "circle-scores")
    if g is None:
        return pd.DataFrame()
    row = {"arm": "circle-scores", "games": len(g)}
    _first(row, g)
    per_shot = (g["score_0"] + g["score_1"]) / g["strokes"]
    _cols(row, "points_a_shot", sample_mean(per_shot))
    _cols(row, "rings_out", sample_mean(g["rings_out"]))
    return pd.DataFrame([row])


TABLES = {
    "force-out": (
        force_out,
        [("first_wins", "first player's win rate", 0.5), ("strokes", "strokes a game", None)],
    ),
    "carroms": (
        carroms,
        [("first_wins", "breaker's win rate", 0.5), ("boards", "boards a game", None)],
    ),
    "ring-pegs": (
        ring_pegs,
        [
            ("turns_to_finish", "winner's turns", None),
            ("first_wins", "first player's win rate", 0.5),
        ],
    ),
    "circle-scores": (
        circle_scores,
        [("first_wins", "first player's win rate", 0.5), ("points_a_shot", "points a shot", None)],
    ),
}


def summarise(out: Path) -> dict[str, pd.DataFrame]:
    tables = {}
    for name, (fn, panels) in TABLES.items():
        table = fn(out)
        tables[name] = table
        if not len(table):
            continue
        table.to_csv(out / f"{name}.csv", index=False, float_format="%.4f")
        panels = [(c, f"{c}_lo", f"{c}_hi", what, ref) for c, what, ref in panels]
        save_study_figure(table, panels, f"{name}: greedy players", out / f"{name}.png")
    return tables


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")  # figures are files
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="whole games per arm")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--arms", default="", help="comma-separated arms to run (default all)")
    ap.add_argument("--summarise-only", action="store_true")
    args = ap.parse_args()
    known = arms()
    chosen = set(args.arms.split(",")) if args.arms else set(known)
    unknown = chosen - set(known)
    if unknown:
        ap.error(f"unknown arms {sorted(unknown)}; known: {', '.join(known)}")
    if not args.summarise_only:
        for arm, (skill, player, config) in known.items():
            if arm in chosen:
                took, played = run_arm(args.out / arm, skill, player, config, args.games, args.seed)
                print(json.dumps({"arm": arm, "games_played": played, "seconds": round(took, 1)}))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, table in summarise(args.out).items():
        print(f"\n{name}\n{table.to_string(index=False)}")


if __name__ == "__main__":
    main()
