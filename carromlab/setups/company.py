"""Openings of the Carrom Company games (seed 002, RULES.md).

Decisions where the rule book is silent, each a parameter:

- Carroms: the black in the middle, the 24 rings close-packed around it in hexagonal shells
  (6, 12, then the 6 straight-out places of the third shell), colours alternating in each shell.
- Force Out: "8 rings of one color inside the small circle, mixed so that rings of one color
  will not be bunched": 6 on a 4 cm circle and 10 on an 8 cm circle, colours alternating.
- Ring Pegs: one ring over each peg.
- Circle Scores: 8 object rings on a 5 cm circle inside the small circle.
"""

from __future__ import annotations

import math

from carromlab.equipment import CheckerBoard, CrokinoleBoard
from carromlab.position import Piece, Position
from carromlab.setups.hexpack import hex_shell


def _circle(n: int, radius: float, angle: float = 0.0) -> list[tuple[float, float]]:
    return [
        (
            radius * math.cos(angle + 2 * math.pi * k / n),
            radius * math.sin(angle + 2 * math.pi * k / n),
        )
        for k in range(n)
    ]


def _alternate(points, colours=("red", "green"), counters=None) -> list[Piece]:
    counters = counters if counters is not None else {c: 0 for c in colours}
    out = []
    for k, (x, y) in enumerate(points):
        c = colours[k % len(colours)]
        counters[c] += 1
        out.append(Piece(f"{c[0]}{counters[c]}", "ring", c, x, y))
    return out


def carroms_opening(board: CheckerBoard | None = None) -> Position:
    board = board or CheckerBoard()
    d = board.ring_diameter
    counters = {"red": 0, "green": 0}
    pieces = [Piece("black", "black", None, 0.0, 0.0)]
    pieces += _alternate(hex_shell(1, d), counters=counters)
    pieces += _alternate(hex_shell(2, d), counters=counters)
    pieces += _alternate(hex_shell(3, d)[::3], counters=counters)  # the 6 straight-out places
    return Position(
        "carroms",
        tuple(pieces),
        board,
        name="carroms-opening",
        description="Black in the middle, 12 red and 12 green rings close-packed around it, "
        "colours alternating in each shell.",
    )


def force_out_opening(variant: str = "force-out", board: CrokinoleBoard | None = None) -> Position:
    board = board or CrokinoleBoard()
    counters = {"red": 0, "green": 0}
    pts = _circle(6, 0.04, math.pi / 2) + _circle(10, 0.08, math.pi / 2)
    pieces = _alternate(pts, counters=counters)
    return Position(
        variant,
        tuple(pieces),
        board,
        name=f"{variant}-opening",
        description="8 red and 8 green rings mixed inside the small circle: 6 on a 4 cm circle, "
        "10 on an 8 cm circle, colours alternating.",
    )


def ring_pegs_opening(board: CrokinoleBoard | None = None) -> Position:
    board = board or CrokinoleBoard()
    pieces = [
        Piece(f"g{k + 1}", "ring", None, x, y) for k, (x, y) in enumerate(board.peg_centres())
    ]
    return Position(
        "ring-pegs",
        tuple(pieces),
        board,
        name="ring-pegs-opening",
        description="One green ring over each of the 8 pegs.",
    )


def circle_scores_opening(board: CrokinoleBoard | None = None, n_rings: int = 8) -> Position:
    board = board or CrokinoleBoard()
    pts = _circle(n_rings, 0.05, math.pi / 2)
    pieces = [Piece(f"g{k + 1}", "ring", None, x, y) for k, (x, y) in enumerate(pts)]
    return Position(
        "circle-scores",
        tuple(pieces),
        board,
        name="circle-scores-opening",
        description=f"{n_rings} object rings on a 5 cm circle inside the small circle.",
    )
