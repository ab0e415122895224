"""Carrooka rule-balance studies: whole games between greedy players on the real kernel.

Each *arm* (a skill and rule setting) is a folder ``data/studies/carrooka/<arm>/`` with
``games.csv`` written as games end (:class:`carromlab.play.GameLog`: a rerun skips
what is there). Player 0 breaks in every game. The summaries, each a CSV with 95 %
intervals plus a figure in ``data/studies/carrooka/``:

- ``first-player``: the breaker's (player 0's) win rate at each skill (Wilson), pooled; and
  with the stronger player (``club-break``: both play the searched break).
- ``bonus``: the bonus shot after a foul on vs off (club; and ``club-break`` vs
  ``club-break-no-bonus`` with the searched break): the breaker's win rate, the
  winner's margin, strokes and fouls a game (t intervals), and the points of a turn that
  follows a foul (a ratio over games; percentile bootstrap over games, 2,000 resamples).
- ``breaks``: break size by skill - the points of one turn (mean, t interval over turns),
  the share of turns that score, and the game's longest break.
- ``carrookad``: for every Carrooka'd decision of every arm, which option the greedy player
  valued best (break line / free counter / pass), as shares with Wilson intervals.

    python experiments/carrooka_balance.py --games 400
    python experiments/carrooka_balance.py --arms club-break,club-break-no-bonus --games 400
    python experiments/carrooka_balance.py --summarise-only
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
from carromlab.games.carrooka.machine import OPTIONS, CarrookaConfig
from carromlab.games.carrooka.players import CarrookaGreedy
from carromlab.play import play_logged, read_log
from carromlab.plot.intervals import save_study_figure

OUT = Path("data/studies/carrooka")
SKILLS = ("novice", "club", "expert", "pro")
#: Arm -> (skill, rule options, player options). The ``-break`` arms: both players play the
#: searched break (``CarrookaGreedy(break_shot="search")``, the registry's ``greedy-break``).
ARMS = {
    **{s: (s, {}, {}) for s in SKILLS},
    "club-no-bonus": ("club", {"bonus_shot": False}, {}),
    "club-break": ("club", {}, {"break_shot": "search"}),
    "club-break-no-bonus": ("club", {"bonus_shot": False}, {"break_shot": "search"}),
}


def run_arm(
    folder: Path, skill: str, rules: dict, n: int, seed: int, player: dict | None = None
) -> tuple[float, int]:
    """Play games ``0..n-1`` of one arm (skipping those already logged); (seconds, games)."""
    config = CarrookaConfig(**rules)
    policy = CarrookaGreedy(skill=skill, **(player or {}))
    meta = run_metadata(
        kind="carrooka_balance",
        skill=skill,
        rules={k: v for k, v in vars(config).items() if k != "board"},
        policy=repr(policy),
        seed=seed,
    )
    t0 = time.perf_counter()
    _, todo = play_logged(folder, meta, [policy, policy], config, skill, seed, n, progress=True)
    return time.perf_counter() - t0, len(todo)


def load(out: Path) -> dict[str, pd.DataFrame]:
    """Arm -> its games (finished games only)."""
    frames = {}
    for arm in ARMS:
        if (out / arm / "games.csv").exists():
            games = read_log(out / arm)[1]
            frames[arm] = games[games["finished"].astype(bool)].reset_index(drop=True)
    return frames


def _turn_points(games: pd.DataFrame) -> np.ndarray:
    parts = [np.array(str(t).split(), dtype=float) for t in games["turn_points"].fillna("")]
    return np.concatenate(parts) if parts else np.zeros(0)


def _ratio_boot(num, den, resamples: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """sum(num) / sum(den) over games, with a percentile bootstrap over games."""
    num, den = np.asarray(num, float), np.asarray(den, float)
    if den.sum() == 0:
        return np.nan, np.nan, np.nan
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(num), (resamples, len(num)))
    boot = num[idx].sum(axis=1) / np.maximum(den[idx].sum(axis=1), 1e-12)
    return num.sum() / den.sum(), *np.percentile(boot, [2.5, 97.5])


def _cols(row: dict, name: str, est) -> None:
    row[name], row[f"{name}_lo"], row[f"{name}_hi"] = est


def first_player(frames) -> pd.DataFrame:
    rows = []
    pooled_k = pooled_n = 0
    for arm in SKILLS:
        if arm not in frames:
            continue
        g = frames[arm]
        decided = g[g["winner"] >= 0]
        k, n = int((decided["winner"] == 0).sum()), len(decided)
        pooled_k, pooled_n = pooled_k + k, pooled_n + n
        row = {"arm": arm, "games": len(g)}
        _cols(row, "first_wins", rate(k, n))
        rows.append(row)
    if rows:
        row = {"arm": "pooled", "games": pooled_n}
        _cols(row, "first_wins", rate(pooled_k, pooled_n))
        rows.append(row)
    if "club-break" in frames:  # the stronger player, apart from the pool
        g = frames["club-break"]
        decided = g[g["winner"] >= 0]
        row = {"arm": "club-break", "games": len(g)}
        _cols(row, "first_wins", rate(int((decided["winner"] == 0).sum()), len(decided)))
        rows.append(row)
    return pd.DataFrame(rows)


def bonus(frames) -> pd.DataFrame:
    rows = []
    for arm in ("club", "club-no-bonus", "club-break", "club-break-no-bonus"):
        if arm not in frames:
            continue
        g = frames[arm]
        decided = g[g["winner"] >= 0]
        row = {"arm": arm, "bonus_shot": not arm.endswith("no-bonus"), "games": len(g)}
        _cols(row, "first_wins", rate(int((decided["winner"] == 0).sum()), len(decided)))
        _cols(row, "margin", sample_mean((g["score_0"] - g["score_1"]).abs()))
        _cols(row, "strokes", sample_mean(g["strokes"]))
        _cols(row, "fouls", sample_mean(g["fouls_0"] + g["fouls_1"]))
        _cols(row, "after_foul", _ratio_boot(g["points_after_foul"], g["turns_after_foul"]))
        _cols(row, "turn_points", sample_mean(_turn_points(g)))
        rows.append(row)
    return pd.DataFrame(rows)


def breaks(frames) -> pd.DataFrame:
    rows = []
    for arm in SKILLS:
        if arm not in frames:
            continue
        g = frames[arm]
        t = _turn_points(g)
        longest = [max(map(int, str(s).split()), default=0) for s in g["turn_points"].fillna("")]
        row = {"arm": arm, "games": len(g), "turns": len(t)}
        _cols(row, "break", sample_mean(t))
        _cols(row, "scoring_turns", rate(int((t > 0).sum()), len(t)))
        _cols(row, "longest", sample_mean(longest))
        rows.append(row)
    return pd.DataFrame(rows)


def carrookad(frames) -> pd.DataFrame:
    counts = {o: 0 for o in OPTIONS}
    for g in frames.values():
        for o in OPTIONS:
            counts[o] += int(g[f"best_{o}"].sum())
    total = sum(counts.values())
    rows = []
    for o in OPTIONS:
        row = {"option": o, "best": counts[o], "decisions": total}
        _cols(row, "share", rate(counts[o], total))
        rows.append(row)
    return pd.DataFrame(rows)


TABLES = {
    "first-player": (first_player, "arm", [("first_wins", "breaker's win rate", 0.5)]),
    "bonus": (
        bonus,
        "arm",
        [
            ("first_wins", "breaker's win rate", 0.5),
            ("after_foul", "points of a turn after a foul", None),
            ("fouls", "fouls a game", None),
        ],
    ),
    "breaks": (
        breaks,
        "arm",
        [("break", "points a turn", None), ("longest", "longest break", None)],
    ),
    "carrookad": (carrookad, "option", [("share", "share valued best", None)]),
}


def summarise(out: Path) -> dict[str, pd.DataFrame]:
    frames = load(out)
    tables = {}
    for name, (fn, label, panels) in TABLES.items():
        table = fn(frames)
        tables[name] = table
        if not len(table):
            continue
        table.to_csv(out / f"{name}.csv", index=False, float_format="%.4f")
        title = f"Carrooka {name}: greedy players (club-break: with the searched break)"
        panels = [(c, f"{c}_lo", f"{c}_hi", what, ref) for c, what, ref in panels]
        save_study_figure(table, panels, title, out / f"{name}.png", label=label)
    return tables


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")  # figures are files
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="whole games per arm")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--arms", default="", help="comma-separated arms to run (default all)")
    ap.add_argument("--summarise-only", action="store_true")
    args = ap.parse_args()
    chosen = set(args.arms.split(",")) if args.arms else set(ARMS)
    unknown = chosen - set(ARMS)
    if unknown:
        ap.error(f"unknown arms {sorted(unknown)}; known: {', '.join(ARMS)}")
    if not args.summarise_only:
        for arm in ARMS:
            if arm in chosen:
                skill, rules, player = ARMS[arm]
                took, played = run_arm(args.out / arm, skill, rules, args.games, args.seed, player)
                print(json.dumps({"arm": arm, "games_played": played, "seconds": round(took, 1)}))
    for name, table in summarise(args.out).items():
        print(f"\n{name}\n{table.to_string(index=False)}")


if __name__ == "__main__":
    main()
