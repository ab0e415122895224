"""The documentation site's own pages are written from the package at each build
(docs/site/_ext/carromlab_site.py); these check what they cover without building the site
(``python3 tasks.py docs`` builds it, warnings as errors; CI runs it)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import typer

import carromlab as cl

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def site():
    spec = importlib.util.spec_from_file_location(
        "carromlab_site", DOCS / "site" / "_ext" / "carromlab_site.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _command_paths(cmd, ctx, path):
    yield path
    for name in getattr(cmd, "commands", {}) and cmd.list_commands(ctx):
        sub = cmd.get_command(ctx, name)
        if not sub.hidden:
            yield from _command_paths(
                sub, type(ctx)(sub, info_name=name, parent=ctx), f"{path} {name}"
            )


def test_the_cli_reference_has_every_command(site):
    from carromlab.cli import app

    group = typer.main.get_command(app)
    paths = list(
        _command_paths(group, group.context_class(group, info_name="carromlab"), "carromlab")
    )
    assert {"carromlab study run", "carromlab positions list", "carromlab estimate"} <= set(paths)
    text = site.cli_markdown()
    headings = re.findall(r"^#+ `(carromlab[^`]*)`$", text, re.M)
    assert headings == paths
    assert "--placement" in text and "[default: club]" in text  # options with their defaults


def test_the_api_reference_has_every_curated_name_once(site):
    names = [n for _, names in site.api_sections().items() for n, _ in names]
    assert sorted(names) == sorted(cl.__all__)
    text = site.api_markdown()
    for name in cl.__all__:
        assert re.search(rf"^\.\. (auto\w+|py:data):: carromlab\.{re.escape(name)}$", text, re.M)


def test_the_study_reports_page_has_every_report(site):
    specs = ROOT / "data" / "studies" / "specs"
    reports = sorted(p.parent.parent.name for p in specs.glob("*/report/report.html"))
    assert reports and [s["name"] for s in site.studies()] == reports
    text = site.studies_markdown()
    for name in reports:
        assert f'href="../studies/{name}/report.html"' in text


def test_every_page_and_notebook_is_in_the_site():
    """Each docs page and notebook is in a section's table of contents (Sphinx would refuse
    a page in none, but only when the site is built)."""
    listed = set()
    for section in (DOCS / "site").glob("*.md"):
        for entry in re.findall(r"^(\.\./[\w./-]+)$", section.read_text(), re.M):
            listed.add(entry[3:])
    pages = {p.stem for p in DOCS.glob("*.md") if p.name != "index.md"}
    notebooks = {f"notebooks/{p.stem}" for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert pages | notebooks <= listed, sorted((pages | notebooks) - listed)


def test_the_gallery_images_exist():
    gallery = DOCS / "site" / "gallery.md"
    images = re.findall(r"^```\{figure\} (\S+)$", gallery.read_text(), re.M)
    assert len(images) >= 20
    missing = [i for i in images if not (gallery.parent / i).is_file()]
    assert not missing
