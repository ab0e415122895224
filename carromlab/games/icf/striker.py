"""Where the striker may be placed for an ICF stroke (Laws of Carrom, rule 130).

The striker must touch both baselines and either stay clear of a base circle or cover it
completely. On the South side the baselines are horizontal: the striker's centre sits midway
between them (the striker, 4.13 cm, is wider than the 3.18 cm between the lines, so it then
touches both). Along the line:

- clear of both base circles: ``|x| <= c - (r_striker + r_base)``;
- covering a base circle completely: ``| |x| - c | <= r_striker - r_base``;

where ``c`` is the base circles' distance from the centre line. Anything else, or a striker
overlapping a piece on the board, is refused with a message that says where and by how much.
"""

from __future__ import annotations

import numpy as np

from carromlab.equipment import IcfBoard
from carromlab.errors import CarromlabError


def baseline_y(board: IcfBoard) -> float:
    """y of the striker's centre on the South side (midway between the baselines)."""
    return sum(board.baseline_y()) / 2


def placement_limits(board: IcfBoard) -> tuple[float, tuple[float, float]]:
    """(largest |x| clear of the base circles, (lo, hi) range of |x| covering one)."""
    r_s = board.striker_diameter / 2
    r_b = board.base_circle_diameter / 2
    c = board.base_circle_centres()[1][0]
    return c - (r_s + r_b), (c - (r_s - r_b), c + (r_s - r_b))


def placement_intervals(board: IcfBoard) -> list[tuple[float, float]]:
    """The legal x intervals on the South baseline: covering the left base circle, clear of
    both, covering the right one."""
    clear, (lo, hi) = placement_limits(board)
    return [(-hi, -lo), (-clear, clear), (lo, hi)]


def legal_placement(board: IcfBoard, x) -> np.ndarray:
    """True where a South-side striker at ``x`` (m) is placed legally (vectorised)."""
    x = np.abs(np.asarray(x, dtype=float))
    clear, (lo, hi) = placement_limits(board)
    return np.isfinite(x) & ((x <= clear + 1e-12) | ((x >= lo - 1e-12) & (x <= hi + 1e-12)))


def check_placement(board: IcfBoard, x: float, position=None) -> None:
    """Raise :class:`CarromlabError` if the striker cannot be placed at ``x`` on the South
    baseline (rule 130), or would overlap a piece of ``position``."""
    if not np.isfinite(x):
        raise CarromlabError(f"striker placement x={x} is not a finite number")
    clear, (lo, hi) = placement_limits(board)
    if not legal_placement(board, x):
        raise CarromlabError(
            f"striker at x={x:.4f} m is not a legal placement on the baseline (rule 130): "
            f"|x| must be at most {clear:.4f} m (clear of the base circles) or between "
            f"{lo:.4f} and {hi:.4f} m (covering a base circle)"
        )
    if position is not None:
        y = baseline_y(board)
        r_s = board.striker_diameter / 2
        specs = board.piece_specs()
        for p in position.pieces:
            gap = np.hypot(p.x - x, p.y - y) - r_s - specs[p.kind].radius
            if gap < -1e-9:
                raise CarromlabError(
                    f"striker at x={x:.4f} m overlaps piece {p.id!r} by {-gap * 1000:.3g} mm"
                )


def check_origin(position, x: float, y: float) -> None:
    """Refuse a striker placed off the South baseline or on an illegal spot of it (law 130),
    with one clear line."""
    check_placement(position.board, float(x), position)
    if abs(float(y) - baseline_y(position.board)) > 1e-9:
        raise CarromlabError(
            f"striker at y={float(y):.4f} m is off the South baseline "
            f"(y={baseline_y(position.board):.4f} m)"
        )
