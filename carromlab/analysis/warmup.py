"""Compile a game's common kernel programs ahead (``carromlab warmup``).

A command's first run on a machine compiles its kernels (seconds to a minute each on two
cores); every later run reads them back from the compilation cache
(:mod:`carromlab.compile_cache`, :mod:`carromlab.physics.programs`). :func:`warmup_tasks` lists
the programs a game's commands use, each as a task that runs the real code path at the
smallest size (one shot a cell), so that what is compiled is exactly what the commands use:

- shot analysis (``estimate``, ``shotmap``, ``best``, the explorer): the shot runner's
  program for each disc count the board's positions round up to
  (:data:`~carromlab.physics.kernel.DISC_BUCKETS`, from the fewest pieces to a full board);
- whole games (``play``, ``sweep``, studies): the players' evaluator at the game's capacity.

KOOBA's throws use a small kernel that compiles in about a second: it has nothing to warm.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from carromlab.analysis.asks import Ask, Evaluator
from carromlab.analysis.shotmap import default_grid, evaluate_cells
from carromlab.analysis.variants import analysis_for, default_position
from carromlab.physics.kernel import DISC_BUCKETS, disc_bucket
from carromlab.shots import SKILLS, Shot

#: The skill the tasks' shots are drawn with (any skill compiles the same programs).
SKILL = "club"


@dataclass(frozen=True)
class WarmTask:
    """One program to compile: the variant, what it serves, and the run that compiles it."""

    variant: str
    what: str
    run: Callable[[], object]


def _cells(variant: str, position) -> list[tuple[float, float, float]]:
    """A row of the default grid (every placement, the middle angle and speed): some are
    legal in any position."""
    placements, angles, speeds = default_grid(variant)
    a, v = angles[len(angles) // 2], speeds[len(speeds) // 2]
    return [(p, a, v) for p in placements]


def _shot_tasks(variant: str) -> list[WarmTask]:
    from carromlab.registry import standard_position

    position = standard_position(default_position(variant))
    va = analysis_for(variant)
    pieces = va.table_position(position).pieces
    full = disc_bucket(len(pieces) + 1)
    tasks = []
    for b in [b for b in DISC_BUCKETS if b <= full]:
        fewer = position.replace(pieces=position.pieces[: max(1, b - 1)])
        if disc_bucket(len(va.table_position(fewer).pieces) + 1) != b:
            continue  # (a board whose shooter is not among its pieces counts one more)
        cells = _cells(variant, fewer)

        def run(p=fewer, c=cells) -> object:
            return evaluate_cells(p, c, skill=SKILL, n=1, seed=0)

        tasks.append(WarmTask(variant, f"shot analysis, {b} discs", run))
    return tasks


def _play_task(variant: str) -> list[WarmTask]:
    from carromlab.registry import get_game, standard_position

    game = get_game(variant)
    if game.driver is None or game.config is None:
        return []
    driver = game.driver(game.config(variant))
    capacity = int(getattr(driver, "capacity", 0) or 0)
    if capacity < 2 or variant not in game.default_position:
        return []
    position = standard_position(game.default_position[variant])
    va = analysis_for(variant)
    placements, angles, speeds = default_grid(variant)
    xs, ys = va.origin(position, placements)
    ok = np.flatnonzero(va.legal_origin(position, xs, ys))
    if not len(ok):
        return []
    k = int(ok[0])
    shot = Shot(
        x=np.array([xs[k]]),
        y=np.array([ys[k]]),
        angle=np.radians([angles[len(angles) // 2]]),
        speed=np.array([speeds[len(speeds) // 2]], float),
    )
    noise = va.noise(va.preset(SKILLS[SKILL]))

    def run() -> object:
        ask = Ask(position, shot, 1, 0, noise)
        return Evaluator(driver.layout, capacity).answer([ask])

    return [WarmTask(variant, f"whole games, {capacity} discs", run)]


def warmup_tasks(variants: list[str]) -> list[WarmTask]:
    """The tasks that compile the common programs of ``variants`` (those with shot analysis;
    the others have none to compile)."""
    from carromlab.analysis.variants import analysed_variants

    have = set(analysed_variants())
    tasks: list[WarmTask] = []
    for v in variants:
        if v in have:
            tasks += _shot_tasks(v) + _play_task(v)
    return tasks
