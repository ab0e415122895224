"""Resting places as positions: separate the float32 kernel's tiny interpenetrations.

The kernel finds contacts to within ``CONTACT_TOL`` (1 um in float32) and rests discs where
their paths end, so two discs that come to rest touching can overlap by a few micrometres of
float32 rounding - more than a position allows (``OVERLAP_TOLERANCE``, 2 um). Before such
resting places become the next position, :func:`separate` pushes each overlapping pair apart
along the line of centres, half each, to exactly touching. Overlaps above ``limit`` are not
rounding and are refused.
"""

from __future__ import annotations

import numpy as np

from carromlab.errors import CarromlabError

#: Largest overlap (m) taken for rounding; more means a kernel fault.
SEPARATE_LIMIT = 5e-5


def separate(xy, radius, movable=None, limit: float = SEPARATE_LIMIT, rounds: int = 20):
    """``xy`` [N, 2] with every overlap removed (a copy); ``movable`` [N] bool (default all)
    marks the discs that may move; a pair with one fixed disc moves the other by the whole
    overlap."""
    xy = np.array(xy, dtype=float)
    r = np.asarray(radius, dtype=float)
    mov = np.ones(len(r), bool) if movable is None else np.asarray(movable, bool)
    i, j = np.triu_indices(len(r), 1)
    for _ in range(rounds):
        d = xy[j] - xy[i]
        dist = np.hypot(d[:, 0], d[:, 1])
        over = r[i] + r[j] - dist
        bad = np.flatnonzero(over > 1e-9)
        if not len(bad):
            return xy
        worst = over[bad].max()
        if worst > limit:
            k = bad[np.argmax(over[bad])]
            raise CarromlabError(
                f"discs {i[k]} and {j[k]} rest overlapping by {worst * 1e3:.4f} mm, "
                f"more than rounding ({limit * 1e3:.3f} mm)"
            )
        for k in bad:
            a, b = i[k], j[k]
            u = d[k] / max(dist[k], 1e-12)
            push = over[k] + 1e-9
            wa, wb = (0.5, 0.5) if mov[a] and mov[b] else (float(mov[a]), float(mov[b]))
            xy[a] -= u * push * wa
            xy[b] += u * push * wb
    raise CarromlabError(f"could not separate resting discs in {rounds} rounds")
