"""What one compiled kernel program holds fixed, and what a shot binds to it.

- The kernel's constants (contact tolerance, closing speed, the contact models, the cluster
  solve's steps, the pair rows' padding width, the solve lanes, the CPU compiler options):
  each says what it is and where its value comes from.
- :class:`KernelSpec`, one frozen static spec built once per board, disc count and cap by
  :func:`make_spec`: the walls (segments, rails, posts) as one table, the captures, the
  surface, the pair tables (slot of each pair i < j), the counts, the event cap, the
  contact model and whether a trace is recorded. Python and numpy only: nothing in it is
  traced, so it is what a compiled program is specialised on (the "model" of a
  model/data split).
- :class:`Constants`, what one shot's event loop reads and never writes, bound by
  :func:`bind` from the spec, the shot's discs and its :class:`~carromlab.physics.Physics`
  (traced): the discs' fixed properties, the deceleration, the contact tolerance in the
  discs' dtype, the walls' restitutions and geometry as arrays.

Every step of the loop is a module-level function ``f(spec, c, state)`` over these
(:mod:`carromlab.physics.kernel.step`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from carromlab.physics.kernel.state import Discs
from carromlab.physics.params import CUSHION_MATERIALS, Physics
from carromlab.physics.table import Table

#: Contact tolerance in metres by float size (bytes): float32 1e-6, float64 1e-12. About 30
#: float32 ulps of a coordinate on a 0.74 m board; the pair quartic converges to half of it.
#: A numerical choice (docs/physics.md).
CONTACT_TOL = {4: 1e-6, 8: 1e-12}
#: Discs whose gap is at most this (m) touch: one cluster, solved together (``cluster.py``).
#: A physical length, the same in float32 and float64, so the two precisions are roundings
#: of one model: 2 um, below any real gap that matters (coins are set and come to rest
#: touching within a few um; the hand-set openings' gaps are 0.3 mm) and twice the float32
#: contact tolerance (where it was 2 x CONTACT_TOL before, 2e-12 m in float64: there moving
#: one coin of a touching triangle by 1 nm split the cluster). docs/physics.md, "Touching".
TOUCH_GAP = 2e-6
#: Touching discs that close slower than this (m/s) are not a contact. After a plastic
#: contact a cluster moves at one common velocity, but float32 rounding leaves 1-ulp
#: differences that would make two contacts of one disc take turns for ever at one instant.
#: Choice: far below ``Physics.stick_speed`` (0.01 m/s); such a pair drifts together by at
#: most a few micrometres before it stops (removed by ``physics/settle.py``).
CLOSING_SPEED = 1e-5
#: Contact models (static, in the spec): ``"cluster"`` (the default) solves every contact of
#: a struck touching cluster together, without regard to labels; ``"sequential"`` resolves
#: the contacts of one instant pair by pair, lowest index first, the model before it
#: (docs/physics.md, "Touching clusters"). A lone pair is the same in both.
CONTACT_MODELS = ("sequential", "cluster")
DEFAULT_CONTACTS = "cluster"
#: Cluster solve: fourth-order steps per contact half-period of the cluster's stiffest contact
#: (:func:`~carromlab.physics.kernel.cluster.solve_clusters`). At 8 the rosette's break leaves
#: the cluster within about 0.15 % of the converged speeds (7e-3 m/s at 5 m/s; 24 steps:
#: 4e-4, 100 steps: 2e-5; docs/physics.md); and the cap on steps per solve.
CLUSTER_STEPS = 8
CLUSTER_MAX_STEPS = 20_000
#: The pair rows' discs are padded to a multiple of this (:func:`~carromlab.physics.kernel.
#: detect.pair_rows`): the float32 lanes of a 256-bit vector register (512-bit vectors take a
#: row of 24 as 16 + 8). Measured: the event step 1.61 us a shot instead of 2.65-3.0
#: (docs/benchmarks.md).
PAIR_WIDTH = 8
#: Pair rows computed together in one pass of ``moving_pair_times`` (at a shot's start:
#: usually one disc, the striker, moves).
ROWS_PER_PASS = 2
#: Cluster solves (and the full refresh after one) run for at most this many shots of a batch
#: at once, the shots that need one gathered together, round after round: the batch's other
#: shots do not wait on them (under a plain vmap every shot would run every solve's loop).
#: 64 or 128 measured no faster on the 2-core CPU (docs/benchmarks.md).
SOLVE_LANES = 32
#: Shots in flight at once in a lane simulator's refilling lanes (the shot runner's and the
#: games' evaluator's default, so that an estimate and a game on one board share one compiled
#: program). Measured on the 2-core CPU (2026-12-03, docs/benchmarks.md): the break 7,100
#: shots/s with 128 lanes against 6,100 with 512 and 4,500 with 64; cuts alike with any; whole
#: ICF boards as fast as with 64 lanes (53.6 s against 55.0 s) and 1.7 times faster than with
#: 512, whose lanes idle while a game's few long strokes run.
LANES = 128
#: Disc counts a kernel is compiled for when a caller lets the count round up
#: (:func:`disc_bucket`): a position's discs are padded with dead ones (which cost next to
#: nothing) to the next of these, so one program serves every position of a board up to that
#: many pieces. 20, 26: full ICF and Carroms boards (the striker included), so their
#: positions are never padded; 8 keeps the small positions of a game's end (and tests) cheap.
DISC_BUCKETS = (8, 20, 26, 32, 48, 64)
#: XLA options for the kernel's compiled programs on a CPU: vectors of 512 bits where the CPU
#: has them (AVX-512; elsewhere the widest it has). Outcomes are the same bit for bit; the
#: break ran 5-10 % faster on a 2-core AMD EPYC (docs/benchmarks.md). Not used on a GPU.
CPU_COMPILER_OPTIONS: dict[str, Any] = {"xla_cpu_prefer_vector_width": 512}
#: Wall kinds in :attr:`KernelSpec.wall_kind`.
SEGMENT, RAIL, POST = 0, 1, 2


@dataclass(frozen=True, eq=False)
class KernelSpec:
    """The static spec of one kernel program (built once: :func:`make_spec`).

    Attributes:
        n: discs (disc 0 is the shooter).
        max_events: the event cap.
        record: keep a :class:`~carromlab.physics.kernel.state.Trace` row per event.
        contacts: the contact model (:data:`CONTACT_MODELS`).
        cluster_steps: the cluster solve's steps per contact half-period.
        pair_width: the pair rows' padding multiple (:data:`PAIR_WIDTH`).
        wall_geom: (W, 4) every wall: segment x0, y0, x1, y1 | rail cx, cy, R, 0 | post x, y,
            r, 0; segments first, then rails, then posts (``Table.cushion_names`` order).
        wall_kind: (W,) :data:`SEGMENT`, :data:`RAIL` or :data:`POST`.
        wall_cushion: (W,) True: the wall's restitution is ``e_cushion``, else ``e_post``.
        n_seg, n_rail, n_post: walls of each kind.
        captures: (C, 4) x, y, radius, skip speed of each pocket or hole.
        ditch: leaving the circular surface falls into a ditch (an event).
        surface_size: the surface's size (m; the circle's radius where ``ditch``).
        pair_i, pair_j: (P,) the pairs i < j in lexicographic order.
        slot: (N, N) each pair's slot in ``pair_t`` (both orders); (i, i): the dummy slot P.
        slot_i, slot_j: (P + 1,) each slot's discs (the dummy slot: 0, 0).
    """

    n: int
    max_events: int
    record: bool
    contacts: str
    cluster_steps: int
    pair_width: int
    wall_geom: np.ndarray
    wall_kind: np.ndarray
    wall_cushion: np.ndarray
    n_seg: int
    n_rail: int
    n_post: int
    captures: np.ndarray
    ditch: bool
    surface_size: float
    pair_i: np.ndarray
    pair_j: np.ndarray
    slot: np.ndarray
    slot_i: np.ndarray
    slot_j: np.ndarray

    @property
    def n_walls(self) -> int:
        return len(self.wall_kind)

    @property
    def n_caps(self) -> int:
        return len(self.captures)

    @property
    def n_pairs(self) -> int:
        return len(self.pair_i)

    @property
    def code_ditch(self) -> int:
        """One-disc event codes are laid out [captures (C) | ditch (1) | walls (W)]."""
        return self.n_caps

    @property
    def code_wall0(self) -> int:
        return self.n_caps + 1


def make_spec(
    table: Table,
    n_pieces: int,
    max_events: int = 512,
    record: bool = False,
    contacts: str = DEFAULT_CONTACTS,
    cluster_steps: int = CLUSTER_STEPS,
    pair_width: int = PAIR_WIDTH,
) -> KernelSpec:
    """The :class:`KernelSpec` of ``table`` for ``n_pieces`` discs; a ``ValueError`` naming
    the known contact models for any other."""
    if contacts not in CONTACT_MODELS:
        raise ValueError(f"contacts must be one of {', '.join(CONTACT_MODELS)}, not {contacts!r}")
    geom = [*table.segments.tolist()]
    geom += [[*r, 0.0] for r in table.rails.tolist()]
    geom += [[*p, 0.0] for p in table.posts.tolist()]
    kind = [SEGMENT] * len(table.segments) + [RAIL] * len(table.rails)
    kind += [POST] * len(table.posts)
    mats = table.segment_materials + table.rail_materials + table.post_materials
    n = n_pieces
    pair_i, pair_j = np.triu_indices(n, 1)
    n_pairs = len(pair_i)
    slot = np.full((n, n), n_pairs, dtype=np.int32)  # (i, i) -> the dummy slot
    slot[pair_i, pair_j] = np.arange(n_pairs)
    slot[pair_j, pair_i] = np.arange(n_pairs)
    return KernelSpec(
        n=n,
        max_events=max_events,
        record=record,
        contacts=contacts,
        cluster_steps=cluster_steps,
        pair_width=pair_width,
        wall_geom=np.array(geom, dtype=float).reshape(-1, 4),
        wall_kind=np.array(kind, dtype=np.int32),
        wall_cushion=np.array([m in CUSHION_MATERIALS for m in mats], dtype=bool),
        n_seg=len(table.segments),
        n_rail=len(table.rails),
        n_post=len(table.posts),
        captures=np.asarray(table.captures, dtype=float).reshape(-1, 4),
        ditch=table.surface_beyond == "ditch" and table.surface_shape == "circle",
        surface_size=float(table.surface_size),
        pair_i=pair_i,
        pair_j=pair_j,
        slot=slot,
        slot_i=np.append(pair_i, 0).astype(np.int32),
        slot_j=np.append(pair_j, 0).astype(np.int32),
    )


@dataclass(frozen=True)
class Constants:
    """What one shot's event loop reads and never writes (:func:`bind`): traced values.

    Attributes:
        discs: the shot's :class:`~carromlab.physics.kernel.state.Discs` (their ``radius``,
            ``inv_mass``, ``hard`` and ``static`` are read; the start state comes from them).
        physics: the shot's :class:`~carromlab.physics.Physics`.
        dtype: the discs' float dtype (float32, or float64 under ``jax_enable_x64``).
        tol: () the contact tolerance (m; :data:`CONTACT_TOL`): discs whose gap is at most
            this touch.
        a: () the sliding deceleration ``mu * g`` (m/s^2); (N,) each disc's own where
            ``k`` is set.
        a0: () the coins' sliding deceleration ``mu * g`` (``a`` where ``k`` is None).
        k: None where every disc slides alike (the default: ``Physics.striker_friction``
            is 1); else (N,) each disc's friction as a multiple of the coins' (the striker's
            material: ``striker_friction``). Static: a program is compiled with or without.
        recheck: () ``sqrt(tol / 2a)``: how soon a touching, slowly parting pair is looked
            at again (:func:`~carromlab.physics.kernel.detect.pair_rows`; per pair where
            ``k`` is set).
        wall_geom: (W, 4) the spec's walls in the discs' dtype; ``seg_geom``, ``rail_geom``,
            ``post_geom`` its rows of each kind.
        wall_kind: (W,) int32.
        e_wall: (W,) each wall's restitution.
        caps: (C, 4) the captures in the discs' dtype.
        surface_r: () the surface's size.
    """

    discs: Discs
    physics: Physics
    dtype: jnp.dtype
    tol: jax.Array
    a: jax.Array
    a0: jax.Array
    k: jax.Array | None
    recheck: jax.Array
    wall_geom: jax.Array
    wall_kind: jax.Array
    e_wall: jax.Array
    caps: jax.Array
    surface_r: jax.Array
    seg_geom: jax.Array
    rail_geom: jax.Array
    post_geom: jax.Array


def bind(spec: KernelSpec, d: Discs, physics: Physics) -> Constants:
    """The :class:`Constants` of one shot with discs ``d`` under ``physics``."""
    dtype = d.x.dtype
    tol = jnp.asarray(CONTACT_TOL[jnp.dtype(dtype).itemsize], dtype)
    a = jnp.asarray(physics.mu * physics.g, dtype)
    # the striker's own friction (a static field): each disc's deceleration only in the
    # programs that ask for it
    k = None
    if physics.striker_friction != 1.0:
        k = jnp.where(d.hard, jnp.asarray(physics.striker_friction, dtype), jnp.asarray(1.0, dtype))
    wall_geom = jnp.asarray(spec.wall_geom, dtype)
    n_seg, n_rail = spec.n_seg, spec.n_rail
    return Constants(
        discs=d,
        physics=physics,
        dtype=dtype,
        tol=tol,
        a=a if k is None else a * k,
        a0=a,
        k=k,
        recheck=jnp.sqrt(tol / (2 * a)),
        wall_geom=wall_geom,
        wall_kind=jnp.asarray(spec.wall_kind),
        e_wall=jnp.where(jnp.asarray(spec.wall_cushion), physics.e_cushion, physics.e_post),
        caps=jnp.asarray(spec.captures, dtype).reshape(-1, 4),
        surface_r=jnp.asarray(spec.surface_size, dtype),
        seg_geom=wall_geom[:n_seg],
        rail_geom=wall_geom[n_seg : n_seg + n_rail],
        post_geom=wall_geom[n_seg + n_rail :],
    )


def disc_bucket(n: int) -> int:
    """The disc count a kernel for ``n`` discs is compiled for: the next of
    :data:`DISC_BUCKETS` (beyond them, the next multiple of 32)."""
    for b in DISC_BUCKETS:
        if n <= b:
            return b
    return -(-n // 32) * 32


def kernel_compiler_options() -> dict[str, Any] | None:
    """:data:`CPU_COMPILER_OPTIONS` when JAX's default backend is the CPU, else None."""
    return CPU_COMPILER_OPTIONS if jax.default_backend() == "cpu" else None
