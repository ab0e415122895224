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
    #: The grid's steps (placement m, angle rad, speed m/s): the map search refines within
    #: half a step of a good candidate (None: the smallest spacing of ``shots`` on each axis).
    steps: tuple[float, float, float] | None = None

    def ask(self, shots: Shot, n: int, seed: int, common: bool = False) -> Ask:
        return Ask(self.view, shots, n, int(seed), self.noise, self.turn, self.scoring, common)


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
    #: Kernel shots a decision for the map search (:func:`map_search`): set, it replaces the
    #: screen-and-pick above (None: off).
    shots: int | None = None

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
        if self.shots:
            return (yield from map_search(groups, seeds, self.shots, value, final_value))
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


#: The search-budget fields players show in their reprs, in order (``shots``, the map
#: search's budget, is shown after the player's own fields when it is set).
BUDGET_FIELDS = tuple(f.name for f in fields(SearchBudget) if f.name != "shots")


#: How the map search shares its budget: the screen, the narrowing, the refinement and the
#: final estimates (fractions of ``shots``; a numerical choice, docs/decisions.md).
MAP_SHARES = (0.45, 0.15, 0.2, 0.2)
#: Candidates the narrowing keeps, windows refined, candidates drawn in each window, and the
#: finalists re-estimated.
MAP_KEEP, MAP_STARTS, MAP_WINDOW, MAP_FINALS = 32, 4, 8, 6
#: Fewest executions of a candidate in the screen (the screen thins a larger set of
#: candidates to fit its share, keeping every k-th).
MAP_MIN_SCREEN = 2


def _steps(shots: Shot) -> tuple[float, float, float]:
    """The smallest spacing of the candidates' placements (x, when every shot starts on one
    line), angles and speeds: the refinement windows' half-widths (0: not refined)."""

    def step(v) -> float:
        u = np.unique(np.round(np.asarray(v, float), 9))
        return float(np.diff(u).min()) if len(u) > 1 else 0.0

    one_line = len(np.unique(np.round(np.asarray(shots.y, float), 9))) == 1
    return (step(shots.x) if one_line else 0.0, step(shots.angle), step(shots.speed))


def _window(shot: Shot, steps, count: int, rng: np.random.Generator) -> Shot:
    """``count`` shots drawn uniformly within half a step of ``shot`` on each axis (speeds
    kept positive), ``shot`` itself first."""
    dx, da, dv = (0.5 * s for s in steps)
    u = rng.uniform(-1.0, 1.0, size=(count - 1, 3))
    x = np.r_[shot.x[0], shot.x[0] + dx * u[:, 0]]
    a = np.r_[shot.angle[0], shot.angle[0] + da * u[:, 1]]
    v = np.r_[shot.speed[0], np.maximum(0.05, shot.speed[0] + dv * u[:, 2])]
    return Shot(x, np.full(count, float(shot.y[0])), a, v)


def _flat_top(means: list[np.ndarray], k: int) -> list[tuple[int, int]]:
    """The ``k`` best (group, candidate) pairs by mean, best first; non-finite ones dropped."""
    values = _ranked(means)
    group = np.concatenate([np.full(len(m), g) for g, m in enumerate(means)])
    cell = np.concatenate([np.arange(len(m)) for m in means])
    order = np.argsort(-values, kind="stable")[:k]
    return [(int(group[i]), int(cell[i])) for i in order if np.isfinite(values[i])]


def map_finalists(groups: list[Candidates], seeds, shots: int, value: str = "points"):
    """A plan step (use with ``yield from``): stages 1-3 of :func:`map_search` (screen,
    narrow, refine) at a budget of about ``shots`` kernel shots a decision. Returns
    ``(finals, n)``: the finalists, ``(group index, one shot)`` each (the starts, then each
    window's own best; :data:`MAP_FINALS` at most), and the executions each gets of the
    final stage's share; ``finals`` is empty when no candidate was legal."""
    share = [max(1, int(f * shots)) for f in MAP_SHARES]
    sizes = [len(g.shots.x) for g in groups]
    total = sum(sizes)
    n1 = share[0] // max(total, 1)
    thin = 1
    if n1 < MAP_MIN_SCREEN:
        n1 = MAP_MIN_SCREEN
        thin = int(np.ceil(total * MAP_MIN_SCREEN / share[0]))
    picked = [np.arange(0, n, thin) for n in sizes]
    pools = [take_shots(g.shots, p) for g, p in zip(groups, picked, strict=True)]
    base = int(seeds[0])
    screens = yield [g.ask(s, n1, base, common=True) for g, s in zip(groups, pools, strict=True)]
    top = _flat_top([a.means(value) for a in screens], MAP_KEEP)
    if not top:
        return [], 0
    # 2. narrow
    n2 = max(2, share[1] // len(top))
    narrowed = yield [groups[g].ask(take_shots(pools[g], [c]), n2, base + 1, True) for g, c in top]
    means2 = np.array([float(np.nan_to_num(a.means(value)[0], nan=-np.inf)) for a in narrowed])
    order = np.argsort(-means2, kind="stable")[:MAP_STARTS]
    starts = [(top[i][0], take_shots(pools[top[i][0]], [top[i][1]])) for i in order]
    # 3. refine around each start
    rng = np.random.default_rng(np.random.SeedSequence([int(seeds[1]), 3]))
    windows = [
        (g, _window(s, groups[g].steps or _steps(groups[g].shots), MAP_WINDOW, rng))
        for g, s in starts
    ]
    n3 = max(2, share[2] // (MAP_WINDOW * len(windows)))
    refined = yield [groups[g].ask(w, n3, base + 2, common=True) for g, w in windows]
    finals: list[tuple[int, Shot]] = list(starts)
    for (g, w), a in zip(windows, refined, strict=True):
        m = np.nan_to_num(a.means(value), nan=-np.inf)
        best = int(np.argmax(m))
        if best != 0 and np.isfinite(m[best]):  # the window's own best, if not its start
            finals.append((g, take_shots(w, [best])))
    finals = finals[:MAP_FINALS]
    return finals, max(2, share[3] // len(finals))


def map_final_asks(groups: list[Candidates], finals: list, n: int, seeds) -> list:
    """The final stage's asks (:func:`map_search`, stage 4): each finalist ``n`` times on
    fresh common keys (``seeds[0] + 3``)."""
    return [groups[g].ask(s, n, int(seeds[0]) + 3, common=True) for g, s in finals]


def map_search(
    groups: list[Candidates],
    seeds,
    shots: int,
    value: str = "points",
    final_value: Callable[[Answer, int], np.ndarray] | None = None,
):
    """A plan step (use with ``yield from``): the search ``best`` runs, at a budget of about
    ``shots`` kernel shots a decision, on the candidate ``groups`` (a game's candidates and
    its default shot map's cells).

    1. Screen every candidate (thinned to every k-th when the screen's share cannot give each
       :data:`MAP_MIN_SCREEN` executions) on common random numbers;
    2. narrow: the :data:`MAP_KEEP` best executed again, on common keys;
    3. refine: around each of the :data:`MAP_STARTS` best, :data:`MAP_WINDOW` shots drawn
       within half the grid's step on each axis (placement, angle, speed), on common keys;
    4. final: the starts and each window's best (:data:`MAP_FINALS` at most) re-estimated on
       fresh common keys, valued with ``final_value`` when given; the best is played.

    Budget shares: :data:`MAP_SHARES`. Seeds: ``seeds[0] + stage`` for the stages, the
    windows from ``seeds[1]``. Stages 1-3 are :func:`map_finalists` (a player that values
    the finalists otherwise, the lookahead on the search, starts from them). Returns
    ``(mean, k, shot)`` as :func:`screen_and_pick`."""
    finals, n4 = yield from map_finalists(groups, seeds, shots, value)
    if not finals:
        return -np.inf, 0, take_shots(groups[0].shots, [0])
    # 4. final estimates on fresh keys
    answers = yield map_final_asks(groups, finals, n4, seeds)
    scores = []
    for (g, _s), a in zip(finals, answers, strict=True):
        v = a.means(value) if final_value is None else a.cell_means(final_value(a, g))
        scores.append(float(np.nan_to_num(v[0], nan=-np.inf)))
    j = int(np.argmax(scores))
    return scores[j], finals[j][0], finals[j][1]


__all__ = [
    "BUDGET_FIELDS",
    "Candidates",
    "SearchBudget",
    "map_final_asks",
    "map_finalists",
    "map_search",
    "race",
    "race_rounds",
    "screen_and_pick",
]
