"""The exact damage tables against brute-force enumeration of every die, and the book's example.

Rules checked: "A Defense Dice will always be a D-12."; "If the roll is more than your defense
stat plus 2, that attack is considered a Hit."; "The maximum defense a character can achieve is 9
— at that ceiling only a rolled 12 will land a hit."; "You roll the Damage Dice as many times as
your Attack Hit."; Advantage "perform any random act twice, and choose the preferable outcome";
Disadvantage "the GM chooses the less preferable outcome".
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from sim.combat.exact import damage_distribution, defense_threshold

from .conftest import with_rules


def _keep(rolls, adv, prefer_high):
    if adv == 0:
        return rolls[0]
    best = max if (adv > 0) == prefer_high else min
    return best(rolls)


def enumerate_pmf(attacks, threshold, faces, defense_die, att_adv, def_adv, scope):
    """P(damage) by walking every possible die outcome with exact fractions."""
    copies_def = 1 if def_adv == 0 else 2
    copies_att = 1 if att_adv == 0 else 2
    pmf = Counter()
    if scope == "per_die":
        def_outcomes = list(itertools.product(range(1, defense_die + 1), repeat=copies_def))
        for def_rolls in itertools.product(def_outcomes, repeat=attacks):
            p_def = Fraction(1, defense_die ** (copies_def * attacks))
            hits = sum(_keep(r, def_adv, prefer_high=False) > threshold for r in def_rolls)
            dmg_outcomes = list(itertools.product(range(1, faces + 1), repeat=copies_att))
            for dmg_rolls in itertools.product(dmg_outcomes, repeat=hits):
                p = p_def * Fraction(1, faces ** (copies_att * hits))
                pmf[sum(_keep(r, att_adv, prefer_high=True) for r in dmg_rolls)] += p
        return pmf
    throws = list(itertools.product(range(1, defense_die + 1), repeat=attacks))
    for def_throws in itertools.product(throws, repeat=copies_def):
        counts = [sum(r > threshold for r in t) for t in def_throws]
        hits = _keep(counts, def_adv, prefer_high=False)
        p_def = Fraction(1, defense_die ** (attacks * copies_def))
        dmg_throws = list(itertools.product(range(1, faces + 1), repeat=hits))
        for dmg in itertools.product(dmg_throws, repeat=copies_att):
            total = _keep([sum(t) for t in dmg], att_adv, prefer_high=True)
            pmf[total] += p_def * Fraction(1, faces ** (hits * copies_att))
    return pmf


CASES = [(a, d, aa, da) for a in (1, 2) for d in (0, 1) for aa in (-1, 0, 1) for da in (-1, 0, 1)]


@pytest.mark.parametrize("scope", ["per_die", "per_attack"])
@pytest.mark.parametrize("attacks,defense,att_adv,def_adv", CASES)
def test_exact_pmf_matches_enumeration_of_every_die(rules, scope, attacks, defense, att_adv, def_adv):
    """Small dice (D5 defense, margin 1, D3 damage) so every outcome can be listed exactly."""
    tiny = with_rules(rules, defense_die=5, defense_margin=1, tier_faces=[3, 4, 5, 6],
                      advantage_scope=scope)
    dist = damage_distribution(attacks, defense, 1, tiny, attacker_advantage=att_adv,
                               defender_advantage=def_adv)
    expected = enumerate_pmf(attacks, defense_threshold(defense, tiny), 3, 5, att_adv, def_adv, scope)
    want = np.zeros(dist.pmf.size)
    for k, p in expected.items():
        want[k] = float(p)
    np.testing.assert_allclose(dist.pmf, want, atol=1e-12)


def test_book_worked_example_luffy_8_tier2_vs_defense_4(rules):
    """"Luffy would throw 8 attacks using his base attack of 8² ... with a defense of 4 his
    threshold is 6 ... That is a 50% dodge rate, so on average 4 of the 8 attacks hit ... each hit
    rolls a D-12 for an average of 6.5 damage. Mario suffers roughly 26 damage.\""""
    dist = damage_distribution(8, 4, 2, rules)
    assert defense_threshold(4, rules) == 6
    assert dist.die == 12
    assert dist.p_hit == pytest.approx(0.5)
    assert dist.mean == pytest.approx(26.0)
    # variance of a compound binomial: n p Var(X) + n p (1-p) E[X]^2
    assert dist.variance == pytest.approx(8 * 0.5 * (143 / 12) + 8 * 0.25 * 6.5**2)


@pytest.mark.parametrize("defense,p_hit", [(0, 10 / 12), (4, 6 / 12), (9, 1 / 12), (12, 1 / 12)])
def test_defense_threshold_and_cap_at_9(rules, defense, p_hit):
    """"The maximum defense a character can achieve is 9 — at that ceiling only a rolled 12 will
    land a hit." Defense above 9 (from buffs) is capped."""
    assert damage_distribution(1, defense, 1, rules).p_hit == pytest.approx(p_hit)


def test_tier_2_is_d12_and_every_tier_has_its_die(rules):
    """"Luffy's base attack is Dice Tier 2, meaning each hit rolls a D-12"; the others are house
    rulings in cards/rules.toml (dice.tier_faces)."""
    assert rules.faces(2) == 12
    for tier in range(1, rules.n_tiers + 1):
        dist = damage_distribution(1, 0, tier, rules)
        faces = rules.faces(tier)
        assert dist.die == faces
        assert dist.mean == pytest.approx(dist.p_hit * (faces + 1) / 2)


def test_pmf_sums_to_one_and_survival_is_tail(rules):
    dist = damage_distribution(10, 3, 4, rules, attacker_advantage=1, defender_advantage=-1)
    assert dist.pmf.sum() == pytest.approx(1.0)
    s = dist.survival()
    assert s[0] == pytest.approx(1.0)
    assert dist.p_at_least(40) == pytest.approx(dist.pmf[40:].sum())
    assert dist.p_at_least(10 * 30 + 1) == 0.0


def test_advantage_helps_and_disadvantage_hurts_the_roller(rules):
    """Advantage chooses "the preferable outcome"; disadvantage the "less preferable"."""
    mean = {a: damage_distribution(6, 4, 2, rules, attacker_advantage=a).mean for a in (-1, 0, 1)}
    assert mean[-1] < mean[0] < mean[1]
    mean = {a: damage_distribution(6, 4, 2, rules, defender_advantage=a).mean for a in (-1, 0, 1)}
    assert mean[1] < mean[0] < mean[-1]
