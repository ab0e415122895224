"""The shot commands: ``estimate`` (one shot), ``shotmap`` (a grid of shots, written and
drawn by :func:`run_shotmap`), ``best`` (the best shots under noise) and ``demo`` (the
mid-game shot map and every standard set-up drawn). Each parses and checks everything it can
before JAX loads (:mod:`carromlab.cli.checks`), the placements and aims once the game's shot
origins are known (:mod:`carromlab.input_checks`), then calls the library and prints."""

from __future__ import annotations

import json
from pathlib import Path

import typer

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
    if pos is None:  # the game's own command (KOOBA)
        df = game.commands["estimate"](skill=skill, n=n, seed=seed, options=options)
        write_and_print(df, out, as_json, strict, show_all)
        return
    from carromlab.input_schema import radians_warning

    written = getattr(angle, "text", repr(angle))
    if getattr(angle, "plain", True):
        warning = radians_warning(written, "angle", [angle])
        if warning:
            warn(warning)

    from carromlab.analysis import estimate as run_estimate
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
    write_and_print(df, out, as_json, strict, show_all)


def write_and_print(
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
        print_estimate(df, show_all)
    report_truncation(truncation(df), strict)


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
    )
    result = with_origin(result, va, pos)
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
    options = shot_options(game, [], "shotmap") if options is None else options
    pos = shot_position(position, variant, options)
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
            turn=shot_turn(game, options),
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
        refuse_value(
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
    legal = analysis_for(variant).rules.legal_pots(pos, shot_turn(game, options))
    fig, ax = plt.subplots(figsize=(7, 6.5))
    draw_target_map(targets, pos, ax=ax, legal=legal, min_p=0.05, skill=skill, n=n)
    fig.savefig(out / "targets.png", dpi=120, bbox_inches="tight")
    plt.close(fig)
    return map_summary(df, out, value, ("placement", "angle", "speed"))


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
    from carromlab.analysis import best_shots
    from carromlab.analysis.truncation import search_truncation, truncation
    from carromlab.analysis.variants import analysis_for

    df = best_shots(
        pos,
        turn=turn,
        skill=skill,
        value=value,
        speeds=grid(speeds, "speeds"),
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
        print_best(df[cols], value, analysis_for(variant), pos)
        typer.echo(f"truncated: {reported.counts()} reported; {search.counts()} in the search")
    report_truncation(reported + search, strict)


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
    report_truncation(summary_truncation(summary), strict)
