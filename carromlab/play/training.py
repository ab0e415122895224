"""A game's learned screen from self-play: the data (:func:`generate`, resumable) and the
whole ``carromlab train`` (:func:`train_screen`); the network, its training and the player are
:mod:`carromlab.analysis.screen` and :mod:`carromlab.analysis.learned`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from carromlab.analysis.learned import (
    SKILLS,
    Recorder,
    Records,
    load_data,
    screen_provenance,
    train,
)
from carromlab.analysis.screen import ScreenSpec, board_pockets, save_screen, turn_features
from carromlab.analysis.variants import default_position
from carromlab.errors import CarromlabError
from carromlab.play.loop import single_board
from carromlab.registry import standard_position


def generate(
    game: str,
    out: Path,
    positions: int = 2000,
    seed: int = 0,
    batch: int = 8,
    shots: int = 8192,
    skills: Sequence[str] = SKILLS,
    progress: bool = True,
    variant: str | None = None,
) -> dict[str, int]:
    """Self-play data for ``game``'s screen in ``out`` (module docstring): batches of
    ``batch`` single boards (whole games where the game has no boards) between its search
    players at ``shots`` kernel shots a decision, skills cycled, until about ``positions``
    decisions are recorded. Resumes: a batch whose file exists is read, not played. Returns
    the counts."""
    from tqdm import tqdm

    from carromlab.play import play_games
    from carromlab.registry import get_game

    g = get_game(game)
    variant = variant or g.variants[0]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    base = learned_base(game, "club")
    turn_size = len(turn_features(_default_turn(variant)))
    config, _ = single_board(g.make_config(variant))  # more kinds of position a minute
    decisions = rows = 0
    k = 0
    bar = tqdm(total=positions, desc=f"{game} decisions", unit="decision", disable=not progress)
    try:
        while decisions < positions:
            path = out / f"batch-{k:04d}.npz"
            if not path.exists():
                skill = skills[k % len(skills)]
                player = replace(base, skill=skill, budget=replace(base.budget, shots=shots))
                records = Records()
                rec = Recorder(player, records, turn_size)
                play_games(
                    [rec] * _seats(config), config, skill=skill, seed=seed,
                    games=range(k * batch, (k + 1) * batch),
                )  # fmt: skip
                arrays: dict[str, Any] = {"skill": np.asarray(skill), **records.arrays()}
                tmp = path.with_suffix(".tmp.npz")
                np.savez_compressed(tmp, **arrays)
                tmp.replace(path)
            with np.load(path) as z:
                nd, nr = len(z["pieces"]), len(z["pos"])
            decisions += nd
            rows += nr
            bar.update(nd)
            bar.set_postfix(labels=rows, refresh=False)
            k += 1
    finally:
        bar.close()
    return {"batches": k, "decisions": decisions, "labels": rows, "turn_size": turn_size}


def _seats(config: Any) -> int:
    return int(getattr(config, "n_seats", 2))


def _default_turn(variant: str) -> Any:
    from carromlab.analysis.variants import analysis_for

    return analysis_for(variant).default_turn()


def learned_base(game: str, skill: str) -> Any:
    """The player whose decisions are recorded: the registry's ``search`` player of ``game``
    at ``skill`` (:func:`generate` sets its budget)."""
    from carromlab.registry import get_game

    g = get_game(game)
    if "search" not in g.players:  # pragma: no cover - every line-board game has one
        raise CarromlabError(f"{game} has no search player to learn from")
    return g.make_player("search", skill)


def train_screen(
    game: str,
    out: Path,
    positions: int = 3000,
    seed: int = 0,
    shots: int = 4096,
    steps: int = 10000,
    progress: bool = True,
    hidden: int = 64,
    head: int = 128,
    batch: int = 1024,
) -> dict[str, Any]:
    """``carromlab train``: self-play data in ``out/data`` (resumable, :func:`generate`), a
    network fitted to it (:func:`train`), the weights in ``out/screen.npz`` with their
    provenance in ``out/screen.json`` and the training curve in ``out/training.jsonl``.
    Returns the provenance."""
    from carromlab.registry import get_game

    g = get_game(game)
    out = Path(out)
    info = generate(g.name, out / "data", positions, seed, shots=shots, progress=progress)
    data = load_data(out / "data")
    spec = ScreenSpec(
        turn_size=int(data["turn"].shape[1]),
        hidden=hidden,
        head=head,
        pockets=board_pockets(standard_position(default_position(g.variants[0]))),
    )
    curve = out / "training.jsonl"
    curve.unlink(missing_ok=True)

    def log(row: dict[str, Any]) -> None:
        with curve.open("a") as f:
            f.write(json.dumps(row) + "\n")

    net, figures = train(
        data, spec, steps=steps, batch=batch, seed=seed, progress=progress, log=log
    )
    about: dict[str, Any] = {**info, "self_play_shots": shots, "skills": list(SKILLS)}
    about["seed"] = seed
    prov = screen_provenance(g.name, about, figures, spec)
    save_screen(net, spec, out / "screen.npz", prov)
    return prov
