"""Best-shot search under noise: a coarse grid, then cross-entropy refinement, then the top
candidates re-estimated with many shots and reported with intervals.

1. Grid: placements x angles x speeds, ``n_grid`` noisy shots per cell.
2. Cross-entropy method: a Gaussian over (placement, angle, speed) is fitted to the elite
   cells, ``population`` candidates are drawn from it (placements projected onto the legal
   baseline), estimated with ``n_cem`` shots each, and the elites refitted, ``iterations`` times.
3. The ``top_k`` best distinct candidates are estimated again with ``n_final`` shots each (fresh
   random numbers, so the winner's curse of the search does not inflate the reported value).

Every stage draws from its own seed, derived from ``seed`` with ``numpy.random.SeedSequence``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.shotmap import evaluate_cells
from carromlab.analysis.truncation import truncation
from carromlab.analysis.variants import MAX_SPEED, analysis_for
from carromlab.errors import CarromlabError
from carromlab.input_schema import check_run


def _stage_seed(seed: int, stage: int) -> int:
    return int(np.random.SeedSequence([seed, stage]).generate_state(1)[0] & 0x7FFFFFFF)


def best_shots(
    position,
    skill="club",
    value: str = "points",
    placements=None,
    angles_deg=None,
    speeds=(1.0, 2.0, 3.5),
    n_grid: int = 32,
    iterations: int = 3,
    population: int = 48,
    n_cem: int = 64,
    elite_frac: float = 0.2,
    top_k: int = 5,
    n_final: int = 1000,
    seed: int = 0,
    chunk: int = 4096,
    turn=None,
    pieces: tuple[str, ...] = (),
    progress: bool = False,
    hand_set: float | None = None,
    physics=None,
    scoring=None,
) -> pd.DataFrame:
    """The ``top_k`` shots with the highest ``value`` (a mean such as ``points``, a ``p_``
    column, or ``p_capture:<piece id>``), best first, each with its interval from ``n_final``
    fresh shots; ``pieces`` adds capture columns for those pieces; ``physics`` and ``scoring``
    (the rules' value weights) replace the defaults."""
    va = analysis_for(position.variant)
    position.check()
    ox, oy = va.origin(position, [-1.0, 1.0])
    fixed = ox[0] == ox[1] and oy[0] == oy[1]  # the shooter lies where it is (Carrooka)
    if placements is None and fixed:
        placements = [0.0]
    elif placements is None:  # 9 across the widest legal interval, the middle of the others
        spans = va.placement_intervals(position.board)
        widest = max(spans, key=lambda s: s[1] - s[0])
        placements = np.concatenate(
            [np.linspace(*widest, 9), [(a + b) / 2 for a, b in spans if (a, b) != widest]]
        )
    if angles_deg is None:  # forward from a line; every way from a point
        angles_deg = np.arange(20.0, 161.0, 5.0) if va.origin_of is None else np.arange(0, 360, 5)
    sizes = (("n_grid", n_grid), ("n_cem", n_cem), ("n_final", n_final), ("top_k", top_k))
    for name, k in (*sizes, ("population", population)):
        if int(k) <= 0:
            raise CarromlabError(f"{name} must be positive, not {k}")
    # every stage's kernel run, sized before the first starts
    check_run(len(placements) * len(angles_deg) * len(speeds), n_grid, "best: the grid")
    check_run(population, n_cem, "best: a refinement (population x n_cem)")
    check_run(top_k, n_final, "best: the final estimates (top x n)")
    runner = ShotRunner(
        va.table_position(position),
        va.shooter_kind,
        chunk=chunk,
        hand_set=hand_set,
        physics=physics,
    )
    common = dict(
        skill=skill,
        turn=turn,
        runner=runner,
        progress=progress,
        pieces=tuple(pieces),
        scoring=scoring,
    )
    if value.startswith("p_capture:"):
        common["pieces"] = (*common["pieces"], value[len("p_capture:") :])

    grid = list(itertools.product(placements, angles_deg, speeds))
    seen = evaluate_cells(
        position, grid, n=n_grid, seed=_stage_seed(seed, 0), desc="grid", **common
    )
    if value not in seen.columns:
        options = [c for c in seen.columns if not c.endswith(("_lo", "_hi"))]
        raise CarromlabError(f"unknown value {value!r}; choose from {', '.join(options)}")
    seen = seen[seen["n"] > 0]

    n_elite = max(4, int(population * elite_frac))
    floor = np.array([0.005, 1.0, 0.1])  # std floor: 5 mm, 1 deg, 0.1 m/s
    rng = np.random.default_rng(_stage_seed(seed, 1))
    for it in range(iterations):
        elite = seen.nlargest(n_elite, value)[["placement", "angle", "speed"]].to_numpy()
        mean, std = elite.mean(axis=0), np.maximum(elite.std(axis=0), floor)
        draw = rng.normal(mean, std, size=(population, 3))
        draw[:, 0] = va.project_placement(position.board, draw[:, 0])
        draw[:, 2] = np.clip(draw[:, 2], 0.2, MAX_SPEED)
        cells = [tuple(row) for row in draw]
        found = evaluate_cells(
            position,
            cells,
            n=n_cem,
            seed=_stage_seed(seed, 10 + it),
            desc=f"refine {it + 1}",
            **common,
        )
        seen = pd.concat([seen, found[found["n"] > 0]], ignore_index=True)

    cut = truncation(seen)
    ranked = seen.sort_values(value, ascending=False)
    picks: list[tuple[float, float, float]] = []
    for row in ranked[["placement", "angle", "speed"]].itertuples(index=False):
        far = all(
            abs(row[0] - p[0]) > 0.004 or abs(row[1] - p[1]) > 1.0 or abs(row[2] - p[2]) > 0.1
            for p in picks
        )
        if far:
            picks.append(tuple(row))
        if len(picks) == top_k:
            break
    final = evaluate_cells(
        position,
        picks,
        n=n_final,
        seed=_stage_seed(seed, 99),
        desc="final",
        **common,
    )
    final = final.sort_values(value, ascending=False).reset_index(drop=True)
    final.insert(0, "rank", np.arange(1, len(final) + 1))
    final.attrs["config"].update(
        kind="best_shots",
        value=value,
        seed=int(seed),
        n_grid=int(n_grid),
        iterations=int(iterations),
        population=int(population),
        n_cem=int(n_cem),
        n_final=int(n_final),
        candidates=len(seen),
        # the grid's and the refinements' shots (the reported rows count their own)
        search_shots=int(seen["n"].sum()),
        search_truncated=cut.truncated if cut is not None else 0,
    )
    return final
