"""``carromlab bench``: the physics kernel's speed on a benchmark scenario
(:mod:`carromlab.bench`)."""

from __future__ import annotations

import json

import typer

from carromlab.cli.app import app, check, select_device
from carromlab.cli.checks import check_skill
from carromlab.errors import CarromlabError

SCENARIOS = ("break", "cut", "boards", "carrooka-games")
#: The scenarios of whole games, which take --skill and --policy and none of the kernel's.
GAME_SCENARIOS = ("boards", "carrooka-games")


def check_bench(
    scenario, contacts, peer, scaling, lanes, cores, skill, policy, shots=None, game="icf"
) -> None:
    """Every name and combination of ``bench``'s options, before JAX loads (the device is
    checked as it is selected)."""
    from carromlab.input_schema import CONTACT_MODEL_NAMES, check_name

    check_name(scenario, SCENARIOS, "scenario")
    check_name(contacts, CONTACT_MODEL_NAMES, "contact model")
    if peer not in (None, "pymunk"):
        raise CarromlabError(f"unknown peer {peer!r}; the only peer is pymunk")
    if shots is not None and scenario != "boards":
        raise CarromlabError("--shots applies to the boards scenario (with --policy search)")
    if scenario != "boards" and (policy != "greedy" or game != "icf"):
        raise CarromlabError("--policy and --game apply to the boards scenario")
    if scenario in GAME_SCENARIOS:
        if peer or scaling or lanes is not None or cores is not None:
            raise CarromlabError(
                "--peer, --scaling, --lanes and --cores apply to the break and cut scenarios"
            )
        check_skill(skill)
        if scenario == "boards":
            from carromlab.registry import GAMES, get_game

            check_name(game, list(GAMES), "game")
            g = get_game(game)
            if g.config is None:
                raise CarromlabError(f"whole games are not available for {game!r}")
            check_name(policy, g.players, "policy")
            if shots is not None and policy != "search":
                raise CarromlabError("--shots applies to --policy search (its budget)")


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
        "greedy",
        help="boards: the player of every seat (the game's players: `carromlab games`; "
        "greedy, search, learned...).",
    ),
    game: str = typer.Option(
        "icf", "--game", help="boards: the game (ICF: single boards; the others: whole games)."
    ),
    shots: int = typer.Option(
        None, help="boards, --policy search: kernel shots a decision (default 16,384)."
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
        None, help="break, cut: lanes in flight per chunk (default 128; 0: plain batch)."
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

    ``boards``: BATCH single boards of GAME (ICF by default; whole games where a game has no
    boards) between POLICY players in every seat (greedy at club skill by default), played
    many at once, with the cost per board and per decision; the goal is 1,000 greedy boards
    in at most 10 minutes and 1,000 lookahead boards in at most 60 on a 2-core CPU.
    ``carrooka-games``: BATCH whole Carrooka games between greedy players.
    """
    check(batch=batch, chunk=chunk, seed=seed, peer_shots=peer_shots, lanes=lanes, cores=cores,
          shots=shots)  # fmt: skip
    # every name before JAX loads (the device first of all)
    check_bench(scenario, contacts, peer, scaling, lanes, cores, skill, policy, shots, game)
    select_device(device)
    if scenario in GAME_SCENARIOS:
        from carromlab.bench.games import bench_boards, bench_carrooka_games

        if scenario == "boards":
            result = bench_boards(
                batch, skill=skill, seed=seed, progress=True, policy=policy, shots=shots,
                game=game,
            )  # fmt: skip
        else:
            result = bench_carrooka_games(batch, skill=skill, seed=seed, progress=True)
    else:
        kw = dict(chunk=chunk, seed=seed, contacts=contacts, lanes=lanes, cores=cores)
        result = _kernel_bench(scenario, batch, peer, peer_shots, scaling, kw)
    if as_json:
        typer.echo(json.dumps(result))
    else:
        for k, v in result.items():
            typer.echo(f"{k}: {v}")


def _kernel_bench(
    scenario: str, batch: int, peer: str | None, peer_shots: int, scaling: bool, kw: dict
) -> dict:
    """A kernel scenario's figures (break, cut): against the peer where one is named, and
    with one core's rate and the speed-up over it where ``scaling``."""
    from carromlab.bench.runner import bench as run_bench
    from carromlab.bench.runner import bench_one_core, bench_with_peer

    if peer:
        result = bench_with_peer(scenario, batch, peer_shots, progress=True, **kw)
    else:
        result = run_bench(scenario, batch, progress=True, **kw)
    if scaling:
        one = bench_one_core(scenario, batch, **kw)
        result["one_core"] = {k: one[k] for k in ("shots_per_s", "elapsed_s", "cores")}
        result["scaling"] = result["shots_per_s"] / one["shots_per_s"]
    return result
