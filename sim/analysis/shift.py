"""How far a change to one card moves its rating: a paired estimate from replayed games.

Why not refit the whole study per candidate: a full team-composition fit of thousands of games
costs seconds, and most of its parameters (the other cards) do not move when one card changes.
Instead, hold every other card at its study rating and fit only the changed card. Then the
chance that its team wins game ``g`` is a logistic function with an offset,

    P(win_g) = exp(b + rest_own) / (exp(b + rest_own) + sum_other exp(rest_t)) = sigma(b - o_g),
    o_g = log sum_other exp(rest_t) - rest_own,

so ``b`` is a one-parameter logistic regression (Newton, a few steps). Fit it twice on the *same*
games — the original results and the replay with the changed card, same seeds — and take the
difference: the luck of which games were drawn, and most of the dice, cancel (common random
numbers). Its standard error comes from the paired influence of each game
(``psi_g = (y_g - p_g) / I`` per fit; ``Var(delta) = sum_g (psi_new - psi_old)^2``, the sandwich
estimator of a difference of M-estimators on paired data). Games without a winner rank nobody
and contribute nothing, as in the study's Plackett-Luce fit.

Games that share a board are correlated (a card's team plays all four games of a duplicate block
on one board, and a change can matter more on some boards than on others), so with
``clusters`` (each game's board) the influences are summed per board first: the CR1 sandwich,
``Var(delta) = G/(G-1) sum_b (sum_{g in b} psi_g)^2``, as every interval of the lab
(docs/intervals.md). Summed game by game it was too small wherever the change's effect varies
from board to board.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cluster import MIN_CLUSTERS, cluster_ids, cluster_sums, cr1_factor


@dataclass(frozen=True)
class Shift:
    delta: float      # rating change of the card: fit on the replay minus fit on the original
    se: float         # paired standard error of ``delta``
    win_change: float  # mean change of its team's win indicator (replay minus original)
    games: int


def offsets(rest: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """``o_g`` from each team's summed rating without the card (``rest`` [n, 4]) and its seat."""
    rows = np.arange(rest.shape[0])
    others = np.where(np.arange(rest.shape[1])[None, :] == seat[:, None], -np.inf, rest)
    top = others.max(axis=1)
    return top + np.log(np.exp(others - top[:, None]).sum(axis=1)) - rest[rows, seat]


def _fit(o: np.ndarray, y: np.ndarray, ranked: np.ndarray, prior: float, l2: float,
         tol: float = 1e-10, max_iter: int = 100):
    """Penalised MLE of ``b`` (ridge ``l2/2 (b - prior)^2``, the study's prior), its win
    probabilities and the information; concave, so plain Newton converges."""
    b = prior
    w = ranked.astype(float)
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(o - b))
        info = float(np.sum(w * p * (1.0 - p))) + l2
        step = (float(np.sum(w * (y - p))) - l2 * (b - prior)) / info
        b += step
        if abs(step) < tol:
            break
    p = 1.0 / (1.0 + np.exp(o - b))
    return b, p, float(np.sum(w * p * (1.0 - p))) + l2


def paired_shift(o: np.ndarray, won_before: np.ndarray, ranked_before: np.ndarray,
                 won_after: np.ndarray, ranked_after: np.ndarray, *, prior: float = 0.0,
                 l2: float = 1.0, clusters=None) -> Shift:
    """Rating shift of a card between two plays of the same games (see the module doc).

    ``o``: offsets of its team in each game; ``won_*``: its team won; ``ranked_*``: the game had a
    winner; ``clusters``: each game's board (None, or fewer than two boards: games independent).
    Identical results give exactly ``delta == 0`` and ``se == 0``.
    """
    o = np.asarray(o, float)
    y0, y1 = np.asarray(won_before, float), np.asarray(won_after, float)
    r0, r1 = np.asarray(ranked_before, bool), np.asarray(ranked_after, bool)
    if o.size == 0:
        return Shift(0.0, float("nan"), 0.0, 0)
    b0, p0, i0 = _fit(o, y0, r0, prior, l2)
    b1, p1, i1 = _fit(o, y1, r1, prior, l2)
    psi = np.where(r1, (y1 - p1) / i1, 0.0) - np.where(r0, (y0 - p0) / i0, 0.0)
    ids, g = cluster_ids(clusters, o.size)
    if clusters is not None and g >= MIN_CLUSTERS:
        var = cr1_factor(g) * float(np.sum(cluster_sums(psi, ids, g) ** 2))
    else:
        var = float(np.sum(psi ** 2))
    return Shift(float(b1 - b0), float(np.sqrt(var)), float(np.mean(y1 - y0)), int(o.size))


__all__ = ["Shift", "offsets", "paired_shift"]
