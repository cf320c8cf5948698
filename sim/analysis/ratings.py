"""Strength ratings: Bradley-Terry, Plackett-Luce, card-additive team strength, Elo conversions.

Why: win rates depend on who else was at the table; ratings put all teams (or AIs, or cards) on
one scale where P(i beats j) depends only on the rating difference.

- Bradley-Terry (pairwise counts) and Plackett-Luce (full 4-team finishing orders) are fitted by
  the minorise-maximise (MM) algorithms of D. R. Hunter, "MM algorithms for generalized
  Bradley-Terry models", Ann. Stat. 32 (2004) 384-406 (eq. 3 for BT, section 5 for PL): each
  step increases the likelihood, needs no step size and no Hessian, and converges to the unique
  MLE when the comparison graph is strongly connected (Hunter's Assumption 1; Ford 1957).
- Ratings are log-strengths theta (natural log); P(i beats j) = 1 / (1 + exp(theta_j - theta_i)).
  Only differences are identified: ``reference=None`` centres them (sum zero), an index pins that
  item at 0. Standard errors come from the inverse observed information (for these canonical
  exponential families it equals the expected information), taken as a generalised inverse in
  the identified (contrast) space.
- The team-composition model (``composition_strengths``) gives each card a rating beta_c and a
  team the sum of its cards' ratings, theta_team = X beta with X the (team x card) count matrix,
  inside Plackett-Luce; fitted by Newton-Raphson with an L2 (ridge) penalty l2/2 |beta|^2, i.e. the
  posterior mode under beta ~ N(0, I/l2). Its covariance (J + l2 I)^-1 is the Laplace
  approximation of that posterior (see e.g. Gelman et al., BDA3, 4.1). ``rng`` + ``bootstrap``
  add a parametric bootstrap (Efron & Tibshirani 1993, ch. 6) as a check on the Hessian, and
  ``clusters`` a cluster-robust (sandwich) covariance for games that share boards or deals. It
  lives in :mod:`.composition` and is re-exported here.

Plackett-Luce data convention. ``items`` (games x slots) holds the competitor ids (-1 = empty slot,
so games may have fewer players) and ``places`` the finishing place of each slot (1 = first; equal
places = tie; ``places=None`` means columns are already in finishing order). A game is the sequence
of choices "the best of those still in": each distinct place, best first, chooses its members from
the set of competitors at that place or worse. Ties use Breslow's convention: every tied member is
a choice from the same remaining set. A trailing group (all remaining competitors share the last
place) contributes nothing: it is read as "unranked remainder", so places [1, 2, 2, 2] record
only the winner (a top-1 partial ranking) and a 2-player game is exactly Bradley-Terry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from scipy.stats import norm

__all__ = [
    "CompositionFit", "Ratings", "bradley_terry", "bradley_terry_loglik", "composition_strengths",
    "elo_to_score", "elo_to_theta", "plackett_luce", "plackett_luce_loglik", "score_to_elo",
    "simulate_plackett_luce", "theta_to_elo",
]

ELO_PER_NAT = 400.0 / math.log(10.0)  # 173.7 Elo per unit of log-strength


def elo_to_score(elo):
    """Expected score of a logistic Elo difference: 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + np.power(10.0, -np.asarray(elo, dtype=float) / 400.0))


def score_to_elo(score):
    """Elo difference of an expected score in (0, 1): -400 log10(1/score - 1) (inverse of above)."""
    with np.errstate(divide="ignore"):
        return -400.0 * np.log10(1.0 / np.asarray(score, dtype=float) - 1.0)


def theta_to_elo(theta):
    """Bradley-Terry log-strength (natural log) to Elo points: theta * 400 / ln 10."""
    return np.asarray(theta, dtype=float) * ELO_PER_NAT


def elo_to_theta(elo):
    """Elo points to Bradley-Terry log-strength: elo * ln 10 / 400."""
    return np.asarray(elo, dtype=float) / ELO_PER_NAT


@dataclass(frozen=True)
class Ratings:
    """Fitted log-strengths ``theta`` with standard errors and covariance (same normalisation)."""

    theta: np.ndarray
    se: np.ndarray
    cov: np.ndarray
    loglik: float
    iterations: int
    converged: bool

    @property
    def elo(self) -> np.ndarray:
        return theta_to_elo(self.theta)

    def interval(self, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Wald interval theta +- z * se (per item, not simultaneous)."""
        z = float(norm.ppf(0.5 + confidence / 2.0))
        return self.theta - z * self.se, self.theta + z * self.se


def _strongly_connected(beats: np.ndarray) -> bool:
    """True if every item reaches every other along "ranked ahead of" edges (Hunter's Assumption 1)."""
    reach = (beats > 0) | np.eye(beats.shape[0], dtype=bool)
    while True:
        nxt = (reach.astype(np.int64) @ reach.astype(np.int64)) > 0
        if np.array_equal(nxt, reach):
            return bool(reach.all())
        reach = nxt


def _contrast_matrix(k: int, reference: int | None) -> np.ndarray:
    """The map from log-strengths to the reported ones: centred (sum zero) or ``reference`` at 0."""
    if reference is None:
        return np.eye(k) - 1.0 / k
    c = np.eye(k)
    c[:, reference] -= 1.0
    return c


def _identified_inverse(info: np.ndarray, pinned: int = 0) -> np.ndarray:
    """Covariance of the log-strengths with item ``pinned`` fixed at 0: the inverse of ``info``
    with that row and column removed, embedded with zeros.

    Why not a pseudo-inverse of the whole matrix: ``info`` is singular (a common shift is not
    identified), and ``pinv`` keeps a near-null eigenvalue whose reciprocal is huge; the
    projection onto the reported contrasts then cancels huge numbers and loses most digits (seen:
    entries quantised in steps of 2^-15 on one machine). The reduced matrix is positive definite
    and well conditioned when the comparison graph is connected, so its inverse is accurate, and
    any contrast of the pinned parameterisation is the same contrast of every other one.
    """
    k = info.shape[0]
    keep = np.arange(k) != pinned
    cov = np.zeros((k, k))
    cov[np.ix_(keep, keep)] = np.linalg.inv(info[np.ix_(keep, keep)])
    return cov


def _normalise(theta: np.ndarray, info: np.ndarray, reference: int | None):
    """Reported log-strengths, their covariance and standard errors, from the information matrix."""
    c = _contrast_matrix(theta.size, reference)
    cov = c @ _identified_inverse(info, 0 if reference is None else reference) @ c.T
    return c @ theta, cov, np.sqrt(np.clip(np.diag(cov), 0.0, None))


def bradley_terry_loglik(theta, wins) -> float:
    """Bradley-Terry log-likelihood sum_{i != j} w_ij log sigma(theta_i - theta_j)."""
    theta, wins = np.asarray(theta, dtype=float), np.asarray(wins, dtype=float)
    diff = theta[:, None] - theta[None, :]
    w = wins * (1 - np.eye(theta.size))
    return float(-np.sum(w * np.logaddexp(0.0, -diff)))


def bradley_terry(wins, *, reference: int | None = None, tol: float = 1e-10,
                  max_iter: int = 100_000) -> Ratings:
    """Bradley-Terry MLE from ``wins[i, j]`` = games i won against j (diagonal ignored).

    Hunter's MM update gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j), W_i = total wins of i,
    n_ij = games between i and j. Ties may be entered as half a win for each side. Raises
    ValueError when the MLE does not exist (comparison graph not strongly connected, e.g. an
    unbeaten team).
    """
    wins = np.array(wins, dtype=float)
    if wins.ndim != 2 or wins.shape[0] != wins.shape[1] or np.any(wins < 0):
        raise ValueError("wins must be a square non-negative matrix")
    np.fill_diagonal(wins, 0.0)
    if not _strongly_connected(wins):
        raise ValueError("MLE does not exist: the 'beats' graph is not strongly connected")
    n = wins + wins.T
    total = wins.sum(axis=1)
    gamma = np.ones(wins.shape[0])
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        denom = np.sum(n / (gamma[:, None] + gamma[None, :]), axis=1)
        new = total / denom
        new /= math.exp(np.mean(np.log(new)))
        step = np.max(np.abs(np.log(new) - np.log(gamma)))
        gamma = new
        if step < tol:
            converged = True
            break
    theta = np.log(gamma)
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
    off = n * p * p.T
    info = np.diag(off.sum(axis=1)) - off
    theta, cov, se = _normalise(theta, info, reference)
    return Ratings(theta, se, cov, bradley_terry_loglik(theta, wins), it, converged)


def _stages(items, places):
    """Choice stages of each game: (items, valid, risk (n,S,m), chosen (n,S,m), multiplicity (n,S))."""
    items = np.asarray(items)
    if items.ndim != 2:
        raise ValueError("items must be a (games x slots) integer array")
    valid = items >= 0
    m = items.shape[1]
    if places is None:
        places = np.broadcast_to(np.arange(1, m + 1, dtype=float), items.shape)
    places = np.asarray(places, dtype=float)
    if places.shape != items.shape:
        raise ValueError("places must have the shape of items")
    places = np.where(valid, places, np.inf)
    lead = places[:, :, None]  # stage led by slot s: place value places[:, s]
    risk = valid[:, None, :] & (places[:, None, :] >= lead)
    chosen = valid[:, None, :] & (places[:, None, :] == lead)
    # One stage per distinct place: keep the stage only at the first slot holding that place.
    earlier = np.tril(np.ones((m, m), dtype=bool), -1)  # earlier[s, j]: j < s
    dup = np.any(chosen & earlier[None, :, :], axis=2)
    mult = chosen.sum(axis=2)
    keep = valid & ~dup & (mult < risk.sum(axis=2))  # drop the trailing (unranked) group
    risk &= keep[:, :, None]
    chosen &= keep[:, :, None]
    return np.where(valid, items, 0), valid, risk, chosen, np.where(keep, mult, 0)


def _stage_probs(util_slots, risk):
    """Softmax over each stage's risk set, (n, S, m) with zeros outside it, and its log-normaliser
    log sum_{R} exp(u), (n, S) (0 for empty stages)."""
    u = np.where(risk, util_slots[:, None, :], -np.inf)
    top = np.max(np.where(risk, u, 0.0), axis=2, keepdims=True)
    e = np.where(risk, np.exp(u - top), 0.0)
    total = e.sum(axis=2, keepdims=True)
    probs = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    lse = np.where(total > 0, np.log(np.where(total > 0, total, 1.0)) + top, 0.0)
    return probs, lse[..., 0]


def _pl_loglik_slots(util_slots, risk, chosen, mult) -> float:
    _, lse = _stage_probs(util_slots, risk)
    gained = np.sum(np.where(chosen, util_slots[:, None, :], 0.0))
    return float(gained - np.sum(mult * lse))


def plackett_luce_loglik(theta, items, places=None) -> float:
    """Plackett-Luce log-likelihood of log-strengths ``theta`` (conventions in the module doc)."""
    idx, valid, risk, chosen, mult = _stages(items, places)
    return _pl_loglik_slots(np.asarray(theta, dtype=float)[idx], risk, chosen, mult)


def _pl_beats(idx, risk, chosen, k) -> np.ndarray:
    ahead = chosen[:, :, :, None] & (risk & ~chosen)[:, :, None, :]
    g, s, a, b = np.nonzero(ahead)
    beats = np.zeros((k, k))
    beats[idx[g, a], idx[g, b]] = 1.0
    return beats


def plackett_luce(items, places=None, n_items: int | None = None, *,
                  reference: int | None = None, tol: float = 1e-10,
                  max_iter: int = 100_000) -> Ratings:
    """Plackett-Luce MLE from finishing orders by Hunter's (2004) MM algorithm.

    Update gamma_i <- w_i / sum_{stages with i at risk} |G| / (sum of gamma over the risk set),
    with w_i the number of choices i made. Raises ValueError when the MLE does not exist.
    """
    idx, valid, risk, chosen, mult = _stages(items, places)
    k = int(n_items if n_items is not None else np.max(np.asarray(items)) + 1)
    if not _strongly_connected(_pl_beats(idx, risk, chosen, k)):
        raise ValueError("MLE does not exist: the 'ranked ahead of' graph is not strongly connected")
    w = np.bincount(idx[valid], weights=chosen.sum(axis=1)[valid], minlength=k)
    gamma = np.ones(k)
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        g = np.where(valid, gamma[idx], 0.0)
        denom = np.sum(np.where(risk, g[:, None, :], 0.0), axis=2)
        per_stage = np.divide(mult, denom, out=np.zeros_like(denom), where=denom > 0)
        contrib = np.sum(np.where(risk, per_stage[:, :, None], 0.0), axis=1)
        d = np.bincount(idx[valid], weights=contrib[valid], minlength=k)
        new = w / d
        new /= math.exp(np.mean(np.log(new)))
        step = np.max(np.abs(np.log(new) - np.log(gamma)))
        gamma = new
        if step < tol:
            converged = True
            break
    theta = np.log(gamma)
    info = _pl_information(theta[idx], idx, risk, mult, k)
    loglik = _pl_loglik_slots(theta[idx], risk, chosen, mult)
    theta, cov, se = _normalise(theta, info, reference)
    return Ratings(theta, se, cov, loglik, it, converged)


def _pl_information(util_slots, idx, risk, mult, k) -> np.ndarray:
    """Observed information sum_stages |G| (diag(pi) - pi pi^T), accumulated on item pairs."""
    pi, _ = _stage_probs(util_slots, risk)
    m = idx.shape[1]
    val = mult[:, :, None, None] * (np.eye(m)[None, None] * pi[:, :, :, None]
                                    - pi[:, :, :, None] * pi[:, :, None, :])
    pair = (idx[:, None, :, None] * k + idx[:, None, None, :])
    pair = np.broadcast_to(pair, val.shape)
    return np.bincount(pair.ravel(), weights=val.ravel(), minlength=k * k).reshape(k, k)


def simulate_plackett_luce(utilities, rng: np.random.Generator, valid=None) -> np.ndarray:
    """Finishing places (1 = first) drawn from Plackett-Luce with the given per-slot utilities.

    Sorting utility + standard Gumbel noise (descending) is an exact Plackett-Luce draw
    (Yellott, J. Math. Psych. 15, 1977). Invalid slots (``valid`` False) get place 0.
    """
    u = np.asarray(utilities, dtype=float)
    noisy = u + rng.gumbel(size=u.shape)
    if valid is not None:
        noisy = np.where(valid, noisy, -np.inf)
    order = np.argsort(-noisy, axis=-1, kind="stable")
    places = np.empty(u.shape, dtype=np.int64)
    np.put_along_axis(places, order, np.arange(1, u.shape[-1] + 1), axis=-1)
    return places if valid is None else np.where(valid, places, 0)


def __getattr__(name):
    """The card-additive model lives in its own module (which imports this one); re-exported
    here on first use, where callers find it. A plain import at the end of this module broke
    ``import sim.analysis.composition`` when that came first (a circular import)."""
    if name in ("CompositionFit", "composition_strengths"):
        from . import composition
        return getattr(composition, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
