"""What the analysis layer needs to know about each variant: its rules, its shooting piece,
and which shots are legal. Variants without rules yet are refused with a clear message.

A shot starts from an *origin* given by one number, the *placement*: for standard carrom the
striker's x on the South baseline (m); for Carrooka the striker's resting place when the
position holds a ``striker`` piece (the placement is then ignored), otherwise a point of the
break line at the placement's angle (degrees counter-clockwise from +x); for Force Out the
point of the outer circle's South arc at the placement's angle, or, in Fast Play, where the
shooting ring lies."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from carromlab.errors import CarromlabError

#: MAX_SPEED: speeds above it (15 m/s) are refused as absurd: a hard flick is 4-6 m/s
#: (docs/equipment.md). It lives with the command line's and the sweeps' bounds.
from carromlab.input_schema import MAX_SPEED

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.equipment.base import Board
    from carromlab.position import Position
    from carromlab.registry import Noise
    from carromlab.rules.outcome import VariantRules
    from carromlab.shots import Shot, Skill

#: Shot origins: x and y arrays (m).
Origins = tuple[NDArray[np.float64], NDArray[np.float64]]


@dataclass(frozen=True)
class VariantAnalysis:
    """The analysis layer's view of a variant: its rules, its shooting piece, and where that
    piece may be placed (a line ``y = shot_y`` with legal x intervals)."""

    variant: str
    rules: VariantRules
    shooter_kind: str
    shot_y: Callable[[Board], float]
    placement_intervals: Callable[[Board], list[tuple[float, float]]]
    #: The shot's origin (x, y arrays) for placements (None: on the line ``y = shot_y``).
    origin_of: Callable[[Position, NDArray[np.float64]], Origins] | None = None
    #: Which origins (x, y) are legal in a position (None: free placements on the line).
    legal_origin_of: (
        Callable[[Position, NDArray[np.float64], NDArray[np.float64]], NDArray[np.bool_]] | None
    ) = None
    #: The position the kernel simulates (None: the position itself).
    table_of: Callable[[Position], Position] | None = None
    #: Whether the shooter is placed by hand (a skill's placement noise applies) or lies
    #: where it stopped (Carrooka: no placement noise).
    hand_placed: bool = True
    #: The variant's own skill presets by name (the crokinole side's, calibrated to the open
    #: twenty: carromlab/calibration_presets.py), or None: the carrom presets (shots.SKILLS).
    skills: Mapping[str, Skill] | None = dataclasses.field(default=None, compare=False)
    #: Refuse an illegal shot origin (x, y) with the game's own message (None: the generic
    #: check against :meth:`legal_origin`).
    check_origin: Callable[[Position, float, float], None] | None = None

    def preset(self, skill: Skill) -> Skill:
        """``skill`` as this variant plays it: a named carrom preset (``SKILLS[name]``) becomes
        the variant's preset of that name; any other :class:`~carromlab.shots.Skill` (one made
        by hand, or ``SKILLS`` changed) is used as it is."""
        from carromlab.shots import SKILLS

        if self.skills and skill.name in self.skills and SKILLS.get(skill.name) == skill:
            return self.skills[skill.name]
        return skill

    def noise(self, skill: Skill) -> Noise:
        """The execution-noise function of ``skill`` (a :class:`~carromlab.shots.Skill`, see
        :meth:`preset`) for this variant's shots."""
        skill = self.preset(skill)
        if not self.hand_placed:
            skill = dataclasses.replace(skill, placement=0.0)
        noise: Noise = skill.noise()
        return noise

    def origin(self, position: Position, placement: ArrayLike) -> Origins:
        """The origins (x, y) of shots with these placements in ``position``."""
        p = np.atleast_1d(np.asarray(placement, dtype=float))
        if self.origin_of is not None:
            return self.origin_of(position, p)
        return p, np.full(p.shape, self.shot_y(position.board))

    def legal_origin(self, position: Position, x: ArrayLike, y: ArrayLike) -> NDArray[np.bool_]:
        """Which shot origins (x, y) are legal and on no piece (touching is allowed)."""
        xs = np.atleast_1d(np.asarray(x, dtype=float))
        ys = np.atleast_1d(np.asarray(y, dtype=float))
        if self.legal_origin_of is not None:
            return self.legal_origin_of(position, xs, ys)
        on_line = np.abs(ys - self.shot_y(position.board)) < 1e-9
        return self.free_placement(position, xs) & on_line

    def table_position(self, position: Position) -> Position:
        """The position as the kernel sees it (disc 0, the shooter, is added to it); it keeps
        the position's ``set_by_hand``."""
        if self.table_of is None:
            return position
        return self.table_of(position).replace(set_by_hand=position.set_by_hand)

    def default_turn(self) -> object:
        """The variant's default turn state (a new ``rules.turn_type``; None without one)."""
        turn_type = self.rules.turn_type
        return None if turn_type is None else turn_type()

    def turn_of(self, position: Position) -> object:
        """The rules' turn state ``position`` is played under: its ``turn`` fields as a new
        ``rules.turn_type`` (a field left out takes its default), else :meth:`default_turn`.
        One line (:class:`CarromlabError`) for an unknown field (naming the known ones), a
        value of the wrong type, or what the turn type's own check refuses
        (:func:`carromlab.rules.turns.turn_from_fields`)."""
        from carromlab.rules.turns import turn_from_fields

        return turn_from_fields(self.rules.turn_type, position.turn, self.variant)

    def legal_placement(self, board: Board, x: ArrayLike) -> NDArray[np.bool_]:
        xs = np.asarray(x, dtype=float)
        ok = np.zeros(xs.shape, dtype=np.bool_)
        for lo, hi in self.placement_intervals(board):
            ok |= (xs >= lo - 1e-12) & (xs <= hi + 1e-12)
        return ok

    def free_placement(self, position: Position, x: ArrayLike) -> NDArray[np.bool_]:
        """Which shooter placements ``x`` on the shooting line are legal and on no piece
        (touching is allowed)."""
        xs = np.atleast_1d(np.asarray(x, dtype=float))
        board = position.board
        ok = self.legal_placement(board, xs)
        specs = board.piece_specs()
        r = specs[self.shooter_kind].radius
        y0 = self.shot_y(board)
        for p in position.pieces:
            ok &= np.hypot(p.x - xs, p.y - y0) >= r + specs[p.kind].radius
        return ok

    def project_placement(self, board: Board, x: ArrayLike) -> NDArray[np.float64]:
        """The nearest legal placement to each x."""
        xs = np.asarray(x, dtype=float)
        cands = np.stack([np.clip(xs, lo, hi) for lo, hi in self.placement_intervals(board)])
        pick = np.argmin(np.abs(cands - xs), axis=0)
        nearest: NDArray[np.float64] = np.take_along_axis(cands, pick[None], axis=0)[0]
        return nearest

    def check_shot(self, position: Position, shot: Shot) -> None:
        """Refuse a shot that cannot be played, with one clear line."""
        check_speed_angle(float(shot.speed), float(shot.angle))
        if self.check_origin is not None:
            self.check_origin(position, float(shot.x), float(shot.y))
        elif not self.legal_origin(position, float(shot.x), float(shot.y))[0]:
            raise CarromlabError(
                f"a {self.variant} shot cannot start at ({float(shot.x):.4f}, "
                f"{float(shot.y):.4f}) m in position {position.name!r}"
            )


def check_speed_angle(speed: float, angle: float) -> None:
    if not math.isfinite(speed) or speed <= 0:
        raise CarromlabError(f"shot speed must be a positive number of m/s, not {speed}")
    if speed > MAX_SPEED:
        raise CarromlabError(f"shot speed {speed} m/s is absurd (at most {MAX_SPEED} m/s)")
    if not math.isfinite(angle):
        raise CarromlabError(f"shot angle must be a finite number, not {angle}")


def analysis_for(variant: str) -> VariantAnalysis:
    """The shot-analysis hooks of ``variant``, from its game's description (the registry)."""
    from carromlab.registry import shot_analysis

    return shot_analysis(variant)


def analysed_variants() -> list[str]:
    """The variants with shot analysis."""
    from carromlab.registry import GAMES

    return [v for g in GAMES.values() if g.analysis is not None for v in g.variants]


def default_position(variant: str) -> str:
    """The standard position a shot analysis of ``variant`` uses when none is given."""
    from carromlab.registry import get_game

    game = get_game(variant)
    if variant not in game.default_position:
        raise CarromlabError(
            f"shot analysis is available for {', '.join(analysed_variants())}, not {variant!r}"
        )
    return game.default_position[variant]
