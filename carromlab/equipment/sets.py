"""Game sets: which pieces each variant plays with, who owns them, and how many there are.

This is equipment (what comes in the box for each game), not rules; rules live in
``carromlab/rules``. Validation of a position uses it to refuse piece counts a game does not
allow.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from carromlab.equipment.base import Board
from carromlab.equipment.carrooka import COLOURS, CarrookaBoard
from carromlab.equipment.company import CheckerBoard, CrokinoleBoard
from carromlab.equipment.icf import IcfBoard
from carromlab.equipment.kooba import SEATS, KoobaBoard

#: Board classes by family id.
BOARDS: dict[str, type[Board]] = {
    cls.family: cls for cls in (IcfBoard, CheckerBoard, CrokinoleBoard, CarrookaBoard, KoobaBoard)
}


@dataclass(frozen=True)
class KindRule:
    """One kind of piece in a game set.

    ``owners``: the allowed owners (``(None,)`` for neutral pieces); ``per_owner``: at most this
    many per owner; ``total``: at most this many in all (``None``: no extra limit).
    """

    owners: tuple[str | None, ...] = (None,)
    per_owner: int = 1
    total: int | None = None


@dataclass(frozen=True)
class GameSet:
    """The pieces of one variant, on its board family."""

    variant: str
    title: str
    family: str
    kinds: dict[str, KindRule]
    #: Kinds that sit over a peg (Ring Pegs): their centre must be on a peg.
    pegged: frozenset[str] = field(default_factory=frozenset)
    #: Kinds that may lie on top of other pieces (KOOBA's magnetic Aeros).
    stackable: frozenset[str] = field(default_factory=frozenset)

    def default_board(self) -> Board:
        return BOARDS[self.family]()


_TWO = ("red", "green")
_PLAYERS = ("p1", "p2")
_striker = KindRule()

GAME_SETS: dict[str, GameSet] = {
    s.variant: s
    for s in (
        GameSet(
            "icf",
            "Carrom, ICF laws (singles)",
            "icf",
            {"coin": KindRule(("white", "black"), 9), "queen": KindRule(), "striker": _striker},
        ),
        GameSet(
            "icf-doubles",
            "Carrom, ICF laws (doubles)",
            "icf",
            {"coin": KindRule(("white", "black"), 9), "queen": KindRule(), "striker": _striker},
        ),
        GameSet(
            "carrooka",
            "Carrooka",
            "carrooka",
            {
                "red": KindRule(per_owner=15),
                **{c: KindRule() for c in COLOURS},
                "striker": _striker,
            },
        ),
        GameSet(
            "carroms",
            "Carroms (Carrom Company, checker side)",
            "checker",
            {"ring": KindRule(_TWO, 12), "black": KindRule(), "shooter": KindRule(_TWO, 1)},
        ),
        GameSet(
            "force-out",
            "Force Out (Carrom Company, crokinole side)",
            "crokinole",
            {"ring": KindRule(_TWO, 8), "shooter": KindRule(_TWO, 1)},
        ),
        GameSet(
            "force-out-fast",
            "Fast Play Force Out (one shooting ring)",
            "crokinole",
            {"ring": KindRule(_TWO, 8), "shooter": KindRule()},
        ),
        GameSet(
            "ring-pegs",
            "Ring Pegs (Carrom Company, crokinole side)",
            "crokinole",
            {"ring": KindRule(per_owner=8), "shooter": KindRule(_PLAYERS, 1)},
            pegged=frozenset({"ring"}),
        ),
        GameSet(
            "circle-scores",
            "Circle Scores (crokinole side, 5 / 10 points)",
            "crokinole",
            {"ring": KindRule(per_owner=8), "shooter": KindRule(_PLAYERS, 1)},
        ),
        GameSet(
            "kooba",
            "KOOBA",
            "kooba",
            # The box holds 3 Aeros; each lies where it stuck until the thrower picks it up.
            {
                "aero": KindRule(SEATS, 3, total=3),
                "marker": KindRule(SEATS, 1),
                "kooba": KindRule(),
            },
            stackable=frozenset({"aero"}),
        ),
    )
}


def add_game_set(game_set: GameSet) -> None:
    """Add (or replace) the set of a game that brings its own (a game registered outside the
    package: :func:`carromlab.registry.register_game` pushes its sets down here)."""
    GAME_SETS[game_set.variant] = game_set


def remove_game_set(variant: str) -> None:
    """Remove a set added with :func:`add_game_set` (nothing if there is none)."""
    GAME_SETS.pop(variant, None)


def game_set(variant: str) -> GameSet:
    """The game set of ``variant``; a clear error naming the known variants otherwise.

    The built-in games' sets are the table above; a game registered from elsewhere brings
    its own, added when it is registered. This module never looks games up (equipment
    knows no game)."""
    from carromlab.errors import CarromlabError

    try:
        return GAME_SETS[variant]
    except KeyError:
        raise CarromlabError(
            f"unknown variant {variant!r}; known variants: {', '.join(GAME_SETS)}"
        ) from None
