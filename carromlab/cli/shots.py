"""The shot commands: ``estimate`` (one shot), ``shotmap`` (a grid of shots, written and
drawn by :func:`run_shotmap`), ``best`` (the best shots under noise) and ``demo`` (the
mid-game shot map and every standard set-up drawn). Each builds its typed options
(:mod:`carromlab.run_options`: their defaults are the signatures', their numbers checked
when made), checks the names before JAX loads (:mod:`carromlab.cli.checks`), has the library
work out the shot's position, turn, shot or grid (:mod:`carromlab.shot_setup`: the
placements and aims once the game's shot origins are known), runs the report and prints."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from carromlab import interrupt
from carromlab.cli.app import (
    GAME_OPTIONS,
    INTERRUPTED_EXIT,
    STRICT_HELP,
    VARIANT_HELP,
    app,
    check_out,
    out_path,
    report_truncation,
    unit_option,
    warn,
)
from carromlab.cli.checks import game_option_help, prepare_shot, refuse_value
from carromlab.cli.positions import draw_to
from carromlab.cli.tables import (
    map_size_line,
    print_best,
    print_estimate,
    print_summary,
    with_origin,
)
from carromlab.input_checks import line_origin
from carromlab.run_options import BestOptions, EstimateOptions, ShotMapOptions

PLACEMENT_HELP = (
    "Where the shot starts (the placement): on a line board (ICF, Carroms) the shooter's x on "
    "its line in metres (or 5cm, 50mm); on a circle (Carrooka's break line, the crokinole "
    "side) the origin's angle in degrees (or -1.57rad); ignored where the shooter lies on "
    "the board. Default: the game's (0 m, or -90 deg)."
)
ANGLE_HELP = (
    "Aim, counter-clockwise from +x: degrees, or with a unit, 65.9deg or 1.15rad. On a line "
    "board (ICF, Carroms) it must point forward, between 0 and 180 deg."
)
HAND_SET_HELP = (
    "Metres the pieces of an opening set by hand move per shot (default 0.0003; 0: off; "
    "docs/physics.md)."
)
POSITION_HELP = "Standard position name or JSON file."
SKILL_HELP = "novice, club, expert, pro or exact."
#: ``demo``'s shot map: the mid-game position, on its game's default grid.
DEMO_POSITION, DEMO_VARIANT = "icf-midgame", "icf"


def _grid_help(axis: int, what: str) -> str:
    """An axis' help, with ICF's default grid read from the registry."""
    from carromlab.registry import get_game

    spec = (get_game("icf").default_grid or ("", "", ""))[axis]
    return f"{what}; default the game's grid (icf {spec})."


@app.command(context_settings=GAME_OPTIONS, epilog=game_option_help("shot_options"))
def estimate(
    ctx: typer.Context,
    position: str = typer.Option(EstimateOptions.position, help=POSITION_HELP),
    variant: str = typer.Option(EstimateOptions.variant, help=VARIANT_HELP),
    placement: float = typer.Option(
        EstimateOptions.placement,
        help=PLACEMENT_HELP,
        parser=unit_option("placement"),
        metavar="PLACEMENT",
    ),
    angle: float = typer.Option(
        EstimateOptions.angle, help=ANGLE_HELP, parser=unit_option("angle"), metavar="ANGLE"
    ),
    speed: float = typer.Option(
        EstimateOptions.speed, help="Striker speed (m/s).", parser=unit_option("speed")
    ),
    skill: str = typer.Option(EstimateOptions.skill, help=SKILL_HELP),
    n: int = typer.Option(EstimateOptions.n, help="Noisy executions."),
    seed: int = typer.Option(EstimateOptions.seed, help="Root PRNG seed."),
    chunk: int = typer.Option(
        EstimateOptions.chunk, help="Shots per kernel batch (results do not depend on it)."
    ),
    hand_set: float = typer.Option(
        EstimateOptions.hand_set, "--hand-set", help=HAND_SET_HELP, parser=unit_option("hand_set")
    ),
    show_all: bool = typer.Option(
        False, "--all", help="Print every quantity (default: pot rate, foul risk, points)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    out: Path = typer.Option(
        None, help="Folder for estimate.parquet.", parser=out_path(), metavar="PATH"
    ),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Estimate one shot: the pot rate, foul risk and points first, each with its interval
    (--all: every capture, foul and rule quantity). KOOBA: one aim point's tag probabilities
    (Eye, Inner Eye, KOOBA, ring, penalty, ...).
    Each game's own options follow the shared ones (see below)."""
    options = EstimateOptions(  # its numbers checked
        variant=variant,
        position=position,
        skill=skill,
        n=n,
        seed=seed,
        chunk=chunk,
        hand_set=hand_set,
        placement=placement,
        angle=angle,
        speed=speed,
    )
    if out is not None:
        check_out(out)
    setup = prepare_shot(ctx.args, "estimate", options)
    from carromlab.reports import EstimateReport

    report = EstimateReport.from_options(options, setup=setup, warn=warn, progress=not as_json)
    write_and_print(report, out, as_json, strict, show_all)


def write_and_print(
    report, out: Path | None, as_json: bool, strict: bool = False, show_all: bool = False
) -> None:
    """An estimate (an :class:`~carromlab.reports.EstimateReport`): estimate.parquet in
    ``out``, then JSON or the table, then its truncated shots."""
    if out is not None:
        report.save(out, figures=False)
    if as_json:
        rows = json.loads(report.table.to_json(orient="records"))
        typer.echo(json.dumps({"config": report.config, "rows": rows}, default=str))
    else:
        print_estimate(report, show_all)
    report_truncation(report.truncation, strict)


@app.command(context_settings=GAME_OPTIONS, epilog=game_option_help("shot_options"))
def shotmap(
    ctx: typer.Context,
    position: str = typer.Option(ShotMapOptions.position, help=POSITION_HELP),
    variant: str = typer.Option(ShotMapOptions.variant, help=VARIANT_HELP),
    placements: str = typer.Option(
        ShotMapOptions.placements,
        help=_grid_help(0, "START:STOP:COUNT or a list of placements (see estimate --placement)"),
    ),
    angles: str = typer.Option(
        ShotMapOptions.angles, help=_grid_help(1, "START:STOP:COUNT or a list (degrees)")
    ),
    speeds: str = typer.Option(
        ShotMapOptions.speeds, help=_grid_help(2, "START:STOP:COUNT or a list (m/s)")
    ),
    skill: str = typer.Option(ShotMapOptions.skill, help=SKILL_HELP),
    n: int = typer.Option(ShotMapOptions.n, help="Noisy executions per cell."),
    seed: int = typer.Option(ShotMapOptions.seed, help="Root PRNG seed."),
    chunk: int = typer.Option(ShotMapOptions.chunk, help="Shots per kernel batch."),
    value: str = typer.Option(
        ShotMapOptions.value, help="Column to draw (points, p_continues, p_foul, ...)."
    ),
    out: Path = typer.Option(
        Path("out/shotmap"),
        help="Folder for shotmap.parquet and PNGs.",
        parser=out_path(),
        metavar="PATH",
    ),
    hand_set: float = typer.Option(
        ShotMapOptions.hand_set, "--hand-set", help=HAND_SET_HELP, parser=unit_option("hand_set")
    ),
    story: bool = typer.Option(
        ShotMapOptions.story,
        "--story/--no-story",
        help="Tell the best cell's story (what it does, its typical path on the board "
        "panel): at least 2,000 more executions of that cell and one recorded replay.",
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
    check_out(out)
    options = ShotMapOptions(  # its numbers checked
        variant=variant,
        position=position,
        skill=skill,
        n=n,
        seed=seed,
        chunk=chunk,
        hand_set=hand_set,
        placements=placements,
        angles=angles,
        speeds=speeds,
        value=value,
        story=story,
    )
    setup = prepare_shot(ctx.args, "shotmap", options)
    if setup.own_command:  # the game's own command (KOOBA)
        result = setup.game.commands["shotmap"](
            skill=skill, n=n, seed=seed, value=value, out=out, options=dict(setup.options)
        )
        return print_map(result, as_json, strict)
    from carromlab.analysis.variants import analysis_for
    from carromlab.shot_setup import map_grid

    grid = map_grid(options, setup, warn)
    size = map_size_line(grid.cells, n)
    if size:
        warn(size)
    result = run_shotmap(setup, options, *grid.axes(), out)
    va = analysis_for(variant)
    result = with_origin(result, va, setup.position)  # (the report's summary has it already)
    print_map(result, as_json, strict, "m" if line_origin(va) else "deg")


def print_map(summary: dict, as_json: bool, strict: bool, placement_unit: str | None = None):
    """A map's summary printed (JSON, or a short table), then its truncated shots."""
    from carromlab.analysis.truncation import summary_truncation

    print_summary(summary, as_json, placement_unit)
    report_truncation(summary_truncation(summary), strict)


def run_shotmap(setup, options, placements, angles, speeds, out: Path) -> dict:
    """Compute, write and draw the shot map of ``options`` (a
    :class:`~carromlab.run_options.ShotMapOptions`) over the grid ``placements x angles x
    speeds`` in ``setup``'s position and turn (a
    :class:`~carromlab.shot_setup.ShotSetup`): a :class:`~carromlab.reports.ShotMapReport`,
    its files in ``out``, the warnings its figure raised on stderr; its summary. The
    finished cells are kept in OUT/shotmap.partial/ until the map is written: after Ctrl-C
    the same command resumes."""
    import matplotlib

    matplotlib.use("Agg")
    from carromlab.analysis.shotmap import PARTIAL, ShotMapInterrupted
    from carromlab.reports import ShotMapReport

    partial = out / PARTIAL  # the finished cells, kept until the map is written

    def resuming(kept: int, total: int) -> None:
        typer.echo(f"resuming: {kept:,} of {total:,} cells kept in {partial}", err=True)

    # the line a Ctrl-C that the run does not see in time gets (carromlab/interrupt.py)
    interrupt.note(
        f"interrupted: finished cells are kept in {partial}; rerun the same command to resume"
    )
    try:
        report = ShotMapReport.from_options(
            options,
            setup=setup,
            grid=(placements, angles, speeds),
            store=partial,
            on_resume=resuming,
            progress=True,
        )
    except ShotMapInterrupted as stop:
        interrupt.say(
            f"interrupted: {stop.kept:,} of {stop.total:,} cells kept in {stop.folder}; "
            "rerun the same command to resume"
        )
        raise typer.Exit(INTERRUPTED_EXIT) from None
    if options.value not in report.table.columns:  # where the rules were not found before
        refuse_value(options.value, report.values(), "shotmap", options.variant)
    report.save(out)
    for line in report.warnings:  # the best cell on the grid's edge: one line each
        warn(f"warning: {line}")
    return report.summary()


@app.command(context_settings=GAME_OPTIONS, epilog=game_option_help("shot_options"))
def best(
    ctx: typer.Context,
    position: str = typer.Option(BestOptions.position, help=POSITION_HELP),
    variant: str = typer.Option(BestOptions.variant, help=VARIANT_HELP),
    skill: str = typer.Option(BestOptions.skill, help=SKILL_HELP),
    value: str = typer.Option(
        BestOptions.value, help="What to maximise: points, p_continues, p_capture:ID."
    ),
    speeds: str = typer.Option(
        BestOptions.speeds,
        help="Speeds of the search's own grid (m/s); the default shot map's grid is searched too.",
    ),
    n_grid: int = typer.Option(BestOptions.n_grid, help="Shots per grid cell."),
    iterations: int = typer.Option(BestOptions.iterations, help="Cross-entropy iterations."),
    population: int = typer.Option(BestOptions.population, help="Candidates per iteration."),
    n_cem: int = typer.Option(BestOptions.n_cem, help="Shots per candidate."),
    top: int = typer.Option(BestOptions.top, help="How many best shots to report."),
    n: int = typer.Option(BestOptions.n, help="Fresh shots for each reported shot."),
    seed: int = typer.Option(BestOptions.seed, help="Root PRNG seed."),
    chunk: int = typer.Option(BestOptions.chunk, help="Shots per kernel batch."),
    hand_set: float = typer.Option(
        BestOptions.hand_set, "--hand-set", help=HAND_SET_HELP, parser=unit_option("hand_set")
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    out: Path = typer.Option(
        None, help="Folder for best.parquet.", parser=out_path(), metavar="PATH"
    ),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Search the best shots under noise (a grid that covers the default shot map's, its best
    cells screened, cross-entropy in a narrow window around each, the finalists on fresh
    shots), top-k with intervals: never worse than the default map's best cell, within
    intervals (docs/analysis.md). Each row's p_truncated is its shots' fraction that hit the
    event cap; a last line counts them, and the search's.
    Each game's own options follow the shared ones (see below)."""
    if out is not None:
        check_out(out)
    options = BestOptions(  # its numbers checked
        variant=variant,
        position=position,
        skill=skill,
        n=n,
        seed=seed,
        chunk=chunk,
        hand_set=hand_set,
        value=value,
        speeds=speeds,
        n_grid=n_grid,
        iterations=iterations,
        population=population,
        n_cem=n_cem,
        top=top,
    )
    setup = prepare_shot(ctx.args, "best", options)
    from carromlab.analysis.variants import analysis_for
    from carromlab.reports import BestShotsReport

    report = BestShotsReport.from_options(
        options,
        setup=setup,
        progress=not as_json,
        story_paths=False,  # the stories' sentences; no figure is drawn, so no path replayed
    )
    if out is not None:
        report.save(out, figures=False)
    reported, search = report.truncations
    if as_json:
        summary = report.summary()
        doc = {"config": report.config, "rows": summary["rows"], "truncated": summary["truncated"]}
        typer.echo(json.dumps(doc, default=str))
    else:
        print_best(report.rows, value, analysis_for(variant), setup.position, report.turn_text)
        typer.echo(f"truncated: {reported.counts()} reported; {search.counts()} in the search")
    report_truncation(report.truncation, strict)


@app.command()
def demo(
    out: Path = typer.Option(
        Path("out/demo"),
        help="Folder for the pictures and positions.",
        parser=out_path(),
        metavar="PATH",
    ),
    n: int = typer.Option(ShotMapOptions.n, help="Noisy executions per shot-map cell."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """The main job: a shot map of the mid-game position (parquet + PNG), and every standard
    set-up drawn."""
    options = ShotMapOptions(position=DEMO_POSITION, variant=DEMO_VARIANT, n=n)  # n checked
    check_out(out)
    import time

    from carromlab.compile_cache import cache_info

    t0 = time.perf_counter()
    if not cache_info()["entries"]:
        typer.echo(
            "first run on this machine: the physics kernel is compiled first (about half a "
            "minute on 2 cores, once; it is kept in the compilation cache, and later runs start "
            "in seconds; `carromlab cache info`)",
            err=True,
        )
    from carromlab.analysis.truncation import summary_truncation
    from carromlab.shot_setup import map_grid, setup_shot

    setup = setup_shot("shotmap", DEMO_VARIANT, DEMO_POSITION)
    grid = map_grid(options, setup, warn)  # the game's default grid
    summary = run_shotmap(setup, options, *grid.axes(), out)
    print_summary(summary, placement_unit="m", title=f"shot map of {DEMO_POSITION}")
    from tqdm import tqdm

    from carromlab.registry import STANDARD

    out.mkdir(parents=True, exist_ok=True)
    for name, factory in tqdm(STANDARD.items(), desc="drawing set-ups", unit="position"):
        pos = factory().check()
        pos.save(out / f"{name}.json")
        draw_to(pos, out / f"{name}.png", labels=False)
    typer.echo(f"wrote {len(STANDARD)} set-ups (PNG + JSON) and the shot map to {out}")
    from carromlab.physics.programs import compile_totals

    typer.echo(
        f"done in {time.perf_counter() - t0:.0f} s, of which compiling (or reading back) kernels "
        f"{compile_totals()['compile_seconds']:.0f} s (kept for later runs)",
        err=True,
    )
    report_truncation(summary_truncation(summary), strict)
