"""What an event does: every disc slides on to it, then a pair contact's impulse or a
one-disc event (a cushion, a circular rail, a peg, a capture, the ditch).

The steps are ``f(spec, c, state, event)``: :func:`advance` returns the state,
:func:`resolve_pair` the state and whether a contact happened, :func:`resolve_disc` the state,
whether a wall was hit and which; their parts take only what they read (:func:`bounce`:
``(c, state, event, is_wall, wall)``, :func:`wall_normal`: ``(c, state, disc, wall)``,
:func:`rail_bounce`: the velocity in the rail's frame). Each is pure and testable alone:
tests/test_kernel_steps.py checks momentum and energy across one contact and a cushion
bounce's angle.
"""

from __future__ import annotations

from dataclasses import replace

import jax
import jax.numpy as jnp

from carromlab.physics.kernel.spec import RAIL, SEGMENT, Constants, KernelSpec
from carromlab.physics.kernel.state import Event, KernelState
from carromlab.physics.sliding import slide


def advance(spec: KernelSpec, c: Constants, s: KernelState, e: Event) -> KernelState:
    """Every disc slides along its direction to the event (:func:`~carromlab.physics.sliding.
    slide`: a disc whose stop comes first rests there); ``t``, ``x``, ``y``, ``vx``, ``vy``
    move on. ``v``, ``ux``, ``uy`` and the cached
    times are left for ``refresh``."""
    ux, uy = s.ux, s.uy
    dist, vnew = slide(s.v, c.a, e.step, jnp)
    step = e.step
    return replace(
        s,
        t=s.t + step,
        x=s.x + ux * dist,
        y=s.y + uy * dist,
        vx=ux * vnew,
        vy=uy * vnew,
    )


def resolve_pair(
    spec: KernelSpec, c: Constants, s: KernelState, e: Event
) -> tuple[KernelState, jax.Array]:
    """A pair contact (i, j): an impulse along the line of centres with restitution, contact
    friction, and sticking when slow. Returns the state with the new ``vx``, ``vy`` and
    whether a contact happened (a pair event whose discs touch and close; otherwise the
    velocities stay)."""
    d, physics, tol = c.discs, c.physics, c.tol
    i, j, x, y, vx, vy = e.i, e.j, s.x, s.y, s.vx, s.vy
    nx, ny = x[j] - x[i], y[j] - y[i]
    nd = jnp.sqrt(nx * nx + ny * ny)
    nx, ny = nx / jnp.maximum(nd, tol), ny / jnp.maximum(nd, tol)
    w = (vx[i] - vx[j]) * nx + (vy[i] - vy[j]) * ny
    # Accept up to 2 tol: the solvers aim at tol / 2 (the quartic) or call a pair within tol
    # touching (time 0), so rounding between the two never stalls a contact.
    touching = nd - (d.radius[i] + d.radius[j]) <= 2 * tol
    hit_pair = e.is_pair & ~e.finished & (w > 0) & touching & (i != j)
    el = jnp.where(d.hard[i] | d.hard[j], physics.e_striker, physics.e_piece)
    inv_i, inv_j = d.inv_mass[i], d.inv_mass[j]
    jimp = jnp.where(hit_pair, (1 + el) * w / (inv_i + inv_j), 0.0)
    # contact friction (Physics.mu_contact, 0 = smooth): a tangential impulse that stops the
    # contact point's sliding (solid discs with no spin before: 1/3 of the centres'
    # tangential speed difference, in reduced mass) or Coulomb-limited
    ut = (vy[i] - vy[j]) * nx - (vx[i] - vx[j]) * ny
    cap = physics.mu_contact * jimp
    stop_slide = ut / jnp.maximum(3 * (inv_i + inv_j), 1e-30)
    jt = jnp.where(hit_pair, jnp.clip(stop_slide, -cap, cap), 0.0)
    vxi = vx[i] - jimp * inv_i * nx + jt * inv_i * ny
    vyi = vy[i] - jimp * inv_i * ny - jt * inv_i * nx
    vxj = vx[j] + jimp * inv_j * nx - jt * inv_j * ny
    vyj = vy[j] + jimp * inv_j * ny + jt * inv_j * nx
    # slow contact: plastic, one common velocity (Physics.stick_speed)
    stick = hit_pair & (w < physics.stick_speed)
    vcx = (inv_j * vx[i] + inv_i * vx[j]) / (inv_i + inv_j)
    vcy = (inv_j * vy[i] + inv_i * vy[j]) / (inv_i + inv_j)
    vxi, vxj = jnp.where(stick, vcx, vxi), jnp.where(stick, vcx, vxj)
    vyi, vyj = jnp.where(stick, vcy, vyi), jnp.where(stick, vcy, vyj)
    vx = jnp.where(e.oh_i, vxi, jnp.where(e.oh_j, vxj, vx))
    vy = jnp.where(e.oh_i, vyi, jnp.where(e.oh_j, vyj, vy))
    return replace(s, vx=vx, vy=vy), hit_pair


def rail_bounce(
    vn: jax.Array, vt: jax.Array, restitution: jax.Array, graze: jax.Array | float
) -> tuple[jax.Array, jax.Array]:
    """A bounce off a circular rail, in the rail's frame: ``vn`` the normal velocity in
    (negative: towards the rail), ``vt`` the speed along it (>= 0). Returns ``(dv, scale)``:
    the velocity out is ``(v + dv n) * scale`` (``n`` the rail's unit normal into the
    surface), so the normal speed out is ``(vn + dv) * scale`` and the speed along the rail
    ``vt * scale``.

    Plain restitution (normal speed out ``restitution * -vn``) with the grazing floor ``graze``
    (:attr:`Physics.rail_graze`): the normal speed out is at least ``graze * vt``, so the disc
    leaves at least ``atan(graze)`` off the rail (2.86 deg for 0.05). Where the floor alone
    would leave faster than the disc came (its normal speed above the incoming one, at
    incidences below ``atan(graze)``), ``scale`` brings the velocity back to the incoming
    speed in the floor's direction: the floor turns the velocity and never adds kinetic
    energy (it used to add up to +0.25 %, at 0.05 deg). Elsewhere ``scale`` is exactly 1 and
    ``dv`` is the old rule's, so those bounces are bit for bit as before. Pure and
    elementwise (tests/test_rail_energy.py)."""
    out = jnp.maximum(-restitution * vn, graze * vt)
    gain = out > -vn  # with restitution <= 1 only the floor does this
    v2 = vt * vt + vn * vn
    o2 = jnp.where(gain, vt * vt + out * out, 1.0)
    scale = jnp.where(gain, jnp.minimum(jnp.sqrt(v2 / o2), 1.0), 1.0)
    return out - vn, scale


def wall_normal(
    c: Constants, s: KernelState, k: jax.Array, wk: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """The unit normal into the surface of wall ``wk`` at disc ``k``: a segment's left
    normal, a rail's towards its centre, a post's away from it."""
    x, y = s.x, s.y
    g = c.wall_geom[wk]
    kind = c.wall_kind[wk]
    seg_len = jnp.sqrt((g[2] - g[0]) ** 2 + (g[3] - g[1]) ** 2)
    seg_n = (-(g[3] - g[1]) / seg_len, (g[2] - g[0]) / seg_len)
    rx, ry = x[k] - g[0], y[k] - g[1]
    rl = jnp.maximum(jnp.sqrt(rx * rx + ry * ry), c.tol)
    wnx = jnp.where(kind == SEGMENT, seg_n[0], jnp.where(kind == RAIL, -rx / rl, rx / rl))
    wny = jnp.where(kind == SEGMENT, seg_n[1], jnp.where(kind == RAIL, -ry / rl, ry / rl))
    return wnx, wny


def bounce(
    c: Constants, s: KernelState, e: Event, is_wall: jax.Array, wk: jax.Array
) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Disc k off wall ``wk``: its normal velocity reflected with the wall's restitution
    (circular rails: :func:`rail_bounce`, the grazing floor ``Physics.rail_graze`` that never
    adds energy). Returns the new (vx, vy) and whether a wall contact happened."""
    k, oh_k, vx, vy = e.k, e.oh_k, s.vx, s.vy
    kind = c.wall_kind[wk]
    wnx, wny = wall_normal(c, s, k, wk)
    vn = vx[k] * wnx + vy[k] * wny
    hit_wall = is_wall & (vn < 0)
    vt = jnp.sqrt(jnp.maximum(vx[k] * vx[k] + vy[k] * vy[k] - vn * vn, 0.0))
    rail_dv, rail_scale = rail_bounce(vn, vt, c.e_wall[wk], c.physics.rail_graze)
    dv = jnp.where(kind == RAIL, rail_dv, -(1 + c.e_wall[wk]) * vn)
    dv = jnp.where(hit_wall, dv, 0.0)
    vx = jnp.where(oh_k, vx + dv * wnx, vx)
    vy = jnp.where(oh_k, vy + dv * wny, vy)
    # 1 but where the floor turns a grazing bounce (scale < 1 there)
    scale = jnp.where(hit_wall & (kind == RAIL), rail_scale, 1.0)
    return jnp.where(oh_k, vx * scale, vx), jnp.where(oh_k, vy * scale, vy), hit_wall


def resolve_disc(
    spec: KernelSpec, c: Constants, s: KernelState, e: Event
) -> tuple[KernelState, jax.Array, jax.Array]:
    """Disc k's one-disc event: a wall (cushion, rail, post) reflects its normal velocity
    (:func:`bounce`); a capture or the ditch takes it off the surface (``alive``,
    ``capture*``, ``n_captured``). Returns the state, whether a wall contact happened and the
    wall's index."""
    code, oh_k, vx, vy = e.code, e.oh_k, s.vx, s.vy
    disc_ev = ~e.is_pair & ~e.finished
    is_cap = disc_ev & (code < spec.code_ditch)
    is_ditch = disc_ev & (code == spec.code_ditch)
    is_wall = disc_ev & (code >= spec.code_wall0)
    wk = jnp.clip(code - spec.code_wall0, 0, max(spec.n_walls - 1, 0))
    if spec.n_walls:
        vx, vy, hit_wall = bounce(c, s, e, is_wall, wk)
    else:
        hit_wall = jnp.zeros((), bool)
    gone = is_cap | is_ditch
    gone_k = oh_k & gone
    s = replace(
        s,
        vx=jnp.where(gone_k, 0.0, vx),
        vy=jnp.where(gone_k, 0.0, vy),
        alive=s.alive & ~gone_k,
        capture=jnp.where(gone_k, code, s.capture),
        capture_time=jnp.where(gone_k, s.t, s.capture_time),
        capture_order=jnp.where(gone_k, s.n_captured, s.capture_order),
        n_captured=s.n_captured + gone.astype(jnp.int32),
    )
    return s, hit_wall, wk
