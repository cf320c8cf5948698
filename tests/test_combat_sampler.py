"""The Numba Monte Carlo sampler against the exact tables, and its seeding guarantees.

Statistical test: Pearson chi-square of 200,000 sampled damages against the exact pmf, bins
pooled to >= 5 expected, fixed seeds, rejecting at p < 0.001. With fixed seeds the outcome is
deterministic; ``test_chi_square_detects_a_wrong_die`` shows the test has the power to fail.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from sim.combat.exact import damage_distribution
from scipy import stats

from sim.combat.sampler import CHUNK, _bytes_at_least, lane_rolls, sample_damage, swar_hits
from sim.rng import next_u64, rolls, seed_states

from .conftest import with_rules
from .stats import chi_square_pvalue

N = 200_000
ALPHA = 1e-3


@numba.njit
def _first_outputs(s, k):
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    out = np.empty(k, np.uint64)
    for i in range(k):
        out[i], s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
    return out


def test_xoshiro256starstar_known_answer():
    """The generator is xoshiro256** exactly: reference outputs for the state (1, 2, 3, 4)."""
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    assert _first_outputs(state, 4).tolist() == [11520, 0, 1509978240, 1215971899390074240]


@pytest.mark.parametrize("faces", [2, 6, 12, 20, 29, 30, 100, 1000])
@pytest.mark.parametrize("roller", ["lane", "single"])
def test_die_rolls_are_uniform(faces, roller):
    """Every face of a die is equally likely (chi-square against the uniform pmf), for the
    16-bit lane roller of the fast path and the one-word roller of the advantage path."""
    n = 60 * faces + 20_000
    drawn = lane_rolls(faces, n, seed=faces) if roller == "lane" else rolls(faces, n, seed=faces)
    assert drawn.min() >= 1 and drawn.max() <= faces
    pmf = np.r_[0.0, np.full(faces, 1.0 / faces)]
    assert chi_square_pvalue(drawn, pmf) > ALPHA


def test_swar_byte_compare_matches_numpy_on_every_byte_pair():
    """The byte-parallel ">=" agrees with a plain comparison for all 256 x 256 byte pairs."""
    x = np.arange(256, dtype=np.uint64)
    for y in range(256):
        words = np.zeros(32, np.uint64)
        for lane in range(8):  # pack the 256 x values eight to a word
            words |= x[lane::8] << np.uint64(8 * lane)
        ys = np.uint64(y) * np.uint64(0x0101010101010101)
        got = np.array([int(_bytes_at_least(w, ys)) for w in words], dtype=np.uint64)
        for lane in range(8):
            flags = (got >> np.uint64(8 * lane + 7)) & np.uint64(1)
            np.testing.assert_array_equal(flags.astype(bool), x[lane::8] >= y)


@pytest.mark.parametrize("attacks,threshold", [(1, 6), (8, 6), (9, 2), (12, 11), (17, 0), (3, 12)])
def test_swar_hit_counts_are_binomial(attacks, threshold):
    """Hits of n D12 defense rolls: Binomial(n, (12 - threshold)/12) — "If the roll is more than
    your defense stat plus 2, that attack is considered a Hit." (chi-square, p >= 0.001)."""
    hits = swar_hits(attacks, threshold, 12, 100_000, seed=attacks * 31 + threshold)
    p = min(max(12 - threshold, 0), 12) / 12
    if p in (0.0, 1.0):  # a sure miss or a sure hit
        assert (hits == attacks * p).all()
        return
    assert chi_square_pvalue(hits, stats.binom.pmf(np.arange(attacks + 1), attacks, p)) > ALPHA


CASES = [
    # attacks, defense, tier, attacker adv, defender adv
    (8, 4, 2, 0, 0),   # the book's Luffy vs Mario
    (1, 9, 1, 0, 0),   # defense at the cap: only a 12 hits
    (12, 0, 4, 0, 0),
    (5, 3, 3, 1, 0),
    (5, 3, 3, -1, 0),
    (6, 5, 2, 0, 1),
    (6, 5, 2, 0, -1),
    (7, 2, 1, 1, -1),
    (0, 4, 2, 0, 0),
]


@pytest.mark.parametrize("scope", ["per_die", "per_attack"])
@pytest.mark.parametrize("attacks,defense,tier,att_adv,def_adv", CASES)
def test_monte_carlo_matches_exact_pmf(rules, scope, attacks, defense, tier, att_adv, def_adv):
    """Sampled damage follows the exact distribution (chi-square, p >= 0.001)."""
    r = with_rules(rules, advantage_scope=scope)
    exact = damage_distribution(attacks, defense, tier, r, attacker_advantage=att_adv,
                                defender_advantage=def_adv)
    drawn = sample_damage(attacks, defense, tier, r, seed=1234, n=N, attacker_advantage=att_adv,
                          defender_advantage=def_adv)
    if attacks == 0:
        assert not drawn.damage.any()
        return
    assert chi_square_pvalue(drawn.damage, exact.pmf) > ALPHA
    if scope == "per_die" or def_adv == 0:
        se = np.sqrt(exact.p_hit * (1 - exact.p_hit) / (N * attacks))
        assert abs(drawn.hits.mean() / attacks - exact.p_hit) < 4 * se


def test_chi_square_detects_a_wrong_die(rules):
    """Power check: D12 damage sampled, tested against a D11 table, must be rejected."""
    drawn = sample_damage(8, 4, 2, rules, seed=7, n=N)
    wrong = damage_distribution(8, 4, 2, with_rules(rules, tier_faces=[6, 11, 20, 30]))
    assert chi_square_pvalue(np.minimum(drawn.damage, wrong.pmf.size - 1), wrong.pmf) < 1e-6


def test_mixed_batch_each_row_follows_its_own_matchup(rules):
    """A batch mixing matchups resolves each row with its own attacks, defense and tier."""
    rng = np.random.default_rng(5)
    kinds = [(8, 4, 2), (3, 9, 4), (10, 0, 1)]
    pick = rng.integers(0, 3, size=3 * N // 2)
    table = np.array(kinds)
    drawn = sample_damage(table[pick, 0], table[pick, 1], table[pick, 2], rules, seed=99)
    for k, (a, d, t) in enumerate(kinds):
        exact = damage_distribution(a, d, t, rules)
        assert chi_square_pvalue(drawn.damage[pick == k], exact.pmf) > ALPHA


def test_same_seed_same_results_whatever_the_thread_count(rules):
    """Bit-identical results for 1 and 2 threads: chunks, not threads, own the random streams."""
    n = 3 * CHUNK + 17
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = sample_damage(7, 3, 3, rules, seed=42, n=n, attacker_advantage=1)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = sample_damage(7, 3, 3, rules, seed=42, n=n, attacker_advantage=1)
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(one.damage, two.damage)
    np.testing.assert_array_equal(one.hits, two.hits)
    other = sample_damage(7, 3, 3, rules, seed=43, n=n, attacker_advantage=1)
    assert not np.array_equal(one.damage, other.damage)


def test_prefix_is_stable_when_the_batch_grows(rules):
    """Row i's draw depends on the seed and i only, not on the batch size."""
    small = sample_damage(8, 4, 2, rules, seed=3, n=1000)
    big = sample_damage(8, 4, 2, rules, seed=3, n=2 * CHUNK)
    np.testing.assert_array_equal(small.damage, big.damage[:1000])


def test_seed_states_are_spawned_children():
    """Unit i's stream is child i of SeedSequence(root), whatever batch it is drawn in."""
    states = seed_states(11, 5)
    from numpy.random import SeedSequence
    children = SeedSequence(11).spawn(5)
    for row, child in zip(states, children):
        assert row.tolist() == child.generate_state(4, dtype=np.uint64).tolist()
    np.testing.assert_array_equal(seed_states(11, 2, start=3), states[3:])


@pytest.mark.parametrize("bad", [dict(attacks=-1), dict(tier=0), dict(tier=5)])
def test_sampler_rejects_bad_arguments(rules, bad):
    args = dict(attacks=3, defense=2, tier=1) | bad
    with pytest.raises(ValueError):
        sample_damage(args["attacks"], args["defense"], args["tier"], rules, seed=0, n=10)


def test_plain_batch_kernel_equals_the_general_one(rules):
    """The no-advantage fast kernel rolls exactly the dice the general kernel rolls."""
    from sim.combat.sampler import _resolve_batch, lane_reject

    rng = np.random.default_rng(8)
    n = 2 * CHUNK + 5
    attacks = rng.integers(0, 13, n).astype(np.int16)
    defense = rng.integers(0, 12, n).astype(np.int16)
    tier = rng.integers(1, 5, n).astype(np.int8)
    fast = sample_damage(attacks, defense, tier, rules, seed=21)
    zero = np.zeros(n, np.int8)
    states = seed_states(21, -(-n // CHUNK))
    dmg, hits = _resolve_batch(attacks, defense, np.int64(rules.max_defense),
                               np.int64(rules.defense_margin), tier, zero, zero,
                               rules.tier_faces.astype(np.int64), lane_reject(rules.tier_faces),
                               False, np.int64(rules.defense_die),
                               np.uint64(lane_reject([rules.defense_die])[0]), states,
                               np.int64(CHUNK), np.empty(n, np.int32), np.empty(n, np.int16))
    np.testing.assert_array_equal(fast.damage, dmg)
    np.testing.assert_array_equal(fast.hits, hits)
