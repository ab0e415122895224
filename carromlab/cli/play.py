"""``carromlab play``: whole games between a game's players, logged to a folder that a rerun
resumes: a thin wrapper over :class:`~carromlab.reports.PlayReport` (the options checked
before JAX loads, the report run, its lines and tables printed)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from carromlab.cli.app import (
    GAME_OPTIONS,
    STRICT_HELP,
    VARIANT_HELP,
    app,
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
from carromlab.cli.policy_help import policy_help
from carromlab.errors import CarromlabError
from carromlab.run_options import PlayOptions

#: ``--policy``'s help: the players of every game that plays whole games, from the registry
POLICY_HELP = policy_help(
    "A player of the game, or strongest.",
    lambda g: bool(g.players) and g.driver is not None,
)


@app.command(context_settings=GAME_OPTIONS, epilog=game_option_help("options"))
def play(
    ctx: typer.Context,
    variant: str = typer.Option(PlayOptions.variant, help=VARIANT_HELP),
    games: int = typer.Option(PlayOptions.games, help="Number of games."),
    policy: str = typer.Option(PlayOptions.policy, help=POLICY_HELP),
    skill: str = typer.Option(PlayOptions.skill, help="Execution skill of every seat."),
    seed: int = typer.Option(PlayOptions.seed, help="Root PRNG seed."),
    slots: int = typer.Option(PlayOptions.slots, help="Games in play at once (one kernel batch)."),
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
    options = PlayOptions(  # its numbers checked
        variant=variant, games=games, policy=policy, skill=skill, seed=seed, slots=slots
    )
    game = variant_game(variant)  # the names first, before JAX loads
    rules = play_options(game, variant, ctx.args)
    if game.driver is None or not game.players:
        raise CarromlabError(f"whole games are not available for {variant!r}")
    check_policy(game, variant, game.policy_name(policy))  # "strongest": the game's
    check_skill(skill)
    from carromlab.reports import PlayReport

    def resuming(kept: int, total: int) -> None:
        typer.echo(f"resuming: {kept} of {total} games already in {out}")

    report = PlayReport.run(
        options,
        out,
        game_options=rules,
        progress=not as_json,
        on_resume=None if as_json else resuming,
    )
    cut = report.truncation
    if as_json:
        typer.echo(json.dumps(report.summary(), default=str))
        report_truncation(cut, strict)
        return
    for line in report.lines():
        typer.echo(line)
    from carromlab.cli.summaries import print_play_summary

    print_play_summary(report.results(), report.title, report.seat_word)
    report_truncation(cut, strict)
