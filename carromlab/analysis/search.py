"""Screen, then re-estimate: the search every greedy player runs, written once.

Candidate shots come in one or more groups (:class:`Candidates`: each with its view, turn
state, noise and scoring; Carrooka screens every piece it may nominate at once). Every
candidate is executed ``n_screen`` times; the ``keep`` best by mean value, over all groups,
are re-estimated with ``n_eval`` fresh executions; the best of those is played. This is
successive halving with one cut: cheap screens find the few shots worth a real estimate, and
the winner is chosen on fresh keys (the screen's lucky draws do not carry over).

Keys: group ``k``'s screen uses the seed ``seeds[0] + k``; the re-estimate asks the groups
that kept a finalist, in group order, the ``j``-th of them with ``seeds[1] + j``.

How much a search spends is one :class:`SearchBudget` (the screen, the finalists, the
candidates a game generates, the racing rounds); :meth:`SearchBudget.search` runs the search
it describes, one cut (:func:`screen_and_pick`) or several (:func:`race`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from carromlab.analysis.asks import Answer, Ask
from carromlab.errors import CarromlabError
from carromlab.shots import Shot, take_shots


@dataclass(frozen=True)
class Candidates:
    """Base shots from one view, valued under one turn state, noise and scoring."""

    view: Any
    shots: Shot
    turn: Any = None
    noise: Any = None
    scoring: Any = None

    def ask(self, shots: Shot, n: int, seed: int) -> Ask:
        return Ask(self.view, shots, n, int(seed), self.noise, self.turn, self.scoring)


def _ranked(values: list[np.ndarray]) -> np.ndarray:
    return np.concatenate([np.nan_to_num(v, nan=-np.inf) for v in values])


def screen_and_pick(
    groups: Candidates | list[Candidates],
    seeds,
    n_screen: int,
    keep: int,
    n_eval: int,
    value: str = "points",
    final_value: Callable[[Answer, int], np.ndarray] | None = None,
):
    """A plan step (use with ``yield from``): screen, keep, re-estimate (module docstring).

    ``value``: the rules' quantity to maximise; ``final_value(answer, k)``: the per-execution
    values of group ``k``'s re-estimate instead (e.g. the points plus a leave value). Returns
    ``(mean, k, shot)``: the best finalist's mean value (``-inf`` when no candidate was
    legal), its group and the shot (a one-shot :class:`~carromlab.shots.Shot`)."""
    groups = [groups] if isinstance(groups, Candidates) else list(groups)
    screens = yield [g.ask(g.shots, n_screen, int(seeds[0]) + k) for k, g in enumerate(groups)]
    values = _ranked([a.means(value) for a in screens])
    group = np.concatenate([np.full(len(a.legal), k) for k, a in enumerate(screens)])
    cell = np.concatenate([np.arange(len(a.legal)) for a in screens])
    top = np.argsort(-values, kind="stable")[:keep]
    kept = sorted(set(group[top].tolist()))
    finals = [take_shots(groups[k].shots, cell[top][group[top] == k]) for k in kept]
    answers = yield [
        groups[k].ask(s, n_eval, int(seeds[1]) + j)
        for j, (k, s) in enumerate(zip(kept, finals, strict=True))
    ]
    means = [
        a.means(value) if final_value is None else a.cell_means(final_value(a, k))
        for a, k in zip(answers, kept, strict=True)
    ]
    flat = _ranked(means)
    best = int(np.argmax(flat))
    j = int(np.searchsorted(np.cumsum([len(m) for m in means]), best, side="right"))
    c = best - sum(len(m) for m in means[:j])
    return float(flat[best]), kept[j], take_shots(finals[j], [c])


def race_rounds(
    group: Candidates,
    seeds,
    n_screen: int,
    rounds: tuple[tuple[int, int], ...],
    value: str = "points",
):
    """A plan step (use with ``yield from``): successive halving with several cuts, on common
    keys. Every candidate of ``group`` is screened with ``n_screen`` executions (per-candidate
    keys, as :func:`screen_and_pick`); then for each ``(keep, n)`` of ``rounds`` the ``keep``
    best by the last estimate are executed ``n`` times afresh, every survivor on the same keys
    (execution ``i`` of each draws the same error, from ``seeds[1] + r`` in round ``r``), so
    that close shots are compared on the same draws. Returns ``(means, alive)``: the last
    estimate of every survivor and their indices into ``group.shots`` (after the screen
    alone when ``rounds`` is empty; empty when nothing was legal)."""
    screen = yield group.ask(group.shots, n_screen, int(seeds[0]))
    means = np.nan_to_num(screen.means(value), nan=-np.inf)
    alive = np.arange(len(means))
    for r, (keep, n) in enumerate(rounds):
        order = np.argsort(-means, kind="stable")[:keep]
        order = order[np.isfinite(means[order])]
        if len(order) == 0:
            return np.zeros(0), np.zeros(0, int)
        alive = alive[order]
        asks = [group.ask(take_shots(group.shots, [c]), n, int(seeds[1]) + r) for c in alive]
        answers = yield asks
        means = np.array(
            [float(np.nan_to_num(a.means(value), nan=-np.inf)[0]) for a in answers], float
        )
    return means, alive


def race(
    group: Candidates,
    seeds,
    n_screen: int,
    rounds: tuple[tuple[int, int], ...],
    value: str = "points",
):
    """A plan step (use with ``yield from``): :func:`race_rounds`, then the best of the last
    round. Returns ``(mean, shot)`` (``-inf`` and the first candidate when nothing was
    legal)."""
    means, alive = yield from race_rounds(group, seeds, n_screen, rounds, value)
    if len(alive) == 0 or not np.isfinite(means).any():
        return -np.inf, take_shots(group.shots, [0])
    best = int(np.argmax(means))
    return float(means[best]), take_shots(group.shots, [int(alive[best])])


@dataclass(frozen=True)
class SearchBudget:
    """What a greedy search spends on one stroke.

    - ``n_screen``: executions of every candidate in the screen;
    - ``keep``, ``n_eval``: the finalists re-estimated, and the fresh executions of each
      (one cut: :func:`screen_and_pick`);
    - ``max_candidates``: the generated candidate shots kept (each game ranks its own, the
      straightest or slowest first), ``random_extra``: random shots added to them;
    - ``rounds``: several cuts instead of one (:func:`race`): after the screen, ``(keep, n)``
      per round, the survivors on common keys; None: ``keep`` and ``n_eval``.
    """

    n_screen: int = 4
    keep: int = 6
    n_eval: int = 16
    max_candidates: int = 48
    random_extra: int = 8
    rounds: tuple[tuple[int, int], ...] | None = None

    def search(
        self,
        groups: Candidates | list[Candidates],
        seeds,
        value: str = "points",
        final_value: Callable[[Answer, int], np.ndarray] | None = None,
    ):
        """A plan step (use with ``yield from``): the search this budget describes over the
        candidate ``groups``. Returns ``(mean, k, shot)``: the best candidate's mean value
        (``-inf`` when none was legal), its group and the shot (a one-shot
        :class:`~carromlab.shots.Shot`). ``final_value`` values the finalists of one cut
        (:func:`screen_and_pick`); a race ranks by ``value`` alone and takes one group."""
        groups = [groups] if isinstance(groups, Candidates) else list(groups)
        if not self.rounds:
            return (
                yield from screen_and_pick(
                    groups, seeds, self.n_screen, self.keep, self.n_eval, value, final_value
                )
            )
        if len(groups) != 1:
            raise CarromlabError(
                f"a racing search takes one group of candidates, not {len(groups)}"
            )
        mean, shot = yield from race(groups[0], seeds, self.n_screen, self.rounds, value)
        return mean, 0, shot


#: The search-budget fields, in order (players show them in their reprs).
BUDGET_FIELDS = tuple(f.name for f in fields(SearchBudget))


__all__ = [
    "BUDGET_FIELDS",
    "Candidates",
    "SearchBudget",
    "race",
    "race_rounds",
    "screen_and_pick",
]
