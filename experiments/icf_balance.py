"""Rule-balance studies of standard carrom (ICF laws), greedy players on the real kernel.

Four studies, each a set of *arms* (one rule or skill setting), each arm a folder of
``data/studies/icf_balance/<study>/<arm>/`` with ``boards.csv`` and ``games.csv`` written as
games end (:class:`carromlab.play.GameLog`: a rerun skips what is there) and a
summary table with intervals plus a figure per study in ``data/studies/icf_balance/``:

- ``first-break``: single boards at each skill; the breaker's board-win rate (Wilson).
- ``queen``: whole games (to 25 points or 8 boards) with the queen worth 3 (the laws), 0 or
  5; the winner's margin (t interval), boards a game, and how often the first breaker wins
  the game (Wilson). The greedy players value the queen at what it is worth in the arm.
- ``due``: single boards with the due rule (pocketing the striker costs a coin) on and off;
  the breaker's board-win rate, points and strokes a board, striker fouls a board.
- ``doubles``: single boards, singles vs doubles (partners opposite, turn to the right);
  the breaking side's board-win rate, points and strokes a board.

    python experiments/icf_balance.py --study all --boards 200 --games 40
    python experiments/icf_balance.py --summarise-only
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pandas as pd

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.intervals import rate as _rate
from carromlab.analysis.intervals import sample_mean as _mean
from carromlab.analysis.policies import RACING, Greedy
from carromlab.bench.runner import machine_name
from carromlab.games.icf.machine import IcfConfig
from carromlab.games.icf.players import icf_lookahead
from carromlab.games.icf.rules import IcfScoring
from carromlab.play import play_logged, read_log
from carromlab.plot.intervals import save_study_figure

OUT = Path("data/studies/icf_balance")
SKILLS = ("novice", "club", "expert", "pro")


def arms(study: str) -> dict[str, dict]:
    """Arm name -> settings (config fields, skill, whole games or single boards)."""
    if study == "first-break":
        return {s: {"skill": s, "rules": {"max_boards": 1}} for s in SKILLS}
    if study == "queen":
        return {f"queen-{q}": {"skill": "club", "rules": {"queen_value": q}} for q in (0, 3, 5)}
    if study == "due":
        return {
            f"due-{'on' if on else 'off'}": {
                "skill": "club",
                "rules": {"max_boards": 1, "due_rule": on},
            }
            for on in (True, False)
        }
    if study == "doubles":
        return {
            mode: {"skill": "club", "rules": {"max_boards": 1, "doubles": mode == "doubles"}}
            for mode in ("singles", "doubles")
        }
    raise SystemExit(f"unknown study {study!r}; use first-break, queen, due, doubles or all")


STUDIES = ("first-break", "queen", "due", "doubles")


#: The players a study can be run with (``--player``): the greedy player of the first runs
#: (fixed straight break), the same with the searched break (``greedy-break``), the strongest
#: measured (``greedy-race``: racing twice the candidates, with the searched break) and the
#: depth-2 lookahead with the searched break; a player's runs other than greedy's go to
#: ``<out>/<player>/``.
PLAYERS = ("greedy", "greedy-break", "greedy-race", "lookahead")


def policy_for(settings: dict, player: str = "greedy"):
    rules = settings["rules"]
    scoring = IcfScoring(
        queen_covered=float(rules.get("queen_value", 3)),
        due=-1.0 if rules.get("due_rule", True) else 0.0,
    )
    if player == "lookahead":
        return icf_lookahead(
            skill=settings["skill"],
            doubles=bool(rules.get("doubles", False)),
            scoring=scoring,
            break_shot="search",
        )
    if player == "greedy-break":
        return Greedy(skill=settings["skill"], scoring=scoring, break_shot="search")
    if player == "greedy-race":
        return Greedy(skill=settings["skill"], scoring=scoring, break_shot="search", budget=RACING)
    return Greedy(skill=settings["skill"], scoring=scoring)


def run_arm(
    folder: Path, settings: dict, n: int, seed: int, player: str = "greedy"
) -> tuple[float, int]:
    """Play games ``0..n-1`` of one arm (skipping those already logged); (seconds taken,
    games played now)."""
    config = IcfConfig(**settings["rules"])
    policy = policy_for(settings, player)
    meta = run_metadata(
        kind="icf_balance",
        skill=settings["skill"],
        rules=vars(config),
        policy=repr(policy),
        seed=seed,
    )
    t0 = time.perf_counter()
    policies = [policy] * config.n_seats
    stats: dict = {}
    log, todo = play_logged(
        folder, meta, policies, config, settings["skill"], seed, n, progress=True, stats=stats
    )
    took = time.perf_counter() - t0
    if todo:  # what this run cost (the run's own games; a resumed run records its part)
        games = log.frames()[1]
        strokes = games.loc[games["game"].isin(todo), "strokes"].sum()
        cost = {
            "games": len(todo),
            "seconds": round(took, 1),
            "kernel_shots": int(stats.get("shots", 0)),
            "strokes": int(strokes),
            "shots_per_stroke": round(stats.get("shots", 0) / max(strokes, 1), 1),
            "machine": machine_name(),
            "date": time.strftime("%Y-%m-%d"),
        }
        (folder / f"cost-{cost['date']}-{todo[0]}.json").write_text(json.dumps(cost, indent=1))
    return took, len(todo)


def _board_summary(boards: pd.DataFrame) -> dict:
    won = int((boards["winner"] == boards["breaker_side"]).sum())
    rate, lo, hi = _rate(won, len(boards))
    pts, pts_lo, pts_hi = _mean(boards["points"])
    st, st_lo, st_hi = _mean(boards["strokes"])
    fouls, f_lo, f_hi = _mean(boards["striker_pocketed"])
    return {
        "boards": len(boards),
        "breaker_wins": won,
        "breaker_win_rate": rate,
        "breaker_lo": lo,
        "breaker_hi": hi,
        "points": pts,
        "points_lo": pts_lo,
        "points_hi": pts_hi,
        "strokes": st,
        "strokes_lo": st_lo,
        "strokes_hi": st_hi,
        "striker_fouls": fouls,
        "striker_fouls_lo": f_lo,
        "striker_fouls_hi": f_hi,
    }


def _game_summary(games: pd.DataFrame, boards: pd.DataFrame) -> dict:
    done = games[games["finished"].astype(bool)]
    margin = (done["score_0"] - done["score_1"]).abs()
    decided = done[done["winner"] >= 0]
    first = int((decided["winner"] == 0).sum())  # side 0 breaks the first board
    rate, lo, hi = _rate(first, len(decided))
    m, m_lo, m_hi = _mean(margin)
    b, b_lo, b_hi = _mean(done["boards"])
    queen_boards = boards["queen_covered"].astype(bool)
    q_rate, q_lo, q_hi = _rate(int(queen_boards.sum()), len(boards))
    return {
        "games": len(done),
        "first_breaker_wins": first,
        "first_breaker_win_rate": rate,
        "first_lo": lo,
        "first_hi": hi,
        "margin": m,
        "margin_lo": m_lo,
        "margin_hi": m_hi,
        "boards_per_game": b,
        "boards_lo": b_lo,
        "boards_hi": b_hi,
        "queen_covered_rate": q_rate,
        "queen_lo": q_lo,
        "queen_hi": q_hi,
    }


def summarise(out: Path, study: str, player: str = "greedy") -> pd.DataFrame:
    """The study's table (one row per arm, intervals at 95 %) and figure, from the logs."""
    rows = []
    for name in arms(study):
        folder = out / study / name
        if not (folder / "games.csv").exists():
            continue
        b, games = read_log(folder)
        row = {"arm": name}
        row.update(_game_summary(games, b) if study == "queen" else _board_summary(b))
        rows.append(row)
    table = pd.DataFrame(rows)
    if len(table):
        table.to_csv(out / f"{study}.csv", index=False)
        _figure(table, study, out / f"{study}.png", player)
    return table


#: The two panels of each study's figure: (value, lo, hi, label, reference line).
PANELS = {
    "queen": [
        ("margin", "margin_lo", "margin_hi", "winner's margin (points)", None),
        ("first_breaker_win_rate", "first_lo", "first_hi", "first breaker's game-win rate", 0.5),
    ],
    "board": [
        ("breaker_win_rate", "breaker_lo", "breaker_hi", "breaker's board-win rate", 0.5),
        ("points", "points_lo", "points_hi", "points a board", None),
    ],
}


def _figure(table: pd.DataFrame, study: str, path: Path, player: str = "greedy") -> None:
    panels = PANELS["queen" if study == "queen" else "board"]
    save_study_figure(table, panels, f"ICF {study}: {player} players", path)


def compare_players(out: Path, study: str) -> pd.DataFrame:
    """One study's arms that more than one player ran, every player side by side:
    ``<study>-players.csv`` and ``.png`` in ``out`` (the greedy runs in ``out``, the others in
    ``out/<player>``); nothing when no arm has two players."""
    rows = []
    for player in PLAYERS:
        path = (out if player == "greedy" else out / player) / f"{study}.csv"
        if path.exists():
            table = pd.read_csv(path)
            table.insert(0, "player", player)
            rows.append(table)
    if not rows:
        return pd.DataFrame()
    both = pd.concat(rows, ignore_index=True)
    shared = both.groupby("arm")["player"].transform("nunique") > 1
    both = both[shared].reset_index(drop=True)
    if both.empty:
        return both
    both["label"] = both["player"] + "\n" + both["arm"].astype(str)
    both.to_csv(out / f"{study}-players.csv", index=False)
    panels = PANELS["queen" if study == "queen" else "board"]
    save_study_figure(
        both,
        panels,
        f"ICF {study} by player (all but greedy play the searched break)",
        out / f"{study}-players.png",
        label="label",
    )
    return both


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")  # figures are files
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", default="all")
    ap.add_argument("--boards", type=int, default=200, help="single boards per arm")
    ap.add_argument("--games", type=int, default=40, help="whole games per arm (queen)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--arms", default="", help="comma-separated arms to run (default all)")
    ap.add_argument("--summarise-only", action="store_true")
    ap.add_argument("--player", default="greedy", choices=PLAYERS)
    args = ap.parse_args()
    if args.player != "greedy":
        args.out = args.out / args.player
    studies = STUDIES if args.study == "all" else (args.study,)
    for study in studies:
        chosen = set(args.arms.split(",")) if args.arms else None
        for name, settings in arms(study).items():
            if args.summarise_only or (chosen is not None and name not in chosen):
                continue
            n = args.games if study == "queen" else args.boards
            took, played = run_arm(args.out / study / name, settings, n, args.seed, args.player)
            print(
                json.dumps(
                    {"study": study, "arm": name, "games_played": played, "seconds": round(took, 1)}
                )
            )
        print(summarise(args.out, study, args.player).to_string(index=False))
        if args.player == "greedy":
            compare_players(args.out, study)


if __name__ == "__main__":
    main()
