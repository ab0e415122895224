"""The ``carromlab`` command line: a thin shell over the API.

Bad input exits non-zero with one line on stderr (``error: ...``), never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

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


def _resolve(source: str):
    """A position from a JSON file path or a standard position's name."""
    from carromlab.position import Position
    from carromlab.registry import STANDARD, standard_position

    if source in STANDARD:
        return standard_position(source)
    path = Path(source)
    if path.suffix.lower() == ".json" or path.exists():
        return Position.load(path)
    raise CarromlabError(
        f"{source!r} is neither a position file nor a standard position "
        f"(see `carromlab positions list`)"
    )


def check_out_path(path: Path, kind: str = "folder", option: str = "--out") -> None:
    """Refuse an output path that cannot be written, before any work: one line naming the
    option and its value. ``kind``: "folder" (made with its parents when missing) or "file"
    (written into a folder that exists). A folder counts as writable when a file can be
    made in it (a probe, removed at once: root passes every permission check, not /proc)."""
    import os
    import tempfile

    shown = f"{option} {path}"
    path = Path(path)

    def writable(folder: Path, what: str) -> None:
        if os.access(folder, os.W_OK | os.X_OK):
            try:
                with tempfile.TemporaryFile(dir=folder):
                    return
            except OSError:
                pass
        raise CarromlabError(f"{shown}: {what} is not writable")

    try:
        if kind == "folder":
            if path.exists():
                if not path.is_dir():
                    raise CarromlabError(f"{shown}: not a folder")
                writable(path, "the folder")
                return
            # the nearest folder that exists must take the new ones
            parent = next(p for p in path.absolute().parents if p.exists())
            if not parent.is_dir():
                raise CarromlabError(f"{shown}: {parent} is not a folder")
            writable(parent, f"its folder {parent}")
        elif kind == "file":
            if path.is_dir():
                raise CarromlabError(f"{shown}: a folder, not a file")
            folder = path.parent
            if not folder.exists():
                raise CarromlabError(f"{shown}: its folder {folder} does not exist")
            if not folder.is_dir():
                raise CarromlabError(f"{shown}: {folder} is not a folder")
            if path.exists() and not os.access(path, os.W_OK):
                raise CarromlabError(f"{shown}: the file is not writable")
            if not path.exists():
                writable(folder, f"its folder {folder}")
        else:
            raise ValueError(f"kind must be 'folder' or 'file', not {kind!r}")
    except OSError as e:  # a folder on the way that cannot be read
        raise CarromlabError(f"{shown}: {e.strerror or e}") from None


#: The exit code of a command run with ``--strict`` whose shots hit the event cap (bad input
#: exits 2, typer's usage errors 2, validate's illegal files 1).
TRUNCATED_EXIT = 3

#: The exit code of a shot map interrupted by Ctrl-C (128 + SIGINT, as shells report it); its
#: finished cells are kept in ``OUT/shotmap.partial/`` and the same command resumes it.
INTERRUPTED_EXIT = 130

STRICT_HELP = (
    "Make truncated shots (those that hit the kernel's event cap) an error: the results are "
    "still written and printed, then `error: ...` and exit code 3 (without it: a warning)."
)


def _report_truncation(cut, strict: bool) -> None:
    """One line on stderr when shots hit the event cap (``cut``: a
    :class:`~carromlab.analysis.truncation.Truncation`, or None where none are counted): a
    warning, or with ``--strict`` an error and exit code 3."""
    if cut is None or cut.truncated == 0:
        return
    if strict:
        typer.echo(f"error: {cut.message()}", err=True)
        raise typer.Exit(TRUNCATED_EXIT)
    typer.echo(f"warning: {cut.message()}", err=True)


@app.command()
def version() -> None:
    """Print the carromlab version."""
    typer.echo(__version__)


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
    _console().print(table)


@positions_app.command("show")
def positions_show(name: str) -> None:
    """Print a standard position's JSON."""
    from carromlab.registry import standard_position

    typer.echo(standard_position(name).to_json())


@positions_app.command("write")
def positions_write(
    out: Path = typer.Argument(..., help="Folder to write NAME.json files into."),
) -> None:
    """Write every standard position as JSON into a folder."""
    check_out_path(out, "folder", "OUT")
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
    _check(dpi=dpi)
    check_out_path(output, "file", "--output")
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
    from rich import box
    from rich.table import Table

    console = _console()
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
        console.print(table)


@app.command()
def bench(
    scenario: str = typer.Option(
        "cut",
        help="break, cut (see carromlab/bench/scenarios.py), boards (whole ICF boards) or "
        "carrooka-games (whole Carrooka games).",
    ),
    batch: int = typer.Option(
        10_000, help="Number of noisy shots (boards: of boards; carrooka-games: games)."
    ),
    skill: str = typer.Option("club", help="boards, carrooka-games: the players' skill."),
    policy: str = typer.Option(
        "greedy", help="boards: the ICF player of both seats (greedy, lookahead, random)."
    ),
    chunk: int = typer.Option(4096, help="Shots per kernel call (bounds memory)."),
    seed: int = typer.Option(0, help="Root PRNG seed."),
    peer: str = typer.Option(
        None,
        help="Also time the same shots in another engine: pymunk, at its fixed setting "
        "(1 ms step, one process per core); the report gives ratio_per_machine.",
    ),
    peer_shots: int = typer.Option(40, help="Shots each peer process simulates."),
    lanes: int = typer.Option(
        None, help="break, cut: lanes in flight per chunk (default 512; 0: plain batch)."
    ),
    cores: int = typer.Option(None, help="break, cut: use only this many of the cores' devices."),
    scaling: bool = typer.Option(
        False,
        "--scaling",
        help="break, cut: also run on one core (a child process bound to it) and report "
        "the speed-up of all cores over one.",
    ),
    device: str = typer.Option("auto", help="auto, cpu or gpu."),
    contacts: str = typer.Option(
        "cluster",
        help="break, cut: the kernel's contact model, cluster (the default) or sequential "
        "(docs/physics.md).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Time the physics kernel on a benchmark scenario (figures as JSON).

    ``boards``: BATCH single ICF boards between two POLICY players (greedy at club skill by
    default), played many at once; the goal is 1,000 greedy boards in at most 10 minutes and
    1,000 lookahead boards in at most 60 on a 2-core CPU.
    ``carrooka-games``: BATCH whole Carrooka games between greedy players.
    """
    _check(batch=batch, chunk=chunk, seed=seed, peer_shots=peer_shots, lanes=lanes, cores=cores)
    from carromlab.input_schema import CONTACT_MODEL_NAMES, check_name

    # every name before JAX loads (the device first of all)
    check_name(scenario, ("break", "cut", "boards", "carrooka-games"), "scenario")
    check_name(contacts, CONTACT_MODEL_NAMES, "contact model")
    if peer not in (None, "pymunk"):
        raise CarromlabError(f"unknown peer {peer!r}; the only peer is pymunk")
    if scenario in ("boards", "carrooka-games"):
        if peer or scaling or lanes is not None or cores is not None:
            raise CarromlabError(
                "--peer, --scaling, --lanes and --cores apply to the break and cut scenarios"
            )
        _check_skill(skill)
        if scenario == "boards":
            from carromlab.registry import get_game

            check_name(policy, get_game("icf").players, "policy")
        elif policy != "greedy":
            raise CarromlabError("--policy applies to the boards scenario")
    _select_device(device)
    from carromlab.bench.runner import bench as run_bench
    from carromlab.bench.runner import bench_with_peer

    if scenario in ("boards", "carrooka-games"):
        from carromlab.bench.games import bench_boards, bench_carrooka_games

        if scenario == "boards":
            result = bench_boards(batch, skill=skill, seed=seed, progress=True, policy=policy)
        else:
            result = bench_carrooka_games(batch, skill=skill, seed=seed, progress=True)
    else:
        kw = dict(chunk=chunk, seed=seed, contacts=contacts, lanes=lanes, cores=cores)
        if peer:
            result = bench_with_peer(scenario, batch, peer_shots, progress=True, **kw)
        else:
            result = run_bench(scenario, batch, progress=True, **kw)
        if scaling:
            from carromlab.bench.runner import bench_one_core

            one = bench_one_core(scenario, batch, **kw)
            result["one_core"] = {k: one[k] for k in ("shots_per_s", "elapsed_s", "cores")}
            result["scaling"] = result["shots_per_s"] / one["shots_per_s"]
    if as_json:
        typer.echo(json.dumps(result))
    else:
        for k, v in result.items():
            typer.echo(f"{k}: {v}")


def _check(**values) -> None:
    """The numeric options against their one set of bounds (carromlab/input_schema.py), before
    any work: one line naming the option and its value."""
    from carromlab.input_schema import check_flags

    check_flags(**values)


def _grid(spec: str, what: str) -> list[float]:
    """'A:B:K' (K values from A to B) or 'a,b,c'."""
    from carromlab.registry import parse_grid

    return parse_grid(spec, what)


#: Commands that take the games' own options after the shared ones (parsed by the game).
GAME_OPTIONS = {"allow_extra_args": True, "ignore_unknown_options": True}


def _parse_options(game, specs, args: list[str], what: str) -> dict:
    """The values of a game's own options (``specs``: its :class:`~carromlab.registry.Option`
    s) from the command line's extra ``args``; every option not given takes its default. One
    clear line for an option the game does not have (naming the games that do), a missing or
    bad value."""
    from carromlab.registry import GAMES

    values = {o.key: o.default for o in specs}
    flags = {}
    for o in specs:
        flags[f"--{o.name}"] = o
        if isinstance(o.default, bool):
            flags[f"--no-{o.name}"] = o
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, text = arg.partition("=")
        o = flags.get(name)
        if o is None:
            if not name.startswith("--"):
                raise CarromlabError(f"unexpected argument {arg!r} for {what}")
            bare = name[2:].removeprefix("no-")
            owners = [
                g.name
                for g in GAMES.values()
                if any(x.name == bare for x in (*g.options, *g.shot_options))
            ]
            mine = ", ".join(f"--{x.name}" for x in specs) or "none"
            if owners:
                raise CarromlabError(
                    f"{name} is for {', '.join(owners)}, not {game.name} "
                    f"({game.name}'s own options for {what}: {mine})"
                )
            raise CarromlabError(
                f"no such option {name} for {what} (see --help; {game.name}'s own: {mine})"
            )
        if isinstance(o.default, bool) and o.type in (None, bool):
            values[o.key] = not name.startswith("--no-")
        else:
            if not eq:
                i += 1
                if i >= len(args):
                    raise CarromlabError(f"{name} needs a value")
                text = args[i]
            values[o.key] = o.parse(text, game.name)
        i += 1
    return values


def _shot_options(game, args: list[str], command: str) -> dict:
    return _parse_options(game, game.shot_options, args, command)


def _play_options(game, variant: str, args: list[str]) -> dict:
    """A game's rule options for ``play``: those that apply to ``variant``."""
    values = _parse_options(game, game.options, args, "play")
    given = {a.partition("=")[0].removeprefix("--").removeprefix("no-") for a in args}
    out = {}
    for o in game.options:
        applies = o.variants is None or variant in o.variants
        if not applies and o.name in given:
            raise CarromlabError(f"--{o.name} is not an option of {variant}")
        if applies:
            out[o.key] = values[o.key]
    return out


def _game_option_help(kind: str) -> str:
    """The games' own options of a command, for its help."""
    from carromlab.registry import GAMES

    rows = []
    for g in GAMES.values():
        for o in getattr(g, kind):
            flag = f"--{o.name}/--no-{o.name}" if isinstance(o.default, bool) else f"--{o.name}"
            where = ", ".join(o.variants or g.variants)
            rows.append(f"{flag} ({where}; default {o.default!r}): {o.help}")
    return "Each game's own options:\n\n" + "\n\n".join(rows) if rows else ""


def _shot_position(position: str | None, variant: str, options: dict | None = None):
    """The position a shot command plays in: ``position`` (a name or file; default the
    variant's) as the game's shot options leave it (Carrooka: the striker's spot). Needs no
    JAX: a bad name or file is refused before anything loads."""
    from carromlab.registry import GAMES, get_game

    game = get_game(variant)
    if position is None:
        if variant not in game.default_position:
            have = [v for g in GAMES.values() if g.analysis is not None for v in g.variants]
            raise CarromlabError(
                f"shot analysis is available for {', '.join(have)}, not {variant!r}"
            )
        position = game.default_position[variant]
    pos = _resolve(position)
    if variant and pos.variant != variant:
        raise CarromlabError(
            f"position {pos.name or position!r} is for variant {pos.variant!r}, not {variant!r}"
        )
    if game.shot_position is not None:
        pos = game.shot_position(pos, options or {})
    return pos


def _no_position(position: str | None, variant: str, command: str) -> None:
    """Refuse ``--position`` for a game whose own ``command`` plays no position (KOOBA aims
    throws at points of the empty board), rather than ignoring it."""
    if position is not None:
        raise CarromlabError(
            f"--position does not apply to {command} --variant {variant}: its throws are aimed "
            f"at points of the board (see `carromlab {command} --help`), not played from a "
            f"position; drop --position"
        )


def _shot_turn(game, options: dict):
    """The rules' turn state for a shot command (Carrooka: the piece on)."""
    return game.shot_turn(options) if game.shot_turn is not None else None


def _variant_game(variant: str):
    from carromlab.registry import get_game

    game = get_game(variant)
    if variant not in game.variants:
        raise CarromlabError(
            f"{variant!r} is a game; give one of its variants: {', '.join(game.variants)}"
        )
    return game


# ---------------------------------------------------------------------- checks before any work
#
# Every name a shot command takes (variant, skill, position, the game's own options, the
# value) is checked here before JAX is imported (tests/test_cli_units.py checks
# ``sys.modules``); what needs the game's shot origins (the placement's unit, where the board
# is, the aim's direction) is checked once they are known, before anything is simulated.


class _Refused(Exception):
    """Bad input found while typer reads an option (an angle, a placement): not a
    ValueError, so that it passes click's conversion and :func:`main` prints it as one
    line."""


def _unit_option(what: str):
    """A typer ``parser`` for the option ``--what``: a number, plain or with a unit
    (``65.9deg``, ``1.15rad``, ``12cm``), as an :class:`~carromlab.input_schema.Quantity`
    in its kind's own unit and within the option's bound."""

    def parse(text):
        from carromlab.input_schema import parse_value

        try:
            return parse_value(text, what)
        except CarromlabError as e:
            raise _Refused(str(e)) from None

    parse.__name__ = what
    return parse


def _warn(line: str) -> None:
    typer.echo(line, err=True)


def _check_skill(skill: str) -> None:
    from carromlab.input_schema import SKILL_NAMES, check_name

    check_name(skill, SKILL_NAMES, "skill")


def _prepare_shot(ctx, command: str, position, variant: str, skill: str, value=None):
    """The checks of a shot command (estimate, shotmap, best) that need no JAX, before
    anything loads: the variant, the skill, the game's own options (board points on the
    board), the position (a name or a file, of the variant) with its turn, and the value's
    name. Returns (game, options, position, turn); position and turn are None for a game
    with its own ``command`` (KOOBA)."""
    game = _variant_game(variant)
    _check_skill(skill)
    options = _shot_options(game, ctx.args, command)
    _check_points(game, options)
    if command in game.commands:
        _no_position(position, variant, command)
        return game, options, None, None
    if game.analysis is None:
        raise CarromlabError(f"{command} needs a game with shot analysis, not {variant!r}")
    pos = _shot_position(position, variant, options)
    turn = _shot_turn(game, options)
    if value is not None:
        _check_value(value, variant, pos, command)
    return game, options, pos, turn


def _value_names(variant: str, pos, per_pocket: bool) -> list[str] | None:
    """The values a shot command can report for ``variant`` in ``pos`` (the columns of a
    shot map or of best's table), from the rules' declared outputs, without JAX; None where
    the rules are not found (the value is then checked after the run)."""
    from carromlab.registry import rules_class

    rules = rules_class(variant)
    if rules is None:
        return None
    names = [f"p_{q}" for q in rules.probabilities] + list(rules.means) + ["p_truncated"]
    ids = [p.id for p in pos.pieces if p.kind != "striker"]
    names += [f"p_capture:{i}" for i in ids]
    if per_pocket:
        pockets = [c.name for c in pos.board.layout.captures]
        names += [f"p_capture:{i}:{c}" for i in ids for c in pockets]
    return names


def _check_value(value: str, variant: str, pos, command: str) -> None:
    """Refuse a ``--value`` that the command cannot report, in one line naming the closest
    names (difflib) and the kinds of value there are."""
    names = _value_names(variant, pos, per_pocket=command == "shotmap")
    if names is None or value in names:
        return
    _refuse_value(value, names, command, variant)


def _refuse_value(value: str, names, command: str, variant: str) -> None:
    from carromlab.input_schema import closest, shorten

    names = list(names)
    close = closest(value, names)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    main_names = [n for n in names if not n.startswith("p_capture:")]
    pocket = "[:<pocket>]" if any(n.count(":") > 1 for n in names) else ""
    captures = f"; p_capture:<piece>{pocket}" if len(main_names) < len(names) else ""
    raise CarromlabError(
        f"--value {value!r} is not a {command} value for {variant}{hint} "
        f"(values: {shorten(main_names, 6)}{captures})"
    )


def _board_words(board, family: str) -> str:
    """The playing surface of ``board`` in words, for a message."""
    surface = board.layout.surface
    if surface.shape == "circle":
        return f"the {family} board, a circle of radius {surface.size:g} m"
    return f"the {family} board, x and y from -{surface.size:g} to {surface.size:g} m"


def _on_board(board, x: float, y: float) -> bool:
    import math

    surface = board.layout.surface
    if surface.shape == "circle":
        return math.hypot(x, y) <= surface.size
    return abs(x) <= surface.size and abs(y) <= surface.size


def _check_points(game, options: dict) -> None:
    """Refuse board points of the game's own options (``--striker X,Y``, ``--aim X,Y``,
    ``--aims GRID``) that lie off the board, in one short line with the board's size."""
    from carromlab.equipment import BOARDS
    from carromlab.input_schema import FINITE, GRIDS, KINDS, parse_grid_spec, parse_pair, shorten
    from carromlab.position_schema import show

    board = None
    for o in game.shot_options:
        text = options.get(o.key)
        if KINDS.get(o.name) != ("length",) or not isinstance(text, str) or not text:
            continue
        board = board or BOARDS[game.family]()
        if o.name in GRIDS:  # one axis of values, used for x and for y
            spec = parse_grid_spec(text, o.name, FINITE)  # the board bounds them
            off = [v for v in spec.values if not _on_board(board, v, 0.0)]
            shown = [f"{v:g}" for v in off]
            what = f"{len(off):,} of {len(spec.values):,} values lie"
        else:
            x, y = parse_pair(text, o.name, FINITE)
            off = [] if _on_board(board, x, y) else [(x, y)]
            shown = [f"({x:g}, {y:g}) m"]
            what = "the point lies"
        if off:
            plain = not any(c.isalpha() for c in text.replace("e", "").replace("E", ""))
            cm = "; in centimetres write the unit: 12cm" if plain else ""
            raise CarromlabError(
                f"--{o.name} {show(text)}: {what} off {_board_words(board, game.family)}: "
                f"{shorten(shown, 4)} (coordinates are metres from the centre{cm})"
            )


def _line_origin(va) -> bool:
    """Whether a variant's shots start on a line (placement in metres: ICF, Carroms) rather
    than on a circle (degrees: Carrooka's break line, the crokinole side)."""
    return va.origin_of is None


def _fixed_origin(va, pos) -> tuple[float, float] | None:
    """Where the shooter lies when it is played from there whatever the placement (a
    Carrooka striker on the board), else None."""
    xs, ys = va.origin(pos, [-1.0, 1.0])
    if xs[0] == xs[1] and ys[0] == ys[1]:
        return float(xs[0]), float(ys[0])
    return None


def _check_placements(what: str, text: str, values, kind, va, pos, game) -> None:
    """The placement(s) against the board, once its shot origins are known: the unit
    (metres on a line, degrees on a circle: a unit of the other kind is refused, and each
    refusal names the board's), off the board (refused with the board's size), none legal
    (refused with the legal intervals or the default grid), ignored (a Carrooka striker that
    lies on the board: a warning), or plain angles that look like radians (a warning)."""
    from carromlab.input_schema import radians_warning, shorten

    variant = pos.variant
    where = f"--{what} {text}"
    line = _line_origin(va)
    unit = "metres along the shooter's line" if line else "degrees on the shooter's circle"
    spot = _fixed_origin(va, pos)
    if spot is not None:
        _warn(
            f"warning: {where} is ignored: the {va.shooter_kind} lies at "
            f"({spot[0]:.3f}, {spot[1]:.3f}) m and is played from there"
        )
        return
    if kind is not None and kind != ("length" if line else "angle"):
        units = "m, cm or mm, or a plain number" if line else "deg or rad, or a plain number"
        raise CarromlabError(
            f"{where}: on the {variant} board a placement is in {unit}, not "
            f"{'an' if kind == 'angle' else 'a'} {kind}; "
            f"write {units}"
        )
    values = [float(v) for v in values]
    if line:
        half = pos.board.layout.surface.size
        off = [v for v in values if abs(v) > half]
        if off:
            cm = "; in centimetres write the unit: 12cm" if kind is None else ""
            what = (
                f"{len(off):,} of {len(values):,} placements lie"
                if len(values) > 1
                else f"{off[0]:g} m lies"
            )
            listed = f": {shorten([f'{v:g}' for v in off], 4)}" if len(values) > 1 else ""
            raise CarromlabError(
                f"{where}: {what} off the {variant} board (x from -{half:g} to {half:g} m; "
                f"placements are metres{cm}){listed}"
            )
    elif kind is None:
        warning = radians_warning(text, what, values)
        if warning:
            _warn(warning)
    if len(values) == 1 and va.check_origin is not None:
        return  # the game's own check, at the shot, says why (ICF: law 130, in metres)
    xs, ys = va.origin(pos, values)
    legal = va.legal_origin(pos, xs, ys)
    if not legal.any():
        if line:
            spans = ", ".join(
                f"{lo:.4f} to {hi:.4f}" for lo, hi in va.placement_intervals(pos.board)
            )
            legal_words = f"legal: {spans} m"
        else:
            grid = game.default_grid[0] if game.default_grid else "-90"
            legal_words = f"the game's default: {grid}"
        raise CarromlabError(
            f"{where}: no legal {va.shooter_kind} placement in position "
            f"{pos.name!r} ({variant} placements are {unit}; {legal_words})"
        )


#: A forward aim from a line: strictly between these (degrees counter-clockwise from +x).
FORWARD = (0.0, 180.0)


def _check_forward(what: str, text: str, values, va, pos) -> None:
    """On a line board (ICF, Carroms) refuse aims that do not point forward, away from the
    shooter's own baseline: the laws forbid striking a piece behind the baseline directly
    and carromlab's rules do not judge that foul (docs/decisions.md)."""
    from carromlab.input_schema import shorten

    if not _line_origin(va):
        return
    back = [v for v in (float(v) for v in values) if not FORWARD[0] < v % 360 < FORWARD[1]]
    if back:
        if len(values) > 1:
            count = f"{len(back):,} of {len(values):,} aims do not point forward "
            count += f"({shorten([f'{v:g}' for v in back], 4)})"
        else:
            count = "the aim does not point forward"
        raise CarromlabError(
            f"--{what} {text}: {count}; on the {pos.variant} board an aim must lie strictly "
            "between 0 and 180 deg: a piece behind the baseline may not be struck directly, "
            "and the rules do not judge that foul (docs/decisions.md)"
        )


#: Shot-map shots a second on one CPU core, slow to fast: a Carrooka map of fast shots all
#: round (the README's, 129,600 shots in about 5 minutes on 2 cores: about 200 a core) to
#: ICF breaks (docs/benchmarks.md: 5,130 shots/s on 2 cores, about 2,500 a core).
MAP_RATE_PER_CORE = (200, 2_500)
#: A map whose slow estimate passes this many seconds says its size before it starts.
ANNOUNCE_AFTER_S = 60


def _cores() -> int:
    import os

    env = os.environ.get("CARROMLAB_CORES", "")
    return int(env) if env.isdigit() and int(env) > 0 else (os.cpu_count() or 1)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _map_size_line(cells: int, n: int, cores: int | None = None) -> str | None:
    """One line giving a long shot map's size and time before it starts (None for a short
    one): the shots, and the time at :data:`MAP_RATE_PER_CORE` on this machine's cores."""
    cores = cores or _cores()
    shots = cells * n
    slow, fast = (shots / (rate * cores) for rate in MAP_RATE_PER_CORE)
    if slow < ANNOUNCE_AFTER_S:
        return None
    lo, hi = (rate * cores for rate in MAP_RATE_PER_CORE)
    return (
        f"shot map: {cells:,} cells x {n:,} shots = {shots:,} shots: about "
        f"{_duration(fast)} to {_duration(slow)} on this machine ({cores} cores at "
        f"{lo:,}-{hi:,} shots/s; the bar shows the rate once the kernel is compiled)"
    )


def _with_origin(summary: dict, va, pos) -> dict:
    """A shot map's summary where the shooter lies on the board (a Carrooka striker): its
    spot (``striker``: [x, y] m) instead of the placement, which played no part."""
    spot = _fixed_origin(va, pos) if va is not None and pos is not None else None
    if spot is None or "best" not in summary:
        return summary
    best = {k: v for k, v in summary["best"].items() if k != "placement"}
    summary = dict(summary)
    summary["best"] = {va.shooter_kind: [round(spot[0], 6), round(spot[1], 6)], **best}
    return summary


PLACEMENT_HELP = (
    "Where the shot starts (the placement): on a line board (ICF, Carroms) the shooter's x on "
    "its line in metres (or 5cm, 50mm); on a circle (Carrooka's break line, the crokinole "
    "side) the origin's angle in degrees (or -1.57rad); ignored where the shooter lies on "
    "the board. Default: the game's (0 m, or -90 deg)."
)
VARIANT_HELP = "Game variant (`carromlab games` lists them)."
ANGLE_HELP = (
    "Aim, counter-clockwise from +x: degrees, or with a unit, 65.9deg or 1.15rad. On a line "
    "board (ICF, Carroms) it must point forward, between 0 and 180 deg."
)


@app.command(context_settings=GAME_OPTIONS, epilog=_game_option_help("shot_options"))
def estimate(
    ctx: typer.Context,
    position: str = typer.Option(None, help="Standard position name or JSON file."),
    variant: str = typer.Option("icf", help=VARIANT_HELP),
    placement: float = typer.Option(
        None, help=PLACEMENT_HELP, parser=_unit_option("placement"), metavar="PLACEMENT"
    ),
    angle: float = typer.Option(
        90.0, help=ANGLE_HELP, parser=_unit_option("angle"), metavar="ANGLE"
    ),
    speed: float = typer.Option(2.0, help="Striker speed (m/s)."),
    skill: str = typer.Option("club", help="novice, club, expert, pro or exact."),
    n: int = typer.Option(10_000, help="Noisy executions."),
    seed: int = typer.Option(0, help="Root PRNG seed."),
    chunk: int = typer.Option(4096, help="Shots per kernel batch (results do not depend on it)."),
    hand_set: float = typer.Option(
        None,
        "--hand-set",
        help="Metres the pieces of an opening set by hand move per shot (default 0.0003; 0: "
        "off; docs/physics.md).",
    ),
    show_all: bool = typer.Option(
        False, "--all", help="Print every quantity (default: pot rate, foul risk, points)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    out: Path = typer.Option(None, help="Folder for estimate.parquet."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Estimate one shot: the pot rate, foul risk and points first, each with its interval
    (--all: every capture, foul and rule quantity). KOOBA: one aim point's tag probabilities
    (Eye, Inner Eye, KOOBA, ring, penalty, ...).
    Each game's own options follow the shared ones (see below)."""
    import math

    _check(
        placement=placement,
        angle=angle,
        speed=speed,
        n=n,
        seed=seed,
        chunk=chunk,
        hand_set=hand_set,
    )

    if out is not None:
        check_out_path(out)
    game, options, pos, turn = _prepare_shot(ctx, "estimate", position, variant, skill)
    if pos is None:  # the game's own command (KOOBA)
        df = game.commands["estimate"](skill=skill, n=n, seed=seed, options=options)
        _write_and_print(df, out, as_json, strict, show_all)
        return
    from carromlab.input_schema import radians_warning

    written = getattr(angle, "text", repr(angle))
    if getattr(angle, "plain", True):
        warning = radians_warning(written, "angle", [angle])
        if warning:
            _warn(warning)

    from carromlab.analysis import estimate as run_estimate
    from carromlab.analysis.variants import analysis_for
    from carromlab.shots import Shot

    va = analysis_for(pos.variant)
    if placement is not None:
        text = getattr(placement, "text", repr(placement))
        _check_placements(
            "placement", text, [placement], getattr(placement, "kind", None), va, pos, game
        )
    else:  # mid-line, or the point of a circle straight below the centre
        placement = game.default_placement
    _check_forward("angle", written, [angle], va, pos)
    xs, ys = va.origin(pos, [float(placement)])
    shot = Shot(float(xs[0]), float(ys[0]), math.radians(angle), speed)
    va.check_shot(pos, shot)  # the game's own word on the shot (ICF: law 130), now
    df = run_estimate(
        pos,
        shot,
        skill=skill,
        n=n,
        seed=seed,
        chunk=chunk,
        progress=not as_json,
        turn=turn,
        hand_set=hand_set,
    )
    _write_and_print(df, out, as_json, strict, show_all)


def _write_and_print(
    df, out: Path | None, as_json: bool, strict: bool = False, show_all: bool = False
) -> None:
    from carromlab.analysis.truncation import truncation

    if out is not None:
        from carromlab.analysis.results import write_parquet

        write_parquet(df, out / "estimate.parquet")
    if as_json:
        rows = json.loads(df.to_json(orient="records"))
        typer.echo(json.dumps({"config": df.attrs["config"], "rows": rows}, default=str))
    else:
        _print_estimate(df, show_all)
    _report_truncation(truncation(df), strict)


#: An estimate's first rows: the pot rate, the foul risk and the points, each the first of
#: these quantities the variant's rules give.
HEADLINE = (
    ("pot rate", ("potted", "continues")),
    ("foul risk", ("foul", "penalty")),
    ("points", ("points",)),
)


#: The kernel's names for the shooting disc (disc 0) in a table of captures.
SHOOTERS = ("striker", "shooter")


def _console():
    """A console as wide as the terminal (or ``COLUMNS``; 80 when neither says)."""
    from rich.console import Console

    return Console()


def _estimate_cells(r) -> tuple[str, str]:
    """An estimate and its interval for the terminal: probabilities in per cent, means with
    three decimals."""
    if r.kind == "probability":
        return f"{100 * r.estimate:.1f} %", f"[{100 * r.lo:.1f}, {100 * r.hi:.1f}] %"
    return f"{r.estimate:.3f}", f"[{r.lo:.3f}, {r.hi:.3f}]"


def _print_estimate(df, show_all: bool = False) -> None:
    """An estimate as a table: the pot rate, foul risk and points first (each with its 95 %
    interval) and the pieces most often pocketed; every quantity with ``show_all``."""
    from rich.table import Table

    config = df.attrs.get("config", {})
    rows = {r.quantity: r for r in df.itertuples()}
    n = int(df["n"].max()) if len(df) else 0
    skill = config.get("skill", {})
    skill = skill.get("name", "") if isinstance(skill, dict) else str(skill)
    where = config.get("position") or config.get("variant") or ""
    title = ", ".join(x for x in (where, skill, f"{n:,} shots") if x)
    table = Table("", "estimate", "95% interval", title=title, title_justify="left")
    if show_all:
        shown = df[
            (df["kind"] == "mean")
            | (df["estimate"] > 0)
            | ~df["quantity"].str.startswith("capture:")
        ]
        for r in shown.itertuples():
            table.add_row(r.quantity, *_estimate_cells(r))
        _console().print(table)
        return
    used = set()
    for label, names in HEADLINE:
        name = next((q for q in names if q in rows), None)
        if name is not None:
            used.add(name)
            table.add_row(
                f"{label} ({name})" if name != label else label, *_estimate_cells(rows[name])
            )
    piece = df["quantity"].str.slice(8)
    pots = df[
        df["quantity"].str.startswith("capture:")
        & ~piece.str.contains(":")
        & ~piece.isin(SHOOTERS)  # the shooter pocketed is a foul, counted above
        & (df["estimate"] > 0)
    ].nlargest(3, "estimate")
    for r in pots.itertuples():
        used.add(r.quantity)
        table.add_row(f"{r.quantity[8:]} pocketed", *_estimate_cells(r))
    if not used:  # a game with other quantities (KOOBA's tags): all of them
        for r in df.itertuples():
            table.add_row(r.quantity, *_estimate_cells(r))
        _console().print(table)
        return
    rest = len(df) - len(used)
    if rest > 0:
        table.caption = f"{rest} more quantities: --all (or --json)"
        table.caption_justify = "left"
    _console().print(table)


@app.command(context_settings=GAME_OPTIONS, epilog=_game_option_help("shot_options"))
def shotmap(
    ctx: typer.Context,
    position: str = typer.Option(None, help="Standard position name or JSON file."),
    variant: str = typer.Option("icf", help=VARIANT_HELP),
    placements: str = typer.Option(
        None,
        help="START:STOP:COUNT or a list of placements (see estimate --placement); default "
        "the game's grid (icf -0.18:0.18:13).",
    ),
    angles: str = typer.Option(
        None, help="START:STOP:COUNT or a list (degrees; default the game's, icf 30:150:61)."
    ),
    speeds: str = typer.Option(
        None, help="START:STOP:COUNT or a list (m/s; default the game's, icf 2.0)."
    ),
    skill: str = typer.Option("club", help="novice, club, expert, pro or exact."),
    n: int = typer.Option(200, help="Noisy executions per cell."),
    seed: int = typer.Option(0, help="Root PRNG seed."),
    chunk: int = typer.Option(4096, help="Shots per kernel batch."),
    value: str = typer.Option("points", help="Column to draw (points, p_continues, p_foul, ...)."),
    out: Path = typer.Option(Path("out/shotmap"), help="Folder for shotmap.parquet and PNGs."),
    hand_set: float = typer.Option(
        None,
        "--hand-set",
        help="Metres the pieces of an opening set by hand move per shot (default 0.0003; 0: "
        "off; docs/physics.md).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """A shot map over placement x angle (x speed): parquet plus pictures. Carrooka: over
    angle x speed from where the striker lies. KOOBA: tag probabilities over a grid of aim
    points (value p_eye, p_inner_eye, p_kooba, p_ring, p_penalty, p_own_run or p_off).
    The summary counts the truncated shots (truncated, p_truncated).
    Finished cells are kept in OUT/shotmap.partial/ as they come: after Ctrl-C (exit code
    130) the same command resumes, computing only the missing cells.
    Each game's own options follow the shared ones (see below)."""
    check_out_path(out)
    _check(
        n=n,
        seed=seed,
        chunk=chunk,
        hand_set=hand_set,
        placements=placements,
        angles=angles,
        speeds=speeds,
    )
    game, options, pos, _ = _prepare_shot(ctx, "shotmap", position, variant, skill, value)
    from carromlab.analysis.truncation import summary_truncation

    if pos is None:  # the game's own command (KOOBA)
        result = game.commands["shotmap"](
            skill=skill, n=n, seed=seed, value=value, out=out, options=options
        )
        _print_summary(result, as_json)
        _report_truncation(summary_truncation(result), strict)
        return
    from carromlab.analysis.shotmap import FALLBACK_GRID
    from carromlab.analysis.variants import analysis_for
    from carromlab.input_schema import check_cells, check_run, parse_grid_spec, radians_warning

    defaults = game.default_grid or FALLBACK_GRID  # best starts from the same grid
    spots = parse_grid_spec(placements or defaults[0], "placements")
    aims = parse_grid_spec(angles or defaults[1], "angles")
    grid_speeds = _grid(speeds or defaults[2], "speeds")
    cells = len(spots.values) * len(aims.values) * len(grid_speeds)
    check_cells(cells, "shotmap")
    check_run(cells, n, "shotmap")
    va = analysis_for(variant)
    if angles is not None and aims.plain:
        warning = radians_warning(angles, "angles", aims.values)
        if warning:
            _warn(warning)
    if placements is not None:
        _check_placements("placements", placements, spots.values, spots.kind, va, pos, game)
    _check_forward("angles", aims.text, aims.values, va, pos)
    size = _map_size_line(cells, n)
    if size:
        _warn(size)
    result = run_shotmap(
        position,
        variant,
        spots.values,
        aims.values,
        grid_speeds,
        skill,
        n,
        seed,
        chunk,
        value,
        out,
        options=options,
        hand_set=hand_set,
    )
    result = _with_origin(result, va, pos)
    _print_summary(result, as_json, "m" if _line_origin(va) else "deg")
    _report_truncation(summary_truncation(result), strict)


def _lines(result: dict) -> str:
    return "\n".join(f"{k}: {v}" for k, v in result.items())


def _value_text(value: str, v: float, interval) -> tuple[str, str]:
    """A value and its interval for the terminal: a probability (``p_...``) in per cent,
    a mean with three decimals."""
    if value.startswith("p_"):
        return f"{100 * v:.1f} %", f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}] %"
    return f"{v:.3f}", f"[{interval[0]:.3f}, {interval[1]:.3f}]"


def _cell_words(best: dict, value: str, placement_unit: str | None) -> str:
    """A shot map's best cell in words with units (placement, aim, speed, or the spot the
    shooter lies on)."""
    parts = []
    for k, v in best.items():
        if k == value:
            continue
        if isinstance(v, (list, tuple)) and len(v) == 2:
            parts.append(f"{k} at ({v[0]:.3f}, {v[1]:.3f}) m")
        elif k == "placement":
            unit = placement_unit or ""
            parts.append(f"placement {v:.3f} m" if unit == "m" else f"placement {v:.1f} {unit}")
        elif k == "angle":
            parts.append(f"angle {v:.1f} deg")
        elif k == "speed":
            parts.append(f"speed {v:.2f} m/s")
        elif k in ("aim_x", "aim_y"):
            parts.append(f"{k.replace('_', ' ')} {v:.3f} m")
        else:
            parts.append(f"{k} {v:g}" if isinstance(v, (int, float)) else f"{k} {v}")
    return ", ".join(parts)


def _print_summary(
    summary: dict, as_json: bool = False, placement_unit: str | None = None, title="shot map"
) -> None:
    """A map's summary: JSON, or a short table (folder, size, truncated shots, the best cell
    with units and its value with the interval)."""
    if as_json:
        typer.echo(json.dumps(summary, default=str))
        return
    from rich import box
    from rich.table import Table

    table = Table(
        show_header=False, box=box.SIMPLE, title=title, title_justify="left", pad_edge=False
    )
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    value = summary.get("value")
    for k, v in summary.items():
        if k in ("value", "best_interval", "p_truncated"):
            continue
        if k == "best" and isinstance(v, dict):
            table.add_row("best cell", _cell_words(v, value, placement_unit))
            if value in v:
                interval = summary.get("best_interval") or (v[value], v[value])
                table.add_row(value, " ".join(_value_text(value, v[value], interval)))
        elif k == "truncated":
            shots = summary.get("shots") or 0
            share = f" ({100 * v / shots:.2f} %)" if shots else ""
            table.add_row("truncated", f"{v:,} shots{share}")
        elif isinstance(v, int) and not isinstance(v, bool):
            table.add_row(k, f"{v:,}")
        else:
            table.add_row(k, str(v))
    _console().print(table)


def run_shotmap(
    position,
    variant,
    placements,
    angles,
    speeds,
    skill,
    n,
    seed,
    chunk,
    value,
    out,
    options=None,
    hand_set=None,
):
    """Compute, write and draw a shot map; a summary dict."""
    from carromlab.input_schema import check_cells, check_run

    cells = len(placements) * len(angles) * len(speeds)
    check_cells(cells, "shotmap")
    check_run(cells, n, "shotmap")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from carromlab.analysis import shot_map
    from carromlab.analysis.results import write_parquet
    from carromlab.analysis.shotmap import (
        PARTIAL,
        ShotMapInterrupted,
        drop_partial,
        map_summary,
        targets_from_cells,
    )
    from carromlab.plot.shotmap import draw_shotmap, draw_shotmap_on_board, draw_target_map
    from carromlab.registry import get_game

    game = get_game(variant)
    options = _shot_options(game, [], "shotmap") if options is None else options
    pos = _shot_position(position, variant, options)
    ids = tuple(p.id for p in pos.pieces if p.kind != "striker")
    partial = out / PARTIAL  # the finished cells, kept until the map is written

    def resuming(kept: int, total: int) -> None:
        typer.echo(f"resuming: {kept:,} of {total:,} cells kept in {partial}", err=True)

    try:
        df = shot_map(
            pos,
            placements,
            angles,
            speeds,
            skill=skill,
            n=n,
            seed=seed,
            chunk=chunk,
            progress=True,
            pieces=ids,
            per_pocket=True,
            turn=_shot_turn(game, options),
            hand_set=hand_set,
            store=partial,
            on_resume=resuming,
        )
    except ShotMapInterrupted as stop:
        typer.echo(
            f"interrupted: {stop.kept:,} of {stop.total:,} cells kept in {stop.folder}; "
            "rerun the same command to resume",
            err=True,
        )
        raise typer.Exit(INTERRUPTED_EXIT) from None
    if value not in df.columns:  # where the rules were not found before the run
        _refuse_value(
            value, [c for c in df.columns if not c.endswith(("_lo", "_hi"))], "shotmap", variant
        )
    out.mkdir(parents=True, exist_ok=True)
    write_parquet(df, out / "shotmap.parquet")
    drop_partial(partial)
    import warnings

    from carromlab.analysis.variants import analysis_for
    from carromlab.plot.shotmap import default_norm

    # both panels on one colour scale, fitted to the map (titles: position, skill, n, value)
    who = dict(value=value, skill=skill, n=n)
    fig, axes = plt.subplots(1, 2, figsize=(13, 6.5))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if len(set(df["placement"])) == 1 and len(speeds) > 1:
            # one origin (a Carrooka striker where it lies): angle x speed, and the fan of
            # aims at the best cell's speed
            norm = default_norm(value, df[value])
            draw_shotmap(df, x="angle", y="speed", ax=axes[0], norm=norm, **who)
            what = "every aim at the best speed"
            draw_shotmap_on_board(df, pos, ax=axes[1], ray_length=0.2, norm=norm, what=what, **who)
        else:
            speed = speeds[0]
            sub = df[df["speed"] == speed]
            norm = default_norm(value, sub[value])
            draw_shotmap(sub, ax=axes[0], norm=norm, **who)
            if "x0" in df.columns:  # placements are angles on a circle, not baseline x
                axes[0].set_xlabel("placement: the origin's angle on the circle (deg)")
            # on the board: the best aim from each placement (every cell hides the board)
            per_spot = sub.dropna(subset=[value])
            per_spot = per_spot.loc[per_spot.groupby("placement")[value].idxmax()]
            what = "the best aim from each placement"
            draw_shotmap_on_board(
                per_spot, pos, ax=axes[1], ray_length=0.35, norm=norm, what=what, **who
            )
    for w in caught:  # the best cell on the grid's edge: one line, as the other warnings
        typer.echo(f"warning: {w.message}", err=True)
    fig.savefig(out / "shotmap.png", dpi=120, bbox_inches="tight")
    plt.close(fig)
    targets = targets_from_cells(df, pos, ids)
    write_parquet(targets, out / "targets.parquet")
    # only what the shooter may pocket (the rules say which), the best pocket of each
    legal = analysis_for(variant).rules.legal_pots(pos, _shot_turn(game, options))
    fig, ax = plt.subplots(figsize=(7, 6.5))
    draw_target_map(targets, pos, ax=ax, legal=legal, min_p=0.05, skill=skill, n=n)
    fig.savefig(out / "targets.png", dpi=120, bbox_inches="tight")
    plt.close(fig)
    return map_summary(df, out, value, ("placement", "angle", "speed"))


@app.command(context_settings=GAME_OPTIONS, epilog=_game_option_help("shot_options"))
def best(
    ctx: typer.Context,
    position: str = typer.Option(None, help="Standard position name or JSON file."),
    variant: str = typer.Option("icf", help=VARIANT_HELP),
    skill: str = typer.Option("club", help="novice, club, expert, pro or exact."),
    value: str = typer.Option(
        "points", help="What to maximise: points, p_continues, p_capture:ID."
    ),
    speeds: str = typer.Option(
        "1.0,2.0,3.5",
        help="Speeds of the search's own grid (m/s); the default shot map's grid is searched too.",
    ),
    n_grid: int = typer.Option(32, help="Shots per grid cell."),
    iterations: int = typer.Option(3, help="Cross-entropy iterations."),
    population: int = typer.Option(48, help="Candidates per iteration."),
    n_cem: int = typer.Option(64, help="Shots per candidate."),
    top: int = typer.Option(5, help="How many best shots to report."),
    n: int = typer.Option(2000, help="Fresh shots for each reported shot."),
    seed: int = typer.Option(0, help="Root PRNG seed."),
    chunk: int = typer.Option(4096, help="Shots per kernel batch."),
    hand_set: float = typer.Option(
        None,
        "--hand-set",
        help="Metres the pieces of an opening set by hand move per shot (default 0.0003; 0: "
        "off; docs/physics.md).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    out: Path = typer.Option(None, help="Folder for best.parquet."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Search the best shots under noise (a grid that covers the default shot map's, its best
    cells screened, cross-entropy in a narrow window around each, the finalists on fresh
    shots), top-k with intervals: never worse than the default map's best cell, within
    intervals (docs/analysis.md). Each row's p_truncated is its shots' fraction that hit the
    event cap; a last line counts them, and the search's.
    Each game's own options follow the shared ones (see below)."""
    if out is not None:
        check_out_path(out)
    _check(
        speeds=speeds,
        n_grid=n_grid,
        iterations=iterations,
        population=population,
        n_cem=n_cem,
        top=top,
        n=n,
        seed=seed,
        chunk=chunk,
        hand_set=hand_set,
    )
    _, _, pos, turn = _prepare_shot(ctx, "best", position, variant, skill, value)
    from carromlab.analysis import best_shots
    from carromlab.analysis.truncation import search_truncation, truncation
    from carromlab.analysis.variants import analysis_for

    df = best_shots(
        pos,
        turn=turn,
        skill=skill,
        value=value,
        speeds=_grid(speeds, "speeds"),
        n_grid=n_grid,
        iterations=iterations,
        population=population,
        n_cem=n_cem,
        top_k=top,
        n_final=n,
        seed=seed,
        chunk=chunk,
        progress=not as_json,
        hand_set=hand_set,
    )
    if out is not None:
        from carromlab.analysis.results import write_parquet

        write_parquet(df, out / "best.parquet")
    cols = ["rank", "placement", "angle", "speed", value, f"{value}_lo", f"{value}_hi", "n"]
    cols += ["p_truncated"] if value != "p_truncated" else []
    reported, search = truncation(df), search_truncation(df)
    if as_json:
        rows = json.loads(df[cols].to_json(orient="records"))
        cut = {"reported": reported.as_dict(), "search": search.as_dict()}
        doc = {"config": df.attrs["config"], "rows": rows, "truncated": cut}
        typer.echo(json.dumps(doc, default=str))
    else:
        va = analysis_for(variant)
        _print_best(df[cols], value, va, pos)
        typer.echo(f"truncated: {reported.counts()} reported; {search.counts()} in the search")
    _report_truncation(reported + search, strict)


def _print_best(df, value: str, va, pos) -> None:
    """best's shots as a table with units and sensible rounding: the placement in metres
    (to the mm) on a line or in degrees on a circle (or, where the shooter lies on the
    board, its spot in the title), the aim in degrees, the speed in m/s, the value with its
    95 % interval (a probability in per cent)."""
    from rich import box
    from rich.table import Table

    spot = _fixed_origin(va, pos)
    line = _line_origin(va)
    title = f"best {value} in {pos.name or pos.variant}"
    if spot is not None:
        title += f", from the {va.shooter_kind} at ({spot[0]:.3f}, {spot[1]:.3f}) m"
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    heads = ["#"]
    heads += [] if spot is not None else ["placement\n(m)" if line else "placement\n(deg)"]
    heads += ["angle\n(deg)", "speed\n(m/s)", value, "95% interval", "n"]
    heads += ["p_truncated"] if "p_truncated" in df.columns else []
    for head in heads:
        table.add_column(head, justify="right", no_wrap=True)
    for r in df.to_dict("records"):
        row = [str(int(r["rank"]))]
        if spot is None:
            row.append(f"{r['placement']:.3f}" if line else f"{r['placement']:.1f}")
        row += [f"{r['angle']:.1f}", f"{r['speed']:.2f}"]
        estimate, interval = _value_text(value, r[value], (r[f"{value}_lo"], r[f"{value}_hi"]))
        row += [estimate, interval, f"{int(r['n']):,}"]
        if "p_truncated" in df.columns:
            row.append(f"{100 * r['p_truncated']:.2f} %")
        table.add_row(*row)
    console = _console()
    console.print(title, highlight=False)
    console.print(table)


@app.command(context_settings=GAME_OPTIONS, epilog=_game_option_help("options"))
def play(
    ctx: typer.Context,
    variant: str = typer.Option("icf", help=VARIANT_HELP),
    games: int = typer.Option(1, help="Number of games."),
    policy: str = typer.Option(
        "greedy",
        help="A player of the game: greedy or random; ICF, Carroms and Carrooka also "
        "greedy-break (the searched break); ICF also greedy-race (Greedy racing twice the "
        "candidates), lookahead and lookahead-race (the lookahead on that racing search).",
    ),
    skill: str = typer.Option("club", help="Execution skill of every seat."),
    seed: int = typer.Option(0, help="Root PRNG seed."),
    slots: int = typer.Option(256, help="Games in play at once (one kernel batch)."),
    out: Path = typer.Option(Path("out/play"), help="Folder for games.parquet (and boards)."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Play whole games between the game's players; one row per game (and, for carrom, one
    per board). Each game's own rule options follow the shared ones (see below).

    Each finished game is one transaction in OUT/log.sqlite (its board rows and its game row
    together), exported to OUT/games.csv and OUT/boards.csv as it goes, so a killed run
    resumes where it stopped when rerun with the same options; at the end the tables are
    written as parquet with the run's configuration. The last line counts the strokes that
    hit the event cap (truncated).
    """
    check_out_path(out)
    _check(games=games, seed=seed, slots=slots)
    game = _variant_game(variant)  # the names first, before JAX loads
    options = _play_options(game, variant, ctx.args)
    if game.driver is None or not game.players:
        raise CarromlabError(f"whole games are not available for {variant!r}")
    if policy not in game.players:
        from carromlab.input_schema import closest

        close = closest(policy, game.players)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        raise CarromlabError(
            f"unknown policy {policy!r} for {variant}; {hint}use {' or '.join(game.players)}"
        )
    _check_skill(skill)
    config = game.make_config(variant, **options)
    chooser = game.make_player(policy, skill=skill, variant=variant)

    from carromlab.analysis.estimate import run_metadata
    from carromlab.play import GameLog, driver_for, play_logged
    from carromlab.play.log import kernel_meta

    meta = run_metadata(
        kind="play",
        variant=variant,
        policy=policy,
        policy_detail=repr(chooser),
        skill=skill,
        rules={k: v for k, v in vars(config).items() if k != "board"},
        seed=seed,
    )
    done = GameLog(out, kernel_meta(meta)).done()
    if len(done & set(range(games))):
        typer.echo(f"resuming: {len(done & set(range(games)))} of {games} games already in {out}")
    log, _ = play_logged(
        out,
        meta,
        [chooser] * driver_for(config).n_seats,
        config,
        skill,
        seed,
        games,
        slots=slots,
        progress=True,
    )
    boards_df, games_df = log.frames()
    games_df = games_df[games_df["game"] < games]
    if not len(boards_df):
        typer.echo(f"wrote {len(games_df)} games to {out}")
    else:
        typer.echo(f"wrote {len(boards_df)} boards and {len(games_df)} games to {out}")
    from carromlab.analysis.truncation import truncation

    cut = truncation(games_df)
    if cut is not None:
        typer.echo(f"truncated: {cut.counts()}")
    _report_truncation(cut, strict)


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
    _console().print(table)


@app.command()
def sweep(
    config: Path = typer.Argument(..., help="The sweep's TOML file (docs/sweeps.md)."),
    out: Path = typer.Option(..., help="The sweep's folder: shards, then results.parquet."),
    executor: str = typer.Option("local", help="local, processes (spawned) or dask."),
    workers: int = typer.Option(None, help="processes / dask: workers (default: cores)."),
    scheduler: str = typer.Option(
        None, help="dask: a scheduler address (tcp://host:8786); default a LocalCluster."
    ),
    job_size: int = typer.Option(16, help="Tasks at most per job (speed, not results)."),
    chunk: int = typer.Option(4096, help="Shots per kernel batch (speed, not results)."),
    device: str = typer.Option("auto", help="auto, cpu or gpu."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Run a sweep: every task of CONFIG, written to OUT task by task; a rerun computes only
    the missing tasks. Any executor, worker count, job size, chunk or device count gives the
    same table. The summary counts the table's shots and the truncated ones."""
    check_out_path(out)
    _check(workers=workers, job_size=job_size, chunk=chunk)
    _select_device(device)
    from carromlab.analysis.truncation import truncation
    from carromlab.sweeps import load_sweep, run_sweep

    sw = load_sweep(config)
    stats: dict = {}
    df = run_sweep(sw, out, executor, workers, scheduler, job_size, chunk, not as_json, stats)
    cut = truncation(df)
    summary = {
        "sweep": sw.name,
        "digest": sw.digest,
        **stats,
        "rows": len(df),
        **({"shots": cut.total, **cut.as_dict()} if cut is not None else {}),
        "results": str(out / "results.parquet"),
    }
    typer.echo(json.dumps(summary) if as_json else _lines(summary))
    _report_truncation(cut, strict)


def _select_device(device: str) -> None:
    """Point JAX at the requested platform before anything initialises it (a bad name is
    refused before JAX loads)."""
    if device not in ("auto", "cpu", "gpu"):
        raise CarromlabError(f"unknown device {device!r}; use auto, cpu or gpu")
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
    n: int = typer.Option(200, help="Noisy executions per shot-map cell."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """The main job: a shot map of the mid-game position (parquet + PNG), and every standard
    set-up drawn."""
    _check(n=n)
    check_out_path(out)
    from carromlab.analysis.truncation import summary_truncation

    summary = run_shotmap(
        "icf-midgame",
        "icf",
        _grid("-0.18:0.18:13", "placements"),
        _grid("30:150:61", "angles"),
        [2.0],
        "club",
        n,
        0,
        4096,
        "points",
        out,
    )
    _print_summary(summary, placement_unit="m", title="shot map of icf-midgame")
    from tqdm import tqdm

    from carromlab.registry import STANDARD

    out.mkdir(parents=True, exist_ok=True)
    for name, factory in tqdm(STANDARD.items(), desc="drawing set-ups", unit="position"):
        pos = factory().check()
        pos.save(out / f"{name}.json")
        _draw_to(pos, out / f"{name}.png", labels=False)
    typer.echo(f"wrote {len(STANDARD)} set-ups (PNG + JSON) and the shot map to {out}")
    _report_truncation(summary_truncation(summary), strict)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: one clear line on stderr for bad input, never a traceback.

    The command line's own errors (an option's value of the wrong type, an unknown or
    missing option) are click's; they are printed as one line naming the command, exit 2,
    instead of click's usage block. A command's exit code (``typer.Exit``) is the
    process's."""
    # click's UsageError (BadParameter's base; recent typer carries its own copy of click)
    usage_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
    try:
        code = app(args=argv, prog_name="carromlab", standalone_mode=False)
    except usage_error as e:
        where = e.ctx.command_path if e.ctx is not None else "carromlab"
        message = " ".join(e.format_message().split())
        hint = f" (see {where} --help)" if e.ctx is not None else ""
        if message:  # (no message: no command given, the help is already shown)
            typer.echo(f"error: {where}: {message}{hint}", err=True)
        sys.exit(2)
    except typer.Abort:  # Ctrl-C where no command handles it
        typer.echo("aborted", err=True)
        sys.exit(1)
    except (CarromlabError, _Refused) as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(2)
    if isinstance(code, int) and code:
        sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
