"""Provenance tags for equipment constants.

Every number about equipment carries one of four tags (see ``TAGS``) and a source, attached as
dataclass field metadata with :func:`spec`. :func:`provenance` lists them, so docs and tests can
check that nothing is untagged.
"""

from __future__ import annotations

import dataclasses
from typing import Any

TAGS = {
    "official": "an official specification (rule book or federation law)",
    "derived": "computed from official numbers",
    "secondary": "a maker's page, a review, or another simulator's setting",
    "estimate": "an assumption: configurable, to be replaced by a measurement",
}

ICF_LAWS = "ICF Laws of Carrom (1993), section I: equipment"


def spec(value: Any, tag: str, source: str) -> Any:
    """A dataclass field with a default ``value`` tagged ``tag`` with its ``source``."""
    if tag not in TAGS:
        raise ValueError(f"unknown provenance tag {tag!r}; use one of {sorted(TAGS)}")
    return dataclasses.field(default=value, metadata={"tag": tag, "source": source})


def provenance(obj: Any) -> list[dict[str, Any]]:
    """One row per tagged field of an equipment dataclass: name, value, tag, source."""
    rows = []
    for f in dataclasses.fields(obj):
        if "tag" in f.metadata:
            rows.append(
                {
                    "name": f.name,
                    "value": getattr(obj, f.name),
                    "tag": f.metadata["tag"],
                    "source": f.metadata["source"],
                }
            )
    return rows


def untagged_numbers(obj: Any) -> list[str]:
    """Names of numeric fields of ``obj`` without a provenance tag (should be empty)."""
    out = []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and "tag" not in f.metadata
        ):
            out.append(f.name)
    return out
