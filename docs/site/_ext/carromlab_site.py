"""The site's own pages, written from the package at every build so that they never drift:

- the command-line reference, from the typer app's command tree (``carromlab --help`` and
  each command's own help, options, defaults and epilogue);
- the API reference of the curated names (``carromlab.__all__``), one section a layer, each
  name documented from its docstring by autodoc;
- the study reports: each study folder in ``data/studies/specs/`` with its game, its
  questions, a link to its report page and to its verdict table in ``verdicts.md``.

The Markdown goes to ``build/site-gen/`` (not part of the sources); the committed pages in
``docs/site/`` include it. Each study's ``report/`` folder is copied into the built site as
``studies/<name>/`` so that the report pages and their figures are served beside the docs.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
GEN = ROOT / "build" / "site-gen"
SPECS = ROOT / "data" / "studies" / "specs"

#: The API page's sections: a defining module's prefix -> the section's title (first match).
API_SECTIONS = [
    ("carromlab.position", "Positions"),
    ("carromlab.registry", "Games and standard positions"),
    ("carromlab.equipment", "Equipment"),
    ("carromlab.shots", "Shots and skill"),
    ("carromlab.physics", "Physics"),
    ("carromlab.analysis", "Analysis"),
    ("carromlab.reports", "Reports"),
    ("carromlab.studies", "Rule-balance studies"),
    ("carromlab.rules", "Rules' contracts"),
    ("carromlab.play", "Whole games"),
    ("carromlab.plot", "Drawing"),
    ("carromlab.explore", "The explorer"),
    ("carromlab.errors", "Errors"),
    ("carromlab", "Package"),
]


# --- the command line -------------------------------------------------------------------


def _cell(text: str) -> str:
    """``text`` as one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _command_markdown(cmd, ctx, path: str, level: int) -> list[str]:
    """A command's section: its help, usage, arguments and options (each as ``--help``
    shows it: its names with the value's kind, its meaning with its default) and epilogue,
    then its subcommands'."""
    out = [f"{'#' * level} `{path}`", ""]
    if cmd.help:
        out += [_help_text(cmd.help), ""]
    out += ["```text", cmd.get_usage(ctx).strip(), "```", ""]
    rows = []
    for param in cmd.get_params(ctx):
        if getattr(param, "hidden", False) or param.name == "help":
            continue
        record = param.get_help_record(ctx)
        if record is None:  # an argument without help
            record = (param.human_readable_name, "")
        rows.append(f"| `{_cell(record[0])}` | {_cell(record[1])} |")
    if rows:
        out += ["| argument or option | meaning |", "|---|---|", *rows, ""]
    if getattr(cmd, "epilog", None):
        out += [_help_text(cmd.epilog), ""]
    if getattr(cmd, "commands", None):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            sub_ctx = type(ctx)(sub, info_name=name, parent=ctx)
            out += _command_markdown(sub, sub_ctx, f"{path} {name}", min(level + 1, 4))
    return out


def _help_text(text: str) -> str:
    """A command's help as Markdown prose: click's ``\\b`` (keep these lines) blocks as code,
    the rest as written."""
    blocks = []
    for block in re.split(r"\n\s*\n", text.strip()):
        if block.lstrip().startswith("\b"):
            blocks.append("```text\n" + block.replace("\b", "").strip("\n") + "\n```")
        else:
            blocks.append(block)
    return "\n\n".join(blocks)


def cli_markdown() -> str:
    """The command-line reference: every command of ``carromlab``, walked from the app."""
    import typer

    from carromlab.cli import app

    group = typer.main.get_command(app)
    ctx = group.context_class(group, info_name="carromlab")
    lines = _command_markdown(group, ctx, "carromlab", 2)
    lines[0] = "## `carromlab`"
    return "\n".join(lines) + "\n"


# --- the API ----------------------------------------------------------------------------


def api_sections() -> dict[str, list[tuple[str, str]]]:
    """The curated names by section: title -> [(name, its directive)], in ``__all__``'s
    order."""
    import inspect

    import carromlab as cl

    sections: dict[str, list[tuple[str, str]]] = {t: [] for _, t in API_SECTIONS}
    for name in cl.__all__:
        obj = getattr(cl, name)
        module = getattr(obj, "__module__", None) or cl._API.get(name, "carromlab")
        if name in cl._API and not (inspect.isclass(obj) or inspect.isroutine(obj)):
            module = cl._API[name]  # a constant: its defining module from the table
        if name == "__version__":
            module = "carromlab"
        title = next(t for prefix, t in API_SECTIONS if module.startswith(prefix))
        if inspect.isclass(obj):
            directive = "autoclass"
        elif inspect.isroutine(obj):
            directive = "autofunction"
        else:
            directive = "autodata"
        sections[title].append((name, directive))
    return {t: names for t, names in sections.items() if names}


def _summary(name: str, directive: str) -> str:
    """A name's one-line summary: its docstring's first sentence, or for a constant the
    ``#:`` comment above its definition."""
    import inspect

    import carromlab as cl

    text = _data_doc(name) if directive == "autodata" else inspect.getdoc(getattr(cl, name))
    first = " ".join((text or "").strip().split("\n\n")[0].split())
    if not first:  # undocumented: say where it is defined
        return f"Defined in ``{_defining_module(name)}``."
    end = first.find(". ")
    return first if end < 0 else first[: end + 1]


def _data_doc(name: str) -> str:
    """The ``#:`` comment above a constant's definition in its defining module."""
    import importlib.util

    import carromlab as cl

    if name == "__version__":
        return f"The package version (``{cl.__version__}``)."
    source = Path(importlib.util.find_spec(_defining_module(name)).origin).read_text()
    lines = source.splitlines()
    at = next(k for k, line in enumerate(lines) if re.match(rf"{re.escape(name)}\b[^=]*=", line))
    comment = []
    while at > 0 and lines[at - 1].startswith("#:"):
        at -= 1
        comment.insert(0, lines[at][2:].strip())
    return "\n".join(comment)


def _defining_module(name: str) -> str:
    """The module whose source assigns ``name`` (a package re-exports it from one of its
    modules)."""
    import importlib
    import pkgutil

    import carromlab as cl

    module = cl._API[name]
    package = importlib.import_module(module)
    candidates = [module]
    if hasattr(package, "__path__"):
        candidates += [f"{module}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]
    for candidate in candidates:
        source = importlib.util.find_spec(candidate).origin or ""
        if re.search(rf"^{re.escape(name)}\b[^=\n]*=", Path(source).read_text(), re.M):
            return candidate
    return module


def api_markdown() -> str:
    """The API page's body: a section a layer, its names in a summary table, then each
    documented from its docstring (reStructuredText blocks: autodoc writes
    reStructuredText); a constant by the ``#:`` comment above its definition."""
    out = []
    for title, names in api_sections().items():
        out += [f"## {title}", "", "```{eval-rst}", ".. list-table::", "   :widths: 30 70", ""]
        for name, directive in names:
            out += [f"   * - :py:obj:`~carromlab.{name}`", f"     - {_summary(name, directive)}"]
        out.append("")
        for name, directive in names:
            if directive == "autodata":
                out += [f".. py:data:: carromlab.{name}", ""]
                doc = _data_doc(name) or f"Defined in ``{_defining_module(name)}``."
                out += ["   " + line for line in doc.splitlines()]
            else:
                out.append(f".. {directive}:: carromlab.{name}")
                if directive == "autoclass":
                    out += ["   :members:", "   :show-inheritance:"]
            out.append("")
        out += ["```", ""]
    return "\n".join(out)


# --- the studies ------------------------------------------------------------------------


def studies() -> list[dict]:
    """Each study folder with a report: its name, game, questions and figures."""
    found = []
    for folder in sorted(p for p in SPECS.iterdir() if (p / "report" / "report.html").exists()):
        info = json.loads((folder / "study.json").read_text())
        doc = info.get("document", {})
        questions = [q.get("name", "") if isinstance(q, dict) else str(q)
                     for q in doc.get("questions", [])]  # fmt: skip
        figures = sorted(p.name for p in (folder / "report").glob("question-*.png"))
        found.append(
            {
                "name": folder.name,
                "game": doc.get("game", ""),
                "arms": len(doc.get("arms", [])),
                "questions": [q for q in questions if q],
                "figures": figures,
            }
        )
    return found


def _anchor(heading: str) -> str:
    """The anchor MyST gives a heading (``myst_heading_anchors``)."""
    text = re.sub(r"[^\w\- ]", "", heading.lower()).strip()
    return re.sub(r"\s", "-", text)


def studies_markdown() -> str:
    out = []
    for s in studies():
        anchor = _anchor(f"{s['name']} ({s['game']})")
        out += [f"## {s['name']}", ""]
        out += [
            f"Game `{s['game']}`; {s['arms']} arms; the file: `studies/{s['name']}.toml`; the "
            f"folder: `data/studies/specs/{s['name']}/`.",
            "",
        ]
        if s["questions"]:
            out += ["Questions: " + ", ".join(f"`{q}`" for q in s["questions"]) + ".", ""]
        out += [
            f'<a class="reference external" href="../studies/{s["name"]}/report.html">'
            f"The report</a> (its sentences, estimates and figures) and "
            f"[the verdict table](../verdicts.md#{anchor}) at each strength and prior.",
            "",
        ]
        if s["figures"]:
            first = s["figures"][0]
            out += [
                f"```{{image}} ../../data/studies/specs/{s['name']}/report/{first}",
                f":alt: {s['name']}: {first}",
                ":width: 480px",
                "```",
                "",
            ]
    return "\n".join(out)


def copy_reports(outdir: Path) -> None:
    """Each study's report folder into the built site as ``studies/<name>/`` (the page, its
    figures and tables; the parquet copies stay out)."""
    for s in studies():
        src = SPECS / s["name"] / "report"
        dst = outdir / "studies" / s["name"]
        shutil.copytree(src, dst, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.parquet"))


# --- Sphinx -----------------------------------------------------------------------------


def write_generated(app) -> None:
    GEN.mkdir(parents=True, exist_ok=True)
    pages = {"cli.md": cli_markdown(), "api.md": api_markdown(), "studies.md": studies_markdown()}
    for name, text in pages.items():
        path = GEN / name
        if not path.exists() or path.read_text() != text:  # unchanged: the pages stay built
            path.write_text(text)


def finished(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        copy_reports(Path(app.outdir))


def setup(app):
    app.connect("builder-inited", write_generated)
    app.connect("build-finished", finished)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
