"""Helpers shared by the kernel and reference tests: ad-hoc pieces and an open table."""

import numpy as np

from carromlab.equipment.geometry import Layout, SurfaceEdge
from carromlab.physics import Pieces, Table


def make_pieces(rows, static=(), alive=None) -> Pieces:
    """rows: (x, y, vx, vy, (radius, mass, material)) per piece."""
    n = len(rows)
    return Pieces(
        ids=tuple(f"p{k}" for k in range(n)),
        x=np.array([r[0] for r in rows], dtype=float),
        y=np.array([r[1] for r in rows], dtype=float),
        vx=np.array([r[2] for r in rows], dtype=float),
        vy=np.array([r[3] for r in rows], dtype=float),
        radius=np.array([r[4][0] for r in rows], dtype=float),
        mass=np.array([r[4][1] for r in rows], dtype=float),
        materials=tuple(r[4][2] for r in rows),
        alive=np.ones(n, dtype=bool) if alive is None else np.asarray(alive, dtype=bool),
        static=np.array([k in static for k in range(n)], dtype=bool),
    )


def open_table() -> Table:
    """No walls, no captures: discs slide freely."""
    return Table.from_layout(Layout(SurfaceEdge("square", 100.0, "open")))
