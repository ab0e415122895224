"""``carromlab decide``: a player's chosen stroke at a position, with the player's own
estimate and an independent re-estimate of it (:func:`carromlab.analysis.decide.decide`).

Every name and number is checked before JAX loads (the position, the variant, the game,
the policy with the closest names, the skill, ``--seed`` and ``--n``): one line, exit 2."""

from __future__ import annotations

import json
import sys

import typer

from carromlab.cli.app import STRICT_HELP, app, report_truncation
from carromlab.cli.checks import check_skill, variant_game
from carromlab.cli.policy_help import policy_help
from carromlab.errors import CarromlabError
from carromlab.run_options import DecideOptions

#: ``--policy``'s help: the players of every game whose strokes ``decide`` decides, from the
#: registry (``registry.decide_variants``)
POLICY_HELP = policy_help(
    "A player of the game (`carromlab games`), or strongest.",
    lambda g: bool(g.players) and g.analysis is not None and g.config is not None,
)


@app.command()
def decide(
    position: str = typer.Option(
        DecideOptions.position,
        help="Standard position name or JSON file (default: the variant's).",
    ),
    policy: str = typer.Option(DecideOptions.policy, help=POLICY_HELP),
    variant: str = typer.Option(
        DecideOptions.variant,
        help="Game variant (default: the position's; icf without a position).",
    ),
    skill: str = typer.Option(
        DecideOptions.skill, help="The player's skill: its search's noise and the re-estimate's."
    ),
    seed: int = typer.Option(
        DecideOptions.seed, help="The stroke's seed (the re-estimate draws its own from it)."
    ),
    n: int = typer.Option(
        DecideOptions.n, help="Executions of the chosen stroke in the re-estimate."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """A player's chosen stroke at a position (the shooter at the South, as in every shot
    command, under the position's turn state or the rules' default): the stroke (placement,
    aim, speed), the player's own estimate of it, and an independent re-estimate with its
    95 % intervals (expected points, foul, continue and pot chances) from n fresh executions
    at the player's skill."""
    options = DecideOptions(  # its numbers checked
        position=position, policy=policy, variant=variant, skill=skill, seed=seed, n=n
    )
    from carromlab.shot_setup import resolve_position, shot_position

    if variant is None:  # the position's own (a name or a file, read without JAX)
        variant = "icf" if position is None else resolve_position(position).variant
    game = variant_game(variant)
    from carromlab.registry import STRONGEST, check_decides

    check_decides(variant, game)
    check_decide_policy(game, variant, policy, STRONGEST)
    check_skill(skill)
    pos = shot_position(position, variant)
    if not as_json and sys.stderr.isatty():
        who = game.policy_name(policy)
        typer.echo(f"deciding: {who} at {skill} in {pos.name or variant} ...", err=True)
    from carromlab.analysis.decide import decide as run_decide

    result = run_decide(pos, variant=variant, progress=not as_json, **options.keywords())
    from carromlab.analysis.truncation import Truncation

    cut = Truncation(result.truncated, result.n) if result.estimate is not None else None
    if as_json:
        typer.echo(json.dumps(result.summary(), default=str))
    else:
        print_decided(result)
    report_truncation(cut, strict)


def check_decide_policy(game, variant: str, policy: str, strongest: str) -> None:
    """Refuse a ``--policy`` that is neither a player of the game nor ``strongest``, with the
    closest names."""
    from carromlab.input_schema import closest

    names = [*game.players, strongest]
    if policy not in names:
        close = closest(policy, names)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        raise CarromlabError(
            f"unknown policy {policy!r} for {variant}; {hint}use {' or '.join(names)}"
        )


def _pct(r: dict) -> str:
    return f"{100 * r['estimate']:.1f} % [{100 * r['lo']:.1f}, {100 * r['hi']:.1f}]"


def print_decided(result) -> None:
    """The decision in lines: who decided where, the turn assumed, the stroke, the player's
    estimate, the re-estimate with its intervals."""
    s = result.summary()
    who = s["player"] if s["policy"] == s["player"] else f"{s['player']} (the strongest)"
    typer.echo(f"{s['position']}: {who} at {s['skill']}, seed {s['seed']}")
    typer.echo(f"turn: {s['turn_text']}")
    stroke = s["stroke"]
    if stroke is None:
        typer.echo(f"decision: {s['option'] or 'no stroke'} (no stroke to estimate)")
        return
    x, y = stroke["origin"]
    if stroke["placement"] is None:
        lies = ", where it lies" if stroke["lies"] else ""
        where = f"from ({x:.3f}, {y:.3f}) m{lies}"
    elif stroke["placement_unit"] == "m":
        where = f"placement {stroke['placement']:.3f} m"
    else:
        where = f"placement {stroke['placement']:.1f} deg (at ({x:.3f}, {y:.3f}) m)"
    option = f"; {s['option']} {s['params']}" if s["option"] else ""
    typer.echo(
        f"stroke: {where}, angle {stroke['angle']:.1f} deg, speed {stroke['speed']:.2f} m/s{option}"
    )
    values = s["player_values"]
    if values:
        own = ", ".join(f"{k} {v:.3f}" if v is not None else f"{k} -" for k, v in values.items())
    else:
        own = "none (the player played it without estimating it: a set break, or at random)"
    typer.echo(f"player's estimate: {own} ({s['shots']['plan']:,} kernel shots)")
    est = s["estimate"]
    typer.echo(f"re-estimate: {est['n']:,} executions at {est['skill']}, seed {est['seed']}")
    for key, label in (
        ("points", "points"),
        ("p_potted", "pot chance"),
        ("p_continues", "continue chance"),
        ("p_foul", "foul chance"),
    ):
        r = est.get(key)
        if r is None:
            continue
        name = label if r["quantity"] in key else f"{label} ({r['quantity']})"
        text = f"{r['estimate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]" if key == "points" else _pct(r)
        typer.echo(f"  {name}: {text}")
