"""A pydantic model's JSON Schema as a committed document (the position, sweep and study
schemas in docs/): its description completed and its draft named, its text, and the file
written by a schema module's main."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def schema_document(schema: dict[str, Any], tail: str) -> dict[str, Any]:
    """A pydantic model's JSON Schema as a committed document: ``tail`` (what is checked
    beyond it) added to its description, the draft named. Shared by the position, sweep and
    study schemas."""
    schema["description"] = f"{schema['description']} {tail}"
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def schema_text(schema: dict[str, Any]) -> str:
    """A schema document as the text of its committed file."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_schema(text: str, default: str) -> None:  # pragma: no cover - a module's main
    """Write ``text`` to the path given on the command line, else ``default``."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(default)
    out.write_text(text)
    print(f"wrote {out}")
