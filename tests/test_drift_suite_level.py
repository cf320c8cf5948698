"""The drift gate's false alarms over the whole suite (docs/drift.md): the per-metric sequential
test is calibrated in tests/test_analysis_paired.py, but the gate as shipped judges every team of
a matchup again after each round until all four are decided (sim/runner/drift.py:_gate_rounds),
so a metric that settled "no drift" early can still cross later. Planted truth: no drift, the
shipped suite's bounds and boards, each board favouring teams at random (log-odds sd 0.6), the
baseline's and today's games drawn independently from the same law; the gate's own round loop
runs with the games stubbed. Over 300 suites a false "drift" (exit 1) stays under the suite's
alpha = 5 %: one-sided binomial test, p > 0.01 (the audit of stop 48 measured 6 in 600)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.stats import binomtest

from sim.analysis.paired import DRIFT_DOWN, DRIFT_UP
from sim.catalogue.loader import load_catalogue
from sim.engine.state.fields import POLICY_IDS
from sim.runner import drift
from sim.runner.schedule import schedule

ROOT = Path(__file__).resolve().parents[1]
RATES = np.array([0.33, 0.12, 0.40, 0.15])  # the shipped matchup's teams, roughly


def test_the_gate_as_shipped_keeps_its_suite_alpha_with_no_drift(monkeypatch):
    catalogue = load_catalogue(ROOT / "cards")
    suite = drift.load_suite(ROOT / "experiments" / "drift.toml", catalogue.cards,
                             tuple(POLICY_IDS))
    exp = suite.experiments[0]
    cap = suite.max_games
    board = schedule(exp, 0, cap).board
    n_boards = int(board.max()) + 1
    alpha = suite.alpha / (4 * len(suite.experiments))
    rng = np.random.default_rng(4805)
    state = {}

    def draw(start, stop):
        u = np.log(RATES)[None, :] + state["effect"][board[start:stop]]
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        return (rng.random(stop - start)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)

    monkeypatch.setattr(drift, "_games",
                        lambda arena, start, stop: {"winner_team": draw(start, stop)})
    suites, alarms = 300, 0
    for _ in range(suites):
        state["effect"] = rng.normal(0.0, 0.6, (n_boards, 4))
        recorded = {"winner_team": draw(0, cap), "games": None}
        tests, _, _ = drift._gate_rounds(exp, suite, recorded, cap, None, None, alpha)
        alarms += any(t.decision in (DRIFT_UP, DRIFT_DOWN) for t in tests)
    assert binomtest(alarms, suites, suite.alpha, alternative="greater").pvalue > 0.01, alarms
