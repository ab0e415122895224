"""The "cluster" contact model: a struck pair that touches other discs is solved with its
whole touching cluster at once, without regard to labels (docs/physics.md, "Touching
clusters").

In each shot the connected set of discs touching the struck pair is found
(:func:`find_cluster`) and all its contacts are solved together: a linear spring and dashpot
per contact over the frozen geometry, damped so that a lone pair has its restitution
(:func:`contact_system`), integrated until no contact is compressed or closing
(:func:`taylor_step`). :func:`solve_clusters` runs many shots at once with the shots on the
*last* axis; :func:`solve_cluster_hits` takes them on the leading axis (as a batch holds them)
and sums each shot's impulses for the tallies; :func:`solve_one` is one shot's solve in the
shape a batch solves in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

import jax
import jax.numpy as jnp

from carromlab.physics.kernel.spec import (
    CLOSING_SPEED,
    CLUSTER_MAX_STEPS,
    CLUSTER_STEPS,
    CONTACT_TOL,
    SOLVE_LANES,
    TOUCH_GAP,
    Constants,
    KernelSpec,
)
from carromlab.physics.kernel.state import Event, KernelState, Pending
from carromlab.physics.kernel.tally import tally_cluster


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class ClusterInput:
    """What :func:`solve_clusters` needs of each shot, with the shots on the *last* axis (L):
    per-disc arrays (N, L), per-shot values (L,).

    Attributes:
        x, y, vx, vy: (N, L) positions and velocities before the struck pair's impulse.
        alive, static, hard: (N, L) bool. On the surface; fixed (posts, pegs); striker material.
        radius, inv_mass: (N, L).
        seed: (N, L) bool. The struck pair, where the cluster grows from.
        start: (L,) bool. The struck pair touches a third disc (otherwise nothing is solved).
        e_piece, e_striker, stick_speed: (L,) the shot's :class:`Physics` values.
    """

    x: jax.Array
    y: jax.Array
    vx: jax.Array
    vy: jax.Array
    alive: jax.Array
    static: jax.Array
    hard: jax.Array
    radius: jax.Array
    inv_mass: jax.Array
    seed: jax.Array
    start: jax.Array
    e_piece: jax.Array
    e_striker: jax.Array
    stick_speed: jax.Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class ClusterHits:
    """What a cluster solve's contacts count for the tallies (one shot; a leading batch axis
    in a batch).

    Attributes:
        per_disc: (N,) int32. Contacts of the cluster each disc took part in (that pushed).
        shooter_other: () int32. The disc the shooter (disc 0) pushed hardest (the largest
            impulse measure), or -1 when the shooter took no part.
    """

    per_disc: jax.Array
    shooter_other: jax.Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class ClusterOutput:
    """:func:`solve_cluster_hits`' answer for one shot (a leading batch axis in a batch):
    the velocities ``vx``, ``vy`` (N,) after the solve, its :class:`ClusterHits` and whether
    a cluster was solved (``solved``, () bool; otherwise the velocities are the input's)."""

    vx: jax.Array
    vy: jax.Array
    hits: ClusterHits
    solved: jax.Array


#: The solve loop's carry: velocities (N, L), overlaps and impulse measures (N, N, L), steps.
SolveCarry = tuple[jax.Array, jax.Array, jax.Array, jax.Array, jax.Array]


@dataclass(frozen=True)
class ContactSystem:
    """The cluster's contacts as a linear system over dense pair arrays (N, N, L): row i,
    column j the contact of i with j, symmetric, a zero diagonal.

    Attributes:
        edge: (N, N, L) bool. The contacts solved (both discs in a solved cluster, touching).
        nx, ny: (N, N, L) unit vectors from i towards j.
        inv: (N, L) inverse masses.
        eta: (N, N, L) each contact's damping (stiffness 1: time alone scales).
        h: (L,) the step: ``pi / steps`` of the stiffest contact's half-period.
        solve: (L,) bool. A cluster is solved in the shot.
    """

    edge: jax.Array
    nx: jax.Array
    ny: jax.Array
    inv: jax.Array
    eta: jax.Array
    h: jax.Array
    solve: jax.Array

    def closing(self, vx: jax.Array, vy: jax.Array) -> jax.Array:
        """Each contact's closing speed."""
        return closing_speed(self.nx, self.ny, vx, vy)

    def contact_map(
        self, vx: jax.Array, vy: jax.Array, de: jax.Array, on: jax.Array
    ) -> tuple[jax.Array, jax.Array, jax.Array]:
        """d/dt of (vx, vy, overlap) under the engaged contacts ``on`` (zero elsewhere)."""
        w = jnp.where(on, self.closing(vx, vy), 0.0)
        f = de + self.eta * w
        return -self.inv * (f * self.nx).sum(axis=1), -self.inv * (f * self.ny).sum(axis=1), w

    def engaged(self, vx: jax.Array, vy: jax.Array, de: jax.Array) -> jax.Array:
        """The contacts compressed or closing."""
        return self.edge & ((de > 0) | (self.closing(vx, vy) > CLOSING_SPEED))


def closing_speed(nx: jax.Array, ny: jax.Array, vx: jax.Array, vy: jax.Array) -> jax.Array:
    """How fast each pair (i, j) closes along the unit vectors ``nx``, ``ny`` from i to j."""
    return (vx[:, None] - vx[None, :]) * nx + (vy[:, None] - vy[None, :]) * ny


def find_cluster(
    c: ClusterInput, tol: jax.Array
) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array, jax.Array]:
    """The discs touching the struck pair (a gap of at most :data:`TOUCH_GAP`), connected
    (``reach``, (N, L)), the contacts among them (``edge``, (N, N, L)) and the
    line-of-centres geometry ``dx``, ``dy``, ``dist`` (``tol``: the contact tolerance, the
    least distance divided by)."""
    n = c.x.shape[0]
    dx = c.x[None, :] - c.x[:, None]
    dy = c.y[None, :] - c.y[:, None]
    dist = jnp.hypot(dx, dy)
    gap = dist - (c.radius[:, None] + c.radius[None, :])
    live = c.alive[:, None] & c.alive[None, :] & ~(c.static[:, None] & c.static[None, :])
    adj = (gap <= TOUCH_GAP) & live & ~jnp.eye(n, dtype=bool)[:, :, None]

    def grow(g: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        reach, _ = g
        new = reach | (adj & reach[None, :]).any(axis=1)
        return new, (new != reach).any()

    reach, _ = jax.lax.while_loop(lambda g: g[1], grow, (c.seed & c.start, c.start.any()))
    edge = adj & reach[:, None] & reach[None, :]
    return reach, edge, dx, dy, dist


def contact_system(c: ClusterInput, steps: int) -> ContactSystem:
    """The cluster of each shot (:func:`find_cluster`) as a :class:`ContactSystem`: solved
    when it has three discs or more and a contact closes at ``stick_speed`` or faster."""
    tol = jnp.asarray(CONTACT_TOL[jnp.dtype(c.x.dtype).itemsize], c.x.dtype)
    reach, edge, dx, dy, dist = find_cluster(c, tol)
    dist = jnp.maximum(dist, tol)
    nx, ny = dx / dist, dy / dist  # unit, from i towards j
    fast = (edge & (closing_speed(nx, ny, c.vx, c.vy) >= c.stick_speed)).any(axis=(0, 1))
    solve = c.start & (reach.sum(axis=0) >= 3) & fast
    edge = edge & solve
    inv = c.inv_mass
    el = jnp.where(c.hard[:, None] | c.hard[None, :], c.e_striker, c.e_piece)
    le = jnp.log(jnp.clip(el, 1e-6, 1.0))
    zeta = -le / jnp.sqrt(jnp.pi**2 + le**2)
    m_c = 1.0 / jnp.maximum(inv[:, None] + inv[None, :], 1e-30)
    eta = jnp.where(edge, 2.0 * zeta * jnp.sqrt(m_c), 0.0)  # stiffness 1: time alone scales
    omega = jnp.sqrt(1.0 / m_c) * jnp.sqrt(jnp.maximum(1.0 - zeta**2, 1e-6))
    h = jnp.pi / (jnp.max(jnp.where(edge, omega, 0.0), axis=(0, 1)) + 1e-30) / steps
    return ContactSystem(edge=edge, nx=nx, ny=ny, inv=inv, eta=eta, h=h, solve=solve)


def taylor(xs: Sequence[jax.Array], t: jax.Array, lift: int = 0) -> jax.Array:
    """sum_p t^(p+lift) / (p+lift)! xs[p]: the Taylor polynomial of the terms ``xs``."""
    out: Any = 0  # (a Python 0 to start the sum, as the terms below are added to it)
    for p, x in enumerate(xs):
        out = out + t ** (p + lift) / math.factorial(p + lift) * x
    return cast(jax.Array, out)


def taylor_step(cs: ContactSystem, g: SolveCarry) -> SolveCarry:
    """One step of ``cs.h``. While the set of engaged contacts holds the system is linear with
    constant coefficients, so a fourth-order Runge-Kutta step is its fourth-order Taylor
    polynomial: four applications of the contact map give the state anywhere in the step. A
    contact whose overlap comes back to 0 inside the step opens there (linear interpolation
    of the overlap) and pulls its discs together from then to the step's end: that impulse
    (the integral of overlap + eta x closing speed) is undone, to first order, instead of
    ending the step there (which would cost a step per opening)."""
    vx, vy, de, imp, k = g
    h, eta = cs.h, cs.eta
    on = cs.engaged(vx, vy, de)
    terms: list[tuple[jax.Array, jax.Array, jax.Array]] = [(vx, vy, de)]
    for _ in range(4):
        terms.append(cs.contact_map(*terms[-1], on))
    vxs, vys, des = zip(*terms, strict=True)
    nvx, nvy, nde = taylor(vxs, h), taylor(vys, h), taylor(des, h)
    opens = on & (nde < 0)
    t_open = h * jnp.where(opens, de / jnp.where(opens, de - nde, 1.0), 1.0)
    area = taylor(des, h, 1) - taylor(des, t_open, 1)
    pull = jnp.where(opens, area + eta * (nde - taylor(des, t_open)), 0.0)
    nvx = nvx + cs.inv * (pull * cs.nx).sum(axis=1)
    nvy = nvy + cs.inv * (pull * cs.ny).sum(axis=1)
    imp = imp + 0.5 * h * (de + jnp.maximum(nde, 0.0))
    tiny: jax.Array | float = 0.0
    if vx.dtype == jnp.float32:
        tiny = 1e-6 * jnp.max(jnp.abs(nde), axis=(0, 1))
    nde = jnp.where(on & (nde > tiny), nde, 0.0)
    return nvx, nvy, nde, imp, k + 1


def solve_clusters(
    c: ClusterInput, steps: int = CLUSTER_STEPS
) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """The cluster contact model for L shots at once (the module's docstring), written over
    dense pair arrays (N, N, L) with the shots on the last axis, so that every operation runs
    along the shots (about twice as fast on a CPU as shots first); a row sum in place of a
    scatter. ``steps``: steps per contact half-period of the stiffest contact of the shot's
    cluster (:data:`CLUSTER_STEPS`).

    Each shot's arithmetic depends on its own lane alone. Returns the velocities (N, L), the
    contacts' impulse measure (N, N, L; the time integral of the overlap, trapezoidal: positive
    for a contact that pushed) and whether a cluster was solved (L,)."""
    cs = contact_system(c, steps)

    def go(g: SolveCarry) -> jax.Array:
        vx, vy, de, _, k = g
        return cs.engaged(vx, vy, de).any() & (k < CLUSTER_MAX_STEPS)

    zero = jnp.zeros(cs.edge.shape, c.x.dtype)
    vx, vy, _, imp, _ = jax.lax.while_loop(
        go, lambda g: taylor_step(cs, g), (c.vx, c.vy, zero, zero, jnp.zeros((), jnp.int32))
    )
    return jnp.where(cs.solve, vx, c.vx), jnp.where(cs.solve, vy, c.vy), imp, cs.solve


def solve_cluster_hits(c: ClusterInput, steps: int = CLUSTER_STEPS) -> ClusterOutput:
    """:func:`solve_clusters` for a batch of shots given with the batch on the *leading* axis
    (as the batched event loop holds them), each shot's impulses summed up for the tallies."""
    lanes_last = jax.tree_util.tree_map(lambda a: jnp.moveaxis(a, 0, -1), c)
    vx, vy, imp, solved = solve_clusters(lanes_last, steps)
    hit = imp > 0
    mine = hit[0]
    other = jnp.argmax(jnp.where(mine, imp[0], -1.0), axis=0).astype(jnp.int32)
    hits = ClusterHits(
        per_disc=hit.sum(axis=1).astype(jnp.int32).T,
        shooter_other=jnp.where(mine.any(axis=0), other, -1),
    )
    return ClusterOutput(vx=vx.T, vy=vy.T, hits=hits, solved=solved)


def touches_third(spec: KernelSpec, c: Constants, s: KernelState, e: Event) -> jax.Array:
    """Whether disc i or j of the event touches a third live disc (two rows of gaps: the cheap
    test run at every event, before any cluster work)."""
    r = c.discs.radius
    gi = jnp.hypot(s.x - s.x[e.i], s.y - s.y[e.i]) - r - r[e.i]
    gj = jnp.hypot(s.x - s.x[e.j], s.y - s.y[e.j]) - r - r[e.j]
    near = (gi <= TOUCH_GAP) | (gj <= TOUCH_GAP)
    return (near & s.alive & ~e.oh_i & ~e.oh_j).any()


def cluster_input(spec: KernelSpec, c: Constants, s: KernelState, p: Pending) -> ClusterInput:
    """This shot's :class:`ClusterInput` (one shot: no lane axis)."""
    d, physics, dtype = c.discs, c.physics, c.dtype
    return ClusterInput(
        x=s.x,
        y=s.y,
        vx=p.vx0,
        vy=p.vy0,
        alive=s.alive,
        static=d.static,
        hard=d.hard,
        radius=d.radius,
        inv_mass=d.inv_mass,
        seed=p.e.oh_i | p.e.oh_j,
        start=p.start,
        e_piece=jnp.asarray(physics.e_piece, dtype),
        e_striker=jnp.asarray(physics.e_striker, dtype),
        stick_speed=jnp.asarray(physics.stick_speed, dtype),
    )


def cluster_output(
    spec: KernelSpec, c: Constants, s: KernelState, p: Pending, out: ClusterOutput
) -> tuple[KernelState, Pending]:
    """The state after :func:`solve_cluster_hits` (this shot's lane): the new velocities and
    the cluster's contacts tallied, when a cluster was solved (otherwise the pair's own
    impulse stands)."""
    s2 = tally_cluster(replace(s, vx=out.vx, vy=out.vy), out.hits)
    s = jax.tree_util.tree_map(lambda a, b: jnp.where(out.solved, a, b), s2, s)
    return s, replace(p, solved=out.solved)


def solve_one(
    spec: KernelSpec, c: Constants, s: KernelState, p: Pending
) -> tuple[KernelState, Pending]:
    """The cluster solve of one shot: :func:`solve_clusters` over :data:`SOLVE_LANES` copies
    of it, the shape a batch solves in, so that the shot's numbers are the batch's (the
    compiled arithmetic of a lane can depend on the lane count)."""
    many = jax.tree_util.tree_map(
        lambda a: jnp.broadcast_to(a[None], (SOLVE_LANES, *a.shape)),
        cluster_input(spec, c, s, p),
    )
    out = jax.tree_util.tree_map(lambda a: a[0], solve_cluster_hits(many, spec.cluster_steps))
    return cluster_output(spec, c, s, p, out)
