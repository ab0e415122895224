"""Break search for the games that open with a break, and the searched break against the
fixed one.

For each (variant, skill) asked for, the break is searched (carromlab.analysis.breaks: a grid
over placements, aims and hard speeds, cross-entropy refinement, the best re-estimated) and
stored in the game's table ``carromlab/games/<game>/breaks.json`` with its provenance; a
break already in the table is not searched again. Then ``--n`` executions of the searched
break and of the players' fixed break (a straight 5 m/s flick from the middle of the
baseline) are compared on fresh keys: coins pocketed a break (all pieces but the striker),
own coins pocketed, P(at least one own coin pocketed), P(striker pocketed) and the shot
value, each with its 95 % interval. Where the game's default player chooses its break by its
own screen (Carroms: ``CarromsGreedy`` screens every stroke, the break too), that break is
compared as well (row ``greedy``: the player's choice for seed 0). Rows go to
``data/studies/breaks/<variant>.csv``.

A break is searched for each view a breaker has: one for ICF (the game sets the rosette with
an arm of the Y at the breaker, so every breaker sees the same), one for each seat at Carroms
(South breaks red, North green: the rack seen from the other side). Carroms always searches
the views as the game shows them (``--as-played``).

    python experiments/break_search.py --variant icf --skills club --n 4000
    python experiments/break_search.py --variant carroms --skills club --n 4000
    python experiments/break_search.py --variant carrooka --skills club --n 4000
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis.breaks import (
    break_key,
    break_turn,
    read_breaks,
    search_break,
    write_break,
)
from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.intervals import rate, sample_mean
from carromlab.analysis.policies import Greedy
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.variants import analysis_for
from carromlab.registry import get_game, standard_position
from carromlab.shots import Shot
from carromlab.shots import skill as skill_named

OUT = Path("data/studies/breaks")
FIXED = Greedy().break_shot


def opening_of(variant: str):
    game = get_game(variant)
    name = f"{variant}-opening"
    if name not in game.positions:
        raise SystemExit(f"{variant!r} has no opening position ({', '.join(game.positions)})")
    return standard_position(name)


def as_played(variant: str):
    """The breaker's view of a game's first board, as the game loop shows it to the player
    (``--as-played``): the rosette turned to the breaker's seat, as ``IcfDriver`` shows it
    (set by hand, like the opening: the turned view keeps the flag)."""
    from carromlab.play.drivers import SEAT_ANGLE, turned
    from carromlab.registry import get_game

    game = get_game(variant)
    config = game.make_config(variant, max_boards=1)
    board = game.driver(config).new_state(0).board
    seat = config.seats[board.turn]
    return turned(board.position, -SEAT_ANGLE[seat]), board.turn_state(config.due_rule)


def breaker_views(variant: str, as_played_: bool) -> list[tuple[str, object, object]]:
    """(label, position, turn) of every view of a board's opening that a breaker plays."""
    if variant == "carroms":
        from carromlab.games.carroms.machine import new_game
        from carromlab.play.drivers import SEAT_ANGLE, turned

        config = get_game(variant).make_config(variant)
        views = []
        for first in (0, 1):
            state = new_game(config, first)
            seat = config.seats[first]
            views.append((seat, turned(state.position, -SEAT_ANGLE[seat]), state.turn_state()))
        return views
    if as_played_:
        return [("as-played", *as_played(variant))]
    return [("opening", opening_of(variant), break_turn(variant))]


def player_scoring(variant: str):
    """The value weights the game's default player searches with (None: the rules' own;
    Carrooka's prices a foul, the opponent's bonus shot)."""
    return getattr(get_game(variant).make_player("greedy", variant=variant), "scoring", None)


def players_break(variant: str, skill: str, position, turn) -> tuple | None:
    """The default player's own break when it screens its break (no fixed break);
    (placement m, angle deg, speed m/s)."""
    game = get_game(variant)
    player = game.make_player("greedy", skill, variant)
    if getattr(player, "break_shot", None) is not None:
        return None
    if variant == "carrooka":  # its player plans from the game's state
        from carromlab.analysis.asks import Evaluator
        from carromlab.analysis.policies import run_plan
        from carromlab.games.carrooka.driver import CAPACITY
        from carromlab.games.carrooka.machine import new_game

        config = game.make_config(variant)
        plan = player.plan(new_game(config), config, 0)
        shot = run_plan(plan, Evaluator(position.board.layout, CAPACITY))
        x, y = float(shot.x[0]), float(shot.y[0])
        return (
            math.degrees(math.atan2(y, x)),
            float(np.degrees(shot.angle[0])),
            float(shot.speed[0]),
        )
    shot = player.choose(position, turn, 0)
    return (float(shot.x), float(np.degrees(shot.angle)), float(shot.speed))


def executions(
    position, shot, skill: str, turn, n: int, seed: int, scoring=None
) -> dict[str, np.ndarray]:
    """Per-execution quantities of ``n`` noisy executions of ``shot`` (placement m, angle
    deg, speed m/s)."""
    va = analysis_for(position.variant)
    runner = ShotRunner(va.table_position(position), va.shooter_kind)
    x0, y0 = va.origin(position, [shot[0]])
    base = Shot(x0, y0, np.radians([shot[1]]), np.array([shot[2]], float))
    rows: dict[str, list] = {}
    for ch in runner.run(base, n, va.noise(skill_named(skill)), seed):
        ev = va.rules.evaluate(runner.position, ch.outcome, turn, scoring)
        cap = np.asarray(ch.outcome["capture"])
        rows.setdefault("pieces_pocketed", []).append((cap[:, 1:] >= 0).sum(axis=1))
        # the striker (ICF) or the shooting ring (Carroms) pocketed
        striker = (
            ev["striker_pocketed"] if "striker_pocketed" in ev else ev["foul.shooter_pocketed"]
        )
        # own coins / rings; Carrooka: the pieces on (the red at the break)
        own = ev["own_pocketed"] if "own_pocketed" in ev else ev["pieces_on_pocketed"]
        got = {**ev, "own_pocketed": own, "striker_pocketed": striker}
        got["truncated"] = ch.outcome["truncated"]
        for k in ("own_pocketed", "points", "striker_pocketed", "truncated"):
            rows.setdefault(k, []).append(np.asarray(got[k]))
    return {k: np.concatenate(v) for k, v in rows.items()}


def summary(name: str, shot, got: dict) -> dict:
    n = len(got["points"])
    row = {"break": name, "placement": shot[0], "angle": shot[1], "speed": shot[2], "n": n}
    for k in ("pieces_pocketed", "own_pocketed", "points"):
        row[k], row[f"{k}_lo"], row[f"{k}_hi"] = sample_mean(got[k])
    for k, hits in (
        ("p_own", got["own_pocketed"] > 0),
        ("p_striker", got["striker_pocketed"]),
    ):
        row[k], row[f"{k}_lo"], row[f"{k}_hi"] = rate(int(np.sum(hits)), n)
    row["truncated"] = int(np.sum(got["truncated"]))
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="icf")
    ap.add_argument("--skills", default="club", help="comma-separated skill names")
    ap.add_argument("--n", type=int, default=4000, help="executions of each break compared")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--as-played",
        action="store_true",
        help="search and compare on the breaker's view of a game's first board",
    )
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for view, position, turn in breaker_views(args.variant, args.as_played):
        for skill in args.skills.split(","):
            t0 = time.perf_counter()
            scoring = player_scoring(args.variant)
            key = break_key(position, skill, turn, scoring=scoring)
            record = read_breaks(args.variant).get(key)
            if record is None:
                record = search_break(position, skill, turn, scoring=scoring, progress=True)
                record["provenance"]["search_s"] = round(time.perf_counter() - t0, 1)
                write_break(record)
            searched = tuple(record["shot"][k] for k in ("placement", "angle", "speed"))
            # the straight break of the square boards (Carrooka's break line is a circle)
            compared = [] if args.variant == "carrooka" else [("fixed", FIXED)]
            own = players_break(args.variant, skill, position, turn)
            if own is not None:
                compared.append(("greedy", own))
            for name, shot in (*compared, ("searched", searched)):
                got = executions(position, shot, skill, turn, args.n, args.seed, scoring)
                row = {"variant": args.variant, "view": view, "skill": skill}
                rows.append({**row, **summary(name, shot, got)})
                print(json.dumps(rows[-1]), flush=True)
    table = pd.DataFrame(rows)
    path = OUT / f"{args.variant}{'-as-played' if args.as_played else ''}.csv"
    table.to_csv(path.with_suffix(".csv.tmp"), index=False)
    path.with_suffix(".csv.tmp").replace(path)
    meta = run_metadata(kind="break_comparison", variant=args.variant, n=args.n, seed=args.seed)
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {path}; angle of the searched break in degrees, speed m/s")


if __name__ == "__main__":
    main()
