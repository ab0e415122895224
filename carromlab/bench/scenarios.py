"""Benchmark scenarios: a position, a base shot and its noise, each declared by the game it
belongs to (``Game.bench_scenarios``; :func:`carromlab.registry.bench_scenario`).

ICF declares the two the kernel is measured on (carromlab/games/icf/__init__.py):

- ``break``: the ICF rosette; the striker from the middle of the baseline at 5 m/s straight
  at the queen; noise 1 mm placement, 0.005 rad, 1 % speed.
- ``cut``: the standard mid-game ICF position ``icf-midgame`` (all 19 coins scattered,
  ``data/positions/icf-midgame.json``); the striker from the baseline cuts ``w1`` into the
  north-east pocket at 2 m/s; noise 1 mm, 0.01 rad, 2 % speed.
"""

from __future__ import annotations

from carromlab.errors import CarromlabError
from carromlab.registry import ShotScenario, bench_scenario, bench_scenario_names


def scenario(name: str) -> ShotScenario:
    """The benchmark scenario ``name``; one line naming the known ones if no game has it."""
    found = bench_scenario(name)
    if found is None:
        known = ", ".join(bench_scenario_names())
        raise CarromlabError(f"unknown benchmark scenario {name!r}; known: {known}")
    return found
