"""Run many noisy shots of one position through the kernel, chunk by chunk.

A run is a list of *cells* (base shots: one for an estimate, one per grid cell for a shot
map) with ``n`` noisy executions each. Shot ``i`` of cell ``c`` uses the key
``fold_in(fold_in(key(seed), id_c), i)`` where ``id_c`` is the cell's key id (its index, or
the ids given: a sweep's task ids), so every number depends only on the seed, the cell and
the shot index: never on the chunk size or on how the work is split. Chunks have a fixed shape
(the last is padded and trimmed; with the lane simulator a chunk below :data:`QUEUE` shots
runs in a queue of that size), so the kernel compiles once per simulator.

Chunks run on every core (:mod:`carromlab.physics.devices`: one JAX CPU device per core, one
thread per device taking the next chunk when it is free; several GPUs the same way), and come
back in order. A chunk's boundaries and shape never depend on the device count, and each
chunk is computed whole by the same program, so the results are the same, bit for bit, on
any number of cores (tests/test_devices.py).

Inside a chunk the shots run in refilling lanes by default
(:func:`~carromlab.physics.kernel.make_lane_simulator`: a lane whose shot has come to rest
takes the next one), so a chunk costs its shots' mean event count rather than its longest
shot's; ``lanes=0`` runs the plain batch simulator. Both give the same outcomes, bit for bit.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from dataclasses import dataclass, replace

import jax
import jax.numpy as jnp
import numpy as np

from carromlab.errors import CarromlabError
from carromlab.input_schema import check_run
from carromlab.physics import Physics
from carromlab.physics.devices import compute_devices, map_chunks
from carromlab.physics.kernel import (
    DEFAULT_CONTACTS,
    LANES,
    Discs,
    batch_simulator_for,
    disc_bucket,
    lane_simulator_for,
)
from carromlab.physics.priors import PhysicsPrior
from carromlab.physics.table import Pieces, Table
from carromlab.shots import Shot, SkillNoise, hand_set_plan_for, place_shooter, set_by_hand

#: Events between two harvests of finished lanes.
LANE_STEPS = 1
#: The queue sizes of the lane simulator's programs: every kernel call runs a queue of one of
#: these sizes, the slots past the call's real shots dead discs that the lane simulator never
#: starts (its real-shot count is traced), so one compiled program serves runs of any size: an
#: estimate of 100 shots, one of 2,000 and a shot map of 10^6.
QUEUE_SIZES = (4096, 32768)
#: The fewest slots of a lane simulator's queue: a chunk of at most this many shots runs in a
#: queue of this size, so every chunk size up to it shares one compiled program (the cost:
#: placing and returning the dead slots' discs, well under a millisecond a call). A run
#: shorter than a chunk steps all ``LANES`` lanes, the unused ones idle: a few milliseconds an
#: event, against seconds to compile a program of its own.
QUEUE = QUEUE_SIZES[0]
#: The fewest shots a call runs (a smaller chunk is raised to it): every call places and
#: returns the whole queue, so a call of a few shots costs as much as one of 64.
MIN_CHUNK = 64


@dataclass
class Chunk:
    """One chunk of results: ``cell`` and ``index`` of every shot, the executed shots, and the
    kernel's outcome arrays (numpy), all trimmed to the real shots; ``start``: where every
    disc started (``x``, ``y``: (shots, discs), the shooter placed and a hand-set position's
    pieces moved), for checks that replay a shot elsewhere (the pymunk validation)."""

    cell: np.ndarray
    index: np.ndarray
    shots: dict
    outcome: dict
    physics: dict = dataclasses.field(default_factory=dict)  # per-shot draws of a prior
    start: dict = dataclasses.field(default_factory=dict)


class ShotRunner:
    """Simulates noisy shots of ``position`` with a shooting piece of ``shooter_kind`` (index 0).

    ``chunk``: the shots a kernel call runs (:func:`chunk_size`: as asked up to :data:`QUEUE`,
    one of :data:`QUEUE_SIZES` above it), which bounds memory above :data:`QUEUE` and sets
    how finely a run reports progress and keeps finished work;
    ``max_events`` is the kernel's event cap. The discs are padded with dead ones to
    ``capacity`` (default: :func:`~carromlab.physics.kernel.disc_bucket` of the position's
    count), so runners for positions with fewer pieces (later in a game) share one compiled
    kernel; outcomes are trimmed back to the real discs.
    ``physics`` is a :class:`Physics` or a :class:`~carromlab.physics.priors.PhysicsPrior`
    (parameters drawn per shot; each chunk then carries the draws). ``contacts``: the
    kernel's contact model (:data:`~carromlab.physics.kernel.CONTACT_MODELS`).
    ``hand_set``: when the position is set by hand (an opening), how far its pieces move per
    shot (m; ``None``: :data:`~carromlab.shots.HAND_SET`, 0: off); drawn from each shot's key.
    """

    def __init__(
        self,
        position,
        shooter_kind: str = "striker",
        chunk: int = 4096,
        max_events: int = 512,
        physics: Physics | None = None,
        capacity: int | None = None,
        contacts: str = DEFAULT_CONTACTS,
        hand_set: float | None = None,
        lanes: int | None = None,
        cores: int | None = None,
    ):
        self.position = position
        self.shooter_kind = shooter_kind
        self.max_events = max_events
        self.table = Table.from_layout(position.board.layout)
        self.pieces = Pieces.from_position(position, shooter=(shooter_kind, None, 0.0, 0.0))
        self.n_real = self.pieces.n
        padded = self.pieces.padded(capacity or disc_bucket(self.pieces.n))
        self.template = Discs.from_pieces(padded)
        self.chunk = chunk_size(chunk)
        self._asked_chunk = int(chunk)
        self.physics = physics or Physics()
        self.prior = self.physics if isinstance(self.physics, PhysicsPrior) else None
        self.lanes = LANES if lanes is None else int(lanes)
        if self.lanes < 0:
            raise CarromlabError(f"lanes: 0 (off) or a positive number of lanes, not {lanes}")
        if self.lanes:
            self._sim = lane_simulator_for(
                position.board.layout,
                padded.n,
                max_events,
                self.lanes,
                contacts,
                per_shot_physics=self.prior is not None,
                steps=LANE_STEPS,
            )
        else:
            self._sim = batch_simulator_for(
                position.board.layout,
                padded.n,
                max_events,
                per_shot_physics=self.prior is not None,
                contacts=contacts,
            )
        self.devices = compute_devices(cores)
        self.contacts = contacts
        self.hand_plan = hand_set_plan_for(position, padded, hand_set)
        #: The hand-set size in use (m; 0 when the position is not set by hand or it is off).
        self.hand_set = self.hand_plan.size
        self._hand = {
            k: jnp.asarray(v) for k, v in self.hand_plan.arrays(self.template.x.dtype).items()
        }
        self._discs = _place_batch

    @property
    def ids(self) -> tuple[str, ...]:
        return self.pieces.ids

    def run(
        self,
        cells: Shot,
        n: int,
        noise,
        seed: int,
        progress: bool = False,
        desc: str = "shots",
        key_ids=None,
        bar=None,
    ) -> Iterator[Chunk]:
        """Yield chunks covering ``n`` noisy executions of every cell of ``cells`` (a Shot of
        arrays with one entry per cell); ``key_ids`` (one int per cell, default the cell's
        index) are what the cells' keys are folded from. ``bar``: a progress bar (tqdm) the
        caller owns, advanced by the shots done and left open (for a run made of several
        calls: a resumable shot map's blocks); without it ``progress`` shows one of its own."""
        from tqdm import tqdm

        base = jax.tree_util.tree_map(lambda a: jnp.atleast_1d(jnp.asarray(a, float)), cells)
        n_cells = int(base.x.shape[0])
        ids = np.arange(n_cells) if key_ids is None else np.asarray(key_ids, np.int64)
        if ids.shape != (n_cells,) or (ids < 0).any() or (ids >= 2**31).any():
            raise CarromlabError(f"key_ids: one id in [0, 2**31) per cell ({n_cells}), got {ids}")
        ids = jnp.asarray(ids, jnp.int32)
        check_run(n_cells, n, desc)  # the shots are numbered with int32
        total = n_cells * n
        # with the lane simulator every call runs up to ``step`` (the runner's chunk) shots
        # in a queue of ``size`` (one of QUEUE_SIZES) slots, the rest dead discs it never
        # starts: a smaller chunk (finer progress, resumption) shares the default chunk's
        # program; the plain batch runs the run's own size (it would compute its padding)
        step = self.chunk if self.lanes else min(self._asked_chunk, total)
        size = max(step, QUEUE) if self.lanes else step
        base, ids = _pad_cells(base, ids)
        make = _noisy_maker(noise, self.prior)
        root = jax.random.key(seed)

        def one(start, device) -> Chunk:
            flat = np.arange(start, start + size)
            keep = min(step, total - start)
            flat_j = jnp.asarray(np.minimum(flat, total - 1), jnp.int32)
            live = jnp.asarray(np.arange(size) < keep)
            if device is not None:
                flat_j, live = jax.device_put((flat_j, live), device)
            shots, physics, keys = make(root, base, ids, flat_j, n)
            if self.prior is None:
                physics = self.physics
            discs = self._discs(self.template, shots, self._hand, keys, live)
            out = self._sim(discs, physics, keep) if self.lanes else self._sim(discs, physics)
            return Chunk(
                cell=(flat // n)[:keep],
                index=(flat % n)[:keep],
                shots={
                    k: np.asarray(getattr(shots, k))[:keep] for k in ("x", "y", "angle", "speed")
                },
                outcome={k: _trim(np.asarray(v)[:keep], self.n_real) for k, v in vars(out).items()},
                physics={
                    k: np.asarray(getattr(physics, k))[:keep]
                    for k in (self.prior.names if self.prior else ())
                },
                start={
                    k: _trim(np.asarray(getattr(discs, k))[:keep], self.n_real) for k in ("x", "y")
                },
            )

        own = bar is None
        if own:
            bar = tqdm(total=total, desc=desc, unit="shot", disable=not progress, unit_scale=True)
        try:
            for chunk in map_chunks(one, range(0, total, step), self.devices):
                bar.update(len(chunk.cell))
                yield chunk
        finally:
            if own:
                bar.close()


def _trim(a: np.ndarray, n_real: int) -> np.ndarray:
    """Drop the padding discs' columns of a per-disc outcome array."""
    return a[:, :n_real] if a.ndim == 2 else a


def chunk_size(chunk: int) -> int:
    """The shots a lane-simulator call runs for an asked ``chunk``: the chunk itself up to
    :data:`QUEUE` (at least :data:`MIN_CHUNK`; every such call runs in the one queue of
    :data:`QUEUE` slots), above it the largest of :data:`QUEUE_SIZES` not above it (a queue
    of its own size).

    A chunk below :data:`QUEUE` used to be rounded down to 512 or 64 shots: a run asked in
    chunks of 4,082 ran in chunks of 512, each with its lanes emptying at its end and the
    queue's 4,096 slots placed and returned for an eighth of them live (the cut at half its
    speed; docs/benchmarks.md, 2026-12-07)."""
    chunk = max(MIN_CHUNK, int(chunk))
    if chunk <= QUEUE:
        return chunk
    return max(q for q in QUEUE_SIZES if q <= chunk)


#: The fewest cells the noise maker is compiled for; above it, the next power of 16
#: (:func:`_pad_cells`).
MIN_CELLS = 64


def _pad_cells(base: Shot, ids: jax.Array) -> tuple[Shot, jax.Array]:
    """The cells (and their key ids) repeated up to 64, 1,024, 16,384... cells: the noise
    maker is compiled for a few cell counts, not one per grid (the extra cells are never
    drawn; repeating a few floats costs nothing next to a compile of the maker, 0.5 s)."""
    n = int(ids.shape[0])
    size = MIN_CELLS
    while size < n:
        size *= 16
    pick = jnp.minimum(jnp.arange(size), n - 1)
    return jax.tree_util.tree_map(lambda a: a[pick], base), ids[pick]


def _place_one(template: Discs, shot: Shot, hand: dict, key, live) -> Discs:
    """One shot's discs: the hand-set pieces moved (:func:`~carromlab.shots.set_by_hand`),
    the shooter placed; every disc dead when ``live`` is False (a chunk's padding: the kernel
    finds no event, the lane simulator never starts it)."""
    x, y = set_by_hand(
        key,
        template.x,
        template.y,
        hand["hand_movable"],
        hand["hand_cx"],
        hand["hand_cy"],
        hand["hand_spread"],
        hand["hand_size"],
        hand["hand_key"],
    )
    d = place_shooter(replace(template, x=x, y=y), shot)
    return replace(d, alive=d.alive & live)


#: Place the shooter (and move hand-set pieces) for a batch of shots (one jitted function
#: shared by every runner).
_place_batch = jax.jit(jax.vmap(_place_one, in_axes=(None, 0, None, 0, 0)))


def _noisy_maker(noise, prior=None):
    """``make(root, base, ids, flat, n) -> (shots, physics draws or None, keys)``, jitted
    (``n``, the shots per cell, is traced: one compilation serves every size). A skill's
    noise (:class:`~carromlab.shots.SkillNoise`, a pytree) is an argument of the compiled
    function, so every skill shares it; any other noise function is closed over."""
    if isinstance(noise, SkillNoise):
        return functools.partial(_noisy_maker_for(None, prior), noise=noise)
    return functools.partial(_noisy_maker_for(noise, prior), noise=None)


@functools.lru_cache(maxsize=64)
def _noisy_maker_for(fixed, prior):
    @jax.jit
    def make(root, base: Shot, ids, flat, n, noise):
        jitter = fixed if noise is None else noise

        def one(f):
            cell, i = f // n, f % n
            key = jax.random.fold_in(jax.random.fold_in(root, ids[cell]), i)
            shot = jax.tree_util.tree_map(lambda a: a[cell], base)
            return jitter(key, shot), (None if prior is None else prior.draw(key)), key

        return jax.vmap(one)(flat)

    return make
