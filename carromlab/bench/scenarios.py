"""Benchmark scenarios: a position, a base shot and its noise.

- ``break``: the ICF rosette; the striker from the middle of the baseline at 5 m/s straight
  at the queen; noise 1 mm placement, 0.005 rad, 1 % speed.
- ``cut``: the standard mid-game ICF position ``icf-midgame`` (all 19 coins scattered,
  ``data/positions/icf-midgame.json``); the striker from the baseline cuts ``w1`` into the north-east
  pocket at 2 m/s; noise 1 mm, 0.01 rad, 2 % speed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from carromlab.equipment import IcfBoard
from carromlab.games.icf.midgame import (
    BASELINE_Y,
    CUT_POCKET,
    CUT_STRIKER_X,
    CUT_TARGET,
    ghost_aim,
)
from carromlab.position import Position
from carromlab.registry import standard_position
from carromlab.shots import Shot, chain, jitter_angle, jitter_placement, jitter_speed


@dataclass(frozen=True)
class Scenario:
    name: str
    position: Position
    shot: Shot
    noise: object


def scenario(name: str) -> Scenario:
    board = IcfBoard()
    if name == "break":
        pos = standard_position("icf-opening")
        shot = Shot(0.0, BASELINE_Y, math.pi / 2, 5.0)
        noise = chain(jitter_placement(0.001), jitter_angle(0.005), jitter_speed(0.01))
        return Scenario(name, pos, shot, noise)
    if name == "cut":
        pos = standard_position("icf-midgame")
        t = pos.by_id(CUT_TARGET)
        angle = ghost_aim(board, CUT_STRIKER_X, BASELINE_Y, t.x, t.y, CUT_POCKET)
        shot = Shot(CUT_STRIKER_X, BASELINE_Y, angle, 2.0)
        noise = chain(jitter_placement(0.001), jitter_angle(0.01), jitter_speed(0.02))
        return Scenario(name, pos, shot, noise)
    from carromlab.errors import CarromlabError

    raise CarromlabError(f"unknown benchmark scenario {name!r}; known: break, cut")
