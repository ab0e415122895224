"""The command line's checks that need the registry: a variant and its game, a position by
name or file, a game's own options, the skill, the policy, the names of the values a shot
command reports. All run before JAX is imported (tests/test_cli_units.py checks
``sys.modules``); what needs a game's shot origins is checked once they are known
(:mod:`carromlab.input_checks`), before anything is simulated.

The numbers' bounds are :mod:`carromlab.input_schema`'s, a position file's
:mod:`carromlab.position_schema`'s, a sweep's :mod:`carromlab.sweeps.schema`'s.
"""

from __future__ import annotations

from pathlib import Path

from carromlab.errors import CarromlabError


def resolve(source: str):
    """A position from a JSON file path or a standard position's name."""
    from carromlab.position import Position
    from carromlab.registry import STANDARD, standard_position

    if source in STANDARD:
        return standard_position(source)
    path = Path(source)
    if path.suffix.lower() == ".json" or path.exists():
        return check_turn(Position.load(path), str(path))
    raise CarromlabError(
        f"{source!r} is neither a position file nor a standard position "
        f"(see `carromlab positions list`)"
    )


def check_turn(pos, label: str):
    """``pos`` when its ``turn`` is one its game takes (the fields of the rules' turn type,
    each of the right type and range; none on a game without a turn state, KOOBA); else one
    line naming ``label`` (the file) and the field. No JAX: the game's rules class only."""
    from carromlab.registry import position_turn

    if pos.turn is not None:
        try:
            position_turn(pos)
        except CarromlabError as e:
            raise CarromlabError(f"{label}: {e}") from None
    return pos


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


def shot_position(position: str | None, variant: str, options: dict | None = None):
    """The position a shot command plays in: ``position`` (a name or file; default the
    variant's) as the game's shot options leave it (Carrooka: the striker's spot). Needs no
    JAX: a bad name or file is refused before anything loads."""
    from carromlab.position_schema import check_variant
    from carromlab.registry import GAMES, get_game

    game = get_game(variant)
    if position is None:
        if variant not in game.default_position:
            have = [v for g in GAMES.values() if g.analysis is not None for v in g.variants]
            raise CarromlabError(
                f"shot analysis is available for {', '.join(have)}, not {variant!r}"
            )
        position = game.default_position[variant]
    pos = resolve(position)
    check_variant(pos.variant, variant, pos.name or position)
    if game.shot_position is not None:
        pos = game.shot_position(pos, options or {})
    return pos


def no_position(position: str | None, variant: str, command: str) -> None:
    """Refuse ``--position`` for a game whose own ``command`` plays no position (KOOBA aims
    throws at points of the empty board), rather than ignoring it."""
    if position is not None:
        raise CarromlabError(
            f"--position does not apply to {command} --variant {variant}: its throws are aimed "
            f"at points of the board (see `carromlab {command} --help`), not played from a "
            f"position; drop --position"
        )


def shot_turn(game, options: dict, pos=None):
    """The rules' turn state a shot command values its shots under: the position's (its
    ``turn`` fields; the rules' default turn without them), with the fields the game's own
    options set changed (Carrooka's ``--nominate``: the piece on; the position's free counter
    stays). An option given on the command line wins over the position's turn for the field it
    sets (docs/decisions.md). None for a game without a turn state."""
    from carromlab.registry import position_turn

    turn = position_turn(pos) if pos is not None else None
    if game.shot_turn is None:
        return turn
    given = game.shot_turn(options, turn)
    return turn if given is None else given


def prepare_shot(args: list[str], command: str, position, variant: str, skill: str, value=None):
    """The checks of a shot command (estimate, shotmap, best) that need no JAX, before
    anything loads: the variant, the skill, the game's own options (``args``; board points on
    the board), the position (a name or a file, of the variant) with its turn, and the
    value's name. Returns (game, options, position, turn); position and turn are None for a
    game with its own ``command`` (KOOBA)."""
    from carromlab.input_checks import check_points

    game = variant_game(variant)
    check_skill(skill)
    options = shot_options(game, args, command)
    check_points(game, options)
    if command in game.commands:
        no_position(position, variant, command)
        return game, options, None, None
    if game.analysis is None:
        raise CarromlabError(f"{command} needs a game with shot analysis, not {variant!r}")
    pos = shot_position(position, variant, options)
    turn = shot_turn(game, options, pos)
    if value is not None:
        check_value(value, variant, pos, command)
    return game, options, pos, turn


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
