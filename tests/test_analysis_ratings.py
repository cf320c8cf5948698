"""Ratings: Agresti's baseball example, scipy-optimised likelihoods as oracle, recovery of known
parameters from seeded simulations, Plackett-Luce conventions, card-additive team strength."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize
from scipy.special import log_expit, logsumexp

from sim.analysis.ratings import (
    bradley_terry,
    bradley_terry_loglik,
    composition_strengths,
    elo_to_score,
    elo_to_theta,
    plackett_luce,
    plackett_luce_loglik,
    score_to_elo,
    simulate_plackett_luce,
    theta_to_elo,
)

# 1987 American League East, 13 games per pair (Agresti, Categorical Data Analysis, 2nd ed.,
# section 10.6; home/away split as in the BradleyTerry2 R package's ``baseball`` data set).
TEAMS = ["Milwaukee", "Detroit", "Toronto", "New York", "Boston", "Cleveland", "Baltimore"]
BASEBALL = [  # (home, away, home wins, away wins)
    ("Milwaukee", "Detroit", 4, 3), ("Milwaukee", "Toronto", 4, 2), ("Milwaukee", "New York", 4, 3),
    ("Milwaukee", "Boston", 6, 1), ("Milwaukee", "Cleveland", 4, 2), ("Milwaukee", "Baltimore", 6, 0),
    ("Detroit", "Milwaukee", 3, 3), ("Detroit", "Toronto", 4, 2), ("Detroit", "New York", 4, 3),
    ("Detroit", "Boston", 6, 0), ("Detroit", "Cleveland", 6, 1), ("Detroit", "Baltimore", 4, 3),
    ("Toronto", "Milwaukee", 2, 5), ("Toronto", "Detroit", 4, 3), ("Toronto", "New York", 2, 4),
    ("Toronto", "Boston", 4, 3), ("Toronto", "Cleveland", 4, 2), ("Toronto", "Baltimore", 6, 0),
    ("New York", "Milwaukee", 3, 3), ("New York", "Detroit", 5, 1), ("New York", "Toronto", 2, 5),
    ("New York", "Boston", 4, 3), ("New York", "Cleveland", 4, 2), ("New York", "Baltimore", 6, 1),
    ("Boston", "Milwaukee", 5, 1), ("Boston", "Detroit", 2, 5), ("Boston", "Toronto", 3, 3),
    ("Boston", "New York", 4, 2), ("Boston", "Cleveland", 5, 2), ("Boston", "Baltimore", 6, 0),
    ("Cleveland", "Milwaukee", 2, 5), ("Cleveland", "Detroit", 3, 3), ("Cleveland", "Toronto", 3, 4),
    ("Cleveland", "New York", 4, 3), ("Cleveland", "Boston", 4, 2), ("Cleveland", "Baltimore", 2, 4),
    ("Baltimore", "Milwaukee", 2, 5), ("Baltimore", "Detroit", 1, 5), ("Baltimore", "Toronto", 1, 6),
    ("Baltimore", "New York", 2, 4), ("Baltimore", "Boston", 1, 6), ("Baltimore", "Cleveland", 3, 4),
]
# Agresti's Table 10.11 (Baltimore = 0): the estimates reproduced by BradleyTerry2's tests.
AGRESTI_ESTIMATES = [1.58, 1.44, 1.29, 1.25, 1.11, 0.68, 0.00]


def _baseball_wins() -> np.ndarray:
    wins = np.zeros((7, 7))
    for home, away, hw, aw in BASEBALL:
        i, j = TEAMS.index(home), TEAMS.index(away)
        wins[i, j] += hw
        wins[j, i] += aw
    return wins


def test_bradley_terry_reproduces_agresti_baseball():
    wins = _baseball_wins()
    assert np.all((wins + wins.T)[~np.eye(7, dtype=bool)] == 13)
    fit = bradley_terry(wins, reference=TEAMS.index("Baltimore"))
    assert fit.converged
    np.testing.assert_array_equal(np.round(fit.theta, 2), AGRESTI_ESTIMATES)
    # "standard errors are about 0.3" (Agresti; BradleyTerry2 rounds them to 0.3).
    np.testing.assert_array_equal(np.round(fit.se[:6], 1), 0.3)
    assert fit.se[6] == 0.0


def _bt_negloglik(free, wins):
    """Independent oracle: BT likelihood with item 0 pinned at 0, written with scipy's log_expit."""
    theta = np.concatenate([[0.0], free])
    diff = theta[:, None] - theta[None, :]
    return -np.sum(wins * log_expit(diff) * (1 - np.eye(theta.size)))


def _numerical_hessian(f, x, h=1e-4):
    n = x.size
    hess = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            ei, ej = np.eye(n)[i] * h, np.eye(n)[j] * h
            hess[i, j] = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej) + f(x - ei - ej)) / (4 * h * h)
    return hess


def test_bradley_terry_matches_scipy_mle_and_numerical_information():
    wins = _baseball_wins()
    res = optimize.minimize(_bt_negloglik, np.zeros(6), args=(wins,), method="BFGS",
                            options={"gtol": 1e-10})
    fit = bradley_terry(wins, reference=0)
    np.testing.assert_allclose(fit.theta[1:], res.x, atol=1e-6)
    cov = np.linalg.inv(_numerical_hessian(lambda x: _bt_negloglik(x, wins), res.x))
    np.testing.assert_allclose(fit.cov[1:, 1:], cov, rtol=1e-4)
    assert fit.loglik == pytest.approx(-res.fun, abs=1e-9)


def test_bradley_terry_recovers_known_strengths_with_calibrated_errors():
    rng = np.random.default_rng(31)
    true = np.array([0.8, 0.4, 0.1, 0.0, -0.5, -0.8])
    true -= true.mean()
    p = 1 / (1 + np.exp(true[None, :] - true[:, None]))
    estimates, ses = [], []
    for _ in range(200):
        upper = rng.binomial(150, np.triu(p, 1))
        wins = np.triu(upper, 1) + np.tril(150 - upper.T, -1)
        fit = bradley_terry(wins)
        estimates.append(fit.theta)
        ses.append(fit.se)
    estimates, ses = np.array(estimates), np.array(ses)
    np.testing.assert_allclose(estimates.mean(axis=0), true, atol=0.03)
    # Observed-information SEs match the sampling spread (within 15 %) and 95 % Wald intervals cover.
    np.testing.assert_allclose(ses.mean(axis=0), estimates.std(axis=0), rtol=0.15)
    covered = np.abs(estimates - true) <= 1.96 * ses
    assert 0.92 <= covered.mean() <= 0.98


def test_bradley_terry_invariances_and_existence():
    wins = _baseball_wins()
    fit = bradley_terry(wins)
    assert fit.theta.sum() == pytest.approx(0.0, abs=1e-12)
    # Adding a constant to every rating changes no probability.
    assert bradley_terry_loglik(fit.theta + 3.7, wins) == pytest.approx(bradley_terry_loglik(fit.theta, wins))
    # Relabelling the teams relabels the ratings.
    perm = np.array([3, 0, 6, 1, 5, 2, 4])
    np.testing.assert_allclose(bradley_terry(wins[np.ix_(perm, perm)]).theta, fit.theta[perm], atol=1e-8)
    # Doubling every count keeps the MLE and shrinks the SEs by sqrt(2).
    doubled = bradley_terry(2 * wins)
    np.testing.assert_allclose(doubled.theta, fit.theta, atol=1e-8)
    np.testing.assert_allclose(doubled.se * math.sqrt(2), fit.se, rtol=1e-6)
    unbeaten = wins.copy()
    unbeaten[:, 0] = 0.0  # nobody ever beat Milwaukee: its strength would be infinite
    with pytest.raises(ValueError, match="strongly connected"):
        bradley_terry(unbeaten)


def test_elo_conversions():
    assert theta_to_elo(math.log(10)) == pytest.approx(400.0)
    assert elo_to_theta(400.0) == pytest.approx(math.log(10))
    assert elo_to_score(0.0) == 0.5
    assert score_to_elo(10 / 11) == pytest.approx(400.0)
    diff = np.array([-1.2, 0.0, 0.35, 2.0])
    # P(i beats j) of Bradley-Terry is the Elo expected score of the converted difference.
    np.testing.assert_allclose(elo_to_score(theta_to_elo(diff)), 1 / (1 + np.exp(-diff)), rtol=1e-14)


def _pl_negloglik_full_orders(free, orders):
    """Independent oracle for full orders (column 0 = winner), item 0 pinned at 0."""
    theta = np.concatenate([[0.0], free])
    t = theta[orders]
    total = 0.0
    for j in range(orders.shape[1] - 1):
        total += np.sum(t[:, j] - logsumexp(t[:, j:], axis=1))
    return -total


def _simulate_4team_games(rng, theta, n_games):
    items = np.array([rng.choice(theta.size, 4, replace=False) for _ in range(n_games)])
    places = simulate_plackett_luce(theta[items], rng)
    return items, places


def test_plackett_luce_mm_converges_to_scipy_mle():
    rng = np.random.default_rng(4)
    true = np.array([0.6, 0.3, 0.2, 0.0, -0.1, -0.3, -0.7, 0.1])
    items, places = _simulate_4team_games(rng, true, 1500)
    orders = np.take_along_axis(items, np.argsort(places, axis=1), axis=1)
    fit = plackett_luce(items, places, reference=0)
    assert fit.converged
    res = optimize.minimize(_pl_negloglik_full_orders, np.zeros(7), args=(orders,), method="BFGS",
                            options={"gtol": 1e-9})
    np.testing.assert_allclose(fit.theta[1:], res.x, atol=1e-5)
    assert fit.loglik == pytest.approx(-res.fun, abs=1e-8)
    # Same data given as finishing orders (places=None) gives the same fit.
    np.testing.assert_allclose(plackett_luce(orders, reference=0).theta, fit.theta, atol=1e-9)
    # Information matrix = numerical Hessian of the oracle likelihood.
    cov = np.linalg.inv(_numerical_hessian(lambda x: _pl_negloglik_full_orders(x, orders), res.x))
    np.testing.assert_allclose(fit.cov[1:, 1:], cov, rtol=1e-3)


def test_plackett_luce_recovers_known_strengths():
    rng = np.random.default_rng(9)
    true = np.linspace(-0.8, 0.8, 10)
    items, places = _simulate_4team_games(rng, true, 4000)
    fit = plackett_luce(items, places)
    z = (fit.theta - (true - true.mean())) / fit.se
    assert np.all(np.abs(z) < 3.5)
    assert np.mean(z ** 2) < 2.5


def test_plackett_luce_conventions_by_hand():
    theta = np.array([0.5, -0.2, 0.1, 0.9])
    e = np.exp(theta)
    # Full order 3 > 0 > 2 > 1.
    full = np.log(e[3] / e.sum()) + np.log(e[0] / (e[0] + e[1] + e[2])) + np.log(e[2] / (e[2] + e[1]))
    assert plackett_luce_loglik(theta, [[0, 1, 2, 3]], [[2, 4, 3, 1]]) == pytest.approx(full)
    # Winner only (top-1 partial ranking): the tied rest contributes nothing.
    assert plackett_luce_loglik(theta, [[0, 1, 2, 3]], [[2, 2, 2, 1]]) == pytest.approx(np.log(e[3] / e.sum()))
    # Tie in the middle (Breslow): 0 and 2 share second place, chosen from {0, 1, 2}.
    tie = np.log(e[3] / e.sum()) + np.log(e[0] * e[2] / (e[0] + e[1] + e[2]) ** 2)
    assert plackett_luce_loglik(theta, [[0, 1, 2, 3]], [[2, 3, 2, 1]]) == pytest.approx(tie)
    # Three-player game in a four-slot table (-1 = empty slot).
    three = np.log(e[1] / (e[1] + e[2] + e[3])) + np.log(e[3] / (e[2] + e[3]))
    assert plackett_luce_loglik(theta, [[-1, 1, 2, 3]], [[0, 1, 3, 2]]) == pytest.approx(three)
    # A constant shift changes nothing.
    assert plackett_luce_loglik(theta + 5, [[0, 1, 2, 3]], [[2, 4, 3, 1]]) == pytest.approx(full)


def test_plackett_luce_on_two_player_games_is_bradley_terry():
    wins = _baseball_wins()
    games = np.array([[i, j] for i in range(7) for j in range(7) for _ in range(int(wins[i, j]))])
    pl, bt = plackett_luce(games, reference=6), bradley_terry(wins, reference=6)
    np.testing.assert_allclose(pl.theta, bt.theta, atol=1e-8)
    np.testing.assert_allclose(pl.se, bt.se, atol=1e-8)


def test_plackett_luce_with_partial_and_tied_games_matches_scipy():
    rng = np.random.default_rng(21)
    true = np.array([0.4, 0.0, -0.3, 0.2, -0.1, 0.5])
    items, places = _simulate_4team_games(rng, true, 800)
    places[:200, :] = np.where(places[:200] == 1, 1, 2)      # winner only
    places[200:300] = np.minimum(places[200:300], 3)          # last two tied (unranked remainder)
    places[300:400] = np.where(places[300:400] == 3, 2, places[300:400])  # 2nd/3rd tied (Breslow)
    fit = plackett_luce(items, places, reference=0)

    def negll(free):
        return -plackett_luce_loglik(np.concatenate([[0.0], free]), items, places)

    res = optimize.minimize(negll, np.zeros(5), method="BFGS", options={"gtol": 1e-9})
    np.testing.assert_allclose(fit.theta[1:], res.x, atol=1e-5)


def test_plackett_luce_existence_check():
    items = np.array([[0, 1, 2, 3]] * 5)
    with pytest.raises(ValueError, match="strongly connected"):
        plackett_luce(items)  # item 0 always wins


def _composition_data(rng, n_cards=12, n_games=1500, team_size=3):
    beta = rng.normal(0.0, 0.5, n_cards)
    beta -= beta.mean()
    teams = np.zeros((4 * n_games, n_cards))
    for t in range(4 * n_games):
        teams[t, rng.choice(n_cards, team_size, replace=False)] = 1.0
    items = np.arange(4 * n_games).reshape(n_games, 4)
    places = simulate_plackett_luce((teams @ beta)[items], rng)
    return beta, teams, items, places


def test_composition_model_recovers_card_ratings_with_calibrated_errors():
    rng = np.random.default_rng(17)
    beta, teams, items, places = _composition_data(rng, n_games=3000)
    fit = composition_strengths(teams, items, places, l2=0.1)
    assert fit.converged
    assert fit.beta.sum() == pytest.approx(0.0, abs=1e-9)  # equal team sizes: centred contrasts
    z = (fit.beta - beta) / fit.se
    assert np.all(np.abs(z) < 3.5) and np.mean(z ** 2) < 2.5
    strength, se = fit.team_strength(teams[:3])
    np.testing.assert_allclose(strength, teams[:3] @ fit.beta)
    assert np.all(se > 0)


def test_composition_model_matches_scipy_penalised_optimum_and_bootstrap():
    rng = np.random.default_rng(23)
    _, teams, items, places = _composition_data(rng, n_cards=8, n_games=800)
    teams[::5, 0] += 1.0  # unequal team sizes: the common level is identified too
    l2 = 0.5
    fit = composition_strengths(teams, items, places, l2=l2, bootstrap=25,
                                rng=np.random.default_rng(0))

    def objective(b):
        return -plackett_luce_loglik(teams @ b, items, places) + 0.5 * l2 * b @ b

    res = optimize.minimize(objective, np.zeros(8), method="BFGS", options={"gtol": 1e-9})
    np.testing.assert_allclose(fit.beta, res.x, atol=1e-5)
    cov = np.linalg.inv(_numerical_hessian(objective, res.x))
    np.testing.assert_allclose(fit.cov, cov, rtol=1e-3, atol=1e-8)
    # The parametric bootstrap agrees with the Hessian-based SEs (25 replicates: within 45 %).
    np.testing.assert_allclose(fit.bootstrap_se, fit.se, rtol=0.45)
    with pytest.raises(ValueError):
        composition_strengths(teams, items, places, bootstrap=2)


# --- Games that share a board or a deal: the cluster-robust covariance (issue #19) -------------
def _shared_deal_games(rng, beta, deals, per_deal, share, team_size=3):
    """``per_deal`` games of the same four teams per deal; each game copies the deal's first
    result with probability ``share`` (shared board and dice decide it), else is a fresh
    Plackett-Luce draw. Every game's marginal law is exactly Plackett-Luce(beta), so beta is the
    truth, while games of one deal are correlated."""
    teams = np.zeros((4 * deals, beta.size))
    for t in range(4 * deals):
        teams[t, rng.choice(beta.size, team_size, replace=False)] = 1.0
    items = np.repeat(np.arange(4 * deals).reshape(deals, 4), per_deal, axis=0)
    places = simulate_plackett_luce((teams @ beta)[items], rng)
    copy = rng.random(items.shape[0]) < share
    places = np.where(copy[:, None], np.repeat(places[::per_deal], per_deal, axis=0), places)
    return teams, items, places, np.repeat(np.arange(deals), per_deal)


def test_clustered_composition_intervals_are_calibrated_for_shared_deals():
    """200 replications of 60 deals x 8 games (30 % of games decided by the deal): the 95 %
    t intervals of the board-clustered sandwich cover 93-97 % (two-sided 99.9 % binomial band)
    with z-spread 0.9-1.1; the model-based (J + l2 I)^-1 does not (measured: 83 %, 1.40).

    Power against the mutation it exists to catch (the clustering dropped, so the intervals are
    the model-based ones, 83 %): P(1,600 intervals cover >= 93 %) = 3e-32, so the test fails
    with probability > 0.9999; it checks that on its own replications (the last line)."""
    from scipy.stats import binom

    rng = np.random.default_rng(3)
    beta = rng.normal(0.0, 0.5, 8)
    beta -= beta.mean()
    rng = np.random.default_rng(5)
    out = {True: ([], []), False: ([], [])}
    for _ in range(200):
        teams, items, places, deal = _shared_deal_games(rng, beta, 60, 8, 0.3)
        for clustered in (True, False):
            fit = composition_strengths(teams, items, places, l2=0.01,
                                        clusters=deal if clustered else None)
            lo, hi = fit.interval(0.95)
            out[clustered][0].append((fit.beta - beta) / fit.se)
            out[clustered][1].append((lo <= beta) & (beta <= hi))
    n = 200 * beta.size
    band = binom.ppf([0.0005, 0.9995], n, 0.95) / n
    coverage, spread = np.mean(out[True][1]), np.std(out[True][0])
    assert 0.93 <= coverage <= 0.97 and band[0] <= coverage <= band[1], coverage
    assert 0.9 <= spread <= 1.1, spread
    assert fit.df is None and fit.n_clusters == 0
    assert np.mean(out[False][1]) < 0.9 and np.std(out[False][0]) > 1.2


def test_the_clusters_jackknife_is_the_leave_one_out_refits_in_one_step():
    """``jackknife=True``: the covariance of the leave-one-cluster-out fits (CV3J, scaled by
    (G-1)/G), each taken one Newton step from the full fit (sim/analysis/composition.py). Slow
    reference: the same covariance from G exact refits. On 8 cards over 30 deals of 16 games,
    60 % of each deal's games decided by the deal, each card's variance within 6 % of the
    refits' (measured here 0.99-1.00; 0.97-1.02 on the ladder's design at 12 boards), the
    estimate unchanged, t on G - 1 df; and its standard errors are larger than the sandwich's
    on few clusters that differ strongly (here 1.06-1.09x; the reason it exists)."""
    rng = np.random.default_rng(21)
    beta = rng.normal(0.0, 0.5, 8)
    beta -= beta.mean()
    teams, items, places, deal = _shared_deal_games(rng, beta, 30, 16, 0.6)
    jack = composition_strengths(teams, items, places, l2=0.01, clusters=deal, jackknife=True)
    drops = np.array([composition_strengths(teams, items[deal != d], places[deal != d],
                                            l2=0.01).beta for d in range(30)])
    spread = drops - drops.mean(axis=0)
    exact = 29 / 30 * spread.T @ spread
    np.testing.assert_allclose(np.diag(jack.cov), np.diag(exact), rtol=0.06)
    sandwich = composition_strengths(teams, items, places, l2=0.01, clusters=deal)
    np.testing.assert_allclose(jack.beta, sandwich.beta)
    assert jack.df == sandwich.df == 29 and jack.n_clusters == 30
    assert np.mean(jack.se / sandwich.se) > 1.0
    with pytest.raises(ValueError, match="at least 2 clusters"):
        composition_strengths(teams, items, places, clusters=np.zeros(len(items)),
                              jackknife=True)
    # each cluster's information is the fit's information of that cluster's games alone (the
    # grouping; the formula: tests/test_analysis_composition.py), in chunks or not,
    # and they sum to the fit's
    from sim.analysis.composition import _cluster_information, _composition_terms, _stages

    idx, _, risk, chosen, mult = _stages(items, places)
    per_cluster = _cluster_information(jack.beta, teams, idx, risk, mult, deal, 30, chunk=5)
    for d in (0, 7, 29):
        own = deal == d
        np.testing.assert_allclose(
            per_cluster[d], _composition_terms(jack.beta, teams, idx[own], risk[own],
                                               chosen[own], mult[own])[2], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(per_cluster.sum(axis=0),
                               _composition_terms(jack.beta, teams, idx, risk, chosen, mult)[2],
                               rtol=1e-10, atol=1e-10)


def test_clustered_composition_fit_labels_and_independent_games():
    """The sandwich depends on the partition only (any labels); with one game per cluster and
    independent games it agrees with the model-based covariance (same model, 2,000 games:
    standard errors within 15 %); the estimate itself never changes."""
    rng = np.random.default_rng(11)
    beta, teams, items, places = _composition_data(rng, n_cards=8, n_games=2000)
    model = composition_strengths(teams, items, places, l2=0.1)
    per_game = composition_strengths(teams, items, places, l2=0.1, clusters=np.arange(2000))
    np.testing.assert_allclose(per_game.beta, model.beta)
    np.testing.assert_allclose(per_game.se, model.se, rtol=0.15)
    assert per_game.df == 1999 and per_game.n_clusters == 2000
    boards = np.arange(2000) % 50
    a = composition_strengths(teams, items, places, l2=0.1, clusters=boards)
    b = composition_strengths(teams, items, places, l2=0.1,
                              clusters=np.array([f"board-{k:03d}" for k in (49 - boards)]))
    np.testing.assert_allclose(a.cov, b.cov, rtol=1e-12, atol=1e-15)
    assert a.quantile(0.95) == pytest.approx(2.0096, abs=1e-4)  # t on 49 df
    with pytest.raises(ValueError, match="one label per observation"):
        composition_strengths(teams, items, places, clusters=np.zeros(5))
