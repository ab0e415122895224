"""Policies: who chooses which shot. Pluggable: a policy has ``plan(position, turn, seed)``,
a generator that may yield :class:`~carromlab.analysis.asks.Ask` requests (noisy shots to be
simulated), receives an :class:`~carromlab.analysis.asks.Answer` for each, and returns the
:class:`~carromlab.shots.Shot` it plays (for a shooter on the South line). ``choose`` runs a
plan on its own; whole-game play runs the plans of many games together, so the kernel sees
one batch spanning all of them (``play/loop.py``).

- :class:`RandomLegal`: a uniformly random legal placement (not on a coin), aim and speed.
- :class:`GreedyBase`: the base of every sliding-disc game's greedy player, written once
  and played by none as it is: a game supplies its candidate shots (and the value of the
  position a stroke leaves, where it has one); the search, screen then re-estimate or a race in rounds, spends a typed
  :class:`~carromlab.analysis.search.SearchBudget`. Noise-aware: the same candidate scores
  differently at different skills. Each game's greedy player is a thin configuration of it
  (``games/<game>/players.py``).
- :class:`Greedy`: the one concrete greedy player here, the line boards' pocketing player
  (ICF's ``greedy``; Carroms aims it at its own targets; its name is the one its logged runs
  were claimed under, so it keeps it): the candidate shots of
  :func:`~carromlab.analysis.candidates.candidate_arrays` on the shooter's own coins (and the queen once an own coin is down) plus a few random
  legal shots, valued under the turn's state.

Whole-game code rotates the board so that the player on strike always shoots from South.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import ClassVar

import numpy as np

from carromlab.analysis.asks import Answer, Evaluator
from carromlab.analysis.candidates import candidate_arrays
from carromlab.analysis.players import Decision, decided
from carromlab.analysis.search import BUDGET_FIELDS, Candidates, SearchBudget
from carromlab.analysis.variants import VariantAnalysis, analysis_for
from carromlab.errors import CarromlabError
from carromlab.shots import Shot
from carromlab.shots import skill as skill_named


def drive_plan(plan, evaluator: Evaluator) -> Decision:
    """Drive one player's plan to its :class:`~carromlab.analysis.players.Decision`,
    answering each ask as it comes (a plan that yields a list of asks gets a list of
    answers), as the game loop does (:mod:`carromlab.play.loop`)."""
    try:
        asks = next(plan)
        while True:
            many = isinstance(asks, (list, tuple))
            answers = evaluator.answer(list(asks) if many else [asks])
            asks = plan.send(answers if many else answers[0])
    except StopIteration as stop:
        return decided(stop.value)


def run_plan(plan, evaluator: Evaluator):
    """:func:`drive_plan`, to the decision's shot."""
    return drive_plan(plan, evaluator).shot


def _choose(policy, position, turn, seed: int, capacity: int) -> Shot:
    evaluator = Evaluator(position.board.layout, max(capacity, len(position.pieces) + 1))
    return run_plan(policy.plan(position, turn, seed), evaluator)


@dataclass(frozen=True)
class RandomLegal:
    """Random legal shots: placement uniform over the legal line, aim 15-165 deg, speed
    0.5-5 m/s (decision: the range of real strokes)."""

    angle_deg: tuple[float, float] = (15.0, 165.0)
    speed: tuple[float, float] = (0.5, 5.0)

    def choose(self, position, turn=None, seed: int = 0) -> Shot:
        return self.shot(position, seed)

    def plan(self, position, turn=None, seed: int = 0):
        return Decision(self.shot(position, seed))
        yield  # a plan that asks nothing

    def shot(self, position, seed: int = 0) -> Shot:
        rows = random_legal_shots(
            position, 1, np.random.default_rng(seed), self.angle_deg, self.speed
        )
        y0 = analysis_for(position.variant).shot_y(position.board)
        return Shot(float(rows[0, 0]), y0, math.radians(rows[0, 1]), float(rows[0, 2]))


def random_legal_shots(
    position,
    k: int,
    rng: np.random.Generator,
    angle_deg=(15.0, 165.0),
    speed=(0.5, 5.0),
    analysis: VariantAnalysis | None = None,
) -> np.ndarray:
    """``k`` random legal shots as rows (placement m, angle deg, speed m/s): placements
    uniform over the legal intervals of the shooting line and not on a piece, aims and speeds
    uniform in their ranges (``analysis``: the variant's hooks; None: looked up)."""
    va = analysis or analysis_for(position.variant)
    board = position.board
    spans = np.array(va.placement_intervals(board), float)
    widths = spans[:, 1] - spans[:, 0]
    xs: list[float] = []
    for _ in range(100):
        pick = rng.choice(len(spans), size=4 * k, p=widths / widths.sum())
        x = rng.uniform(spans[pick, 0], spans[pick, 1])
        xs.extend(x[va.free_placement(position, x)].tolist())
        if len(xs) >= k:
            break
    if len(xs) < k:
        raise CarromlabError(f"no free legal placement for the {va.shooter_kind} was found")
    angles = rng.uniform(*angle_deg, size=k)
    speeds = rng.uniform(*speed, size=k)
    return np.column_stack([xs[:k], angles, speeds])


def line_placements(position, step: float, analysis: VariantAnalysis | None = None) -> np.ndarray:
    """Placements along ``position``'s shooting line about ``step`` apart (m): each legal
    interval from end to end, at least its two ends (``analysis``: the variant's hooks;
    None: looked up)."""
    va = analysis or analysis_for(position.variant)
    spans = va.placement_intervals(position.board)
    return np.concatenate(
        [np.linspace(lo, hi, max(2, round((hi - lo) / step) + 1)) for lo, hi in spans]
    )


#: The default search: 48 candidates and 8 random shots screened with 4 executions each, the
#: best 6 re-estimated with 16: about 320 kernel shots a stroke.
DEFAULT_BUDGET = SearchBudget()

#: Greedy racing twice the default candidates (96 cuts and 16 random shots, each screened
#: with 4 executions), then 16 x 8, 6 x 24 and 2 x 96 executions on common keys: about 900
#: kernel shots a stroke. At club it chose strokes worth +0.07 points more than the default
#: budget and won 0.655 of 400 ICF boards against it (docs/studies.md, "Stronger players").
RACING = SearchBudget(max_candidates=96, random_extra=16, rounds=((16, 8), (6, 24), (2, 96)))


@dataclass(frozen=True, repr=False)
class GreedyBase:
    """The base of the greedy players, written once (a game plays a subclass: the line
    boards' :class:`Greedy`, ``CarrookaGreedy``...): the best expected value over a game's candidate
    shots, found by the search its :class:`~carromlab.analysis.search.SearchBudget`
    describes (screen every candidate, re-estimate the best few, play the best; or race them
    in rounds).

    A game configures it (a subclass) with:

    - :meth:`candidate_groups`: its candidate shots, one or more groups
      (:class:`~carromlab.analysis.search.Candidates`, made with :meth:`group`), from the
      stroke's seed (required);
    - :meth:`leave_value`: what the position a finalist's execution leaves is worth on top of
      the rules' ``value`` (Carrooka: a clear line at the next piece on); None: nothing;
    - :meth:`break_decision`: a stroke played without a search (a searched break);
    - :meth:`decision`: the :class:`~carromlab.analysis.players.Decision` from the best shot.

    Keys: the search's seeds are ``SeedSequence([seed, 7]).generate_state(2) >> SEED_SHIFT``
    (:mod:`~carromlab.analysis.search`). The repr shows ``REPR`` in order (budget fields by
    name), then the subclass's own fields, then any budget field not shown that differs from
    the class's default: the players' reprs are stored with their logged runs
    (:mod:`carromlab.play.log` resumes a run only when they match).
    """

    skill: str = "club"
    budget: SearchBudget = DEFAULT_BUDGET

    #: The rules' quantity the search maximises (a field where a player lets it be chosen).
    value = "points"
    #: The rules' shot-value weights the candidates are valued with (None: the variant's).
    scoring = None
    REPR: ClassVar[tuple[str, ...]] = ("skill", *BUDGET_FIELDS)
    SEED_SHIFT: ClassVar[int] = 1

    def plan(self, view, turn=None, seed: int = 0):
        """The player interface (:mod:`carromlab.analysis.players`)."""
        played = self.break_decision(view, turn)
        if played is not None:
            return played
        groups, seeds = self.search_start(view, turn, seed)
        mean, k, shot = yield from self.budget.search(
            groups, seeds, self.value, self._final_value(groups)
        )
        decision = self.decision(groups[k], shot, mean)
        if decision.values:
            return decision
        # the search's own estimate of the played shot (``value``: its mean under the
        # player's scoring, with any leave), read by ``carromlab decide``
        return replace(decision, values={"value": float(mean)})

    def search_start(self, view, turn, seed: int) -> tuple[list[Candidates], np.ndarray]:
        """The stroke's candidate groups and the search's seeds (the class's docstring)."""
        groups = self.candidate_groups(view, turn, seed)
        seeds = np.random.SeedSequence([seed, 7]).generate_state(2) >> self.SEED_SHIFT
        return groups, seeds

    def candidate_groups(self, view, turn, seed: int) -> list[Candidates]:
        raise NotImplementedError(f"{type(self).__name__} generates no candidates")

    def leave_value(self, answer: Answer, evaluated: dict, group: Candidates):
        """Per execution of ``answer`` (a finalist's re-estimate; ``evaluated``: the rules'
        quantities of it), the value of the position it leaves; None: none."""
        return None

    def break_decision(self, view, turn) -> Decision | None:
        """The stroke played without a search (None: search)."""
        return None

    def decision(self, group: Candidates, shot: Shot, mean: float) -> Decision:
        """The decision to play ``shot`` (one shot of ``group``; ``mean``: its value, -inf
        when no candidate was legal)."""
        return Decision(shot)

    def group(self, view, shots: Shot, turn, analysis: VariantAnalysis | None = None) -> Candidates:
        """Candidate ``shots`` from ``view`` under ``turn``, executed with this player's
        noise and valued with its ``scoring`` (``analysis``: the variant's hooks, where the
        caller holds them; None: looked up)."""
        noise = (analysis or analysis_for(view.variant)).noise(skill_named(self.skill))
        return Candidates(view, shots, turn, noise, self.scoring)

    def _final_value(self, groups: list[Candidates]):
        def final(answer: Answer, k: int) -> np.ndarray:
            evaluated = answer.evaluate()
            leave = self.leave_value(answer, evaluated, groups[k])
            now = evaluated[self.value]
            return now if leave is None else now + leave

        return final

    def __repr__(self) -> str:
        own = [f.name for f in fields(self) if f.repr and f.name != "budget"]
        names = [*self.REPR, *(n for n in own if n not in self.REPR)]
        default = type(self).__dataclass_fields__["budget"].default
        budget_names = (*BUDGET_FIELDS, "shots")  # shots: the map search's, when set
        names += [
            n
            for n in budget_names
            if n not in names and getattr(self.budget, n) != getattr(default, n)
        ]
        shown = (f"{n}={getattr(self.budget if n in budget_names else self, n)!r}" for n in names)
        return f"{type(self).__name__}({', '.join(shown)})"


@dataclass(frozen=True, repr=False)
class Greedy(GreedyBase):
    """The pocketing player of the line boards (ICF, Carroms), a :class:`GreedyBase` with
    its candidates: the candidates of
    :func:`~carromlab.analysis.candidates.candidate_arrays` (direct cuts and one-cushion
    banks) on the shooter's targets from every ``placement_step`` of the shooting line,
    padded with random legal shots, searched at ``skill`` under the turn's state."""

    value: str = "points"
    capacity: int = 20
    #: The rules' shot-value weights (e.g. ``IcfScoring(queen_covered=5)`` when the queen is
    #: worth 5); None: the variant's defaults.
    scoring: object = None
    #: Spacing of the candidate placements on the shooting line (m).
    placement_step: float = 0.05
    #: The break (placement m, angle deg, speed m/s), played without screening; ``"search"``:
    #: the break found by :func:`~carromlab.analysis.breaks.searched_break` for this
    #: player's skill and scoring (stored per game, searched once when missing); None: the
    #: break is screened like any stroke. Decision: by default a hard, straight flick from
    #: the middle of the baseline at the centre of the rosette (a hard flick is 4-6 m/s,
    #: docs/equipment.md). Screening candidate cuts into a packed rosette finds little and
    #: costs as much as the rest of the board (break shots have 100+ events each).
    break_shot: tuple[float, float, float] | str | None = (0.0, 90.0, 5.0)

    REPR: ClassVar[tuple[str, ...]] = (
        "skill",
        *BUDGET_FIELDS[:-1],
        "value",
        "capacity",
        "scoring",
        "placement_step",
        "break_shot",
        "rounds",
    )

    def plan(self, position, turn=None, seed: int = 0):
        turn = turn if turn is not None else analysis_for(position.variant).default_turn()
        return (yield from super().plan(position, turn, seed))

    def candidates(self, position, turn, seed: int) -> list[tuple[float, float, float]]:
        """Candidate shots on the shooter's coins (and the queen once an own coin is down),
        padded with random legal shots to ``max_candidates + random_extra``."""
        va = analysis_for(position.variant)  # once for the stroke's candidates
        own = self.targets(position, turn)
        placements = line_placements(position, self.placement_step, va)
        cand = candidate_arrays(position, pieces=own, placements=placements, analysis=va)
        best = np.lexsort((cand["speed"], cand["cut"]))[: self.budget.max_candidates]  # stable
        cells = list(zip(cand["placement"][best], cand["angle"][best], cand["speed"][best]))
        # random legal shots fill up to a fixed count (the same work every stroke)
        need = self.budget.max_candidates + self.budget.random_extra - len(cells)
        if need > 0:
            rng = np.random.default_rng(np.random.SeedSequence([seed, 11]))
            cells += [tuple(row) for row in random_legal_shots(position, need, rng, analysis=va)]
        return cells

    def candidate_groups(self, position, turn, seed: int) -> list[Candidates]:
        cells = np.array(self.candidates(position, turn, seed), float)
        va = analysis_for(position.variant)
        return [self.group(position, _cell_shots(cells, va.shot_y(position.board)), turn, va)]

    def targets(self, position, turn) -> list[str]:
        """The pieces worth pocketing: the shooter's coins, and the queen once one is down."""
        return [
            p.id
            for p in position.pieces
            if (p.kind == "coin" and p.owner == turn.shooter)
            or (p.kind == "queen" and turn.own_down > 0)
        ]

    def break_decision(self, position, turn) -> Decision | None:
        if not getattr(turn, "is_break", False) or self.break_shot is None:
            return None
        x, a, v = self.opening(position, turn)
        return Decision(Shot(float(x), _shot_y(position), math.radians(a), float(v)))

    def decision(self, group: Candidates, shot: Shot, mean: float) -> Decision:
        y0 = _shot_y(group.view)
        return Decision(Shot(float(shot.x[0]), y0, float(shot.angle[0]), float(shot.speed[0])))

    def opening(self, position, turn) -> tuple[float, float, float]:
        """The break this player plays (``break_shot``; a search's when it is "search")."""
        if isinstance(self.break_shot, str):
            if self.break_shot != "search":
                raise CarromlabError(
                    f"break_shot must be (placement, angle, speed), 'search' or None, "
                    f"not {self.break_shot!r}"
                )
            from carromlab.analysis.breaks import searched_break

            return searched_break(position, self.skill, turn, scoring=self.scoring)
        return self.break_shot

    def choose(self, position, turn=None, seed: int = 0) -> Shot:
        return _choose(self, position, turn, seed, self.capacity)


#: The map search's budget by default: kernel shots a decision (docs/decisions.md).
MAP_BUDGET = SearchBudget(shots=16384)

#: How many times its greedy candidates (and random shots) a searching player generates
#: (:func:`map_searching`): the map search screens more shots than a greedy screen can.
MAP_WIDEN = 4


def map_searching(player: GreedyBase, shots: int | None = None, widen: int = MAP_WIDEN):
    """``player`` (any game's :class:`GreedyBase`) as a search-based player: its own
    candidates, ``widen`` times as many (placements, aims, pots and random shots), searched
    by the map search (:func:`~carromlab.analysis.search.map_search`: screened on common
    random numbers, narrowed, refined within half a step of the best, the finalists
    re-estimated, with the player's own leave) at ``shots`` kernel shots a decision (default
    :data:`MAP_BUDGET`'s). The one budget number trades strength for cost; every game's
    greedy player becomes its search player this way (the line boards' :class:`MapGreedy`
    adds the default shot map's cells too)."""
    shots = MAP_BUDGET.shots if shots is None else int(shots)
    if shots < 1 or widen < 1:
        raise CarromlabError(f"map_searching: shots and widen must be positive ({shots}, {widen})")
    b = player.budget
    wide = replace(
        b,
        shots=shots,
        max_candidates=b.max_candidates * widen,
        random_extra=b.random_extra * widen,
    )
    return replace(player, budget=wide)


@dataclass(frozen=True, repr=False)
class MapGreedy(Greedy):
    """The search-based player of the line boards: :class:`Greedy`'s candidates (cuts, banks
    and random legal shots) joined with the cells of the game's default shot map
    (:func:`~carromlab.analysis.shotmap.default_grid`, its speeds joined with
    ``map_speeds``, as ``best`` joins them), searched as ``best`` searches: screened on
    common random numbers, narrowed, refined around the best cells, the finalists
    re-estimated (:func:`~carromlab.analysis.search.map_search`), at ``budget.shots`` kernel
    shots a decision: the one number that trades strength for cost."""

    budget: SearchBudget = MAP_BUDGET
    #: Speeds joined with the default map's (m/s; best's own speeds).
    map_speeds: tuple[float, ...] = (1.0, 2.0, 3.5)

    def candidates(self, position, turn, seed: int) -> list[tuple[float, float, float]]:
        from carromlab.analysis.shotmap import default_grid

        cells = super().candidates(position, turn, seed)
        placements, angles, speeds = default_grid(position.variant)
        both = sorted({float(v) for v in (*speeds, *self.map_speeds)})
        cells += [(float(p), float(a), v) for p in placements for a in angles for v in both]
        return cells

    def candidate_groups(self, position, turn, seed: int) -> list[Candidates]:
        from carromlab.analysis.shotmap import default_grid

        placements, angles, speeds = default_grid(position.variant)
        both = sorted({float(v) for v in (*speeds, *self.map_speeds)})

        def step(v) -> float:
            u = np.unique(np.asarray(v, float))
            return float(np.diff(u).min()) if len(u) > 1 else 0.0

        steps = (step(placements), math.radians(step(angles)), step(both))
        return [replace(g, steps=steps) for g in super().candidate_groups(position, turn, seed)]


def _shot_y(position) -> float:
    """The y of the shooting line of ``position``'s variant (line boards)."""
    return analysis_for(position.variant).shot_y(position.board)


def _cell_shots(cells: np.ndarray, y0: float) -> Shot:
    """Base shots from rows (placement m, angle deg, speed m/s) on the line ``y = y0``."""
    return Shot(cells[:, 0], np.full(len(cells), y0), np.radians(cells[:, 1]), cells[:, 2])
