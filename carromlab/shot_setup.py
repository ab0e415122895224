"""Where and how a shot is played, from a shot command's options: the position (a standard
position's name, a JSON file or a :class:`~carromlab.position.Position`; default the
variant's) as the game's own options leave it (Carrooka: the striker's spot), the rules'
turn state it is valued under, and from the typed options (:mod:`carromlab.run_options`)
``estimate``'s one shot (:func:`estimate_shot`) and a shot map's grid (:func:`map_grid`,
the game's default grid where none is given: :func:`grid_specs`).

The command line (``estimate``, ``shotmap``, ``best``, ``decide``) and the reports'
``from_options`` work a shot out here, so a notebook gets the shot the command plays.
:func:`setup_shot`, :func:`shot_position` and :func:`shot_turn` need no JAX (the registry,
the position's schema, the game's rules class): a bad name, file or turn is refused before
the kernel loads. :func:`estimate_shot` and :func:`map_grid` need the variant's shot origins
(the analysis hooks) and load it. Each refusal is one
:class:`~carromlab.errors.CarromlabError` line.

This module sits beside :mod:`carromlab.input_checks` rather than in
:mod:`carromlab.analysis`: importing any module of that package loads JAX first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carromlab.errors import CarromlabError

if TYPE_CHECKING:
    from carromlab.input_schema import Grid
    from carromlab.position import Position
    from carromlab.registry import Game
    from carromlab.run_options import EstimateOptions, ShotMapOptions
    from carromlab.shots import Shot

#: What receives a warning line (default: stderr; the command line gives its own).
Warn = Callable[[str], None]


def _stderr(line: str) -> None:
    from carromlab.input_checks import to_stderr

    to_stderr(line)


# ---------------------------------------------------------------------- the position


def resolve_position(source: str | Position) -> Position:
    """A position from a JSON file path or a standard position's name (a
    :class:`~carromlab.position.Position` passes as it is); a file's ``turn`` is checked
    against its game's (:func:`check_turn`)."""
    from carromlab.position import Position
    from carromlab.registry import STANDARD, standard_position

    if isinstance(source, Position):
        return source
    if source in STANDARD:
        return standard_position(source)
    if not source.strip():  # Path("") is the current folder
        raise CarromlabError(
            f"the position is empty ({source!r}): give a standard position's name "
            "(`carromlab positions list`) or a JSON file"
        )
    path = Path(source)
    if path.suffix.lower() == ".json" or path.exists():
        return check_turn(Position.load(path), str(path))
    raise CarromlabError(
        f"{source!r} is neither a position file nor a standard position "
        f"(see `carromlab positions list`)"
    )


def check_turn(pos: Position, label: str) -> Position:
    """``pos`` when its ``turn`` is one its game takes (the fields of the rules' turn type,
    each of the right type and range; none on a game without a turn state, KOOBA); else one
    line naming ``label`` (the file) and the field. The turn must also be possible in the
    position (:func:`carromlab.input_checks.check_turn_position`: pieces down and on the board
    within the game's count, dues, the queen, a break on the opening set-up). No JAX: the
    game's rules class only."""
    from carromlab.input_checks import check_turn_position
    from carromlab.registry import STANDARD, position_turn, standard_position

    def opening() -> Position | None:
        name = f"{pos.variant}-opening"
        return standard_position(name) if name in STANDARD else None

    if pos.turn is not None:
        try:
            check_turn_position(position_turn(pos), pos, opening)
        except CarromlabError as e:
            raise CarromlabError(f"{label}: {e}") from None
    return pos


def shot_position(
    position: str | Position | None, variant: str, options: Mapping[str, Any] | None = None
) -> Position:
    """The position a shot command plays in: ``position`` (a name, a file or a Position;
    default the variant's) as the game's shot options leave it (Carrooka: the striker's
    spot). Needs no JAX: a bad name or file is refused before anything loads."""
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
    pos = resolve_position(position)
    label = position if isinstance(position, str) else variant
    check_variant(pos.variant, variant, pos.name or label)
    if game.shot_position is not None:
        pos = game.shot_position(pos, options or {})
    return pos


def shot_turn(game: Game, options: Mapping[str, Any], pos: Position | None = None) -> object:
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


def no_position(position: object, variant: str, command: str) -> None:
    """Refuse ``--position`` for a game whose own ``command`` plays no position (KOOBA aims
    throws at points of the empty board), rather than ignoring it."""
    if position is not None:
        raise CarromlabError(
            f"--position does not apply to {command} --variant {variant}: its throws are aimed "
            f"at points of the board (see `carromlab {command} --help`), not played from a "
            f"position; drop --position"
        )


@dataclass(frozen=True)
class ShotSetup:
    """What a shot command plays: its ``game``, the game's own shot ``options`` (every one,
    defaults filled), the ``position`` and the rules' ``turn`` it is valued under. Position
    and turn are None for a game with its own implementation of the command (KOOBA's
    throws, ``Game.commands``)."""

    game: Game
    options: Mapping[str, Any] = field(default_factory=dict)
    position: Position | None = None
    turn: object = None

    @property
    def own_command(self) -> bool:
        """The game plays the command its own way (:attr:`~carromlab.registry.Game.commands`)."""
        return self.position is None


def setup_shot(
    command: str,
    variant: str,
    position: str | Position | None = None,
    options: Mapping[str, Any] | None = None,
) -> ShotSetup:
    """The position and turn of a shot ``command`` (``estimate``, ``shotmap``, ``best``) of
    ``variant``: ``options`` are the game's own shot options (those not given take their
    defaults), its board points checked against the board; ``position`` as
    :func:`shot_position` reads it. A game with its own ``command`` (KOOBA) plays no
    position, and ``--position`` is refused for it. No JAX."""
    from carromlab.input_checks import check_points
    from carromlab.registry import get_game

    game = get_game(variant)
    game.check_variant(variant)
    given = {o.key: o.default for o in game.shot_options} | dict(options or {})
    check_points(game, given)
    if command in game.commands:
        no_position(position, variant, command)
        return ShotSetup(game, given)
    if game.analysis is None:
        raise CarromlabError(f"{command} needs a game with shot analysis, not {variant!r}")
    pos = shot_position(position, variant, given)
    return ShotSetup(game, given, pos, shot_turn(game, given, pos))


# ---------------------------------------------------------------------- the shots


def estimate_shot(options: EstimateOptions, setup: ShotSetup, warn: Warn | None = None) -> Shot:
    """``estimate``'s one shot in ``setup``'s position: from the options' placement (the
    game's default placement where none is given), its unit and legality checked against
    the board, aimed at their angle (forward from a line board) at their speed; the game's
    own word on it (ICF: law 130). ``warn`` gets the warning lines (angles that look like
    radians, a placement ignored where the shooter lies; default: stderr)."""
    import math

    from carromlab.analysis.variants import analysis_for
    from carromlab.input_checks import check_forward, check_placements
    from carromlab.input_schema import radians_warning
    from carromlab.shots import Shot

    pos, warn = _played(setup, "estimate"), warn or _stderr
    angle, placement = options.angle, options.placement
    written = getattr(angle, "text", repr(angle))
    if getattr(angle, "plain", True):
        warning = radians_warning(written, "angle", [angle])
        if warning:
            warn(warning)
    va = analysis_for(pos.variant)
    if placement is not None:
        text = getattr(placement, "text", repr(placement))
        kind = getattr(placement, "kind", None)
        check_placements("placement", text, [placement], kind, va, pos, setup.game, warn)
    else:  # mid-line, or the point of a circle straight below the centre
        placement = setup.game.default_placement
    check_forward("angle", written, [angle], va, pos)
    xs, ys = va.origin(pos, [float(placement)])
    shot = Shot(float(xs[0]), float(ys[0]), math.radians(angle), options.speed)
    va.check_shot(pos, shot)  # the game's own word on the shot (ICF: law 130), now
    return shot


def grid_specs(variant: str) -> tuple[str, str, str]:
    """The default shot map's grid of ``variant`` as written (placements, angles, speeds):
    its game's ``default_grid``, else the analysis' fallback
    (:data:`~carromlab.analysis.shotmap.FALLBACK_GRID`). ``best`` starts from the same
    grid."""
    from carromlab.registry import get_game

    specs = get_game(variant).default_grid
    if specs is None:
        from carromlab.analysis.shotmap import FALLBACK_GRID

        specs = FALLBACK_GRID
    return specs


@dataclass(frozen=True)
class MapGrid:
    """A shot map's axes as read: the placements and the angles with the units written
    (:class:`~carromlab.input_schema.Grid`), the speeds in m/s."""

    placements: Grid
    angles: Grid
    speeds: list[float]

    @property
    def cells(self) -> int:
        return len(self.placements.values) * len(self.angles.values) * len(self.speeds)

    def axes(self) -> tuple[list[float], list[float], list[float]]:
        """(placements, angles in degrees, speeds in m/s)."""
        return self.placements.values, self.angles.values, self.speeds


def map_grid(options: ShotMapOptions, setup: ShotSetup, warn: Warn | None = None) -> MapGrid:
    """A shot map's grid from its options (each axis not given: the game's,
    :func:`grid_specs`), checked before any shot: its cells and shots within bounds, the
    placements against the board, the aims forward from a line board. ``warn`` gets the
    warning lines (angles that look like radians, placements ignored where the shooter
    lies; default: stderr)."""
    from carromlab.analysis.variants import analysis_for
    from carromlab.input_checks import check_forward, check_placements
    from carromlab.input_schema import (
        check_cells,
        check_run,
        parse_grid,
        parse_grid_spec,
        radians_warning,
    )

    pos, warn = _played(setup, "shotmap"), warn or _stderr
    defaults = grid_specs(pos.variant)
    spots = parse_grid_spec(options.placements or defaults[0], "placements")
    aims = parse_grid_spec(options.angles or defaults[1], "angles")
    grid = MapGrid(spots, aims, parse_grid(options.speeds or defaults[2], "speeds"))
    check_cells(grid.cells, "shotmap")
    check_run(grid.cells, options.n, "shotmap")
    va = analysis_for(pos.variant)
    if options.angles is not None and aims.plain:
        warning = radians_warning(options.angles, "angles", aims.values)
        if warning:
            warn(warning)
    if options.placements is not None:
        text = options.placements
        check_placements("placements", text, spots.values, spots.kind, va, pos, setup.game, warn)
    check_forward("angles", aims.text, aims.values, va, pos)
    return grid


def _played(setup: ShotSetup, command: str) -> Position:
    if setup.position is None:
        raise CarromlabError(
            f"{setup.game.name} plays {command} its own way (its throws are aimed at points): "
            "no position to play a shot in"
        )
    return setup.position


__all__ = [
    "MapGrid",
    "ShotSetup",
    "check_turn",
    "estimate_shot",
    "grid_specs",
    "map_grid",
    "no_position",
    "resolve_position",
    "setup_shot",
    "shot_position",
    "shot_turn",
]
