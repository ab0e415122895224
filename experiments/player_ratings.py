"""The players' ratings a study's report draws its verdicts against (``carromlab/studies/
ratings.json``), from the strength ladder's fit (``data/studies/ladder/ladder.csv``, written by
``experiments/strength_ladder.py``: Bradley-Terry on the Elo scale, ``greedy`` = 0, ICF single
boards at club).

    python experiments/player_ratings.py            # writes carromlab/studies/ratings.json
    python experiments/player_ratings.py --check    # exit 1 if it is not up to date

Only ICF has a ladder: the other games' reports place their players in the order the file
lists its strengths (the report says so).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
LADDER = ROOT / "data" / "studies" / "ladder" / "ladder.csv"
OUT = ROOT / "carromlab" / "studies" / "ratings.json"


def ratings() -> dict:
    t = pd.read_csv(LADDER)
    players = {
        str(r.player): {"rating": round(float(r.rating), 1), "lo": round(float(r.lo), 1),
                        "hi": round(float(r.hi), 1), "games": int(r.games)}
        for r in t.itertuples()
    }  # fmt: skip
    return {
        "about": "Bradley-Terry ratings on the Elo scale (greedy = 0) with 95 % Wald intervals, "
        "ICF single boards at club between the game's players",
        "source": str(LADDER.relative_to(ROOT)),
        "made_by": "experiments/strength_ladder.py, then experiments/player_ratings.py",
        "games": {"icf": players},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only say whether the file is current")
    args = ap.parse_args(argv)
    text = json.dumps(ratings(), indent=1) + "\n"
    if args.check:
        current = OUT.is_file() and OUT.read_text() == text
        print(f"{OUT.relative_to(ROOT)} is " + ("current" if current else "out of date"))
        return 0 if current else 1
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
