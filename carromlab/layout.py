"""Where pieces go in a set-up: hexagonal close packing around the origin (the geometry of
touching rosettes), points on a circle, and colours alternating along a list of places."""

from __future__ import annotations

import math


def hex_shell(shell: int, spacing: float, angle: float = 0.0) -> list[tuple[float, float]]:
    """Centres of the ``6 * shell`` discs of hexagonal shell ``shell`` (1, 2, ...), spaced
    ``spacing`` apart, listed counter-clockwise starting at ``angle``.

    Vertices of the shell sit at ``shell * spacing`` on the six directions ``angle + k*60``;
    between two vertices lie ``shell - 1`` more discs on the straight edge. Neighbours touch
    exactly when ``spacing`` is twice the radius.
    """
    out = []
    for k in range(6):
        a0 = angle + k * math.pi / 3
        a1 = a0 + math.pi / 3
        v0 = (shell * spacing * math.cos(a0), shell * spacing * math.sin(a0))
        v1 = (shell * spacing * math.cos(a1), shell * spacing * math.sin(a1))
        for j in range(shell):
            t = j / shell
            out.append((v0[0] + t * (v1[0] - v0[0]), v0[1] + t * (v1[1] - v0[1])))
    return out


def circle_points(n: int, radius: float, angle: float = 0.0) -> list[tuple[float, float]]:
    """``n`` points evenly spaced on a circle of ``radius`` about the origin, from ``angle``."""
    return [
        (
            radius * math.cos(angle + 2 * math.pi * k / n),
            radius * math.sin(angle + 2 * math.pi * k / n),
        )
        for k in range(n)
    ]


def alternate_colours(points, colours=("red", "green"), counters=None) -> list:
    """Rings (id ``<colour initial><count>``) on ``points``, colours taking turns; ``counters``
    carries the counts across calls."""
    from carromlab.position import Piece

    counters = counters if counters is not None else {c: 0 for c in colours}
    out = []
    for k, (x, y) in enumerate(points):
        c = colours[k % len(colours)]
        counters[c] += 1
        out.append(Piece(f"{c[0]}{counters[c]}", "ring", c, x, y))
    return out
