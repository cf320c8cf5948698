"""Sequential probability ratio tests (SPRT) for win rates, as chess-engine testing runs them.

Why sequential: the AI ladder and the CI drift gate play games until the evidence is decisive.
Wald's SPRT stops on average far earlier than a fixed-sample test with the same error rates
(Wald & Wolfowitz 1948 proved it optimal for simple hypotheses), which is why engine testing
frameworks (fishtest for Stockfish, OpenBench) use it.

Hypotheses H0: p = p0 against H1: p = p1 on the expected score p (win = 1, draw = 1/2, loss = 0),
given either as probabilities or as logistic Elo differences (``elo_to_score``). Wald's
approximate bounds for error rates alpha (type I) and beta (type II) (Wald, "Sequential Analysis",
1947, ch. 3): continue while B < LLR < A with A = log((1 - beta) / alpha), B = log(beta / (1 - alpha));
accept H1 when LLR >= A, accept H0 when LLR <= B.

Log-likelihood ratios:
- Bernoulli (no draws): LLR = W log(p1/p0) + L log((1-p1)/(1-p0)), exact.
- Trinomial win/draw/loss with unknown draw rate: the generalised SPRT (GSPRT) replaces both
  hypotheses by the maximum-likelihood trinomial whose expected score equals p0 resp. p1.
  ``method="normal"``: Michel Van den Bergh's normal approximation
  LLR ~= N (s1 - s0)(2 x - s0 - s1) / (2 var), x = mean score, var = per-game score variance
  (M. Van den Bergh, note "GSPRT approximation", hardy.uhasselt.be/Toga/GSPRT_approximation.pdf;
  implemented as ``LLR_alt2`` in fishtest's ``server/fishtest/stats/LLRcalc.py``).
  ``method="exact"``: the GSPRT itself (fishtest's ``LLR_logistic``), with the constrained MLE
  of ``MLE_expected``: p_i = phat_i / (1 + lambda (a_i - s)), lambda solving sum p_i a_i = s
  (Van den Bergh, hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf, Proposition 1.1).

Two-sided drift gate: "did this win rate move from its baseline by more than delta?" is run as
two one-sided SPRTs (baseline vs baseline + delta, baseline vs baseline - delta) at alpha/2 each
(Sobel & Wald, Ann. Math. Stat. 20, 1949; Armitage's two-sided SPRT); an alarm is raised as soon as
either accepts its H1, "no drift" once both accept H0. The union bound keeps the overall false-alarm
rate <= alpha.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.analysis.ratings import elo_to_score, score_to_elo

__all__ = [
    "DriftDecision",
    "GSPRT_MIN_GAMES",
    "SequenceResult",
    "drift_decide",
    "elo_to_score",
    "llr_bernoulli",
    "llr_trinomial",
    "run_drift",
    "run_sprt",
    "score_to_elo",
    "sprt_decide",
    "wald_bounds",
]


def wald_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's stopping bounds (lower B, upper A) = (log(beta/(1-alpha)), log((1-beta)/alpha))."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError("need 0 < alpha, beta and alpha + beta < 1")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _hypotheses(p0, p1, scale: str) -> tuple[float, float]:
    if scale == "elo":
        p0, p1 = float(elo_to_score(p0)), float(elo_to_score(p1))
    elif scale != "prob":
        raise ValueError("scale must be 'prob' or 'elo'")
    p0, p1 = float(p0), float(p1)
    if not (0 < p0 < 1 and 0 < p1 < 1) or p0 == p1:
        raise ValueError("need distinct p0, p1 strictly inside (0, 1)")
    return p0, p1


def llr_bernoulli(wins, losses, p0: float, p1: float):
    """Exact log-likelihood ratio of H1: p = p1 against H0: p = p0 after ``wins`` and ``losses``."""
    wins, losses = np.asarray(wins, dtype=float), np.asarray(losses, dtype=float)
    out = wins * math.log(p1 / p0) + losses * math.log((1.0 - p1) / (1.0 - p0))
    return float(out) if out.ndim == 0 else out


def _mle_expected(freqs: np.ndarray, scores: np.ndarray, s: float) -> np.ndarray:
    """Max-likelihood distribution on ``scores`` with mean ``s`` given empirical ``freqs`` (last axis).

    Lagrange: p_i = f_i / (1 + lam (a_i - s)); lam is the root of sum_i p_i (a_i - s) = 0, which
    is decreasing in lam on the interval keeping every denominator positive (Van den Bergh).
    """
    a = scores - s
    shape = freqs.shape[:-1]
    # Denominators positive for all a_i with f_i > 0: lam in (-1/max(a), -1/min(a)).
    amax = np.max(np.where(freqs > 0, a, -np.inf), axis=-1)
    amin = np.min(np.where(freqs > 0, a, np.inf), axis=-1)
    lo = np.where(amax > 0, -1.0 / np.where(amax > 0, amax, 1.0), -1e12)
    hi = np.where(amin < 0, -1.0 / np.where(amin < 0, amin, -1.0), 1e12)
    lo, hi = np.broadcast_to(lo, shape).copy(), np.broadcast_to(hi, shape).copy()
    for _ in range(200):
        lam = 0.5 * (lo + hi)
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.sum(freqs * a / (1.0 + lam[..., None] * a), axis=-1)
        lo = np.where(g > 0, lam, lo)
        hi = np.where(g > 0, hi, lam)
    lam = 0.5 * (lo + hi)
    return freqs / (1.0 + lam[..., None] * a)


def llr_trinomial(wins, draws, losses, p0: float, p1: float, method: str = "normal"):
    """GSPRT log-likelihood ratio for win/draw/loss counts, hypotheses on the expected score.

    ``method="normal"``: Van den Bergh's approximation N (s1 - s0)(2x - s0 - s1) / (2 var)
    with x the mean score and var the sample variance of the per-game score (divisor N).
    ``method="exact"``: the GSPRT, sum_i n_i log(p1_i / p0_i) with p*_i the maximum-likelihood
    win/draw/loss distribution of expected score s*. With no draws it equals ``llr_bernoulli``.
    Zero games give LLR 0, and so does a sample without variance (all wins, say) for "normal".
    """
    w, d, lo = (np.asarray(v, dtype=float) for v in np.broadcast_arrays(wins, draws, losses))
    n = w + d + lo
    if method == "normal":
        with np.errstate(divide="ignore", invalid="ignore"):
            x = (w + 0.5 * d) / n
            var = (w * (1 - x) ** 2 + d * (0.5 - x) ** 2 + lo * x ** 2) / n
            out = n * (p1 - p0) * (2 * x - p0 - p1) / (2 * var)
        out = np.where((n > 0) & (var > 0), out, 0.0)
    elif method == "exact":
        counts = np.stack([lo, d, w], axis=-1)
        scores = np.array([0.0, 0.5, 1.0])
        # If the observed outcomes all lie on one side of a hypothesis the constrained MLE sits on
        # the boundary; like fishtest's ``regularize``, give empty categories 1e-3 games there
        # (only then, so that a sample without draws keeps the exact Bernoulli LLR).
        seen_lo = np.where(counts > 0, scores, np.inf).min(axis=-1)
        seen_hi = np.where(counts > 0, scores, -np.inf).max(axis=-1)
        one_sided = (seen_lo >= min(p0, p1)) | (seen_hi <= max(p0, p1))
        counts = np.where(one_sided[..., None] & (counts == 0), 1e-3, counts)
        with np.errstate(divide="ignore", invalid="ignore"):
            freqs = counts / counts.sum(axis=-1, keepdims=True)
            q0 = _mle_expected(np.nan_to_num(freqs), scores, p0)
            q1 = _mle_expected(np.nan_to_num(freqs), scores, p1)
            terms = np.where(counts > 0, counts * np.log(q1 / q0), 0.0)
        out = np.where(n > 0, terms.sum(axis=-1), 0.0)
    else:
        raise ValueError("method must be 'normal' or 'exact'")
    return float(out) if out.ndim == 0 else out


GSPRT_MIN_GAMES = 30  # default burn-in of the trinomial GSPRT (its variance estimate is poor early)


def _resolve(method: str, draws, min_games: int | None) -> tuple[str, int]:
    if method == "auto":
        method = "bernoulli" if np.all(np.asarray(draws) == 0) else "normal"
    if method not in ("bernoulli", "normal", "exact"):
        raise ValueError("method must be 'auto', 'bernoulli', 'normal' or 'exact'")
    if min_games is None:
        min_games = 0 if method == "bernoulli" else GSPRT_MIN_GAMES
    return method, int(min_games)


def _llr(wins, losses, draws, p0, p1, method):
    if method == "bernoulli":
        if np.any(np.asarray(draws) != 0):
            raise ValueError("the Bernoulli LLR has no draws; use method 'normal' or 'exact'")
        return llr_bernoulli(wins, losses, p0, p1)
    return llr_trinomial(wins, draws, losses, p0, p1, method)


def _decision(llr: float, lower: float, upper: float) -> str:
    if llr >= upper:
        return "accept_h1"
    if llr <= lower:
        return "accept_h0"
    return "continue"


def sprt_decide(wins, losses, draws=0, *, p0: float, p1: float, alpha: float = 0.05,
                beta: float = 0.05, scale: str = "prob", method: str = "auto",
                min_games: int | None = None):
    """Wald's decision after the games so far: ``("accept_h0" | "accept_h1" | "continue", llr)``.

    ``p0``, ``p1`` are expected scores (``scale="prob"``) or logistic Elo (``scale="elo"``).
    ``method``: "auto" (Bernoulli if there are no draws, else the normal GSPRT), "bernoulli",
    "normal" or "exact". Call after every game or batch with the running totals.
    ``min_games``: no decision before this many games; default 0 for the exact Bernoulli LLR and
    ``GSPRT_MIN_GAMES`` (30) for the GSPRT, whose plug-in variance makes tiny samples overconfident
    (without it the simulated false-alarm rate of the trinomial test rises from ~5 % to ~7 %).
    """
    p0, p1 = _hypotheses(p0, p1, scale)
    lower, upper = wald_bounds(alpha, beta)
    method, min_games = _resolve(method, draws, min_games)
    llr = float(_llr(wins, losses, draws, p0, p1, method))
    if float(np.sum(wins) + np.sum(draws) + np.sum(losses)) < min_games:
        return "continue", llr
    return _decision(llr, lower, upper), llr


@dataclass(frozen=True)
class SequenceResult:
    """Outcome of running SPRTs over game sequences (arrays over the leading axes)."""

    decision: np.ndarray      # "accept_h0" / "accept_h1" / "continue" (ran out of games)
    stopped_at: np.ndarray    # number of games when the test stopped (or the sequence length)
    llr: np.ndarray           # LLR at the stopping time


def _first_crossing(llr: np.ndarray, lower: float, upper: float):
    """First index along the last axis where the LLR leaves (lower, upper); -1 if never."""
    out = (llr >= upper) | (llr <= lower)
    hit = out.any(axis=-1)
    idx = np.where(hit, out.argmax(axis=-1), -1)
    return idx, hit


def _cumulative(outcomes: np.ndarray):
    outcomes = np.asarray(outcomes, dtype=float)
    if not np.all(np.isin(outcomes, (0.0, 0.5, 1.0))):
        raise ValueError("outcomes must be scores 0 (loss), 0.5 (draw) or 1 (win)")
    w = np.cumsum(outcomes == 1.0, axis=-1)
    d = np.cumsum(outcomes == 0.5, axis=-1)
    lo = np.cumsum(outcomes == 0.0, axis=-1)
    return w, d, lo


def run_sprt(outcomes, *, p0: float, p1: float, alpha: float = 0.05, beta: float = 0.05,
             scale: str = "prob", method: str = "auto", min_games: int | None = None) -> SequenceResult:
    """Run the SPRT along the last axis of ``outcomes`` (scores 0, 0.5, 1), vectorised.

    Each sequence stops at the first game (from ``min_games`` on, see ``sprt_decide``) whose
    running LLR crosses a Wald bound. Used for operating-characteristic simulations and for
    replaying a stored game log.
    """
    p0, p1 = _hypotheses(p0, p1, scale)
    lower, upper = wald_bounds(alpha, beta)
    w, d, lo = _cumulative(outcomes)
    method, min_games = _resolve(method, d[..., -1:] if d.size else 0, min_games)
    llr = np.asarray(_llr(w, lo, d, p0, p1, method), dtype=float)
    early = np.arange(1, llr.shape[-1] + 1) < min_games
    idx, hit = _first_crossing(np.where(early, 0.0, llr), lower, upper)
    n_games = llr.shape[-1]
    at = np.where(hit, idx, n_games - 1)
    final = np.take_along_axis(llr, at[..., None], axis=-1)[..., 0]
    decision = np.where(~hit, "continue", np.where(final >= upper, "accept_h1", "accept_h0"))
    return SequenceResult(decision, at + 1, final)


@dataclass(frozen=True)
class DriftDecision:
    """Two-sided drift gate: decision is "drift_up", "drift_down", "no_drift" or "continue"."""

    decision: str
    llr_up: float
    llr_down: float


def drift_decide(wins, losses, draws=0, *, baseline: float, delta: float, alpha: float = 0.05,
                 beta: float = 0.05, method: str = "auto",
                 min_games: int | None = None) -> DriftDecision:
    """Has the win rate moved from ``baseline`` by at least ``delta``? Two one-sided SPRTs.

    Test "up": H0 p = baseline vs H1 p = baseline + delta; test "down": H0 p = baseline vs
    H1 p = baseline - delta; each at level alpha/2 with power 1 - beta. On running totals this
    stateless form reports "drift_up"/"drift_down" when a test is past its upper bound,
    "no_drift" when both are below their lower bounds, else "continue"; a gate that must
    remember an earlier crossing should use ``run_drift`` on the game log.
    """
    if delta <= 0:
        raise ValueError("delta must be positive")
    lower, upper = wald_bounds(alpha / 2.0, beta)
    method, min_games = _resolve(method, draws, min_games)
    up = float(_llr(wins, losses, draws, *_hypotheses(baseline, baseline + delta, "prob"), method))
    down = float(_llr(wins, losses, draws, *_hypotheses(baseline, baseline - delta, "prob"), method))
    if float(np.sum(wins) + np.sum(draws) + np.sum(losses)) < min_games:
        return DriftDecision("continue", up, down)
    if up >= upper:
        return DriftDecision("drift_up", up, down)
    if down >= upper:
        return DriftDecision("drift_down", up, down)
    if up <= lower and down <= lower:
        return DriftDecision("no_drift", up, down)
    return DriftDecision("continue", up, down)


def run_drift(outcomes, *, baseline: float, delta: float, alpha: float = 0.05, beta: float = 0.05,
              method: str = "auto", min_games: int | None = None) -> SequenceResult:
    """Two-sided drift gate along the last axis of ``outcomes``; remembers each test's crossing.

    Each one-sided SPRT stops at its own first crossing. The gate alarms ("drift_up"/"drift_down")
    at the first H1 acceptance of either test, declares "no_drift" when both have accepted H0
    (at the later of the two stopping times), else "continue". ``llr`` holds the deciding test's
    LLR (for "no_drift": the one that stopped last).
    """
    if delta <= 0:
        raise ValueError("delta must be positive")
    kw = dict(alpha=alpha / 2, beta=beta, method=method, min_games=min_games)
    up = run_sprt(outcomes, p0=baseline, p1=baseline + delta, **kw)
    down = run_sprt(outcomes, p0=baseline, p1=baseline - delta, **kw)
    big = np.iinfo(np.int64).max
    t_up = np.where(up.decision == "accept_h1", up.stopped_at, big)
    t_down = np.where(down.decision == "accept_h1", down.stopped_at, big)
    alarm_up = (t_up < big) & (t_up <= t_down)
    alarm_down = (t_down < big) & (t_down < t_up)
    both_h0 = (up.decision == "accept_h0") & (down.decision == "accept_h0")
    decision = np.where(alarm_up, "drift_up", np.where(alarm_down, "drift_down",
                        np.where(both_h0, "no_drift", "continue")))
    later = np.maximum(up.stopped_at, down.stopped_at)
    stopped = np.where(alarm_up, t_up, np.where(alarm_down, t_down, later))
    llr = np.where(alarm_up | (both_h0 & (up.stopped_at >= down.stopped_at)), up.llr, down.llr)
    return SequenceResult(decision, stopped, llr)

