"""The Force Out opening (Carrom Company rule book, seed 002): "8 rings of one color inside the
small circle, mixed so that rings of one color will not be bunched": 6 on a 4 cm circle and 10
on an 8 cm circle, colours alternating (Fast Play the same)."""

from __future__ import annotations

import math

from carromlab.equipment import CrokinoleBoard
from carromlab.layout import alternate_colours, circle_points
from carromlab.position import Position


def force_out_opening(variant: str = "force-out", board: CrokinoleBoard | None = None) -> Position:
    board = board or CrokinoleBoard()
    counters = {"red": 0, "green": 0}
    pts = circle_points(6, 0.04, math.pi / 2) + circle_points(10, 0.08, math.pi / 2)
    pieces = alternate_colours(pts, counters=counters)
    return Position(
        variant,
        tuple(pieces),
        board,
        name=f"{variant}-opening",
        description="8 red and 8 green rings mixed inside the small circle: 6 on a 4 cm circle, "
        "10 on an 8 cm circle, colours alternating.",
    )
