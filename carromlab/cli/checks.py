"""The command line's checks that need the registry: a variant and its game, a game's own
options, the skill, the policy, the names of the values a shot command reports. All run
before JAX is imported (tests/test_cli_units.py checks ``sys.modules``).

What a shot is played in (the position, by name or file, as the game's options leave it, and
its turn) is the library's, :mod:`carromlab.shot_setup`, which :func:`prepare_shot` calls
after the names; what needs a game's shot origins is checked there once they are known
(:mod:`carromlab.input_checks`), before anything is simulated. The numbers' bounds are
:mod:`carromlab.input_schema`'s (checked when a command's typed options,
:mod:`carromlab.run_options`, are made), a position file's
:mod:`carromlab.position_schema`'s, a sweep's :mod:`carromlab.sweeps.schema`'s.
"""

from __future__ import annotations

from carromlab.errors import CarromlabError

# the position a shot is played in and its turn are the library's (re-exported for the
# commands that read a position: positions, draw, explore)
from carromlab.shot_setup import (  # noqa: F401
    ShotSetup,
    check_turn,
    setup_shot,
    shot_position,
    shot_turn,
)
from carromlab.shot_setup import resolve_position as resolve  # noqa: F401


def variant_game(variant: str):
    """The game of ``variant``, refusing a game's name given for a variant."""
    from carromlab.registry import get_game

    game = get_game(variant)
    if variant not in game.variants:
        raise CarromlabError(
            f"{variant!r} is a game; give one of its variants: {', '.join(game.variants)}"
        )
    return game


def check_game_or_variant(name: str | None) -> list[str]:
    """The variants a ``--game`` names: a game's every variant, or one variant (None: every
    variant); an unknown name is refused with the closest names."""
    from carromlab.input_schema import check_name
    from carromlab.registry import GAMES, variant_names

    if name is None:
        return variant_names()
    for game in GAMES.values():
        if name == game.name:
            return list(game.variants)
    check_name(name, list(dict.fromkeys([*GAMES, *variant_names()])), "game")
    return [name]


def check_learned_game(name: str) -> str:
    """The game a ``train --game`` names: one with a ``learned`` player (its name), or one
    clear line naming those that have one."""
    from carromlab.input_schema import check_name
    from carromlab.registry import GAMES, get_game

    learned = [g.name for g in GAMES.values() if "learned" in g.players]
    check_name(name, [*GAMES], "game")
    game = get_game(name)
    if game.name not in learned:
        raise CarromlabError(
            f"{game.name} has no learned player to train for; games with one: {', '.join(learned)}"
        )
    return game.name


def check_skill(skill: str) -> None:
    from carromlab.input_schema import SKILL_NAMES, check_name

    check_name(skill, SKILL_NAMES, "skill")


def check_policy(game, variant: str, policy: str) -> None:
    """Refuse a ``--policy`` the game has no player for, with the closest names
    (``strongest`` among them: the game's strongest player, read by ``policy_name``)."""
    from carromlab.input_schema import closest
    from carromlab.registry import STRONGEST

    if policy not in game.players and policy != STRONGEST:
        close = closest(policy, [*game.players, STRONGEST])
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        raise CarromlabError(
            f"unknown policy {policy!r} for {variant}; {hint}use {' or '.join(game.players)}"
        )


# ---------------------------------------------------------------------- a game's own options


def parse_options(game, specs, args: list[str], what: str) -> dict:
    """The values of a game's own options (``specs``: its :class:`~carromlab.registry.Option`
    s) from the command line's extra ``args``; every option not given takes its default. One
    clear line for an option the game does not have (naming the games that do), a missing or
    bad value, a number not written in ASCII."""
    from carromlab.input_schema import check_ascii
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
        kind = o.type or type(o.default)
        if isinstance(o.default, bool) and o.type in (None, bool):
            values[o.key] = not name.startswith("--no-")
        else:
            if not eq:
                i += 1
                if i >= len(args):
                    raise CarromlabError(f"{name} needs a value")
                text = args[i]
            if kind in (int, float):
                check_ascii(text, o.name)
            values[o.key] = o.parse(text, game.name)
        i += 1
    return values


def shot_options(game, args: list[str], command: str) -> dict:
    return parse_options(game, game.shot_options, args, command)


def play_options(game, variant: str, args: list[str]) -> dict:
    """A game's rule options for ``play``: those that apply to ``variant``."""
    values = parse_options(game, game.options, args, "play")
    given = {a.partition("=")[0].removeprefix("--").removeprefix("no-") for a in args}
    out = {}
    for o in game.options:
        applies = o.variants is None or variant in o.variants
        if not applies and o.name in given:
            raise CarromlabError(f"--{o.name} is not an option of {variant}")
        if applies:
            out[o.key] = values[o.key]
    return out


def game_option_help(kind: str) -> str:
    """The games' own options of a command, for its help."""
    from carromlab.registry import GAMES

    rows = []
    for g in GAMES.values():
        for o in getattr(g, kind):
            flag = f"--{o.name}/--no-{o.name}" if isinstance(o.default, bool) else f"--{o.name}"
            where = ", ".join(o.variants or g.variants)
            rows.append(f"{flag} ({where}; default {o.default!r}): {o.help}")
    return "Each game's own options:\n\n" + "\n\n".join(rows) if rows else ""


# ---------------------------------------------------------------------- the shot commands


def prepare_shot(args: list[str], command: str, options) -> ShotSetup:
    """The checks of a shot command (estimate, shotmap, best) that need no JAX, before
    anything loads: the variant, the skill, the game's own options (``args``), then the
    library's shot set-up (:func:`carromlab.shot_setup.setup_shot`: board points on the
    board, the position, a name or a file of the variant, with its turn), and the value's
    name where the command has one. ``options``: the command's typed options
    (:mod:`carromlab.run_options`). The set-up's position and turn are None for a game with
    its own ``command`` (KOOBA)."""
    game = variant_game(options.variant)
    check_skill(options.skill)
    given = shot_options(game, args, command)
    setup = setup_shot(command, options.variant, options.position, given)
    value = getattr(options, "value", None)
    if value is not None and setup.position is not None:
        check_value(value, options.variant, setup.position, command)
    return setup


# ---------------------------------------------------------------------- --value


def value_names(variant: str, pos, per_pocket: bool) -> list[str] | None:
    """The values a shot command can report for ``variant`` in ``pos`` (the columns of a
    shot map or of best's table), from the rules' declared outputs, without JAX; None where
    the rules are not found (the value is then checked after the run)."""
    from carromlab.registry import rules_class

    rules = rules_class(variant)
    if rules is None:
        return None
    names = [f"p_{q}" for q in rules.probabilities] + list(rules.means) + ["p_truncated"]
    ids = [p.id for p in pos.pieces if p.kind != "striker"]
    names += [f"p_capture:{i}" for i in ids]
    if per_pocket:
        pockets = [c.name for c in pos.board.layout.captures]
        names += [f"p_capture:{i}:{c}" for i in ids for c in pockets]
    return names


def check_value(value: str, variant: str, pos, command: str) -> None:
    """Refuse a ``--value`` that the command cannot report, in one line naming the closest
    names (difflib) and the kinds of value there are."""
    names = value_names(variant, pos, per_pocket=command == "shotmap")
    if names is None or value in names:
        return
    refuse_value(value, names, command, variant)


def refuse_value(value: str, names, command: str, variant: str) -> None:
    from carromlab.input_schema import closest, shorten

    names = list(names)
    close = closest(value, names)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    main_names = [n for n in names if not n.startswith("p_capture:")]
    pocket = "[:<pocket>]" if any(n.count(":") > 1 for n in names) else ""
    captures = f"; p_capture:<piece>{pocket}" if len(main_names) < len(names) else ""
    raise CarromlabError(
        f"--value {value!r} is not a {command} value for {variant}{hint} "
        f"(values: {shorten(main_names, 6)}{captures})"
    )
