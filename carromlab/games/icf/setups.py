"""The ICF opening set-up (Laws of Carrom, rule 41).

The queen in the centre; a ring of 6 touching her, colours alternating; an outer ring of 12
touching them, the whites forming a "Y" with the inner whites; all inside the outer circle.

Geometry: hexagonal close packing with spacing = one coin diameter, so every neighbour touches
exactly. The inner whites stand on the three arms of the "Y"; the outer ring's six straight-out
positions continue the arms (white behind an inner white, black behind an inner black), and
the six positions between them go in pairs so that, counter-clockwise, each arm's outer white
is followed by a white: the outer ring reads W W B B W W B B W W B B.

Decision (rule 41 is silent): one arm of the "Y" points at the first player (South), the
breaker, who plays white. ``y_arm_angle`` changes it.
"""

from __future__ import annotations

import math

from carromlab.equipment import IcfBoard
from carromlab.layout import hex_shell
from carromlab.position import Piece, Position


def rosette(board: IcfBoard | None = None, y_arm_angle: float = -math.pi / 2) -> list[Piece]:
    """The 19 coins of rule 41: queen ``q``, whites ``w1..w9``, blacks ``b1..b9``."""
    board = board or IcfBoard()
    d = board.coin_diameter
    pieces = [Piece("q", "queen", None, 0.0, 0.0)]
    inner = hex_shell(1, d, y_arm_angle)  # arms at k = 0, 2, 4 are white
    outer = hex_shell(2, d, y_arm_angle)  # index 2k: straight out from inner k; 2k+1: between
    colours = ["white" if k % 2 == 0 else "black" for k in range(6)]
    outer_colours = []
    for k in range(6):
        outer_colours.append(colours[k])  # continues the arm (or the black spoke)
        outer_colours.append("white" if k % 2 == 0 else "black")  # W W B B ... pairs
    counters = {"white": 0, "black": 0}
    for (x, y), colour in [*zip(inner, colours), *zip(outer, outer_colours)]:
        counters[colour] += 1
        pieces.append(Piece(f"{colour[0]}{counters[colour]}", "coin", colour, x, y))
    return pieces


def icf_opening(variant: str = "icf", board: IcfBoard | None = None) -> Position:
    board = board or IcfBoard()
    return Position(
        variant,
        tuple(rosette(board)),
        board,
        name=f"{variant}-opening",
        description="ICF rule 41 opening: queen centred, 6 alternating touching her, 12 "
        "around with the white Y; one arm of the Y points at the breaker (South).",
        set_by_hand=True,
    )
