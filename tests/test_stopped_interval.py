"""The drift gate's interval where it stops (sim/analysis/stopped_interval.py,
sim/runner/drift_interval.py): its paths run the gate's own rule at the gate's own looks, its
path model splits the clustered covariance as stated, and with a single look it is the
fixed-size interval. Its coverage under planted drifts is checked in
tests/test_drift_suite_level.py."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sim.analysis import stopped_interval as si
from sim.analysis.paired import OPEN, paired_drift, paired_llr
from sim.analysis.ratings import ELO_PER_NAT
from sim.analysis.sequential import wald_bounds
from sim.runner import drift
from sim.runner.drift_interval import gate_looks, gate_rule

from tests.test_drift_suite_level import RATES, _shipped_suite


def _planted_games(n, boards, spread, lift, seed):
    """Paired winners before/after on ``boards`` boards (each favouring teams by N(0,
    ``spread``) in log-odds), today's first team ``lift`` nats stronger: (values before,
    values after, board of each game)."""
    from sim.analysis.fairness import game_values

    rng = np.random.default_rng(seed)
    board = np.arange(n) % boards
    effect = rng.normal(0.0, spread, (boards, 4))

    def draw(shift):
        u = np.log(RATES)[None, :] + effect[board] + shift
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        return game_values((rng.random(n)[:, None] > np.cumsum(p, axis=1)).sum(axis=1))

    return draw(0.0), draw(np.array([lift, 0, 0, 0])), board


def test_the_paths_decide_as_the_gate_s_test_does():
    """The paths' decision (either side's LLR at Wald's upper bound, or both at the lower) is
    sim.analysis.paired's: over a grid of rates, changes and variances, against paired_llr."""
    delta = 70 / ELO_PER_NAT
    lower, upper = wald_bounds(0.0125 / 2, 0.05)
    rule = si.GateRule(np.array([1000]), delta, (lower, upper))
    px, mu, var = np.meshgrid([0.05, 0.15, 0.33, 0.6], np.linspace(-0.12, 0.12, 49),
                              [1e-5, 1e-4, 4e-4, 2e-3], indexing="ij")
    got = si._decided(px, px + mu, var, rule)
    expit = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
    for idx in np.ndindex(px.shape):
        p, m, v = px[idx], mu[idx], var[idx]
        base = np.log(p / (1 - p))
        up = paired_llr(m, v, expit(base + delta) - p)
        down = paired_llr(m, v, expit(base - delta) - p)
        assert got[idx] == (up >= upper or down >= upper or (up <= lower and down <= lower)), idx
    assert 0 < got.mean() < 1


@pytest.mark.parametrize("cap", [4096, 1500, 600])
def test_the_looks_are_the_gate_s(monkeypatch, cap):
    """gate_looks gives the game counts at which the gate's round loop decides (after every
    round from min_games on, the last round cut at the cap, a single look when the cap is
    under min_games)."""
    suite, exp, _, board, n_boards, alpha = _shipped_suite()
    rng = np.random.default_rng(1)
    seen = []
    real = drift._decide_all

    def never_decided(before, after, board, suite, alpha, exact=False):
        seen.append(before.size)
        return [replace(t, decision=OPEN) for t in real(before, after, board, suite, alpha, exact)]

    monkeypatch.setattr(drift, "_decide_all", never_decided)
    monkeypatch.setattr(drift, "_games", lambda arena, start, stop:
                        {"winner_team": rng.integers(0, 4, stop - start)})
    recorded = {"winner_team": rng.integers(0, 4, cap), "games": None}
    drift._gate_rounds(exp, suite, recorded, cap, None, None, alpha)
    assert list(gate_looks(suite, cap)) == seen
    assert gate_rule(suite, cap, alpha).bounds == wald_bounds(alpha / 2, suite.beta)


def test_the_path_model_splits_the_clustered_covariance():
    """The boards' part plus the games' part over n is the clustered (CR1) covariance of the
    means (sim.analysis.paired.cluster_covariance) wherever the split needs no clipping; the
    games' part is the pooled within-board covariance (a slow loop over boards)."""
    from sim.analysis.paired import cluster_covariance

    before, after, board = _planted_games(2048, 64, 0.8, 0.3, 3)
    model = si.path_model(before, after, board)
    values = np.concatenate([before, after], axis=1)
    _, clustered, _ = cluster_covariance(values, board)
    within = sum(((values[board == b] - values[board == b].mean(0)).T
                  @ (values[board == b] - values[board == b].mean(0))) for b in range(64))
    np.testing.assert_allclose(model.game_cov, within / (2048 - 64), atol=1e-12)
    recombined = model.board_cov + model.game_cov / 2048
    assert np.linalg.eigvalsh(model.board_cov).min() > -1e-12
    # the clipping moves the sum by no more than the negative part it removed
    gap = np.linalg.eigvalsh(clustered - model.game_cov / 2048)
    assert np.abs(recombined - clustered).max() <= -gap[gap < 0].sum() + 1e-12
    np.testing.assert_allclose(model.before, before.mean(0))
    np.testing.assert_allclose(model.after, after.mean(0))


def test_with_one_look_it_is_the_fixed_size_interval():
    """A rule with a single look cannot select where it stops, so ordering its outcomes gives
    the ordinary interval and the ordinary estimate: each end within 6 % of the width of
    paired_drift's interval (t on G - 1 df against the paths' normal, and 2,000 paths' tail
    quantiles), the median-unbiased change within 2 % of it from the estimate."""
    before, after, board = _planted_games(2048, 64, 0.6, 0.4, 4)
    rule = si.GateRule(np.array([2048]), 70 / ELO_PER_NAT, wald_bounds(0.00625, 0.05))
    ordered = si.ordered_elo_changes(before, after, board, rule, (0.025, 0.975))
    unbiased = si.median_unbiased_elo_changes(before, after, board, rule)
    for k, (lo, hi) in enumerate(ordered):
        test = paired_drift(before[:, k], after[:, k], board, delta_elo=70, alpha=0.0125,
                            beta=0.05)
        fixed = test.elo_interval
        width = fixed[1] - fixed[0]
        assert abs(lo - fixed[0]) < 0.06 * width and abs(hi - fixed[1]) < 0.06 * width, (
            k, (lo, hi), fixed)
        assert abs(unbiased[k] - test.elo_change) < 0.02 * width, (k, unbiased[k], test)


def test_with_the_gate_s_looks_the_change_moves_against_where_it_stopped():
    """With the gate's looks, a team whose change sits just past where its test decides
    "drift" (the rule stops as soon as a change looks this large, so a path stopping here has
    most likely overshot) gets a median-unbiased change nearer zero than its estimate; a team
    with no spread keeps its estimate."""
    before, after, board = _planted_games(1024, 128, 0.3, 0.5, 6)
    rule = si.GateRule(gate_looks(_shipped_suite()[0], 4096), 70 / ELO_PER_NAT,
                       wald_bounds(0.00625, 0.05))
    unbiased = si.median_unbiased_elo_changes(before, after, board, rule)
    estimate = [paired_drift(before[:, k], after[:, k], board, delta_elo=70, alpha=0.0125,
                             beta=0.05) for k in range(4)]
    assert estimate[0].decision != OPEN and estimate[0].elo_change > 0
    assert 0 < unbiased[0] < estimate[0].elo_change


def test_games_replayed_alike_keep_their_change_and_the_result_is_deterministic():
    """A team whose games all replayed alike keeps its change (no spread to correct); the
    others' changes are the same on every call (fixed SeedSequence)."""
    before, after, board = _planted_games(1024, 32, 0.6, 0.4, 5)
    after[:, 1] = before[:, 1]
    rule = si.GateRule(gate_looks(_shipped_suite()[0], 1024), 70 / ELO_PER_NAT,
                       wald_bounds(0.00625, 0.05))
    first = si.median_unbiased_elo_changes(before, after, board, rule)
    assert first[1] == 0.0
    assert first == si.median_unbiased_elo_changes(before, after, board, rule)
    assert all(np.isfinite(first))
