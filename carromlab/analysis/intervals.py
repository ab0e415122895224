"""Intervals for Monte-Carlo estimates.

- Probabilities: Wilson score intervals (the closed form behind
  ``scipy.stats.binomtest(...).proportion_ci(method="wilson")``), which stay inside [0, 1] and
  keep their coverage near 0 and 1 where the normal interval fails.
- Means: the normal (central-limit) interval from the running sums, with the t quantile.

The quantiles come from ``scipy.special`` (``ndtri``, ``stdtrit``: what ``scipy.stats.norm``
and ``scipy.stats.t`` call), which imports in a tenth of the time of ``scipy.stats``: every
command's start pays for it.
"""

from __future__ import annotations

import numpy as np
from scipy import special


def wilson(successes, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for ``successes`` out of ``n`` (arrays broadcast; NaN where n = 0).

    Vectorised closed form; it equals ``scipy.stats.binomtest(k, n).proportion_ci(
    method="wilson")`` (a test checks this), which is too slow to call per cell of a large map.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = special.ndtri(0.5 + confidence / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        lo = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        hi = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    # exact ends, as scipy reports them
    lo = np.where((n > 0) & (k == 0), 0.0, lo)
    hi = np.where((n > 0) & (k == n), 1.0, hi)
    return np.atleast_1d(lo), np.atleast_1d(hi)


def mean_interval(total, total_sq, n, confidence: float = 0.95):
    """(mean, lo, hi) from the sum and the sum of squares of ``n`` samples."""
    total = np.asarray(total, dtype=float)
    total_sq = np.asarray(total_sq, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        var = np.maximum(total_sq / n - mean * mean, 0.0) * n / np.maximum(n - 1, 1)
        half = special.stdtrit(np.maximum(n - 1, 1), 0.5 + confidence / 2) * np.sqrt(var / n)
    return mean, mean - half, mean + half


def rate(k, n, confidence: float = 0.95) -> tuple[float, float, float]:
    """(k / n, lo, hi): one proportion with its Wilson interval (NaNs when n = 0)."""
    lo, hi = wilson(np.asarray([k]), np.asarray([n]), confidence)
    return (k / n if n else np.nan), float(lo[0]), float(hi[0])


def sample_mean(x, confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, lo, hi) of the samples ``x`` with the t interval."""
    x = np.asarray(x, float)
    m, lo, hi = mean_interval(
        np.asarray([x.sum()]), np.asarray([(x * x).sum()]), np.asarray([len(x)]), confidence
    )
    return float(m[0]), float(lo[0]), float(hi[0])
