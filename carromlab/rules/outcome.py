"""Reading the kernel's outcome arrays, shared by every variant's rules."""

from __future__ import annotations

from collections.abc import Mapping

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
