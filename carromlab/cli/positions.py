"""Commands over games, positions and equipment: ``games`` (``--rules NAME``: a game's rule
fields), ``positions list|show|write``, ``validate``, ``draw``, ``equipment``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import typer

from carromlab.cli.app import app, check, check_out, console, out_path, positions_app
from carromlab.cli.checks import resolve
from carromlab.errors import CarromlabError


@app.command("games")
def games_list(
    rules: str = typer.Option(
        None,
        "--rules",
        metavar="NAME",
        help="List the rule fields of a game or variant (a study file's arms.rules keys): "
        "type, default, meaning.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List the games, their variants and their own options; with --rules NAME, every rule
    field of that game's rule configuration with its type, its default (for the variant
    named, else the game's first) and its meaning."""
    if rules is not None:
        games_rules(rules, as_json)
        return
    from rich.table import Table

    from carromlab.registry import GAMES

    if as_json:
        rows = [
            {
                "game": g.name,
                "title": g.title,
                "variants": list(g.variants),
                "board": g.family,
                "players": list(g.players),
                "play_options": [f"--{o.name}" for o in g.options],
                "shot_options": [f"--{o.name}" for o in g.shot_options],
            }
            for g in GAMES.values()
        ]
        typer.echo(json.dumps(rows, indent=2))
        return

    table = Table("game", "variants", "board", "players", "play options", "shot options")
    for g in GAMES.values():
        table.add_row(
            g.name,
            ", ".join(g.variants),
            g.family,
            ", ".join(g.players),
            " ".join(f"--{o.name}" for o in g.options),
            " ".join(f"--{o.name}" for o in g.shot_options),
        )
    console().print(table)


def field_meanings(cls: type) -> dict[str, str]:
    """The meanings of a dataclass's fields, by name: each field's ``#:`` comment lines just
    above it (or one ``#:`` comment after it on its line), read from the source of the class
    that declares it (bases included). A field without one, or a class whose source cannot
    be read, has none here."""
    import ast
    import inspect
    import io
    import textwrap
    import tokenize

    meanings: dict[str, str] = {}
    for klass in reversed(cls.__mro__):  # a subclass's comment wins over its base's
        if not dataclasses.is_dataclass(klass):
            continue
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
        comments: dict[int, str] = {}  # line -> its #: comment's text
        code: set[int] = set()  # lines with code on them
        skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                tokenize.DEDENT, tokenize.ENDMARKER)  # fmt: skip
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT and tok.string.startswith("#:"):
                comments[tok.start[0]] = tok.string[2:].strip()
            elif tok.type not in skip:
                code.update(range(tok.start[0], tok.end[0] + 1))
        node = ast.parse(source).body[0]
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
                continue
            line, above = item.lineno, []
            while line - 1 in comments and line - 1 not in code:
                line -= 1
                above.insert(0, comments[line])
            text = " ".join(above) or comments.get(item.lineno, "")
            if text:
                meanings[item.target.id] = text
    return meanings


def rule_fields(name: str) -> tuple[str, str, list[dict]]:
    """``(game, variant, fields)`` for a game or variant ``name``: each field of its rule
    configuration (``name``, ``type`` as annotated, ``default`` for the variant, the
    ``option`` of ``carromlab play`` that sets it, if any, ``meaning``:
    :func:`field_meanings`, "" where the class gives none, and ``in_study``: a study file's
    ``rules`` may set it, its default being a bool, a number or a string). One line naming
    the games if ``name`` is none of them."""
    from carromlab.registry import get_game

    game = get_game(name)
    variant = name if name in game.variants else game.variants[0]
    config = game.make_config(variant)
    meanings = field_meanings(type(config))
    options = {
        o.key: f"--{o.name}" for o in game.options if o.variants is None or variant in o.variants
    }
    fields = [
        {
            "name": f.name,
            "type": f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type)),
            "default": getattr(config, f.name),
            "option": options.get(f.name),
            "meaning": meanings.get(f.name, ""),
            "in_study": isinstance(getattr(config, f.name), (bool, int, float, str)),
        }
        for f in dataclasses.fields(config)
    ]
    return game.name, variant, fields


def games_rules(name: str, as_json: bool = False) -> None:
    """``carromlab games --rules NAME``: a table on a terminal, plain lines otherwise (one a
    field: ``name: type = default (--option): meaning``), or JSON."""
    import sys

    game, variant, fields = rule_fields(name)
    if as_json:
        doc = {"game": game, "variant": variant, "rules": fields}
        typer.echo(json.dumps(doc, indent=2, default=str))
        return
    title = f"{game}'s rules (variant {variant}): the keys of a study file's arms.rules"
    not_in_study = " [not in a study file]"

    def shown(v: object) -> str:
        if v is None:
            return "none"
        return json.dumps(v) if isinstance(v, (bool, str)) else str(v)

    def meaning(f: dict) -> str:
        return f["meaning"] + ("" if f["in_study"] else not_in_study)

    if not sys.stdout.isatty():
        typer.echo(title)
        for f in fields:
            option = f" ({f['option']})" if f["option"] else ""
            typer.echo(f"{f['name']}: {f['type']} = {shown(f['default'])}{option}: {meaning(f)}")
        return
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=title, title_justify="left")
    table.add_column("rule", no_wrap=True)
    table.add_column("type", no_wrap=True)
    table.add_column("default", no_wrap=True)
    table.add_column("option", no_wrap=True)
    table.add_column("meaning", ratio=1)
    for f in fields:
        cells = (f["name"], f["type"], shown(f["default"]), f["option"] or "", meaning(f))
        table.add_row(*(escape(c) for c in cells))
    console().print(table)


@positions_app.command("list")
def positions_list() -> None:
    """List the standard positions (as wide as the terminal)."""
    from rich import box
    from rich.table import Table

    from carromlab.registry import STANDARD

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("name", no_wrap=True)
    table.add_column("variant", no_wrap=True)
    table.add_column("pieces", justify="right")
    table.add_column("description", ratio=1)
    for name, factory in STANDARD.items():
        pos = factory()
        table.add_row(name, pos.variant, str(len(pos.pieces)), pos.description)
    console().print(table)


@positions_app.command("show")
def positions_show(name: str) -> None:
    """Print a standard position's JSON."""
    from carromlab.registry import standard_position

    typer.echo(standard_position(name).to_json())


@positions_app.command("write")
def positions_write(
    out: Path = typer.Argument(
        ..., help="Folder to write NAME.json files into.", parser=out_path("OUT"), metavar="OUT"
    ),
) -> None:
    """Write every standard position as JSON into a folder."""
    check_out(out, "folder", "OUT")
    from carromlab.registry import STANDARD

    out.mkdir(parents=True, exist_ok=True)
    for name, factory in STANDARD.items():
        factory().save(out / f"{name}.json")
    typer.echo(f"wrote {len(STANDARD)} positions to {out}")


@app.command()
def validate(
    files: list[str] = typer.Argument(..., help="Position JSON files."),
) -> None:
    """Check position files; one line per file, exit 1 if any is illegal."""
    from carromlab.cli.checks import check_turn
    from carromlab.position import Position

    bad = 0
    for path in files:
        try:
            if not path.strip():  # (as a Path, "" would be the current folder)
                raise CarromlabError(f"a position file's name is empty ({path!r})")
            pos = check_turn(Position.load(Path(path)), path)
        except CarromlabError as e:
            bad += 1
            typer.echo(f"error: {e}", err=True)
        else:
            turn = ""
            if pos.turn is not None:  # the turn it carries, in words
                from carromlab.registry import position_turn
                from carromlab.rules.turns import describe_turn

                turn = f"; turn: {describe_turn(position_turn(pos), pos)}"
            typer.echo(f"ok: {path} ({pos.variant}, {len(pos.pieces)} pieces{turn})")
    if bad:
        raise typer.Exit(1)


@app.command()
def draw(
    position: str = typer.Argument(..., help="A position JSON file or a standard name."),
    output: Path = typer.Option(
        ...,
        "-o",
        "--output",
        help="Image file (.png, .svg, .pdf).",
        parser=out_path("--output"),
        metavar="PATH",
    ),
    labels: bool = typer.Option(False, help="Write piece ids on the pieces."),
    dpi: int = typer.Option(150, help="Resolution of raster images."),
) -> None:
    """Draw a position (board and pieces, to scale) into an image file."""
    check(dpi=dpi)
    check_out(output, "file", "--output")
    pos = resolve(position)
    path = draw_to(pos, output, labels=labels, dpi=dpi)
    typer.echo(f"wrote {path}")


def draw_to(pos, output: Path, labels: bool = False, dpi: int = 150) -> Path:
    """Draw ``pos`` into the image file ``output``; one line if it cannot be written. A name
    without a suffix gets ``.png`` (matplotlib's default format), and the path returned says
    so."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from carromlab.plot import draw_position

    if not output.suffix:
        output = output.with_name(output.name + ".png")
    fig, ax = plt.subplots(figsize=(6, 6))
    try:
        draw_position(pos, ax=ax, labels=labels)
        fig.savefig(output, dpi=dpi, bbox_inches="tight")
    except (OSError, ValueError) as e:
        raise CarromlabError(f"cannot write {output}: {e}") from None
    finally:
        plt.close(fig)
    return output


@app.command()
def equipment(
    family: str = typer.Argument(None, help="Board family (icf, checker, crokinole, ...)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    markdown: bool = typer.Option(False, "--markdown", help="Print docs/equipment.md."),
) -> None:
    """List every equipment constant with its value, provenance tag and source."""
    from carromlab.equipment import BOARDS

    if family is not None and family not in BOARDS:
        raise CarromlabError(f"unknown board family {family!r}; known: {', '.join(BOARDS)}")
    rows = []
    for fam, cls in BOARDS.items():
        if family in (None, fam):
            rows += [{"family": fam, **row} for row in cls().provenance()]
    if as_json:
        typer.echo(json.dumps(rows, indent=2, default=str))
        return
    if markdown:
        typer.echo(equipment_markdown(rows), nl=False)
        return
    from rich import box
    from rich.table import Table

    shown_on = console()
    for fam in dict.fromkeys(r["family"] for r in rows):  # one table per family
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=fam, title_justify="left")
        table.add_column("name", no_wrap=True)
        table.add_column("value", no_wrap=True)
        table.add_column("tag", no_wrap=True)
        table.add_column("source", ratio=1)
        for r in rows:
            if r["family"] == fam:
                value = r["value"]
                shown = f"{value:.6g}" if isinstance(value, float) else str(value)
                table.add_row(r["name"], shown, r["tag"], r["source"])
        shown_on.print(table)


def equipment_markdown(rows: list[dict]) -> str:
    """The equipment constants as the Markdown page docs/equipment.md."""
    lines = [
        "# Equipment constants",
        "",
        "Generated by `carromlab equipment --markdown`; a test keeps it in step with the code.",
        "Tags: official (a rule book or law), derived (computed from official numbers),",
        "secondary (a maker's page or review), estimate (an assumption, configurable).",
        "Lengths in metres, masses in kilograms, angles in radians, speeds in m/s.",
    ]
    family = None
    for r in rows:
        if r["family"] != family:
            family = r["family"]
            lines += [
                "",
                f"## {family}",
                "",
                "| name | value | tag | source |",
                "|---|---|---|---|",
            ]
        lines.append(f"| {r['name']} | {r['value']} | {r['tag']} | {r['source']} |")
    return "\n".join(lines) + "\n"
