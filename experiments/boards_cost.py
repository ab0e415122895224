"""What each player of each game costs: a board and a decision, in seconds and kernel shots.

For every registered game and every one of its players, ``carromlab bench --scenario boards
--game G --policy P --json`` (one process each, one after the other: nothing else should run
meanwhile), with a few boards (ICF: single boards; the other games: whole games): the cheap
players more, the searching ones fewer. Each result is one JSON line appended to ``--out``
as it comes (a rerun skips the pairs already there), and a Markdown table is printed.

    python experiments/boards_cost.py --out data/benchmarks/DATE-boards-cost.jsonl
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from carromlab.registry import GAMES

#: Boards a player plays, by how dear it is (the rest: CHEAP).
DEAR = {"search": 1, "search-lookahead": 1, "search-safety": 1, "lookahead": 2,
        "lookahead-race": 2, "learned": 4, "strong": 1}  # fmt: skip
CHEAP = 4


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--games", default="", help="comma-separated games (default all)")
    ap.add_argument("--skill", default="club")
    ap.add_argument("--skip", default="", help="comma-separated players not measured")
    a = ap.parse_args()
    done = set()
    if a.out.exists():
        for line in a.out.read_text().splitlines():
            r = json.loads(line)
            done.add((r["game"], r["policy_name"]))
    games = a.games.split(",") if a.games else list(GAMES)
    for name in games:
        for player in GAMES[name].players:
            if (name, player) in done or player in a.skip.split(","):
                continue
            boards = DEAR.get(player, CHEAP)
            args = [sys.executable, "-m", "carromlab", "bench", "--scenario", "boards",
                    "--game", name, "--policy", player, "--batch", str(boards),
                    "--skill", a.skill, "--json"]  # fmt: skip
            res = subprocess.run(args, capture_output=True, text=True, check=False)
            if res.returncode != 0:
                print(f"{name} {player}: failed: {res.stderr.strip().splitlines()[-1:]}")
                continue
            r = json.loads(res.stdout.strip().splitlines()[-1])
            with a.out.open("a") as f:
                f.write(json.dumps(r) + "\n")
            print(f"{name} {player}: {r['s_per_board']:.2f} s a board", flush=True)
    rows = [json.loads(line) for line in a.out.read_text().splitlines()]
    print("| game | player | boards | unit | s a board | decisions a board | s a decision "
          "| kernel shots a decision |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['game']} | {r['policy_name']} | {r['boards']} | {r['unit']} | "
            f"{r['s_per_board']:.2f} | {r['strokes_per_board']:.1f} | "
            f"{r['s_per_decision']:.3f} | {r['shots_per_stroke']:,.0f} |"
        )


if __name__ == "__main__":
    main()
