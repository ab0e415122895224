"""The cases of the cross-check against pymunk (:mod:`carromlab.bench.validation`): each a
standard position, a base shot chosen so that something happens, and the events to compare."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    """One validation case: a standard position, a base shot and the events to compare.

    ``placement`` is the variant's placement (``analysis_for(variant).origin``); ``keys`` are
    the Monte-Carlo events, each ``(piece, where)`` as read by :func:`key_hits`. ``cluster``:
    the shot strikes a packed cluster of touching discs, where the engines' contact models
    differ by design (docs/validation.md)."""

    name: str
    position: str
    family: str
    placement: float
    angle_deg: float
    speed: float
    keys: tuple[tuple[str, str], ...]
    skill: str = "club"
    cluster: bool = False
    note: str = ""


def _icf_cut_angle() -> float:
    """The bench's ``cut`` aim (degrees): the striker's ghost-ball angle that cuts ``w1`` of
    ``icf-midgame`` into the north-east pocket."""
    from carromlab.equipment import IcfBoard
    from carromlab.games.icf.midgame import (
        BASELINE_Y,
        CUT_POCKET,
        CUT_STRIKER_X,
        CUT_TARGET_XY,
        ghost_aim,
    )

    tx, ty = CUT_TARGET_XY
    return math.degrees(ghost_aim(IcfBoard(), CUT_STRIKER_X, BASELINE_Y, tx, ty, CUT_POCKET))


#: The cases. Angles and speeds were found by scanning the kernel for shots where the key
#: event happens neither always nor never under club noise (so the probabilities say
#: something); the breaks are the symmetric break (origin and aim on the mirror axis), so a
#: left pocket and its mirror image must be equally likely.
CASES: tuple[Case, ...] = (
    Case(
        "icf-cut",
        "icf-midgame",
        "ICF",
        -0.05,
        round(_icf_cut_angle(), 4),
        2.0,
        (("w1", "pocket.NE"), ("striker", "any")),
        note="the bench's cut: w1 into the north-east pocket",
    ),
    Case(
        "icf-break",
        "icf-opening",
        "ICF",
        0.0,
        90.0,
        5.0,
        (("*", "any"), ("*", "pocket.NW"), ("*", "pocket.NE")),
        cluster=True,
        note="the break: striker from mid-baseline into the rosette at 5 m/s",
    ),
    Case(
        "carroms-break",
        "carroms-opening",
        "Carroms (checker board)",
        0.0,
        90.0,
        5.0,
        (("*", "any"), ("*", "pocket.NW"), ("*", "pocket.NE")),
        cluster=True,
        note="shooting ring into the hexagonal pack of 25 rings at 5 m/s",
    ),
    Case(
        "carrooka-bank",
        "carrooka-midgame",
        "Carrooka",
        0.0,
        -84.5,
        2.5,
        (("r1", "pocket.0"), ("striker", "any")),
        note="striker off the circular rail, then r1 into pocket.0",
    ),
    Case(
        "carrooka-break",
        "carrooka-opening",
        "Carrooka",
        -90.0,
        90.0,
        5.0,
        (("*", "any"), ("*", "pocket.1"), ("*", "pocket.5")),
        cluster=True,
        note="the break from the break line into the triangle of 15 reds at 5 m/s",
    ),
    Case(
        "force-out-peg",
        "force-out-opening",
        "Force Out (crokinole side)",
        -90.0,
        84.0,
        3.0,
        (("g2", "hole"), ("*", "out")),
        note="shooting ring off peg 6 into the 16 rings round the hole (not touching)",
    ),
    Case(
        "circle-scores-hole",
        "circle-scores-opening",
        "Circle Scores (crokinole side)",
        -90.0,
        89.0,
        1.7,
        (("g5", "hole"), ("*", "out")),
        note="g5 driven over the centre hole near its skip speed (1.4 m/s)",
    ),
    Case(
        "ring-pegs-pass",
        "ring-pegs-opening",
        "Ring Pegs (crokinole side)",
        0.0,
        89.0,
        2.0,
        (("shooter", "hole"), ("*", "first")),
        note="the pass over the hole, off the far frame, back among the pegged (static) rings",
    ),
)


def case_named(name: str) -> Case:
    """The case of :data:`CASES` called ``name`` (KeyError with the known names if none)."""
    for c in CASES:
        if c.name == name:
            return c
    raise KeyError(f"no validation case {name!r}; known: {', '.join(c.name for c in CASES)}")
