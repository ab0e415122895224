"""``carromlab cache info|clear``: the persistent compilation cache
(:mod:`carromlab.compile_cache`), shown and emptied without loading JAX."""

from __future__ import annotations

import json

import typer

from carromlab.cli.app import app
from carromlab.compile_cache import CACHE_ENV, cache_info, clear_cache

cache_app = typer.Typer(
    help=f"The compilation cache: compiled kernels kept on disk ({CACHE_ENV} moves it; "
    "off switches it off).",
    no_args_is_help=True,
)
app.add_typer(cache_app, name="cache")


def _size(n: object) -> str:
    size = float(n) if isinstance(n, int | float) else 0.0
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size:.1f} GB"


def _enabled(got: dict, off: str = "") -> bool:
    """Whether the cache ``got`` describes is on; its problem as a warning, and where it is
    off, one line saying so (with ``off`` after it)."""
    if got["problem"]:
        typer.echo(f"warning: {got['problem']}", err=True)
    if not got["enabled"]:
        typer.echo(f"compilation cache: off ({got['source']}){off}")
    return bool(got["enabled"])


@cache_app.command("info")
def info(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Where the cache is, what chose it, and its entries and size."""
    got = cache_info()
    if as_json:
        typer.echo(json.dumps(got))
        return
    if not _enabled(got):
        return
    typer.echo(f"compilation cache: {got['folder']} (from {got['source']})")
    typer.echo(
        f"entries: {got['entries']:,}, {_size(got['bytes'])}; kernel programs kept whole: "
        f"{got['programs']:,} (`carromlab --explain COMMAND` lists those a command uses)"
    )


@cache_app.command("clear")
def clear() -> None:
    """Remove every compiled kernel kept in the cache (the next run compiles again)."""
    got = clear_cache()  # a setting that names no folder: one line, nothing cleared
    if not _enabled(got, "; nothing to clear"):
        return
    typer.echo(f"removed {got['entries']:,} entries ({_size(got['bytes'])}) from {got['folder']}")
