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
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from carromlab.errors import CarromlabError
from carromlab.rules.declaration import (
    ConfigFactory,
    Option,
    OptionValue,
    PlayerFactory,
    PlayerView,
    ShotScenario,
    first_sentence,
)
from carromlab.rules.declaration import Noise as Noise
from carromlab.rules.declaration import parse_grid as parse_grid
from carromlab.rules.declaration import parse_pair as parse_pair

if TYPE_CHECKING:  # pragma: no cover
    # Types only: the layers above the registry (analysis, play) are never imported here.
    from carromlab.analysis.players import Player
    from carromlab.analysis.variants import VariantAnalysis
    from carromlab.equipment.sets import GameSet
    from carromlab.play.drivers import Driver
    from carromlab.position import Position
    from carromlab.rules.interfaces import GameConfig
    from carromlab.rules.outcome import VariantRules

#: Where the built-in games live: every sub-package of ``carromlab/games/`` is imported on
#: first use (each registers its :class:`Game`), so a new game is a new folder and nothing
#: else. Listings give them in the order each declares (:attr:`Game.order`).
GAMES_PACKAGE = "carromlab.games"

#: The policy name that stands for a game's strongest player (:attr:`Game.strongest`).
STRONGEST = "strongest"

#: The fields of :class:`Game` whose dotted path names the part's value itself (a class),
#: returned as it is when the field is called: ``rules_class(variant)``, ``explorer()``.
VALUE_FIELDS = frozenset({"rules_class", "explorer"})
#: The fields whose parts are called with the variant first (``config(variant, **options)``,
#: ``analysis(variant)``): a part that takes no variant (:func:`part`, ``takes_variant=False``)
#: is called without it. A player takes it as the keyword ``variant``.
VARIANT_FIRST = frozenset({"config", "analysis"})


@dataclass(frozen=True, eq=False)
class Part:
    """One of a game's parts named by its dotted path, ``"package.module:attr"`` (or
    ``"package.module:attr.attr"``), imported on first use and kept (:func:`part`). A
    :class:`Game` binds each of its parts to its name and field when it is built; calling the
    part calls what the path names by its field's convention (see :class:`Game`), with the
    fixed ``args`` after the caller's and the fixed ``kwargs`` under the caller's. A fixed
    argument that is itself a :func:`ref` is the object its path names, imported on first
    use (``budget=ref("carromlab.analysis.policies:RACING")``)."""

    path: str
    args: tuple[object, ...] = ()
    kwargs: Mapping[str, object] = field(default_factory=dict)
    takes_variant: bool = True
    takes_skill: bool = True
    #: the path names the value itself (a :func:`ref`, or a part of :data:`VALUE_FIELDS`)
    value: bool = False
    game: str = ""
    slot: str = ""
    _cache: dict[str, object] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        module, colon, attr = self.path.partition(":")
        if not colon or not module or not attr or " " in self.path:
            raise CarromlabError(
                f"{self._where()}{self.path!r} is not a dotted path 'package.module:attr'"
            )

    def _where(self) -> str:
        return f"game {self.game!r}: {self.slot} " if self.game else ""

    def bound(self, game: str, field_name: str) -> Part:
        """This part as field ``field_name`` of the game ``game`` (a value where the field's
        path names one)."""
        return Part(
            self.path,
            self.args,
            self.kwargs,
            self.takes_variant,
            self.takes_skill,
            self.value or field_name in VALUE_FIELDS,
            game,
            field_name,
        )

    def resolve(self) -> object:
        """What the path names, imported on first use and kept; one line
        (:class:`CarromlabError`) naming the game, the field and the path if it does not
        resolve."""
        if "target" not in self._cache:
            module, _, attr = self.path.partition(":")
            try:
                # a game's part by its dotted path (tests/test_game_folders.py checks that a
                # built-in game's paths reach only its own folder and the layers below)
                found: object = importlib.import_module(module)
                for name in attr.split("."):
                    found = getattr(found, name)
            except (ImportError, AttributeError) as exc:
                raise CarromlabError(
                    f"{self._where() or 'part '}{self.path!r} does not resolve: {exc}"
                ) from exc
            self._cache["target"] = found
        return self._cache["target"]

    # Any: a part stands for whichever callable its field holds (ConfigFactory, a player's
    # factory, a driver class...), so it takes and returns what that field's callable does
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        target = self.resolve()
        if self.value:
            return target
        if not callable(target):
            raise CarromlabError(f"{self._where() or 'part '}{self.path!r} is not callable")
        if not self.takes_variant:
            if self.slot in VARIANT_FIRST:
                args = args[1:]
            kwargs.pop("variant", None)
        if not self.takes_skill:
            kwargs.pop("skill", None)
        fixed = {k: _fixed(v) for k, v in self.kwargs.items()}
        return target(*args, *map(_fixed, self.args), **{**fixed, **kwargs})


def _fixed(value: object) -> object:
    return value.resolve() if isinstance(value, Part) and value.value else value


def part(
    path: str,
    /,
    *args: object,
    takes_variant: bool = True,
    takes_skill: bool = True,
    **kwargs: object,
) -> Part:
    """A game's part by its dotted path ``"package.module:attr"``, imported on first use,
    with fixed arguments: ``part("carromlab.analysis.policies:Greedy", takes_variant=False,
    break_shot="search")`` is the player factory ``Greedy(skill=skill, break_shot="search")``.
    ``takes_variant=False``: called without the variant its field passes (a configuration
    class without a ``variant`` argument, a player that plays every variant alike);
    ``takes_skill=False``: a player called without its ``skill`` (a random player)."""
    return Part(path, args, kwargs, takes_variant, takes_skill)


def ref(path: str, /) -> Part:
    """The object ``path`` names, as a fixed argument of a :func:`part`, imported when the
    part is first called."""
    return Part(path, value=True)


def parts(game: Game) -> dict[str, Part]:
    """The parts ``game`` names by dotted path, by field (``players.greedy``,
    ``positions.icf-opening``; a fixed argument's :func:`ref` as ``<field>.<key>``)."""
    out: dict[str, Part] = {}

    def add(name: str, value: object) -> None:
        if isinstance(value, Part):
            out[name] = value
            for k, v in value.kwargs.items():
                add(f"{name}.{k}", v)
            for i, v in enumerate(value.args):
                add(f"{name}.{i}", v)

    for name in _CALLABLE_FIELDS:
        add(name, getattr(game, name))
    for name in _MAPPING_FIELDS:
        for key, value in getattr(game, name).items():
            add(f"{name}.{key}", value)
    return out


def _bind(value: object, game: str, field_name: str) -> object:
    """A field's value with its dotted paths as bound :class:`Part` (a plain string is one)."""
    if isinstance(value, str):
        value = Part(value)
    if isinstance(value, Part):
        return value.bound(game, field_name)
    return value


def builtin_modules() -> list[str]:
    """The built-in games' packages, found on disk (``carromlab/games/*/__init__.py``), by
    name."""
    import pkgutil

    package = importlib.import_module(GAMES_PACKAGE)
    found = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg)
    return [f"{GAMES_PACKAGE}.{n}" for n in found]


@dataclass(frozen=True)
class Game:
    """Everything the toolkit needs to know about one game, in one place.

    - ``name``, ``title``; ``variants``: the rule variants it plays (a position's ``variant``
      names one); ``family``: its board family (``carromlab.equipment.BOARDS``); ``order``:
      where it comes in listings (lower first, then by name).
    - ``positions``: its standard positions by name (factories); ``default_position``: the one
      shot analysis uses when none is given, by variant.
    - ``analysis(variant)``: the shot-analysis hooks of a variant
      (:class:`~carromlab.analysis.variants.VariantAnalysis`: rules, shooter origins, legal
      placements), or None for a game without shot analysis (KOOBA's throws are aimed at
      points; see ``commands``). ``rules_class(variant)``: the class of those rules (a
      :class:`~carromlab.rules.outcome.VariantRules`), imported without JAX (a game's rules
      import NumPy, not the kernel): the command line reads the names of a variant's values
      from it before anything is computed.
    - ``config(variant, **options)``: the rule configuration of a whole game (a
      :class:`~carromlab.rules.interfaces.GameConfig`); ``options``: its command-line options
      (each sets one configuration field).
    - ``players``: player factories by policy name, each called as
      ``factory(skill=..., variant=...)``; ``driver(config)``: the driver that plays it
      through :func:`~carromlab.play.loop.play_games`; ``strongest``: the top of its strength
      ladder, the policy ``strongest`` names (:meth:`policy_name`; None: ``greedy``);
      ``player_view``: what its player sees at a position taken as given (None: the position
      itself under its turn state, as the sliding-disc games' players see it; Carrooka: a
      game state holding the position), for :func:`~carromlab.analysis.decide.decide`;
      ``player_notes``: what each player plays, one line by policy name (the command line's
      ``--policy`` help, :meth:`player_note`; a player without one is described by the first
      sentence of its factory's docstring, imported then); ``player_aliases``: the class
      names its players' reprs were logged under before they were renamed, old -> current
      (Circle Scores' ``ForceOutGreedy`` -> ``CircleScoresGreedy``): a rerun of a folder
      logged under an old name is accepted (:func:`carromlab.play.log.same_settings`).
    - ``player_for_rules(player, config)``: the player made to value the rule configuration
      ``config`` (ICF: its scoring weights from the queen's worth and the due rule), for
      studies that change the rules (None: players value every configuration alike).
    - ``default_grid``: the shot-map grid (placements, angles, speeds) when none is given;
      ``default_placement``: the placement of a shot when none is given.
    - ``shot_options``: options of the shot commands (estimate, shotmap, best), read by the
      hooks ``shot_position(position, options)`` (the position the shot is played in) and
      ``shot_turn(options, turn=None)`` (the rules' turn state with the fields the options
      set changed, from ``turn``, the position's; None where the options set none, so that
      the position's turn stands); ``commands``: a game's own
      implementation of a command (``"estimate"``, ``"shotmap"``) when the shared one does
      not fit, called with the command's options as keywords.
    - ``plain_break``: the game's break is a stroke like any other of its turn state (the
      game's player knows the break from the game's state; Carrooka: the game's first
      stroke, from the break line at the red), not a turn state with ``is_break`` set.
    - ``physics``: its games run on the sliding-disc kernel and read the physics' fields
      (``carromlab.physics.Physics``: friction, restitution); False for a game played on
      another kernel (KOOBA's throws, ``physics/throw.py``), which a study may not give
      physics or priors.
    - ``points_notes``: by variant, what a stroke's ``points`` count under the rules' default
      scoring (a shot map's caption).
    - ``bench_scenarios``: the kernel benchmark's scenarios it provides, by name (factories).
    - ``game_sets``: the piece sets of its variants (``carromlab.equipment.sets.GameSet``),
      added to the equipment's sets when the game is registered (the built-in games' sets
      are there already).
    - ``explorer()``: the class of its model in the explorer (``cl.Explorer``; the interface
      :class:`carromlab.explore.model.ExplorerModel`), imported on first use, where the
      shared one of the games with shot analysis (a shooter placed, aimed and sped) does not
      fit (KOOBA: throws aimed at a point). None: the shared one, where the game has shot
      analysis; else the explorer does not open its positions.

    **Parts by dotted path.** Each callable field (``config``, ``driver``, ``analysis``,
    ``rules_class``, ``player_view``, ``player_for_rules``, ``shot_position``, ``shot_turn``,
    ``explorer``) and each value of ``positions``, ``players``, ``commands`` and
    ``bench_scenarios`` may be a callable, or a dotted path ``"package.module:attr"`` (or
    ``"package.module:attr.attr"``), given as a string or as :func:`part` with fixed
    arguments (typed code writes :func:`part`: a :class:`Part` is what each field's callable
    type accepts). The path is imported on first use and kept; one that does not resolve is
    one line (:class:`CarromlabError`) naming the game, the field and the path. A path names
    what is called as the field is, with the fixed arguments after the caller's:

    - ``config``: ``attr(variant, **options)``, or the configuration class itself with
      ``takes_variant=False`` (``attr(**options)``);
    - ``analysis``: ``attr(variant)``;
    - ``rules_class`` and ``explorer``: the class itself (returned, not called);
    - ``players``: ``attr(skill=..., variant=...)``; ``takes_variant=False`` leaves out the
      variant (a player class), ``takes_skill=False`` the skill (a random player); fixed
      keywords such as ``break_shot="search"``, and a :func:`ref` for a fixed value imported
      on first use (``budget=ref("carromlab.analysis.policies:RACING")``);
    - ``driver``: ``attr(config)`` (the driver class); ``positions`` and
      ``bench_scenarios``: ``attr(*fixed)``; ``player_view``, ``player_for_rules``,
      ``shot_position``, ``shot_turn`` and ``commands``: called with their own arguments.

    A built-in game's ``__init__.py`` is its ``Game`` declaration alone; where no class or
    function of its modules takes the call as it is, a small adapter lives in its folder's
    ``parts.py`` (ICF's configuration of a variant, the shot-analysis hooks).
    """

    name: str
    title: str
    variants: tuple[str, ...]
    family: str
    order: int = 1000
    positions: Mapping[str, Callable[[], Position]] = field(default_factory=dict)
    default_position: Mapping[str, str] = field(default_factory=dict)
    analysis: Callable[[str], VariantAnalysis] | None = None
    rules_class: Callable[[str], type[VariantRules]] | None = None
    config: ConfigFactory | None = None
    options: tuple[Option, ...] = ()
    players: Mapping[str, PlayerFactory] = field(default_factory=dict)
    driver: Callable[[GameConfig], Driver] | None = None
    #: the top of the game's strength ladder (docs/decisions.md, "decide"): one line to
    #: change when a stronger player is measured
    strongest: str | None = None
    player_notes: Mapping[str, str] = field(default_factory=dict)
    player_aliases: Mapping[str, str] = field(default_factory=dict)
    player_view: PlayerView | None = None
    player_for_rules: Callable[[Player, GameConfig], Player] | None = None
    default_grid: tuple[str, str, str] | None = None
    default_placement: float = 0.0
    shot_options: tuple[Option, ...] = ()
    shot_position: Callable[[Position, Mapping[str, OptionValue]], Position] | None = None
    #: the turn state is each game's own type (its rules' ``turn_type``); called as
    #: ``shot_turn(options, turn)`` (``turn``: the position's, or None)
    shot_turn: Callable[..., object] | None = None
    #: each command takes its own options as keywords and returns its own result (KOOBA's
    #: estimate: a table; its shot map: a summary)
    commands: Mapping[str, Callable[..., object]] = field(default_factory=dict)
    plain_break: bool = False
    physics: bool = True
    points_notes: Mapping[str, str] = field(default_factory=dict)
    bench_scenarios: Mapping[str, Callable[[], ShotScenario]] = field(default_factory=dict)
    game_sets: tuple[GameSet, ...] = ()
    explorer: Callable[[], type] | None = None
    #: the shot-analysis hooks built so far, by variant (:meth:`analysis_of`)
    _analyses: dict[str, VariantAnalysis] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if not self.variants:
            raise CarromlabError(f"game {self.name!r} declares no variants")
        # each part named by its dotted path, bound to this game and field (frozen: set once)
        for name in _CALLABLE_FIELDS:
            object.__setattr__(self, name, _bind(getattr(self, name), self.name, name))
        for name in _MAPPING_FIELDS:
            bound = {k: _bind(v, self.name, name) for k, v in getattr(self, name).items()}
            object.__setattr__(self, name, bound)
        for v, pos in self.default_position.items():
            if v not in self.variants or pos not in self.positions:
                raise CarromlabError(
                    f"game {self.name!r}: default position {pos!r} of {v!r} is not one of its "
                    "variants' standard positions"
                )
        for v in self.points_notes:
            if v not in self.variants:
                raise CarromlabError(f"game {self.name!r}: points note for {v!r}, not a variant")
        for policy in self.player_notes:
            if policy not in self.players:
                raise CarromlabError(
                    f"game {self.name!r}: a note for {policy!r}, not one of its players "
                    f"({', '.join(self.players)})"
                )
        if self.strongest is not None and self.strongest not in self.players:
            raise CarromlabError(
                f"game {self.name!r}: its strongest player {self.strongest!r} is not one of its "
                f"players ({', '.join(self.players)})"
            )

    @property
    def decides(self) -> bool:
        """Whether :func:`~carromlab.analysis.decide.decide` decides its strokes: it has shot
        analysis, players and a rule configuration (not KOOBA: its throws are aimed at
        points)."""
        return self.analysis is not None and bool(self.players) and self.config is not None

    def analysis_of(self, variant: str | None = None) -> VariantAnalysis:
        """The shot-analysis hooks of ``variant`` (default: the first;
        :class:`~carromlab.analysis.variants.VariantAnalysis`), built on first use and kept:
        one object per variant, which a command resolves once and passes down. One line
        (:class:`CarromlabError`) for a game without shot analysis."""
        variant = self.check_variant(variant)
        if variant not in self._analyses:
            if self.analysis is None:
                have = [v for g in GAMES.values() if g.analysis is not None for v in g.variants]
                raise CarromlabError(
                    f"shot analysis for variant {variant!r} is not available "
                    f"(available: {', '.join(have)})"
                )
            self._analyses[variant] = self.analysis(variant)
        return self._analyses[variant]

    def make_config(self, variant: str | None = None, **options: object) -> GameConfig:
        """The rule configuration of ``variant`` (default: the first) with ``options``."""
        variant = self.check_variant(variant)
        if self.config is None:
            raise CarromlabError(f"whole games are not available for {variant!r}")
        return self.config(variant, **options)

    def make_player(self, policy: str, skill: str = "club", variant: str | None = None) -> Player:
        """The player ``policy`` (a name of :attr:`players`) at ``skill``."""
        if policy not in self.players:
            raise CarromlabError(
                f"unknown policy {policy!r} for {self.name}; use {', '.join(self.players)}"
            )
        return self.players[policy](skill=skill, variant=self.check_variant(variant))

    def player_note(self, policy: str) -> str:
        """What the player ``policy`` plays, in one line: its note (:attr:`player_notes`),
        else the first sentence of its factory's docstring (the factory imported), else ""."""
        if policy not in self.players:
            raise CarromlabError(f"{policy!r} is not a player of {self.name}")
        note = self.player_notes.get(policy)
        if note:
            return note
        factory = self.players[policy]
        target = factory.resolve() if isinstance(factory, Part) else factory
        return first_sentence(inspect.getdoc(target) or "")

    def policy_name(self, policy: str) -> str:
        """``policy``, with :data:`STRONGEST` read as the game's strongest player
        (:attr:`strongest`; else ``greedy``, else its first player)."""
        if policy != STRONGEST:
            return policy
        if self.strongest is not None:
            return self.strongest
        if "greedy" in self.players or not self.players:
            return "greedy"
        return next(iter(self.players))

    def check_variant(self, variant: str | None) -> str:
        if variant is None:
            return self.variants[0]
        if variant not in self.variants:
            raise CarromlabError(
                f"{variant!r} is not a variant of {self.name} ({', '.join(self.variants)})"
            )
        return variant


#: The fields of :class:`Game` that hold one part (a callable or a dotted path).
_CALLABLE_FIELDS = (
    "analysis",
    "rules_class",
    "config",
    "driver",
    "player_view",
    "player_for_rules",
    "shot_position",
    "shot_turn",
    "explorer",
)
#: The fields of :class:`Game` that hold parts by name.
_MAPPING_FIELDS = ("positions", "players", "commands", "bench_scenarios")


class FolderParts(TypedDict):
    """The fields of a built-in game's :class:`Game` that its folder gives by the folders'
    convention (:func:`folder_parts`)."""

    name: str
    variants: tuple[str, ...]
    family: str
    positions: dict[str, Part]
    default_position: dict[str, str]
    analysis: Part | None
    rules_class: Part | None
    config: Part
    driver: Part


def folder_parts(
    package: str,
    stem: str,
    family: str,
    *,
    variants: tuple[str, ...] = (),
    positions: Mapping[str, Part] | None = None,
    default_position: Mapping[str, str] | None = None,
    config: str = "",
    analysis: bool = True,
) -> FolderParts:
    """The fields a built-in game's folder ``package`` (its ``__init__``'s ``__name__``,
    ``carromlab.games.<folder>``) gives alike, for ``Game(**folder_parts(...), ...)``: the
    game's name is its folder's (``_`` as ``-``); ``variants``: its variants (default: the
    name alone); ``family``: its board family. Each variant ``V`` opens at the standard
    position ``V-opening``, its default position, made by ``setups.<folder>_opening`` (with
    ``V`` where it is not the name's; none without shot analysis); ``positions`` adds others
    after them, and ``default_position`` names a variant's other default. Its parts: ``parts.analysis`` (the
    shot-analysis hooks; ``analysis=False``: none, nor rules), ``rules.<stem>Rules``,
    ``driver.<stem>Driver``, and the configuration class ``machine.<stem>Config`` (taking no
    variant), or ``config``, a path in the folder (``"parts:config"``) taking the variant."""
    folder = package.rpartition(".")[2]
    name = folder.replace("_", "-")
    variants = variants or (name,)
    opening = f"{package}.setups:{folder}_opening"
    openings = {f"{v}-opening": part(opening, *(() if v == name else (v,))) for v in variants}
    # the position shot analysis uses: none where the game has none
    openings_of = {v: f"{v}-opening" for v in variants} if analysis else {}
    return FolderParts(
        name=name,
        variants=variants,
        family=family,
        positions={**openings, **(positions or {})},
        default_position={**openings_of, **(default_position or {})},
        analysis=part(f"{package}.parts:analysis") if analysis else None,
        rules_class=part(f"{package}.rules:{stem}Rules") if analysis else None,
        config=part(f"{package}.{config}")
        if config
        else part(f"{package}.machine:{stem}Config", takes_variant=False),
        driver=part(f"{package}.driver:{stem}Driver"),
    )


#: What the players several games share play (:attr:`Game.player_notes`), by policy name.
SHARED_NOTES: Mapping[str, str] = {
    "greedy": "the best of its candidate shots, screened then re-estimated",
    "greedy-break": "greedy with the searched break",
    "learned": "a learned screen in front of a kernel race of its top picks, "
    "with the searched break",
    "random": "a random legal shot",
}


def shared_notes(*policies: str) -> dict[str, str]:
    """The notes of ``policies`` in :data:`SHARED_NOTES`, by policy name."""
    return {p: SHARED_NOTES[p] for p in policies}


def breaking(path: str, /, **fixed: object) -> Part:
    """A player class (taking no variant) with the searched break (``break_shot="search"``)
    and the ``fixed`` keywords (:func:`part`)."""
    return Part(path, (), {"break_shot": "search", **fixed}, takes_variant=False)


#: The ring-out players' policies and notes (``carromlab.analysis.crokinole``: Force Out's
#: and Circle Scores', each under the game's own names).
RING_OUT_NOTES: Mapping[str, str] = {
    **shared_notes("greedy"),
    "greedy-race": "greedy racing twice the candidates",
    "search": "greedy's candidates on the map search",
    **shared_notes("random"),
}


class RingOut(TypedDict):
    """The ring-out players' fields of a game's :class:`Game` (:func:`ring_out_players`)."""

    players: dict[str, Part]
    player_notes: Mapping[str, str]


def ring_out_players(path: str) -> RingOut:
    """The ring-out players of a game and their notes (:data:`RING_OUT_NOTES`): ``path``,
    its folder's ``player(policy, skill)``, with each policy."""
    players = {p: part(path, p, takes_variant=False) for p in RING_OUT_NOTES}
    return RingOut(players=players, player_notes=RING_OUT_NOTES)


_GAMES: dict[str, Game] = {}
_VARIANTS: dict[str, str] = {}
_loaded = False


def _load_builtin() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in builtin_modules():
            # the one import of a game by name below the games layer: the built-in game
            # folders, found on disk (tests/test_architecture.py allows this one)
            importlib.import_module(module)
        _sort()


def _sort() -> None:
    """The registry in listing order (:attr:`Game.order`, then name); stable otherwise."""
    ordered = sorted(_GAMES.values(), key=lambda g: (g.order, g.name))
    _GAMES.clear()
    _GAMES.update((g.name, g) for g in ordered)


def register_game(game: Game, replace: bool = False) -> Game:
    """Add ``game`` to the registry (and its piece sets to the equipment's); a name or a
    variant already taken by another game is refused unless ``replace``. Returns the game."""
    from carromlab.equipment.sets import add_game_set

    for v in game.variants:
        owner = _VARIANTS.get(v)
        if owner is not None and owner != game.name and not replace:
            raise CarromlabError(f"variant {v!r} belongs to game {owner!r} already")
    if game.name in _GAMES and not replace and _GAMES[game.name] is not game:
        raise CarromlabError(f"a game named {game.name!r} is registered already")
    if game.name in _GAMES:
        unregister_game(game.name)
    for s in game.game_sets:
        add_game_set(s)
    _GAMES[game.name] = game
    for v in game.variants:
        _VARIANTS[v] = game.name
    return game


def unregister_game(name: str) -> None:
    """Remove a game added with :func:`register_game` (its piece sets too)."""
    from carromlab.equipment.sets import remove_game_set

    game = _GAMES.pop(name)
    for v in game.variants:
        _VARIANTS.pop(v, None)
    for s in game.game_sets:
        remove_game_set(s.variant)


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
    """Every registered game's name, in listing order."""
    _load_builtin()
    return list(_GAMES)


def variant_names() -> list[str]:
    """Every registered variant, game by game."""
    _load_builtin()
    return [v for g in _GAMES.values() for v in g.variants]


class _Games(Mapping[str, Game]):
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


class _Standard(Mapping[str, Callable[[], "Position"]]):
    """Every game's standard positions, name -> factory, in the games' order."""

    def _all(self) -> dict[str, Callable[[], Position]]:
        _load_builtin()
        out: dict[str, Callable[[], Position]] = {}
        for g in _GAMES.values():
            out.update(g.positions)
        return out

    def __getitem__(self, name: str) -> Callable[[], Position]:
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


def shot_analysis(variant: str) -> VariantAnalysis:
    """The shot-analysis hooks of ``variant``
    (:class:`~carromlab.analysis.variants.VariantAnalysis`), looked up by name: its game's
    :meth:`Game.analysis_of` (a caller holding the game asks it, or takes the object it was
    handed)."""
    return get_game(variant).analysis_of(variant)


def decide_variants() -> list[str]:
    """The variants whose strokes :func:`~carromlab.analysis.decide.decide` decides: every
    game's with shot analysis, players and a rule configuration (not KOOBA's: its throws are
    aimed at points, not played from a position)."""
    return [v for g in GAMES.values() if g.decides for v in g.variants]


def check_decides(variant: str, game: Game | None = None) -> Game:
    """The game of ``variant`` (``game``, when the caller holds it); a variant
    :func:`decide_variants` leaves out refused in one line naming those it holds."""
    _load_builtin()
    if game is None and variant in _VARIANTS:
        game = get_game(variant)
    if game is None or not game.decides or variant not in game.variants:
        have = decide_variants()
        raise CarromlabError(
            f"decide is not available for {variant!r}: it decides the strokes of {', '.join(have)}"
        )
    return game


def rules_class(variant: str) -> type[VariantRules] | None:
    """The rules class (a :class:`~carromlab.rules.outcome.VariantRules` subclass) that
    serves ``variant``, as its game declares it (:attr:`Game.rules_class`), imported without
    JAX. The command line reads the names of a variant's values from it before anything is
    computed. None where the game declares none (the value is then checked after the
    run)."""
    game = get_game(variant)
    if game.rules_class is None:
        return None
    return game.rules_class(game.check_variant(variant))


def position_turn(position: Position) -> object:
    """The rules' turn state ``position`` is played under, through its game's rules class
    (:attr:`Game.rules_class`, imported without JAX): its ``turn`` fields as the rules'
    turn type, or the default turn when it has none; None for a game without a turn state
    (KOOBA) and no fields. One line (:class:`CarromlabError`) for a turn the game does not
    take: a turn on a game without one, an unknown field (naming the known ones), a value of
    the wrong type or out of the turn type's range (:mod:`carromlab.rules.turns`)."""
    from carromlab.rules.turns import turn_from_fields

    rules = rules_class(position.variant)
    turn_type = None if rules is None else rules.turn_type
    return turn_from_fields(turn_type, position.turn, position.variant)


def bench_scenario(name: str) -> ShotScenario | None:
    """The kernel benchmark's scenario ``name``, from the game that provides it (None: no
    game does)."""
    for game in GAMES.values():
        if name in game.bench_scenarios:
            return game.bench_scenarios[name]()
    return None


def bench_scenario_names() -> list[str]:
    """Every game's benchmark scenarios, in the games' order."""
    return [n for g in GAMES.values() for n in g.bench_scenarios]


__all__ = [
    "GAMES",
    "STANDARD",
    "STRONGEST",
    "ConfigFactory",
    "Game",
    "Option",
    "OptionValue",
    "Part",
    "PlayerFactory",
    "PlayerView",
    "ShotScenario",
    "bench_scenario",
    "bench_scenario_names",
    "builtin_modules",
    "check_decides",
    "decide_variants",
    "first_sentence",
    "game_names",
    "get_game",
    "parse_grid",
    "parse_pair",
    "part",
    "parts",
    "position_turn",
    "ref",
    "register_game",
    "rules_class",
    "shot_analysis",
    "standard_names",
    "standard_position",
    "unregister_game",
    "variant_names",
]
