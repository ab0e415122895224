"""The shot commands: ``estimate`` (one shot), ``shotmap`` (a grid of shots, written and
drawn by :func:`run_shotmap`), ``best`` (the best shots under noise) and ``demo`` (the
mid-game shot map and every standard set-up drawn). Each parses and checks everything it can
before JAX loads (:mod:`carromlab.cli.checks`), the placements and aims once the game's shot
origins are known (:mod:`carromlab.input_checks`), then calls the library and prints."""

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
    check,
    check_out,
    out_path,
    report_truncation,
    unit_option,
    warn,
)
from carromlab.cli.checks import (
    game_option_help,
    prepare_shot,
    refuse_value,
    shot_options,
    shot_position,
    shot_turn,
)
from carromlab.cli.positions import draw_to
from carromlab.cli.tables import (
    map_size_line,
    print_best,
    print_estimate,
    print_summary,
    with_origin,
)
from carromlab.input_checks import check_forward, check_placements, line_origin

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


def grid(spec: str, what: str) -> list[float]:
    """'A:B:K' (K values from A to B) or 'a,b,c'."""
    from carromlab.registry import parse_grid

    return parse_grid(spec, what)


@app.command(context_settings=GAME_OPTIONS, epilog=game_option_help("shot_options"))
def estimate(
    ctx: typer.Context,
    position: str = typer.Option(None, help="Standard position name or JSON file."),
    variant: str = typer.Option("icf", help=VARIANT_HELP),
    placement: float = typer.Option(
        None, help=PLACEMENT_HELP, parser=unit_option("placement"), metavar="PLACEMENT"
    ),
    angle: float = typer.Option(
        90.0, help=ANGLE_HELP, parser=unit_option("angle"), metavar="ANGLE"
    ),
    speed: float = typer.Option(2.0, help="Striker speed (m/s)."),
    skill: str = typer.Option("club", help="novice, club, expert, pro or exact."),
    n: int = typer.Option(10_000, help="Noisy executions."),
    seed: int = typer.Option(0, help="Root PRNG seed."),
    chunk: int = typer.Option(4096, help="Shots per kernel batch (results do not depend on it)."),
    hand_set: float = typer.Option(None, "--hand-set", help=HAND_SET_HELP),
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
    import math

    check(
        placement=placement,
        angle=angle,
        speed=speed,
        n=n,
        seed=seed,
        chunk=chunk,
        hand_set=hand_set,
    )
    if out is not None:
        check_out(out)
    game, options, pos, turn = prepare_shot(ctx.args, "estimate", position, variant, skill)
    from carromlab.reports import EstimateReport

    if pos is None:  # the game's own command (KOOBA)
        df = game.commands["estimate"](skill=skill, n=n, seed=seed, options=options)
        write_and_print(EstimateReport.from_table(df), out, as_json, strict, show_all)
        return
    from carromlab.input_schema import radians_warning

    written = getattr(angle, "text", repr(angle))
    if getattr(angle, "plain", True):
        warning = radians_warning(written, "angle", [angle])
        if warning:
            warn(warning)

    from carromlab.analysis.variants import analysis_for
    from carromlab.shots import Shot

    va = analysis_for(pos.variant)
    if placement is not None:
        text = getattr(placement, "text", repr(placement))
        kind = getattr(placement, "kind", None)
        check_placements("placement", text, [placement], kind, va, pos, game, warn)
    else:  # mid-line, or the point of a circle straight below the centre
        placement = game.default_placement
    check_forward("angle", written, [angle], va, pos)
    xs, ys = va.origin(pos, [float(placement)])
    shot = Shot(float(xs[0]), float(ys[0]), math.radians(angle), speed)
    va.check_shot(pos, shot)  # the game's own word on the shot (ICF: law 130), now
    report = EstimateReport.run(
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
    out: Path = typer.Option(
        Path("out/shotmap"),
        help="Folder for shotmap.parquet and PNGs.",
        parser=out_path(),
        metavar="PATH",
    ),
    hand_set: float = typer.Option(None, "--hand-set", help=HAND_SET_HELP),
    story: bool = typer.Option(
        True,
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
    check(
        n=n,
        seed=seed,
        chunk=chunk,
        hand_set=hand_set,
        placements=placements,
        angles=angles,
        speeds=speeds,
    )
    game, options, pos, _ = prepare_shot(ctx.args, "shotmap", position, variant, skill, value)
    from carromlab.analysis.truncation import summary_truncation

    if pos is None:  # the game's own command (KOOBA)
        result = game.commands["shotmap"](
            skill=skill, n=n, seed=seed, value=value, out=out, options=options
        )
        print_summary(result, as_json)
        report_truncation(summary_truncation(result), strict)
        return
    from carromlab.analysis.shotmap import FALLBACK_GRID
    from carromlab.analysis.variants import analysis_for
    from carromlab.input_schema import check_cells, check_run, parse_grid_spec, radians_warning

    defaults = game.default_grid or FALLBACK_GRID  # best starts from the same grid
    spots = parse_grid_spec(placements or defaults[0], "placements")
    aims = parse_grid_spec(angles or defaults[1], "angles")
    grid_speeds = grid(speeds or defaults[2], "speeds")
    cells = len(spots.values) * len(aims.values) * len(grid_speeds)
    check_cells(cells, "shotmap")
    check_run(cells, n, "shotmap")
    va = analysis_for(variant)
    if angles is not None and aims.plain:
        warning = radians_warning(angles, "angles", aims.values)
        if warning:
            warn(warning)
    if placements is not None:
        check_placements("placements", placements, spots.values, spots.kind, va, pos, game, warn)
    check_forward("angles", aims.text, aims.values, va, pos)
    size = map_size_line(cells, n)
    if size:
        warn(size)
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
        story=story,
    )
    result = with_origin(result, va, pos)  # (the report's summary has it already)
    print_summary(result, as_json, "m" if line_origin(va) else "deg")
    report_truncation(summary_truncation(result), strict)


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
    story=True,
):
    """Compute, write and draw a shot map (a :class:`~carromlab.reports.ShotMapReport`: its
    files in ``out``, the warnings its figure raised on stderr); its summary. The finished
    cells are kept in OUT/shotmap.partial/ until the map is written: after Ctrl-C the same
    command resumes."""
    import matplotlib

    matplotlib.use("Agg")
    from carromlab.analysis.shotmap import PARTIAL, ShotMapInterrupted
    from carromlab.registry import get_game
    from carromlab.reports import ShotMapReport

    game = get_game(variant)
    options = shot_options(game, [], "shotmap") if options is None else options
    pos = shot_position(position, variant, options)
    partial = out / PARTIAL  # the finished cells, kept until the map is written

    def resuming(kept: int, total: int) -> None:
        typer.echo(f"resuming: {kept:,} of {total:,} cells kept in {partial}", err=True)

    # the line a Ctrl-C that the run does not see in time gets (carromlab/interrupt.py)
    interrupt.note(
        f"interrupted: finished cells are kept in {partial}; rerun the same command to resume"
    )
    try:
        report = ShotMapReport.run(
            pos,
            placements,
            angles,
            speeds,
            skill=skill,
            n=n,
            seed=seed,
            chunk=chunk,
            value=value,
            turn=shot_turn(game, options, pos),
            hand_set=hand_set,
            store=partial,
            on_resume=resuming,
            progress=True,
            story=story,
        )
    except ShotMapInterrupted as stop:
        interrupt.say(
            f"interrupted: {stop.kept:,} of {stop.total:,} cells kept in {stop.folder}; "
            "rerun the same command to resume"
        )
        raise typer.Exit(INTERRUPTED_EXIT) from None
    if value not in report.table.columns:  # where the rules were not found before the run
        refuse_value(value, report.values(), "shotmap", variant)
    report.save(out)
    for line in report.warnings:  # the best cell on the grid's edge: one line each
        warn(f"warning: {line}")
    return report.summary()


@app.command(context_settings=GAME_OPTIONS, epilog=game_option_help("shot_options"))
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
    hand_set: float = typer.Option(None, "--hand-set", help=HAND_SET_HELP),
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
    check(
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
    _, _, pos, turn = prepare_shot(ctx.args, "best", position, variant, skill, value)
    from carromlab.analysis.variants import analysis_for
    from carromlab.reports import BestShotsReport

    report = BestShotsReport.run(
        pos,
        turn=turn,
        skill=skill,
        value=value,
        speeds=grid(speeds, "speeds"),
        n_grid=n_grid,
        iterations=iterations,
        population=population,
        n_cem=n_cem,
        top=top,
        n=n,
        seed=seed,
        chunk=chunk,
        progress=not as_json,
        hand_set=hand_set,
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
        print_best(report.rows, value, analysis_for(variant), pos, report.turn_text)
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
    n: int = typer.Option(200, help="Noisy executions per shot-map cell."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """The main job: a shot map of the mid-game position (parquet + PNG), and every standard
    set-up drawn."""
    check(n=n)
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

    summary = run_shotmap(
        "icf-midgame",
        "icf",
        grid("-0.18:0.18:13", "placements"),
        grid("30:150:61", "angles"),
        [2.0],
        "club",
        n,
        0,
        4096,
        "points",
        out,
    )
    print_summary(summary, placement_unit="m", title="shot map of icf-midgame")
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
