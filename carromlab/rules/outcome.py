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
