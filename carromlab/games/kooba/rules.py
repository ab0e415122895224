"""KOOBA's rules of one throw (seed 003, "Official KOOBA Rules"): what an Aero tags where it
lands, by exact geometry (``geometry.py``); the game-state machine (``machine.py``) applies the
tags.

Tags per throw (an Aero that lands with its centre off the board falls and tags nothing):

- ``eye``, ``inner_eye``: the Aero's material shares area with the zone;
- ``kooba``: it touches the KOOBA (at the centre; tangency counts) or rings it; ``ring``: the
  KOOBA lies inside its hole. Decision: a ring is also a KOOBA tag - the KOOBA is then
  inside the Aero's outline, though it touches only the hole's empty space;
- ``penalty``: it shares area with any quadrant's Penalty Zone; ``own_run``: with any step of
  the seat's own run; in a game, the runs of every player it overlaps (``runs``) and the
  markers it touches (``markers``, where they stand: :func:`marker_spot`);
- ``off``: it fell off the board.

A marker's place is a step number: 0 Home, 1-5 the run's steps (outside in), :data:`LOCK`
the Lock.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carromlab.equipment.kooba import SEATS, KoobaBoard
from carromlab.games.kooba.geometry import (
    aero_overlaps_circle,
    aero_overlaps_polygon,
    aeros_overlap,
    rings,
)

#: The tags of a throw (aim maps give each one's chance).
TAGS = ("eye", "inner_eye", "kooba", "ring", "penalty", "own_run", "off")
#: The marker's step on the Lock.
LOCK = 6


@dataclass(frozen=True)
class ShotTags:
    """What one Aero tagged: the zones (``eye``, ``inner_eye``, ``penalty``), the KOOBA
    (``kooba`` touched, ``ring``), the runs it overlaps (``runs``: players) and the markers it
    touches (``markers``: players). ``on_aeros``: how many of the turn's Aeros already lying
    on the board it landed on (it rests on top of them); its tags are its own outline's ("If
    two Aeros overlap, a tag is still counted if the top Aero visually overlaps the scoring
    area"), and the Aeros beneath keep the tags they made when they landed."""

    eye: bool = False
    inner_eye: bool = False
    kooba: bool = False
    ring: bool = False
    penalty: bool = False
    runs: frozenset = frozenset()
    markers: frozenset = frozenset()
    on_aeros: int = 0


def tag_throws(board: KoobaBoard, x, y, rotation, seat: str) -> dict[str, np.ndarray]:
    """The tags of Aeros landed at (x, y, rotation) (arrays) for a thrower on ``seat``."""
    x, y, rotation = (np.asarray(v, float) for v in (x, y, rotation))
    side, hole = board.aero_side, board.aero_hole_diameter / 2
    on = (np.abs(x) <= board.half) & (np.abs(y) <= board.half)
    zones = board.zones
    ring = rings(x, y, hole, 0.0, 0.0, board.kooba_radius)
    kooba = aero_overlaps_circle(
        x, y, rotation, side, hole, 0.0, 0.0, board.kooba_radius, touch=True
    )
    tags = {
        "eye": aero_overlaps_circle(x, y, rotation, side, hole, 0.0, 0.0, board.eye_radius),
        "inner_eye": aero_overlaps_circle(
            x, y, rotation, side, hole, 0.0, 0.0, board.inner_eye_radius
        ),
        "kooba": kooba | ring,
        "ring": ring,
    }
    penalty = np.zeros(x.shape, bool)
    for s in SEATS:
        penalty |= aero_overlaps_polygon(x, y, rotation, side, hole, zones[f"penalty.{s}"].points)
    own = np.zeros(x.shape, bool)
    for step in range(1, 6):
        own |= aero_overlaps_polygon(x, y, rotation, side, hole, zones[f"run.{seat}.{step}"].points)
    tags.update(penalty=penalty, own_run=own)
    out = {k: v & on for k, v in tags.items()}
    out["off"] = ~on
    return out


def marker_spot(board: KoobaBoard, seat: str, step: int) -> tuple[float, float]:
    """Where a marker sits: the middle of its Home, run step or Lock."""
    if step == 0:
        return board.home_centre(seat)
    zone = board.zones[f"lock.{seat}" if step == LOCK else f"run.{seat}.{step}"]
    pts = np.array(zone.points)
    return float(pts[:, 0].mean()), float(pts[:, 1].mean())


def shot_tags(board, x, y, rotation, seats, markers, lying=()) -> ShotTags:
    """The tags of one Aero landed at (x, y, rotation) with the markers where they are;
    ``lying``: the (x, y, rotation) of the Aeros already on the board (the turn's earlier
    throws). An Aero that lands on lying ones rests on top of them (``on_aeros``) and is
    judged by its own outline, as the rule's "top Aero" (seed 003)."""
    t = tag_throws(board, np.array([x]), np.array([y]), np.array([rotation]), seats[0])
    on = not bool(t["off"][0])
    side, hole = board.aero_side, board.aero_hole_diameter / 2
    runs, touched = set(), set()
    if on:
        for p, seat in enumerate(seats):
            for step in range(1, 6):
                poly = board.zones[f"run.{seat}.{step}"].points
                if aero_overlaps_polygon(x, y, rotation, side, hole, poly)[()]:
                    runs.add(p)
            mx, my = marker_spot(board, seat, markers[p])
            r = board.marker_diameter / 2
            if aero_overlaps_circle(x, y, rotation, side, hole, mx, my, r, touch=True)[()]:
                touched.add(p)
    on_aeros = 0
    if on and len(lying):
        lx, ly, lr = np.asarray(lying, float).reshape(-1, 3).T
        on_aeros = int(aeros_overlap(x, y, rotation, lx, ly, lr, side, hole).sum())
    return ShotTags(
        on_aeros=on_aeros,
        eye=bool(t["eye"][0]),
        inner_eye=bool(t["inner_eye"][0]),
        kooba=bool(t["kooba"][0]),
        ring=bool(t["ring"][0]),
        penalty=bool(t["penalty"][0]),
        runs=frozenset(runs),
        markers=frozenset(touched),
    )
