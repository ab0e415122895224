"""``carromlab train --game NAME --out DIR``: a game's learned screen from self-play
(:mod:`carromlab.analysis.learned`)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from carromlab.cli.app import app, check_out, out_path


@app.command()
def train(
    game: str = typer.Option(
        ..., "--game", help="A game with a learned player (icf, carroms, carrooka)."
    ),
    out: Path = typer.Option(
        ...,
        "--out",
        help="Folder: data/, screen.npz, screen.json.",
        parser=out_path(),
        metavar="PATH",
    ),
    positions: int = typer.Option(3000, help="Decisions of self-play to record (about)."),
    seed: int = typer.Option(0, help="Seed of the self-play and the training."),
    shots: int = typer.Option(4096, help="The self-play search's kernel shots a decision."),
    steps: int = typer.Option(
        10000, help="Training steps (Adam; 1,024 labels a step, 32 from each of 32 decisions)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the provenance as JSON."),
) -> None:
    """Record the search's values in self-play at several skills (resumable: run it again
    to go on), fit the screen's network, and write its weights with their provenance and
    held-out figures (rank correlation, the search's choice in the top 8)."""
    from carromlab.cli.checks import check_learned_game
    from carromlab.input_schema import check_flags

    name = check_learned_game(game)
    check_flags(positions=positions, seed=seed, steps=steps, shots=shots)
    check_out(out)
    from carromlab.play.training import train_screen

    prov = train_screen(name, out, positions, seed, shots, steps)
    if as_json:
        typer.echo(json.dumps(prov, default=str))
        return
    v = prov["validation"]
    typer.echo(
        f"{name}: {prov['data']['decisions']} decisions, {prov['data']['labels']} labels; "
        f"held out {v['validation_decisions']} decisions: rank correlation "
        f"{v['rank_correlation']:.3f}, value error {v['value_mae']:.3f}, the search's "
        f"choice in the top 8 {v['chosen_in_top_8']:.0%}; weights in {out / 'screen.npz'}"
    )
