"""A depth-2 lookahead player: a stroke is worth what it scores now plus what the position it
leaves is worth to whoever plays next.

The search (one stroke, every stage one batched ask or list of asks, so many games still
share the kernel's batches):

1. **Screen** the candidate shots of :class:`~carromlab.analysis.policies.Greedy` (cuts of
   the shooter's targets into the pockets, plus a few random legal shots) with ``n_screen``
   noisy executions each; keep the ``keep`` best by immediate value.
2. **Execute** each finalist ``n_eval`` times, on common keys (``common_keys``: execution
   ``i`` of every finalist draws the same execution error): these outcomes are the chance
   nodes of the search. An outcome's immediate value is the rules' ``value`` (ICF: the shot
   value).
3. **Group** each finalist's outcomes by what the stroke did (whether the turn continues and
   which pieces fell): the ``groups`` largest groups get a leave evaluation, always including
   the largest group of each kind (turn continues / turn passes) that occurred; one
   representative execution per group (its first) stands for the group. An outcome of a group
   left out takes the size-weighted mean leave value of the evaluated groups of its kind.
4. **Reply**: the game's ``leave`` hook turns a representative outcome into the position the
   next stroke is played from (the next shooter's view and turn state, and whose stroke it
   is); its ``reply_candidates`` straightest candidate cuts are screened with ``n_reply``
   executions each, the best ``reply_keep`` re-estimated with ``n_reply_eval`` fresh ones,
   and the best of those is the leave's value ``V`` (0 when the stroke ends the board, or
   when the next shooter has no legal candidate).
5. A finalist's value is the mean over its executions of ``value + V`` when the shooter plays
   on and ``value - V`` when the opponent does (depth-2 expectimax over the noisy outcomes,
   the reply valued by its immediate value only). The best finalist is played.

With ``rounds`` (Greedy's racing option, e.g. :data:`LOOKAHEAD_RACING`), steps 1-2 are a race:
the screen and every round but the last are :func:`~carromlab.analysis.search.race_rounds`,
and the last round's ``(keep, n)`` are the finalists and their executions (on common keys,
seeded as the race's last round), so the leave decides among the race's last survivors.

Decisions (where a reasonable player might differ, they are options):

- The opponent's replies are estimated at the player's own skill (it does not know the
  opponent's); ``reply_skill`` overrides it.
- A reply's value is re-estimated on fresh keys: the largest of several noisy screens is
  biased upwards (alike for the shooter's and the opponent's replies, but not alike for
  leaves with many and few candidates).
- The stroke's own value and a reply's value are in the same unit (the rules' shot value),
  with weight ``leave_weight`` (1: plain expectimax; 0: the screen and finalists alone).

Budget per stroke (defaults): 56 x 6 screen + 8 x 32 finalists + at most 8 x 2 leaves x
(8 x 3 + 8) replies = 1,104 kernel shots, against Greedy's 320. Measured strength and cost:
docs/studies.md ("Stronger players") and docs/benchmarks.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from carromlab.analysis.asks import Answer
from carromlab.analysis.players import Decision
from carromlab.analysis.policies import Greedy, MapGreedy, _cell_shots
from carromlab.analysis.search import (
    Candidates,
    SearchBudget,
    map_final_asks,
    map_finalists,
    race_rounds,
)
from carromlab.analysis.variants import analysis_for
from carromlab.shots import Shot, concat_shots, take_shots
from carromlab.shots import skill as skill_named


@dataclass(frozen=True)
class Leave:
    """The position a stroke leaves: the next shooter's ``view`` (turned so that they shoot
    from the South) and ``turn`` state, and ``sign``: +1 when the shooter plays on, -1 when
    the opponent does."""

    view: Any
    turn: Any
    sign: float


#: A game's leave hook: ``(view, turn, outcome, evaluated) -> Leave | None`` for one
#: execution (``outcome``: the kernel's arrays of that execution, disc 0 the shooter;
#: ``evaluated``: the rules' per-shot quantities of it); None when the stroke ends the board.
LeaveHook = Callable[[Any, Any, dict, dict], "Leave | None"]


def outcome_key(evaluated: dict, capture: np.ndarray, continues_key: str = "continues"):
    """What a stroke did, as a group key: (the turn continues, the discs that left the board)."""
    return (bool(evaluated[continues_key]), tuple(np.flatnonzero(np.asarray(capture) >= 0)))


def pick_groups(keys: list, groups: int) -> tuple[list[int], np.ndarray]:
    """Representatives of outcome groups: ``keys`` (one per execution, ``key[0]`` whether
    the turn continues); returns (the first execution of each chosen group, the chosen group
    of every execution or -1). The ``groups`` largest groups are chosen (ties: the group seen
    first), always including the largest of each kind (continues or not) present."""
    order: dict = {}
    for i, k in enumerate(keys):
        order.setdefault(k, []).append(i)
    ranked = sorted(order.items(), key=lambda kv: -len(kv[1]))  # stable: first seen first
    chosen: list = []
    for kind in (True, False):
        first = next((k for k, _ in ranked if k[0] == kind), None)
        if first is not None:
            chosen.append(first)
    for k, _ in ranked:
        if len(chosen) >= max(groups, 1):
            break
        if k not in chosen:
            chosen.append(k)
    chosen.sort(key=lambda k: order[k][0])
    which = np.array([chosen.index(k) if k in chosen else -1 for k in keys], dtype=int)
    return [order[k][0] for k in chosen], which


#: The lookahead's own search: 56 candidates screened with 6 executions each, the best 8
#: executed 32 times (the outcomes whose leaves are valued).
LOOKAHEAD_BUDGET = SearchBudget(n_screen=6, keep=8, n_eval=32)

#: The lookahead on Greedy's racing search (:data:`~carromlab.analysis.policies.RACING`'s
#: candidates, screen and first two rounds), its last round the leave's: the best 3 executed 64 times
#: on common keys, their leaves' replies screened with 4 executions and the best re-estimated
#: with 16 (less noise in a leave's value than the default 3 and 8, since the finalists are
#: close). About 1,200 kernel shots a stroke.
LOOKAHEAD_RACING = {
    "budget": SearchBudget(
        n_screen=4,
        keep=8,
        n_eval=32,
        max_candidates=96,
        random_extra=16,
        rounds=((16, 8), (6, 24), (3, 64)),
    ),
    "n_reply": 4,
    "n_reply_eval": 16,
}


@dataclass(frozen=True, repr=False)
class Lookahead(Greedy):
    """Depth-2 expectimax over noisy outcomes (the module's docstring). ``leave`` is the
    game's hook (:data:`LeaveHook`); the rest are :class:`Greedy`'s options (its ``budget``:
    the screen and the finalists, steps 1-2) plus the reply search's."""

    budget: SearchBudget = LOOKAHEAD_BUDGET
    groups: int = 2
    reply_candidates: int = 8
    n_reply: int = 3
    reply_keep: int = 1
    n_reply_eval: int = 8
    leave_weight: float = 1.0
    reply_skill: str | None = None
    leave: LeaveHook | None = None
    #: The finalists are executed on common keys (execution ``i`` of every finalist draws the
    #: same execution error), so that their comparison is not blurred by different draws.
    common_keys: bool = True

    def plan(self, position, turn=None, seed: int = 0):
        va = analysis_for(position.variant)
        turn = turn if turn is not None else va.default_turn()
        if getattr(turn, "is_break", False) and self.break_shot is not None:
            return (yield from super().plan(position, turn, seed))
        y0 = va.shot_y(position.board)
        seeds = np.random.SeedSequence([seed, 7]).generate_state(4) >> 1
        (group,) = self.candidate_groups(position, turn, seed)
        budget = self.budget
        keep, n_eval, final_seed = budget.keep, budget.n_eval, int(seeds[1])
        if budget.rounds:  # race all rounds but the last; the last is the finalists' (keep, n)
            ranked, alive = yield from race_rounds(
                group, seeds, budget.n_screen, budget.rounds[:-1], self.value
            )
            (keep, n_eval), final_seed = budget.rounds[-1], int(seeds[1]) + len(budget.rounds) - 1
        else:
            screen = yield group.ask(group.shots, budget.n_screen, int(seeds[0]))
            ranked = np.nan_to_num(screen.means(self.value), nan=-np.inf)
            alive = np.arange(len(ranked))
        top = np.argsort(-ranked, kind="stable")[:keep]
        top = alive[top[np.isfinite(ranked[top])]]
        if len(top) == 0:  # nothing legal was found: the first candidate, as Greedy would
            top = np.arange(1)
        finals = take_shots(group.shots, top)
        if self.common_keys:  # every finalist on the same keys: one ask each, one seed
            one = [group.ask(take_shots(finals, [c]), n_eval, final_seed) for c in range(len(top))]
            executed = joined((yield one), group.ask(finals, n_eval, final_seed))
        else:
            executed = yield group.ask(finals, n_eval, final_seed)
        evaluated = executed.evaluate()
        now = np.asarray(evaluated[self.value], float)
        later = yield from self.leave_values(position, turn, executed, evaluated, seeds[2:4])
        values = executed.cell_means(now + self.leave_weight * later)
        best = int(np.argmax(np.nan_to_num(values, nan=-np.inf)))
        shot = take_shots(finals, [best])
        return Decision(
            Shot(float(shot.x[0]), y0, float(shot.angle[0]), float(shot.speed[0])),
            values={
                "value": float(values[best]),
                "now": float(executed.cell_means(now)[best]),
            },
        )

    def leave_values(self, position, turn, executed: Answer, evaluated: dict, seeds):
        """A plan step: every execution's signed leave value (steps 3-5 of the module's
        docstring), from one list of reply asks; ``evaluated``: the rules' quantities of
        ``executed``."""
        hook = self.leave
        out = np.zeros(len(executed.cell))
        if hook is None or self.leave_weight == 0 or len(executed.cell) == 0:
            return out
        rows = [
            (
                {k: v[r] for k, v in executed.outcome.items()},
                {k: v[r] for k, v in evaluated.items()},
            )
            for r in range(len(executed.cell))
        ]
        plan: list[tuple] = []
        leaves: list[Leave | None] = []
        for c in np.flatnonzero(executed.legal):
            mine = np.flatnonzero(executed.cell == c)
            keys = [outcome_key(rows[r][1], rows[r][0]["capture"]) for r in mine]
            reps, which = pick_groups(keys, self.groups)
            kinds = np.array([keys[r][0] for r in reps], bool)
            at = len(leaves)
            leaves += [hook(position, turn, *rows[mine[r]]) for r in reps]
            cont = np.array([k[0] for k in keys], bool)
            plan.append((mine, list(range(at, len(leaves))), which, cont, kinds))
        asks, owner = [], []
        reply_noise = skill_named(self.reply_skill or self.skill).noise()
        for k, lv in enumerate(leaves):
            if lv is None:
                continue
            cells = self.reply_cells(lv.view, lv.turn)
            ask = reply_ask(
                lv.view, lv.turn, cells, reply_noise, self.scoring, self.n_reply, int(seeds[0]) + k
            )
            if ask is not None:
                asks.append(ask)
                owner.append(k)
        screens = (yield asks) if asks else []
        finals, final_asks = [], []
        for k, (ask, ans) in enumerate(zip(asks, screens, strict=True)):
            means = np.nan_to_num(ans.means(self.value), nan=-np.inf)
            top = np.argsort(-means, kind="stable")[: self.reply_keep]
            top = top[np.isfinite(means[top])]
            if len(top):
                final_asks.append(
                    replace(
                        ask,
                        shots=take_shots(ask.shots, top),
                        n=self.n_reply_eval,
                        seed=int(seeds[1]) + k,
                    )
                )
                finals.append(owner[k])
        answers = (yield final_asks) if final_asks else []
        value = np.zeros(len(leaves))
        for k, ans in zip(finals, answers, strict=True):
            value[k] = leaves[k].sign * best_mean(ans, self.value)
        for mine, ids, which, cont, kinds in plan:
            out[mine] = signed_leaves(which, cont, kinds, value[ids])
        return out

    def reply_cells(self, view, turn) -> list[tuple[float, float, float]]:
        """The reply search's candidates: the ``reply_candidates`` straightest cuts of the
        next shooter's targets (no random extras)."""
        return reply_cells(view, turn, self.reply_candidates, self.placement_step)


#: The reply search of the lookahead on the map search (:class:`SearchLookahead`): each
#: leave's 8 straightest cuts screened with 4 executions, the best re-estimated with 16 (the
#: racing lookahead's, :data:`LOOKAHEAD_RACING`).
SEARCH_REPLIES = {"n_reply": 4, "n_reply_eval": 16}


@dataclass(frozen=True, repr=False)
class SearchLookahead(MapGreedy):
    """The search-based player with a depth-2 look at its finalists.

    The map search's screen, narrowing and refinement are :class:`MapGreedy`'s
    (:func:`~carromlab.analysis.search.map_finalists`, at ``budget.shots``); its finalists'
    final executions (the same asks, on the same keys) are then each valued as the
    :class:`Lookahead` values its finalists (steps 3-5 of the module's docstring: the
    outcomes grouped, each group's leave searched for the next shooter's best reply, and the
    stroke worth ``now + V`` when the shooter plays on, ``now - V`` when the opponent does),
    with ``replies``'s leave hook and reply search (a :class:`Lookahead`; its own screen is
    not used).

    ``safety_below``: None, the lookahead at every stroke; a number, safety play: the leave
    is weighed only when no finalist's immediate value reaches it (no pot worth it), and the
    stroke then chosen is the finalist that leaves the opponent least for what it scores.
    The finalists come from the immediate-value search either way (a safety stroke that no
    pot search would keep is not among them). The cost over the search: the replies (at most
    ``groups`` leaves of each of 6 finalists, ``reply_candidates`` x (``n_reply`` +
    ``n_reply_eval``) shots each: about 5 % of 16,384)."""

    replies: Lookahead | None = None
    safety_below: float | None = None

    def plan(self, view, turn=None, seed: int = 0):
        played = self.break_decision(view, turn)
        if played is not None:
            return played
        groups, seeds = self.search_start(view, turn, seed)
        finals, n = yield from map_finalists(groups, seeds, self.budget.shots, self.value)
        if not finals:
            shot = take_shots(groups[0].shots, [0])
            return replace(self.decision(groups[0], shot, -np.inf), values={"value": -np.inf})
        answers = yield map_final_asks(groups, finals, n, seeds)
        final = self._final_value(groups)
        now = np.concatenate([final(a, g) for (g, _s), a in zip(finals, answers, strict=True)])
        shots = concat_shots([s for _g, s in finals])
        executed = joined(answers, groups[0].ask(shots, n, int(seeds[0]) + 3, common=True))
        immediate = executed.cell_means(now)
        later = np.zeros(len(now))
        weigh = self.replies is not None and (
            self.safety_below is None
            or not np.nanmax(np.nan_to_num(immediate, nan=-np.inf)) >= self.safety_below
        )
        if weigh:
            reply_seeds = np.random.SeedSequence([seed, 11]).generate_state(2) >> 1
            later = yield from self.replies.leave_values(
                view, turn, executed, executed.evaluate(), reply_seeds
            )
            later = self.replies.leave_weight * later
        values = np.nan_to_num(executed.cell_means(now + later), nan=-np.inf)
        best = int(np.argmax(values))
        g, shot = finals[best]
        decision = self.decision(groups[g], shot, float(values[best]))
        return replace(
            decision,
            values={
                "value": float(values[best]),
                "now": float(immediate[best]),
                "leave_weighed": float(weigh),
            },
        )


def reply_cells(view, turn, count: int, placement_step: float = 0.05) -> np.ndarray:
    """A reply search's candidates, (n, 3) cells of (placement, angle, speed): Greedy's
    ``count`` straightest cuts of the shooter's targets in ``view`` (no random extras)."""
    reply = Greedy(
        budget=SearchBudget(max_candidates=count, random_extra=0), placement_step=placement_step
    )
    return np.array(reply.candidates(view, turn, 0), float).reshape(-1, 3)


def reply_ask(view, turn, cells: np.ndarray, noise, scoring, n: int, seed: int):
    """The ask that executes every one of ``cells`` (:func:`reply_cells`) ``n`` times from
    ``view`` under ``turn``; None when there are no cells."""
    if len(cells) == 0:
        return None
    y0 = analysis_for(view.variant).shot_y(view.board)
    group = Candidates(view, _cell_shots(cells, y0), turn, noise, scoring)
    return group.ask(group.shots, n, seed)


def best_mean(answer: Answer, value: str = "points") -> float:
    """The best mean ``value`` over an answer's shots; 0 when none has a finite mean (no
    legal stroke: the reply is worth nothing either way)."""
    best = float(np.nan_to_num(answer.means(value), nan=-np.inf).max())
    return best if np.isfinite(best) else 0.0


def joined(answers: list[Answer], ask) -> Answer:
    """One-shot answers (one base shot each, in order) as one answer to ``ask`` (their base
    shots together)."""
    cells = [np.full(len(a.cell), k) for k, a in enumerate(answers)]
    return Answer(
        ask=ask,
        legal=np.concatenate([a.legal for a in answers]),
        cell=np.concatenate(cells) if cells else np.zeros(0, int),
        index=np.concatenate([a.index for a in answers]),
        outcome={f: np.concatenate([a.outcome[f] for a in answers]) for f in answers[0].outcome},
    )


def signed_leaves(
    which: np.ndarray, continues: np.ndarray, kinds: np.ndarray, values: np.ndarray
) -> np.ndarray:
    """Each execution's signed leave value: its chosen group's (``values[g]``, from
    :func:`pick_groups`' ``which``), or, for an execution of a group left out, the
    size-weighted mean over the chosen groups of its own kind (``continues[i]`` of the
    execution, ``kinds[g]`` of the group: the turn continues). :func:`pick_groups` chooses a
    group of every kind present, so every execution gets a value of its own kind."""
    which = np.asarray(which)
    continues = np.asarray(continues, bool)
    kinds = np.asarray(kinds, bool)
    out = np.zeros(len(which))
    chosen = which >= 0
    out[chosen] = values[which[chosen]]
    sizes = np.array([(which == g).sum() for g in range(len(values))], float)
    for kind in (True, False):
        same = np.flatnonzero(kinds == kind)
        if len(same):
            mean = float((sizes[same] * values[same]).sum() / sizes[same].sum())
            out[~chosen & (continues == kind)] = mean
    return out


__all__ = [
    "LOOKAHEAD_BUDGET",
    "LOOKAHEAD_RACING",
    "SEARCH_REPLIES",
    "Leave",
    "LeaveHook",
    "Lookahead",
    "SearchLookahead",
    "best_mean",
    "outcome_key",
    "pick_groups",
    "reply_ask",
    "reply_cells",
    "signed_leaves",
]
