"""Commands over games, positions and equipment: ``games``, ``positions list|show|write``,
``validate``, ``draw``, ``equipment``."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from carromlab.cli.app import app, check, check_out, console, out_path, positions_app
from carromlab.cli.checks import resolve
from carromlab.errors import CarromlabError


@app.command("games")
def games_list() -> None:
    """List the games, their variants and their own options."""
    from rich.table import Table

    from carromlab.registry import GAMES

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
    files: list[Path] = typer.Argument(..., help="Position JSON files."),
) -> None:
    """Check position files; one line per file, exit 1 if any is illegal."""
    from carromlab.cli.checks import check_turn
    from carromlab.position import Position

    bad = 0
    for path in files:
        try:
            pos = check_turn(Position.load(path), str(path))
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
