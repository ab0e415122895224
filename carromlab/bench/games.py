"""Whole-game benchmarks: any game's boards (ICF single boards, other games whole) between
two copies of one of its players, and greedy Carrooka games, played many at once."""

from __future__ import annotations

import time

import jax
import jax.numpy as jnp

from carromlab.bench.runner import device_name, machine_name


def _timed_play(policy, config, skill, seed, games, slots, progress, seats: int = 2):
    """Warm up (one game of another seed: the compilations), then time ``games`` games with
    ``policy`` in every one of the ``seats``; (records, elapsed s, kernel shots, compile s)."""
    from carromlab.play import play_games

    t0 = time.perf_counter()
    play_games([policy] * seats, config, skill=skill, seed=seed + 1, games=1, slots=1)
    compile_s = time.perf_counter() - t0
    stats: dict = {}
    t0 = time.perf_counter()
    recs = play_games(
        [policy] * seats,
        config,
        skill=skill,
        seed=seed,
        games=games,
        slots=slots,
        progress=progress,
        stats=stats,
    )
    return recs, time.perf_counter() - t0, stats["shots"], compile_s


def _machine() -> dict:
    return {
        "device": device_name(),
        "dtype": str(jnp.result_type(float)),
        "jax_version": jax.__version__,
        "machine": machine_name(),
        "date": time.strftime("%Y-%m-%d"),
    }


def bench_boards(
    boards: int,
    skill: str = "club",
    seed: int = 0,
    slots: int = 256,
    progress: bool = False,
    policy: str = "greedy",
    shots: int | None = None,
    game: str = "icf",
) -> dict:
    """Play ``boards`` single boards of ``game`` (whole games where the game has no boards)
    between ``policy`` players in every seat (the game's player names: greedy, search,
    learned...) at ``skill``; ``shots``: a search player's budget (kernel shots a decision;
    None: its own). Figures as a dict (JSON-ready): the cost per board and per decision (each
    stroke is one decision), in seconds and kernel shots. A warm-up board (another seed)
    compiles the kernel first; ``compile_s`` is its time."""
    from dataclasses import replace

    from carromlab.play.loop import driver_for, single_board
    from carromlab.registry import get_game

    g = get_game(game)
    name = policy
    player = g.make_player(name, skill)
    if shots is not None:
        player = replace(player, budget=replace(player.budget, shots=int(shots)))
    config, one_board = single_board(g.make_config())
    seats = driver_for(config).n_seats
    recs, elapsed, kernel_shots, compile_s = _timed_play(
        player, config, skill, seed, boards, slots, progress, seats
    )
    strokes = sum(len(r.strokes) for r in recs)
    out = {
        "scenario": "boards",
        "game": g.name,
        "boards": boards,
        "unit": "single boards" if one_board else "whole games",
        "skill": skill,
        "policy": repr(player),
        "policy_name": name,
        "shots_a_decision": getattr(getattr(player, "budget", None), "shots", None),
        "slots": slots,
        "elapsed_s": elapsed,
        "boards_per_min": 60 * boards / elapsed,
        "s_per_board": elapsed / boards,
        "strokes": strokes,
        "strokes_per_board": strokes / boards,
        "s_per_decision": elapsed / max(strokes, 1),
        "kernel_shots": kernel_shots,
        "shots_per_stroke": kernel_shots / max(strokes, 1),
        "shots_per_s": kernel_shots / elapsed,
        "truncated_strokes": sum(
            int(r.strokes["truncated"].sum()) for r in recs if "truncated" in r.strokes
        ),
        "compile_s": compile_s,
        **_machine(),
    }
    if g.name == "icf":
        out["breaker_wins"] = sum(
            int(r.boards["winner"].iloc[0] == r.boards["breaker_side"].iloc[0]) for r in recs
        )
    return out


def bench_carrooka_games(
    games: int, skill: str = "club", seed: int = 0, slots: int = 256, progress: bool = False
) -> dict:
    """Play ``games`` whole Carrooka games between greedy players at ``skill``; figures as a
    dict (JSON-ready), after a warm-up game."""
    from carromlab.games.carrooka.machine import CarrookaConfig
    from carromlab.games.carrooka.players import CarrookaGreedy

    policy = CarrookaGreedy(skill=skill)
    recs, elapsed, shots, compile_s = _timed_play(
        policy, CarrookaConfig(), skill, seed, games, slots, progress
    )
    strokes = sum(len(r.strokes) for r in recs)
    return {
        "scenario": "carrooka-games",
        "games": games,
        "skill": skill,
        "policy": repr(policy),
        "slots": slots,
        "elapsed_s": elapsed,
        "games_per_min": 60 * games / elapsed,
        "strokes": strokes,
        "strokes_per_game": strokes / games,
        "kernel_shots": shots,
        "shots_per_s": shots / elapsed,
        "truncated_strokes": sum(int(r.strokes["truncated"].sum()) for r in recs),
        "first_player_wins": sum(int(r.state.winner == 0) for r in recs),
        "finished": sum(int(r.state.over) for r in recs),
        "compile_s": compile_s,
        **_machine(),
    }
