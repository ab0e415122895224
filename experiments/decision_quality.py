"""How well do the players choose a stroke? The immediate value each player's chosen stroke
really has, on positions taken from greedy games of one game (``--game``, default ICF).

Positions: every decision but the break of ``--games`` games between the game's greedy
players at club (seed ``--seed``; ICF: single boards), of which ``--positions`` are drawn at
random, each with the turn it was played under (the shooter's coins down, the queen, dues;
Carrooka: the piece on). Each player plans its stroke at each position (seed: the position's
index) against the kernel as :func:`carromlab.analysis.decide.decide` runs a plan; the chosen
stroke's value is then estimated with ``--n`` executions on common keys under the turn it is
played in (the same seed for every player's stroke at a position, so the comparison is
paired). The table gives each player's mean value and its paired difference to greedy with
a t interval; rows per position go to ``data/studies/decisions/values.csv`` (another game:
``data/studies/decisions-<game>/``), the summary to ``summary.csv``.

    python experiments/decision_quality.py --positions 40
    python experiments/decision_quality.py --game carrooka --positions 50 --n 20000

Each player's gap to a reference search (the search-based player at ``REFERENCE_TIMES`` its
largest budget) is given with its paired t interval; positions are written as they are
valued (``values.partial.csv``), and a rerun resumes. Players: ICF's own pool (below); every
other game's registered players but ``random`` and the ``-break`` ones (they differ from
their plain player only at the break, which is not measured).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis.decide import one_shot, plan_evaluator
from carromlab.analysis.estimate import estimate, run_metadata
from carromlab.analysis.intervals import sample_mean
from carromlab.analysis.policies import RACING, Greedy, MapGreedy, drive_plan
from carromlab.analysis.search import SearchBudget
from carromlab.analysis.variants import analysis_for
from carromlab.games.icf.players import icf_lookahead
from carromlab.play import play_games
from carromlab.play.loop import single_board
from carromlab.position import Position
from carromlab.registry import get_game

OUT = Path("data/studies/decisions")
RACE = SearchBudget(rounds=RACING.rounds)

#: The search-based player's budgets measured (kernel shots a decision), and the reference's
#: multiple of the largest.
SEARCH_BUDGETS = (4096, 16384)
REFERENCE_TIMES = 10
#: The valuation's seed: every player's stroke at a position on the same keys.
VALUE_SEED = 99


def icf_players(skill: str, budgets=SEARCH_BUDGETS) -> dict:
    pool = {
        "greedy": Greedy(skill=skill),
        "greedy-big": Greedy(skill=skill, budget=SearchBudget(n_screen=6, keep=8, n_eval=32)),
        "race": Greedy(skill=skill, budget=RACE),
        "race-wide": Greedy(skill=skill, budget=RACING),
        "lookahead": icf_lookahead(skill=skill),
    }
    for b in budgets:
        pool[f"search-{b}"] = MapGreedy(skill=skill, budget=SearchBudget(shots=b))
    if "learned" in get_game("icf").players:
        pool["learned"] = get_game("icf").make_player("learned", skill=skill)
    return pool


def players(game, skill: str) -> dict:
    """The players measured for ``game`` (module docstring)."""
    if game.name == "icf":
        return icf_players(skill)
    names = [p for p in game.players if p != "random" and not p.endswith("-break")]
    return {name: game.make_player(name, skill=skill) for name in names}


def reference(game, skill: str, pool: dict):
    """The reference search: the search-based player at ``REFERENCE_TIMES`` its largest
    budget."""
    if game.name == "icf":
        return MapGreedy(
            skill=skill, budget=SearchBudget(shots=REFERENCE_TIMES * max(SEARCH_BUDGETS))
        )
    search = game.make_player("search", skill=skill)
    budget = search.budget
    return replace(search, budget=replace(budget, shots=REFERENCE_TIMES * budget.shots))


def _is_break(view, context) -> bool:
    """A game's first stroke: ICF's turn says so; Carrooka's state has no stroke yet."""
    return bool(getattr(context, "is_break", False)) or getattr(view, "strokes", 1) == 0


class Recording:
    """A player that records what it is shown (its view and context) at every decision but
    the break, and plays as ``inner`` does."""

    def __init__(self, inner, seen: list):
        self.inner, self.seen = inner, seen

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def plan(self, view, context=None, seed: int = 0):
        if not _is_break(view, context):
            self.seen.append((view, context))
        return (yield from self.inner.plan(view, context, seed))


def positions(game, games: int, seed: int, skill: str) -> list:
    """(view, context) of every decision but the break of greedy games of ``game`` (ICF:
    single boards)."""
    seen: list = []
    config, _ = single_board(game.make_config())
    greedy = game.make_player("greedy", skill=skill)
    play_games([Recording(greedy, seen), Recording(greedy, seen)], config, skill=skill,
               games=games, seed=seed)  # fmt: skip
    return seen


def choose_and_value(game, player, view, context, skill: str, n: int, seed: int):
    """``player``'s decision at (``view``, ``context``) and its stroke's mean points over
    ``n`` executions on the keys of :data:`VALUE_SEED` under the turn it is played in, and
    the seconds the plan took."""
    position = view if isinstance(view, Position) else view.position
    variant = position.variant
    va = analysis_for(variant)
    evaluator = plan_evaluator(game, variant, position, va.table_position(position))
    t = time.perf_counter()
    decision = drive_plan(player.plan(view, context, seed=seed), evaluator)
    seconds = time.perf_counter() - t
    if decision.shot is None:  # a pass (Carrooka): worth nothing now
        return decision, 0.0, seconds
    if getattr(decision, "option", None) == "break_line":
        # Carrooka'd, the striker taken in hand to the break line: the stroke starts there
        position = position.replace(pieces=tuple(p for p in position.pieces
                                                 if p.kind != "striker"))  # fmt: skip
    turn = decision.turn
    if turn is None:
        turn = context if game.player_view is None else va.turn_of(position)
    table = estimate(
        position, one_shot(decision.shot), skill=skill, n=n, seed=VALUE_SEED, turn=turn
    )
    points = table.set_index("quantity").loc["points", "estimate"]
    return decision, float(points), seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="icf", help="the game (a registered name)")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--games", type=int, default=8, help="greedy boards to draw positions from")
    ap.add_argument("--n", type=int, default=1000, help="executions valuing a chosen stroke")
    ap.add_argument("--skill", default="club")
    ap.add_argument("--seed", type=int, default=123)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--players", default="", help="comma-separated subset of the players")
    args = ap.parse_args()
    game = get_game(args.game)
    if args.out is None:
        args.out = OUT if game.name == "icf" else OUT.with_name(f"decisions-{game.name}")
    t0 = time.perf_counter()
    seen = positions(game, args.games, args.seed, args.skill)
    rng = np.random.default_rng(args.seed)
    pick = rng.choice(len(seen), size=min(args.positions, len(seen)), replace=False)
    pool = players(game, args.skill)
    if args.players:
        pool = {k: v for k, v in pool.items() if k in args.players.split(",")}
    pool["reference"] = reference(game, args.skill, pool)
    rows = []
    done = set()
    part = args.out / "values.partial.csv"
    if part.exists():  # resume: positions already valued
        rows = pd.read_csv(part).to_dict("records")
        done = {int(r["position"]) for r in rows}
    for i, k in enumerate(pick):
        if int(k) in done:
            continue
        view, context = seen[k]
        shown = view if isinstance(view, Position) else view.position
        row = {"position": int(k), "pieces": len(shown.pieces)}
        if hasattr(context, "own_down"):
            row["own_down"] = context.own_down
        for name, player in pool.items():
            _, row[name], seconds = choose_and_value(
                game, player, view, context, args.skill, args.n, int(k)
            )
            row[f"{name}_seconds"] = round(seconds, 3)
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
