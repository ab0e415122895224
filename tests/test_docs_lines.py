"""The docs' prose lines are at most 100 columns (the code's width), so the pages read in a
terminal and diff line by line. Exempt: table rows (a Markdown table row cannot wrap), code
blocks, images and lines holding a web address (an address does not break)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 100
PAGES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]


def long_lines(text: str) -> list[int]:
    """The numbers of the prose lines over :data:`WIDTH` columns."""
    out, code = [], False
    for k, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            code = not code
            continue
        if code or line.startswith(("|", "![")) or "http" in line:
            continue
        if len(line) > WIDTH:
            out.append(k)
    return out


def test_a_long_prose_line_is_found():
    text = "a short line\n" + "word " * 30 + "\n| a table row " + "x" * 200 + " |\n"
    assert long_lines(text) == [2]


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_prose_line_fits_100_columns(page):
    bad = long_lines(page.read_text())
    assert not bad, f"{page.name}: lines {bad[:10]} are over {WIDTH} columns"
