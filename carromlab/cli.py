"""The ``carromlab`` command line: a thin shell over the API.

Bad input exits non-zero with one line on stderr (``error: ...``), never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from carromlab import __version__
from carromlab.errors import CarromlabError

app = typer.Typer(
    help="Monte-Carlo strategy analysis for disc-flicking games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
positions_app = typer.Typer(help="Standard positions.", no_args_is_help=True)
app.add_typer(positions_app, name="positions")


def _resolve(source: str):
    """A position from a JSON file path or a standard position's name."""
    from carromlab.position import Position
    from carromlab.setups import STANDARD, standard_position

    if source in STANDARD:
        return standard_position(source)
    path = Path(source)
    if path.suffix.lower() == ".json" or path.exists():
        return Position.load(path)
    raise CarromlabError(
        f"{source!r} is neither a position file nor a standard position "
        f"(see `carromlab positions list`)"
    )


@app.command()
def version() -> None:
    """Print the carromlab version."""
    typer.echo(__version__)


@positions_app.command("list")
def positions_list() -> None:
    """List the standard positions."""
    from rich.console import Console
    from rich.table import Table

    from carromlab.setups import STANDARD

    table = Table("name", "variant", "pieces", "description")
    for name, factory in STANDARD.items():
        pos = factory()
        table.add_row(name, pos.variant, str(len(pos.pieces)), pos.description)
    Console(width=160).print(table)


@positions_app.command("show")
def positions_show(name: str) -> None:
    """Print a standard position's JSON."""
    from carromlab.setups import standard_position

    typer.echo(standard_position(name).to_json())


@positions_app.command("write")
def positions_write(
    out: Path = typer.Argument(..., help="Folder to write NAME.json files into."),
) -> None:
    """Write every standard position as JSON into a folder."""
    from carromlab.setups import STANDARD

    out.mkdir(parents=True, exist_ok=True)
    for name, factory in STANDARD.items():
        factory().save(out / f"{name}.json")
    typer.echo(f"wrote {len(STANDARD)} positions to {out}")


@app.command()
def validate(
    files: list[Path] = typer.Argument(..., help="Position JSON files."),
) -> None:
    """Check position files; one line per file, exit 1 if any is illegal."""
    from carromlab.position import Position

    bad = 0
    for path in files:
        try:
            pos = Position.load(path)
        except CarromlabError as e:
            bad += 1
            typer.echo(f"error: {e}", err=True)
        else:
            typer.echo(f"ok: {path} ({pos.variant}, {len(pos.pieces)} pieces)")
    if bad:
        raise typer.Exit(1)


@app.command()
def draw(
    position: str = typer.Argument(..., help="A position JSON file or a standard name."),
    output: Path = typer.Option(..., "-o", "--output", help="Image file (.png, .svg, .pdf)."),
    labels: bool = typer.Option(False, help="Write piece ids on the pieces."),
    dpi: int = typer.Option(150, help="Resolution of raster images."),
) -> None:
    """Draw a position (board and pieces, to scale) into an image file."""
    pos = _resolve(position)
    path = _draw_to(pos, output, labels=labels, dpi=dpi)
    typer.echo(f"wrote {path}")


def _draw_to(pos, output: Path, labels: bool = False, dpi: int = 150) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from carromlab.plot import draw_position

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
    from rich.console import Console
    from rich.table import Table

    table = Table("family", "name", "value", "tag", "source")
    for r in rows:
        table.add_row(r["family"], r["name"], f"{r['value']}", r["tag"], r["source"])
    Console(width=200).print(table)


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


@app.command()
def demo(
    out: Path = typer.Option(Path("out/demo"), help="Folder for the pictures and positions."),
) -> None:
    """The main job (for now): draw every standard set-up and write its JSON into a folder."""
    from tqdm import tqdm

    from carromlab.setups import STANDARD

    out.mkdir(parents=True, exist_ok=True)
    for name, factory in tqdm(STANDARD.items(), desc="drawing set-ups", unit="position"):
        pos = factory().check()
        pos.save(out / f"{name}.json")
        _draw_to(pos, out / f"{name}.png", labels=False)
    typer.echo(f"wrote {len(STANDARD)} set-ups (PNG + JSON) to {out}")


def main(argv: list[str] | None = None) -> None:
    """Console entry point: one clear line on stderr for bad input, never a traceback."""
    try:
        app(args=argv)  # typer reports usage errors itself and exits
    except CarromlabError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
