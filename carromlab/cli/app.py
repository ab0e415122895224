"""The typer app, its entry point and what every command shares: the numeric options' check,
output paths, the exit codes, truncation lines, the console, the device.

Bad input exits 2 with one line on stderr (``error: ...``), never a traceback: a
:class:`~carromlab.errors.CarromlabError` raised by a command, a :class:`Refused` raised while
typer reads an option, or click's own usage errors, all printed by :func:`main`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from carromlab import interrupt
from carromlab._version import __version__
from carromlab.errors import CarromlabError

app = typer.Typer(
    help="Monte-Carlo strategy analysis for disc-flicking games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
positions_app = typer.Typer(help="Standard positions.", no_args_is_help=True)
app.add_typer(positions_app, name="positions")

#: The executor options of the commands that run many jobs (``sweep``, ``study run``): one
#: definition each, shared.
EXECUTOR_OPTION = typer.Option("local", help="local, processes (spawned) or dask.")
WORKERS_OPTION = typer.Option(None, help="processes / dask: workers (default: cores).")
SCHEDULER_OPTION = typer.Option(
    None, help="dask: a scheduler address (tcp://host:8786); default a LocalCluster."
)

#: The exit code of a command run with ``--strict`` whose shots hit the event cap (bad input
#: exits 2, typer's usage errors 2, validate's illegal files 1).
TRUNCATED_EXIT = 3

#: The exit code of any command interrupted by Ctrl-C (128 + SIGINT, as shells report it),
#: after one line on stderr (carromlab/interrupt.py); a shot map's finished cells are kept in
#: ``OUT/shotmap.partial/`` and the same command resumes it.
INTERRUPTED_EXIT = interrupt.INTERRUPTED_EXIT

STRICT_HELP = (
    "Make truncated shots (those that hit the kernel's event cap) an error: the results are "
    "still written and printed, then `error: ...` and exit code 3 (without it: a warning)."
)

#: Commands that take the games' own options after the shared ones (parsed by the game).
GAME_OPTIONS = {"allow_extra_args": True, "ignore_unknown_options": True}
VARIANT_HELP = "Game variant (`carromlab games` lists them)."


class Refused(Exception):
    """Bad input found while typer reads an option (an angle, a placement, an output path):
    not a ValueError, so that it passes click's conversion and :func:`main` prints it as one
    line."""


def refusing(parse):
    """``parse`` (text -> value, raising :class:`CarromlabError`) as a typer ``parser``."""

    def parser(text):
        try:
            return parse(text)
        except CarromlabError as e:
            raise Refused(str(e)) from None

    parser.__name__ = getattr(parse, "__name__", "value")
    return parser


def unit_option(what: str):
    """A typer ``parser`` for the option ``--what``: a number, plain or with a unit
    (``65.9deg``, ``1.15rad``, ``12cm``), as an :class:`~carromlab.input_schema.Quantity`
    in its kind's own unit and within the option's bound."""

    def parse(text):
        from carromlab.input_schema import parse_value

        return parse_value(text, what)

    parse.__name__ = what
    return refusing(parse)


def out_path(option: str = "--out"):
    """A typer ``parser`` for an output path: the empty text is refused (a
    :class:`~pathlib.Path` reads it as the current folder); the rest is
    :func:`~carromlab.input_checks.check_out_path`'s, at the top of the command."""

    def parse(text):
        from carromlab.input_checks import check_out_text

        return text if isinstance(text, Path) else check_out_text(text, option)

    parse.__name__ = "path"
    return refusing(parse)


def check(**values) -> None:
    """The numeric options against their one set of bounds (carromlab/input_schema.py), before
    any work: one line naming the option and its value."""
    from carromlab.input_schema import check_flags

    check_flags(**values)


def check_out(path: Path, kind: str = "folder", option: str = "--out") -> None:
    """:func:`~carromlab.input_checks.check_out_path`: the output path, before any work."""
    from carromlab.input_checks import check_out_path

    check_out_path(path, kind, option)


def warn(line: str) -> None:
    typer.echo(line, err=True)


def console():
    """A console as wide as the terminal (or ``COLUMNS``; 80 when neither says)."""
    from rich.console import Console

    return Console()


def lines(result: dict) -> str:
    return "\n".join(f"{k}: {v}" for k, v in result.items())


def report_truncation(cut, strict: bool) -> None:
    """One line on stderr when shots hit the event cap (``cut``: a
    :class:`~carromlab.analysis.truncation.Truncation`, or None where none are counted): a
    warning, or with ``--strict`` an error and exit code 3."""
    if cut is None or cut.truncated == 0:
        return
    if strict:
        typer.echo(f"error: {cut.message()}", err=True)
        raise typer.Exit(TRUNCATED_EXIT)
    typer.echo(f"warning: {cut.message()}", err=True)


def check_device(device: str) -> None:
    """Refuse a ``--device`` name before JAX loads (the closest names with it)."""
    from carromlab.input_schema import DEVICE_NAMES, check_name

    check_name(device, DEVICE_NAMES, "device")


def select_device(device: str) -> None:
    """Point JAX at the requested platform before anything initialises it (a bad name is
    refused before JAX loads)."""
    check_device(device)
    if device == "auto":
        return
    import os

    import jax

    platform = "cuda" if device == "gpu" else "cpu"
    os.environ["JAX_PLATFORMS"] = platform  # spawned workers (sweep --executor processes)
    try:
        jax.config.update("jax_platforms", platform)
        jax.devices()
    except Exception as e:  # JAX raises RuntimeError or AssertionError here
        msg = str(e).splitlines()[0] if str(e) else "no backend for this platform"
        raise CarromlabError(
            f"no {device} available to JAX ({msg}); install carromlab[gpu]"
        ) from None


#: Set by ``--explain`` (or the variable ``CARROMLAB_EXPLAIN=1``): at the end, the kernel
#: programs the command compiled or read from the disk cache, and why, on stderr.
EXPLAIN = {"on": False}


def _print_version(value: bool) -> None:
    """``--version``: ``carromlab <version>`` (carromlab/_version.py, the one place), exit 0."""
    if value:
        from carromlab import _version

        typer.echo(f"carromlab {_version.__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="Print carromlab's version and exit.",
    ),
    explain: bool = typer.Option(
        False,
        "--explain",
        envvar="CARROMLAB_EXPLAIN",
        help="At the end, list the kernel programs the command used (compiled, or read from "
        "the compilation cache) and what chose each: board, discs, event cap, batch.",
    ),
) -> None:
    EXPLAIN["on"] = explain
    from carromlab.cli.spinner import install

    install()  # a long compile shows a one-line spinner (a terminal only)


def print_explain() -> None:
    """``--explain``'s lines (nothing when no kernel was loaded)."""
    if not EXPLAIN["on"]:
        return
    if "carromlab.physics.programs" not in sys.modules:
        typer.echo("kernel programs used: 0 (JAX was not loaded)", err=True)
        return
    from carromlab.physics.programs import explain_lines

    typer.echo("\n".join(explain_lines()), err=True)


@app.command()
def version() -> None:
    """Print the carromlab version."""
    typer.echo(__version__)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: one clear line on stderr for bad input, never a traceback.

    The command line's own errors (an option's value of the wrong type, an unknown or
    missing option) are click's; they are printed as one line naming the command, exit 2,
    instead of click's usage block. A command's exit code (``typer.Exit``) is the
    process's. Ctrl-C: one line (``interrupted``, or what the command kept), exit code 130
    (the console script, :mod:`carromlab.entry`, also covers the imports and a compile)."""
    # click's UsageError (BadParameter's base; recent typer carries its own copy of click)
    usage_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
    interrupt.begin()
    try:
        try:
            code = app(args=argv, prog_name="carromlab", standalone_mode=False)
        except (usage_error, CarromlabError, Refused):
            raise  # refused: the error's line alone, no --explain lines before it
        except BaseException:
            print_explain()  # Ctrl-C, a crash: what was compiled so far
            raise
        print_explain()
    except usage_error as e:
        where = e.ctx.command_path if e.ctx is not None else "carromlab"
        message = " ".join(e.format_message().split())
        hint = f" (see {where} --help)" if e.ctx is not None else ""
        if message:  # (no message: no command given, the help is already shown)
            typer.echo(f"error: {where}: {message}{hint}", err=True)
        sys.exit(2)
    except (KeyboardInterrupt, typer.Abort):  # Ctrl-C (older typer: click's Abort)
        interrupt.say()
        sys.exit(INTERRUPTED_EXIT)
    except (CarromlabError, Refused) as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(2)
    if code == INTERRUPTED_EXIT:  # Ctrl-C: typer returns 130 without a word
        interrupt.say()  # (nothing if the command said what it kept)
    if isinstance(code, int) and code:
        sys.exit(code)
