"""Whole-board benchmark: greedy-vs-greedy ICF single boards, played many at once."""

from __future__ import annotations

import platform
import time

import jax
import jax.numpy as jnp

from carromlab.bench.runner import device_name


def bench_boards(
    boards: int, skill: str = "club", seed: int = 0, slots: int = 256, progress: bool = False
) -> dict:
    """Play ``boards`` single ICF boards between greedy players at ``skill``; figures as a
    dict (JSON-ready). A warm-up board (another seed) compiles the kernel first;
    ``compile_s`` is its time."""
    from carromlab.analysis.games import play_games
    from carromlab.analysis.policies import Greedy
    from carromlab.rules.icf_game import IcfGameConfig

    policy = Greedy(skill=skill)
    config = IcfGameConfig(max_boards=1)
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
        games=boards,
        slots=slots,
        progress=progress,
        stats=stats,
    )
    elapsed = time.perf_counter() - t0
    strokes = sum(len(r.strokes) for r in recs)
    won = sum(int(r.boards["winner"].iloc[0] == r.boards["breaker_side"].iloc[0]) for r in recs)
    return {
        "scenario": "boards",
        "boards": boards,
        "skill": skill,
        "policy": repr(policy),
        "slots": slots,
        "elapsed_s": elapsed,
        "boards_per_min": 60 * boards / elapsed,
        "strokes": strokes,
        "strokes_per_board": strokes / boards,
        "kernel_shots": stats["shots"],
        "shots_per_s": stats["shots"] / elapsed,
        "truncated_strokes": sum(int(r.strokes["truncated"].sum()) for r in recs),
        "breaker_wins": won,
        "compile_s": compile_s,
        "device": device_name(),
        "dtype": str(jnp.result_type(float)),
        "jax_version": jax.__version__,
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}",
    }
