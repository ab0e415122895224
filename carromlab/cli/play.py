"""``carromlab play``: whole games between a game's players, logged to a folder that a rerun
resumes (:mod:`carromlab.play.log`)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from carromlab.cli.app import (
    GAME_OPTIONS,
    STRICT_HELP,
    VARIANT_HELP,
    app,
    check,
    check_out,
    out_path,
    report_truncation,
)
from carromlab.cli.checks import (
    check_policy,
    check_skill,
    game_option_help,
    play_options,
    variant_game,
)
from carromlab.errors import CarromlabError


@app.command(context_settings=GAME_OPTIONS, epilog=game_option_help("options"))
def play(
    ctx: typer.Context,
    variant: str = typer.Option("icf", help=VARIANT_HELP),
    games: int = typer.Option(1, help="Number of games."),
    policy: str = typer.Option(
        "greedy",
        help="A player of the game, or strongest (the top of its strength ladder): greedy "
        "or search for every game (the greedy player's candidates on best's search, 16,384 "
        "kernel shots a decision; KOOBA: its aims refined from its own map); every game but "
        "KOOBA also random; KOOBA also strong (refined aims, the early attack); ICF, Carroms "
        "and Carrooka also greedy-break (the searched break); ICF, Force Out and Circle "
        "Scores also greedy-race (racing twice the candidates); ICF also lookahead and "
        "lookahead-race (the lookahead on that racing search).",
    ),
    skill: str = typer.Option("club", help="Execution skill of every seat."),
    seed: int = typer.Option(0, help="Root PRNG seed."),
    slots: int = typer.Option(256, help="Games in play at once (one kernel batch)."),
    out: Path = typer.Option(
        Path("out/play"),
        help="Folder for games.parquet (and boards).",
        parser=out_path(),
        metavar="PATH",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print one JSON object: the files written and the results."
    ),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Play whole games between the game's players; one row per game (and, for carrom, one
    per board). Each game's own rule options follow the shared ones (see below).

    Each finished game is one transaction in OUT/log.sqlite (its board rows and its game row
    together), exported to OUT/games.csv and OUT/boards.csv as it goes, so a killed run
    resumes where it stopped when rerun with the same options; at the end the tables are
    written as parquet with the run's configuration. It ends with the results: the wins by
    seat with their 95 % Wilson intervals, each seat's points (and fouls, turns) per game,
    and what the games counted (boards, fouls, strokes, the strokes that hit the event cap:
    truncated), all read from games.parquet (and boards.parquet); --json prints them as JSON.
    """
    check_out(out)
    check(games=games, seed=seed, slots=slots)
    game = variant_game(variant)  # the names first, before JAX loads
    options = play_options(game, variant, ctx.args)
    if game.driver is None or not game.players:
        raise CarromlabError(f"whole games are not available for {variant!r}")
    policy = game.policy_name(policy)  # "strongest": the game's
    check_policy(game, variant, policy)
    check_skill(skill)
    from carromlab.play.log import read_config_file  # (imports the game loop, and JAX)

    read_config_file(out)  # a config.json cut short: refused before any work
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
    resumed = len(done & set(range(games)))
    if resumed and not as_json:
        typer.echo(f"resuming: {resumed} of {games} games already in {out}")
    driver = driver_for(config)
    log, _ = play_logged(
        out,
        meta,
        [chooser] * driver.n_seats,
        config,
        skill,
        seed,
        games,
        slots=slots,
        progress=not as_json,
    )
    boards_df, games_df = log.frames()
    games_df = games_df[games_df["game"] < games]
    if len(boards_df):
        boards_df = boards_df[boards_df["game"] < games]
    from carromlab.analysis.truncation import truncation
    from carromlab.play.summary import play_summary

    cut = truncation(games_df)
    summary = play_summary(games_df, boards_df if len(boards_df) else None)
    # partners share a side (ICF doubles): the game rows' winner and scores are the sides'
    word = "side" if driver.n_seats > summary["seats"] else "seat"
    if as_json:
        doc = {
            "out": str(out),
            "variant": variant,
            "policy": policy,
            "skill": skill,
            "resumed": resumed,
            "wrote": {"games": len(games_df), "boards": len(boards_df)},
            **(cut.as_dict() if cut is not None else {}),
            "by": word,
            **summary,
        }
        typer.echo(json.dumps(doc, default=str))
        report_truncation(cut, strict)
        return
    if not len(boards_df):
        typer.echo(f"wrote {len(games_df)} games to {out}")
    else:
        typer.echo(f"wrote {len(boards_df)} boards and {len(games_df)} games to {out}")
    if cut is not None:
        typer.echo(f"truncated: {cut.counts()}")
    from carromlab.cli.summaries import print_play_summary

    title = f"results: {variant}, {len(games_df):,} games, {policy} players ({skill})"
    print_play_summary(summary, title, word)
    report_truncation(cut, strict)
