# mypy: disallow-untyped-defs, disallow-incomplete-defs, disallow-untyped-calls
# mypy: check-untyped-defs, disallow-any-generics, warn-return-any, strict-equality
"""A toy game defined outside the package: "Pot Three" on the ICF board. Three neutral coins
lie in a row; players take turns (a pot keeps the turn), a coin down is a point, a striker
down costs a point, and the game ends when the coins are gone or after ``max_strokes``.

It touches no file of the package: its rules, machine, player, driver, set-up and piece set
live here, its ``Game`` names them by dotted path (``registry.part``: this module's classes
and functions, imported when first used), and :func:`register` adds it to the registry
(tests/test_toy_game.py). A built-in game is the same declaration in its folder's
``__init__.py``. It is written against the typed contract (the registry's ``Game``,
``rules/interfaces.py``'s ``GameMachine``, the game loop's ``TurnedDriver``) and checked by
mypy with the strict flags above (tests/test_typing.py); :func:`_parts` types the parts its
dotted paths name."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from carromlab.analysis.players import Player
from carromlab.analysis.policies import Greedy, RandomLegal
from carromlab.analysis.search import SearchBudget
from carromlab.analysis.variants import VariantAnalysis
from carromlab.equipment import IcfBoard
from carromlab.equipment.base import Board
from carromlab.equipment.sets import GameSet, KindRule
from carromlab.errors import CarromlabError
from carromlab.play.drivers import Driver, TurnedDriver
from carromlab.play.loop import GameInPlay, Row
from carromlab.position import Piece, Position
from carromlab.registry import Game, Option, part, ref, register_game
from carromlab.rules.interfaces import GameConfig, GameMachine, StrokeOutcome
from carromlab.rules.outcome import VariantRules, check_discs, outcome_field

VARIANT = "pot-three"


@dataclass(frozen=True)
class PotTurn:
    shooter: str = "p0"
    own_down: int = 0


@dataclass(frozen=True)
class PotScoring:
    coin: float = 1.0
    foul: float = -1.0


def evaluate(
    capture: ArrayLike,
    position: Position,
    turn: PotTurn | None = None,
    scoring: PotScoring | None = None,
) -> dict[str, np.ndarray]:
    weights = scoring or PotScoring()
    discs = np.atleast_2d(np.asarray(capture))
    check_discs(discs, position.pieces, position)
    pockets = len(position.board.layout.captures)
    potted = ((discs[:, 1:] >= 0) & (discs[:, 1:] < pockets)).sum(axis=1)
    foul = discs[:, 0] >= 0
    return {
        "continues": (potted > 0) & ~foul,
        "foul": foul,
        "potted": potted.astype(np.int64),
        "points": np.where(foul, weights.foul, weights.coin * potted).astype(float),
    }


class PotRules(VariantRules):
    variant = VARIANT
    variants = (VARIANT,)
    turn_type = PotTurn
    scoring_type = PotScoring
    probabilities = ("continues", "foul")
    means = ("potted", "points")

    def evaluate(
        self,
        position: Position,
        outcome_arrays: object,
        turn: PotTurn | None = None,
        scoring: PotScoring | None = None,
    ) -> dict[str, np.ndarray]:
        return evaluate(outcome_field(outcome_arrays, "capture"), position, turn, scoring)


def shot_y(board: Board) -> float:
    if not isinstance(board, IcfBoard):
        raise CarromlabError(f"pot-three is played on the ICF board, not {board.family!r}")
    return -board.half + 0.09


def intervals(board: Board) -> list[tuple[float, float]]:
    return [(-0.2, 0.2)]


def opening(board: IcfBoard | None = None) -> Position:
    board = board or IcfBoard()
    coins = [Piece(f"c{k}", "coin", None, x, 0.15) for k, x in enumerate((-0.2, 0.0, 0.2))]
    return Position(VARIANT, tuple(coins), board, name="pot-three-opening", description="toy")


@dataclass(frozen=True)
class PotConfig:
    max_strokes: int = 30
    board: IcfBoard | None = None
    variant: str = VARIANT
    seats: tuple[str, ...] = ("S", "N")
    n_seats: int = 2


@dataclass(frozen=True)
class PotState:
    position: Position
    player: int = 0
    scores: tuple[int, int] = (0, 0)
    turns: tuple[int, int] = (1, 0)
    strokes: int = 0
    over: bool = False
    winner: int | None = None
    history: tuple[dict[str, int], ...] = field(default=(), repr=False)

    def turn_state(self) -> PotTurn:
        return PotTurn(f"p{self.player}")


def new_game(config: PotConfig | None = None) -> PotState:
    return PotState(opening((config or PotConfig()).board))


def apply(
    state: PotState,
    outcome: StrokeOutcome,
    config: PotConfig | None = None,
    rng: np.random.Generator | None = None,
) -> PotState:
    config = config or PotConfig()
    row = evaluate(outcome.capture[None], state.position)
    down = [p.id for p, c in zip(state.position.pieces, outcome.capture[1:]) if c >= 0]
    left = tuple(
        replace(p, x=float(outcome.final_xy[k + 1, 0]), y=float(outcome.final_xy[k + 1, 1]))
        for k, p in enumerate(state.position.pieces)
        if p.id not in down
    )
    scores = list(state.scores)
    scores[state.player] += int(row["points"][0])
    keep = bool(row["continues"][0])
    player = state.player if keep else 1 - state.player
    turns = list(state.turns)
    if not keep:
        turns[player] += 1
    strokes = state.strokes + 1
    over = not left or strokes >= config.max_strokes
    winner = None
    if over and scores[0] != scores[1]:
        winner = int(np.argmax(scores))
    return PotState(
        state.position.replace(pieces=left),
        player,
        (scores[0], scores[1]),
        (turns[0], turns[1]),
        strokes,
        over,
        winner,
        (*state.history, {"player": state.player, "potted": len(down)}),
    )


#: The machine is this module: its ``new_game`` and ``apply`` are a GameMachine's, checked by
#: mypy through this name (a module conforms to a Protocol by what it holds).
def _machine() -> GameMachine[PotConfig | None, PotState]:
    import toy_game

    return toy_game


class PotGreedy(Greedy):
    def targets(self, position: Position, turn: object) -> list[str]:
        return [p.id for p in position.pieces]


class PotDriver(TurnedDriver):
    # three coins and the striker, padded to the ICF games' own 20 discs (dead discs cost
    # next to nothing): its games run on the program ICF's games compile anyway
    capacity = 20
    board_type = IcfBoard

    def __init__(self, config: PotConfig) -> None:
        super().__init__(config)
        self.pot_config = config
        self.machine = _machine()

    def new_state(self, g: int) -> PotState:
        return self.machine.new_game(self.pot_config)

    def _apply(self, gm: GameInPlay, outcome: StrokeOutcome) -> Row:
        state: PotState = self.machine.apply(gm.state, outcome, self.pot_config)
        gm.state = state
        return dict(state.history[-1])

    def _extra(self, st: PotState, strokes: pd.DataFrame) -> Row:
        return {"potted": self._total(strokes, "potted")}


def _parts() -> tuple[GameConfig, Driver, Player, Player, type[VariantRules]]:
    """The parts the ``Game`` below names by dotted path, as their contracts type them:
    checked by mypy through these annotations (the dotted paths are strings to it)."""
    return PotConfig(), PotDriver(PotConfig()), RandomLegal(), PotGreedy(budget=BUDGET), PotRules


def analysis(variant: str) -> VariantAnalysis:
    """The shot-analysis hooks (the one part that is not a class of this module called as the
    registry calls it)."""
    return VariantAnalysis(variant, PotRules(), "striker", shot_y, intervals)


#: The greedy player's search: a few candidates (three coins).
BUDGET = SearchBudget(max_candidates=8, random_extra=4)

#: This module by the name it was imported under (``toy_game`` from tests/): the parts'
#: dotted paths start with it.
HERE = __name__

GAME = Game(
    name="pot-three",
    title="Pot Three (a toy)",
    variants=(VARIANT,),
    family="icf",
    positions={"pot-three-opening": part(f"{HERE}:opening")},
    default_position={VARIANT: "pot-three-opening"},
    analysis=part(f"{HERE}:analysis"),
    rules_class=part(f"{HERE}:PotRules"),
    config=part(f"{HERE}:PotConfig", takes_variant=False),
    options=(Option("max-strokes", 30, "pot-three: strokes before the game ends.", minimum=1),),
    players={
        "random": part(
            "carromlab.analysis.policies:RandomLegal", takes_variant=False, takes_skill=False
        ),
        "greedy": part(
            f"{HERE}:PotGreedy",
            takes_variant=False,
            capacity=20,
            break_shot=None,
            budget=ref(f"{HERE}:BUDGET"),
        ),
    },
    driver=part(f"{HERE}:PotDriver"),
    default_grid=("-0.2:0.2:5", "60:120:7", "2.0"),
    game_sets=(
        GameSet(
            VARIANT, "Pot Three", "icf", {"coin": KindRule(per_owner=3), "striker": KindRule()}
        ),
    ),
)


def register() -> Game:
    return register_game(GAME)
