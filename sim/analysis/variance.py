"""Duplicate play: block-design win rates, their variance against unpaired play, and seat effects.

Design. Duplicate play (as in duplicate bridge) plays each board seed once per rotation, the teams
moving through the seats in a Latin square (rotation r puts team t in seat (t + r) mod k), so every
team meets the same board from every seat. The seed is the block: outcomes of one seed are
correlated, different seeds are independent. Data arrive as ``outcomes[seed, rotation, team]``
(wins 0/1, or scores) with ``seats[seed, rotation, team]`` (default: the Latin-square rotation).

Why it reduces variance: a board's luck is mostly "this layout favours seat k"; in one duplicate
block each team sits in seat k once, so that luck cancels within the block instead of landing on
whichever team happened to draw seat k. The honest standard error of a block design comes from the
variation *between blocks* (Cochran, "Sampling Techniques", 3rd ed., ch. 9-10, cluster sampling):
se = sd over seeds of the per-seed means / sqrt(#seeds).

Shared boards. When blocks reuse boards (the runners play block ``b`` on board ``b % boards``),
blocks on one board are correlated too, and the board is the unit of independence: every
estimate here takes ``clusters`` (one label per block, e.g. its board) and then sums the blocks'
deviations within each cluster before taking their spread (CR1, :mod:`.cluster`), with t
intervals on #clusters - 1 degrees of freedom. ``clusters=None`` (every block its own board)
is exactly the block design above. The comparator is the same number of
unpaired games (fresh seed, random seats): variance sigma^2 / N with sigma^2 the per-game outcome
variance. Their ratio is Kish's design effect "Deff" (Kish, "Survey Sampling", 1965); < 1 means
duplicate play needs fewer games for the same precision, > 1 that blocks are positively correlated
(e.g. a board that favours a team's cards from every seat).

Seat effect. The additive two-way model E[y] = mu + alpha_team + gamma_seat (sum-to-zero effects)
separates turn order from team strength; it is fitted by least squares and its covariance is
cluster-robust by seed, or by ``clusters`` (Liang & Zeger, Biometrika 73, 1986; CR1 small-sample factor as in Cameron &
Miller, J. Human Resources 50, 2015), so within-seed correlation is allowed. In a complete Latin
square the estimates reduce to the seat and team means. For win indicators the model is a linear
probability model: seat_rate[k] = mu + gamma_k is the win rate of an average team in seat k.

Seat test ("does the seat matter?"). The Wald statistic W = g' V^-1 g of the free seat effects on
that clustered covariance is referred to F, not chi-square: F = W (G - q) / (q (G - 1)) on (q,
G - q) degrees of freedom, G the clusters (boards), q the rank of V (seats - 1, or fewer with
very few clusters). Why: chi-square on q treats V as known, but with few boards V is estimated
from G cluster scores and W is heavier-tailed. W on the CR1 covariance is Hotelling's T^2 of the
cluster scores (the G/(G-1) factor is the sample covariance's divisor), and this F is T^2's exact
null law for normal scores: the survey "adjusted Wald" test (Korn & Graubard, Am. Stat. 44, 1990;
design df G - 1). On this balanced design CR2 (Bell & McCaffrey) is CR1 up to a constant, and
Pustejovsky & Tipton's Hotelling approximation (J. Bus. Econ. Stat. 36, 2018) gives about these
degrees of freedom, so neither would change it. Planted truth, no seat effect, boards that
favour seats (docs/intervals.md): chi-square rejected at 5 % in 27 % of 2,000 runs on 8 boards,
15 % on 16, 9 % on 32, 7 % on 64; F in 5.1-5.9 % (5.6 % over 10,000 runs on 8 boards). A wild
cluster bootstrap measured the same within noise, at the cost of resampling: not adopted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scipy.stats import f as f_dist

from .cluster import (SE_ROUNDING, cluster_ids, cluster_sums, clustered_mean, cr1_factor,
                      korn_graubard_interval)

__all__ = ["DuplicateEstimate", "SeatTeamEffects", "duplicate_difference", "duplicate_win_rates",
           "rotation_seats", "seat_team_effects"]


def rotation_seats(n_teams: int) -> np.ndarray:
    """Latin-square seating ``seats[rotation, team] = (team + rotation) mod n_teams``."""
    r = np.arange(n_teams)
    return (r[None, :] + r[:, None]) % n_teams


def _blocks(outcomes) -> np.ndarray:
    y = np.asarray(outcomes, dtype=float)
    if y.ndim != 3:
        raise ValueError("outcomes must be (seeds x rotations x teams)")
    if y.shape[0] < 2:
        raise ValueError("need at least two seeds (blocks) for a standard error")
    if np.isnan(y).any():
        raise ValueError("outcomes must be complete blocks (no nan)")
    return y


@dataclass(frozen=True)
class DuplicateEstimate:
    """Per-team mean outcome under duplicate play, with block and unpaired standard errors."""

    rate: np.ndarray            # mean outcome (win rate) per team
    se: np.ndarray              # standard error from between-cluster variation (cluster: the
    #                             board when blocks share boards, else the block)
    lower: np.ndarray           # Korn & Graubard on the effective games, #clusters - 1 df
    upper: np.ndarray           # (duplicate_win_rates says why not rate +- t se)
    se_unpaired: np.ndarray     # SE of the same number of independent unpaired games
    variance_ratio: np.ndarray  # (se / se_unpaired)^2: design effect, < 1 = duplicate helps
    n_seeds: int                # blocks
    n_games: int
    n_clusters: int = 0         # independent clusters (boards); = n_seeds without ``clusters``
    df: int = 0                 # n_clusters - 1


def duplicate_win_rates(outcomes, confidence: float = 0.95, clusters=None) -> DuplicateEstimate:
    """Win rate of each team from duplicate blocks, its SE, and the variance ratio vs unpaired play.

    ``clusters`` labels each block's cluster (its board when blocks share boards): the SE is then
    cluster-robust (module doc); without it every block is independent.

    The interval is Korn & Graubard's (Clopper-Pearson on the effective number of games,
    :func:`.cluster.korn_graubard_interval`), not rate +- t se: near 0 % or 100 % the symmetric
    interval is short on the side away from the bound (a team at 5 % in 128 games on 16 boards:
    94.6 % coverage where 98.75 % was asked; 99.1 % now), and a team that won once got a
    narrower interval than one that never won (0.0-3.0 % against 0.0-4.8 %), because a team whose
    blocks all came out alike already took Korn & Graubard (se 0). Planted truth:
    ``tests/test_analysis_fairness.py``."""
    y = _blocks(outcomes)
    n_seeds, n_rot, _ = y.shape
    est = clustered_mean(y.mean(axis=1), clusters, confidence)      # block means (seeds, teams)
    n_games = n_seeds * n_rot
    lower, upper = korn_graubard_interval(est.rate, est.se, n_games, max(est.df, 1), confidence)
    per_game = y.reshape(n_games, -1).var(axis=0, ddof=1)
    se_unpaired = np.sqrt(per_game / n_games)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (est.se / se_unpaired) ** 2
    return DuplicateEstimate(est.rate, est.se, lower, upper, se_unpaired, ratio, n_seeds,
                             n_games, est.n_clusters, est.df)


def duplicate_difference(outcomes, team_a: int, team_b: int, confidence: float = 0.95,
                         clusters=None):
    """Difference of two teams' mean outcomes from duplicate blocks.

    Returns ``(difference, se, lower, upper, variance_ratio)``: the SE is from per-seed
    differences of block means (paired t interval, #seeds - 1 df; with ``clusters``, summed
    within each cluster first, #clusters - 1 df); the ratio compares its variance with two
    independent unpaired samples of the same size, var_a/N + var_b/N.
    """
    y = _blocks(outcomes)
    n_seeds, n_rot, _ = y.shape
    d = y[:, :, team_a].mean(axis=1) - y[:, :, team_b].mean(axis=1)
    est = clustered_mean(d, clusters, confidence)
    diff, se = float(est.rate), float(est.se)
    n_games = n_seeds * n_rot
    flat = y.reshape(n_games, -1)
    se_unpaired = np.sqrt((flat[:, team_a].var(ddof=1) + flat[:, team_b].var(ddof=1)) / n_games)
    # NaN when neither team's outcome varied (a few games, no win between them): no ratio to give
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = float(np.float64(se) ** 2 / se_unpaired ** 2)
    return diff, se, float(est.lower), float(est.upper), ratio


@dataclass(frozen=True)
class SeatTeamEffects:
    """Two-way additive model of outcomes: overall mean, team and seat effects (sum to zero)."""

    mean: float
    team_effect: np.ndarray
    seat_effect: np.ndarray
    team_rate: np.ndarray       # mean + team_effect: seat-adjusted win rate of each team
    team_se: np.ndarray
    seat_rate: np.ndarray       # mean + seat_effect: win rate of an average team in each seat
    seat_se: np.ndarray
    cov: np.ndarray             # cluster-robust covariance of (mean, team effects, seat effects)
    seat_chi2: float            # Wald statistic W for "no seat effect" (the name is historical:
    #                             its reference is F, see seat_pvalue)
    seat_pvalue: float          # W (G - q) / (q (G - 1)) against F(q, G - q): q the covariance's
    #                             rank (seats - 1, or fewer with too few clusters), G clusters
    #                             (module doc: chi-square rejected too often with few boards)
    df: int                     # degrees of freedom for t intervals: #clusters - 1
    confidence: float
    games: int                  # games behind each rate (each team, and each seat, plays all)

    def team_interval(self) -> tuple[np.ndarray, np.ndarray]:
        """Korn & Graubard's interval, as the fairness verdict takes a team's
        (:func:`duplicate_win_rates`): rate +- t se covers mid rates (95.0 % on the calibration's
        null runs) but is short near 0 % and 100 % (docs/intervals.md)."""
        return korn_graubard_interval(self.team_rate, self.team_se, self.games, self.df,
                                      self.confidence)

    def seat_interval(self) -> tuple[np.ndarray, np.ndarray]:
        """Korn & Graubard's interval, not rate +- t se: boards favour seats unevenly (design
        effect about 5), so the symmetric interval misses low (``korn_graubard_interval``); and
        on the seats' average design effect (:func:`average_design_se`), not each seat's own:
        a seat's own, from 16 boards, is low exactly when its rate is, and its interval missed
        low 4.3 % of the time against 0.8 % high (docs/intervals.md); but never below a seat's
        own: a seat the boards swing more than the others has the larger design effect, and the
        average alone covered it 87-88 % (the calibration audit of stop 80)."""
        se = np.fmax(average_design_se(self.seat_rate, self.seat_se, self.games),
                     np.asarray(self.seat_se, dtype=float))
        df = self.df * (len(self.seat_rate) - 1)
        return korn_graubard_interval(self.seat_rate, se, self.games, df, self.confidence)


def average_design_se(rate, se, trials: int) -> np.ndarray:
    """Each rate's standard error at the average design effect of the rates (Kish's average
    deff for estimates from one design): ``deff = mean(se^2 / (p (1 - p) / trials))`` over the
    rates whose binomial variance and SE are not zero, then ``sqrt(deff p (1 - p) / trials)``.

    Why: the four seats are measured on the same boards, so their design effects agree (5.4 to
    5.8 on the calibration's null runs), but each one's own estimate from few boards correlates
    with its rate (0.6 to 0.8): a seat that drew few of its favouring boards has a low rate and
    a small SE at once. The average is as right on average and moves far less with the rate.
    A rate of 0 or 1 keeps its own SE (Korn & Graubard then stand on the trials)."""
    rate = np.clip(np.asarray(rate, dtype=float), 0.0, 1.0)
    se = np.asarray(se, dtype=float)
    binomial = rate * (1 - rate) / trials
    informative = (binomial > 0) & (se > SE_ROUNDING)
    if not informative.any():
        return se
    deff = float(np.mean(se[informative] ** 2 / binomial[informative]))
    return np.where(binomial > 0, np.sqrt(deff * binomial), se)


def _effect_coding(k: int) -> np.ndarray:
    """(k x k-1) sum-to-zero coding: effect_k = -(sum of the others)."""
    c = np.zeros((k, k - 1))
    c[: k - 1] = np.eye(k - 1)
    c[k - 1] = -1.0
    return c


def _contrast_se(rows, cov) -> np.ndarray:
    """Standard error of each contrast ``rows[i] @ coef``. The sandwich covariance is positive
    semi-definite, so a variance below 0 is rounding (a team that won every game or none has
    variance 0, which rounds to about -1e-17): it is taken as 0."""
    return np.sqrt(np.clip(np.einsum("ij,jk,ik->i", rows, cov, rows), 0.0, None))


def _seat_wald(g, vg) -> tuple[float, int]:
    """The Wald statistic of the free seat effects ``g`` on their covariance ``vg`` and its rank.

    With fewer clusters than seat parameters the clustered covariance is rank-deficient (rank
    <= clusters - 1: the clusters' scores sum to X'resid = 0): W then uses the directions the
    covariance has, on as many degrees of freedom — the inverse's statistic whenever it has full
    rank. A direction whose variance is at rounding level is no direction: relative to the
    largest (numpy's rank tolerance), or below :data:`cluster.SE_ROUNDING` squared when the whole
    covariance is rounding (games that came out alike on every board). With the relative
    tolerance alone W came out near 1e30, p 2e-16, from a covariance that was zero (49 of 2,000
    two-board designs of 8 games)."""
    values, vectors = np.linalg.eigh(vg)
    # numpy's rank tolerance (relative to the largest) with an absolute floor at rounding level
    keep = values > max(SE_ROUNDING ** 2, values.max(initial=0.0) * vg.shape[0]
                        * np.finfo(float).eps)
    if not keep.any():
        return 0.0, 0
    proj = vectors[:, keep].T @ g
    return float(np.sum(proj ** 2 / values[keep])), int(keep.sum())


def _seat_pvalue(wald: float, rank: int, n_clusters: int) -> float:
    """p-value of the clustered Wald statistic ``wald`` on ``rank`` restrictions with
    ``n_clusters`` clusters: F = W (G - q) / (q (G - 1)) on (q, G - q) degrees of freedom, the
    small-sample reference for a cluster-robust Wald test (module doc; chi-square on q rejected
    a true null at 5 % in 27 % of runs on 8 boards). q is at most G - 1 in exact arithmetic
    (the clusters' scores sum to zero), so a numerical rank above that is rounding and is
    capped; 1.0 (no evidence) when nothing is testable (rank 0: no seat varied)."""
    q = min(rank, n_clusters - 1)
    if q < 1:
        return 1.0
    return float(f_dist.sf(wald * (n_clusters - q) / (q * (n_clusters - 1)), q, n_clusters - q))


def seat_team_effects(outcomes, seats=None, confidence: float = 0.95,
                      clusters=None) -> SeatTeamEffects:
    """Fit y = mu + alpha_team + gamma_seat by least squares with cluster-robust covariance.

    ``seats`` (seeds x rotations x teams, or rotations x teams broadcast over seeds) defaults to
    ``rotation_seats``. ``clusters`` labels each seed's cluster (its board when seeds share
    boards); by default each seed is one. Works for incomplete or unbalanced seatings as long as
    the design has full rank.
    """
    y = _blocks(outcomes)
    n_seeds, n_rot, n_teams = y.shape
    seats = rotation_seats(n_teams)[:n_rot] if seats is None else np.asarray(seats)
    seats = np.broadcast_to(seats, y.shape).astype(np.int64)
    n_seats = int(seats.max()) + 1
    ct, cs = _effect_coding(n_teams), _effect_coding(n_seats)
    team_ids = np.broadcast_to(np.arange(n_teams), y.shape)
    x = np.concatenate([np.ones(y.shape + (1,)), ct[team_ids], cs[seats]], axis=-1)
    p = x.shape[-1]
    xf, yf = x.reshape(-1, p), y.ravel()
    bread = np.linalg.inv(xf.T @ xf)
    coef = bread @ (xf.T @ yf)
    resid = (yf - xf @ coef).reshape(n_seeds, -1)
    ids, n_clusters = cluster_ids(clusters, n_seeds)
    scores = cluster_sums(np.einsum("gnp,gn->gp", x.reshape(n_seeds, -1, p), resid), ids,
                          n_clusters)
    v = cr1_factor(n_clusters, yf.size, p) * bread @ (scores.T @ scores) @ bread
    # Map to (mu, all team effects, all seat effects).
    m = np.zeros((1 + n_teams + n_seats, p))
    m[0, 0] = 1.0
    m[1:1 + n_teams, 1:n_teams] = ct
    m[1 + n_teams:, n_teams:] = cs
    full, cov = m @ coef, m @ v @ m.T
    mu, alpha, gamma = full[0], full[1:1 + n_teams], full[1 + n_teams:]
    # Rates mu + effect: contrast rows [1, e_t, 0] and [1, 0, e_k].
    rows_t = np.zeros((n_teams, full.size))
    rows_t[:, 0] = 1.0
    rows_t[:, 1:1 + n_teams] = np.eye(n_teams)
    rows_s = np.zeros((n_seats, full.size))
    rows_s[:, 0] = 1.0
    rows_s[:, 1 + n_teams:] = np.eye(n_seats)
    team_se, seat_se = _contrast_se(rows_t, cov), _contrast_se(rows_s, cov)
    g = coef[n_teams:]  # free seat parameters (n_seats - 1)
    vg = v[n_teams:, n_teams:]
    wald, rank = _seat_wald(g, vg)
    p_seat = _seat_pvalue(wald, rank, n_clusters)
    return SeatTeamEffects(float(mu), alpha, gamma, mu + alpha, team_se, mu + gamma, seat_se, cov,
                           wald, p_seat, n_clusters - 1, confidence, n_seeds * n_rot)
