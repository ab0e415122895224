"""``decide``: a player's chosen stroke at a position, with its estimated value.

:func:`decide` makes the game's player (``policy``; ``"strongest"``: the top of the game's
strength ladder, :attr:`~carromlab.registry.Game.strongest`), shows it the position as its
game's players see it in play (the sliding-disc games: the position itself, the shooter at
the South, under the position's turn state; Carrooka: a game state holding the position,
:attr:`~carromlab.registry.Game.player_view`), runs its plan to its decision against the
kernel's :class:`~carromlab.analysis.asks.Evaluator` (each ask, or list of asks, answered as
the game loop answers it), and re-estimates the chosen stroke independently with
:func:`~carromlab.analysis.estimate.estimate`: ``n`` fresh executions at the player's skill
under the turn it is played in, on keys of their own.

Seeds: the plan gets ``seed`` as its stroke's seed (as a stroke of a game does: the player
draws every key from it); the re-estimate's seed is
``SeedSequence([seed, ESTIMATE_STREAM]).generate_state(1)[0] >> 1``, another stream, so its
executions are not the ones the player chose on. A decision is reproducible for a seed.

The position is taken as given: the shooter plays from the South, as in every shot command;
its turn state is the position's (``VariantAnalysis.turn_of``), else the rules' default.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

import numpy as np
import pandas as pd

from carromlab.analysis.asks import SHOT_FIELDS, Evaluator
from carromlab.analysis.players import Decision
from carromlab.analysis.policies import drive_plan
from carromlab.analysis.variants import VariantAnalysis, analysis_for
from carromlab.errors import CarromlabError
from carromlab.rules.turns import describe_turn
from carromlab.shots import Shot

#: The re-estimate's key stream (module docstring): its seed is drawn from ``[seed, 1]``.
ESTIMATE_STREAM = 1

#: The re-estimate's headline quantities: name in the summary -> the rules' quantities, the
#: first the variant gives (Force Out's foul is its ``penalty``).
HEADLINE = (
    ("points", ("points",)),
    ("p_foul", ("foul", "penalty")),
    ("p_continues", ("continues",)),
    ("p_potted", ("potted",)),
)


def turn_fields(turn: object) -> dict[str, Any]:
    """A turn state's fields, in order ({} for None)."""
    if turn is None:
        return {}
    if is_dataclass(turn) and not isinstance(turn, type):
        return {f.name: getattr(turn, f.name) for f in fields(turn)}
    return dict(vars(turn)) if hasattr(turn, "__dict__") else {"turn": repr(turn)}


def one_shot(shot) -> Shot:
    """A decision's shot as a Shot of floats (players give floats or one-element arrays)."""
    return Shot(*(float(np.ravel(np.asarray(getattr(shot, f), float))[0]) for f in SHOT_FIELDS))


def estimate_seed(seed: int) -> int:
    """The re-estimate's seed (module docstring)."""
    return int(np.random.SeedSequence([int(seed), ESTIMATE_STREAM]).generate_state(1)[0] >> 1)


def _finite(v: float) -> float | None:
    return float(v) if math.isfinite(float(v)) else None


@dataclass(frozen=True)
class Decided:
    """A player's decision at a position and the chosen stroke's re-estimate.

    ``policy``: the policy asked for; ``player``: the policy played (``strongest`` read as
    the game's); ``detail``: the player's repr; ``turn``: the rules' turn state of the
    position (``turn_from``: ``"position"`` where it names one, else ``"default"``);
    ``decision``: what the player returned (its ``values``: its own estimates); ``shot``:
    the stroke (None for a decision without one); ``played_turn``: the turn it is played
    under (Carrooka: the piece the player nominated); ``estimate``: the re-estimate's table
    (:func:`~carromlab.analysis.estimate.estimate`; None without a stroke), ``n`` executions
    with the seed ``estimate_seed``; ``shots``: the kernel shots of the plan and of the
    re-estimate; ``seconds``: their times."""

    position: Any
    variant: str
    policy: str
    player: str
    detail: str
    skill: str
    seed: int
    n: int
    turn: Any
    turn_from: str
    decision: Decision
    shot: Shot | None
    played_turn: Any
    estimate: pd.DataFrame | None
    estimate_seed: int
    shots: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    #: the variant's shot-analysis hooks the decision was made with (None: looked up)
    analysis: VariantAnalysis | None = field(default=None, repr=False, compare=False)

    def stroke(self) -> dict[str, Any] | None:
        """The stroke in the command line's units: ``placement`` (metres on a line board, or
        degrees on a circle; None where the shooter is played from where it lies),
        ``placement_unit``, ``origin`` ([x, y] m, where it starts), ``lies`` (played from
        where it lies), ``angle`` (degrees, counter-clockwise from +x) and ``speed`` (m/s)."""
        if self.shot is None:
            return None
        va = self.analysis if self.analysis is not None else analysis_for(self.variant)
        s = self.shot
        line = va.origin_of is None
        xs, ys = va.origin(self.position, [-1.0, 1.0])
        lies = not line and xs[0] == xs[1] and ys[0] == ys[1]
        placement: float | None
        if line:
            placement = float(s.x)
        elif lies:
            placement = None
        else:  # a point of a circle: its angle (deg), where the game's origin puts it
            placement = math.degrees(math.atan2(float(s.y), float(s.x)))
            ox, oy = va.origin(self.position, [placement])
            if abs(float(ox[0]) - float(s.x)) > 1e-6 or abs(float(oy[0]) - float(s.y)) > 1e-6:
                placement = None
        return {
            "placement": placement,
            "placement_unit": "m" if line else "deg",
            "origin": [float(s.x), float(s.y)],
            "lies": bool(lies),
            "angle": math.degrees(float(s.angle)),
            "speed": float(s.speed),
        }

    def headline(self) -> dict[str, dict[str, Any]]:
        """The re-estimate's expected points and its foul, continue and pot chances (those
        the rules give), each ``{"quantity", "estimate", "lo", "hi"}`` with its 95 %
        interval."""
        if self.estimate is None:
            return {}
        rows = {r["quantity"]: r for r in self.estimate.to_dict("records")}
        out = {}
        for key, names in HEADLINE:
            name = next((q for q in names if q in rows), None)
            if name is not None:
                r = rows[name]
                out[key] = {"quantity": name, **{k: float(r[k]) for k in ("estimate", "lo", "hi")}}
        return out

    def quantity(self, name: str) -> float:
        """The re-estimate of one quantity (``capture:w1``, ``continues``, ``points``)."""
        if self.estimate is None:
            raise CarromlabError("the decision has no stroke, so no re-estimate")
        rows = self.estimate.set_index("quantity")
        if name not in rows.index:
            raise CarromlabError(f"no quantity {name!r} in the re-estimate")
        return float(rows.loc[name, "estimate"])

    @property
    def truncated(self) -> int:
        """Re-estimate executions that hit the kernel's event cap."""
        if self.estimate is None:
            return 0
        rows = self.estimate[self.estimate["quantity"] == "truncated"]
        return int(rows["successes"].sum()) if len(rows) else 0

    def turn_line(self) -> str:
        """The turn assumed, in words: its fields, and where it comes from."""
        parts = describe_turn(self.turn, self.position) or "none"
        where = (
            "the position's"
            if self.turn_from == "position"
            else "the rules' default: the position gives no turn"
        )
        line = f"{parts} ({where})"
        if self.played_turn is not None and self.played_turn != self.turn:
            chosen = describe_turn(self.played_turn, self.position)
            line += f"; played as {chosen} (the player's choice)"
        return line

    def summary(self) -> dict[str, Any]:
        """The decision as plain data (what ``carromlab decide --json`` prints)."""
        est = self.estimate
        return {
            "position": self.position.name or self.variant,
            "variant": self.variant,
            "policy": self.policy,
            "player": self.player,
            "player_detail": self.detail,
            "skill": self.skill,
            "seed": self.seed,
            "turn": {k: _plain(v) for k, v in turn_fields(self.turn).items()},
            "turn_from": self.turn_from,
            "turn_text": self.turn_line(),
            "stroke": self.stroke(),
            "played_turn": {k: _plain(v) for k, v in turn_fields(self.played_turn).items()},
            "option": self.decision.option,
            "params": {k: _plain(v) for k, v in self.decision.params.items()},
            "player_values": {k: _finite(v) for k, v in self.decision.values.items()},
            "estimate": None
            if est is None
            else {
                "n": self.n,
                "seed": self.estimate_seed,
                "skill": self.skill,
                **self.headline(),
                "truncated": self.truncated,
            },
            "shots": dict(self.shots),
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
        }


def _plain(v: Any) -> Any:
    """A value as JSON has it (NumPy scalars and tuples made plain; non-finite floats None)."""
    if isinstance(v, (np.generic,)):
        v = v.item()
    if isinstance(v, float):
        return _finite(v)
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    if isinstance(v, (str, int, bool)) or v is None:
        return v
    return str(v)


def plan_evaluator(
    game, variant: str, position, table, analysis: VariantAnalysis | None = None
) -> Evaluator:
    """The kernel's evaluator for the plan: the position's board, at the game's driver's
    capacity (the programs ``play`` and ``warmup`` compile), or more where the position
    holds more discs; ``analysis``: the variant's hooks, handed to the evaluator."""
    capacity = 0
    if game.driver is not None and game.config is not None:
        capacity = int(getattr(game.driver(game.config(variant)), "capacity", 0) or 0)
    return Evaluator(position.board.layout, max(capacity, len(table.pieces) + 1), analysis=analysis)


def _player_view(game, variant: str, position, turn) -> tuple[Any, Any]:
    """What the game's player sees at ``position`` under ``turn``: the position and the turn
    themselves, or the game's own view of them (``Game.player_view``: Carrooka's)."""
    if game.player_view is None:
        return position, turn
    return game.player_view(position, turn, game.make_config(variant))


def decide(
    position,
    policy: str = "greedy",
    skill: str = "club",
    seed: int = 0,
    n: int = 20_000,
    variant: str | None = None,
    progress: bool = False,
    player: Any = None,
) -> Decided:
    """``policy``'s chosen stroke at ``position`` (a :class:`~carromlab.position.Position` or
    a standard position's name), with the player's own estimate and an independent
    re-estimate of ``n`` executions (module docstring). ``policy``: a name of the game's
    players, or ``"strongest"``; ``variant``: the position's (checked when given).
    ``player``: a player object to ask instead of the game's ``policy`` (a budget or a
    variant of a player the registry does not name; ``policy`` is then only its label).
    The re-estimate's keys depend on ``seed`` alone, so the strokes of several players
    decided at one position with one seed are valued on common keys (a paired
    comparison).

    The game and the variant's analysis are looked up here, once, and handed down (to the
    evaluator, the re-estimate and the result)."""
    from carromlab.analysis.estimate import estimate
    from carromlab.position_schema import check_variant
    from carromlab.registry import check_decides, standard_position

    if isinstance(position, str):
        position = standard_position(position)
    variant = variant or position.variant
    check_variant(position.variant, variant, position.name or "position")
    game = check_decides(variant)  # the game, looked up once
    if int(n) <= 0:
        raise CarromlabError(f"n must be a positive number of shots, not {n}")
    va = game.analysis_of(variant)
    name = game.policy_name(policy)
    if player is None:
        player = game.make_player(name, skill=skill, variant=variant)
    position.check()
    turn = va.turn_of(position)
    view, context = _player_view(game, variant, position, turn)
    evaluator = plan_evaluator(game, variant, position, va.table_position(position), va)
    t0 = time.perf_counter()
    decision = drive_plan(player.plan(view, context, seed=int(seed)), evaluator)
    t_plan = time.perf_counter() - t0
    played_turn = decision.turn if decision.turn is not None else turn
    shot = None if decision.shot is None else one_shot(decision.shot)
    e_seed = estimate_seed(seed)
    t1 = time.perf_counter()
    table = None if shot is None else estimate(position, shot, skill=skill, n=int(n),
                                               seed=e_seed, turn=played_turn, progress=progress,
                                               analysis=va)  # fmt: skip
    t_est = time.perf_counter() - t1
    return Decided(
        position=position,
        variant=variant,
        policy=policy,
        player=name,
        detail=repr(player),
        skill=skill,
        seed=int(seed),
        n=int(n),
        turn=turn,
        turn_from="default" if position.turn is None else "position",
        decision=decision,
        shot=shot,
        played_turn=played_turn,
        estimate=table,
        estimate_seed=e_seed,
        shots={"plan": int(evaluator.shots_run), "estimate": int(n) if shot is not None else 0},
        seconds={"plan": t_plan, "estimate": t_est},
        analysis=va,
    )


__all__ = [
    "ESTIMATE_STREAM",
    "Decided",
    "decide",
    "estimate_seed",
    "plan_evaluator",
]
