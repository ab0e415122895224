"""What a game declares besides its parts (:class:`carromlab.registry.Game`): its own
command-line options (:class:`Option`), the call types its parts take (``config``, players,
``player_view``), its benchmark scenarios (:class:`ShotScenario`), and the parsing of the
options' pairs and grids. The registry names each of these too."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from carromlab.errors import CarromlabError
from carromlab.input_schema import MAX_COUNT

if TYPE_CHECKING:  # pragma: no cover
    import jax

    from carromlab.analysis.players import Player
    from carromlab.position import Position
    from carromlab.rules.interfaces import GameConfig
    from carromlab.shots import Shot

#: What one of a game's own command-line options holds.
OptionValue = bool | int | float | str


class ConfigFactory(Protocol):
    """``config(variant, **options)``: a game's rule configuration of ``variant``; the
    options are fields of the configuration (its command-line options' and any other)."""

    def __call__(self, variant: str, /, **options: object) -> GameConfig: ...


class PlayerFactory(Protocol):
    """``factory(skill=..., variant=...)``: one of a game's players at ``skill`` (a name of
    :data:`carromlab.shots.SKILLS`) for ``variant``."""

    def __call__(self, skill: str = ..., variant: str | None = ...) -> Player: ...


class PlayerView(Protocol):
    """``player_view(position, turn, config)``: what a game's player sees at ``position``
    taken as given (the shooter playing from the South), and the turn context it plans
    under, ``(view, turn)``; ``turn`` is the rules' turn state of the position, ``config``
    the game's rule configuration."""

    def __call__(
        self, position: Position, turn: object, config: GameConfig, /
    ) -> tuple[object, object]: ...


#: A shot's execution noise: ``noise(key, shot)`` is the shot as played (``carromlab.shots``).
Noise = Callable[["jax.Array", "Shot"], "Shot"]


@dataclass(frozen=True)
class ShotScenario:
    """A benchmark scenario of the kernel (``carromlab bench --scenario NAME``): a position,
    a base shot and its execution noise."""

    position: Position
    shot: Shot
    noise: Noise


def first_sentence(text: str) -> str:
    """The first sentence of ``text``'s first paragraph, on one line, as plain text (a
    cross-reference ``:class:`~a.B``` as ``B``, ````literal```` as ``literal``)."""
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    paragraph = re.sub(r":[a-z]+:`~?(?:[\w.]+\.)?([^`.]+)`", r"\1", paragraph).replace("``", "")
    head, dot, _ = paragraph.partition(". ")
    return head + "." if dot else paragraph


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
    default: OptionValue
    help: str
    field: str | None = None
    type: type[bool] | type[int] | type[float] | type[str] | None = None
    variants: tuple[str, ...] | None = None
    choices: tuple[OptionValue, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    @property
    def key(self) -> str:
        return self.field or self.name.replace("-", "_")

    def parse(self, text: str | bool, game: str) -> OptionValue:
        """The option's value from its command-line text; one clear line if it is not one."""
        kind = self.type or type(self.default)
        value: OptionValue
        if kind is bool:
            value = bool(text)
        else:
            if kind in (int, float):  # one rule for every number: ASCII digits only
                from carromlab.input_schema import check_ascii

                check_ascii(str(text), f"{self.name} ({game})")
            try:
                value = kind(text)
            except (TypeError, ValueError):
                raise CarromlabError(
                    f"--{self.name} ({game}) must be {kind.__name__}, not {text!r}"
                ) from None
            if isinstance(value, float) and not math.isfinite(value):
                raise CarromlabError(f"--{self.name} ({game}) {text!r}: must be finite")
            if (
                kind is int
                and isinstance(value, int)
                and self.maximum is None
                and value > MAX_COUNT
            ):
                raise CarromlabError(
                    f"--{self.name} ({game}) {value:,}: must be at most {MAX_COUNT:,}"
                )
        if self.choices is not None and value not in self.choices:
            raise CarromlabError(
                f"--{self.name} ({game}) must be one of {', '.join(map(str, self.choices))}, "
                f"not {value!r}"
            )
        if isinstance(value, str):
            return value
        if self.minimum is not None and value < self.minimum:
            raise CarromlabError(f"--{self.name} ({game}) must be >= {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise CarromlabError(f"--{self.name} ({game}) must be <= {self.maximum}, not {value}")
        return value
