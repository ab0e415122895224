"""KOOBA attack timing: one challenger's attack options against default players, whole games
on the throw kernel.

The other KOOBA studies (seats with 2, 3 and 4 players, the attack turn off, Pro) are a study
file, ``studies/kooba-seats.toml`` (``carromlab study run`` / ``carromlab study report``).
These arms are not: they change one player's options (the challenger's ``attack_at``,
``target``, ``attack_players`` and ``press``, :class:`~carromlab.games.kooba.players.KoobaGreedy`),
which a study file cannot set (it names players, not their options).

Arms (``data/studies/kooba/<arm>/games.csv``, written as games end, resumable; with
``--player search`` or ``strong``, ``data/studies/kooba/<player>/<arm>/``): the
challenger (entrant 0; the lag seats it) attacks the leader once they are ``k`` steps along
(k = 1, 2, 3, 5, or never) against default players (at 1 also without pressing on the marker
after a run tag: ``press=False``), and 3-player arms where the challenger attacks the leader or
the next player (the default player does not attack with three players). ``--player`` names
the player every seat plays (the game's ``greedy``, ``search`` or ``strong``, the seats
study's three strengths): the challenger is that player with the arm's attack options.

The summary ``timing`` (a CSV and a figure in ``data/studies/kooba/``): the challenger's win
rate (Wilson 95 %, against the fair share 1/n) and how often it attacked, by when and whom it
attacks; ``paired.csv``: the arms against each other game by game (:func:`paired`: they
share the seed, so the differences are much sharper than the rates' intervals). The default
player (greedy and search: attacking the leader at 4 steps, in two-player games only; strong:
at 1 step) is read from the seats study's ``2p`` and ``3p`` arms
(``data/studies/specs/kooba-seats/arms/<arm>/``; ``2p@search`` etc. for the other players,
:func:`seats_arm`); a row says so when that arm is missing.

    python experiments/kooba_balance.py --games 400
    python experiments/kooba_balance.py --arms 2p-attack-at-1,2p-attack-never --games 400
    python experiments/kooba_balance.py --summarise-only
    python experiments/kooba_balance.py --player search --games 100
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.intervals import rate, sample_mean
from carromlab.games.kooba.driver import play_kooba
from carromlab.games.kooba.machine import KoobaConfig
from carromlab.games.kooba.players import KoobaGreedy
from carromlab.play import GameLog, read_log
from carromlab.plot.intervals import save_study_figure
from carromlab.registry import get_game

OUT = Path("data/studies/kooba")
#: The committed run of studies/kooba-seats.toml: its 2p and 3p arms are the default player.
SEATS = Path("data/studies/specs/kooba-seats")
#: The players every seat can play (the seats study's strengths); greedy's arms are in OUT,
#: the others' in OUT / <player>.
PLAYERS = ("greedy", "search", "strong")
# attack timing: (config, the challenger's attack_at, target, attack_players, press); the
# others are default players
TIMING = {
    # k = 4 against the leader is the default player: the seats study's "2p" arm
    **{f"2p-attack-at-{k}": (KoobaConfig(n_players=2), k, "leader", 2, True) for k in (1, 2, 3, 5)},
    "2p-attack-at-1-no-press": (KoobaConfig(n_players=2), 1, "leader", 2, False),
    "2p-attack-never": (KoobaConfig(n_players=2), None, "leader", 2, True),
    "3p-attack-leader": (KoobaConfig(n_players=3), 4, "leader", 3, True),
    "3p-attack-next": (KoobaConfig(n_players=3), 4, "next", 3, True),
}
#: The seats study's arms the timing table compares with, and their players.
REFERENCE_ARMS = {"2p": 2, "3p": 3}


def player_folder(player: str = "greedy") -> Path:
    """Where ``player``'s timing arms are kept: OUT for greedy (its runs predate the other
    players), ``OUT/<player>`` for the others."""
    return OUT if player == "greedy" else OUT / player


def seats_arm(arm: str, player: str = "greedy") -> str:
    """The seats study's arm ``arm`` played by ``player``: the arm as written for greedy (its
    players), its copy ``<arm>@<player>`` for the others."""
    return arm if player == "greedy" else f"{arm}@{player}"


def default_player(skill: str, player: str = "greedy") -> KoobaGreedy:
    """The player every seat but the challenger's plays: the game's ``player`` at ``skill``."""
    return get_game("kooba").make_player(player, skill)


def default_options(player: str = "greedy") -> tuple:
    """The default player's attack options: (attack_at, target, attack_players, press)."""
    p = default_player("club", player)
    return p.attack_at, p.target, p.attack_players, p.press


def arm_players(
    arm: str, skill: str, player: str = "greedy"
) -> tuple[KoobaConfig, list[KoobaGreedy]]:
    """A timing arm's rules and players: the challenger (``player`` with the arm's attack
    options) first, then default players."""
    config, at, target, most, press = TIMING[arm]
    default = default_player(skill, player)
    challenger = replace(default, attack_at=at, target=target, attack_players=most, press=press)
    return config, [challenger] + [default] * (config.n_players - 1)


def run_arm(
    folder: Path, arm: str, n: int, seed: int, skill: str, player: str = "greedy"
) -> tuple[float, int]:
    """Play games ``0..n-1`` of a timing arm (skipping those already logged); (seconds,
    games played now)."""
    config, players = arm_players(arm, skill, player)
    extra = {} if player == "greedy" else {"player": player}  # greedy's logs predate the option
    meta = run_metadata(
        kind="kooba_balance",
        skill=skill,
        rules=dict(vars(config)),
        policy=[repr(p) for p in players],
        seed=seed,
        **extra,
    )
    log = GameLog(folder, meta)
    todo = [g for g in range(n) if g not in log.done()]
    t0 = time.perf_counter()
    if todo:
        play_kooba(config, skill, seed, todo, players=players, on_game=log.add)
    log.write_parquet()
    return time.perf_counter() - t0, len(todo)


def finished_games(folder: Path) -> pd.DataFrame | None:
    """The finished games of an arm's folder; None when it has no ``games.csv``."""
    if not (folder / "games.csv").exists():
        return None
    g = read_log(folder)[1]
    return g[g["finished"].astype(bool)]


def timing_row(arm: str, players: int, options: tuple, games: pd.DataFrame | None) -> dict:
    """One row of the timing table: the challenger's (entrant 0's) options, win rate and how
    often it attacked (NaN without games)."""
    at, target, most, press = options
    row = {
        "arm": arm,
        "players": players,
        "attack_at": "never" if at is None or players > most else at,
    }
    row.update(target=target, press=press, games=0 if games is None else len(games))
    row["fair"] = 1 / players
    if games is None:
        row.update(win=np.nan, win_lo=np.nan, win_hi=np.nan, attacked=np.nan)
        return row
    row["win"], row["win_lo"], row["win_hi"] = rate(
        int((games["winner_entrant"] == 0).sum()), len(games)
    )
    seat = sum((games[f"entrant_{p}"] == 0) * p for p in range(players))
    attacked = games.apply(lambda r, s=seat: bool(r[f"attacked_{s[r.name]}"]), axis=1)
    row["attacked"] = float(attacked.mean())
    return row


def reference_row(arm: str, players: int, seats: Path, player: str = "greedy") -> dict:
    """The default player's row, from the seats study's arm (:func:`seats_arm`; its source
    says where, or that the arm is missing and how to play it)."""
    arm = seats_arm(arm, player)
    folder = seats / "arms" / arm
    games = finished_games(folder)
    row = timing_row(arm, players, default_options(player), games)
    row["source"] = (
        str(folder)
        if games is not None
        else f"missing {folder}/games.csv (carromlab study run studies/kooba-seats.toml "
        f"--out {seats})"
    )
    return row


def timing(out: Path, seats: Path = SEATS, player: str = "greedy") -> pd.DataFrame:
    """The timing table: the default player's arms (the seats study's), then every timing
    arm played in ``out``."""
    rows = [reference_row(a, n, seats, player) for a, n in REFERENCE_ARMS.items()]
    for arm, (config, *options) in TIMING.items():
        games = finished_games(out / arm)
        if games is not None:
            row = timing_row(arm, config.n_players, tuple(options), games)
            rows.append({**row, "source": str(out / arm)})
    return pd.DataFrame(rows)


#: The paired comparisons: (arm, the arm it is compared with); ``never`` and the default
#: (``default-2p``, ``default-3p``: the seats study's arms) as in the timing table.
PAIRS = (
    ("2p-attack-at-1", "2p-attack-never"),
    ("2p-attack-at-3", "2p-attack-never"),
    ("2p-attack-at-5", "2p-attack-never"),
    ("default-2p", "2p-attack-never"),
    ("2p-attack-at-1-no-press", "2p-attack-at-1"),
    ("3p-attack-leader", "default-3p"),
    ("3p-attack-next", "default-3p"),
)


def _wins(folder: Path) -> pd.Series | None:
    """1.0 where the challenger (entrant 0) won, by game number; None without games."""
    games = finished_games(folder)
    if games is None:
        return None
    return games.set_index("game")["winner_entrant"].eq(0).astype(float)


def paired(out: Path, seats: Path = SEATS, player: str = "greedy") -> pd.DataFrame:
    """Each pair of :data:`PAIRS` played: the challenger's win rate in one arm minus the
    other's over the games both played. The arms share the seed, so game k deals both the
    same throws until the challenger's options part them (most games end the same): the
    mean difference of the paired outcomes with its t interval is much narrower than the
    two win rates' intervals."""

    def folder(arm: str) -> Path:
        if arm.startswith("default-"):
            return seats / "arms" / seats_arm(arm.removeprefix("default-"), player)
        return out / arm

    rows = []
    for arm, against in PAIRS:
        a, b = _wins(folder(arm)), _wins(folder(against))
        if a is None or b is None:
            continue
        both = a.index.intersection(b.index)
        d = (a[both] - b[both]).to_numpy()
        row = {"arm": arm, "against": against, "games": len(both)}
        row["same_outcome"] = int((d == 0).sum())
        row["diff"], row["diff_lo"], row["diff_hi"] = sample_mean(d)
        rows.append(row)
    return pd.DataFrame(rows)


def summarise(out: Path, seats: Path = SEATS, player: str = "greedy") -> pd.DataFrame:
    """Write ``timing.csv`` and ``timing.png`` (and the paired comparisons, ``paired.csv``)
    to ``out``; the timing table."""
    table = timing(out, seats, player)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "timing.csv", index=False, float_format="%.4f")
    pairs = paired(out, seats, player)
    if len(pairs):
        pairs.to_csv(out / "paired.csv", index=False, float_format="%.4f")
    panels = [("win", "win_lo", "win_hi", "the challenger's win rate", "fair")]
    title = f"KOOBA timing: the challenger's attack against {player} players"
    save_study_figure(table, panels, title, out / "timing.png")
    return table


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")  # figures are files
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skill", default="club")
    ap.add_argument(
        "--player", default="greedy", choices=PLAYERS, help="the player every seat plays"
    )
    ap.add_argument("--out", type=Path, help=f"default {OUT} (greedy), {OUT}/<player>")
    ap.add_argument("--arms", default="", help="comma-separated timing arms (default all)")
    ap.add_argument("--summarise-only", action="store_true")
    args = ap.parse_args()
    chosen = set(args.arms.split(",")) if args.arms else set(TIMING)
    unknown = chosen - set(TIMING)
    if unknown:
        ap.error(f"unknown arms {sorted(unknown)}; known: {', '.join(TIMING)}")
    out = args.out or player_folder(args.player)
    if not args.summarise_only:
        for arm in TIMING:
            if arm in chosen:
                took, played = run_arm(
                    out / arm, arm, args.games, args.seed, args.skill, args.player
                )
                print(json.dumps({"arm": arm, "games_played": played, "seconds": round(took, 1)}))
    print(f"\ntiming\n{summarise(out, player=args.player).to_string(index=False)}")
    if (out / "paired.csv").exists():
        print(f"\npaired\n{pd.read_csv(out / 'paired.csv').to_string(index=False)}")


if __name__ == "__main__":
    main()
