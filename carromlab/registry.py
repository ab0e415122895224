"""The games, by name: one registry, one :class:`Game` description per game.

Every game lives in one folder, ``carromlab/games/<game>/``, whose ``__init__`` builds its
:class:`Game` (rules, shooter origins, game machine, players, driver, set-ups, its own command
line options) and registers it. The layers below the games (analysis, the game loop) look a
game up here by name or by one of its variants and never import a game: the built-in games are
imported on first use, found by their folders (:func:`builtin_modules`), the way plug-ins
are. A game defined
anywhere else (a notebook, a test) becomes usable everywhere with :func:`register_game`.

    >>> import carromlab as cl
    >>> cl.get_game("icf").variants
    ('icf', 'icf-doubles')
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from carromlab.errors import CarromlabError
from carromlab.input_schema import MAX_COUNT

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.equipment.sets import GameSet
    from carromlab.position import Position

#: Where the built-in games live: every sub-package of ``carromlab/games/`` is imported on
#: first use (each registers its :class:`Game`), so a new game is a new folder and nothing
#: else. They load in this order first (the order of listings), then any other by name.
GAMES_PACKAGE = "carromlab.games"
FIRST = ("icf", "carrooka", "carroms", "force_out", "ring_pegs", "kooba")


def builtin_modules() -> list[str]:
    """The built-in games' packages, found on disk (``carromlab/games/*/__init__.py``)."""
    import pkgutil

    package = importlib.import_module(GAMES_PACKAGE)
    found = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg)
    ordered = [n for n in FIRST if n in found] + [n for n in found if n not in FIRST]
    return [f"{GAMES_PACKAGE}.{n}" for n in ordered]


def parse_pair(text: str, what: str) -> tuple[float, float]:
    """``X,Y`` (metres, or with a length unit: ``12cm,20cm``) from the command line; one
    clear line naming ``--what`` if not, or if a coordinate is not finite or lies more than
    5 m from the centre (:func:`carromlab.input_schema.parse_pair`)."""
    from carromlab.input_schema import parse_pair as parse

    return parse(text, what)


def parse_grid(text: str, what: str) -> list[float]:
    """``START:STOP:COUNT`` (COUNT values from START to STOP) or ``a,b,c`` from the command
    line, each number plain or with a unit the option takes (``30deg:150deg:61``,
    ``-18cm:18cm:13``); one clear line naming ``--what`` if not, if empty, if COUNT is above
    10**6 (checked before any value is made) or a value is out of the option's range
    (:func:`carromlab.input_schema.parse_grid`)."""
    from carromlab.input_schema import parse_grid as parse

    return parse(text, what)


@dataclass(frozen=True)
class Option:
    """One of a game's own command-line options (``carromlab play --NAME VALUE``): it sets the
    field ``field`` (default: ``name`` with ``-`` as ``_``) of the game's rule configuration.
    The type is ``type`` or the default's (bool options are flags: ``--NAME`` /
    ``--no-NAME``); ``choices`` limits the values; ``minimum`` / ``maximum`` bound numbers
    (a float must also be finite, a whole number without ``maximum`` at most
    ``input_schema.MAX_COUNT``, 10**6); ``variants``: the variants it applies to (None: all
    of the game's)."""

    name: str
    default: Any
    help: str
    field: str | None = None
    type: type | None = None
    variants: tuple[str, ...] | None = None
    choices: tuple | None = None
    minimum: float | None = None
    maximum: float | None = None

    @property
    def key(self) -> str:
        return self.field or self.name.replace("-", "_")

    def parse(self, text: str | bool, game: str):
        """The option's value from its command-line text; one clear line if it is not one."""
        kind = self.type or type(self.default)
        if kind is bool:
            value = bool(text)
        else:
            try:
                value = kind(text)
            except (TypeError, ValueError):
                raise CarromlabError(
                    f"--{self.name} ({game}) must be {kind.__name__}, not {text!r}"
                ) from None
            if kind is float and not math.isfinite(value):
                raise CarromlabError(f"--{self.name} ({game}) {text!r}: must be finite")
            if kind is int and self.maximum is None and value > MAX_COUNT:
                raise CarromlabError(
                    f"--{self.name} ({game}) {value:,}: must be at most {MAX_COUNT:,}"
                )
        if self.choices is not None and value not in self.choices:
            raise CarromlabError(
                f"--{self.name} ({game}) must be one of {', '.join(map(str, self.choices))}, "
                f"not {value!r}"
            )
        if self.minimum is not None and value < self.minimum:
            raise CarromlabError(f"--{self.name} ({game}) must be >= {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise CarromlabError(f"--{self.name} ({game}) must be <= {self.maximum}, not {value}")
        return value


@dataclass(frozen=True)
class Game:
    """Everything the toolkit needs to know about one game, in one place.

    - ``name``, ``title``; ``variants``: the rule variants it plays (a position's ``variant``
      names one); ``family``: its board family (``carromlab.equipment.BOARDS``).
    - ``positions``: its standard positions by name (factories); ``default_position``: the one
      shot analysis uses when none is given, by variant.
    - ``analysis(variant)``: the shot-analysis hooks of a variant
      (:class:`~carromlab.analysis.variants.VariantAnalysis`: rules, shooter origins, legal
      placements), or None for a game without shot analysis (KOOBA's throws are aimed at
      points; see ``commands``).
    - ``config(variant, **options)``: the rule configuration of a whole game; ``options``:
      its command-line options (each sets one configuration field).
    - ``players``: player factories by policy name, each called as
      ``factory(skill=..., variant=...)``; ``driver(config)``: the driver that plays it
      through :func:`~carromlab.play.loop.play_games`.
    - ``default_grid``: the shot-map grid (placements, angles, speeds) when none is given;
      ``default_placement``: the placement of a shot when none is given.
    - ``shot_options``: options of the shot commands (estimate, shotmap, best), read by the
      hooks ``shot_position(position, options)`` (the position the shot is played in) and
      ``shot_turn(options)`` (the rules' turn state); ``commands``: a game's own
      implementation of a command (``"estimate"``, ``"shotmap"``) when the shared one does
      not fit, called with the command's options as keywords.
    - ``game_sets``: the piece sets of its variants (``carromlab.equipment.sets.GameSet``),
      added to the equipment's sets when the game is registered (the built-in games' sets
      are there already).
    """

    name: str
    title: str
    variants: tuple[str, ...]
    family: str
    positions: Mapping[str, Callable[[], Position]] = field(default_factory=dict)
    default_position: Mapping[str, str] = field(default_factory=dict)
    analysis: Callable[[str], Any] | None = None
    config: Callable[..., Any] | None = None
    options: tuple[Option, ...] = ()
    players: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    driver: Callable[[Any], Any] | None = None
    default_grid: tuple[str, str, str] | None = None
    default_placement: float = 0.0
    shot_options: tuple[Option, ...] = ()
    shot_position: Callable[[Any, Mapping[str, Any]], Any] | None = None
    shot_turn: Callable[[Mapping[str, Any]], Any] | None = None
    commands: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    game_sets: tuple[GameSet, ...] = ()

    def __post_init__(self):
        if not self.variants:
            raise CarromlabError(f"game {self.name!r} declares no variants")
        for v, pos in self.default_position.items():
            if v not in self.variants or pos not in self.positions:
                raise CarromlabError(
                    f"game {self.name!r}: default position {pos!r} of {v!r} is not one of its "
                    "variants' standard positions"
                )

    def make_config(self, variant: str | None = None, **options):
        """The rule configuration of ``variant`` (default: the first) with ``options``."""
        variant = self.check_variant(variant)
        if self.config is None:
            raise CarromlabError(f"whole games are not available for {variant!r}")
        return self.config(variant, **options)

    def make_player(self, policy: str, skill="club", variant: str | None = None):
        """The player ``policy`` (a name of :attr:`players`) at ``skill``."""
        if policy not in self.players:
            raise CarromlabError(
                f"unknown policy {policy!r} for {self.name}; use {', '.join(self.players)}"
            )
        return self.players[policy](skill=skill, variant=self.check_variant(variant))

    def check_variant(self, variant: str | None) -> str:
        if variant is None:
            return self.variants[0]
        if variant not in self.variants:
            raise CarromlabError(
                f"{variant!r} is not a variant of {self.name} ({', '.join(self.variants)})"
            )
        return variant


_GAMES: dict[str, Game] = {}
_VARIANTS: dict[str, str] = {}
_loaded = False


def _load_builtin() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in builtin_modules():
            importlib.import_module(module)


def register_game(game: Game, replace: bool = False) -> Game:
    """Add ``game`` to the registry (and its piece sets to the equipment's); a name or a
    variant already taken by another game is refused unless ``replace``. Returns the game."""
    from carromlab.equipment.sets import GAME_SETS

    for v in game.variants:
        owner = _VARIANTS.get(v)
        if owner is not None and owner != game.name and not replace:
            raise CarromlabError(f"variant {v!r} belongs to game {owner!r} already")
    if game.name in _GAMES and not replace and _GAMES[game.name] is not game:
        raise CarromlabError(f"a game named {game.name!r} is registered already")
    if game.name in _GAMES:
        unregister_game(game.name)
    for s in game.game_sets:
        GAME_SETS[s.variant] = s
    _GAMES[game.name] = game
    for v in game.variants:
        _VARIANTS[v] = game.name
    return game


def unregister_game(name: str) -> None:
    """Remove a game added with :func:`register_game` (its piece sets too)."""
    from carromlab.equipment.sets import GAME_SETS

    game = _GAMES.pop(name)
    for v in game.variants:
        _VARIANTS.pop(v, None)
    for s in game.game_sets:
        GAME_SETS.pop(s.variant, None)


def get_game(name: str) -> Game:
    """The game called ``name``, or the game that plays the variant ``name``."""
    _load_builtin()
    if name in _GAMES:
        return _GAMES[name]
    if name in _VARIANTS:
        return _GAMES[_VARIANTS[name]]
    from carromlab.input_schema import closest

    close = closest(name, dict.fromkeys([*_GAMES, *_VARIANTS]))
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    raise CarromlabError(
        f"unknown game or variant {name!r}; {hint}known: {', '.join(variant_names())}"
    )


def game_names() -> list[str]:
    _load_builtin()
    return list(_GAMES)


def variant_names() -> list[str]:
    """Every registered variant, game by game."""
    _load_builtin()
    return [v for g in _GAMES.values() for v in g.variants]


class _Games(Mapping):
    """The registry as a read-only mapping, name -> :class:`Game` (built-ins loaded)."""

    def __getitem__(self, name: str) -> Game:
        _load_builtin()
        return _GAMES[name]

    def __iter__(self) -> Iterator[str]:
        _load_builtin()
        return iter(list(_GAMES))

    def __len__(self) -> int:
        _load_builtin()
        return len(_GAMES)

    def __repr__(self) -> str:
        return f"GAMES({', '.join(self)})"


#: Every registered game, by name.
GAMES: Mapping[str, Game] = _Games()


class _Standard(Mapping):
    """Every game's standard positions, name -> factory, in the games' order."""

    def _all(self) -> dict:
        _load_builtin()
        out: dict = {}
        for g in _GAMES.values():
            out.update(g.positions)
        return out

    def __getitem__(self, name: str):
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


#: The standard positions of every game, by name (factories).
STANDARD: Mapping[str, Callable[[], Position]] = _Standard()


def standard_names() -> list[str]:
    return list(STANDARD)


def standard_position(name: str) -> Position:
    """A standard position by name (with default equipment)."""
    factories = dict(STANDARD)
    if name not in factories:
        raise CarromlabError(f"unknown standard position {name!r}; known: {', '.join(factories)}")
    return factories[name]()


def shot_analysis(variant: str):
    """The shot-analysis hooks of ``variant``
    (:class:`~carromlab.analysis.variants.VariantAnalysis`)."""
    game = get_game(variant)
    if game.analysis is None:
        have = [v for g in GAMES.values() if g.analysis is not None for v in g.variants]
        raise CarromlabError(
            f"shot analysis for variant {variant!r} is not available (available: {', '.join(have)})"
        )
    return game.analysis(game.check_variant(variant))


def rules_class(variant: str) -> type | None:
    """The rules class (a :class:`~carromlab.rules.outcome.VariantRules` subclass) that
    serves ``variant``, found without importing JAX: of its game's package only the modules
    whose source names ``VariantRules`` are imported (a game's rules import numpy, not the
    kernel). The command line reads the names of a variant's values from it before anything
    is computed. None where none is found (the value is then checked after the run)."""
    import importlib.util
    import pkgutil
    import sys

    from carromlab.rules.outcome import VariantRules

    game = get_game(variant)
    where = getattr(game.analysis, "__module__", None)
    if where is None:
        return None
    module = sys.modules.get(where) or importlib.import_module(where)
    for info in pkgutil.iter_modules(getattr(module, "__path__", [])):
        name = f"{where}.{info.name}"
        spec = importlib.util.find_spec(name)
        try:
            source = open(spec.origin, encoding="utf-8").read() if spec and spec.origin else ""
        except OSError:
            continue
        if "VariantRules" in source:
            importlib.import_module(name)

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    found = [c for c in subclasses(VariantRules) if variant in (tuple(c.variants) or (c.variant,))]
    found.sort(key=lambda c: not c.__module__.startswith(where))  # the game's own first
    return found[0] if found else None


__all__ = [
    "GAMES",
    "STANDARD",
    "Game",
    "Option",
    "builtin_modules",
    "game_names",
    "get_game",
    "register_game",
    "rules_class",
    "shot_analysis",
    "standard_names",
    "standard_position",
    "unregister_game",
    "variant_names",
]
