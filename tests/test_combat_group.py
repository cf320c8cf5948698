"""Group Attack: "Multiple of your characters can choose to attack the same target at once".

The exact kill probability (sequential convolution) is checked against the closed form of a
single attacker, against brute-force sums, and against Monte Carlo with a binomial interval.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.combat.exact import damage_distribution
from sim.combat.group import group_attack, sample_group_kills
from sim.combat.sampler import sample_damage


def test_single_attacker_kill_probability_is_the_tail(rules):
    dist = damage_distribution(8, 4, 2, rules)
    g = group_attack([dist], 30)
    assert g.kill_probability == pytest.approx(dist.p_at_least(30))
    assert g.expected_attackers_used == pytest.approx(1.0)


def test_group_kill_probability_is_tail_of_the_sum(rules):
    """Whatever the order, the target dies iff the summed damage reaches its health."""
    dists = [damage_distribution(a, 4, t, rules) for a, t in ((8, 2), (5, 1), (4, 3))]
    g = group_attack(dists, 60)
    total = np.convolve(np.convolve(dists[0].pmf, dists[1].pmf), dists[2].pmf)
    assert g.kill_probability == pytest.approx(total[60:].sum())
    assert g.killed_by.sum() == pytest.approx(g.kill_probability)
    # "sequential" ruling: a later attacker only spends its action while the target stands
    assert 1.0 < g.expected_attackers_used < 3.0
    declared = group_attack(dists, 60, order="declared")
    assert declared.expected_attackers_used == pytest.approx(3.0)
    assert declared.kill_probability == pytest.approx(g.kill_probability)


def test_group_attack_matches_monte_carlo(rules):
    """Per-attacker kill shares within 4 binomial standard errors of 200,000 simulated groups."""
    specs = ((6, 2), (6, 2), (3, 4))
    dists = [damage_distribution(a, 3, t, rules) for a, t in specs]
    health = 50
    g = group_attack(dists, health)
    n = 200_000
    samples = [sample_damage(a, 3, t, rules, seed=100 + k, n=n).damage
               for k, (a, t) in enumerate(specs)]
    killer = sample_group_kills(samples, health)
    for k in range(len(specs)):
        p = g.killed_by[k]
        assert abs((killer == k).mean() - p) < 4 * np.sqrt(p * (1 - p) / n) + 1e-9
    p = g.kill_probability
    assert abs((killer >= 0).mean() - p) < 4 * np.sqrt(p * (1 - p) / n)


def test_group_attack_rejects_nonsense(rules):
    with pytest.raises(ValueError):
        group_attack([], 10)
    with pytest.raises(ValueError):
        group_attack([damage_distribution(1, 1, 1, rules)], 0)
