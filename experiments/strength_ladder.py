"""A strength ladder of the ICF players: round-robin single boards at one skill, seats
alternated, ratings with intervals (Bradley-Terry on the Elo scale).

Players (every one executes at the same skill; the players' own estimates use it too):

- ``random``: a uniformly random legal shot (RandomLegal);
- ``greedy-cheap``: Greedy with a small budget (16 candidates screened with 2 executions,
  the best 3 re-estimated with 8);
- ``greedy``: Greedy with its default budget and the fixed straight break;
- ``greedy-break``: Greedy with the searched break (``break_shot="search"``);
- ``lookahead``: the depth-2 lookahead player with the searched break.

Each pair plays ``--boards`` single boards: half with the first player breaking (seat 0),
half with the second. A pairing's two halves are GameLog folders
``data/studies/ladder/<a>--<b>/<breaker>-breaks/`` (resumable: a rerun plays only the boards
not yet logged). The summary: ``ladder.csv`` (rating, interval, games, score per player;
``greedy`` anchored at 0), ``pairs.csv`` (each pair's score with its Wilson interval) and
``ladder.png``.

    python experiments/strength_ladder.py --boards 100
    python experiments/strength_ladder.py --summarise-only
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

import pandas as pd

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.policies import Greedy, MapGreedy, RandomLegal
from carromlab.analysis.ratings import fit_bradley_terry, pairwise_table
from carromlab.analysis.search import SearchBudget
from carromlab.games.icf.machine import IcfConfig
from carromlab.games.icf.players import icf_lookahead
from carromlab.play import play_logged, read_log
from carromlab.registry import get_game

OUT = Path("data/studies/ladder")

ANCHOR = "greedy"

#: The registry's ICF game: the racing players are its own (one definition of each).
ICF = get_game("icf")


def players(skill: str) -> dict:
    """The ladder's players by name (module docstring)."""
    return {
        "random": RandomLegal(),
        "greedy-cheap": Greedy(
            skill=skill,
            budget=SearchBudget(n_screen=2, keep=3, n_eval=8, max_candidates=16, random_extra=4),
        ),
        "greedy": Greedy(skill=skill),
        "greedy-break": Greedy(skill=skill, break_shot="search"),
        "lookahead": icf_lookahead(skill=skill, break_shot="search"),
    }


def extras(skill: str) -> dict:
    """Players for head-to-head comparisons outside the ladder (``--players``): Greedy with
    a larger budget (6 executions a screen, the best 8 re-estimated with 32), and the
    lookahead without its leave term (``leave_weight=0``: its screen and finalists, no
    replies), Greedy racing a wider candidate set with the searched break (``greedy-race``:
    :data:`~carromlab.analysis.policies.RACING`), and the lookahead on that racing search
    (``lookahead-race``: :data:`~carromlab.analysis.lookahead.LOOKAHEAD_RACING`), and the
    search-based player (``search``; ``search-4096`` and ``search-8192`` at a quarter and a
    half of its budget), with the lookahead on its finalists at every stroke
    (``search-lookahead``) or when no pot is worth it (``search-safety``), and the learned
    player (``learned``: the learned screen ranks, the kernel races its top picks)."""
    return {
        "greedy-big": Greedy(skill=skill, budget=SearchBudget(n_screen=6, keep=8, n_eval=32)),
        "greedy-race": ICF.make_player("greedy-race", skill),
        "lookahead-noleave": icf_lookahead(skill=skill, break_shot="search", leave_weight=0.0),
        "lookahead-race": ICF.make_player("lookahead-race", skill),
        # the search-based player (best's search at 16,384 kernel shots a decision) and at a
        # quarter of that budget
        "search": ICF.make_player("search", skill),
        "search-lookahead": ICF.make_player("search-lookahead", skill),
        "search-safety": ICF.make_player("search-safety", skill),
        **{
            f"search-{b}": MapGreedy(skill=skill, break_shot="search", budget=SearchBudget(shots=b))
            for b in (4096, 8192)
        },
        # the learned screen in front of a kernel race (2,048 kernel shots a decision)
        "learned": ICF.make_player("learned", skill),
    }


def pair_folder(out: Path, a: str, b: str, breaker: str) -> Path:
    return out / f"{a}--{b}" / f"{breaker}-breaks"


def play_pair(out: Path, a: str, b: str, pool: dict, skill: str, boards: int, seed: int):
    """Both halves of one pairing; (seconds, boards played now)."""
    config = IcfConfig(max_boards=1)
    t0, played = time.perf_counter(), 0
    for first, second in ((a, b), (b, a)):
        meta = run_metadata(
            kind="strength_ladder",
            skill=skill,
            rules=vars(config),
            seat_0=first,
            seat_1=second,
            policies=[repr(pool[first]), repr(pool[second])],
            seed=seed,
        )
        half = boards // 2 if first == a else boards - boards // 2
        folder = pair_folder(out, a, b, first)
        if (folder / "games.csv").exists() and len(read_log(folder)[1]) >= half:
            continue  # already played (perhaps more boards, by an earlier, longer run)
        _, todo = play_logged(
            folder, meta, [pool[first], pool[second]], config, skill, seed, half, progress=True
        )
        played += len(todo)
    return time.perf_counter() - t0, played


def results(out: Path, names: list[str]) -> pd.DataFrame:
    """One row per finished board: ``a``, ``b`` (the pair's names), ``winner``,
    ``breaker``."""
    rows = []
    for a, b in itertools.combinations(names, 2):
        for first, second in ((a, b), (b, a)):
            folder = pair_folder(out, a, b, first)
            if not (folder / "games.csv").exists():
                continue
            boards, _ = read_log(folder)
            for side in boards["winner"].astype(int):
                winner = first if side == 0 else second
                rows.append({"a": a, "b": b, "winner": winner, "breaker": first})
    return pd.DataFrame(rows, columns=["a", "b", "winner", "breaker"])


def summarise(out: Path, names: list[str]) -> pd.DataFrame:
    """The ladder's tables and figure from the logs."""
    games = results(out, names)
    if games.empty:
        raise SystemExit(f"no finished boards under {out}")
    anchor = ANCHOR if ANCHOR in set(games["a"]) | set(games["b"]) else names[0]
    table = fit_bradley_terry(games[["a", "b", "winner"]], anchor=anchor)
    pairs = pairwise_table(games[["a", "b", "winner"]])
    breaker = (games["winner"] == games["breaker"]).mean()
    table.to_csv(out / "ladder.csv", index=False)
    pairs.to_csv(out / "pairs.csv", index=False)
    _figure(table, len(games), out / "ladder.png", anchor)
    print(f"{len(games)} boards; the breaker won {breaker:.3f} of them")
    print(pairs.round(3).to_string(index=False))
    return table


def _figure(table: pd.DataFrame, boards: int, path: Path, anchor: str = ANCHOR) -> None:
    import matplotlib.pyplot as plt

    from carromlab.plot.ratings import plot_ratings

    fig, ax = plt.subplots(figsize=(6.4, 3.2), layout="constrained")
    plot_ratings(
        table,
        ax=ax,
        title=f"ICF players at club skill\n{boards:,} single boards, 95 % intervals, {anchor} = 0",
    )
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")  # figures are files
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=100, help="single boards per pair")
    ap.add_argument("--skill", default="club")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--players", default="", help="comma-separated players (default all)")
    ap.add_argument("--summarise-only", action="store_true")
    args = ap.parse_args()
    ladder = players(args.skill)
    pool = {**ladder, **extras(args.skill)}
    names = args.players.split(",") if args.players else list(ladder)
    unknown = [n for n in names if n not in pool]
    if unknown:
        raise SystemExit(f"unknown player {unknown[0]!r}; choose from {', '.join(pool)}")
    names = sorted(set(names), key=list(pool).index)  # a pair's folder: the pool's order
    if not args.summarise_only:
        for a, b in itertools.combinations(names, 2):
            took, played = play_pair(args.out, a, b, pool, args.skill, args.boards, args.seed)
            print(json.dumps({"pair": f"{a}--{b}", "boards_played": played, "s": round(took)}))
    print(summarise(args.out, names).round(1).to_string(index=False))


if __name__ == "__main__":
    main()
