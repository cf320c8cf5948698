"""Paired sequential drift test: the same games played before and after a change, as Fishtest
pairs games, with a generalised SPRT on the logistic (Elo) scale and board-clustered variance.

Why paired: the drift gate replays the baseline's own seeds (boards, seats, dice) under the
baseline and under the current data. Outcome ``x_i`` (did the team win game ``i`` before?) and
``y_i`` (after?) share every source of luck, so the difference ``d_i = y_i - x_i`` is zero
wherever the change did not matter, and the test's variance is that of the change alone. An
unchanged configuration replays exactly (every ``d_i = 0``) and passes at the first look.

Why clustered: games on the same board are not independent (a board can favour a team from every
seat), so the variance of the mean difference is the cluster-robust (CR1) one over boards
(Liang & Zeger 1986; Cameron & Miller 2015): V = C/(C-1) * sum_c (D_c - mu n_c)^2 / N^2, with
D_c the sum of differences on board c, n_c its games and N all games.

Hypotheses on the logistic scale, so that a team near 12 % and one near 40 % get comparable
sensitivity: H0 logit(p_after) = logit(p_before), H1 logit(p_after) = logit(p_before) +- delta.
On the score scale H1 is mu1 = expit(logit(p_before) + delta) - p_before, with p_before estimated
from the same games (a nuisance parameter, plugged in as the GSPRT does). The log-likelihood
ratio is the normal approximation Fishtest uses (M. Van den Bergh, "GSPRT approximation";
``LLR_alt2`` in fishtest's LLRcalc.py): LLR = (mu^2 - (mu - mu1)^2) / (2 V) = mu1 (2 mu - mu1) / (2 V).
Two one-sided tests ("up" with +delta, "down" with -delta) at alpha/2 each, Wald's bounds; an
alarm as soon as either accepts H1, "no drift" once both accept H0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from .cluster import cluster_ids, cluster_sums, cr1_factor, korn_graubard_interval, t_quantile
from .ratings import ELO_PER_NAT
from .sequential import wald_bounds

NO_DRIFT, DRIFT_UP, DRIFT_DOWN, OPEN = "no_drift", "drift_up", "drift_down", "inconclusive"
RATE_FLOOR = 1e-3  # win rates are clipped to [floor, 1 - floor] on the logit scale


@dataclass(frozen=True)
class PairedDrift:
    """One metric's paired test after some games: rates with intervals, the change, the LLRs."""

    decision: str
    games: int
    clusters: int
    before: float               # win rate under the baseline
    before_interval: tuple[float, float]  # Korn & Graubard's (:func:`_rate_interval`)
    after: float                # win rate now
    after_interval: tuple[float, float]
    elo_change: float           # logit(after) - logit(before), in Elo points
    elo_interval: tuple[float, float]
    llr_up: float
    llr_down: float
    bounds: tuple[float, float]  # Wald's (lower, upper) of each one-sided test


def _logit(p):
    """Log-odds of a win rate (or an array of them), clipped to [floor, 1 - floor]."""
    p = np.clip(p, RATE_FLOOR, 1 - RATE_FLOOR)
    return np.log(p / (1 - p))


def alternative_means(before, delta: float):
    """The mean differences the "up" and "down" tests look for from a win rate ``before`` (or
    an array of them): expit(logit(before) +- delta) - before."""
    base = _logit(before)
    return 1 / (1 + np.exp(-(base + delta))) - before, 1 / (1 + np.exp(-(base - delta))) - before


def cluster_covariance(columns: np.ndarray, cluster: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Means of ``columns[:, j]`` and their CR1 covariance with observations clustered by
    ``cluster``: (means, covariance, number of clusters)."""
    cols = np.asarray(columns, dtype=float)
    if cols.ndim == 1:
        cols = cols[:, None]
    n = cols.shape[0]
    ids, c = cluster_ids(cluster, n)
    mean = cols.mean(axis=0)
    sums = cluster_sums(cols - mean, ids, c)
    return mean, cr1_factor(c) * sums.T @ sums / n ** 2, c


def _interval(mean: float, var: float, df: int, confidence: float) -> tuple[float, float]:
    half = t_quantile(confidence, max(df, 1)) * math.sqrt(max(var, 0.0))
    return mean - half, mean + half


def _rate_interval(rate: float, var: float, games: int, df: int,
                   confidence: float) -> tuple[float, float]:
    """A win rate's interval beside "before" and "now": Korn & Graubard's on the clustered
    variance, as every team interval of the lab (:func:`.variance.duplicate_win_rates`). Why not
    rate +- t se: a team near 0 % got an interval short on its upper side (a team at 5 % in 128
    games on 16 boards: 94.6 % coverage where 95 % was asked, docs/intervals.md), and a team that
    never won one of no width at all."""
    lower, upper = korn_graubard_interval(rate, math.sqrt(max(var, 0.0)), games, max(df, 1),
                                          confidence)
    return float(lower), float(upper)


def paired_llr(mu: float, var: float, mu1: float) -> float:
    """Normal-approximation GSPRT log-likelihood ratio of H1 mean ``mu1`` against H0 mean 0."""
    if var > 0:
        return mu1 * (2 * mu - mu1) / (2 * var)
    # no spread at all: every game replayed alike (mu = 0: certainly H0) or alike shifted
    gain = mu1 * (2 * mu - mu1)
    return math.copysign(math.inf, gain) if gain else 0.0


def paired_drift(before, after, cluster, *, delta_elo: float, alpha: float, beta: float,
                 confidence: float = 0.95) -> PairedDrift:
    """Decide one metric from paired win indicators (or game values) ``before``/``after``.

    ``alpha`` is this metric's two-sided false-alarm budget (each side gets alpha/2). The caller
    looks after every round of games and stops once the decision is not ``inconclusive``.
    """
    x, y = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or x.size == 0:
        raise ValueError("before and after must be equal-length, non-empty 1-d arrays")
    (px, py), cov, clusters = cluster_covariance(np.stack([x, y], axis=1), cluster)
    mu, var = py - px, cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    delta = delta_elo / ELO_PER_NAT
    mu1_up, mu1_down = alternative_means(px, delta)
    up, down = paired_llr(mu, var, mu1_up), paired_llr(mu, var, mu1_down)
    lower, upper = wald_bounds(alpha / 2, beta)
    if up >= upper or down >= upper:
        decision = DRIFT_UP if up >= down else DRIFT_DOWN
    elif up <= lower and down <= lower:
        decision = NO_DRIFT
    else:
        decision = OPEN
    a = 1 / max(py * (1 - py), RATE_FLOOR)
    b = 1 / max(px * (1 - px), RATE_FLOOR)
    var_logit = a * a * cov[1, 1] + b * b * cov[0, 0] - 2 * a * b * cov[0, 1]
    change = float(_logit(py) - _logit(px))
    lo, hi = _interval(change, var_logit, clusters - 1, confidence)
    return PairedDrift(decision, x.size, clusters, px,
                       _rate_interval(px, cov[0, 0], x.size, clusters - 1, confidence), py,
                       _rate_interval(py, cov[1, 1], x.size, clusters - 1, confidence),
                       change * ELO_PER_NAT, (lo * ELO_PER_NAT, hi * ELO_PER_NAT),
                       up, down, (lower, upper))


def unmoved_elo_interval(rate: float, n: int, clusters=None, confidence: float = 0.95,
                         rate_interval: tuple[float, float] | None = None) -> tuple[float, float]:
    """The Elo-change interval of a metric none of whose ``n`` paired games moved, at a win
    rate ``rate``: the rate's change lies within [-u, +u] of
    :func:`sim.analysis.cluster.no_change_bound` over the boards (``clusters``), mapped to Elo
    as :func:`paired_drift` maps a change. Why: every pair alike gives a spread of 0 and the
    interval [0, 0], a certainty only an exact replay (the same engine and cards) gives; a
    changed engine that moves one game in a few thousand shows none in a thousand, and the
    drift gate said "+0 (+0…+0)" of it (stop 78). The endings' intervals were bounded so
    since stop 49 (:mod:`sim.analysis.balance_change`).

    ``rate`` is an estimate: with ``rate_interval`` (the rate's own interval) the change is
    mapped at every rate in it and the widest ends are kept, because the same change in rate is
    more Elo the nearer the rate is to 0 or 1. Mapped at the estimate alone, a team that won 0
    of 1,024 games got [+0, +586], no decline possible, and at a true 1 % on 16 boards the
    bound missed 28 % of planted changes (the statistics audit of stop 78)."""
    from .cluster import no_change_bound

    u = no_change_bound(n, clusters, confidence)
    rates = np.array([rate, *(rate_interval or ())], dtype=np.float64)
    base = _logit(rates)
    return (float(np.min(_logit(np.maximum(rates - u, 0.0)) - base)) * ELO_PER_NAT,
            float(np.max(_logit(np.minimum(rates + u, 1.0)) - base)) * ELO_PER_NAT)


__all__ = ["DRIFT_DOWN", "DRIFT_UP", "NO_DRIFT", "OPEN", "PairedDrift", "alternative_means",
           "cluster_covariance", "paired_drift", "paired_llr", "unmoved_elo_interval"]
