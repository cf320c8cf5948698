"""The change of each card's rating between two replays of the same games, with a paired,
board-clustered standard error.

Why paired: ``bwlab rulings`` plays the same teams on the same boards with the same dice seeds
under two rule sets, so the two fits share most of their luck; combining the two fits' own
standard errors (sqrt(se0^2 + se1^2)) ignores that and overstates the error of the difference.
The two fits are stacked M-estimators with a common cluster (the board), so their joint sandwich
gives the cross-covariance (Stefanski & Boos, "The calculus of M-estimation", Am. Stat. 56,
2002; clustered as in Cameron & Miller 2015, :mod:`.cluster`):
Cov(b0, b1) = c * H0^-1 (sum_g s0_g s1_g^T) H1^-1, and
Var(b1 - b0) = V0 + V1 - Cov(b0, b1) - Cov(b0, b1)^T, with c = G/(G-1) and t on G - 1 df.

Why the boards' jackknife by default (since stop 53): that sandwich is the CR1 one, a little
small on a few dozen boards that suit cards differently; its 95 % intervals held a planted change
in 94.4-94.85 % (four runs of 200-400 studies, 16-64 boards). The jackknife of the difference
(CV3J as in :mod:`.composition`: each leave-one-board-out fit of either replay one Newton step
from its full fit, the variance that of b1_-g - b0_-g over the boards) held it in 94.7-95.5 %
on the same studies, 1.01-1.03x as wide (docs/intervals.md, "The rulings' card family").
Identical replays still give exactly zero: every board's two drops are then the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cluster import cluster_ids, cr1_factor, t_quantile
from .ratings import _contrast_matrix, _stages  # first: ratings imports composition at its end
from .composition import (_bread_inverse, _cluster_scores, _equal_sizes, _one_step_drops,
                          _penalised_fit)

__all__ = ["PairedRatings", "paired_rating_change"]


@dataclass(frozen=True)
class PairedRatings:
    """Ratings under A (``before``) and B (``after``), their difference and its paired SE."""

    before: np.ndarray
    after: np.ndarray
    delta: np.ndarray
    se: np.ndarray
    df: int

    def interval(self, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        q = t_quantile(confidence, self.df)
        return self.delta - q * self.se, self.delta + q * self.se


def _fit(team_cards, items, places, l2, ids, n_clusters, jackknife: bool):
    """One composition fit: beta and, for the jackknife, each board's one-step leave-one-out
    fit (G x cards); for the sandwich, the bread H^-1 and the centred cluster scores."""
    x = np.asarray(team_cards, dtype=float)
    idx, _, risk, chosen, mult = _stages(items, places)
    beta, hess, _, _, _ = _penalised_fit(x, (idx, risk, chosen, mult), l2)
    if jackknife:
        return beta, _one_step_drops(beta, x, (idx, risk, chosen, mult), ids, n_clusters, hess)
    scores = _cluster_scores(beta, x, idx, risk, chosen, mult, ids, n_clusters)
    return beta, (_bread_inverse(hess, x, l2), scores - scores.mean(axis=0))


def paired_rating_change(team_cards, items, places_before, places_after, clusters, *,
                         l2: float = 1.0, jackknife: bool = True) -> PairedRatings:
    """Ratings of the same games' teams (``team_cards``, ``items`` as in
    :func:`composition.composition_strengths`) under two outcomes, and the paired SE of their
    difference, clustered by ``clusters`` (one label per game, e.g. its board): the boards'
    jackknife, or with ``jackknife=False`` the CR1 sandwich (module doc). At ``l2 = 0`` a card
    whose games all lie on one board gets no leave-that-board-out step (the information without
    them is singular in its direction) and too small a jackknife variance; the rulings fit at
    ``l2 = 1``."""
    ids, g = cluster_ids(clusters, np.asarray(items).shape[0])
    factor = cr1_factor(g)  # first: fewer than two boards have no between-board variance either way
    b0, part0 = _fit(team_cards, items, places_before, l2, ids, g, jackknife)
    b1, part1 = _fit(team_cards, items, places_after, l2, ids, g, jackknife)
    if jackknife:  # the two replays' drops, board by board
        change = part1 - part0
        spread = change - change.mean(axis=0)
        var = (g - 1) / g * spread.T @ spread
    else:
        (h0, s0), (h1, s1) = part0, part1
        v0 = h0 @ (s0.T @ s0) @ h0
        v1 = h1 @ (s1.T @ s1) @ h1
        cross = h0 @ (s0.T @ s1) @ h1
        var = factor * (v0 + v1 - cross - cross.T)
    var = (var + var.T) / 2  # exactly symmetric: identical replays give exactly zero
    if _equal_sizes(np.asarray(team_cards, dtype=float)):
        centre = _contrast_matrix(b0.size, None)
        b0, b1, var = centre @ b0, centre @ b1, centre @ var @ centre.T
    se = np.sqrt(np.clip(np.diag(var), 0.0, None))
    return PairedRatings(b0, b1, b1 - b0, se, g - 1)
