"""Reading the kernel's outcome arrays, shared by every variant's rules."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from carromlab.errors import CarromlabError


def outcome_field(outcome, key: str, required: bool = True):
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


def check_discs(capture, pieces, position, what: str = "pieces and the shooter") -> None:
    """One clear error when an outcome's disc count is not the shooter plus ``pieces``."""
    if capture.shape[1] != len(pieces) + 1:
        raise CarromlabError(
            f"the outcome has {capture.shape[1]} discs; position {position.name!r} has "
            f"{len(pieces)} {what}"
        )


def lying_spot(position, kind: str, what: str) -> tuple[float, float] | None:
    """Where the one piece of ``kind`` lies in ``position`` (None: none there); ``what`` names
    it in the error when there are several."""
    spots = [(p.x, p.y) for p in position.pieces if p.kind == kind]
    if len(spots) > 1:
        raise CarromlabError(f"position {position.name!r} has {len(spots)} {what} (at most 1)")
    return spots[0] if spots else None


def without_kind(position, kind: str):
    """``position`` without its pieces of ``kind`` (itself when it has none)."""
    if not any(p.kind == kind for p in position.pieces):
        return position
    return position.replace(pieces=tuple(p for p in position.pieces if p.kind != kind))


class VariantRules:
    """The analysis layer's view of a variant's rules: a subclass names its ``variant`` (and
    the ``variants`` it serves), its turn-state and scoring types, foul kinds, and the
    boolean (``probabilities``) and numeric (``means``) outputs of ``evaluate``; the
    read-only ``quantities`` mapping is built from those."""

    variant = ""
    variants: tuple[str, ...] = ()
    turn_type = None
    scoring_type = None
    foul_kinds: tuple[str, ...] = ()
    probabilities: tuple[str, ...] = ()
    means: tuple[str, ...] = ()
    quantities: Mapping[str, tuple[str, ...]] = MappingProxyType({})

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.quantities = MappingProxyType({"probabilities": cls.probabilities, "means": cls.means})

    def legal_pots(self, position, turn=None) -> tuple[str, ...] | None:
        """Ids of the pieces of ``position`` the shooter may pocket for points on ``turn``
        (None: the variant's default turn), for the pictures that show only those (a target
        map). None when the rules do not single any out (every piece is drawn)."""
        return None
