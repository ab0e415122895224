"""Reading the kernel's outcome arrays, shared by every variant's rules."""

from __future__ import annotations

from collections.abc import Mapping, Sized
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from carromlab.errors import CarromlabError

if TYPE_CHECKING:  # pragma: no cover
    from _typeshed import DataclassInstance

    from carromlab.position import Position


# Any (the return): one field of the kernel's outcome, a NumPy or a JAX array of that
# field's own dtype and shape, as the kernel or a recorded shot holds it.
def outcome_field(outcome: object, key: str, required: bool = True) -> Any:
    """``outcome[key]`` of a mapping or ``outcome.key`` of a ``ShotOutcome``; a clear error
    (or None when not ``required``) if it is missing."""
    if isinstance(outcome, Mapping):
        if key in outcome:
            return outcome[key]
    elif hasattr(outcome, key):
        return getattr(outcome, key)
    if required:
        raise CarromlabError(f"the shot outcome has no {key!r}")
    return None


def check_discs(
    capture: np.ndarray, pieces: Sized, position: Position, what: str = "pieces and the shooter"
) -> None:
    """One clear error when an outcome's disc count is not the shooter plus ``pieces``."""
    if capture.shape[1] != len(pieces) + 1:
        raise CarromlabError(
            f"the outcome has {capture.shape[1]} discs; position {position.name!r} has "
            f"{len(pieces)} {what}"
        )


def lying_spot(position: Position, kind: str, what: str) -> tuple[float, float] | None:
    """Where the one piece of ``kind`` lies in ``position`` (None: none there); ``what`` names
    it in the error when there are several."""
    spots = [(p.x, p.y) for p in position.pieces if p.kind == kind]
    if len(spots) > 1:
        raise CarromlabError(f"position {position.name!r} has {len(spots)} {what} (at most 1)")
    return spots[0] if spots else None


def without_kind(position: Position, kind: str) -> Position:
    """``position`` without its pieces of ``kind`` (itself when it has none)."""
    if not any(p.kind == kind for p in position.pieces):
        return position
    return position.replace(pieces=tuple(p for p in position.pieces if p.kind != kind))


class VariantRules:
    """The analysis layer's view of a variant's rules: a subclass names its ``variant`` (and
    the ``variants`` it serves), its turn-state and scoring types, foul kinds, and the
    boolean (``probabilities``) and numeric (``means``) outputs of ``evaluate``; the
    read-only ``quantities`` mapping is built from those."""

    variant: ClassVar[str] = ""
    variants: ClassVar[tuple[str, ...]] = ()
    #: The turn state's and the scoring's types (frozen dataclasses: a sweep replaces their
    #: fields by name), None where the variant has none.
    turn_type: ClassVar[type[DataclassInstance] | None] = None
    scoring_type: ClassVar[type[DataclassInstance] | None] = None
    foul_kinds: ClassVar[tuple[str, ...]] = ()
    probabilities: ClassVar[tuple[str, ...]] = ()
    means: ClassVar[tuple[str, ...]] = ()
    quantities: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType({})

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        cls.quantities = MappingProxyType({"probabilities": cls.probabilities, "means": cls.means})

    # Any (turn): each variant's own turn-state type (its ``turn_type``); a subclass names it.
    def legal_pots(self, position: Position, turn: Any = None) -> tuple[str, ...] | None:
        """Ids of the pieces of ``position`` the shooter may pocket for points on ``turn``
        (None: the variant's default turn), for the pictures that show only those (a target
        map). None when the rules do not single any out (every piece is drawn)."""
        return None
