"""Time to the next event, for one disc or one pair, as pure JAX functions.

Motion model: a moving disc at speed ``v`` in direction ``u`` decelerates at ``a = mu g``;
after path length ``s`` it has taken time ``tau(s) = 2 s / (v + sqrt(v^2 - 2 a s))`` and it
stops after ``s_stop = v^2 / (2 a)``. Every function returns a time *relative to now* (``inf``
when nothing happens before the disc stops).

- one disc against a straight cushion, the inside of a rail, a post, a capture circle, the
  ditch edge: closed-form roots in path length (the path is straight);
- a moving disc against a still one: the first root of a quadratic in path length;
- two moving discs: the first root of the quartic ``|D(t)|^2 - R^2`` on ``[0, H]`` (``H`` the
  first stop). The quartic is split where its second derivative vanishes (a quadratic), so
  each piece is convex or concave; on a convex piece Newton's method from the left never
  passes the first root (a grazing contact is approached from below, never jumped over), on a
  concave piece a sign change brackets it. If Newton has not converged after ``NEWTON_STEPS``
  the returned time is a safe lower bound, and the kernel treats it as a re-check event.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp

INF = jnp.inf
NEWTON_STEPS = 3
#: Every argument and result: a traced array (scalar under the kernel's vmaps).
F = jax.Array


def time_for_path(s: F, v: F, a: F) -> F:
    """Time to slide path length ``s`` from speed ``v`` at deceleration ``a`` (inf if never)."""
    rem = v * v - 2.0 * a * s
    ok = (s >= 0) & (rem >= 0) & jnp.isfinite(s)
    tau = 2.0 * s / (v + jnp.sqrt(jnp.maximum(rem, 0.0)))
    return jnp.where(ok, jnp.where(s > 0, tau, 0.0), INF)


def stop_path(v: F, a: F) -> F:
    return v * v / (2.0 * a)


def first_circle_entry(px: F, py: F, ux: F, uy: F, cx: F, cy: F, radius: F) -> tuple[F, F]:
    """Path lengths (s1, s2) where a ray from (px, py) along (ux, uy) enters / leaves a circle.

    Returns (inf, inf) when the line misses it.
    """
    dx, dy = px - cx, py - cy
    b = dx * ux + dy * uy
    c = dx * dx + dy * dy - radius * radius
    disc = b * b - c
    root = jnp.sqrt(jnp.maximum(disc, 0.0))
    hit = disc >= 0
    return jnp.where(hit, -b - root, INF), jnp.where(hit, -b + root, INF)


def path_to_disc(px: F, py: F, ux: F, uy: F, cx: F, cy: F, reach: F) -> F:
    """Path length until the moving centre comes within ``reach`` of (cx, cy) while
    approaching; 0 if it is already there and approaching; inf if never."""
    s1, _ = first_circle_entry(px, py, ux, uy, cx, cy, reach)
    approaching = (cx - px) * ux + (cy - py) * uy > 0
    return jnp.where(approaching, jnp.maximum(s1, 0.0), INF)


def path_to_segment(px: F, py: F, ux: F, uy: F, radius: F, seg: F, tol: F) -> F:
    """Path length until a disc of ``radius`` touches the straight cushion ``seg``
    (x0, y0, x1, y1; inward normal on the left), approaching it; inf if never."""
    x0, y0, x1, y1 = seg[0], seg[1], seg[2], seg[3]
    ex, ey = x1 - x0, y1 - y0
    length = jnp.sqrt(ex * ex + ey * ey)
    tx, ty = ex / length, ey / length
    nx, ny = -ty, tx
    d0 = (px - x0) * nx + (py - y0) * ny  # distance of the centre from the cushion line
    un = ux * nx + uy * ny
    s = jnp.where(un < 0, jnp.maximum(d0 - radius, 0.0) / jnp.maximum(-un, 1e-30), INF)
    # The contact point must lie on the segment (cushions meet at corners).
    along = (px + ux * s - x0) * tx + (py + uy * s - y0) * ty
    on = (along >= -tol) & (along <= length + tol)
    return jnp.where(on & (un < 0), s, INF)


def path_inside_rail(px: F, py: F, ux: F, uy: F, radius: F, rail: F) -> F:
    """Path length until a disc inside a circular rail (cx, cy, R) touches it."""
    dx, dy = px - rail[0], py - rail[1]
    reach = rail[2] - radius
    b = dx * ux + dy * uy
    c = dx * dx + dy * dy - reach * reach
    return jnp.maximum(-b + jnp.sqrt(jnp.maximum(b * b - c, 0.0)), 0.0)


def path_to_capture(px: F, py: F, ux: F, uy: F, v: F, a: F, cap: F, k: F | None = None) -> F:
    """Path length until the disc's centre is inside a capture circle (x, y, r, skip) at a
    speed at most ``skip``; inf if it never is. With ``k`` the disc decelerates at ``k * a``
    (sliding at ``k a`` is sliding at ``a`` along ``k`` times the path)."""
    s1, s2 = first_circle_entry(px, py, ux, uy, cap[0], cap[1], cap[2])
    skip = cap[3]
    s_slow = jnp.maximum(0.0, (v * v - skip * skip) / (2.0 * a))  # skip = inf -> 0
    if k is None:
        s = jnp.maximum(jnp.maximum(s1, 0.0), s_slow)
        ok = (s2 >= 0) & (s <= s2) & (s <= stop_path(v, a))
    else:
        s = jnp.maximum(jnp.maximum(s1, 0.0), s_slow / k)
        ok = (s2 >= 0) & (s <= s2) & (k * s <= stop_path(v, a))
    return jnp.where(ok, s, INF)


def path_to_leave_circle(px: F, py: F, ux: F, uy: F, radius: F) -> F:
    """Path length until the centre leaves a circle of ``radius`` about the origin."""
    b = px * ux + py * uy
    c = px * px + py * py - radius * radius
    return jnp.maximum(-b + jnp.sqrt(jnp.maximum(b * b - c, 0.0)), 0.0)


# --------------------------------------------------------------------------- pairs


def _quartic(d0x: F, d0y: F, wx: F, wy: F, ax: F, ay: F, reach: F) -> tuple[F, F, F, F, F]:
    """Coefficients (c4..c0) of |D0 + W t + A t^2 / 2|^2 - reach^2."""
    c4 = 0.25 * (ax * ax + ay * ay)
    c3 = wx * ax + wy * ay
    c2 = wx * wx + wy * wy + d0x * ax + d0y * ay
    c1 = 2.0 * (d0x * wx + d0y * wy)
    c0 = d0x * d0x + d0y * d0y - reach * reach
    return c4, c3, c2, c1, c0


def _poly(c: Sequence[F], t: F) -> tuple[F, F]:
    c4, c3, c2, c1, c0 = c
    f = (((c4 * t + c3) * t + c2) * t + c1) * t + c0
    df = ((4.0 * c4 * t + 3.0 * c3) * t + 2.0 * c2) * t + c1
    return f, df


def _curvature_floor(c: Sequence[F], lo: F, hi: F) -> F:
    """min of f'' = 12 c4 t^2 + 6 c3 t + 2 c2 over [lo, hi] (c4 >= 0: a convex parabola)."""
    c4, c3, c2, _, _ = c

    def f2(t: F) -> F:
        return (12.0 * c4 * t + 6.0 * c3) * t + 2.0 * c2

    vertex = jnp.clip(-c3 / jnp.where(c4 > 0, 4.0 * c4, 1.0), lo, hi)
    vertex = jnp.where(c4 > 0, vertex, lo)
    return jnp.minimum(jnp.minimum(f2(lo), f2(hi)), f2(vertex))


def pair_time_moving(
    d0x: F, d0y: F, wx: F, wy: F, ax: F, ay: F, reach: F, horizon: F, start: F, tol_f: F
) -> tuple[F, F]:
    """First time in [start, horizon] when two moving discs touch: the first root of the
    quartic f(t) = |D0 + W t + A t^2 / 2|^2 - reach^2.

    Each step solves the lower-bounding quadratic f(t) + f'(t) h + m h^2 / 2 (m the least
    curvature of f on [start, horizon]) for its first root: the step never passes the first root of
    f (a grazing contact is approached from below, never jumped), and when the bounding
    quadratic has no root in the interval, f has none either. Returns (time, status): 1 contact
    (f within ``tol_f`` of 0 at the time), 0 none before the horizon (time inf), 2 not converged
    after ``NEWTON_STEPS`` (time is a safe lower bound, which the kernel re-checks).
    """
    c = _quartic(d0x, d0y, wx, wy, ax, ay, reach)
    m = _curvature_floor(c, start, horizon)  # valid on every [t, horizon] inside

    def newton(_: int, t: F) -> F:
        # t < 0: no contact before the horizon (found at an earlier step)
        f, df = _poly(c, t)
        disc = df * df - 2.0 * m * f
        denom = -df + jnp.sqrt(jnp.maximum(disc, 0.0))
        ok = (disc >= 0) & (denom > 0)
        nxt = t + 2.0 * f / jnp.where(ok, denom, 1.0)
        active = (t >= 0) & (f > tol_f)
        return jnp.where(active, jnp.where(ok & (nxt <= horizon), nxt, -1.0), t)

    # A loop of one value, not unrolled: each step compiles to one pass over the pairs
    # (unrolled, or carrying several values, the compiler computed every earlier step again
    # inside each later one; docs/benchmarks.md).
    t = jax.lax.fori_loop(0, NEWTON_STEPS, newton, start)
    none = t < 0
    # converged: within tol_f of the root; otherwise t is a lower bound, re-checked
    contact = ~none & (_poly(c, t)[0] <= tol_f)
    status = jnp.where(contact, 1, jnp.where(none, 0, 2))
    return jnp.where(status > 0, t, INF), status
