"""Ratings for a strength ladder of computer players: the Bradley–Terry model, on the Elo scale.

Model. Each player ``i`` has a strength ``s_i`` in logits and wins a game against ``j`` with
probability ``P(i beats j) = 1 / (1 + exp(-(s_i - s_j)))``. A draw counts half a win to each
player: it adds 0.5 to both scores, and the log-likelihood of a pair with scores ``w_ij`` and
``w_ji`` out of ``n_ij`` games is ``w_ij log p_ij + w_ji log p_ji`` (the usual "half a win"
treatment, the same as Elo's). The strengths are fitted by maximum likelihood
(``scipy.optimize.minimize``, trust-region Newton with the analytic gradient and Hessian).

Scale. Ratings are reported in Elo points, ``400 / ln 10`` (about 173.7) per logit, so a
difference of 400 points means odds of 10 to 1 (:func:`expected_score`). Only differences are
identified; :func:`fit_bradley_terry` fixes the level by an ``anchor`` player (rated 0) or, by
default, by a mean rating of 0.

Prior. A player who won (or lost) every game has no finite maximum-likelihood strength. The fit
therefore adds a tiny ridge: a Gaussian prior with sd 10 logits (about 1,737 Elo points) on each
mean-centred strength, i.e. the penalty ``sum_i (s_i - mean(s))**2 / (2 * 10**2)``. It depends
on differences only, like the likelihood, so the choice of anchor shifts the ratings and changes
nothing else; with a few dozen games a pair it moves ratings by well under an Elo point. A perfect
player gets a finite, large rating with a very wide interval (honestly: the data only say "much
stronger").

Intervals. Wald intervals ``rating ± z * se`` with ``z = norm.ppf((1 + confidence) / 2)`` and
``se`` from the observed information, the Hessian ``H`` of the penalised negative
log-likelihood at the optimum. ``H`` is singular along ``(1, …, 1)`` (a common shift changes
nothing), so the parameters are constrained first: with an anchor, its row and column are
dropped and the rest inverted (each interval is then for the difference from the anchor, whose
interval is [0, 0]); with mean 0, ``Cov = C (Cᵀ H C)⁻¹ Cᵀ`` for an orthonormal sum-to-zero
contrast ``C`` (equal to the pseudo-inverse of ``H``, computed without its rank cut-off).

Bad input raises :class:`~carromlab.errors.CarromlabError` with one line naming the problem:
a missing column, a player playing itself, a winner who is neither ``a`` nor ``b``, fewer than
two players, an unknown anchor, or players not connected by games (whose relative strength the
data cannot tell).
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import optimize, sparse, special, stats
from scipy.sparse import csgraph

from carromlab.analysis.intervals import rate
from carromlab.errors import CarromlabError

ELO_PER_LOGIT = 400.0 / math.log(10.0)
"""Elo points per logit of strength (about 173.72)."""

PRIOR_SD_LOGITS = 10.0
"""Sd of the ridge prior on each mean-centred strength, in logits (see the module docstring)."""

COLUMNS = ("a", "b", "winner")


def expected_score(rating_a: ArrayLike, rating_b: ArrayLike) -> float | np.ndarray:
    """Expected score of ``a`` against ``b`` (win 1, draw 1/2) from Elo-scale ratings:
    ``1 / (1 + 10 ** ((rating_b - rating_a) / 400))``. Arrays broadcast; scalars give a float."""
    d = (np.asarray(rating_a, float) - np.asarray(rating_b, float)) / ELO_PER_LOGIT
    p = special.expit(d)
    return float(p) if np.ndim(p) == 0 else p


def fit_bradley_terry(
    results: pd.DataFrame, anchor: Hashable | None = None, confidence: float = 0.95
) -> pd.DataFrame:
    """Bradley–Terry ratings, on the Elo scale, with Wald intervals (see the module docstring).

    ``results`` has one row per game: ``a`` and ``b`` name the players, ``winner`` is the name of
    the winner or None/NaN for a draw (half a win to each). ``anchor`` names the player rated 0;
    None rates the players to a mean of 0. A tiny ridge prior (sd 10 logits) keeps the rating of
    a player who won or lost every game finite.

    Returns one row per player, strongest first: ``player``, ``rating``, ``lo``, ``hi`` (the
    interval at ``confidence``), ``games``, ``wins`` (draws as 0.5) and ``score`` (wins / games).
    """
    if not 0 < confidence < 1:
        raise CarromlabError(f"confidence must lie strictly between 0 and 1, not {confidence}")
    players, n, w, _ = _tally(results)
    k = len(players)
    if anchor is not None and anchor not in players:
        raise CarromlabError(
            f"unknown anchor {anchor!r}: it played no game (players: {_names(players)})"
        )
    _check_connected(players, n)

    s = _fit(n, w)
    h = _hessian(s, n)
    z = stats.norm.ppf(0.5 + confidence / 2)
    if anchor is None:
        c = _contrast(k)
        var = np.diag(c @ np.linalg.solve(c.T @ h @ c, c.T))
    else:
        i = players.index(anchor)
        s = s - s[i]
        keep = np.arange(k) != i
        var = np.zeros(k)
        var[keep] = np.diag(np.linalg.inv(h[np.ix_(keep, keep)]))
    se = np.sqrt(np.maximum(var, 0.0))
    rating = s * ELO_PER_LOGIT
    half = z * se * ELO_PER_LOGIT
    games = n.sum(axis=1)
    wins = w.sum(axis=1)
    table = pd.DataFrame(
        {
            "player": players,
            "rating": rating,
            "lo": rating - half,
            "hi": rating + half,
            "games": games.astype(np.int64),
            "wins": wins,
            "score": wins / games,
        }
    )
    return table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)


def pairwise_table(results: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Head-to-head record of every pair that met, one row per pair.

    Columns: ``a``, ``b`` (the pair, in sorted order of their names), ``games``, ``wins_a``,
    ``wins_b``, ``draws``, ``score`` (a's score, ``(wins_a + draws / 2) / games``) and ``lo``,
    ``hi``: the Wilson interval of that score at ``confidence``, from
    :func:`carromlab.analysis.intervals.rate` with the fractional count ``wins_a + draws / 2``
    (the Wilson formula needs only the proportion, so a half-integer count is fine). A draw
    varies less than a win or a loss, so with draws the binomial variance overstates the
    score's, and the interval errs on the wide (conservative) side.
    """
    players, n, w, draws = _tally(results)
    rows = []
    for i, j in zip(*np.nonzero(np.triu(n, 1))):
        games, d = int(n[i, j]), int(draws[i, j])
        wins_a, wins_b = round(w[i, j] - d / 2), round(w[j, i] - d / 2)
        score, lo, hi = rate(wins_a + d / 2, games, confidence)
        rows.append((players[i], players[j], games, wins_a, wins_b, d, score, lo, hi))
    cols = ["a", "b", "games", "wins_a", "wins_b", "draws", "score", "lo", "hi"]
    return pd.DataFrame(rows, columns=cols)


def _tally(results: pd.DataFrame) -> tuple[list, np.ndarray, np.ndarray, np.ndarray]:
    """(players in sorted order, games ``n[i, j]``, scores ``w[i, j]`` of i against j (draws
    as 0.5), draws ``d[i, j]``); the matrices are k x k with zero diagonals."""
    if not isinstance(results, pd.DataFrame):
        raise CarromlabError(f"results must be a pandas DataFrame, not {type(results).__name__}")
    missing = [c for c in COLUMNS if c not in results.columns]
    if missing:
        raise CarromlabError(
            f"results lack the column(s) {', '.join(map(repr, missing))}; "
            f"one row per game needs {', '.join(map(repr, COLUMNS))}"
        )
    a, b, winner = (results[c].tolist() for c in COLUMNS)
    for row, x, y, v in zip(results.index, a, b, winner):
        if _missing(x) or _missing(y):
            raise CarromlabError(
                f"game at row {row!r} has a missing player name (a={x!r}, b={y!r})"
            )
        if x == y:
            raise CarromlabError(f"game at row {row!r}: player {x!r} plays itself")
        if not _missing(v) and v != x and v != y:
            raise CarromlabError(
                f"game at row {row!r}: winner {v!r} is neither a ({x!r}) nor b ({y!r})"
            )
    players = sorted(set(a) | set(b), key=str)
    if len(players) < 2:
        raise CarromlabError(f"ratings need at least 2 players, not {len(players)}")
    index = {p: i for i, p in enumerate(players)}
    ia = np.array([index[x] for x in a], dtype=np.int64)
    ib = np.array([index[y] for y in b], dtype=np.int64)
    score_a = np.array([0.5 if _missing(v) else float(v == x) for x, v in zip(a, winner)])
    k = len(players)
    n = np.zeros((k, k))
    w = np.zeros((k, k))
    np.add.at(n, (ia, ib), 1.0)
    np.add.at(n, (ib, ia), 1.0)
    np.add.at(w, (ia, ib), score_a)
    np.add.at(w, (ib, ia), 1.0 - score_a)
    draws = np.zeros((k, k))
    np.add.at(draws, (ia, ib), score_a == 0.5)
    return players, n, w, draws + draws.T


def _missing(v: object) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA or v is pd.NaT


def _names(players: list) -> str:
    return ", ".join(map(repr, players))


def _check_connected(players: list, n: np.ndarray) -> None:
    count, label = csgraph.connected_components(sparse.csr_matrix(n > 0), directed=False)
    if count > 1:
        groups = " | ".join(
            "{" + _names([p for p, g in zip(players, label) if g == c]) + "}" for c in range(count)
        )
        raise CarromlabError(
            f"players not connected by games: {count} separate groups {groups}; "
            "their relative strength is not identified"
        )


def _objective(s: np.ndarray, n: np.ndarray, w: np.ndarray) -> tuple[float, np.ndarray]:
    """Penalised negative log-likelihood and its gradient at strengths ``s`` (logits)."""
    d = s[:, None] - s[None, :]
    nll = float(np.sum(w * np.logaddexp(0.0, -d)))  # -w_ij log sigmoid(s_i - s_j)
    centred = s - s.mean()
    nll += float(centred @ centred) / (2 * PRIOR_SD_LOGITS**2)
    grad = -(w - n * special.expit(d)).sum(axis=1) + centred / PRIOR_SD_LOGITS**2
    return nll, grad


def _hessian(s: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Hessian of the penalised negative log-likelihood (singular along (1, …, 1))."""
    k = len(s)
    p = special.expit(s[:, None] - s[None, :])
    h = -n * p * (1 - p)
    np.fill_diagonal(h, 0.0)
    h[np.diag_indices(k)] = -h.sum(axis=1)
    return h + (np.eye(k) - 1.0 / k) / PRIOR_SD_LOGITS**2


def _contrast(k: int) -> np.ndarray:
    """An orthonormal basis (k x (k - 1)) of the sum-to-zero vectors: the columns of the QR
    factor of the centring matrix, after its first (dependent) column is dropped."""
    centring = np.eye(k) - 1.0 / k
    q, _ = np.linalg.qr(centring[:, 1:])
    return q


def _fit(n: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Mean-zero strengths (logits): the first player's strength held at 0 during the fit (the
    objective depends on differences only), then the mean removed."""

    def full(x: np.ndarray) -> np.ndarray:
        return np.concatenate([[0.0], x])

    def fun(x: np.ndarray) -> tuple[float, np.ndarray]:
        f, g = _objective(full(x), n, w)
        return f, g[1:]

    def hess(x: np.ndarray) -> np.ndarray:
        return _hessian(full(x), n)[1:, 1:]

    k = len(n)
    res = optimize.minimize(
        fun, np.zeros(k - 1), jac=True, hess=hess, method="trust-exact", options={"gtol": 1e-9}
    )
    # The gradient is in games (expected minus actual score). Near the optimum the objective's
    # rounding can stop the trust region before gtol ("failure to predict improvement"); a
    # gradient below 1e-6 games is still converged (the ratings are then exact to ~1e-6 Elo).
    if not (res.success or np.max(np.abs(res.jac)) <= 1e-6):
        raise RuntimeError(f"the Bradley–Terry fit did not converge: {res.message}")
    s = full(res.x)
    return s - s.mean()


__all__ = [
    "ELO_PER_LOGIT",
    "PRIOR_SD_LOGITS",
    "expected_score",
    "fit_bradley_terry",
    "pairwise_table",
]
