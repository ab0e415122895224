"""Many positions' shots in one kernel batch: the engine under whole-game play.

An :class:`Ask` is a request for ``n`` noisy executions of each of some base shots from one
position (a policy screening candidates, or the one real execution of a stroke). An
:class:`Evaluator` answers a list of asks from many positions (many games) with as few kernel
calls as possible: the shots of every ask are laid end to end, cut into blocks of a few fixed
sizes (so the kernel compiles a few times) and each shot gets its own position's discs,
padded with dead discs to one capacity.

Keys are those of :class:`~carromlab.analysis.runner.ShotRunner`: shot ``i`` of the ``j``-th
legal base shot of an ask with seed ``s`` uses ``fold_in(fold_in(key(s), j), i)``, so an
answer depends only on the ask, never on what else shares its batch.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from carromlab.analysis.runner import _trim
from carromlab.analysis.variants import VariantAnalysis, analysis_for
from carromlab.errors import CarromlabError
from carromlab.physics import Physics
from carromlab.physics.devices import compute_devices, map_chunks
from carromlab.physics.kernel import LANES, Discs, disc_bucket, lane_simulator_for
from carromlab.physics.table import Pieces
from carromlab.shots import Shot, check_hand_set, hand_set_plan_for, place_shooter, set_by_hand


@dataclass(frozen=True)
class Ask:
    """``n`` noisy executions (``noise``, a skill's noise function) of every base shot in
    ``shots`` (a :class:`Shot` of 1-d arrays) from ``position``; ``turn`` and ``scoring`` are
    the rules' turn state and shot-value weights used to value the outcomes (defaults: the
    variant's). Execution ``i`` of the ``j``-th legal base shot is keyed
    ``fold_in(fold_in(key(seed), j), i)``; with ``common`` every base shot's execution ``i``
    is keyed ``fold_in(fold_in(key(seed), 0), i)``: common random numbers, the same error
    drawn for every candidate, so that close shots are compared on the same draws."""

    position: Any
    shots: Shot
    n: int
    seed: int
    noise: Any
    turn: Any = None
    scoring: Any = None
    common: bool = False


@dataclass
class Answer:
    """The outcomes of one ask. ``legal[c]``: base shot ``c`` could be placed (illegal ones
    are not simulated); ``cell``/``index``: base shot and execution of every simulated row;
    ``outcome``: the kernel's arrays, rows in that order, trimmed to the position's discs."""

    ask: Ask
    legal: np.ndarray
    cell: np.ndarray
    index: np.ndarray
    outcome: dict
    #: the position's variant's shot-analysis hooks, as the evaluator held them
    analysis: VariantAnalysis | None = None

    def evaluate(self) -> dict[str, np.ndarray]:
        """The rules' per-shot quantities (see the variant's ``rules.evaluate``)."""
        va = self.analysis or analysis_for(self.ask.position.variant)
        turn = self.ask.turn if self.ask.turn is not None else va.default_turn()
        return va.rules.evaluate(self.ask.position, self.outcome, turn, self.ask.scoring)

    def means(self, key: str = "points") -> np.ndarray:
        """Mean of the rules' quantity ``key`` per base shot; NaN for illegal ones."""
        return self.cell_means(self.evaluate()[key])

    def cell_means(self, values) -> np.ndarray:
        """Mean of per-execution ``values`` (one per simulated row) per base shot; NaN for
        illegal ones."""
        values = np.asarray(values, dtype=float)
        n_cells = len(self.legal)
        sums = np.bincount(self.cell, weights=values, minlength=n_cells)
        counts = np.bincount(self.cell, minlength=n_cells)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.legal, sums / counts, np.nan)


def legal_shots(position, shots: Shot, analysis: VariantAnalysis | None = None) -> np.ndarray:
    """Which base shots have a legal placement for the shooter (on its line, in a legal
    interval, not on a piece); ``analysis``: the variant's hooks (None: looked up)."""
    va = analysis or analysis_for(position.variant)
    return va.legal_origin(position, shots.x, shots.y)


class Evaluator:
    """Answers asks from positions on one board ``layout``; every position is padded to
    ``capacity`` discs (the shooter included) rounded up to the kernel's next disc bucket
    (:func:`~carromlab.physics.kernel.disc_bucket`), so that games and estimates on a board
    share one compiled program (padding discs are dead: they change no outcome).

    The kernel runs shots in ``lanes`` lanes that refill as shots come to rest
    (:func:`~carromlab.physics.kernel.make_lane_simulator`), at most ``block`` shots a call;
    every call's queue is padded to ``block`` shots (dead discs, which the lane simulator does
    not start), so one program is compiled for every call; the blocks run on every core's device
    (:mod:`~carromlab.physics.devices`). A shot's numbers depend only on its ask and key, for
    a given ``lanes`` and ``block``, on any number of cores. ``max_events`` is high (4096):
    with refilling lanes a long shot holds up no other, and a real stroke should not be cut
    short. ``hand_set``: how far the
    pieces of a position set by hand (an opening) move per shot (m; ``None``:
    :data:`~carromlab.shots.HAND_SET`; 0: off), drawn from each shot's key. ``analysis``:
    the shot-analysis hooks of the variant it mostly answers for, handed down by the caller
    that resolved them (a position of another variant has its own looked up)."""

    def __init__(
        self,
        layout,
        capacity: int,
        lanes: int = LANES,
        block: int = 4096,
        max_events: int = 4096,
        physics: Physics | None = None,
        hand_set: float | None = None,
        analysis: VariantAnalysis | None = None,
    ):
        self.layout = layout
        self.analysis = analysis
        #: The hand-set size for positions set by hand (None: HAND_SET; 0: off).
        self.hand_set = None if hand_set is None else check_hand_set(hand_set)
        self.capacity = disc_bucket(int(capacity))
        self.lanes = int(lanes)
        self.block = max(int(block), 4 * self.lanes)
        self.max_events = int(max_events)
        self.physics = physics or Physics()
        self._sim = lane_simulator_for(layout, self.capacity, self.max_events, self.lanes)
        self.devices = compute_devices()
        self.shots_run = 0

    def analysis_of(self, position) -> VariantAnalysis:
        """The shot-analysis hooks of ``position``'s variant: the evaluator's own, else
        looked up."""
        if self.analysis is not None and self.analysis.variant == position.variant:
            return self.analysis
        return analysis_for(position.variant)

    def answer(self, asks: list[Ask]) -> list[Answer]:
        """One answer per ask, in order."""
        for a in asks:
            if a.position.board.layout != self.layout:
                raise CarromlabError(
                    f"position {a.position.name!r} is on another board than this evaluator's"
                )
            if int(a.n) <= 0:
                raise CarromlabError(f"an ask needs n >= 1 executions, not {a.n}")
        answers: list[Answer | None] = [None] * len(asks)
        groups: dict[Any, list[int]] = {}
        for k, a in enumerate(asks):
            groups.setdefault(a.noise, []).append(k)
        for noise, members in groups.items():
            for k, ans in zip(members, self._answer_group(noise, [asks[k] for k in members])):
                answers[k] = ans
        return answers

    def _answer_group(self, noise, asks: list[Ask]) -> list[Answer]:
        templates, n_real, legal, analyses = [], [], [], []
        t_idx, seeds, rank, keyed, index, base = [], [], [], [], [], []
        for k, a in enumerate(asks):
            va = self.analysis_of(a.position)
            analyses.append(va)
            tmpl, nr = _template(a.position, self.capacity, self.hand_set, va)
            templates.append(tmpl)
            n_real.append(nr)
            shots = _as_arrays(a.shots)
            ok = legal_shots(a.position, shots, va)
            legal.append(ok)
            cells = np.flatnonzero(ok)
            n = int(a.n)
            j = np.repeat(np.arange(len(cells)), n)  # rank among the legal base shots
            t_idx.append(np.full(len(j), k))
            seeds.append(np.full(len(j), int(a.seed), dtype=np.uint32))
            rank.append(j)
            keyed.append(np.zeros_like(j) if a.common else j)  # what the keys fold in
            index.append(np.tile(np.arange(n), len(cells)))
            base.append(np.stack([getattr(shots, f)[cells][j] for f in SHOT_FIELDS]))
        bounds = np.concatenate([[0], np.cumsum([len(t) for t in t_idx])])
        t_idx, seeds, rank, keyed, index = map(np.concatenate, (t_idx, seeds, rank, keyed, index))
        base = np.concatenate(base, axis=1)
        total = len(t_idx)
        self.shots_run += total
        flat: dict[str, np.ndarray] = {}
        if total:
            make = _disc_maker(noise)
            # each shot's discs are gathered here, so the compiled shapes depend only on the
            # block size, never on how many shots or positions share the call
            stacked = {f: np.stack([t[f] for t in templates]) for f in templates[0]}

            def run_block(start, device):
                count = min(self.block, total - start)
                size = self.block
                sl = np.minimum(np.arange(start, start + size), total - 1)

                def put(a):
                    return a if device is None else jax.device_put(a, device)

                discs = make(
                    {f: put(jnp.asarray(v[t_idx[sl]])) for f, v in stacked.items()},
                    put(jnp.asarray(seeds[sl])),
                    put(jnp.asarray(keyed[sl], jnp.int32)),
                    put(jnp.asarray(index[sl], jnp.int32)),
                    Shot(*(put(jnp.asarray(base[f][sl])) for f in range(4))),
                    put(jnp.asarray(np.arange(size) < count)),  # padding: dead discs, no events
                )
                out = self._sim(discs, self.physics, count)
                return {f: np.asarray(getattr(out, f))[:count] for f in vars(out)}

            # the blocks run on every core's device, each on the next free one, in order
            outs = list(map_chunks(run_block, range(0, total, self.block), self.devices))
            flat = {f: np.concatenate([o[f] for o in outs]) for f in outs[0]}
        answers = []
        for k, a in enumerate(asks):
            rows = slice(bounds[k], bounds[k + 1])  # an ask's shots are contiguous
            cells = np.flatnonzero(legal[k])
            answers.append(
                Answer(
                    ask=a,
                    legal=legal[k],
                    cell=cells[rank[rows]],
                    index=index[rows],
                    outcome={f: _trim(v[rows], n_real[k]) for f, v in flat.items()},
                    analysis=analyses[k],
                )
            )
        return answers


SHOT_FIELDS = ("x", "y", "angle", "speed")


@functools.lru_cache(maxsize=1024)
def _template(
    position, capacity: int, hand_set: float | None = None, analysis=None
) -> tuple[dict, int]:
    """The position's discs (shooter first) as numpy arrays padded to ``capacity``, with its
    hand-set plan (:func:`~carromlab.shots.hand_set_plan_for`); cached, since a stroke asks
    about one position several times. ``analysis``: the variant's hooks (None: looked up)."""
    va = analysis or analysis_for(position.variant)
    pieces = Pieces.from_position(
        va.table_position(position), shooter=(va.shooter_kind, None, 0.0, 0.0)
    )
    if pieces.n > capacity:
        raise CarromlabError(
            f"position {position.name!r} has {pieces.n} discs with the shooter; "
            f"the evaluator holds {capacity}"
        )
    padded = pieces.padded(capacity)
    arrays = Discs.arrays(padded)
    plan = hand_set_plan_for(position, padded, hand_set)
    return {**arrays, **plan.arrays(arrays["x"].dtype)}, pieces.n


def _as_arrays(shots: Shot) -> Shot:
    return Shot(*(np.atleast_1d(np.asarray(getattr(shots, f), float)) for f in SHOT_FIELDS))


@functools.lru_cache(maxsize=64)
def _disc_maker(noise):
    """Jitted: per-shot keys, noise, and the shooter placed on its own position's discs."""

    @jax.jit
    def make(discs, seeds, rank, index, base: Shot, live) -> Discs:
        def one(tmpl, s, j, i, shot, on):
            key = jax.random.fold_in(jax.random.fold_in(jax.random.key(s), j), i)
            d = Discs(**{k: v for k, v in tmpl.items() if not k.startswith("hand_")})
            plan = [tmpl[f"hand_{k}"] for k in ("movable", "cx", "cy", "spread", "size", "key")]
            x, y = set_by_hand(key, d.x, d.y, *plan)
            d = place_shooter(Discs(**{**vars(d), "x": x, "y": y}), noise(key, shot))
            return Discs(**{**vars(d), "alive": d.alive & on})

        return jax.vmap(one)(discs, seeds, rank, index, base, live)

    return make
