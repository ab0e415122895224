"""The game loop: many whole games at once on the kernel, for any registered game.

Each stroke: the game's driver shows the player on turn its view (the board turned so that
they sit South, for the sliding-disc games), the player's plan yields asks (noisy shots to
estimate) and returns a decision, one noisy execution of it runs, and the driver applies the
result through the game's machine. Seeds: stroke ``k`` of game ``g`` gets the seed
``SeedSequence([seed, g, k])``; its player derives its own keys from it and the execution
uses ``fold_in(fold_in(key(that seed), 0), 0)``; what the rules leave to chance in game ``g``
uses ``SeedSequence([seed, g])``. A game depends only on the seed and its index.

Many games are played together (:func:`play_games`): every round, the pending asks of every
game in play (players' screens and the strokes' executions) go to the driver's evaluator
(the kernel, :class:`~carromlab.analysis.asks.Evaluator`) as one batch; each game's numbers
stay its own. The loop knows no game: it finds the driver of a rule configuration in the
registry (:func:`driver_for`), by the configuration's ``variant``; a configuration is always
given (the loop has no default game).

Types: the loop carries three things of each game's own type without looking inside, typed
``Any`` for that reason: a driver's record of a game in play (``GameInPlay.state``: the game
machine's state, or KOOBA's driver record), what the player on strike sees and the rules'
turn state (``view``, ``turn``), and the asks and answers that pass between a driver's plans
and its evaluator (the kernel's :class:`~carromlab.analysis.asks.Ask`, KOOBA's throws).
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pandas as pd

from carromlab.analysis.asks import Evaluator
from carromlab.analysis.players import Decision, Plan, Player, decided
from carromlab.errors import CarromlabError
from carromlab.physics.kernel import LANES
from carromlab.rules.interfaces import GameConfig, GameState
from carromlab.shots import Skill
from carromlab.shots import skill as skill_named

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.physics.params import Physics
    from carromlab.play.drivers import Driver

#: A row of a tidy table (a stroke's, a board's, a game's): column -> value.
Row = dict[str, object]
#: One skill for every seat, or one per seat (a :class:`~carromlab.shots.Skill` or its name).
Skills = str | Skill | Sequence[str | Skill]


@dataclass
class GameRecord:
    """One game: its final state, one row per stroke and one row per board."""

    state: GameState
    strokes: pd.DataFrame
    boards: pd.DataFrame
    #: The game's row (:func:`game_row`), when the variant's driver builds its own.
    row: Row | None = None


@dataclass
class GameInPlay:
    """One game while the loop plays it (what a driver reads and writes)."""

    index: int  #: the game's index (its seeds derive from it)
    state: Any  #: the game machine's state (KOOBA: the driver's record of the game)
    rng: np.random.Generator  #: the game's generator for what the rules leave to chance
    k: int = 0  #: strokes executed so far
    plan: Plan | None = None  #: the player's plan for the stroke in hand
    asks: list[Any] | None = None  #: the asks waiting for the next kernel batch
    many: bool = False  #: the plan yielded a list of asks (it receives a list of answers)
    executing: bool = False  #: the asks are the stroke's execution, not the plan's
    seat: int = 0  #: who is on strike (KOOBA: the entrant)
    view: Any = None  #: what the player on strike sees
    turn: Any = None  #: the rules' turn state of the stroke
    stroke_seed: int = 0  #: the stroke's seed (:func:`stroke_seed`)
    note: Row | None = None  #: what the player's decision noted (Carrooka'd options)
    #: the seats' players (a driver may ask another seat, e.g. to place)
    policies: Sequence[Player] | None = None
    strokes: list[Row] = field(default_factory=list)  #: one row per executed stroke
    boards: list[Row] = field(default_factory=list)  #: one row per finished board


class AskEvaluator(Protocol):
    """What answers a driver's asks, one batch a round: the kernel's
    :class:`~carromlab.analysis.asks.Evaluator`, or a driver's own (``Driver.evaluator``)."""

    shots_run: int

    def answer(self, asks: list[Any]) -> Sequence[Any]: ...


def _seat_skills(skill: Skills, n_seats: int) -> list[Skill]:
    names: list[str | Skill] = [skill] * n_seats if isinstance(skill, (str, Skill)) else list(skill)
    if len(names) != n_seats:
        raise CarromlabError(f"give one skill or one per seat ({n_seats}), not {len(names)}")
    return [s if isinstance(s, Skill) else skill_named(s) for s in names]


def _evaluator_for(
    driver: Driver, seed: int, lanes: int, physics: Physics | None, hand_set: float | None
) -> AskEvaluator:
    """What answers :func:`play_games`' asks: the game's own (a game with its own kernel:
    KOOBA's throws), else the sliding-disc kernel's :class:`Evaluator`."""
    make_evaluator: Callable[..., AskEvaluator] | None = getattr(driver, "evaluator", None)
    if make_evaluator is not None:
        return make_evaluator(seed=seed, lanes=lanes, physics=physics)
    return Evaluator(
        driver.layout, driver.capacity, lanes=lanes, physics=physics, hand_set=hand_set
    )


def _finish_stroke(
    driver: Driver,
    gm: GameInPlay,
    answer: Any,
    on_stroke: Callable[[Any], object] | None,
    max_strokes: int,
) -> bool:
    """A game's stroke executed (``answer``): the driver applies it and the game waits for its
    next decision; True when the game is over (or at ``max_strokes``)."""
    driver.finish(gm, answer, on_stroke)
    gm.k += 1
    gm.asks = None
    gm.executing = False
    return bool(driver.over(gm) or gm.k >= max_strokes)


def play_games(
    policies: Sequence[Player],
    config: GameConfig,
    skill: Skills = "club",
    seed: int = 0,
    games: int | Iterable[int] = 1,
    slots: int = 256,
    max_strokes: int = 5000,
    on_stroke: Callable[[Any], object] | None = None,
    on_game: Callable[[GameRecord], object] | None = None,
    progress: bool = False,
    lanes: int = LANES,
    physics: Physics | None = None,
    stats: dict[str, int] | None = None,
    driver: Driver | None = None,
    hand_set: float | None = None,
) -> list[GameRecord]:
    """Play many games at once; ``games`` is a count or an iterable of game indices.

    ``config`` is the game's rule configuration (any registered game's); its game's driver
    plays it, or ``driver`` when given. ``policies`` has one policy
    per seat; ``skill`` is one skill or one per seat (the execution noise of the real strokes;
    a policy's own estimates use its own skill). Up to ``slots`` games are in play together:
    every round, the pending asks of all of them (policy screens, the strokes' executions) go
    to the kernel as one batch; a finished game's slot takes the next game. A game depends
    only on ``seed`` and its index, never on the others. ``on_stroke(state)`` is called after
    every stroke (with the driver's record of the game), ``on_game(record)`` when a game ends (in the order games end). Returns the
    records in the order of ``games``; a ``stats`` dict receives the number of simulated
    shots (``shots``) and rounds (``rounds``). ``hand_set``: how far the pieces of a
    position set by hand (each board's opening) move per shot (m; ``None``:
    :data:`~carromlab.shots.HAND_SET`; 0: off).
    """
    from tqdm import tqdm

    driver = driver if driver is not None else driver_for(config)
    if len(policies) != driver.n_seats:
        raise CarromlabError(f"give one policy per seat ({driver.n_seats}), not {len(policies)}")
    skills = _seat_skills(skill, driver.n_seats)
    order = list(range(int(games))) if isinstance(games, (int, np.integer)) else list(games)
    evaluator = _evaluator_for(driver, seed, lanes, physics, hand_set)
    waiting = deque(order)
    active: list[GameInPlay] = []
    done: dict[int, GameRecord] = {}
    bar = tqdm(total=len(order), desc="games", unit="game", disable=not progress)
    rounds = 0
    while waiting or active:
        while waiting and len(active) < max(1, int(slots)):
            g = waiting.popleft()
            rng = np.random.default_rng(np.random.SeedSequence([seed, g]))
            active.append(GameInPlay(g, driver.new_state(g), rng))
        pending: list[list[Any]] = []
        for gm in active:
            if gm.asks is None:
                _start(driver, gm, policies, skills, seed)
            pending.append(_asks(gm))
        flat = evaluator.answer([a for asks in pending for a in asks])
        rounds += 1
        still = []
        at = 0
        for gm, asks in zip(active, pending):
            answers, at = flat[at : at + len(asks)], at + len(asks)
            if not gm.executing:
                _advance(driver, gm, answers if gm.many else answers[0], policies, skills, seed)
            elif _finish_stroke(driver, gm, answers[0], on_stroke, max_strokes):
                rec = driver.record(gm)
                done[gm.index] = rec
                if on_game is not None:
                    on_game(rec)
                bar.update(1)
                continue
            still.append(gm)
        active = still
        bar.set_postfix(shots=evaluator.shots_run, refresh=False)
    bar.close()
    if stats is not None:
        stats.update(shots=evaluator.shots_run, rounds=rounds)
    return [done[g] for g in order]


def play_game(
    policies: Sequence[Player],
    config: GameConfig,
    skill: Skills = "club",
    seed: int = 0,
    game: int = 0,
    max_strokes: int = 5000,
    on_stroke: Callable[[Any], object] | None = None,
) -> GameRecord:
    """Play one game (see :func:`play_games`; the same game as there, stroke for stroke)."""
    return play_games(
        policies, config, skill, seed, [game], max_strokes=max_strokes, on_stroke=on_stroke
    )[0]


def stroke_seed(seed: int, game: int, k: int) -> int:
    """The seed of stroke ``k`` of game ``game``."""
    return int(np.random.SeedSequence([seed, game, k]).generate_state(1)[0] >> 1)


def _asks(gm: GameInPlay) -> list[Any]:
    if gm.asks is None:  # pragma: no cover - every game in play has asks after _start
        raise RuntimeError(f"game {gm.index} has no asks")
    return gm.asks


def _start(
    driver: Driver, gm: GameInPlay, policies: Sequence[Player], skills: list[Skill], seed: int
) -> None:
    gm.stroke_seed = stroke_seed(seed, gm.index, gm.k)
    gm.plan = driver.plan(gm, policies)
    gm.executing = False
    _advance(driver, gm, None, policies, skills, seed)


def _advance(
    driver: Driver,
    gm: GameInPlay,
    answer: Any,
    policies: Sequence[Player],
    skills: list[Skill],
    seed: int,
) -> None:
    """Send the answer to the plan; queue its next asks (a plan may yield one ask or a list),
    or the execution of its decision (a driver may instead restart the stroke)."""
    plan = gm.plan
    if plan is None:  # pragma: no cover - _start sets the plan before the first answer
        raise RuntimeError(f"game {gm.index} has no plan")
    try:
        nxt = next(plan) if answer is None else plan.send(answer)
        gm.many = isinstance(nxt, (list, tuple))
        gm.asks = list(nxt) if gm.many else [nxt]
    except StopIteration as stop:
        gm.plan = None
        decision: Decision = decided(stop.value)
        ask = driver.execution(gm, decision, skills)
        if ask is None:  # the decision changed whose stroke it is: plan again
            _start(driver, gm, policies, skills, seed)
            return
        gm.asks = [ask]
        gm.many = False
        gm.executing = True


def single_board(config: GameConfig) -> tuple[GameConfig, bool]:
    """``config`` cut to one board where the game plays boards (a ``max_boards`` rule: ICF),
    and whether it does; a game without boards is played whole, ``config`` as it is."""
    if any(f.name == "max_boards" for f in dataclasses.fields(config)):  # type: ignore[arg-type]
        return dataclasses.replace(config, max_boards=1), True  # type: ignore[type-var]
    return config, False


def driver_for(config: GameConfig) -> Driver:
    """The driver of a rule configuration: its game's, found by the configuration's
    ``variant`` in the registry."""
    from carromlab.registry import get_game

    variant = getattr(config, "variant", None)
    if not isinstance(variant, str):
        raise CarromlabError(f"whole games are not available for {type(config).__name__}")
    game = get_game(variant)
    if game.driver is None:
        raise CarromlabError(f"whole games are not available for {variant!r}")
    return game.driver(config)
