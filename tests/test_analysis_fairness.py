"""The fairness verdict: fair, unfair (with the favoured team named) or open, with its error rate
controlled although it is checked after every round (Bonferroni over looks and teams)."""

from __future__ import annotations

import numpy as np
from scipy import stats

from sim.analysis.fairness import FAIR, OPEN, UNFAIR, fairness_verdict, game_values


def duplicate_blocks(p, blocks, rng, seat_effect=(0.0, 0.0, 0.0, 0.0)):
    """Simulated duplicate play: ``blocks`` x 4 rotations, team k wins with prob. ~ p[k] (+ seat)."""
    out = np.zeros((blocks, 4, 4))
    for b in range(blocks):
        for r in range(4):
            w = np.array([p[k] * np.exp(seat_effect[(k + r) % 4]) for k in range(4)])
            out[b, r, rng.choice(4, p=w / w.sum())] = 1.0
    return out


def test_game_values_share_games_without_a_winner():
    v = game_values(np.array([2, -1, 0]))
    np.testing.assert_allclose(v.sum(axis=1), 1.0)
    assert v[0, 2] == 1 and v[2, 0] == 1 and np.allclose(v[1], 0.25)


def test_clear_cases_are_settled_and_named():
    rng = np.random.default_rng(1)
    fair = fairness_verdict(duplicate_blocks([0.25] * 4, 3000, rng), tolerance=0.05)
    assert fair.status == FAIR and "Fair" in fair.text
    unfair = fairness_verdict(duplicate_blocks([0.55, 0.15, 0.15, 0.15], 300, rng),
                              names=["Reds", "Blues", "Greens", "Golds"])
    assert unfair.status == UNFAIR and "Reds is favoured" in unfair.text
    few = fairness_verdict(duplicate_blocks([0.25] * 4, 10, rng))
    assert few.status == OPEN and "Not settled" in few.text


def test_sequential_false_alarm_rate_is_at_most_alpha():
    """Exactly fair teams, checked after each of 10 rounds of 25 blocks: the share of runs ever
    declared unfair stays below alpha = 0.05 (one-sided binomial test against alpha, p > 0.01)."""
    rng = np.random.default_rng(7)
    runs, looks, alarms = 200, 10, 0
    for _ in range(runs):
        data = duplicate_blocks([0.25] * 4, 25 * looks, rng, seat_effect=(0.3, 0.0, -0.1, -0.2))
        for look in range(1, looks + 1):
            v = fairness_verdict(data[: 25 * look], max_looks=looks)
            if v.status == UNFAIR:
                alarms += 1
                break
    assert stats.binomtest(alarms, runs, 0.05, alternative="greater").pvalue > 0.01
