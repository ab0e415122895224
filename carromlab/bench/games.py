"""Whole-game benchmarks: greedy-vs-greedy ICF single boards and Carrooka games, played many
at once."""

from __future__ import annotations

import time

import jax
import jax.numpy as jnp

from carromlab.bench.runner import device_name, machine_name


def _timed_play(policy, config, skill, seed, games, slots, progress):
    """Warm up (one game of another seed: the compilations), then time ``games`` games;
    (records, elapsed s, kernel shots, compile s)."""
    from carromlab.play import play_games

    t0 = time.perf_counter()
    play_games([policy, policy], config, skill=skill, seed=seed + 1, games=1, slots=1)
    compile_s = time.perf_counter() - t0
    stats: dict = {}
    t0 = time.perf_counter()
    recs = play_games(
        [policy, policy],
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
) -> dict:
    """Play ``boards`` single ICF boards between two ``policy`` players (the ICF game's
    player names: greedy, lookahead, random, search...) at ``skill``; ``shots``: the search
    player's budget (kernel shots a decision; None: its own). Figures as a dict (JSON-ready).
    A warm-up board (another seed) compiles the kernel first; ``compile_s`` is its time."""
    from dataclasses import replace

    from carromlab.games.icf.machine import IcfConfig
    from carromlab.registry import get_game

    name = policy
    policy = get_game("icf").make_player(name, skill)
    if shots is not None:
        policy = replace(policy, budget=replace(policy.budget, shots=int(shots)))
    config = IcfConfig(max_boards=1)
    recs, elapsed, kernel_shots, compile_s = _timed_play(
        policy, config, skill, seed, boards, slots, progress
    )
    strokes = sum(len(r.strokes) for r in recs)
    won = sum(int(r.boards["winner"].iloc[0] == r.boards["breaker_side"].iloc[0]) for r in recs)
    return {
        "scenario": "boards",
        "boards": boards,
        "skill": skill,
        "policy": repr(policy),
        "policy_name": name,
        "shots_a_decision": getattr(getattr(policy, "budget", None), "shots", None),
        "slots": slots,
        "elapsed_s": elapsed,
        "boards_per_min": 60 * boards / elapsed,
        "strokes": strokes,
        "strokes_per_board": strokes / boards,
        "kernel_shots": kernel_shots,
        "shots_per_stroke": kernel_shots / strokes,
        "shots_per_s": kernel_shots / elapsed,
        "truncated_strokes": sum(int(r.strokes["truncated"].sum()) for r in recs),
        "breaker_wins": won,
        "compile_s": compile_s,
        **_machine(),
    }


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
