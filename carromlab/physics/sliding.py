"""How a disc slides between events: the one formula the kernel, the recorded traces and the
drawings share.

A disc sliding freely at speed ``v`` decelerates at ``a`` (Coulomb friction, ``mu g``; an
array where discs slide differently, as a drawing may ask) until it stops at ``v / a``, and
rests there. Written once for any array module: the kernel passes
``jax.numpy``, the traces and drawings NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def slide(v: Any, a: Any, t: Any, xp: Any = np) -> tuple[Any, Any]:
    """``(distance, speed)`` after sliding for time ``t`` from speed ``v`` at deceleration
    ``a`` (arrays broadcast): a disc whose stop comes first rests there (speed exactly 0); a
    disc at rest stays (also where ``a`` is 0). ``xp``: the array module (NumPy or
    ``jax.numpy``)."""
    if xp is np:
        with np.errstate(divide="ignore", invalid="ignore"):
            return _slide(v, a, t, xp)
    return _slide(v, a, t, xp)


def _slide(v: Any, a: Any, t: Any, xp: Any) -> tuple[Any, Any]:
    tau = xp.minimum(t, xp.where(v > 0, v / a, 0.0))  # at rest: 0 (also a = 0)
    dist = v * tau - 0.5 * a * tau * tau
    speed = xp.where(tau < t, 0.0, xp.maximum(v - a * tau, 0.0))
    return dist, speed


__all__ = ["slide"]
