"""The table of hit counts behind greedy's kill tables (sim/combat/hits.py, ``Static.hits``)
against exact binomial probabilities (fractions), for the shipped defense die and every
threshold.

Rule: "defense stat plus 2": a defense die at or below the threshold misses, so each of n
attacks hits with chance (die - threshold) / die, independently (one defense roll per attack).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from sim.combat.hits import hit_table
from sim.engine.state.static_tables import MAX_ATTACKS
from tests._engine_kit import CATALOGUE, setup_for

RULES = CATALOGUE.rules


def test_each_entry_is_the_binomial_probability_of_that_many_hits():
    top = RULES.max_defense + RULES.defense_margin
    table = hit_table(RULES.defense_die, top, MAX_ATTACKS)
    assert table.shape == (top + 1, MAX_ATTACKS + 1, MAX_ATTACKS + 1)
    for threshold in range(top + 1):
        p = Fraction(max(RULES.defense_die - threshold, 0), RULES.defense_die)
        for n in range(MAX_ATTACKS + 1):
            exact = [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]
            assert np.allclose(table[threshold, n, :n + 1], [float(x) for x in exact],
                               rtol=1e-12, atol=1e-15)
            assert not table[threshold, n, n + 1:].any()  # no more hits than attacks


def test_the_board_tables_hold_it_for_the_rules_die():
    S = setup_for(3).static
    top = RULES.max_defense + RULES.defense_margin
    assert np.array_equal(S.hits, hit_table(RULES.defense_die, top, MAX_ATTACKS))
    # threshold 0: every face beats it, so every attack hits (the recurrence's q = 0 branch)
    assert S.hits[0, 3].tolist()[:4] == [0.0, 0.0, 0.0, 1.0]
