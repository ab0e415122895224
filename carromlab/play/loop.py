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
registry (:func:`driver_for`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from carromlab.analysis.asks import Evaluator
from carromlab.analysis.players import Plan, decided
from carromlab.errors import CarromlabError
from carromlab.shots import Skill
from carromlab.shots import skill as skill_named


@dataclass
class GameRecord:
    """One game: its final state, one row per stroke and one row per board."""

    state: object
    strokes: pd.DataFrame
    boards: pd.DataFrame
    #: The game's row (:func:`game_row`), when the variant's driver builds its own.
    row: dict | None = None


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
    note: dict | None = None  #: what the player's decision noted (Carrooka'd options)
    policies: Any = None  #: the seats' players (a driver may ask another seat, e.g. to place)
    strokes: list[dict] = field(default_factory=list)  #: one row per executed stroke
    boards: list[dict] = field(default_factory=list)  #: one row per finished board


def _seat_skills(skill, n_seats: int) -> list[Skill]:
    one = isinstance(skill, (str, Skill))
    names = [skill] * n_seats if one else list(skill)
    if len(names) != n_seats:
        raise CarromlabError(f"give one skill or one per seat ({n_seats}), not {len(names)}")
    return [s if isinstance(s, Skill) else skill_named(s) for s in names]


def play_games(
    policies,
    config=None,
    skill="club",
    seed: int = 0,
    games=1,
    slots: int = 256,
    max_strokes: int = 5000,
    on_stroke=None,
    on_game=None,
    progress: bool = False,
    lanes: int = 64,
    physics=None,
    stats: dict | None = None,
    driver=None,
    hand_set: float | None = None,
) -> list[GameRecord]:
    """Play many games at once; ``games`` is a count or an iterable of game indices.

    ``config`` is the game's rule configuration (any registered game's; None: the ICF laws'
    defaults); its game's driver plays it, or ``driver`` when given. ``policies`` has one policy
    per seat; ``skill`` is one skill or one per seat (the execution noise of the real strokes;
    a policy's own estimates use its own skill). Up to ``slots`` games are in play together:
    every round, the pending asks of all of them (policy screens, the strokes' executions) go
    to the kernel as one batch; a finished game's slot takes the next game. A game depends
    only on ``seed`` and its index, never on the others. ``on_stroke(state)`` is called after
    every stroke, ``on_game(record)`` when a game ends (in the order games end). Returns the
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
    make_evaluator = getattr(driver, "evaluator", None)
    if make_evaluator is not None:  # a game with its own kernel (KOOBA's throws)
        evaluator = make_evaluator(seed=seed, lanes=lanes, physics=physics)
    else:
        evaluator = Evaluator(
            driver.layout, driver.capacity, lanes=lanes, physics=physics, hand_set=hand_set
        )
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
        for gm in active:
            if gm.asks is None:
                _start(driver, gm, policies, skills, seed)
        flat = evaluator.answer([a for gm in active for a in gm.asks])
        rounds += 1
        still = []
        at = 0
        for gm in active:
            answers, at = flat[at : at + len(gm.asks)], at + len(gm.asks)
            if not gm.executing:
                _advance(driver, gm, answers if gm.many else answers[0], policies, skills, seed)
            else:
                driver.finish(gm, answers[0], on_stroke)
                gm.k += 1
                gm.asks = None
                gm.executing = False
                if driver.over(gm) or gm.k >= max_strokes:
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
    policies,
    config=None,
    skill="club",
    seed: int = 0,
    game: int = 0,
    max_strokes: int = 5000,
    on_stroke=None,
) -> GameRecord:
    """Play one game (see :func:`play_games`; the same game as there, stroke for stroke)."""
    return play_games(
        policies, config, skill, seed, [game], max_strokes=max_strokes, on_stroke=on_stroke
    )[0]


def stroke_seed(seed: int, game: int, k: int) -> int:
    """The seed of stroke ``k`` of game ``game``."""
    return int(np.random.SeedSequence([seed, game, k]).generate_state(1)[0] >> 1)


def _start(driver, gm: GameInPlay, policies, skills, seed: int) -> None:
    gm.stroke_seed = stroke_seed(seed, gm.index, gm.k)
    gm.plan = driver.plan(gm, policies)
    gm.executing = False
    _advance(driver, gm, None, policies, skills, seed)


def _advance(driver, gm: GameInPlay, answer, policies, skills, seed: int) -> None:
    """Send the answer to the plan; queue its next asks (a plan may yield one ask or a list),
    or the execution of its decision (a driver may instead restart the stroke)."""
    try:
        nxt = next(gm.plan) if answer is None else gm.plan.send(answer)
        gm.many = isinstance(nxt, (list, tuple))
        gm.asks = list(nxt) if gm.many else [nxt]
    except StopIteration as stop:
        gm.plan = None
        ask = driver.execution(gm, decided(stop.value), skills)
        if ask is None:  # the decision changed whose stroke it is: plan again
            _start(driver, gm, policies, skills, seed)
            return
        gm.asks = [ask]
        gm.many = False
        gm.executing = True


def driver_for(config):
    """The driver of a rule configuration: its game's (found by the configuration's
    ``variant`` in the registry); an ICF configuration when ``config`` is None."""
    from carromlab.registry import get_game

    if config is None:
        game = get_game("icf")
        config = game.make_config()
    variant = getattr(config, "variant", None)
    if variant is None:
        raise CarromlabError(f"whole games are not available for {type(config).__name__}")
    game = get_game(variant)
    if game.driver is None:
        raise CarromlabError(f"whole games are not available for {variant!r}")
    return game.driver(config)
