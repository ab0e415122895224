"""Whole KOOBA games on the shared game loop (:func:`~carromlab.play.loop.play_games`).

A game is the lag (each entrant throws one Aero at the KOOBA from the South; the closest sits
first, :func:`~carromlab.games.kooba.machine.lag_order`), then turns of three throws judged by
exact geometry (:func:`~carromlab.games.kooba.rules.shot_tags`) and applied by the machine; a
turn's Aeros lie on the board until the turn ends, and one that lands on them rests on top
(``on_aeros``; machine decision 5). The players are by entrant (the lag seats them) and each
throws at its own throw skill (``THROW_SKILLS[player.skill]``). Throws run on the throw kernel
(``physics/throw.py``), answered by :class:`ThrowEvaluator` in place of the sliding-disc kernel.
Keys: throw ``k`` of game ``g`` (the lag's throws first) uses ``fold_in(fold_in(key(seed), g),
k)``: a game depends only on the seed and its index.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np
import pandas as pd

from carromlab.equipment.kooba import KoobaBoard
from carromlab.errors import CarromlabError
from carromlab.games.kooba.machine import (
    KoobaConfig,
    KoobaState,
    apply,
    declare_attack,
    lag_order,
    new_game,
)
from carromlab.games.kooba.maps import thrower_spot
from carromlab.games.kooba.players import KoobaGreedy
from carromlab.games.kooba.rules import shot_tags
from carromlab.physics.throw import throw_batch
from carromlab.play.drivers import BaseDriver, RowColumns
from carromlab.play.loop import GameInPlay, GameRecord, play_games
from carromlab.rules.interfaces import StrokeOutcome
from carromlab.shots import THROW_SKILLS


@dataclass(frozen=True)
class KoobaView:
    """What a KOOBA player sees: the game's ``state`` (None during the lag), the board, the
    seats in play and the throws' slide scale."""

    state: KoobaState | None
    board: KoobaBoard
    seats: tuple[str, ...]
    slide: float = 0.0


@dataclass(frozen=True)
class ThrowAsk:
    """One throw to execute: throw ``k`` of game ``game`` at ``aim`` from ``seat``."""

    game: int
    k: int
    aim: tuple[float, float]
    seat: str
    skill: object  # a ThrowSkill


@dataclass
class KoobaGame:
    """The loop's record of one KOOBA game: the lag's distances, then who sits where
    (``entrants[seat]``), the machine's state and the throws' rows."""

    dists: list = field(default_factory=list)
    entrants: list | None = None
    state: KoobaState | None = None
    shots: list = field(default_factory=list)
    lying: list = field(default_factory=list)  # the turn's Aeros on the board (x, y, rotation)


def throw_one(board, sk, gkey, k: int, aim, seat: str, sticks: int, slide: float = 0.0):
    """Throw ``k`` of a game (key ``fold_in(game key, k)``): where the Aero lands."""
    key = jax.random.fold_in(gkey, k)
    fx, fy = thrower_spot(board, seat, sticks)
    x, y, rot = throw_batch(
        key[None],
        jnp.array([aim[0]]),
        jnp.array([aim[1]]),
        jnp.array([fx]),
        jnp.array([fy]),
        sk.angle,
        sk.length,
        sk.release,
        slide,
    )
    return float(x[0]), float(y[0]), float(rot[0])


class ThrowEvaluator:
    """Answers :class:`ThrowAsk` s on the throw kernel: where each Aero lands (x, y,
    rotation), one throw at a time with its own key."""

    def __init__(self, board: KoobaBoard, seed: int, sticks: int, slide: float = 0.0):
        self.board, self.seed, self.sticks, self.slide = board, int(seed), sticks, slide
        self.shots_run = 0

    def answer(self, asks) -> list[tuple[float, float, float]]:
        out = []
        for a in asks:
            gkey = jax.random.fold_in(jax.random.key(self.seed), a.game)
            out.append(
                throw_one(self.board, a.skill, gkey, a.k, a.aim, a.seat, self.sticks, self.slide)
            )
        self.shots_run += len(asks)
        return out


def throw_skill(player, entrant: int):
    """The throw skill an entrant's player throws with; one clear line if unknown."""
    sk = THROW_SKILLS.get(getattr(player, "skill", None))
    if sk is None:
        known = ", ".join(THROW_SKILLS)
        raise CarromlabError(
            f"entrant {entrant}: unknown throw skill {getattr(player, 'skill', None)!r}; "
            f"known: {known}"
        )
    return sk


class KoobaDriver(BaseDriver):
    """KOOBA for the game loop (see the module's docstring): on the drivers' base, with its
    own evaluator (the throw kernel), its own record of a game in play (:class:`KoobaGame`)
    and its own rows. The player on strike is an entrant (the lag seats them); it sees a
    :class:`KoobaView` and plans under the rule configuration. ``board`` and ``slide`` (the
    throw kernel's slide scale, m; 0: Aeros stick where they land) are the equipment's, not
    the rules'."""

    capacity = 1

    def __init__(self, config: KoobaConfig, board: KoobaBoard | None = None, slide=0.0):
        super().__init__(config)
        self.board = board or KoobaBoard()
        self.slide = float(slide)

    def evaluator(self, seed: int, lanes=None, physics=None) -> ThrowEvaluator:
        return ThrowEvaluator(self.board, seed, self.config.sticks, self.slide)

    def new_state(self, g: int) -> KoobaGame:
        return KoobaGame()

    def on_strike(self, gm: GameInPlay) -> None:
        game = gm.state
        if game.entrants is None:  # the lag
            entrant = len(game.dists)
        else:
            entrant = game.entrants[game.state.player]
        throw_skill(gm.policies[entrant], entrant)  # an unknown throw skill: refused now
        gm.seat = entrant
        gm.view = KoobaView(game.state, self.board, self.config.seats, self.slide)
        gm.turn = self.config

    def execution(self, gm: GameInPlay, decision, skills) -> ThrowAsk:
        game = gm.state
        skill = throw_skill(gm.policies[gm.seat], gm.seat)
        if game.state is None:
            return ThrowAsk(gm.index, gm.k, (0.0, 0.0), "S", skill)
        if decision.option == "attack":
            game.state = declare_attack(game.state, decision.params["target"], self.config)
        seat = self.config.seats[game.state.player]
        aim = (float(decision.shot[0]), float(decision.shot[1]))
        return ThrowAsk(gm.index, gm.k, aim, seat, skill)

    def finish(self, gm: GameInPlay, answer, on_stroke) -> None:
        game = gm.state
        x, y, rot = answer
        if game.state is None:  # a lag throw
            game.dists.append(float(np.hypot(x, y)))
            if len(game.dists) == self.config.n_players:
                game.entrants = lag_order(game.dists)
                game.state = new_game(self.config)
            return
        state, me = game.state, game.state.player
        if state.shot == 0:  # a new turn: the last turn's Aeros have been taken back
            game.lying = []
        tags = shot_tags(self.board, x, y, rot, self.config.seats, state.markers, game.lying)
        game.lying.append((x, y, rot))
        game.shots.append(
            {
                "game": gm.index,
                "round": state.round,
                "player": me,
                "attack": -1 if state.attack is None else state.attack,
                "tiebreak": state.tiebreak is not None,
                "eye": tags.eye,
                "inner_eye": tags.inner_eye,
                "kooba": tags.kooba,
                "penalty": tags.penalty,
                "on_aeros": tags.on_aeros,
                "x": x,
                "y": y,
            }
        )
        outcome = StrokeOutcome(capture=np.array([-1]), final_xy=np.array([[x, y]]), tags=tags)
        game.state = apply(state, outcome, self.config)
        if on_stroke is not None:
            on_stroke(game.state)

    def over(self, gm: GameInPlay) -> bool:
        return gm.state.state is not None and gm.state.state.over

    def row_columns(self) -> RowColumns:
        """The columns of :meth:`record`'s game row for the configuration's players (KOOBA
        has no board rows)."""
        return RowColumns(kooba_columns(self.config.n_players))

    def record(self, gm: GameInPlay) -> GameRecord:
        game, config = gm.state, self.config
        state, entrants = game.state, game.entrants
        strokes = pd.DataFrame(game.shots)
        row = {
            "game": gm.index,
            "winner": -1 if state.winner is None else int(state.winner),
            "winner_entrant": -1 if state.winner is None else int(entrants[state.winner]),
            **{f"entrant_{p}": int(e) for p, e in enumerate(entrants)},
            **{f"attacked_{p}": bool(a) for p, a in enumerate(state.attacks_used)},
            "players": config.n_players,
            "rounds": int(state.round) + 1,
            "shots": len(strokes),
            "attacks": int(sum(state.attacks_used)),
            "tie_break": state.tiebreak is not None,
            **{f"marker_{p}": int(m) for p, m in enumerate(state.markers)},
            **{
                f"turns_{p}": int(((strokes["player"] == p).sum() + 2) // 3)
                for p in range(config.n_players)
            },
            "finished": bool(state.over and not state.unfinished),
        }
        return GameRecord(state, strokes, pd.DataFrame(), row=row)


def kooba_columns(n_players: int) -> tuple[str, ...]:
    """The columns of a KOOBA game's row (:meth:`KoobaDriver.record`) for ``n_players``
    players, in order."""
    seats = range(int(n_players))
    return (
        "game",
        "winner",
        "winner_entrant",
        *(f"entrant_{p}" for p in seats),
        *(f"attacked_{p}" for p in seats),
        "players",
        "rounds",
        "shots",
        "attacks",
        "tie_break",
        *(f"marker_{p}" for p in seats),
        *(f"turns_{p}" for p in seats),
        "finished",
    )


def play_kooba(
    config: KoobaConfig | None = None,
    skill="club",
    seed: int = 0,
    games=1,
    player: KoobaGreedy | None = None,
    board: KoobaBoard | None = None,
    on_game=None,
    players=None,
    slide: float = 0.0,
    slots: int = 1,
) -> list[GameRecord]:
    """Play whole KOOBA games on the shared game loop (games/kooba/driver.py); one record per
    game with a row (winner seat index and entrant, rounds, markers, attacks, tie break,
    turns) and one row per shot.

    Every entrant plays ``player`` (default ``KoobaGreedy(skill)``), or ``players[e]`` for
    entrant ``e`` (one per player; the lag seats them, and each throws at its own skill).
    ``slide`` is the throw kernel's slide scale (m; 0: Aeros stick where they land).
    ``slots`` games are in play at once (1: one after another, ``on_game`` in game order)."""

    config = config or KoobaConfig()
    if players is None:
        players = [player or KoobaGreedy(skill=skill)] * config.n_players
    players = list(players)
    if len(players) != config.n_players:
        raise CarromlabError(f"players: {len(players)} given for a {config.n_players}-player game")
    for e, pl in enumerate(players):
        throw_skill(pl, e)
    driver = KoobaDriver(config, board, slide)
    return play_games(
        players, config, skill, seed, games, slots=slots, on_game=on_game, driver=driver
    )
