"""``carromlab warmup [--game NAME]``: compile a game's common kernel programs ahead
(:mod:`carromlab.analysis.warmup`), with a progress bar."""

from __future__ import annotations

import time

import typer

from carromlab.cli.app import app


@app.command()
def warmup(
    game: str = typer.Option(
        None,
        "--game",
        help="A game or variant (`carromlab games`); default: every game with shot analysis.",
    ),
) -> None:
    """Compile the kernels a game's commands use, once, so that every later run starts in
    seconds (they are kept in the compilation cache: `carromlab cache info`)."""
    from carromlab.cli.checks import check_game_or_variant

    variants = check_game_or_variant(game)
    from tqdm import tqdm

    from carromlab.analysis.warmup import warmup_tasks
    from carromlab.physics.programs import programs

    tasks = warmup_tasks(variants)
    if not tasks:
        typer.echo(f"nothing to compile for {game}: its kernel is small (compiled on first use)")
        return
    t0 = time.perf_counter()
    with tqdm(total=len(tasks), desc="warmup", unit="program") as bar:
        for task in tasks:
            bar.set_postfix_str(f"{task.variant}: {task.what}")
            task.run()
            bar.update(1)
    recs = programs()
    compiled = sum(1 for r in recs if r.compiled)
    read = sum(1 for r in recs if r.from_disk and not r.compiled)
    typer.echo(
        f"{len(recs)} kernel programs ready in {time.perf_counter() - t0:.0f} s "
        f"({compiled} compiled now, {read} read from the cache)"
    )
