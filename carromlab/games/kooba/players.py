"""KOOBA's player (whole games on the game loop: ``driver.py``; what a throw tags:
``rules.py``; the game machine: ``machine.py``).

:class:`KoobaGreedy` aims by goal, from an aim map at its skill and distance
(games/kooba/maps.py), computed once from the South seat and turned to each seat:

- scoring (run not locked): the aim point with the most expected scores - P(Eye) (Pro: P(Inner
  Eye)), minus P(Penalty) under Pro, plus P(KOOBA) under Deuces;
- locked: the aim point most likely to tag the KOOBA;
- attack: declared at the start of a turn, once, in games of at most ``attack_players``
  players, when the chosen opponent (``target``: the ``"leader"`` - furthest along, earliest
  seat on a tie - or the ``"next"`` open player after me in the order of play) has an open run
  at least ``attack_at`` steps along; aimed at their marker (a marker tag sends it Home, and an
  Aero that misses the marker most often still overlaps its run). Every run tag of the attack
  counts, so with ``press=True`` (the default) it keeps aiming at the marker until the marker
  has been tagged (sent Home) - a marker tag is worth at least ``attack_at`` steps and a run tag
  one, against one step for a score - and then scores; ``press=False`` scores after the first
  tag of any kind. ``attack_at=None`` never attacks. The defaults - the leader at 4 steps, in
  two-player games only - came from the timing study under the old reading of the attack (only
  the first tag counted), where no timing changed the attacker's win rate measurably; with every
  tag counting and the attacker pressing, an early attack (at 1-3 steps) won 0.55 against 0.48
  for never attacking (docs/studies.md; z about 1.9, not yet conclusive), and with three players
  attacking cost the attacker (the player left out gains). At club skill a run advances about
  three steps a turn, so "at 4" attacks in about 4 % of two-player games.

With ``refine=k`` (default 0: off) the aim of each goal is refined: the best ``k`` points
of the coarse map, each as a 3 x 3 grid at a third of its spacing, are estimated again by
``refine_n`` throws each (common keys: every point is thrown with the same keys, so their
differences are not the keys' luck), and the best is the aim. The coarse map's 200 throws a
point estimate a rate near 0.3 to about +-0.06, too coarse to tell the KOOBA's best aim from
its neighbours: from the South at club, two players, the default aim tags the KOOBA on 0.300
[0.293, 0.306] of throws, the refined one on 0.364 [0.357, 0.370] (20,000 throws each).

Every entrant may have their own player (``play_kooba(players=[...])``, by entrant: the lag
then seats them), so one policy can be measured against another.

Decisions (estimates): lag throws are made from the South at the KOOBA; the greedy aims on a
2 cm grid over the board; games throw without a slide unless ``slide`` is given
(physics/throw.py).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd

from carromlab.analysis.players import Decision
from carromlab.equipment.kooba import SEAT_ANGLE, KoobaBoard
from carromlab.errors import CarromlabError
from carromlab.games.kooba.machine import KoobaConfig, declare_attack
from carromlab.games.kooba.maps import aim_map
from carromlab.games.kooba.rules import LOCK, marker_spot


@dataclass(frozen=True)
class KoobaGreedy:
    """The default KOOBA player (see the module's docstring)."""

    skill: str = "club"
    n: int = 200
    grid: float = 0.02
    attack_at: int | None = 4
    target: str = "leader"
    attack_players: int = 2
    press: bool = True
    refine: int = field(default=0, repr=False)
    refine_n: int = field(default=2000, repr=False)

    def __repr__(self) -> str:
        # the refinement shows only when used: default players keep the repr their logged
        # runs were claimed with (play/log.py compares it)
        shown = [f.name for f in fields(self) if f.repr or getattr(self, f.name) != f.default]
        return f"KoobaGreedy({', '.join(f'{k}={getattr(self, k)!r}' for k in shown)})"

    def __post_init__(self):
        if self.target not in ATTACK_TARGETS:
            raise CarromlabError(
                f"unknown attack target {self.target!r}; choose {' or '.join(ATTACK_TARGETS)}"
            )

    def aims(self, board: KoobaBoard, seat: str, config: KoobaConfig, slide: float = 0.0) -> dict:
        """The aim point for each goal (scoring, KOOBA) from this seat."""
        return _aims(
            self.skill,
            self.n,
            self.grid,
            board,
            seat,
            config,
            float(slide),
            self.refine,
            self.refine_n,
        )

    def plan(self, view, turn: KoobaConfig | None = None, seed: int = 0):
        """The player interface (:mod:`carromlab.analysis.players`): ``view`` a
        :class:`~carromlab.games.kooba.driver.KoobaView`, ``turn`` the rule configuration.
        Returns the aim point, and an attack declared at the start of a turn (the aim is then
        the target's marker)."""
        config = turn or KoobaConfig()
        state = view.state
        if state is None:  # the lag: at the KOOBA from the South
            return Decision((0.0, 0.0))
        me = state.player
        aims = self.aims(view.board, view.seats[me], config, view.slide)
        option, params = None, {}
        if state.shot == 0 and state.tiebreak is None and state.attack is None:
            target = self.attack_target(state, me, config)
            if target is not None:
                option, params = "attack", {"target": target}
                state = declare_attack(state, target, config)
        if state.tiebreak is not None or state.markers[me] == LOCK:
            aim = aims["kooba"]
        elif state.attack is not None and not (
            state.attack_home if self.press else state.attack_hit
        ):
            aim = marker_spot(view.board, view.seats[state.attack], state.markers[state.attack])
        else:
            aim = aims["score"]
        return Decision(aim, option=option, params=params)
        yield  # a plan is a generator

    def attack_target(self, state, me: int, config: KoobaConfig) -> int | None:
        """Whom to attack this turn, or None."""
        n = config.n_players
        if not config.attack or state.attacks_used[me] or self.attack_at is None:
            return None
        if n > self.attack_players:
            return None
        open_ = [p for p in range(n) if p != me and state.markers[p] != LOCK]
        if not open_:
            return None
        if self.target == "leader":
            chosen = max(open_, key=lambda p: (state.markers[p], -p))
        else:  # the next open player after me in the order of play
            chosen = min(open_, key=lambda p: (p - me) % n)
        return chosen if state.markers[chosen] >= self.attack_at else None


ATTACK_TARGETS = ("leader", "next")

#: The stronger KOOBA player of the balance studies' second strength: aims refined (the best
#: 8 cells of each goal, 9 points each, 2,000 throws a point) and the early, pressing attack
#: (at 1 step), which won 0.550 [0.501, 0.598] against the default players
#: (docs/studies.md, "The attack turn, its timing, and Pro").
STRONG = KoobaGreedy(attack_at=1, refine=8, refine_n=2000)


def goal_values(df, config: KoobaConfig) -> dict:
    """Each goal's value at every aim point of an aim map: ``score`` the expected scores of
    a throw (P(Eye); Pro: P(Inner Eye) - P(Penalty); Deuces: + P(KOOBA)), ``kooba`` the
    chance to tag the KOOBA."""
    score = df["p_inner_eye"] if config.pro else df["p_eye"]
    if config.pro:
        score = score - df["p_penalty"]
    if config.deuces:
        score = score + df["p_kooba"]
    return {"score": score, "kooba": df["p_kooba"]}


def quarter_turn(x: float, y: float, seat: str) -> tuple[float, float]:
    """The point ``(x, y)`` of the South seat's frame in ``seat``'s: turned by the quarter
    turns from South to ``seat`` (exactly: the board and its zones are the same under a
    quarter turn, and the aim grid is symmetric about the centre)."""
    k = round((SEAT_ANGLE[seat] - SEAT_ANGLE["S"]) / (np.pi / 2)) % 4
    for _ in range(k):
        x, y = -y, x
    return float(x) + 0.0, float(y) + 0.0


def _aims(skill, n, grid, board, seat, config, slide, refine=0, refine_n=2000) -> dict:
    """Each goal's aim from ``seat``: the South seat's aims turned to it, so that every seat
    plays one map (one draw of the throws' luck; earlier each seat had its own map, and its
    own luck: North's KOOBA aim tagged 0.363 of throws, South's 0.300)."""
    south = _south_aims(skill, n, grid, board, config, slide, refine, refine_n)
    return {goal: quarter_turn(x, y, seat) for goal, (x, y) in south.items()}


@functools.lru_cache(maxsize=64)
def _south_aims(skill, n, grid, board, config, slide, refine=0, refine_n=2000) -> dict:
    seat = "S"
    xs = np.arange(-board.half + grid / 2, board.half, grid)
    df = aim_map(xs, xs, skill, config.sticks, n, seed=0, seat=seat, slide=slide, board=board)
    values = goal_values(df, config)
    if not refine:
        best = {g: df.loc[v.idxmax()] for g, v in values.items()}
        return {g: (row.aim_x, row.aim_y) for g, row in best.items()}
    # each goal's best ``refine`` cells of the coarse map, each as a 3 x 3 grid at a third of
    # the spacing; every point re-estimated once by ``refine_n`` throws of its own (seed 1:
    # keys apart from the coarse map's; a point both goals consider is thrown once); the
    # best of a goal's points is its aim
    offsets = np.array([-grid / 3, 0.0, grid / 3])
    candidates = {}
    for goal, value in values.items():
        top = df.loc[value.nlargest(refine).index]
        candidates[goal] = sorted(
            {
                (float(x + dx), float(y + dy))
                for x, y in zip(top.aim_x, top.aim_y, strict=True)
                for dx in offsets
                for dy in offsets
            }
        )
    fine = {
        point: aim_map(
            [point[0]],
            [point[1]],
            skill,
            config.sticks,
            refine_n,
            seed=1,
            seat=seat,
            slide=slide,
            board=board,
        )
        for point in sorted(set().union(*candidates.values()))
    }
    aims = {}
    for goal, points in candidates.items():
        rows = pd.concat([fine[p] for p in points], ignore_index=True)
        best = rows.loc[goal_values(rows, config)[goal].idxmax()]
        aims[goal] = (float(best.aim_x), float(best.aim_y))
    return aims
