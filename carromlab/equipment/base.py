"""What every board family has in common."""

from __future__ import annotations

import dataclasses
import math
from functools import cached_property
from typing import Any, ClassVar

from carromlab.equipment._sourced import provenance
from carromlab.equipment.geometry import Layout, PieceSpec, Zone, rotate

#: Sides of a square board, in the order the turn passes to the right (seen from above, with
#: the first player at the bottom, South): S -> E -> N -> W.
SIDES = ("S", "E", "N", "W")
SIDE_ANGLE = {"S": 0.0, "E": math.pi / 2, "N": math.pi, "W": 3 * math.pi / 2}
"""Rotation that carries South's markings to each side's."""


class Board:
    """Base of the frozen board dataclasses. Subclasses set ``family`` and implement
    :meth:`_layout`, :meth:`_zones` and :meth:`piece_specs`."""

    family: ClassVar[str]

    @cached_property
    def layout(self) -> Layout:
        """Physics primitives: surface edge, cushions, rails, posts, captures."""
        return self._layout()

    @cached_property
    def zones(self) -> dict[str, Zone]:
        """Named zones for rules and drawing."""
        return self._zones()

    def _layout(self) -> Layout:  # pragma: no cover - abstract
        raise NotImplementedError

    def _zones(self) -> dict[str, Zone]:  # pragma: no cover - abstract
        raise NotImplementedError

    def piece_specs(self) -> dict[str, PieceSpec]:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def extent(self) -> float:
        """Half-width of the square that holds everything drawn (frame included)."""
        return self.layout.surface.size

    def provenance(self) -> list[dict[str, Any]]:
        """Every tagged constant of this board: name, value, tag, source."""
        return provenance(self)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"family": self.family}
        for f in dataclasses.fields(self):
            out[f.name] = getattr(self, f.name)
        return out


def side_rotated(side: str, x: float, y: float) -> tuple[float, float]:
    """South's point (x, y) carried to ``side``."""
    return rotate(x, y, SIDE_ANGLE[side])
