"""Exact paths from a recorded :class:`~carromlab.physics.kernel.Trace`, for drawing."""

from __future__ import annotations

import numpy as np

from carromlab.physics.sliding import slide


def sample_paths(trace, deceleration, points: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """Positions along every disc's path: arrays (n_points, N) of x and y.

    Between two recorded events each disc slides straight, decelerating at ``deceleration``
    (mu * g; or an array, one a disc) until it stops
    (:func:`~carromlab.physics.sliding.slide`); ``points`` samples per segment between
    events. A captured disc's path ends where it was captured (NaN after).
    """
    t = np.asarray(trace.t)
    n = int(trace.n)
    xs, ys = [], []
    for k in range(n - 1):
        x0, y0 = np.asarray(trace.x[k]), np.asarray(trace.y[k])
        vx, vy = np.asarray(trace.vx[k]), np.asarray(trace.vy[k])
        alive = np.asarray(trace.alive[k])
        v = np.hypot(vx, vy)
        ux, uy = (
            np.divide(vx, v, out=np.zeros_like(vx), where=v > 0),
            np.divide(vy, v, out=np.zeros_like(vy), where=v > 0),
        )
        span = t[k + 1] - t[k]
        for tau in np.linspace(0.0, span, points, endpoint=False):
            s, _ = slide(v, deceleration, tau)
            xs.append(np.where(alive, x0 + ux * s, np.nan))
            ys.append(np.where(alive, y0 + uy * s, np.nan))
    last = n - 1
    xs.append(np.where(np.asarray(trace.alive[last]), np.asarray(trace.x[last]), np.nan))
    ys.append(np.where(np.asarray(trace.alive[last]), np.asarray(trace.y[last]), np.nan))
    return np.array(xs), np.array(ys)
