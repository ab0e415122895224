"""The learned screen's data, training and player.

**Data** (:func:`carromlab.play.training.generate`, which plays the games): self-play
between a game's ``search`` players (its greedy player on the map search, at a budget of its
own) at several skills.
Every decision the search makes is recorded (:class:`Recorder`): each candidate it executes is
a label (the mean value and foul rate of its executions, with their count), tens to thousands
a decision, and the stroke it chose. Each decision also executes :data:`EXPLORE` random legal
strokes (any placement, aim and speed up to :data:`MAX_SPEED`, power shots included) a few
times, so that the network sees strokes the search never screens. Games are played in batches
of ``batch`` games; each finished batch is one ``.npz`` file in the data folder, so a stopped
run resumes at the first missing batch.

**Training** (:func:`train`): the decisions are split by a hash of their index into training
and validation (:data:`VALIDATION` of them); the network (:mod:`carromlab.analysis.screen`) is
fitted with optax's Adam, each batch :data:`GROUP` labels from each of a few decisions, on the
value (squared error, and the squared error with each decision's mean error taken out: what
ranks one position's strokes; each label weighted by its executions, capped at
:data:`WEIGHT_CAP`) and the foul rate (cross-entropy, weighted alike). The
validation figures: the rank correlation between predicted and simulated values within a
decision (candidates with at least :data:`WELL_MEASURED` executions), the mean error of the
values, and how often the stroke the search chose is among the network's top 8 of the
decision's candidates.

**The player** (:class:`LearnedScreen`, mixed into a game's greedy player): the network ranks
far more candidates than the search screens (the player's own candidates, each aim also at
power speeds, and a fine grid of placements, aims and speeds), in one batched call; the
kernel executes only the ``top`` best and narrows them in rounds at about ``shot_budget``
kernel shots a decision.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from carromlab.analysis.learned_data import EXPLORE as EXPLORE
from carromlab.analysis.learned_data import KEEP_PER_ASK as KEEP_PER_ASK
from carromlab.analysis.learned_data import MAX_SPEED as MAX_SPEED
from carromlab.analysis.learned_data import N_EXPLORE as N_EXPLORE
from carromlab.analysis.learned_data import VALIDATION as VALIDATION
from carromlab.analysis.learned_data import (
    Recorder,
    Records,
    decision_features,
    load_data,
    shot_features,
    split,
)
from carromlab.analysis.policies import Greedy, line_placements
from carromlab.analysis.screen import (
    ScreenSpec,
    load_screen,
    new_screen,
    predict,
)
from carromlab.analysis.search import Candidates, SearchBudget
from carromlab.errors import CarromlabError
from carromlab.shots import Shot, concat_shots, take_shots

#: Labels a training batch takes from each of its decisions (the network runs once a
#: decision; the loss compares them within it).
GROUP = 32
#: A training batch draws half of each decision's labels from its best this many (by their
#: simulated value): the strokes worth most are rare, and the player needs the top ranked.
TOP_LABELS = 64
#: A label's weight is its executions, capped here (a finalist's hundreds of executions
#: would drown the screen's many cells).
WEIGHT_CAP = 32
#: Candidates with at least this many executions count in the validation's rank correlation.
WELL_MEASURED = 16
#: The skills of the self-play games, cycled batch by batch.
SKILLS = ("club", "expert", "novice")


# ---------------------------------------------------------------------------------------------
# training


def _draw_batch(
    rng: np.random.Generator,
    train_dec: np.ndarray,
    groups: int,
    per: int,
    order: np.ndarray,
    first: np.ndarray,
    count: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """A training batch: ``groups`` decisions of ``train_dec`` and ``per`` label rows of each
    (``order``: the labels by decision, each its best first, from ``first`` for ``count``)."""
    dec = rng.choice(train_dec, size=groups, replace=len(train_dec) < groups)
    # half of a decision's labels from all of it, half from its best TOP_LABELS: the
    # strokes worth most are a few in a thousand, and the ranking at the top is the use
    span = count[dec, None]
    top = np.minimum(span, TOP_LABELS)
    lim = np.concatenate(
        [np.repeat(span, per - per // 2, axis=1), np.repeat(top, per // 2, axis=1)], axis=1
    )
    pick = first[dec, None] + (rng.random((groups, per)) * lim).astype(int)
    return dec, order[pick]


def train(
    data: dict[str, np.ndarray],
    spec: ScreenSpec,
    steps: int = 4000,
    batch: int = 512,
    seed: int = 0,
    lr: float = 2e-3,
    progress: bool = True,
    log: Callable[[dict], None] | None = None,
):
    """Fit a fresh network to ``data`` (:func:`load_data`); returns ``(net, figures)``."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp
    import optax
    from tqdm import tqdm

    val = split(len(data["pieces"]))
    # each decision's labels together, its best first (the top-weighted draw below)
    order = np.lexsort((-data["value"], data["pos"]))
    pos_sorted = data["pos"][order]
    first = np.searchsorted(pos_sorted, np.arange(len(val)))
    count = np.searchsorted(pos_sorted, np.arange(len(val)), side="right") - first
    train_dec = np.flatnonzero(~val & (count > 0))
    if len(train_dec) == 0:
        raise CarromlabError("no training labels: every decision fell in the validation share")
    per = GROUP
    groups = max(1, batch // per)
    pieces = jnp.asarray(data["pieces"])
    mask = jnp.asarray(data["mask"])
    turn = jnp.asarray(data["turn"])
    net = new_screen(spec, seed)
    schedule = optax.cosine_decay_schedule(lr, steps, alpha=0.05)
    opt = optax.adam(schedule)
    state = opt.init(eqx.filter(net, eqx.is_array))

    def loss_fn(net, dec, stroke, n, value, foul):
        # (G,) decisions, (G, K) rows of each: the network runs once a decision
        out = jax.vmap(lambda d, s: net(pieces[d], mask[d], s, turn[d]))(dec, stroke)
        w = jnp.minimum(n, WEIGHT_CAP).astype(jnp.float32)
        r = out[..., 0] - value
        mse = (w * r**2).sum() / w.sum()
        # the same error with each decision's mean error taken out: what ranks strokes
        centred = r - (w * r).sum(axis=1, keepdims=True) / w.sum(axis=1, keepdims=True)
        within = (w * centred**2).sum() / w.sum()
        bce = (w * optax.sigmoid_binary_cross_entropy(out[..., 1], foul)).sum() / w.sum()
        return mse + within + 0.5 * bce, (mse, bce)

    @eqx.filter_jit
    def step(net, state, dec, stroke, n, value, foul):
        (loss, parts), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(
            net, dec, stroke, n, value, foul
        )
        updates, state = opt.update(grads, state, eqx.filter(net, eqx.is_array))
        return eqx.apply_updates(net, updates), state, loss, parts

    rng = np.random.default_rng(seed)
    bar = tqdm(range(steps), desc="training", unit="step", disable=not progress)
    t0 = time.perf_counter()
    for i in bar:
        dec, rows = _draw_batch(rng, train_dec, groups, per, order, first, count)
        net, state, _loss, (mse, bce) = step(
            net,
            state,
            jnp.asarray(dec),
            *(jnp.asarray(data[k][rows]) for k in ("stroke", "n", "value", "foul")),
        )
        if i % 200 == 0 or i == steps - 1:
            bar.set_postfix(mse=float(mse), bce=float(bce), refresh=False)
            if log is not None:
                log({"step": i, "mse": float(mse), "bce": float(bce)})
    figures = validate(net, data, val)
    figures["train_s"] = time.perf_counter() - t0
    figures["steps"] = steps
    figures["batch"] = batch
    return net, figures


def validate(net, data: dict[str, np.ndarray], val: np.ndarray, top: int = 8) -> dict:
    """Held-out figures over the validation decisions ``val`` (module docstring)."""
    from scipy.stats import spearmanr

    rhos, hits, errs, weights = [], [], [], []
    for d in np.flatnonzero(val):
        rows = np.flatnonzero(data["pos"] == d)
        if len(rows) == 0:
            continue
        pred = predict(
            net, data["pieces"][d], data["mask"][d], data["stroke"][rows], data["turn"][d]
        )
        errs.append(np.abs(pred[:, 0] - data["value"][rows]))
        weights.append(np.minimum(data["n"][rows], WEIGHT_CAP))
        good = data["n"][rows] >= WELL_MEASURED
        if good.sum() >= 4 and np.ptp(data["value"][rows][good]) > 0:
            rho = spearmanr(pred[good, 0], data["value"][rows][good]).statistic
            if np.isfinite(rho):
                rhos.append(float(rho))
        same = np.all(np.isclose(data["stroke"][rows], data["chosen"][d], atol=1e-5), axis=1)
        if same.any():
            # distinct strokes ranked by the network; is the chosen one among the top?
            order = np.argsort(-pred[:, 0], kind="stable")
            seen, picked = set(), []
            for i in order:
                k = tuple(np.round(data["stroke"][rows][i], 5))
                if k not in seen:
                    seen.add(k)
                    picked.append(i)
                if len(picked) >= top:
                    break
            hits.append(bool(same[picked].any()))
    e, w = np.concatenate(errs), np.concatenate(weights)
    return {
        "validation_decisions": int(val.sum()),
        "rank_correlation": float(np.mean(rhos)) if rhos else float("nan"),
        "rank_correlation_decisions": len(rhos),
        "value_mae": float((e * w).sum() / w.sum()),
        f"chosen_in_top_{top}": float(np.mean(hits)) if hits else float("nan"),
        "chosen_decisions": len(hits),
    }


# ---------------------------------------------------------------------------------------------
# shipped weights


def weights_path(game: str) -> Path:
    """Where a game's shipped screen lies (package data: ``games/<game>/screen.npz``, beside
    its searched breaks)."""
    from carromlab.registry import get_game

    name = get_game(game).name
    return Path(__file__).resolve().parent.parent / "games" / name / "screen.npz"


_LOADED: dict[str, tuple[Any, ScreenSpec, dict]] = {}


def screen_for(source: str):
    """``(net, spec, provenance)`` of a game's shipped screen (``source``: its name) or of a
    weight file (a path); read once a process."""
    if source not in _LOADED:
        path = Path(source) if source.endswith(".npz") else weights_path(source)
        _LOADED[source] = load_screen(path)
    return _LOADED[source]


# ---------------------------------------------------------------------------------------------
# the player


#: The candidates each round after the first keeps, and each round's share of the budget.
RACE_ROUNDS = (16, 4, 2)
RACE_SHARES = (0.5, 0.125, 0.125, 0.25)
#: Speeds every candidate aim is also ranked at (m/s; with the candidate's own).
RANK_SPEEDS = (1.2, 2.0, 3.0, 4.2, 5.5)
#: The fine grid the network ranks besides the player's candidates: placements along the line
#: every this many metres, aims every this many degrees (from 10 to 170).
GRID_STEP_M, GRID_STEP_DEG = 0.03, 1.5


def at_rank_speeds(shots: Shot) -> Shot:
    """``shots`` as they are, then each again at every one of :data:`RANK_SPEEDS`: the
    candidates of a player's own that the network ranks."""
    n = len(RANK_SPEEDS)
    again = Shot(np.repeat(shots.x, n), np.repeat(shots.y, n), np.repeat(shots.angle, n),
                 np.tile(RANK_SPEEDS, len(shots.x)))  # fmt: skip
    return concat_shots([shots, again])


@dataclass(frozen=True, repr=False)
class LearnedScreen:
    """Mixed into a greedy player (before it in the bases): the network ranks every
    candidate of every candidate group (:meth:`ranked_candidates`; a group: one turn, e.g.
    one of Carrooka's colours), the kernel estimates the ``top`` best of all groups together
    and narrows them in ``race_rounds`` (default :data:`RACE_ROUNDS`: the best 16, 4 and 2 go
    on), every round on common keys, at about ``shot_budget`` kernel shots a decision
    (``race_shares`` of it per round, default :data:`RACE_SHARES`). A candidate's score after a
    round is the mean of all its executions so far with the network's prediction counted as
    ``prior`` executions more (a shrinkage: a candidate seen a few times is not taken at its
    lucky mean); the last round's best by the mean of its executions alone is played.
    ``screen``: the game's shipped weights (its name) or a weight file's path. The defaults
    were chosen on positions kept apart (docs/decisions.md, "The learned screen")."""

    screen: str = "icf"
    top: int = 512
    shot_budget: int = 2048
    prior: float = 2.0
    race_rounds: tuple[int, ...] = RACE_ROUNDS
    race_shares: tuple[float, ...] = RACE_SHARES

    def plan(self, view, turn=None, seed: int = 0):
        from carromlab.analysis.variants import analysis_for

        turn = turn if turn is not None else analysis_for(view.variant).default_turn()
        played = self.break_decision(view, turn)
        if played is not None:
            return played
        groups, seeds = self.search_start(view, turn, seed)
        # every group's candidates ranked (a group: one turn, e.g. a nominated colour), the
        # best ``top`` of them all raced together
        ranked = [self.rank(g.view, g.turn, g) for g in groups]
        gid = np.concatenate([np.full(len(p), k) for k, (_, p) in enumerate(ranked)])
        cell = np.concatenate([np.arange(len(p)) for _, p in ranked])
        pred = np.concatenate([p for _, p in ranked])
        if len(pred) == 0:
            return self.decision(groups[0], take_shots(groups[0].shots, [0]), -np.inf)
        pick = np.argsort(-pred, kind="stable")[: self.top]
        gid, cell, pred = gid[pick], cell[pick], pred[pick]
        alive = np.arange(len(pred))
        total = np.zeros(len(pred))  # sums of the executions' values
        count = np.zeros(len(pred))
        keeps = (len(pred), *self.race_rounds)
        last = np.zeros(len(pred))
        for r, (keep, share) in enumerate(zip(keeps, self.race_shares, strict=True)):
            if r:
                score = (total + self.prior * pred) / (count + self.prior)
                order = np.argsort(-score[alive], kind="stable")[:keep]
                alive = alive[order]
            # the first round may execute each candidate once: its score leans on the
            # network's prediction (``prior``); later rounds at least twice
            n = max(1 if r == 0 else 2, int(share * self.shot_budget) // len(alive))
            kept = [k for k in range(len(ranked)) if (gid[alive] == k).any()]
            asks = [
                ranked[k][0].ask(
                    take_shots(ranked[k][0].shots, cell[alive][gid[alive] == k]),
                    n,
                    int(seeds[0]) + r,
                    True,
                )
                for k in kept
            ]
            answers = yield asks
            means = np.empty(len(alive))
            for k, answer in zip(kept, answers, strict=True):
                means[gid[alive] == k] = np.nan_to_num(answer.means(self.value), nan=-np.inf)
            total[alive] += means * n
            count[alive] += n
            last = means
        best = int(np.argmax(last))
        k, c = int(gid[alive[best]]), int(cell[alive[best]])
        mean, shot = float(last[best]), take_shots(ranked[k][0].shots, [c])
        decision = self.decision(ranked[k][0], shot, mean)
        if decision.values:
            return decision
        return replace(decision, values={"value": mean})

    def ranked_candidates(self, view, turn, group: Candidates) -> Shot:
        """Everything the network ranks: the group's candidates, each at :data:`RANK_SPEEDS`
        too, and the fine grid (:data:`GRID_STEP_M`, :data:`GRID_STEP_DEG`), the illegal
        placements dropped."""
        from carromlab.analysis.asks import legal_shots

        xs = line_placements(view, GRID_STEP_M)
        angs = np.radians(np.arange(10.0, 170.0 + 1e-9, GRID_STEP_DEG))
        gx, ga, gv = (t.ravel() for t in np.meshgrid(xs, angs, RANK_SPEEDS, indexing="ij"))
        grid = Shot(gx, np.full(len(gx), float(group.shots.y[0])), ga, gv)
        shots = concat_shots([at_rank_speeds(group.shots), grid])
        return take_shots(shots, np.flatnonzero(legal_shots(view, shots)))

    def rank(self, view, turn, group: Candidates) -> tuple[Candidates, np.ndarray]:
        """The ``top`` candidates by the network's predicted value, best first, and their
        predicted values."""
        net, spec, _ = screen_for(self.screen)
        shots = self.ranked_candidates(view, turn, group)
        pieces, mask, tv = decision_features(self, view, turn, spec.turn_size)
        pred = predict(net, pieces, mask, shot_features(shots), tv)[:, 0]
        order = np.argsort(-pred, kind="stable")[: self.top]
        chosen = Candidates(group.view, take_shots(shots, order), group.turn, group.noise,
                            group.scoring, group.steps)  # fmt: skip
        return chosen, pred[order]


def screen_provenance(game: str, data_info: dict, figures: dict, spec: ScreenSpec, **more) -> dict:
    from carromlab import __version__

    return {
        "game": game,
        "carromlab_version": __version__,
        "made": time.strftime("%Y-%m-%d"),
        "data": data_info,
        "validation": figures,
        "spec": spec.__dict__,
        **more,
    }


__all__ = [
    "SKILLS",
    "LearnedGreedy",
    "LearnedScreen",
    "Recorder",
    "Records",
    "at_rank_speeds",
    "decision_features",
    "learned_greedy",
    "load_data",
    "screen_for",
    "train",
    "validate",
    "weights_path",
]


@dataclass(frozen=True, repr=False)
class LearnedGreedy(LearnedScreen, Greedy):
    """The line boards' learned player: :class:`LearnedScreen` on
    :class:`~carromlab.analysis.policies.Greedy` (ICF; Carroms mixes it into its own greedy
    player)."""


#: The learned player's own candidates: Greedy's cuts and banks from every 5 cm, twice the
#: default count, which the network ranks beside its fine grid; no random fill (the grid
#: covers the board).
LEARNED_BUDGET = SearchBudget(max_candidates=96, random_extra=0)


def learned_greedy(skill: str = "club", screen: str = "icf", **options) -> LearnedGreedy:
    """The line boards' learned player (:class:`LearnedGreedy`) with the searched break."""
    return LearnedGreedy(
        skill=skill, screen=screen, break_shot="search", budget=LEARNED_BUDGET, **options
    )
