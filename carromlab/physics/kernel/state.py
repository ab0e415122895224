"""The kernel's typed values: a shot's discs, its loop state, its outcome and trace.

- :class:`Discs`: one shot's discs at the start (disc 0 is the shooter);
- :class:`KernelState`: the event loop's carry (every field's shape and meaning in its
  docstring);
- :class:`Kinematics`: every disc's motion at one instant, shared by the event solvers;
- :class:`Event`: the event one step resolves; :class:`Pending`: what a step's first stage
  hands on to the later ones;
- :class:`ShotOutcome`: what a shot did; :class:`Trace`: the state after every event.

All are frozen dataclasses registered as pytrees (vmap gives every field a leading batch
axis), so the loop's functions can be tested one at a time on plain values.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from numpy.typing import DTypeLike

from carromlab.physics.params import STRIKER_MATERIALS
from carromlab.physics.table import Pieces

#: The shooter's first contact (:attr:`KernelState.first_contact_kind`): none yet, a piece, a
#: wall.
FIRST_NONE, FIRST_PIECE, FIRST_WALL = 0, 1, 2


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Discs:
    """Initial state of one shot (or a batch, with a leading axis): a pytree of arrays."""

    x: jax.Array
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    radius: jax.Array
    inv_mass: jax.Array  # 0 for static pieces
    hard: jax.Array  # striker material: contacts use e_striker
    alive: jax.Array
    static: jax.Array

    @classmethod
    def from_pieces(cls, pieces: Pieces, dtype: DTypeLike | None = None) -> Discs:
        return cls(**{k: jnp.asarray(v) for k, v in cls.arrays(pieces, dtype).items()})

    @staticmethod
    def arrays(pieces: Pieces, dtype: DTypeLike | None = None) -> dict[str, np.ndarray]:
        """The fields of :meth:`from_pieces` as numpy arrays (cheap to build many of)."""
        dtype = np.dtype(dtype or jnp.result_type(float))
        f = partial(np.asarray, dtype=dtype)
        return dict(
            x=f(pieces.x),
            y=f(pieces.y),
            vx=f(np.where(pieces.static, 0.0, pieces.vx)),
            vy=f(np.where(pieces.static, 0.0, pieces.vy)),
            radius=f(pieces.radius),
            inv_mass=f(np.where(pieces.static, 0.0, 1.0 / pieces.mass)),
            hard=np.asarray([m in STRIKER_MATERIALS for m in pieces.materials], dtype=bool),
            alive=np.asarray(pieces.alive, dtype=bool),
            static=np.asarray(pieces.static, dtype=bool),
        )


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class ShotOutcome:
    """What one shot did. Capture codes: -1 on the board, 0..C-1 the table's captures
    (pockets, holes) in order, C the ditch / off the surface."""

    x: jax.Array
    y: jax.Array
    alive: jax.Array
    capture: jax.Array
    capture_time: jax.Array
    capture_order: jax.Array
    first_contact_kind: jax.Array  # 0 none, 1 piece, 2 wall
    first_contact: jax.Array  # piece index or wall index (table.cushion_names order)
    first_piece: jax.Array  # the first piece the shooter touched (after any walls); -1 none
    first_x: jax.Array  # where the shooter was at its first contact (NaN: none), the end of
    first_y: jax.Array  # its first straight leg
    contacts: jax.Array  # contacts each piece took part in
    n_piece_contacts: jax.Array
    n_wall_contacts: jax.Array
    n_events: jax.Array
    t_end: jax.Array
    truncated: jax.Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Trace:
    """The state just after every event (row 0: the start; the last valid row: at rest).

    Between two rows every disc slides on a straight line decelerating at mu * g, so the rows
    are all it takes to draw the exact paths (:func:`carromlab.physics.trace.sample_paths`).
    """

    t: jax.Array  # (E,)
    x: jax.Array  # (E, N)
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    alive: jax.Array
    event_i: jax.Array  # (E,) the event's disc i (-1 on row 0)
    event_j: jax.Array  # (E,) its partner j (== i for a one-disc event)
    event_code: jax.Array  # (E,) -1 pair contact, -2 the final "at rest" row, else the one-disc
    # code (capture, ditch, wall)
    n: jax.Array  # valid rows


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class KernelState:
    """One shot's event-loop state: the carry of the loop (:mod:`carromlab.physics.kernel.step`).

    N discs (``Discs`` order: disc 0 is the shooter), P = N(N-1)/2 pairs, C the table's
    captures; "float" is the discs' dtype (float32, or float64 under ``jax_enable_x64``). Under
    ``vmap`` every field gains the batch's leading axis. Every cached time (``pair_t``,
    ``disc_t``) is relative to ``t``: each step subtracts the time it advanced.

    Attributes:
        t: () float. Now: seconds since the shot began (the outcome's ``t_end``).
        x: (N,) float. Centres at ``t`` (m).
        y: (N,) float.
        vx: (N,) float. Velocities at ``t`` (m/s); 0 for a disc at rest or off the surface.
        vy: (N,) float.
        alive: (N,) bool. On the surface (False: captured, gone over the edge, or padding).
        v: (N,) float. Speed, ``hypot(vx, vy)``: cached with ``ux``, ``uy`` because every disc
            slides on along its direction until its next event.
        ux: (N,) float. Unit direction of motion (0, 0 at rest).
        uy: (N,) float.
        pair_t: (P + 1,) float. Time to each pair's next contact (inf: none). Slot p holds the
            pair (i, j), i < j, in lexicographic order; the last slot, where a disc's pairing
            with itself lands, is always inf.
        disc_t: (N,) float. Time to each disc's next one-disc event (inf: none).
        disc_k: (N,) int32. That event's code: c < C a capture, C the ditch, C + 1 + w wall w
            (``Table.cushion_names`` order: segments, rails, posts).
        capture: (N,) int32. -1 on the board, else the capture code the disc left by.
        capture_time: (N,) float. When it left (s since the start); NaN: still on the board.
        capture_order: (N,) int32. 0, 1, ... in the order discs left; -1: still on the board.
        n_captured: () int32. Discs that have left.
        first_contact_kind: () int32. The shooter's first contact: ``FIRST_NONE`` (none yet),
            ``FIRST_PIECE`` or ``FIRST_WALL``.
        first_contact: () int32. Its piece index or wall index; -1 none.
        first_piece: () int32. The first piece the shooter touched (after any walls); -1 none.
        first_x: () float. Where the shooter was at its first contact; NaN: none yet.
        first_y: () float.
        contacts: (N,) int32. Contacts (pairs and walls) each disc took part in.
        n_piece_contacts: () int32. Pair contacts resolved.
        n_wall_contacts: () int32. Wall contacts resolved.
        n_events: () int32. Events resolved (the final slide to rest is not one).
        done: () bool. No event was left: every disc has come to rest.
        trace: with ``record=True`` the ``Trace`` so far (rows ``0 .. trace.n - 1`` written),
            else None.
    """

    t: jax.Array
    x: jax.Array
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    alive: jax.Array
    v: jax.Array
    ux: jax.Array
    uy: jax.Array
    pair_t: jax.Array
    disc_t: jax.Array
    disc_k: jax.Array
    capture: jax.Array
    capture_time: jax.Array
    capture_order: jax.Array
    n_captured: jax.Array
    first_contact_kind: jax.Array
    first_contact: jax.Array
    first_piece: jax.Array
    first_x: jax.Array
    first_y: jax.Array
    contacts: jax.Array
    n_piece_contacts: jax.Array
    n_wall_contacts: jax.Array
    n_events: jax.Array
    done: jax.Array
    trace: Trace | None = None


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Kinematics:
    """Every disc's motion at one instant, shared by the event solvers: positions, velocities,
    speed ``v`` and unit direction ``ux``, ``uy``, ``alive``, and ``moving`` (alive, not
    static, speed > 0). All (N,)."""

    x: jax.Array
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    v: jax.Array
    ux: jax.Array
    uy: jax.Array
    alive: jax.Array
    moving: jax.Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Event:
    """The event one step resolves (:func:`~carromlab.physics.kernel.detect.next_event`).

    Attributes:
        step: () float. Time from now to the event; when none is left (``finished``), the time
            for the last sliding disc to come to rest.
        finished: () bool. No event left.
        is_pair: () bool. The earliest is a pair contact (pairs win ties).
        i: () int. The pair's discs, i < j; both k for a one-disc event.
        j: () int.
        k: () int. The disc with the earliest one-disc event (whatever ``is_pair``).
        code: () int32. Disc k's one-disc event code (``KernelState.disc_k``).
        oh_i: (N,) bool. One-hot of disc i (selects cost less than scatters under vmap).
        oh_j: (N,) bool.
        oh_k: (N,) bool.
    """

    step: jax.Array
    finished: jax.Array
    is_pair: jax.Array
    i: jax.Array
    j: jax.Array
    k: jax.Array
    code: jax.Array
    oh_i: jax.Array
    oh_j: jax.Array
    oh_k: jax.Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Pending:
    """What one event's ``head`` hands on to the later stages (:class:`~carromlab.physics.kernel.step.Stages`).

    Attributes:
        e: the event.
        vx0, vy0: (N,) the velocities before the pair contact's own impulse.
        hit_pair: () bool. A pair contact happened (the discs touch and close).
        start: () bool. The struck pair touches a third disc: the cluster model's solve is
            to run.
        solved: () bool. A cluster was solved (its contacts replace the pair's impulse).
    """

    e: Event
    vx0: jax.Array
    vy0: jax.Array
    hit_pair: jax.Array
    start: jax.Array
    solved: jax.Array
