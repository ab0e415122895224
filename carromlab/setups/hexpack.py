"""Hexagonal close packing around the origin: the geometry of touching rosettes."""

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
