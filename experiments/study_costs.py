"""The measured cost of each game's players, as ``carromlab study check`` reads it.

``carromlab study check`` estimates a study's time from what a board (or a whole game) of each
(game, player) cost on the bench (``carromlab bench --scenario boards --game G --policy P``,
run by experiments/boards_cost.py: a few boards between two copies of the player, nearly
alone on the machine). The installed package cannot read the repository's ``data/`` folder,
so this script copies the figures it needs from the bench's JSON lines into the package's
``carromlab/studies/costs.json``, each with the file, the date and the machine it came from.
A (game, player) measured in several files takes the later file's line (the files in the
order given), within a file the last line.

    python experiments/study_costs.py                      # the default files, written
    python experiments/study_costs.py --check              # exit 1 if costs.json is stale
    python experiments/study_costs.py --sources a.jsonl b.jsonl --out costs.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The bench's figures that costs.json is made from, in order (a later line wins).
SOURCES = (
    "data/benchmarks/2026-12-07-boards-cost.jsonl",
    "data/benchmarks/2026-12-07-boards-learned.jsonl",
)
OUT = ROOT / "carromlab" / "studies" / "costs.json"
#: The fields kept of each line besides ``game`` and ``policy_name`` (kept as ``player``).
FIELDS = ("unit", "skill", "boards", "s_per_board", "strokes_per_board", "date", "machine",
          "device")  # fmt: skip


def costs(sources: list[str], root: Path = ROOT) -> dict:
    """The document of costs.json from the bench's JSON-lines files ``sources`` (paths
    relative to ``root``, as they are stored)."""
    found: dict[tuple[str, str], dict] = {}
    for source in sources:
        text = (root / source).read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("scenario") != "boards":
                continue
            missing = [k for k in ("game", "policy_name", "s_per_board", "unit") if k not in r]
            if missing:
                raise SystemExit(f"{source}:{n}: no {', '.join(missing)}")
            entry = {"game": r["game"], "player": r["policy_name"]}
            entry.update({k: r.get(k) for k in FIELDS})
            entry["s_per_board"] = round(float(r["s_per_board"]), 4)
            if entry["strokes_per_board"] is not None:
                entry["strokes_per_board"] = round(float(entry["strokes_per_board"]), 2)
            entry["source"] = source
            found.pop((r["game"], r["policy_name"]), None)
            found[(r["game"], r["policy_name"])] = entry
    return {
        "about": (
            "Seconds a board (unit 'single boards': one board of a game with boards) or a "
            "whole game (unit 'whole games') of each game's players, measured by "
            "`carromlab bench --scenario boards` with a few boards in play between two "
            "copies of the player; read by `carromlab study check`. Written by "
            "experiments/study_costs.py from the files in 'sources'."
        ),
        "sources": list(sources),
        "costs": sorted(found.values(), key=lambda e: (e["game"], e["player"])),
    }


def render(document: dict) -> str:
    return json.dumps(document, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sources", nargs="+", default=list(SOURCES),
                    help="the bench's JSON-lines files, relative to the repository")  # fmt: skip
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="only compare with --out")
    a = ap.parse_args(argv)
    text = render(costs(a.sources))
    if a.check:
        same = a.out.is_file() and a.out.read_text(encoding="utf-8") == text
        print(f"{a.out}: {'up to date' if same else 'stale: rerun without --check'}")
        return 0 if same else 1
    a.out.write_text(text, encoding="utf-8")
    print(f"wrote {a.out} ({len(json.loads(text)['costs'])} costs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
