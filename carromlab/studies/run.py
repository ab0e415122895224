"""Run a study: every arm's games, in blocks, on an executor; resumable; the same rows whatever
the executor and the number of workers.

Each arm is a game log (:class:`~carromlab.play.log.GameLog`) in ``OUT/arms/<arm>/``, claimed
for the arm's settings (variant, rules, physics, players and their definitions, skills, the
seed, the kernel's contact model): a rerun plays only the games not yet there, and an arm
whose settings changed is refused, naming what differs. ``OUT/study.json`` holds the study
file's document and the run's provenance; ``carromlab study report OUT`` reads the folder.

A job plays a *block* of an arm's games (consecutive indices, ``block`` of them) in one
process (:func:`play_block`, a top-level function any executor can ship): its rows come back,
and this process alone writes them, block by block in index order, so a killed run loses at
most the blocks in flight and the folder never holds a block past a gap. A game depends only
on the seed and its index (:func:`carromlab.play.play_games`), so the rows do not depend on
the blocks, the executor or its workers.

**Precision target.** With ``precision`` an arm stops at the first block boundary where its
first question's interval is at most ``precision`` wide on each side (checked on the games
before the boundary, in index order; ``games`` is then the cap). :func:`games_used` applies
the same rule to the rows of a folder, so the report reads what the run played, however many
workers ran ahead: blocks finished past the stopping point are not written.
"""

from __future__ import annotations

import fnmatch
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from pathlib import Path
from typing import Any

import pandas as pd

from carromlab.errors import CarromlabError
from carromlab.studies.questions import Estimate, answer, parse_question
from carromlab.studies.spec import Arm, Study

ARMS = "arms"
STUDY_JSON = "study.json"


def arm_folder(out: Path, arm: str) -> Path:
    return Path(out) / ARMS / arm


def headline(study: Study, games: pd.DataFrame, boards: pd.DataFrame) -> Estimate:
    """The study's first question on these rows."""
    return answer(parse_question(study.questions[0]), games, boards, study.confidence)


def _first(games: pd.DataFrame, boards: pd.DataFrame, n: int):
    g = games[pd.to_numeric(games["game"]) < n] if len(games) else games
    b = boards[pd.to_numeric(boards["game"]) < n] if len(boards) and "game" in boards else boards
    return g, b


def games_used(
    study: Study, games: pd.DataFrame, boards: pd.DataFrame, cap: int | None = None
) -> tuple[int, bool]:
    """``(k, complete)``: how many of an arm's games (indices ``0 .. k-1``) its results use,
    and whether the arm is complete. Only the complete prefix of the games logged counts.
    Without a precision target: that prefix, complete at ``games``; with one, the first block
    boundary within it where the target is met (complete), else the prefix (complete at the
    cap; ``cap``: the arm's games, default the study's)."""
    cap = study.games if cap is None else int(cap)
    have = set(pd.to_numeric(games["game"]).astype(int)) if len(games) else set()
    prefix = 0
    while prefix in have and prefix < cap:
        prefix += 1
    if study.precision is not None:
        for end in range(study.block, prefix + 1, study.block):
            if headline(study, *_first(games, boards, end)).half_width <= study.precision:
                return end, True
    return prefix, prefix >= cap


def arm_rows(study: Study, out: Path, arm: str) -> tuple[pd.DataFrame, pd.DataFrame, int]:
    """An arm's game and board rows as its results use them (:func:`games_used`), and that
    count."""
    from carromlab.play.log import read_log

    folder = arm_folder(out, arm)
    if not any((folder / name).exists() for name in ("log.sqlite", "games.csv")):
        return pd.DataFrame(columns=["game"]), pd.DataFrame(), 0
    boards, games = read_log(folder)
    n, _ = games_used(study, games, boards, study.arm(arm).games)
    g, b = _first(games, boards, n)
    return g, b, n


def make_players(settings: dict[str, Any], config) -> list:
    """The arm's players, one a seat, each made to value the arm's rules where the game says
    how (:attr:`~carromlab.registry.Game.player_for_rules`)."""
    from carromlab.registry import get_game

    game = get_game(settings["variant"])
    out = []
    for policy, skill in zip(settings["players"], settings["skills"], strict=True):
        player = game.make_player(policy, skill=skill, variant=settings["variant"])
        if game.player_for_rules is not None:
            player = game.player_for_rules(player, config)
        out.append(player)
    return out


def arm_config(settings: dict[str, Any]):
    from carromlab.registry import get_game

    return get_game(settings["variant"]).make_config(settings["variant"], **settings["rules"])


def play_block(settings: dict[str, Any], seed: int, games: list[int]) -> list[tuple[dict, Any]]:
    """Play games ``games`` of one arm (``Arm.settings()``): each game's row and its board
    rows. A top-level function, so any executor can ship it."""
    from carromlab.physics import Physics
    from carromlab.play.log import game_row
    from carromlab.play.loop import play_games

    config = arm_config(settings)
    players = make_players(settings, config)
    physics = Physics(**settings["physics"]) if settings["physics"] else None
    recs = play_games(
        players, config, skill=list(settings["skills"]), seed=seed, games=games, physics=physics
    )
    return [(game_row(r), r.boards) for r in recs]


def arm_meta(study: Study, arm: Arm) -> dict[str, Any]:
    """What an arm's log is claimed for (the versions are kept, not compared)."""
    import jax
    import numpy as np

    from carromlab._version import __version__
    from carromlab.play.log import kernel_meta

    config = arm_config(arm.settings())
    players = make_players(arm.settings(), config)
    return kernel_meta(
        {
            "carromlab": __version__,
            "jax": jax.__version__,
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "kind": "study",
            "game": study.game,
            "seed": study.seed,
            **{k: v for k, v in arm.settings().items() if k not in ("name", "base", "games")},
            "config": {k: v for k, v in vars(config).items() if k != "board"},
            "policies": [repr(p) for p in players],
        }
    )


class _Record:
    """A finished game as the log takes it (its row and board rows)."""

    def __init__(self, row: dict, boards):
        self.row, self.boards = row, boards
        self.strokes = pd.DataFrame()
        self.state = None


def add_rows(log, rows: list[tuple[dict, Any]]) -> None:
    """Write a block's rows (as :func:`play_block` returns them) to a game log, in order."""
    for row, board_rows in rows:
        log.add(_Record(row, board_rows))


def write_study_json(study: Study, out: Path) -> None:
    """``OUT/study.json``: the file's document (the latest run's: a rerun may change the size,
    the questions, the baseline or add arms; each arm's own settings are guarded by its log)
    and where and when the study was first run. A folder holding a study of another game or
    seed is refused."""
    from carromlab._version import __version__
    from carromlab.bench.runner import machine_name

    path = Path(out) / STUDY_JSON
    info: dict[str, Any] = {}
    if path.exists():
        try:
            info = json.loads(path.read_text())
            held = info["document"]
        except (OSError, ValueError, KeyError, TypeError):
            raise CarromlabError(f"{path}: not a study's record; use a new folder") from None
        if (held.get("game"), held.get("seed", 0)) != (study.game_asked, study.seed):
            raise CarromlabError(
                f"{out} holds another study ({info.get('name')!r}: game {held.get('game')!r}, "
                f"seed {held.get('seed', 0)}); use a new folder"
            )
    Path(out).mkdir(parents=True, exist_ok=True)
    info.setdefault("machine", machine_name())
    info.setdefault("started", time.strftime("%Y-%m-%d %H:%M:%S %Z"))
    info.setdefault("carromlab", __version__)
    info.update(
        name=study.name, document=study.document, updated=time.strftime("%Y-%m-%d %H:%M:%S %Z")
    )
    if study.text:  # the file as written (the report shows it)
        info["text"] = study.text
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(info, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)


def read_study(out: str | Path) -> Study:
    """The study a folder was run for (from ``OUT/study.json``)."""
    from carromlab.studies.spec import parse_study

    path = Path(out) / STUDY_JSON
    if not path.is_file():
        raise CarromlabError(f"{out}: no {STUDY_JSON}: not a study's folder (carromlab study run)")
    try:
        held = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise CarromlabError(f"{path}: cannot read it ({e})") from None
    return parse_study(held["document"], source=str(path), default_name=held.get("name", "study"))


class _ArmRun:
    def __init__(self, study: Study, out: Path, arm: Arm, bar):
        from carromlab.play.log import GameLog

        self.arm = arm
        self.log = GameLog(arm_folder(out, arm.name), arm_meta(study, arm))
        self.done = done = self.log.done()
        self.blocks = [
            list(range(s, min(s + study.block, arm.games)))
            for s in range(0, arm.games, study.block)
        ]
        self.next = 0  # the first block not yet wholly in the log
        while self.next < len(self.blocks) and set(self.blocks[self.next]) <= done:
            self.next += 1
        self.buffer: dict[int, list] = {}
        self.stopped = False
        self.bar = bar


def select_arms(study: Study, patterns: Sequence[str] | None) -> list[Arm]:
    """The arms of ``study`` that any of ``patterns`` names (an arm's name or a shell
    pattern: ``*@greedy``, ``laws*``), in the study's order; None or empty: every arm. A
    pattern that matches no arm is refused in one line naming it and the arms."""
    if not patterns:
        return list(study.arms)
    names = [a.name for a in study.arms]
    for p in patterns:
        if not fnmatch.filter(names, p):
            raise CarromlabError(
                f"--arms: {p!r} matches no arm of {study.name!r} ({', '.join(names)})"
            )
    return [a for a in study.arms if any(fnmatch.fnmatchcase(a.name, p) for p in patterns)]


def run_study(
    study: Study,
    out: str | Path,
    executor: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    play: Callable[[dict[str, Any], int, list[int]], list] = play_block,
    arms: Sequence[str] | None = None,
) -> dict[str, int]:
    """Play every arm of ``study`` into ``out`` (the module's docstring); returns the games
    each arm's results use. ``arms``: only the arms these names or shell patterns match
    (:func:`select_arms`; a long study played a part at a time, the cheap copies first).
    ``play`` plays a block (a test's stand-in exercises the folder's machinery without the
    kernel: a top-level function for the processes and dask executors)."""
    from tqdm import tqdm

    from carromlab.sweeps.executors import check_executor, open_executor

    check_executor(executor, workers, scheduler)
    chosen = select_arms(study, arms)
    out = Path(out)
    write_study_json(study, out)
    runs: list[_ArmRun] = []
    width = max(len(a.name) for a in chosen)
    for i, arm in enumerate(chosen):
        bar = tqdm(
            total=arm.games,
            desc=arm.name.ljust(width),
            unit="game",
            position=i,
            leave=True,
            disable=not progress,
        )
        run = _ArmRun(study, out, arm, bar)
        runs.append(run)
        _advance(study, run)
    queue = [
        (r, b) for b in range(max(len(r.blocks) for r in runs)) for r in runs if b >= r.next
        if b < len(r.blocks) and not r.stopped
    ]  # fmt: skip
    try:
        if queue:
            with open_executor(executor, workers, scheduler) as (pool, slots):
                pending: dict[Future, tuple[_ArmRun, int]] = {}
                queue.reverse()
                while queue or pending:
                    while queue and len(pending) < 2 * slots:
                        r, b = queue.pop()
                        if r.stopped:
                            continue
                        todo = [g for g in r.blocks[b] if g not in r.done]  # (a cut block)
                        f = pool.submit(play, r.arm.settings(), study.seed, todo)
                        pending[f] = (r, b)
                    if not pending:
                        break
                    finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                    for f in finished:
                        r, b = pending.pop(f)
                        if r.stopped:
                            continue
                        try:
                            r.buffer[b] = f.result()
                        except CarromlabError as e:  # which arm, with the game and stroke
                            raise CarromlabError(f"arm {r.arm.name!r}: {e}") from e
                        _advance(study, r)
                        if r.stopped:  # its later blocks are not needed
                            for g, (r2, _b2) in list(pending.items()):
                                if r2 is r and g.cancel():
                                    pending.pop(g)
    finally:
        for r in runs:
            r.bar.close()
            r.log.write_parquet()
    return {r.arm.name: arm_rows(study, out, r.arm.name)[2] for r in runs}


def _advance(study: Study, r: _ArmRun) -> None:
    """Write the arm's buffered blocks that come next, in order, checking after each whether
    the arm is complete (its cap, or its precision target met at that boundary); show its
    running estimate."""
    from carromlab.play.log import read_log

    while True:
        boards, games = read_log(r.log.folder) if r.log.done() else (pd.DataFrame(), pd.DataFrame())
        used, r.stopped = games_used(study, games, boards, r.arm.games)
        if r.stopped or r.next not in r.buffer:
            break
        add_rows(r.log, r.buffer.pop(r.next))
        r.next += 1
    if r.stopped:
        r.buffer.clear()
    r.bar.n = used
    if used:
        e = headline(study, *_first(games, boards, used))
        r.bar.set_postfix_str(f"{study.questions[0]} {e.value:.3f} [{e.lo:.3f}, {e.hi:.3f}]")
    r.bar.refresh()


__all__ = [
    "arm_folder",
    "arm_rows",
    "games_used",
    "play_block",
    "read_study",
    "run_study",
]
