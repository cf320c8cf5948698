"""Card-additive team strength inside Plackett-Luce, with model-based or cluster-robust errors.

The team-composition model gives each card a rating beta_c and a team the sum of its cards'
ratings, theta_team = X beta with X the (team x card) count matrix, inside Plackett-Luce (the
conventions of :mod:`.ratings`); fitted by Newton-Raphson with an L2 (ridge) penalty
l2/2 |beta|^2, i.e. the posterior mode under beta ~ N(0, I/l2). Its default covariance
(J + l2 I)^-1 is the Laplace approximation of that posterior (see e.g. Gelman et al., BDA3, 4.1);
``rng`` + ``bootstrap`` add a parametric bootstrap (Efron & Tibshirani 1993, ch. 6) as a check.

Why a cluster-robust option: the model-based covariance treats games as independent, but the
lab's games share boards, deals and dice (a ladder deal is played four times; rarity blocks and
ladder deals reuse boards), so their results are correlated and (J + l2 I)^-1 is too small
(measured: the ladder's Elo SEs 1.17x too small). With ``clusters`` (one label per game, e.g.
its board), the covariance is the sandwich H^-1 (c * sum_c s_c s_c^T) H^-1 with H = J + l2 I,
s_c the game scores summed within cluster c and centred so that the clusters' estimating
equations sum to zero, and the CR1 factor c = G/(G-1) (:mod:`.cluster`); intervals are then t
on G - 1 degrees of freedom.

Why a jackknife option: on few clusters that differ strongly the sandwich is too small (the
ladder on 12 boards, each suiting each player by N(0, 0.8): about 93 % of 95 % intervals cover;
the rarity study's 72 cards on real games resampled from a pool: 92-95 % on 8-64 boards, where
the jackknife holds 95-96 %, docs/intervals.md).
``jackknife=True`` takes the cluster jackknife instead (CV3J: (G-1)/G sum_g (b_-g - mean)(...)^T,
b_-g the fit without cluster g, centred at their mean; MacKinnon, Nielsen & Webb,
"Cluster-robust inference: a guide to empirical practice", J. Econometrics 232, 2023, which
recommend the jackknife for few or unequal clusters; their CV3, centred at the full fit, is a
little larger), each b_-g one Newton step from the full fit, b - (H - J_g)^-1 s_g with J_g and s_g
cluster g's information and score: G small evaluations instead of G refits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scipy.stats import norm

from .cluster import MIN_CLUSTERS, cluster_ids, cluster_sums, cr1_factor, t_quantile
from .ratings import (_contrast_matrix, _identified_inverse, _stage_probs, _stages,
                      simulate_plackett_luce)

__all__ = ["CompositionFit", "composition_strengths"]

CHUNK = 4096  # games per block of the (games x slots x cards) intermediates
# clusters per batch of the jackknife's pseudo-inverses, a progress tick each (8, not 64: the
# shipped rarity study has 64 boards, and its line read "0/64 boards" for 10 s, then done)
PINV_BLOCK = 8


@dataclass(frozen=True)
class CompositionFit:
    """Card ratings ``beta`` (log-strength units) of the additive team-strength model."""

    beta: np.ndarray
    se: np.ndarray
    cov: np.ndarray
    loglik: float            # unpenalised Plackett-Luce log-likelihood at ``beta``
    l2: float
    iterations: int
    converged: bool
    bootstrap_se: np.ndarray | None = None
    df: int | None = None    # t degrees of freedom (clusters - 1) of a clustered fit, else None
    n_clusters: int = 0      # clusters behind a clustered ``cov`` (0: model-based)

    def team_strength(self, team_cards) -> tuple[np.ndarray, np.ndarray]:
        """Strength X beta of teams (rows of card counts) and its standard error.

        With equal team sizes (centred ``beta``) strengths are relative to a team of average cards.
        """
        x = np.asarray(team_cards, dtype=float)
        return x @ self.beta, np.sqrt(np.einsum("tc,cd,td->t", x, self.cov, x))

    def quantile(self, confidence: float = 0.95) -> float:
        """Two-sided critical value: t on ``df`` for a clustered fit, else normal."""
        if self.df is not None:
            return t_quantile(confidence, self.df)
        return float(norm.ppf(0.5 + confidence / 2.0))

    def interval(self, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Wald interval beta +- q * se per card (q: :meth:`quantile`)."""
        q = self.quantile(confidence)
        return self.beta - q * self.se, self.beta + q * self.se


def _composition_terms(beta, x, idx, risk, chosen, mult, chunk=CHUNK):
    """Log-likelihood, gradient and information (card space) of the additive PL model.

    The information is the games' X_g^T A_g X_g (A_g: :func:`_slot_information`), summed as one
    (slots x cards)^T (slots x cards) product per chunk of games."""
    util = (x @ beta)[idx]
    pi, lse = _stage_probs(util, risk)
    loglik = float(np.sum(np.where(chosen, util[:, None, :], 0.0)) - np.sum(mult * lse))
    # d loglik / d theta_slot = (#choices by the slot) - sum_stages |G| pi_slot
    g_slot = chosen.sum(axis=1) - np.sum(mult[:, :, None] * pi, axis=1)
    n_teams, c = x.shape
    g_team = np.bincount(idx.ravel(), weights=g_slot.ravel(), minlength=n_teams)
    info = _games_information(x, idx, _slot_information(pi, mult), np.arange(idx.shape[0]),
                              chunk)
    return loglik, x.T @ g_team, info


def _cluster_scores(beta, x, idx, risk, chosen, mult, ids, n_clusters, chunk=CHUNK):
    """Score (gradient of the log-likelihood, card space) of each cluster's games: (G x cards)."""
    util = (x @ beta)[idx]
    pi, _ = _stage_probs(util, risk)
    g_slot = chosen.sum(axis=1) - np.sum(mult[:, :, None] * pi, axis=1)    # (n, m)
    out = np.zeros((n_clusters, x.shape[1]))
    for lo in range(0, idx.shape[0], chunk):
        games = np.einsum("nm,nmc->nc", g_slot[lo:lo + chunk], x[idx[lo:lo + chunk]])
        out += cluster_sums(games, ids[lo:lo + chunk], n_clusters)
    return out


def _penalised_fit(x, terms, l2: float, tol: float = 1e-9, max_iter: int = 100):
    """Newton's maximum of loglik(beta) - l2/2 |beta|^2 on the games' ``terms`` (idx, risk,
    chosen, mult of :func:`_stages`): beta, the penalised information, the unpenalised loglik,
    iterations and convergence. (The composition fit's and the rulings' paired fits' one home.)"""
    idx, risk, chosen, mult = terms
    c = x.shape[1]

    def objective(b):
        ll, grad, info = _composition_terms(b, x, idx, risk, chosen, mult)
        return ll - 0.5 * l2 * b @ b, grad - l2 * b, info + l2 * np.eye(c), ll

    return _newton(objective, c, tol, max_iter)


def _newton(objective, c, tol, max_iter):
    """Maximise the penalised log-likelihood by Newton-Raphson with step halving."""
    beta = np.zeros(c)
    f, grad, hess, ll = objective(beta)
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        t = 1.0
        while True:
            cand = objective(beta + t * step)
            if cand[0] >= f - 1e-12 * abs(f) or t < 1e-8:
                break
            t /= 2.0
        beta = beta + t * step
        f, grad, hess, ll = cand
        if np.max(np.abs(t * step)) < tol:
            converged = True
            break
    return beta, hess, ll, it, converged


def composition_strengths(team_cards, items, places=None, *, l2: float = 1.0, tol: float = 1e-9,
                          max_iter: int = 100, bootstrap: int = 0,
                          rng: np.random.Generator | None = None,
                          clusters=None, jackknife: bool = False, tick=None) -> CompositionFit:
    """Card ratings of the model theta_team = sum of its cards' ratings, inside Plackett-Luce.

    ``team_cards`` (teams x cards) counts each card in each team; ``items``/``places`` describe the
    games over those teams (conventions of :mod:`.ratings`). Newton-Raphson with step halving
    maximises loglik(beta) - l2/2 |beta|^2; ``cov`` = (J + l2 I)^-1 (pseudo-inverse when l2 = 0,
    where a common shift of all cards is not identified if every team has the same number of
    cards), or with ``clusters`` (one label per game) the cluster-robust sandwich, or with
    ``jackknife`` too the clusters' jackknife (module doc); ``tick(n)``, when given, is called as
    its leave-one-out fits finish (n clusters at a time: a caller's progress line).
    With ``bootstrap`` > 0 (and ``rng``), games are re-simulated from the fit and refitted that
    many times; ``bootstrap_se`` is the standard deviation of the refitted ratings (the
    re-simulated games are full finishing orders, whatever ties or partial orders the data had).
    When all teams have the same number of cards only differences between cards are identified;
    ``beta`` is then reported centred (mean zero) and ``cov`` is the covariance of the centred
    ratings.
    """
    x = np.asarray(team_cards, dtype=float)
    if x.ndim != 2:
        raise ValueError("team_cards must be a (teams x cards) matrix")
    if l2 < 0:
        raise ValueError("l2 must be non-negative")
    idx, valid, risk, chosen, mult = _stages(items, places)
    c = x.shape[1]
    beta, hess, ll, it, converged = _penalised_fit(x, (idx, risk, chosen, mult), l2, tol,
                                                   max_iter)
    bread = _bread_inverse(hess, x, l2)
    df, n_clusters = None, 0
    if clusters is None:
        cov = bread
    else:
        ids, n_clusters = cluster_ids(clusters, idx.shape[0])
        if jackknife:
            cov = _jackknife_cov(beta, x, (idx, risk, chosen, mult), ids, n_clusters, hess,
                                 tick)
        else:
            scores = _cluster_scores(beta, x, idx, risk, chosen, mult, ids, n_clusters)
            scores -= scores.mean(axis=0)  # the clusters' estimating equations, summing to zero
            cov = cr1_factor(n_clusters) * bread @ (scores.T @ scores) @ bread
        df = n_clusters - 1
    if _equal_sizes(x):
        centre = _contrast_matrix(c, None)
        cov, beta = centre @ cov @ centre.T, centre @ beta
    boot_se = None
    if bootstrap > 0:
        boot_se = _bootstrap_se(x, idx, valid, beta, bootstrap, rng, l2, tol, max_iter)
    return CompositionFit(beta, np.sqrt(np.clip(np.diag(cov), 0.0, None)), cov, ll, l2, it,
                          converged, boot_se, df, n_clusters)


def _jackknife_cov(beta, x, terms, ids, n_clusters: int, hess, tick=None) -> np.ndarray:
    """The clusters' jackknife covariance (CV3J, module doc) of :func:`_one_step_drops`."""
    drops = _one_step_drops(beta, x, terms, ids, n_clusters, hess, tick)
    spread = drops - drops.mean(axis=0)
    return (n_clusters - 1) / n_clusters * spread.T @ spread


def _one_step_drops(beta, x, terms, ids, n_clusters: int, hess, tick=None) -> np.ndarray:
    """Each leave-one-cluster-out fit (G x cards), one Newton step from ``beta``, whose
    penalised information is ``hess``; ``terms`` the games' (idx, risk, chosen, mult) of
    :func:`_stages`. Every cluster's score and information come from passes over all the games
    (not G refits).
    (The jackknife above, which the ladder and the rarity study take, and the rulings' paired
    one, :mod:`.paired_ratings`.) ``tick(n)`` is told of each block of ``n`` clusters done: the
    pseudo-inverses, seconds on thousands of boards, go :data:`PINV_BLOCK` clusters at a time
    (each matrix's own, so the result is the one batch's to the bit)."""
    if n_clusters < MIN_CLUSTERS:
        raise ValueError(f"need at least {MIN_CLUSTERS} clusters (boards), got {n_clusters}")
    idx, risk, chosen, mult = terms
    scores = _cluster_scores(beta, x, idx, risk, chosen, mult, ids, n_clusters)
    infos = _cluster_information(beta, x, idx, risk, mult, ids, n_clusters)
    # without cluster k the score at beta is -scores[k]: one Newton step to its zero
    steps = np.empty_like(scores)
    for lo in range(0, n_clusters, PINV_BLOCK):
        hi = min(n_clusters, lo + PINV_BLOCK)
        steps[lo:hi] = (np.linalg.pinv(hess[None, :, :] - infos[lo:hi], hermitian=True)
                        @ scores[lo:hi, :, None])[:, :, 0]
        if tick is not None:
            tick(hi - lo)
    return beta[None, :] - steps


def _cluster_information(beta, x, idx, risk, mult, ids, n_clusters, chunk=CHUNK):
    """Information (card space) of each cluster's games, (G x cards x cards); ``ids`` compact
    (0..G-1, as :func:`.cluster.cluster_ids` gives them).

    Why this form: each cluster's games summed by :func:`_games_information` never build a
    (games x cards x cards) array; 100x faster than that on 72 cards (stop 54)."""
    util = (x @ beta)[idx]
    pi, _ = _stage_probs(util, risk)
    slots = _slot_information(pi, mult)
    order = np.argsort(ids, kind="stable")
    bounds = np.searchsorted(ids[order], np.arange(n_clusters + 1))
    return np.stack([_games_information(x, idx, slots, order[bounds[k]:bounds[k + 1]], chunk)
                     for k in range(n_clusters)])


def _games_information(x, idx, slots, games, chunk: int) -> np.ndarray:
    """Sum over ``games`` of X_g^T A_g X_g (cards x cards), X_g a game's slots' card rows and
    A_g its information in slot space (``slots``, :func:`_slot_information`): one (slots x
    cards)^T (slots x cards) product per ``chunk`` games, whose (games x slots x cards) rows
    bound the memory."""
    c = x.shape[1]
    info = np.zeros((c, c))
    for lo in range(0, games.size, chunk):
        part = games[lo:lo + chunk]
        xs = x[idx[part]]                                                # (n, m, c)
        info += xs.reshape(-1, c).T @ (slots[part] @ xs).reshape(-1, c)
    return info


def _slot_information(pi, mult) -> np.ndarray:
    """Each game's information in its slots' utilities, diag(w) - pi^T diag(mult) pi (n x m x
    m), w = sum over stages of mult pi: a stage of mult choices from a softmax pi has
    information mult (diag(pi) - pi pi^T)."""
    weight = np.sum(mult[:, :, None] * pi, axis=1)
    return (weight[:, :, None] * np.eye(pi.shape[2])
            - np.einsum("ns,nsm,nsk->nmk", mult, pi, pi))


def _equal_sizes(x) -> bool:
    sizes = x.sum(axis=1)
    return bool(np.allclose(sizes, sizes[0]))


def _bread_inverse(hess, x, l2: float) -> np.ndarray:
    """(J + l2 I)^-1. Equal team sizes and l2 = 0: a common shift of all cards cancels in every
    game, so only contrasts are identified; the inverse is then taken in an identified
    parameterisation (one card pinned), whose contrasts are those of every other one."""
    if l2 > 0:
        return np.linalg.inv(hess)
    return _identified_inverse(hess) if _equal_sizes(x) else np.linalg.pinv(hess, hermitian=True)


def _bootstrap_se(x, idx, valid, beta, bootstrap, rng, l2, tol, max_iter) -> np.ndarray:
    """Parametric bootstrap: SD of the ratings refitted to games re-simulated from the fit."""
    if rng is None:
        raise ValueError("bootstrap needs an rng")
    util = np.where(valid, (x @ beta)[idx], 0.0)
    draws = np.empty((bootstrap, x.shape[1]))
    games = np.where(valid, idx, -1)
    for b in range(bootstrap):
        sim_places = simulate_plackett_luce(util, rng, valid)
        draws[b] = composition_strengths(x, games, sim_places, l2=l2, tol=tol,
                                         max_iter=max_iter).beta
    return draws.std(axis=0, ddof=1)
