"""KOOBA balance studies: whole games between greedy players on the throw kernel.

Arms (``data/studies/kooba/<arm>/games.csv``, written as games end, resumable): 2, 3 and 4
players with the standard rules; 2 players with the attack turn off; 2 players Pro; and the
attack-timing arms, where one entrant (the challenger, entrant 0; the lag seats it) attacks
the leader once they are ``k`` steps along (k = 1..5, or never) against default players (at
1 also without pressing on the marker after a run tag: ``press=False``), and 3-player arms
where the challenger attacks the leader or the next player (the default player does not
attack with three players). The second strength: ``2p-strong``, ``3p-strong``,
``4p-strong`` and ``2p-no-attack-strong`` with the stronger player in every seat, and
``2p-strong-vs-greedy`` (the stronger player, entrant 0, against a default player).
Summaries with 95 % intervals (Wilson), a CSV and a figure each, in ``data/studies/kooba/``:

- ``seats``: the win rate of each seat (play order after the lag) for 2, 3 and 4 players,
  against the fair share 1/n;
- ``attack``: the first seat's win rate and rounds a game with the attack turn on and off;
- ``pro``: standard vs Pro, the first seat's win rate and rounds a game;
- ``timing``: the challenger's win rate (fair share 1/n) and how often it attacked, by when
  and whom it attacks;
- ``strength``: the stronger player (``STRONG`` in games/kooba/players.py) against default
  players; ``attack-strong``: the attack turn on and off between stronger players.

    python experiments/kooba_balance.py --games 400
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.intervals import rate, sample_mean
from carromlab.games.kooba.driver import play_kooba
from carromlab.games.kooba.machine import KoobaConfig
from carromlab.games.kooba.players import STRONG, KoobaGreedy
from carromlab.play import GameLog, read_log
from carromlab.plot.intervals import save_study_figure

OUT = Path("data/studies/kooba")
ARMS = {
    "2p": KoobaConfig(n_players=2),
    "3p": KoobaConfig(n_players=3),
    "4p": KoobaConfig(n_players=4),
    "2p-no-attack": KoobaConfig(n_players=2, attack=False),
    "2p-pro": KoobaConfig(n_players=2, pro=True),
}
# attack timing: (config, the challenger's attack_at, target, attack_players, press); the
# others are default players (the leader at 4 steps, in two-player games only, pressing on the
# marker after a run tag)
TIMING = {
    # k = 4 against the leader is the default player: the "2p" arm
    **{f"2p-attack-at-{k}": (KoobaConfig(n_players=2), k, "leader", 2, True) for k in (1, 2, 3, 5)},
    "2p-attack-at-1-no-press": (KoobaConfig(n_players=2), 1, "leader", 2, False),
    "2p-attack-never": (KoobaConfig(n_players=2), None, "leader", 2, True),
    "3p-attack-leader": (KoobaConfig(n_players=3), 4, "leader", 3, True),
    "3p-attack-next": (KoobaConfig(n_players=3), 4, "next", 3, True),
}


# The second strength (docs/studies.md, "The verdicts at two strengths"): every entrant the
# stronger player (games/kooba/players.py STRONG: refined aims, the early pressing attack);
# and the strength check, the stronger player (entrant 0, the lag seats it) against default
# players.
STRONG_ARMS = {
    "2p-strong": KoobaConfig(n_players=2),
    "3p-strong": KoobaConfig(n_players=3),
    "4p-strong": KoobaConfig(n_players=4),
    "2p-no-attack-strong": KoobaConfig(n_players=2, attack=False),
}
VERSUS = {"2p-strong-vs-greedy": KoobaConfig(n_players=2)}


def arm_players(arm: str, skill: str) -> tuple[KoobaConfig, list[KoobaGreedy]]:
    strong = replace(STRONG, skill=skill)
    if arm in STRONG_ARMS:
        config = STRONG_ARMS[arm]
        return config, [strong] * config.n_players
    if arm in VERSUS:
        config = VERSUS[arm]
        return config, [strong] + [KoobaGreedy(skill=skill)] * (config.n_players - 1)
    if arm in ARMS:
        config = ARMS[arm]
        return config, [KoobaGreedy(skill=skill)] * config.n_players
    config, at, target, most, press = TIMING[arm]
    challenger = KoobaGreedy(
        skill=skill, attack_at=at, target=target, attack_players=most, press=press
    )
    return config, [challenger] + [KoobaGreedy(skill=skill)] * (config.n_players - 1)


def run_arm(folder: Path, arm: str, n: int, seed: int, skill: str) -> tuple[float, int]:
    config, players = arm_players(arm, skill)
    meta = run_metadata(
        kind="kooba_balance",
        skill=skill,
        rules=dict(vars(config)),
        policy=[repr(p) for p in players],
        seed=seed,
    )
    log = GameLog(folder, meta)
    todo = [g for g in range(n) if g not in log.done()]
    t0 = time.perf_counter()
    if todo:
        play_kooba(config, skill, seed, todo, players=players, on_game=log.add)
    log.write_parquet()
    return time.perf_counter() - t0, len(todo)


def _games(out: Path, arm: str):
    if not (out / arm / "games.csv").exists():
        return None
    g = read_log(out / arm)[1]
    return g[g["finished"].astype(bool)]


def seats(out: Path, arms: tuple[str, ...] = ("2p", "3p", "4p")) -> pd.DataFrame:
    rows = []
    for arm in arms:
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


def timing(out: Path) -> pd.DataFrame:
    rows = []
    for arm in ("2p", "3p", *TIMING):
        g = _games(out, arm)
        if g is None:
            continue
        n = int(g["players"].iloc[0])
        at, target, most, press = (4, "leader", 2, True) if arm in ("2p", "3p") else TIMING[arm][1:]
        if n > most:
            at = None
        row = {"arm": arm, "players": n, "attack_at": "never" if at is None else at}
        row.update(target=target, press=press, games=len(g), fair=1 / n)
        row["win"], row["win_lo"], row["win_hi"] = rate(
            int((g["winner_entrant"] == 0).sum()), len(g)
        )
        seat = sum((g[f"entrant_{p}"] == 0) * p for p in range(n))
        attacked = g.apply(lambda r, s=seat: bool(r[f"attacked_{s[r.name]}"]), axis=1)
        row["attacked"] = float(attacked.mean())
        rows.append(row)
    return pd.DataFrame(rows)


def versus(out: Path) -> pd.DataFrame:
    """Entrant 0's (the stronger player's) win rate against default players, by arm."""
    rows = []
    for arm in VERSUS:
        g = _games(out, arm)
        if g is None:
            continue
        n = int(g["players"].iloc[0])
        row = {"arm": arm, "players": n, "games": len(g), "fair": 1 / n}
        row["win"], row["win_lo"], row["win_hi"] = rate(
            int((g["winner_entrant"] == 0).sum()), len(g)
        )
        rows.append(row)
    return pd.DataFrame(rows)


def summarise(out: Path) -> dict[str, pd.DataFrame]:
    tables = {
        "seats": seats(out),
        "attack": compare(out, ("2p", "2p-no-attack")),
        "pro": compare(out, ("2p", "2p-pro")),
        "timing": timing(out),
        "strength": versus(out),
        "seats-strong": seats(out, ("2p-strong", "3p-strong", "4p-strong")),
        "attack-strong": compare(out, ("2p-strong", "2p-no-attack-strong")),
    }
    titles = {
        "strength": "KOOBA: the stronger player against greedy players",
        "seats-strong": "KOOBA seats: stronger players",
        "attack-strong": "KOOBA attack: stronger players",
    }
    panels = {
        "strength": [("win", "win_lo", "win_hi", "the stronger player's win rate", "fair")],
        "seats-strong": [("win", "win_lo", "win_hi", "seat's win rate", "fair")],
        "attack-strong": [
            ("first_wins", "first_wins_lo", "first_wins_hi", "first seat's win rate", 0.5),
            ("rounds", "rounds_lo", "rounds_hi", "rounds a game", None),
        ],
        "timing": [("win", "win_lo", "win_hi", "the challenger's win rate", "fair")],
        "seats": [("win", "win_lo", "win_hi", "seat's win rate", "fair")],
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
            title = titles.get(name, f"KOOBA {name}: greedy players")
            save_study_figure(table, panels[name], title, out / f"{name}.png")
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
    every = [*ARMS, *TIMING, *VERSUS, *STRONG_ARMS]
    chosen = set(args.arms.split(",")) if args.arms else set(every)
    unknown = chosen - set(every)
    if unknown:
        ap.error(f"unknown arms {sorted(unknown)}; known: {', '.join(every)}")
    if not args.summarise_only:
        for arm in every:
            if arm in chosen:
                took, played = run_arm(args.out / arm, arm, args.games, args.seed, args.skill)
                print(json.dumps({"arm": arm, "games_played": played, "seconds": round(took, 1)}))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, table in summarise(args.out).items():
        print(f"\n{name}\n{table.to_string(index=False)}")


if __name__ == "__main__":
    main()
