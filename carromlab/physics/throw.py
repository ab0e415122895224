"""The KOOBA throw kernel: where a thrown Aero lands, for a batch of throws (JAX).

KOOBA is not a sliding game: an Aero launched with two sticks flies to the magnetic target
board and sticks where it lands. The model (an estimate; no measurements of KOOBA throws are
published):

- the thrower stands ``distance`` from the board's centre on their seat's axis and aims at a
  point of the board; the flight from the thrower to the aim point sets two directions, the
  line of flight t and its normal n;
- the landing point is the aim point plus a *lateral* error ``d * angle * N(0, 1)`` along n
  (a direction error of ``angle`` radians grows with the flight length d), a *length* error
  ``d * length * N(0, 1)`` along t (throws scatter more in length than in direction, as darts
  and boules do), and a release error ``release * N(0, 1)`` in each of x and y;
- an optional short slide along t after landing: exponential with mean ``slide`` (0 for a
  magnetic board, the default);
- the Aero's rotation is uniform (it tumbles in flight).

One throw is written for one key; :func:`throw_batch` vmaps it (the one place throws are
batched). Nothing here knows a rule: tags are the rules' business (games/kooba/geometry.py).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from carromlab.physics.programs import kernel_program


def throw_one(key, aim_x, aim_y, from_x, from_y, angle, length, release, slide):
    """Landing (x, y, rotation) of one throw from (from_x, from_y) aimed at (aim_x, aim_y)."""
    k1, k2, k3, k4, k5 = jax.random.split(key, 5)
    dx, dy = aim_x - from_x, aim_y - from_y
    d = jnp.sqrt(dx * dx + dy * dy)
    tx, ty = dx / d, dy / d
    nx, ny = -ty, tx
    lat = d * angle * jax.random.normal(k1)
    lon = d * length * jax.random.normal(k2)
    rx, ry = release * jax.random.normal(k3, (2,))
    slid = slide * jax.random.exponential(k4)
    x = aim_x + lat * nx + (lon + slid) * tx + rx
    y = aim_y + lat * ny + (lon + slid) * ty + ry
    rotation = jax.random.uniform(k5, minval=0.0, maxval=2 * jnp.pi)
    return x, y, rotation


def _throw_batch(keys, aim_x, aim_y, from_x, from_y, angle, length, release, slide):
    """:func:`throw_one` over a batch (the first five arguments with the batch's leading
    axis)."""
    return jax.vmap(throw_one, in_axes=(0, 0, 0, 0, 0, None, None, None, None))(
        keys, aim_x, aim_y, from_x, from_y, angle, length, release, slide
    )


_throw_program = kernel_program(_throw_batch, "throw")


#: Throws a compiled program takes at once: a batch is cut into blocks of this many and the
#: last padded (a batch of at most 64 throws, a game's, is padded to 64), so two programs serve
#: every batch size.
THROW_BLOCK = 4096


def throw_batch(keys, aim_x, aim_y, from_x, from_y, angle, length, release, slide):
    """:func:`throw_one` over a batch (every argument has the batch's leading axis or is a
    scalar). The batch runs in blocks of :data:`THROW_BLOCK` (64 when it is no bigger), the
    last padded by repeating its last throw; a throw depends only on its own key and aim, so
    the blocks and the padding change nothing."""
    n = int(keys.shape[0])
    aims = [jnp.broadcast_to(jnp.asarray(a), (n,)) for a in (aim_x, aim_y, from_x, from_y)]
    dtype = aims[0].dtype
    scalars = [jnp.asarray(v, dtype) for v in (angle, length, release, slide)]
    size = 64 if n <= 64 else THROW_BLOCK
    outs = []
    for start in range(0, n, size):
        pick = jnp.minimum(jnp.arange(start, start + size), n - 1)
        got = _throw_program(keys[pick], *(a[pick] for a in aims), *scalars)
        outs.append([g[: min(size, n - start)] for g in got])
    return tuple(jnp.concatenate(parts) for parts in zip(*outs))
