"""SPRT: Wald bounds, hand-computed LLRs, the exact GSPRT against scipy, operating characteristics."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from sim.analysis.intervals import clopper_pearson_interval
from sim.analysis.sequential import (
    drift_decide,
    elo_to_score,
    llr_bernoulli,
    llr_trinomial,
    run_drift,
    run_sprt,
    score_to_elo,
    sprt_decide,
    wald_bounds,
)

N_SEQ, MAX_GAMES = 2000, 2000


def test_wald_bounds_values():
    lower, upper = wald_bounds(0.05, 0.05)
    assert upper == pytest.approx(2.9444389791664403, abs=1e-14)   # log 19
    assert lower == pytest.approx(-2.9444389791664403, abs=1e-14)
    lower, upper = wald_bounds(0.05, 0.10)
    assert upper == pytest.approx(math.log(18), abs=1e-14)           # log(0.9 / 0.05)
    assert lower == pytest.approx(math.log(0.1 / 0.95), abs=1e-14)   # -2.2513
    with pytest.raises(ValueError):
        wald_bounds(0.6, 0.5)


def test_llr_bernoulli_by_hand():
    # 30 wins, 20 losses, H0 p = 0.5 vs H1 p = 0.6: 30 ln 1.2 + 20 ln 0.8
    assert llr_bernoulli(30, 20, 0.5, 0.6) == pytest.approx(1.0067756775344439, abs=1e-13)
    np.testing.assert_allclose(llr_bernoulli([0, 1], [1, 0], 0.5, 0.6), [math.log(0.8), math.log(1.2)])


def test_llr_trinomial_normal_approximation_by_hand():
    # W, D, L = 300, 400, 200: mean score x = 5/9, per-game variance 11/81,
    # LLR = N (s1 - s0)(2x - s0 - s1) / (2 var) = 900 * 0.02 * (10/9 - 1.02) / (22/81) = 6.03818...
    assert llr_trinomial(300, 400, 200, 0.5, 0.52) == pytest.approx(1.64 * 81 / 22, rel=1e-13)
    assert llr_trinomial(0, 0, 0, 0.5, 0.52) == 0.0


def _gsprt_by_scipy(w, d, l, s0, s1):
    """Independent oracle: maximise the trinomial likelihood under mean score s with SLSQP."""
    counts, scores = np.array([l, d, w], float), np.array([0.0, 0.5, 1.0])

    def best(s):
        res = optimize.minimize(lambda q: -np.sum(counts * np.log(q)), x0=np.full(3, 1 / 3),
                                method="SLSQP", bounds=[(1e-12, 1)] * 3,
                                constraints=[{"type": "eq", "fun": lambda q: q.sum() - 1},
                                             {"type": "eq", "fun": lambda q: q @ scores - s}],
                                options={"ftol": 1e-15, "maxiter": 500})
        return res.x

    q0, q1 = best(s0), best(s1)
    return float(np.sum(counts * np.log(q1 / q0)))


@pytest.mark.parametrize("wdl", [(12, 9, 4), (40, 80, 35), (300, 50, 280)])
def test_exact_gsprt_matches_constrained_mle_by_scipy(wdl):
    exact = llr_trinomial(*wdl, 0.5, 0.55, method="exact")
    assert exact == pytest.approx(_gsprt_by_scipy(*wdl, 0.5, 0.55), abs=1e-6)


def test_exact_gsprt_without_draws_is_the_bernoulli_llr_and_normal_is_close_for_large_n():
    assert llr_trinomial(30, 0, 20, 0.5, 0.6, method="exact") == pytest.approx(
        llr_bernoulli(30, 20, 0.5, 0.6), rel=1e-10)
    exact = llr_trinomial(3000, 4000, 2900, 0.5, 0.51, method="exact")
    normal = llr_trinomial(3000, 4000, 2900, 0.5, 0.51, method="normal")
    assert normal == pytest.approx(exact, rel=0.02)


def test_elo_helpers():
    assert elo_to_score(0) == 0.5
    assert elo_to_score(400) == pytest.approx(10 / 11)
    assert score_to_elo(0.75) == pytest.approx(400 * math.log10(3))
    np.testing.assert_allclose(score_to_elo(elo_to_score([-250.0, 3.0, 700.0])), [-250.0, 3.0, 700.0])


def test_sprt_decide_on_running_totals():
    assert sprt_decide(1000, 700, p0=0.5, p1=0.55)[0] == "accept_h1"
    assert sprt_decide(700, 800, p0=0.5, p1=0.55)[0] == "accept_h0"
    decision, llr = sprt_decide(30, 20, p0=0.5, p1=0.6)
    assert decision == "continue" and llr == pytest.approx(llr_bernoulli(30, 20, 0.5, 0.6))
    # Elo-style bounds: [0, 10] Elo are expected scores 0.5 and 0.51439.
    _, llr = sprt_decide(600, 500, draws=900, p0=0, p1=10, scale="elo")
    assert llr == pytest.approx(llr_trinomial(600, 900, 500, 0.5, float(elo_to_score(10))))
    # The GSPRT waits for its burn-in (default 30 games) however lopsided the start.
    assert sprt_decide(20, 0, draws=5, p0=0.5, p1=0.6)[0] == "continue"
    assert sprt_decide(20, 0, draws=5, p0=0.5, p1=0.6, min_games=0)[0] == "accept_h1"
    with pytest.raises(ValueError):
        sprt_decide(3, 2, draws=1, p0=0.5, p1=0.6, method="bernoulli")
    with pytest.raises(ValueError):
        sprt_decide(3, 2, p0=0.5, p1=0.5)


def _within_binomial_interval(events: int, n: int, target: float, confidence: float = 0.99) -> bool:
    lower, upper = clopper_pearson_interval(events, n, confidence)
    return lower <= target <= upper


def _fixed_n(p0: float, p1: float, alpha: float, beta: float) -> float:
    """Games a one-sided fixed-sample z test needs for the same error rates."""
    z_a, z_b = stats.norm.ppf(1 - alpha), stats.norm.ppf(1 - beta)
    return ((z_a * math.sqrt(p0 * (1 - p0)) + z_b * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2


def test_bernoulli_sprt_operating_characteristics():
    """2000 seeded sequences: false alarms ~ alpha, power >= 1 - beta - 0.02, ASN < fixed n."""
    rng = np.random.default_rng(20240601)
    p0, p1, alpha, beta = 0.5, 0.6, 0.05, 0.05
    h0 = run_sprt((rng.random((N_SEQ, MAX_GAMES)) < p0).astype(float), p0=p0, p1=p1, alpha=alpha, beta=beta)
    h1 = run_sprt((rng.random((N_SEQ, MAX_GAMES)) < p1).astype(float), p0=p0, p1=p1, alpha=alpha, beta=beta)
    assert not np.any(h0.decision == "continue") and not np.any(h1.decision == "continue")
    false_alarms = int(np.sum(h0.decision == "accept_h1"))
    assert _within_binomial_interval(false_alarms, N_SEQ, alpha)
    assert np.mean(h1.decision == "accept_h1") >= 1 - beta - 0.02
    n_fixed = _fixed_n(p0, p1, alpha, beta)
    assert h0.stopped_at.mean() < 0.7 * n_fixed and h1.stopped_at.mean() < 0.7 * n_fixed
    # Wald's approximation of the expected sample size under H0 (no overshoot): within 25 %.
    lower, upper = wald_bounds(alpha, beta)
    drift0 = p0 * math.log(p1 / p0) + (1 - p0) * math.log((1 - p1) / (1 - p0))
    asn0 = ((1 - alpha) * lower + alpha * upper) / drift0
    assert h0.stopped_at.mean() == pytest.approx(asn0, rel=0.25)
    # The sequence replay agrees with the running-total decision at the stopping time.
    seq = (np.random.default_rng(1).random(MAX_GAMES) < p1).astype(float)
    one = run_sprt(seq, p0=p0, p1=p1)
    w = int(seq[: one.stopped_at].sum())
    decision, llr = sprt_decide(w, int(one.stopped_at) - w, p0=p0, p1=p1)
    assert decision == str(one.decision) and llr == pytest.approx(float(one.llr))


def test_trinomial_gsprt_operating_characteristics():
    rng = np.random.default_rng(77)
    s0, s1, alpha, beta = 0.5, 0.56, 0.05, 0.05
    scores = np.array([1.0, 0.5, 0.0])
    under_h0 = scores[rng.choice(3, size=(N_SEQ, MAX_GAMES), p=[0.3, 0.4, 0.3])]
    under_h1 = scores[rng.choice(3, size=(N_SEQ, MAX_GAMES), p=[0.36, 0.4, 0.24])]
    h0 = run_sprt(under_h0, p0=s0, p1=s1, alpha=alpha, beta=beta, method="normal")  # burn-in 30
    h1 = run_sprt(under_h1, p0=s0, p1=s1, alpha=alpha, beta=beta, method="normal")
    assert np.mean(h0.decision == "continue") < 0.005 and np.mean(h1.decision == "continue") < 0.005
    assert _within_binomial_interval(int(np.sum(h0.decision == "accept_h1")), N_SEQ, alpha)
    assert np.mean(h1.decision == "accept_h1") >= 1 - beta - 0.02
    # Fixed-n comparator with the per-game score variance of H0 (0.15) and H1.
    sd0, sd1 = math.sqrt(0.15), math.sqrt(0.36 + 0.1 - s1 ** 2)
    z = stats.norm.ppf(1 - alpha)
    n_fixed = (z * (sd0 + sd1) / (s1 - s0)) ** 2
    assert h0.stopped_at.mean() < 0.7 * n_fixed and h1.stopped_at.mean() < 0.7 * n_fixed


def test_two_sided_drift_gate_operating_characteristics():
    rng = np.random.default_rng(99)
    baseline, delta, alpha, beta, n_games = 0.25, 0.05, 0.05, 0.05, 3000
    stay = run_drift((rng.random((N_SEQ, n_games)) < baseline).astype(float), baseline=baseline,
                     delta=delta, alpha=alpha, beta=beta)
    assert np.mean(stay.decision == "continue") < 0.005
    alarms = int(np.sum(np.isin(stay.decision, ["drift_up", "drift_down"])))
    assert _within_binomial_interval(alarms, N_SEQ, alpha)
    up = run_drift((rng.random((N_SEQ, n_games)) < baseline + delta).astype(float),
                   baseline=baseline, delta=delta, alpha=alpha, beta=beta)
    down = run_drift((rng.random((N_SEQ, n_games)) < baseline - delta).astype(float),
                     baseline=baseline, delta=delta, alpha=alpha, beta=beta)
    assert np.mean(up.decision == "drift_up") >= 1 - beta - 0.02
    assert np.mean(down.decision == "drift_down") >= 1 - beta - 0.02
    n_fixed = _fixed_n(baseline, baseline + delta, alpha / 2, beta)
    assert stay.stopped_at.mean() < n_fixed and up.stopped_at.mean() < n_fixed


def test_drift_decide_on_running_totals():
    assert drift_decide(400, 1000, baseline=0.25, delta=0.05).decision == "drift_up"
    assert drift_decide(200, 1000, baseline=0.25, delta=0.05).decision == "drift_down"
    assert drift_decide(750, 2250, baseline=0.25, delta=0.05).decision == "no_drift"
    res = drift_decide(5, 15, baseline=0.25, delta=0.05)
    assert res.decision == "continue"
    assert res.llr_up == pytest.approx(llr_bernoulli(5, 15, 0.25, 0.30))
    with pytest.raises(ValueError):
        drift_decide(1, 1, baseline=0.25, delta=0.0)
    with pytest.raises(ValueError):
        run_sprt(np.array([1.0, 0.3]), p0=0.5, p1=0.6)
