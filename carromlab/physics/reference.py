"""An independent float64 reference simulator (plain numpy, time-stepped), used only to check
the event-driven JAX kernel.

It is deliberately a different algorithm from exact event prediction:

- time advances in small steps (``dt``); inside a step every disc moves along its exact
  Coulomb trajectory (a straight line, decelerating at ``mu * g`` until it stops);
- after a tentative step it looks for anything that happened inside it: two discs
  overlapping, a disc penetrating a wall (straight cushion, circular rail, post), a disc
  captured by a pocket or hole (centre inside, speed at or below the skip speed) or by the
  ditch (centre off a ``"ditch"`` surface). Each candidate is sampled at the end of the step
  and at its closest approach inside the step (so a grazing contact that begins and ends inside
  one step is not missed), and the first sampled instant where it holds is refined by bisection
  (to ``TIME_TOL`` = 1e-12 s). Everything advances to the earliest such instant, the event is
  resolved and the rest of the step continues;
- contacts are resolved by sequential impulses: repeatedly the lowest (i, j) pair (i < j, in
  lexicographic order) that touches (gap <= ``TOUCH_GAP``) and approaches
  (w > ``APPROACH_SPEED``) gets a smooth impulse with the pair's restitution, and the scan
  restarts, until nothing approaches; walls (lowest piece, then wall in ``Table.cushion_names``
  order) are resolved in the same loop after pairs. A packed rosette hit by a striker is
  therefore resolved as a sequence of two-body impulses at one instant.

A pair (or disc and wall) counts as an event when its gap falls ``PENETRATION_TOL`` below the
smaller of 0 and its gap at the start of the (sub)step, so discs resting in contact (the
rosette touches "to within rounding") do not trigger events, and every event makes progress.

Known limitation: two discs that friction keeps pressing together (a slow pair sliding in
contact, their decelerations pointing into each other) bounce at ever smaller speeds; each such
event lets the overlap deepen by ``PENETRATION_TOL``, so over a long pressing contact the overlap
can creep to a few 1e-9 m (1.7e-9 m in 1 of 48 random break shots; no energy is ever
added and no position is ever corrected).

Straight cushions are treated as their infinite lines (the boards' cushions close a convex
square, so a disc inside never meets a cushion beyond its ends).

Units are SI. Only alive, non-static pieces move; static pieces act as discs of infinite mass;
captured pieces keep the position where they were captured and take no further part.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from carromlab.physics.params import Physics
from carromlab.physics.table import Pieces, Table

#: Two discs (or a disc and a wall) touch when their gap is at most this (m).
TOUCH_GAP = 1e-9
#: A touching contact is resolved only when the approach speed exceeds this (m/s).
APPROACH_SPEED = 1e-12
#: An event fires when a gap falls this far (m) below min(0, gap at the start of the substep).
PENETRATION_TOL = 1e-12
#: Bisection stops when the bracket is this short (s).
TIME_TOL = 1e-12
#: Speeds within this of a skip speed count as at or below it (m/s).
SPEED_TOL = 1e-12
#: Resolutions allowed at one instant before the run is flagged as truncated.
MAX_RESOLUTIONS = 10_000
#: Contact models: "cluster" (the default: the contacts of a touching cluster solved together,
#: :func:`solve_cluster`) or "sequential" (pairs one at a time, lowest index first).
CONTACT_MODELS = ("sequential", "cluster")
#: Cluster solve: time steps per contact half-period of the stiffest contact, and the cap.
CLUSTER_STEPS_PER_CONTACT = 100
CLUSTER_MAX_STEPS = 2_000_000
#: Events allowed in one run before it is flagged as truncated (a safety net).
MAX_EVENTS = 100_000

FATE_BOARD = 0
FATE_CAPTURED = 1
FATE_DITCH = 2

_WALL_SEGMENT = 0
_WALL_RAIL = 1
_WALL_POST = 2


@dataclass
class ReferenceOutcome:
    """The end of one simulated shot.

    ``fate``: 0 on the board, 1 captured by a pocket or hole, 2 fell into the ditch.
    ``capture_index``: index into ``table.captures`` (-1: none, also for the ditch).
    ``capture_time``: when the piece was captured (pocket, hole or ditch; nan if never).
    ``capture_order``: 0 for the first capture of the shot, 1 for the next... (-1: none;
    captures at the same instant are ordered by piece index).
    ``first_contact``: what piece 0 touched first: ``('none', -1)``, ``('piece', j)`` or
    ``('wall', k)`` with ``k`` in ``table.cushion_names`` order.
    ``n_piece_contacts`` / ``n_wall_contacts``: impulses applied (each resolution counts).
    ``t_end``: the last instant at which any disc was moving (friction stop or capture).
    ``truncated``: the run hit ``t_max`` with discs still moving, or a resolution/event cap.
    ``vx``, ``vy``: final velocities (zero unless truncated).
    ``n_events``: instants found by the in-step search.
    ``trace`` (with ``record=True``): ``(t, x, y)`` copies at every instant where a contact was
    resolved or a piece captured (positions at that instant).
    ``energy`` (with ``record=True``): ``(t, kinetic energy before, after)`` at those instants.
    """

    x: np.ndarray
    y: np.ndarray
    alive: np.ndarray
    fate: np.ndarray
    capture_index: np.ndarray
    capture_time: np.ndarray
    capture_order: np.ndarray
    first_contact: tuple[str, int]
    n_piece_contacts: int
    n_wall_contacts: int
    t_end: float
    truncated: bool
    vx: np.ndarray
    vy: np.ndarray
    n_events: int = 0
    trace: list[tuple[float, np.ndarray, np.ndarray]] | None = None
    energy: list[tuple[float, float, float]] | None = None


def simulate_reference(
    table: Table,
    pieces: Pieces,
    physics: Physics | None = None,
    dt: float = 1e-4,
    t_max: float = 30.0,
    record: bool = False,
    contacts: str = "cluster",
) -> ReferenceOutcome:
    """Simulate one shot to rest (or ``t_max``) with the time-stepped reference algorithm;
    ``contacts`` is the contact model (:data:`CONTACT_MODELS`)."""
    if contacts not in CONTACT_MODELS:
        raise ValueError(f"contacts must be one of {', '.join(CONTACT_MODELS)}, not {contacts!r}")
    if not (dt > 0 and math.isfinite(dt)):
        raise ValueError(f"dt must be a positive number of seconds, not {dt!r}")
    if not t_max >= 0:
        raise ValueError(f"t_max must be >= 0, not {t_max!r}")
    sim = _ReferenceSim(table, pieces, physics or Physics(), float(dt), float(t_max), record)
    sim.contacts = contacts
    sim.run()
    return sim.outcome()


def _tau_for_distance(s, a, sigma):
    """Time a disc starting at speed ``s`` (decelerating at ``a``) needs to slide ``sigma``
    (``sigma`` must be reachable: at most s^2 / 2a)."""
    root = np.sqrt(np.maximum(s * s - 2.0 * a * sigma, 0.0))
    den = s + root
    return np.divide(2.0 * sigma, den, out=np.zeros_like(den), where=den > 0)


class _ReferenceSim:
    def __init__(self, table, pieces, physics, dt, t_max, record):
        n = pieces.n
        self.n = n
        self.dt = dt
        self.t_max = t_max
        self.record = record
        self.a = float(physics.mu) * float(physics.g)
        if not self.a >= 0:
            raise ValueError(f"friction deceleration mu * g must be >= 0, not {self.a!r}")

        self.x = np.array(pieces.x, dtype=np.float64)
        self.y = np.array(pieces.y, dtype=np.float64)
        self.static = np.array(pieces.static, dtype=bool)
        self.alive = np.array(pieces.alive, dtype=bool)
        self.vx = np.where(self.static | ~self.alive, 0.0, np.asarray(pieces.vx, np.float64))
        self.vy = np.where(self.static | ~self.alive, 0.0, np.asarray(pieces.vy, np.float64))
        self.r = np.array(pieces.radius, dtype=np.float64)
        self.m = np.array(pieces.mass, dtype=np.float64)
        self.inv_m = np.where(self.static, 0.0, 1.0 / self.m)
        self.stick_speed = float(physics.stick_speed)
        self.rail_graze = float(physics.rail_graze)
        self.mu_contact = float(physics.mu_contact)
        mats = tuple(pieces.materials)

        # Pairs in lexicographic order (np.triu_indices walks row by row).
        self.pI, self.pJ = np.triu_indices(n, 1)
        self.p_rsum = self.r[self.pI] + self.r[self.pJ]
        self.p_e = np.array(
            [physics.pair_restitution(mats[i], mats[j]) for i, j in zip(self.pI, self.pJ)],
            dtype=np.float64,
        )
        self.p_inv = self.inv_m[self.pI] + self.inv_m[self.pJ]
        self.p_dynamic = ~(self.static[self.pI] & self.static[self.pJ])

        # Walls in cushion_names order: segments, rails, posts. Parameters (w0, w1, w2):
        # segment: inward unit normal (nx, ny) and offset (p . n of its start point);
        # rail/post: centre (cx, cy) and radius.
        kinds, w0, w1, w2, we = [], [], [], [], []
        for k, (x0, y0, x1, y1) in enumerate(np.asarray(table.segments, dtype=np.float64)):
            length = math.hypot(x1 - x0, y1 - y0)
            nx, ny = -(y1 - y0) / length, (x1 - x0) / length
            kinds.append(_WALL_SEGMENT)
            w0.append(nx)
            w1.append(ny)
            w2.append(nx * x0 + ny * y0)
            we.append(physics.wall_restitution(table.segment_materials[k]))
        for k, (cx, cy, rad) in enumerate(np.asarray(table.rails, dtype=np.float64)):
            kinds.append(_WALL_RAIL)
            w0.append(cx)
            w1.append(cy)
            w2.append(rad)
            we.append(physics.wall_restitution(table.rail_materials[k]))
        for k, (cx, cy, rad) in enumerate(np.asarray(table.posts, dtype=np.float64)):
            kinds.append(_WALL_POST)
            w0.append(cx)
            w1.append(cy)
            w2.append(rad)
            we.append(physics.wall_restitution(table.post_materials[k]))
        self.w_kind = np.array(kinds, dtype=np.int64)
        self.w0 = np.array(w0, dtype=np.float64)
        self.w1 = np.array(w1, dtype=np.float64)
        self.w2 = np.array(w2, dtype=np.float64)
        self.w_e = np.array([float(e) for e in we], dtype=np.float64)
        self.nw = len(kinds)

        caps = np.asarray(table.captures, dtype=np.float64).reshape(-1, 4)
        self.c_x, self.c_y, self.c_r, self.c_skip = (caps[:, k].copy() for k in range(4))
        self.nc = len(caps)

        self.ditch = table.surface_beyond == "ditch"
        self.surface_circle = table.surface_shape == "circle"
        self.surface_size = float(table.surface_size)

        self.t = 0.0
        self.t_end = 0.0
        self.truncated = False
        self.fate = np.zeros(n, dtype=np.int64)
        self.capture_index = np.full(n, -1, dtype=np.int64)
        self.capture_time = np.full(n, np.nan)
        self.capture_order = np.full(n, -1, dtype=np.int64)
        self.n_captures = 0
        self.first_contact: tuple[str, int] = ("none", -1)
        self.n_piece_contacts = 0
        self.n_wall_contacts = 0
        self.n_events = 0
        self.trace: list | None = [] if record else None
        self.energy: list | None = [] if record else None

    # ------------------------------------------------------------------ kinematics
    def _kinematics(self):
        """Speed, direction and the moving mask at the current instant."""
        s = np.hypot(self.vx, self.vy)
        moving = self.alive & ~self.static & (s > 0)
        s = np.where(moving, s, 0.0)
        safe = np.where(moving, s, 1.0)
        self.s = s
        self.ux = np.where(moving, self.vx / safe, 0.0)
        self.uy = np.where(moving, self.vy / safe, 0.0)
        self.moving = moving
        return moving

    def _disp(self, s, tau):
        """Distance slid in time ``tau`` from speed ``s`` (stops at s / a)."""
        if self.a > 0:
            tt = np.minimum(tau, s / self.a)
        else:
            tt = np.broadcast_to(tau, np.shape(s)) if np.ndim(tau) == 0 else tau
        return s * tt - 0.5 * self.a * tt * tt

    def _speed_at(self, s, tau):
        return np.maximum(s - self.a * tau, 0.0)

    def _pos(self, idx, tau):
        d = self._disp(self.s[idx], tau)
        return self.x[idx] + self.ux[idx] * d, self.y[idx] + self.uy[idx] * d

    def _vel(self, idx, tau):
        sp = self._speed_at(self.s[idx], tau)
        return self.ux[idx] * sp, self.uy[idx] * sp

    def _advance(self, tau):
        """Move every disc along its trajectory by ``tau`` seconds."""
        if tau <= 0:
            return
        mv = self.moving
        if mv.any():
            s = self.s
            stop = s / self.a if self.a > 0 else np.full_like(s, np.inf)
            self.t_end = max(self.t_end, float(self.t + np.minimum(tau, stop[mv]).max()))
            d = self._disp(s, tau)
            self.x = self.x + self.ux * d
            self.y = self.y + self.uy * d
            snew = np.where(tau >= stop, 0.0, s - self.a * tau)
            self.vx = np.where(mv, self.ux * snew, self.vx)
            self.vy = np.where(mv, self.uy * snew, self.vy)
        self.t += tau

    # ------------------------------------------------------------------ geometry
    def _wall_gap(self, widx, px, py, r):
        kind = self.w_kind[widx]
        w0, w1, w2 = self.w0[widx], self.w1[widx], self.w2[widx]
        seg = w0 * px + w1 * py - w2 - r
        dist = np.hypot(px - w0, py - w1)
        return np.where(
            kind == _WALL_SEGMENT, seg, np.where(kind == _WALL_RAIL, w2 - r - dist, dist - w2 - r)
        )

    def _wall_normal(self, widx, px, py):
        """Unit normal from the wall into the playing region at the disc's centre."""
        kind = self.w_kind[widx]
        w0, w1 = self.w0[widx], self.w1[widx]
        dx, dy = px - w0, py - w1
        dist = np.hypot(dx, dy)
        dist = np.where(dist > 0, dist, 1.0)
        sign = np.where(kind == _WALL_RAIL, -1.0, 1.0)
        mx = np.where(kind == _WALL_SEGMENT, w0, sign * dx / dist)
        my = np.where(kind == _WALL_SEGMENT, w1, sign * dy / dist)
        return mx, my

    def _outside(self, px, py):
        if self.surface_circle:
            return np.hypot(px, py) > self.surface_size
        return np.maximum(np.abs(px), np.abs(py)) > self.surface_size

    # ------------------------------------------------------------------ event search
    def _bisect(self, cond, hi):
        """Per-candidate bisection: cond(0) false, cond(hi) true -> earliest hi found."""
        lo = np.zeros_like(hi)
        while hi.size and float((hi - lo).max()) > TIME_TOL:
            mid = 0.5 * (lo + hi)
            c = cond(mid)
            hi = np.where(c, mid, hi)
            lo = np.where(c, lo, mid)
        return hi

    @staticmethod
    def _first_true(cond, samples):
        """Earliest sample time (per candidate) at which cond holds (inf if none)."""
        best = np.full(samples[0].shape, np.inf)
        for tau in samples:
            best = np.where(cond(tau) & (tau < best), tau, best)
        return best

    def _closest_tau(self, idx, cx, cy, reach):
        """Time at which disc ``idx`` is closest to (cx, cy) along its path in this step."""
        sigma = (cx - self.x[idx]) * self.ux[idx] + (cy - self.y[idx]) * self.uy[idx]
        sigma = np.clip(sigma, 0.0, reach[idx])
        return _tau_for_distance(self.s[idx], self.a, sigma)

    def _pair_cond(self, i, j, rsum, thr):
        def cond(tau):
            xi, yi = self._pos(i, tau)
            xj, yj = self._pos(j, tau)
            return np.hypot(xj - xi, yj - yi) - rsum < thr

        return cond

    def _find_event(self, h):
        """Earliest event inside (0, h]: returns (tau, forced captures) or (None, None)."""
        best = np.inf
        forced: list[tuple[int, int]] = []
        reach = self._disp(self.s, h)
        mv = self.moving
        cap_events = []

        # --- pairs
        ia, ja = self.pI, self.pJ
        if ia.size:
            act = self.alive[ia] & self.alive[ja] & (mv[ia] | mv[ja]) & self.p_dynamic
            dx0 = self.x[ja] - self.x[ia]
            dy0 = self.y[ja] - self.y[ia]
            gap0 = np.hypot(dx0, dy0) - self.p_rsum
            thr_all = np.minimum(gap0, 0.0) - PENETRATION_TOL
            near = act & (gap0 - reach[ia] - reach[ja] < thr_all)
            k = np.flatnonzero(near)
            if k.size:
                i, j = ia[k], ja[k]
                rsum, thr = self.p_rsum[k], thr_all[k]
                pair_cond = self._pair_cond(i, j, rsum, thr)

                hvec = np.full(k.size, h)
                ddx, ddy = dx0[k], dy0[k]
                # closest approach of the relative motion linearised at the start ...
                vix, viy = self._vel(i, 0.0)
                vjx, vjy = self._vel(j, 0.0)
                dvx, dvy = vjx - vix, vjy - viy
                dv2 = dvx * dvx + dvy * dvy
                t_lin = np.divide(
                    -(ddx * dvx + ddy * dvy), dv2, out=np.zeros(k.size), where=dv2 > 0
                )
                t_lin = np.clip(t_lin, 0.0, h)
                # ... along the chord from start to end ...
                xi, yi = self._pos(i, hvec)
                xj, yj = self._pos(j, hvec)
                ex, ey = xj - xi, yj - yi
                cx, cy = ex - ddx, ey - ddy
                c2 = cx * cx + cy * cy
                f = np.divide(-(ddx * cx + ddy * cy), c2, out=np.zeros(k.size), where=c2 > 0)
                t_chord = np.clip(f, 0.0, 1.0) * h
                # ... and linearised at the end (after a disc stops, say).
                vix, viy = self._vel(i, hvec)
                vjx, vjy = self._vel(j, hvec)
                dvx, dvy = vjx - vix, vjy - viy
                dv2 = dvx * dvx + dvy * dvy
                back = np.divide(ex * dvx + ey * dvy, dv2, out=np.zeros(k.size), where=dv2 > 0)
                t_end = h - np.clip(back, 0.0, h)
                hit = self._first_true(pair_cond, (t_lin, t_chord, t_end, hvec))
                trig = np.isfinite(hit)
                if trig.any():
                    sel = np.flatnonzero(trig)
                    pair_cond2 = self._pair_cond(i[sel], j[sel], rsum[sel], thr[sel])
                    hi = self._bisect(pair_cond2, hit[sel])
                    best = min(best, float(hi.min()))

        mvi = np.flatnonzero(mv)

        # --- walls (moving discs only)
        if self.nw and mvi.size:
            pi = np.repeat(mvi, self.nw)
            wi = np.tile(np.arange(self.nw), mvi.size)
            r = self.r[pi]
            gap0 = self._wall_gap(wi, self.x[pi], self.y[pi], r)
            thr = np.minimum(gap0, 0.0) - PENETRATION_TOL
            near = gap0 - reach[pi] < thr
            if near.any():
                pi, wi, r, thr = pi[near], wi[near], r[near], thr[near]

                def wall_cond(tau, pi=pi, wi=wi, r=r, thr=thr):
                    px, py = self._pos(pi, tau)
                    return self._wall_gap(wi, px, py, r) < thr

                hvec = np.full(pi.size, h)
                t_close = self._closest_tau(pi, self.w0[wi], self.w1[wi], reach)
                t_close = np.where(self.w_kind[wi] == _WALL_POST, t_close, h)
                hit = self._first_true(wall_cond, (t_close, hvec))
                trig = np.isfinite(hit)
                if trig.any():
                    sel = np.flatnonzero(trig)

                    def wall_cond2(tau, pi=pi[sel], wi=wi[sel], r=r[sel], thr=thr[sel]):
                        px, py = self._pos(pi, tau)
                        return self._wall_gap(wi, px, py, r) < thr

                    hi = self._bisect(wall_cond2, hit[sel])
                    best = min(best, float(hi.min()))

        # --- pockets and holes (moving discs only)
        if self.nc and mvi.size:
            pi = np.repeat(mvi, self.nc)
            ci = np.tile(np.arange(self.nc), mvi.size)
            dist0 = np.hypot(self.x[pi] - self.c_x[ci], self.y[pi] - self.c_y[ci])
            near = dist0 - reach[pi] < self.c_r[ci]
            if near.any():
                pi, ci = pi[near], ci[near]

                def cap_cond(tau, pi=pi, ci=ci):
                    px, py = self._pos(pi, tau)
                    inside = np.hypot(px - self.c_x[ci], py - self.c_y[ci]) < self.c_r[ci]
                    slow = self._speed_at(self.s[pi], tau) <= self.c_skip[ci] + SPEED_TOL
                    return inside & slow

                zero = np.zeros(pi.size)
                hvec = np.full(pi.size, h)
                t_close = self._closest_tau(pi, self.c_x[ci], self.c_y[ci], reach)
                if self.a > 0:
                    with np.errstate(invalid="ignore"):
                        t_slow = (self.s[pi] - self.c_skip[ci]) / self.a
                    t_slow = np.clip(np.nan_to_num(t_slow, nan=0.0, neginf=0.0), 0.0, h)
                else:
                    t_slow = hvec
                hit = self._first_true(cap_cond, (zero, t_close, t_slow, hvec))
                trig = np.isfinite(hit)
                if trig.any():
                    sel = np.flatnonzero(trig)
                    hi = self._bisect(
                        lambda tau, pi=pi[sel], ci=ci[sel]: cap_cond(tau, pi, ci), hit[sel]
                    )
                    cap_events.append((hi, pi[sel], ci[sel]))
                    best = min(best, float(hi.min()))

        # --- the ditch (moving discs only)
        if self.ditch and mvi.size:
            px0, py0 = self.x[mvi], self.y[mvi]
            if self.surface_circle:
                room = self.surface_size - np.hypot(px0, py0)
            else:
                room = self.surface_size - np.maximum(np.abs(px0), np.abs(py0))
            near = room - reach[mvi] < 0
            if near.any():
                pi = mvi[near]

                def ditch_cond(tau, pi=pi):
                    return self._outside(*self._pos(pi, tau))

                hit = self._first_true(ditch_cond, (np.zeros(pi.size), np.full(pi.size, h)))
                trig = np.isfinite(hit)
                if trig.any():
                    sel = np.flatnonzero(trig)
                    hi = self._bisect(lambda tau, pi=pi[sel]: ditch_cond(tau, pi), hit[sel])
                    cap_events.append((hi, pi[sel], np.full(sel.size, -1)))
                    best = min(best, float(hi.min()))

        if not math.isfinite(best):
            return None, None
        for hi, pi, ci in cap_events:
            for k in np.flatnonzero(hi <= best):
                forced.append((int(pi[k]), int(ci[k])))
        return best, forced

    # ------------------------------------------------------------------ event handling
    def _kinetic_energy(self):
        live = self.alive & ~self.static
        return float(0.5 * np.sum(self.m[live] * (self.vx[live] ** 2 + self.vy[live] ** 2)))

    def _capture(self, i, k):
        self.alive[i] = False
        self.vx[i] = 0.0
        self.vy[i] = 0.0
        self.fate[i] = FATE_DITCH if k < 0 else FATE_CAPTURED
        self.capture_index[i] = k
        self.capture_time[i] = self.t
        self.capture_order[i] = self.n_captures
        self.n_captures += 1
        self.t_end = max(self.t_end, self.t)

    def _capture_check(self, forced=()):
        """Capture every alive moving-capable disc whose centre is in a pocket/hole while slow
        enough, or off a ditch surface; ``forced`` (piece, capture or -1) were found by the
        event search. Returns how many were captured."""
        chosen: dict[int, int] = {}
        for i, k in forced:
            if self.alive[i] and i not in chosen:
                chosen[i] = k
        cand = np.flatnonzero(self.alive & ~self.static)
        if cand.size and self.nc:
            sp = np.hypot(self.vx[cand], self.vy[cand])
            dist = np.hypot(
                self.x[cand, None] - self.c_x[None, :], self.y[cand, None] - self.c_y[None, :]
            )
            hit = (dist < self.c_r[None, :]) & (sp[:, None] <= self.c_skip[None, :] + SPEED_TOL)
            for row in np.flatnonzero(hit.any(axis=1)):
                i = int(cand[row])
                chosen.setdefault(i, int(np.argmax(hit[row])))
        if cand.size and self.ditch:
            for row in np.flatnonzero(self._outside(self.x[cand], self.y[cand])):
                chosen.setdefault(int(cand[row]), -1)
        for i in sorted(chosen):
            self._capture(i, chosen[i])
        return len(chosen)

    def _resolve(self):
        """Sequential impulses at the current instant. Returns the number applied."""
        done = 0
        ia, ja = self.pI, self.pJ
        tp = np.zeros(0, dtype=np.int64)
        if ia.size:
            dx = self.x[ja] - self.x[ia]
            dy = self.y[ja] - self.y[ia]
            dist = np.hypot(dx, dy)
            touch = (
                self.alive[ia] & self.alive[ja] & self.p_dynamic & (dist - self.p_rsum <= TOUCH_GAP)
            )
            tp = np.flatnonzero(touch)
        ti, tj = ia[tp], ja[tp]
        if tp.size:
            d = np.hypot(self.x[tj] - self.x[ti], self.y[tj] - self.y[ti])
            d = np.where(d > 0, d, 1.0)
            nx = (self.x[tj] - self.x[ti]) / d
            ny = (self.y[tj] - self.y[ti]) / d
            pe, pinv = self.p_e[tp], self.p_inv[tp]
        wp = np.zeros(0, dtype=np.int64)
        wk = np.zeros(0, dtype=np.int64)
        if self.nw:
            mov = np.flatnonzero(self.alive & ~self.static)
            if mov.size:
                pi = np.repeat(mov, self.nw)
                wi = np.tile(np.arange(self.nw), mov.size)
                gap = self._wall_gap(wi, self.x[pi], self.y[pi], self.r[pi])
                sel = gap <= TOUCH_GAP
                wp, wk = pi[sel], wi[sel]
        if wp.size:
            mx, my = self._wall_normal(wk, self.x[wp], self.y[wp])
            we = self.w_e[wk]

        while True:
            if done >= MAX_RESOLUTIONS:
                self.truncated = True
                return done
            if tp.size:
                w = (self.vx[ti] - self.vx[tj]) * nx + (self.vy[ti] - self.vy[tj]) * ny
                cand = np.flatnonzero(w > APPROACH_SPEED)
                if cand.size and self.contacts == "cluster":
                    solved = self._resolve_clusters(ti, tj, nx, ny, pe, w, cand)
                    if solved:
                        done += solved
                        continue
                if cand.size:
                    c = int(cand[0])
                    i, j = int(ti[c]), int(tj[c])
                    if float(w[c]) < self.stick_speed:
                        # slow contact: plastic, the pair leaves with one common velocity
                        ii, ij = self.inv_m[i], self.inv_m[j]
                        vcx = (ij * self.vx[i] + ii * self.vx[j]) / (ii + ij)
                        vcy = (ij * self.vy[i] + ii * self.vy[j]) / (ii + ij)
                        self.vx[i] = self.vx[j] = vcx
                        self.vy[i] = self.vy[j] = vcy
                    else:
                        jimp = (1.0 + pe[c]) * float(w[c]) / pinv[c]
                        # contact friction (Physics.mu_contact): t = (-ny, nx)
                        tx, ty = -ny[c], nx[c]
                        ut = (self.vx[i] - self.vx[j]) * tx + (self.vy[i] - self.vy[j]) * ty
                        cap = self.mu_contact * jimp
                        jt = min(max(ut / (3.0 * pinv[c]), -cap), cap)
                        self.vx[i] -= jimp * self.inv_m[i] * nx[c] + jt * self.inv_m[i] * tx
                        self.vy[i] -= jimp * self.inv_m[i] * ny[c] + jt * self.inv_m[i] * ty
                        self.vx[j] += jimp * self.inv_m[j] * nx[c] + jt * self.inv_m[j] * tx
                        self.vy[j] += jimp * self.inv_m[j] * ny[c] + jt * self.inv_m[j] * ty
                    self.n_piece_contacts += 1
                    if i == 0 and self.first_contact[0] == "none":
                        self.first_contact = ("piece", j)
                    done += 1
                    continue
            if wp.size:
                w = -(self.vx[wp] * mx + self.vy[wp] * my)
                cand = np.flatnonzero(w > APPROACH_SPEED)
                if cand.size:
                    c = int(cand[0])
                    i = int(wp[c])
                    dv = (1.0 + we[c]) * float(w[c])
                    scale = 1.0
                    if self.w_kind[int(wk[c])] == _WALL_RAIL:  # Physics.rail_graze
                        v2 = self.vx[i] ** 2 + self.vy[i] ** 2
                        vt = np.sqrt(max(v2 - float(w[c]) ** 2, 0.0))
                        out = max(we[c] * float(w[c]), self.rail_graze * vt)
                        dv = float(w[c]) + out
                        if out > float(w[c]):
                            # the floor turns a grazing bounce, never speeds it up: the
                            # floor's direction at the incoming speed (as the kernel)
                            scale = min(math.sqrt(v2 / (vt * vt + out * out)), 1.0)
                    self.vx[i] = (self.vx[i] + dv * mx[c]) * scale
                    self.vy[i] = (self.vy[i] + dv * my[c]) * scale
                    self.n_wall_contacts += 1
                    if i == 0 and self.first_contact[0] == "none":
                        self.first_contact = ("wall", int(wk[c]))
                    done += 1
                    continue
            return done

    def _resolve_clusters(self, ti, tj, nx, ny, pe, w, cand) -> int:
        """The "cluster" contact model: every touching cluster (connected by touching pairs)
        of three discs or more with an approaching contact faster than the stick speed is
        solved at once (:func:`solve_cluster`). Returns the contacts that took an impulse (0:
        none solved; the sequential loop then handles two-disc contacts and slow ones)."""
        comp = _components(self.n, ti, tj)
        applied = 0
        for root in sorted({int(comp[ti[c]]) for c in cand}):
            edges = np.flatnonzero(comp[ti] == root)
            discs = np.unique(np.concatenate([ti[edges], tj[edges]]))
            if len(discs) < 3 or float(w[edges].max()) < self.stick_speed:
                continue
            vx, vy, impulse, steps = solve_cluster(
                self.vx, self.vy, self.inv_m, ti[edges], tj[edges], nx[edges], ny[edges], pe[edges]
            )
            if steps >= CLUSTER_MAX_STEPS:
                self.truncated = True
            self.vx, self.vy = vx, vy
            hit = impulse > 0
            applied += int(hit.sum())
            self.n_piece_contacts += int(hit.sum())
            if self.first_contact[0] == "none":
                mine = hit & ((ti[edges] == 0) | (tj[edges] == 0))
                if mine.any():  # the striker's strongest contact (order-free)
                    k = int(np.argmax(np.where(mine, impulse, -np.inf)))
                    other = int(tj[edges][k] if ti[edges][k] == 0 else ti[edges][k])
                    self.first_contact = ("piece", other)
        return applied

    def _instant(self, forced=()):
        """Captures, contacts, captures again, at the current instant."""
        ke0 = self._kinetic_energy() if self.record else 0.0
        happened = self._capture_check(forced)
        happened += self._resolve()
        happened += self._capture_check()
        if happened and self.record:
            self.trace.append((self.t, self.x.copy(), self.y.copy()))
            self.energy.append((self.t, ke0, self._kinetic_energy()))
        return happened

    # ------------------------------------------------------------------ main loop
    def run(self):
        self._kinematics()
        self._instant()
        while not self.truncated:
            if not self._kinematics().any():
                return
            if self.t >= self.t_max:
                self.truncated = True
                return
            remaining = min(self.dt, self.t_max - self.t)
            while remaining > 0:
                if not self._kinematics().any():
                    break
                tau, forced = self._find_event(remaining)
                if tau is None:
                    self._advance(remaining)
                    break
                self._advance(tau)
                remaining -= tau
                self._kinematics()
                self._instant(forced)
                self.n_events += 1
                if self.truncated:
                    return
                if self.n_events >= MAX_EVENTS:
                    self.truncated = True
                    return

    def outcome(self) -> ReferenceOutcome:
        return ReferenceOutcome(
            x=self.x.copy(),
            y=self.y.copy(),
            alive=self.alive.copy(),
            fate=self.fate.copy(),
            capture_index=self.capture_index.copy(),
            capture_time=self.capture_time.copy(),
            capture_order=self.capture_order.copy(),
            first_contact=self.first_contact,
            n_piece_contacts=self.n_piece_contacts,
            n_wall_contacts=self.n_wall_contacts,
            t_end=float(self.t_end),
            truncated=bool(self.truncated),
            vx=self.vx.copy(),
            vy=self.vy.copy(),
            n_events=self.n_events,
            trace=self.trace,
            energy=self.energy,
        )


def _components(n: int, ti: np.ndarray, tj: np.ndarray) -> np.ndarray:
    """The connected component (its smallest disc index) of every disc, by the pairs
    (``ti``, ``tj``)."""
    comp = np.arange(n)
    changed = True
    while changed:  # label propagation: at most n rounds
        a, b = comp[ti], comp[tj]
        low = np.minimum(a, b)
        changed = bool((a != low).any() or (b != low).any())
        np.minimum.at(comp, ti, low)
        np.minimum.at(comp, tj, low)
        comp = comp[comp]
    return comp


def solve_cluster(vx, vy, inv_m, ei, ej, nx, ny, e, steps_per_contact=None):
    """Simultaneous contacts of a touching cluster, solved together and without regard to
    the discs' labels: the compliant-contact (discrete element) model of the collision in
    its rigid limit.

    Every contact ``c`` (discs ``ei[c]``, ``ej[c]``, unit normal ``(nx, ny)[c]`` from the first
    to the second, restitution ``e[c]``) is a linear spring and dashpot acting along its normal
    while its overlap ``delta`` is positive; the geometry is frozen for the collision's
    (vanishing) duration, so only the velocities and the overlaps evolve:
    ``d delta_c / dt = w_c`` (the approach speed) and the contact pushes its discs apart with
    ``k delta_c + eta_c w_c``. One stiffness ``k`` for every contact; the damping ``eta_c =
    2 zeta_c sqrt(k m_c)`` (``m_c`` the pair's reduced mass) with ``zeta_c = -ln e_c / sqrt(pi^2
    + ln^2 e_c)`` gives an isolated pair exactly the restitution ``e_c`` (the linear
    spring-dashpot's closed form, the contact ending when the overlap is back to 0). Scaling
    ``k`` scales time alone, so the outcome does not depend on it. Integrated by fourth-order
    Runge-Kutta at ``steps_per_contact`` steps per contact half-period of the stiffest
    contact, a step cut where a contact opens, until no contact is compressed and none
    approaches.

    Returns the new velocities, each contact's total impulse and the steps taken."""
    steps_per_contact = steps_per_contact or CLUSTER_STEPS_PER_CONTACT
    vx, vy = np.array(vx, np.float64), np.array(vy, np.float64)
    inv_i, inv_j = inv_m[ei], inv_m[ej]
    m_c = 1.0 / (inv_i + inv_j)
    k = 1.0
    le = np.log(np.clip(e, 1e-12, 1.0))
    zeta = -le / np.sqrt(np.pi**2 + le**2)
    eta = 2.0 * zeta * np.sqrt(k * m_c)
    omega = np.sqrt(k / m_c) * np.sqrt(np.maximum(1.0 - zeta**2, 1e-12))
    dt = np.pi / omega.max() / steps_per_contact
    n = len(vx)

    def approach(vx, vy):
        return (vx[ei] - vx[ej]) * nx + (vy[ei] - vy[ej]) * ny

    def rates(vx, vy, delta, on):
        w = approach(vx, vy)
        f = np.where(on, k * delta + eta * w, 0.0)
        ax, ay = _push(np.zeros(n), np.zeros(n), f, ei, ej, nx, ny, inv_i, inv_j, n)
        return ax, ay, np.where(on, w, 0.0), f

    def rk4(vx, vy, delta, on, h):
        k1 = rates(vx, vy, delta, on)
        k2 = rates(vx + h / 2 * k1[0], vy + h / 2 * k1[1], delta + h / 2 * k1[2], on)
        k3 = rates(vx + h / 2 * k2[0], vy + h / 2 * k2[1], delta + h / 2 * k2[2], on)
        k4 = rates(vx + h * k3[0], vy + h * k3[1], delta + h * k3[2], on)
        out = [
            a + h / 6 * (b1 + 2 * b2 + 2 * b3 + b4)
            for a, b1, b2, b3, b4 in zip((vx, vy, delta, 0.0), k1, k2, k3, k4, strict=True)
        ]
        return out[0], out[1], out[2], out[3]  # the last: the step's impulses

    delta = np.zeros(len(ei))
    impulse = np.zeros(len(ei))
    steps = 0
    while steps < CLUSTER_MAX_STEPS:
        w = approach(vx, vy)
        on = (delta > 0) | (w > APPROACH_SPEED)  # compressed, or touching and closing
        if not on.any():
            break
        nvx, nvy, ndelta, imp = rk4(vx, vy, delta, on, dt)
        opens = on & (ndelta < 0)
        if opens.any():  # end the step where the first contact opens (overlap back to 0)
            frac = np.min(delta[opens] / (delta[opens] - ndelta[opens]))
            nvx, nvy, ndelta, imp = rk4(vx, vy, delta, on, dt * frac)
        vx, vy, impulse = nvx, nvy, impulse + imp
        delta = np.where(ndelta > 1e-15 * np.abs(ndelta).max(initial=1.0), ndelta, 0.0)
        delta = np.where(on, delta, 0.0)
        steps += 1
    return vx, vy, impulse, steps


def _push(vx, vy, imp, ei, ej, nx, ny, inv_i, inv_j, n):
    """Velocities after impulses ``imp`` along the contacts' normals (``ei`` pushed back,
    ``ej`` forward)."""
    vx = vx + np.bincount(ej, imp * nx * inv_j, n) - np.bincount(ei, imp * nx * inv_i, n)
    vy = vy + np.bincount(ej, imp * ny * inv_j, n) - np.bincount(ei, imp * ny * inv_i, n)
    return vx, vy
