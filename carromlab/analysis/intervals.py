"""Intervals for Monte-Carlo estimates.

- Probabilities: Wilson score intervals (``scipy.stats.binomtest(...).proportion_ci``), which
  stay inside [0, 1] and keep their coverage near 0 and 1 where the normal interval fails.
- Means: the normal (central-limit) interval from the running sums, with the t quantile.
"""

from __future__ import annotations

import numpy as np
from scipy import stats


def wilson(successes, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for ``successes`` out of ``n`` (arrays broadcast)."""
    k = np.atleast_1d(np.asarray(successes, dtype=np.int64))
    n = np.broadcast_to(np.atleast_1d(np.asarray(n, dtype=np.int64)), k.shape)
    lo = np.full(k.shape, np.nan)
    hi = np.full(k.shape, np.nan)
    for idx in np.ndindex(k.shape):
        if n[idx] > 0:
            ci = stats.binomtest(int(k[idx]), int(n[idx])).proportion_ci(
                confidence_level=confidence, method="wilson"
            )
            lo[idx], hi[idx] = ci.low, ci.high
    return lo, hi


def mean_interval(total, total_sq, n, confidence: float = 0.95):
    """(mean, lo, hi) from the sum and the sum of squares of ``n`` samples."""
    total = np.asarray(total, dtype=float)
    total_sq = np.asarray(total_sq, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        var = np.maximum(total_sq / n - mean * mean, 0.0) * n / np.maximum(n - 1, 1)
        half = stats.t.ppf(0.5 + confidence / 2, np.maximum(n - 1, 1)) * np.sqrt(var / n)
    return mean, mean - half, mean + half
