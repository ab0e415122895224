"""The typed options of each command family, one object each: the shot commands
(:class:`EstimateOptions`, :class:`ShotMapOptions`, :class:`BestOptions`, what they share in
:class:`ShotOptions`), whole games (:class:`PlayOptions`) and a player's decision
(:class:`DecideOptions`).

Each is a frozen dataclass holding its command's defaults, checked when it is made: every
number against its one bound (:data:`carromlab.input_schema.FLAGS`, grids against
:data:`~carromlab.input_schema.GRIDS`), the first problem as one line naming the option and
its value (``--n 0: must be at least 1``), before anything is computed. The command line
reads its defaults from here (``typer.Option(ShotMapOptions.n, ...)``), builds one from its
arguments and hands it to the report (``ShotMapReport.from_options(options)``,
``PlayReport.run(options, out)``); a notebook builds the same object. So a number's default
and its check are written once.

What needs the registry (a variant's game, a skill's or a policy's name, a game's own
options, a position by name) is checked where the registry is at hand: the command line's
:mod:`carromlab.cli.checks` and the library's :mod:`carromlab.shot_setup`. Nothing here
imports the registry or JAX.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from carromlab.input_schema import check_flags, parse_grid


@dataclass(frozen=True)
class CommandOptions:
    """What every family's options do: check their numbers when made (:meth:`check`), and
    give the keywords their run takes (:meth:`keywords`)."""

    #: The numeric fields, in the order they are checked (a grid's text first, as the
    #: command line has always checked them), each bounded by its name in ``FLAGS``/``GRIDS``.
    NUMBERS: ClassVar[tuple[str, ...]] = ()
    #: The fields the family's run takes as keywords (:meth:`keywords`).
    RUN: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Every number against its bound: one :class:`~carromlab.errors.CarromlabError`
        line naming the first option out of range and its value (None: not given)."""
        check_flags(**{name: getattr(self, name) for name in self.NUMBERS})

    def keywords(self) -> dict[str, Any]:
        """The run's keywords (:attr:`RUN`), by name."""
        return {name: getattr(self, name) for name in self.RUN}

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# ---------------------------------------------------------------------- the shot commands


@dataclass(frozen=True)
class ShotOptions(CommandOptions):
    """What ``estimate``, ``shotmap`` and ``best`` share: the ``variant`` and the
    ``position`` (a standard position's name or a JSON file; None: the variant's default),
    the execution ``skill``, ``n`` noisy shots (each command its own default), the root
    ``seed``, ``chunk`` shots per kernel batch (results do not depend on it) and
    ``hand_set``: metres the pieces of an opening set by hand move per shot (None: the
    default, 0.0003; 0: off)."""

    variant: str = "icf"
    position: str | None = None
    skill: str = "club"
    n: int = 10_000
    seed: int = 0
    chunk: int = 4096
    hand_set: float | None = None

    NUMBERS: ClassVar[tuple[str, ...]] = ("n", "seed", "chunk", "hand_set")
    RUN: ClassVar[tuple[str, ...]] = ("skill", "n", "seed", "chunk", "hand_set")


@dataclass(frozen=True)
class EstimateOptions(ShotOptions):
    """``estimate``: one shot from ``placement`` (metres on a line, degrees on a circle;
    None: the game's default placement), aimed at ``angle`` degrees counter-clockwise from
    +x, at ``speed`` m/s, played ``n`` times. ``angle`` and ``placement`` may be
    :class:`~carromlab.input_schema.Quantity` values (a number with the unit it was written
    in), whose text the warnings quote."""

    placement: float | None = None
    angle: float = 90.0
    speed: float = 2.0

    NUMBERS: ClassVar[tuple[str, ...]] = (
        "placement",
        "angle",
        "speed",
        *ShotOptions.NUMBERS,
    )


@dataclass(frozen=True)
class ShotMapOptions(ShotOptions):
    """``shotmap``: a grid of shots, ``n`` a cell. ``placements``, ``angles``, ``speeds``:
    ``START:STOP:COUNT`` or a list, as written (None: the game's grid, its
    ``Game.default_grid``); ``value``: the column the summary and the figures pick the best
    cell by; ``story``: tell the best cell's story."""

    n: int = 200
    placements: str | None = None
    angles: str | None = None
    speeds: str | None = None
    value: str = "points"
    story: bool = True

    NUMBERS: ClassVar[tuple[str, ...]] = (
        *ShotOptions.NUMBERS,
        "placements",
        "angles",
        "speeds",
    )
    RUN: ClassVar[tuple[str, ...]] = (*ShotOptions.RUN, "value", "story")


@dataclass(frozen=True)
class BestOptions(ShotOptions):
    """``best``: the ``top`` best shots by ``value``. The search's own grid over ``speeds``
    (a list or ``START:STOP:COUNT``, as written; the default shot map's grid is searched
    too), ``n_grid`` shots a cell, ``iterations`` of cross-entropy with ``population``
    candidates of ``n_cem`` shots, and ``n`` fresh shots for each reported shot."""

    n: int = 2000
    value: str = "points"
    speeds: str = "1.0,2.0,3.5"
    n_grid: int = 32
    iterations: int = 3
    population: int = 48
    n_cem: int = 64
    top: int = 5

    NUMBERS: ClassVar[tuple[str, ...]] = (
        "speeds",
        "n_grid",
        "iterations",
        "population",
        "n_cem",
        "top",
        *ShotOptions.NUMBERS,
    )
    RUN: ClassVar[tuple[str, ...]] = (
        *ShotOptions.RUN,
        "value",
        "n_grid",
        "iterations",
        "population",
        "n_cem",
        "top",
    )

    @property
    def speed_values(self) -> list[float]:
        """The search's speeds (m/s), read from :attr:`speeds`."""
        return parse_grid(self.speeds, "speeds")

    def keywords(self) -> dict[str, Any]:
        return {**super().keywords(), "speeds": self.speed_values}


# ---------------------------------------------------------------------- whole games


@dataclass(frozen=True)
class PlayOptions(CommandOptions):
    """``play``: ``games`` whole games of ``variant`` between its ``policy`` players (a name
    of the game's players, or ``strongest``) at ``skill``, from the root ``seed``, ``slots``
    of them in play at once (one kernel batch)."""

    variant: str = "icf"
    games: int = 1
    policy: str = "greedy"
    skill: str = "club"
    seed: int = 0
    slots: int = 256

    NUMBERS: ClassVar[tuple[str, ...]] = ("games", "seed", "slots")


# ---------------------------------------------------------------------- a decision


@dataclass(frozen=True)
class DecideOptions(CommandOptions):
    """``decide``: ``policy``'s stroke at ``position`` (a name or a file; None: the
    variant's default) of ``variant`` (None: the position's; icf without a position), its
    search at ``skill`` from ``seed``, re-estimated with ``n`` fresh executions."""

    position: str | None = None
    policy: str = "greedy"
    variant: str | None = None
    skill: str = "club"
    seed: int = 0
    n: int = 20_000

    NUMBERS: ClassVar[tuple[str, ...]] = ("seed", "n")
    RUN: ClassVar[tuple[str, ...]] = ("policy", "skill", "seed", "n")


__all__ = [
    "BestOptions",
    "CommandOptions",
    "DecideOptions",
    "EstimateOptions",
    "PlayOptions",
    "ShotMapOptions",
    "ShotOptions",
]
