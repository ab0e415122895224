"""Running per-cell counts and sums, so long runs keep only aggregates in memory.

Sums do not depend on the order shots arrive in (chunk size, devices, workers): every value
and square is rounded to a multiple of 2**-20 (about 1e-6) before it is added, and float64
adds such numbers exactly while a sum stays below 2**33 (8.6e9), so the sums are exact and
order-free. The rules' values (counts, points) are integers and pass unchanged.
"""

from __future__ import annotations

import numpy as np


class Tally:
    """Per-cell tallies of boolean quantities (counts) and numeric ones (sum, sum of squares)."""

    def __init__(self, n_cells: int):
        self.n_cells = n_cells
        self.n = np.zeros(n_cells, dtype=np.int64)
        self.counts: dict[str, np.ndarray] = {}
        self.sums: dict[str, np.ndarray] = {}
        self.sumsq: dict[str, np.ndarray] = {}

    def add_shots(self, cell: np.ndarray) -> None:
        self.n += np.bincount(cell, minlength=self.n_cells)

    def add_bool(self, name: str, cell: np.ndarray, values: np.ndarray) -> None:
        c = self.counts.setdefault(name, np.zeros(self.n_cells, dtype=np.int64))
        c += np.bincount(
            cell, weights=np.asarray(values, dtype=float), minlength=self.n_cells
        ).astype(np.int64)

    def add_value(self, name: str, cell: np.ndarray, values: np.ndarray) -> None:
        v = _grid(np.asarray(values, dtype=float))
        s = self.sums.setdefault(name, np.zeros(self.n_cells))
        q = self.sumsq.setdefault(name, np.zeros(self.n_cells))
        s += np.bincount(cell, weights=v, minlength=self.n_cells)
        q += np.bincount(cell, weights=_grid(v * v), minlength=self.n_cells)


def _grid(v: np.ndarray) -> np.ndarray:
    """``v`` rounded to a multiple of 2**-20 (exactly representable, so sums are exact)."""
    return np.round(v * 2.0**20) / 2.0**20
