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
    """List the standard positions."""
    from rich.console import Console
    from rich.table import Table

    from carromlab.registry import STANDARD

    table = Table("name", "variant", "pieces", "description")
    for name, factory in STANDARD.items():
        pos = factory()
        table.add_row(name, pos.variant, str(len(pos.pieces)), pos.description)
    Console(width=160).print(table)


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
    from rich.console import Console
    from rich.table import Table

    table = Table("family", "name", "value", "tag", "source")
    for r in rows:
        table.add_row(r["family"], r["name"], f"{r['value']}", r["tag"], r["source"])
    Console(width=200).print(table)


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
    _select_device(device)
    from carromlab.bench.runner import bench as run_bench
    from carromlab.bench.runner import bench_with_peer

    scenarios = ("break", "cut", "boards", "carrooka-games")
    if scenario not in scenarios:
        raise CarromlabError(f"unknown scenario {scenario!r}; use {', '.join(scenarios)}")
    from carromlab.physics.simulate import CONTACT_MODELS

    if contacts not in CONTACT_MODELS:
        raise CarromlabError(
            f"unknown contact model {contacts!r}; use {' or '.join(CONTACT_MODELS)}"
        )
    if peer not in (None, "pymunk"):
        raise CarromlabError(f"unknown peer {peer!r}; the only peer is pymunk")
    if scenario in ("boards", "carrooka-games"):
        from carromlab.bench.games import bench_boards, bench_carrooka_games
        from carromlab.shots import skill as skill_named

        if peer or scaling or lanes is not None or cores is not None:
            raise CarromlabError(
                "--peer, --scaling, --lanes and --cores apply to the break and cut scenarios"
            )
        skill_named(skill)
        if scenario == "boards":
            from carromlab.registry import get_game

            get_game("icf").make_player(policy, skill)  # an unknown name: one line, now
            result = bench_boards(batch, skill=skill, seed=seed, progress=True, policy=policy)
        else:
            if policy != "greedy":
                raise CarromlabError("--policy applies to the boards scenario")
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
    variant's) as the game's shot options leave it (Carrooka: the striker's spot)."""
    from carromlab.analysis.variants import default_position
    from carromlab.registry import get_game

    game = get_game(variant)
    if position is None:
        position = default_position(variant)
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


PLACEMENT_HELP = (
    "Where the shot starts (the placement): the striker's x on the South baseline (m); on "
    "a circle's line the origin's angle (deg); ignored where the shooter lies on the board. "
    "Default: the game's (0 m, or -90 deg)."
)
VARIANT_HELP = "Game variant (`carromlab games` lists them)."


@app.command(context_settings=GAME_OPTIONS, epilog=_game_option_help("shot_options"))
def estimate(
    ctx: typer.Context,
    position: str = typer.Option(None, help="Standard position name or JSON file."),
    variant: str = typer.Option("icf", help=VARIANT_HELP),
    placement: float = typer.Option(None, help=PLACEMENT_HELP),
    angle: float = typer.Option(90.0, help="Aim, degrees counter-clockwise from +x."),
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
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    out: Path = typer.Option(None, help="Folder for estimate.parquet."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Estimate one shot: capture, foul and continuation probabilities and expected points.
    KOOBA: one aim point's tag probabilities (Eye, Inner Eye, KOOBA, ring, penalty, ...).
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
    game = _variant_game(variant)
    options = _shot_options(game, ctx.args, "estimate")
    if "estimate" in game.commands:
        _no_position(position, variant, "estimate")
        df = game.commands["estimate"](skill=skill, n=n, seed=seed, options=options)
        _write_and_print(df, out, as_json, strict)
        return

    from carromlab.analysis import estimate as run_estimate
    from carromlab.analysis.variants import analysis_for
    from carromlab.shots import Shot

    pos = _shot_position(position, variant, options)
    if placement is None:  # mid-line, or the point of a circle straight below the centre
        placement = game.default_placement
    xs, ys = analysis_for(pos.variant).origin(pos, [placement])
    shot = Shot(float(xs[0]), float(ys[0]), math.radians(angle), speed)
    df = run_estimate(
        pos,
        shot,
        skill=skill,
        n=n,
        seed=seed,
        chunk=chunk,
        progress=not as_json,
        turn=_shot_turn(game, options),
        hand_set=hand_set,
    )
    _write_and_print(df, out, as_json, strict)


def _write_and_print(df, out: Path | None, as_json: bool, strict: bool = False) -> None:
    from carromlab.analysis.truncation import truncation

    if out is not None:
        from carromlab.analysis.results import write_parquet

        write_parquet(df, out / "estimate.parquet")
    if as_json:
        rows = json.loads(df.to_json(orient="records"))
        typer.echo(json.dumps({"config": df.attrs["config"], "rows": rows}, default=str))
    else:
        _print_estimate(df)
    _report_truncation(truncation(df), strict)


def _print_estimate(df) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table("quantity", "estimate", "95% interval", "n")
    shown = df[
        (df["kind"] == "mean") | (df["estimate"] > 0) | ~df["quantity"].str.startswith("capture:")
    ]
    for r in shown.itertuples():
        table.add_row(r.quantity, f"{r.estimate:.4f}", f"[{r.lo:.4f}, {r.hi:.4f}]", str(r.n))
    Console(width=120).print(table)


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
    from carromlab.analysis.truncation import summary_truncation

    game = _variant_game(variant)
    options = _shot_options(game, ctx.args, "shotmap")
    if "shotmap" in game.commands:
        _no_position(position, variant, "shotmap")
        result = game.commands["shotmap"](
            skill=skill, n=n, seed=seed, value=value, out=out, options=options
        )
        typer.echo(json.dumps(result, default=str) if as_json else _lines(result))
        _report_truncation(summary_truncation(result), strict)
        return
    from carromlab.analysis.shotmap import FALLBACK_GRID

    defaults = game.default_grid or FALLBACK_GRID  # best starts from the same grid
    result = run_shotmap(
        position,
        variant,
        _grid(placements or defaults[0], "placements"),
        _grid(angles or defaults[1], "angles"),
        _grid(speeds or defaults[2], "speeds"),
        skill,
        n,
        seed,
        chunk,
        value,
        out,
        options=options,
        hand_set=hand_set,
    )
    if as_json:
        typer.echo(json.dumps(result, default=str))
    else:
        for k, v in result.items():
            typer.echo(f"{k}: {v}")
    _report_truncation(summary_truncation(result), strict)


def _lines(result: dict) -> str:
    return "\n".join(f"{k}: {v}" for k, v in result.items())


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
    if value not in df.columns:
        options = [c for c in df.columns if not c.endswith(("_lo", "_hi"))]
        raise CarromlabError(
            f"no column {value!r} in the shot map; choose from {', '.join(options)}"
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
    from carromlab.analysis import best_shots
    from carromlab.analysis.truncation import search_truncation, truncation

    game = _variant_game(variant)
    options = _shot_options(game, ctx.args, "best")
    if game.analysis is None:
        raise CarromlabError(f"best searches shots of games with shot analysis, not {variant!r}")
    pos = _shot_position(position, variant, options)
    df = best_shots(
        pos,
        turn=_shot_turn(game, options),
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
        typer.echo(df[cols].to_string(index=False))
        typer.echo(f"truncated: {reported.counts()} reported; {search.counts()} in the search")
    _report_truncation(reported + search, strict)


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
    from carromlab.shots import skill as skill_named

    _check(games=games, seed=seed, slots=slots)
    game = _variant_game(variant)
    options = _play_options(game, variant, ctx.args)
    if game.driver is None or not game.players:
        raise CarromlabError(f"whole games are not available for {variant!r}")
    if policy not in game.players:
        raise CarromlabError(
            f"unknown policy {policy!r} for {variant}; use {' or '.join(game.players)}"
        )
    skill_named(skill)  # one clear line for an unknown skill
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
    from rich.console import Console
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
    Console(width=160).print(table)


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
    """Point JAX at the requested platform before anything initialises it."""
    import jax

    if device == "auto":
        return
    if device not in ("cpu", "gpu"):
        raise CarromlabError(f"unknown device {device!r}; use auto, cpu or gpu")
    import os

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
    typer.echo(f"shot map: {summary}")
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
    """Console entry point: one clear line on stderr for bad input, never a traceback."""
    try:
        app(args=argv)  # typer reports usage errors itself and exits
    except CarromlabError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
