"""What the analysis layer needs to know about each variant: its rules, its shooting piece,
and which shots are legal. Variants without rules yet are refused with a clear message."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from carromlab.errors import CarromlabError

#: Speeds above this are refused as absurd (m/s): a hard flick is 4-6 m/s (EQUIPMENT.md).
MAX_SPEED = 15.0


@dataclass(frozen=True)
class VariantAnalysis:
    """The analysis layer's view of a variant: its rules, its shooting piece, and where that
    piece may be placed (a line ``y = shot_y`` with legal x intervals)."""

    variant: str
    rules: Any
    shooter_kind: str
    shot_y: Callable[[Any], float]
    placement_intervals: Callable[[Any], list[tuple[float, float]]]

    def default_turn(self):
        return self.rules.turn_type()

    def legal_placement(self, board, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        ok = np.zeros(x.shape, dtype=bool)
        for lo, hi in self.placement_intervals(board):
            ok |= (x >= lo - 1e-12) & (x <= hi + 1e-12)
        return ok

    def free_placement(self, position, x) -> np.ndarray:
        """Which shooter placements ``x`` on the shooting line are legal and on no piece
        (touching is allowed)."""
        x = np.atleast_1d(np.asarray(x, dtype=float))
        board = position.board
        ok = self.legal_placement(board, x)
        specs = board.piece_specs()
        r = specs[self.shooter_kind].radius
        y0 = self.shot_y(board)
        for p in position.pieces:
            ok &= np.hypot(p.x - x, p.y - y0) >= r + specs[p.kind].radius
        return ok

    def project_placement(self, board, x) -> np.ndarray:
        """The nearest legal placement to each x."""
        x = np.asarray(x, dtype=float)
        cands = np.stack([np.clip(x, lo, hi) for lo, hi in self.placement_intervals(board)])
        pick = np.argmin(np.abs(cands - x), axis=0)
        return np.take_along_axis(cands, pick[None], axis=0)[0]

    def check_shot(self, position, shot) -> None:
        """Refuse a shot that cannot be played, with one clear line."""
        check_speed_angle(float(shot.speed), float(shot.angle))
        if self.variant in ("icf", "icf-doubles"):
            from carromlab.rules.icf_striker import baseline_y, check_placement

            check_placement(position.board, float(shot.x), position)
            if abs(float(shot.y) - baseline_y(position.board)) > 1e-9:
                raise CarromlabError(
                    f"striker at y={float(shot.y):.4f} m is off the South baseline "
                    f"(y={baseline_y(position.board):.4f} m)"
                )


def check_speed_angle(speed: float, angle: float) -> None:
    if not math.isfinite(speed) or speed <= 0:
        raise CarromlabError(f"shot speed must be a positive number of m/s, not {speed}")
    if speed > MAX_SPEED:
        raise CarromlabError(f"shot speed {speed} m/s is absurd (at most {MAX_SPEED} m/s)")
    if not math.isfinite(angle):
        raise CarromlabError(f"shot angle must be a finite number, not {angle}")


def analysis_for(variant: str) -> VariantAnalysis:
    if variant in ("icf", "icf-doubles"):
        from carromlab.rules.icf import IcfRules
        from carromlab.rules.icf_striker import baseline_y, placement_intervals

        return VariantAnalysis(variant, IcfRules(), "striker", baseline_y, placement_intervals)
    raise CarromlabError(
        f"shot analysis for variant {variant!r} is not available yet (available: icf, icf-doubles)"
    )
