"""Cluster-robust standard errors: the unit of independence is the cluster, not the game.

Why: the lab's designs reuse shared sources of luck. A fairness check plays block ``b`` on board
``b % boards``, so past ``boards`` blocks several blocks share one board; a ladder deal's four
games share its dice, board and cards, and deals share boards too. Games (or blocks) that share a
board are correlated, so treating them as independent makes standard errors too small (measured:
1.5-2.3x for fairness past 4 x boards games, 1.17x for the ladder's Elo). The honest unit is the
outermost shared source: the board, which nests blocks and deals.

Method: the sandwich (Liang & Zeger, Biometrika 73, 1986) with scores summed within each cluster,
V = c * B^-1 (sum_c s_c s_c^T) B^-1, and the CR1 small-sample factor c = G / (G - 1) (times
(N - 1) / (N - p) for least squares), as in Cameron & Miller, "A practitioner's guide to
cluster-robust inference", J. Human Resources 50 (2015), section VI; intervals are t on G - 1
degrees of freedom (their section VI.C), G the number of clusters. With one observation per
cluster it is the usual independent-observations estimate, so a design in which every block has
its own board gets exactly the block standard error it had before.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass

import numpy as np

from scipy.stats import t as student_t

from .intervals import clopper_pearson_interval, wilson_interval

__all__ = ["ClusteredMean", "cluster_ids", "cluster_sums", "clustered_mean", "cr1_factor",
           "clustered_share_interval", "design_effect", "effective_trials",
           "korn_graubard_interval",
           "t_quantile"]

MIN_CLUSTERS = 2  # a between-cluster variance needs two clusters


def cluster_ids(clusters, n: int) -> tuple[np.ndarray, int]:
    """Compact ids 0 .. G-1 of ``clusters`` (any labels, one per observation), and G.

    ``None`` makes every observation its own cluster (independent observations)."""
    if clusters is None:
        return np.arange(n), n
    labels = np.asarray(clusters)
    if labels.shape != (n,):
        raise ValueError(f"clusters must give one label per observation ({n}), got shape "
                         f"{labels.shape}")
    # (labels past n - 1 cannot all be present: never count them, a seed or an id as a label
    # would have np.bincount allocate one slot per integer up to it)
    if n and labels.dtype.kind in "iu" and labels.min() >= 0 and labels.max() < n \
            and np.all(np.bincount(labels) > 0):
        # labels already 0 .. G-1, each present (a schedule's boards): they are their own
        # compact ids, found without np.unique's sort (the drift gate asks every round)
        return labels.astype(np.intp), int(labels.max()) + 1
    _, ids = np.unique(labels, return_inverse=True)
    return ids.ravel(), int(ids.max()) + 1 if n else 0


def cluster_sums(values, ids: np.ndarray, n_clusters: int) -> np.ndarray:
    """Sum of ``values`` (n x ...) within each cluster: (G x ...)."""
    v = np.asarray(values, dtype=float)
    # np.bincount adds each column's values in the observations' order, as np.add.at does
    # (the same sums bit for bit), at a tenth of its time: the drift gate sums every round
    flat = v.reshape(v.shape[0], int(np.prod(v.shape[1:])))
    out = np.empty((n_clusters, flat.shape[1]))
    for j in range(flat.shape[1]):
        out[:, j] = np.bincount(ids, weights=flat[:, j], minlength=n_clusters)
    return out.reshape((n_clusters,) + v.shape[1:])


def cr1_factor(n_clusters: int, n_obs: int | None = None, n_params: int | None = None) -> float:
    """CR1 small-sample factor G/(G-1), times (N-1)/(N-p) when N and p are given (least
    squares, Stata's ``regress, vce(cluster)``)."""
    if n_clusters < MIN_CLUSTERS:
        raise ValueError(f"need at least {MIN_CLUSTERS} clusters (boards) for a standard error, "
                         f"got {n_clusters}")
    factor = n_clusters / (n_clusters - 1)
    if n_obs is not None and n_params is not None:
        factor *= (n_obs - 1) / (n_obs - n_params)
    return factor


def t_quantile(confidence: float, df: int) -> float:
    """Two-sided t quantile of a ``confidence`` interval on ``df`` degrees of freedom."""
    return _t_quantile(float(confidence), float(df))


@functools.lru_cache(maxsize=4096)
def _t_quantile(confidence: float, df: float) -> float:
    """:func:`t_quantile`, kept per (confidence, df): a study asks for the same few values
    thousands of times (the drift gate's intervals, per team and round), and scipy's argument
    checks made each ask cost about 180 us."""
    return float(student_t.ppf(0.5 + confidence / 2.0, df))


@dataclass(frozen=True)
class ClusteredMean:
    """Mean of units (per column) with its cluster-robust standard error and t interval."""

    rate: np.ndarray
    se: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    df: int              # G - 1
    n_clusters: int
    n_units: int


def clustered_mean(values, clusters=None, confidence: float = 0.95) -> ClusteredMean:
    """Mean over units (rows of ``values``, e.g. duplicate blocks) with a CR1 standard error.

    se^2 = G/(G-1) * sum_c (sum_{i in c} (y_i - ybar))^2 / n^2: the between-cluster variation of
    the cluster totals. With ``clusters=None`` (each unit its own cluster) it is sd/sqrt(n).
    This is the function a calibration benchmark needs: outcomes and cluster ids in, rate, se,
    df and interval out."""
    y = np.asarray(values, dtype=float)
    if y.ndim == 0 or y.shape[0] == 0:
        raise ValueError("values must have at least one unit (row)")
    n = y.shape[0]
    ids, g = cluster_ids(clusters, n)
    rate = y.mean(axis=0)
    totals = cluster_sums(y - rate, ids, g)
    se = np.sqrt(cr1_factor(g) * np.sum(totals ** 2, axis=0)) / n
    half = t_quantile(confidence, g - 1) * se
    return ClusteredMean(rate, se, rate - half, rate + half, g - 1, g, n)


def design_effect(successes, clusters=None) -> float:
    """Design effect of a 0/1 sample's mean: its clustered variance (CR1) over the binomial
    variance p (1 - p) / n; NaN when it cannot be estimated (fewer than two clusters, or a rate
    of 0 or 1). Unfloored: :func:`effective_trials` floors it, the pool benchmarks print it."""
    y = np.asarray(successes, dtype=float).ravel()
    n = y.size
    ids, g = cluster_ids(clusters, n)
    p = float(y.mean()) if n else 0.0
    if g < MIN_CLUSTERS or not 0.0 < p < 1.0:
        return float("nan")
    var = cr1_factor(g) * np.sum(cluster_sums(y - p, ids, g) ** 2) / n ** 2
    return float(var / (p * (1.0 - p) / n))


def effective_trials(successes, clusters=None, min_deff: float = 1.0) -> tuple[float, float]:
    """Successes and trials of a 0/1 sample scaled to its effective size n / deff, for a Wilson
    or Clopper-Pearson interval that accounts for clustering (Korn & Graubard, Survey
    Methodology 24, 1998). deff = :func:`design_effect`, at least ``min_deff`` (1 by default:
    clustering is never credited with more information than independent trials; lower where
    the design makes games less correlated than independent ones, as the ladder's rotations do:
    ``ladder.MATCH_MIN_DEFF``) and 1 when it cannot be estimated (fewer than two clusters, or a
    rate of 0 or 1)."""
    if min_deff <= 0:
        raise ValueError("min_deff must be positive")
    y = np.asarray(successes, dtype=float).ravel()
    n = y.size
    p = float(y.mean()) if n else 0.0
    deff = design_effect(y, clusters)
    deff = max(min_deff, deff) if np.isfinite(deff) else 1.0
    return p * n / deff, n / deff


def no_change_bound(n: int, clusters=None, confidence: float = 0.95) -> float:
    """How large a paired change can be when none of ``n`` paired observations moved: every
    paired difference 0, so effect +- t * se is [0, 0], a certainty no finite replay gives. A
    change's size is at most the share of units it moves (each difference lies in [-1, 1]); none
    moving in G units bounds that share by Clopper-Pearson's upper limit for 0 of G, u = 1 -
    ((1 - confidence) / 2) ** (1 / G), and the interval is [-u, +u]. The units are the distinct
    ``clusters`` (each observation's board; None: the observations themselves, as
    :func:`cluster_ids` counts them): boards, not games, where games share boards (all games of
    a board may move together), which is conservative. Used by the rarity ablation and the
    rulings' shares and teams (docs/intervals.md)."""
    _, units = cluster_ids(clusters, n)
    return 1.0 - ((1.0 - confidence) / 2.0) ** (1.0 / max(units, 1))


# A standard error at or below this is rounding, not spread: a sandwich variance that is 0 in
# exact arithmetic comes out near 1e-36 (se 2e-18), which made n* = rate (1 - rate) / se^2
# astronomical and the interval of a seat whose boards agreed "25.0 (25.0-25.0)". A real one
# is about 1 / games or more: above 1e-8 for the lab's largest studies (10^8 games).
SE_ROUNDING = 1e-12


def korn_graubard_interval(rate, se, trials, df, confidence: float = 0.95):
    """Interval for a clustered proportion: Clopper-Pearson on its effective number of trials.

    Why not rate +- t * se: when the boards' own rates are skewed (a seat that a few boards
    favour strongly), a low estimate comes with a small standard error, so the symmetric
    interval misses on the low side. Measured on the calibration's null runs (960 seat rates,
    design effect about 5): 92.0 % coverage, every miss low (docs/intervals.md). Korn & Graubard
    (Survey Methodology 24, 1998; R survey's ``svyciprop(method = "beta")``) take the effective
    number of trials n* = rate (1 - rate) / se^2, shrink it by (t_{n-1} / t_df)^2 for the
    clusters' degrees of freedom, and invert the binomial there; 95.0 % on the same runs.

    ``trials`` is the number of observations behind the rate (it stands in for n* where the
    standard error says nothing: a rate of 0 or 1, or se 0); ``df`` the clusters' (G - 1).
    Returns (lower, upper) with the shape of ``rate``."""
    estimate = np.asarray(rate, dtype=float)
    rate, se = np.clip(estimate, 0.0, 1.0), np.asarray(se, dtype=float)
    informative = (se > SE_ROUNDING) & (rate > 0) & (rate < 1)
    n_star = np.where(informative, rate * (1 - rate) / np.where(informative, se, 1.0) ** 2,
                      float(trials))
    n_star = n_star * (t_quantile(confidence, trials - 1) / t_quantile(confidence, df)) ** 2
    lower, upper = clopper_pearson_interval(rate * n_star, n_star, confidence)
    # a least-squares rate can round a hair outside [0, 1] (-1e-17 for a seat that never won):
    # the interval still holds its own estimate
    return np.minimum(lower, estimate), np.maximum(upper, estimate)


def clustered_share_interval(indicator, clusters=None, confidence: float = 0.95,
                             min_deff: float = 1.0):
    """Interval for the share of games where ``indicator`` (0/1) holds, games clustered by board.

    Independent games (no ``clusters``): Wilson. Clustered: Korn & Graubard on the effective
    number of games (``effective_trials``: design effect at least ``min_deff``) and the boards'
    G - 1 degrees of freedom; Wilson on the effective number alone covered the seat shares at
    90.7 % on the calibration's null runs, this at 95.0 % (docs/intervals.md)."""
    y = np.asarray(indicator, dtype=float).ravel()
    k_eff, n_eff = effective_trials(y, clusters, min_deff)
    _, g = cluster_ids(clusters, y.size)
    if clusters is None or g < MIN_CLUSTERS:
        return wilson_interval(k_eff, n_eff, confidence)
    p = float(y.mean())
    return korn_graubard_interval(p, np.sqrt(p * (1 - p) / n_eff), y.size, g - 1, confidence)
