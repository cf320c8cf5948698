"""The Numba Monte Carlo sampler against the exact tables, and its seeding guarantees.

Statistical test: Pearson chi-square of 200,000 sampled damages against the exact pmf, bins
pooled to >= 5 expected, fixed seeds, rejecting at p < 0.001. With fixed seeds the outcome is
deterministic; ``test_chi_square_detects_a_wrong_die`` shows the test has the power to fail.

Power (issue #27 item 4), against the mutation each test exists to catch, computed with the
noncentral chi-square: pooling the bins as ``tests.stats.chi_square_pvalue`` does (>= 5
expected under the exact pmf p0), the sampled law p1 gives lambda = n * sum (p1 - p0)^2 / p0 on
df = bins - 1, and power = P(ncx2(df, lambda) > chi2.ppf(1 - 0.001, df)). The arithmetic for
every case is in each test's docstring; the smallest is 0.9997.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from sim.combat.exact import damage_distribution
from scipy import stats

from sim.combat.lanes import (_TEN_FIELD, _TEN_MAX_FACES, _TEN_ONES, _TEN_SUM, _nine_at_least,
                              _ten_lanes, _word_lanes, damage_reject, damage_throws, lane_reject,
                              lane_rolls, lane_throws, swar_hits)
from sim.combat.sampler import CHUNK, sample_damage
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
    16-bit lane roller of the fast path and the one-word roller of the advantage path.

    Power against a face never drawn (a range off by one: the die rolls 1..faces-1): the
    chi-square has lambda = n / (faces - 1), 80 on df 999 for a D1000 (n = 80,000), power only
    0.094; so every face must also be drawn at least once, which that mutation fails surely
    (power 1) and a fair die fails with probability <= faces * exp(-n / faces) = 1.8e-32
    (D1000; smaller for every other die). A face off the die fails the range check (power 1)."""
    n = 60 * faces + 20_000
    drawn = lane_rolls(faces, n, seed=faces) if roller == "lane" else rolls(faces, n, seed=faces)
    assert drawn.min() >= 1 and drawn.max() <= faces
    assert np.bincount(drawn, minlength=faces + 1)[1:].min() > 0  # every face drawn
    pmf = np.r_[0.0, np.full(faces, 1.0 / faces)]
    assert chi_square_pvalue(drawn, pmf) > ALPHA


def test_swar_lane_compare_matches_numpy_on_every_value_and_bound():
    """The 9-bit-lane ">=" (a carry into each lane's guard bit) agrees with a plain comparison for
    every 8-bit value in every lane against every bound 0..256, beside all sorts of neighbours (a
    carry leaking between lanes would show as a wrong flag)."""
    i = np.arange(256)
    values = np.stack([(i + 37 * lane) % 256 for lane in range(7)])  # lane x word
    words = np.zeros(256, np.uint64)
    for lane in range(7):
        words |= values[lane].astype(np.uint64) << np.uint64(9 * lane)
    for bound in range(257):
        flags = np.array([int(_nine_at_least(w, bound)) for w in words], dtype=np.uint64)
        expected = np.zeros(256, np.uint64)
        for lane in range(7):
            expected |= (values[lane] >= bound).astype(np.uint64) << np.uint64(9 * lane + 8)
        np.testing.assert_array_equal(flags, expected)


@numba.njit
def _lane_faces(faces, reject_below, lane):
    """Accepted lane values per face, each of the 2**16 values placed alone in ``lane``."""
    n = np.uint64(faces)
    rb = np.uint64(reject_below) * np.uint64(0x0000000100000001)
    counts = np.zeros(faces, np.int64)
    for v in range(1 << 16):
        word = np.uint64(v) << np.uint64(16 * lane)
        f, _, rejected = _word_lanes(word, n, rb, np.uint64(0))
        if rejected == 0:
            counts[(f & np.uint64(0xFFFFFFFF)) + (f >> np.uint64(32))] += 1
    return counts


@pytest.mark.parametrize("faces", [1, 2, 6, 7, 12, 20, 30, 1000, 32767, 32768])
def test_lane_map_is_exactly_uniform_in_every_lane(faces):
    """Exhaustive: in each of a word's four 16-bit lanes, the multiply-shift map with the mirrored
    rejection (low bits >= 2**16 - 2**16 mod faces) leaves every face exactly 2**16 // faces of
    the 65536 lane values — an exact, not a statistical, uniformity check."""
    (reject_below,) = lane_reject([faces])
    for lane in range(4):
        counts = _lane_faces(faces, reject_below, lane)
        assert (counts == (1 << 16) // faces).all(), (lane, np.unique(counts))


@pytest.mark.parametrize("faces", [2, 7, 30, 1000])
@pytest.mark.parametrize("count", [0, 2, 4, 5, 8, 9, 17])
def test_lane_dice_sums_follow_the_convolution(faces, count):
    """The sum of ``count`` lane dice follows the exact pmf of a sum of independent fair dice
    (chi-square, p >= 0.001): every lane of both words of a block, and blocks after the first,
    are dice; masked lanes add nothing.

    Power against a lane dropped or a masked lane counted (the sum of count - 1 or count + 1
    dice): lambda >= 10^3 on every case (100,000 sums), power 1.0 to double precision."""
    above, total = lane_throws(count, faces, 0, 100_000, seed=count * 1009 + faces)
    assert (above == count).all()
    pmf = np.array([1.0])
    for _ in range(count):
        pmf = np.convolve(pmf, np.r_[0.0, np.full(faces, 1.0 / faces)])
    if count == 0:
        assert (total == 0).all()
        return
    assert chi_square_pvalue(total, pmf) > ALPHA


@pytest.mark.parametrize("count,faces,threshold", [(3, 300, 150), (8, 1000, 990), (11, 12, 4),
                                                   (20, 300, 7)])
def test_lane_dice_count_above_the_threshold_is_binomial(count, faces, threshold):
    """Dice above ``threshold`` (the hit count of a defense die too large for byte lanes):
    Binomial(count, (faces - threshold) / faces), chi-square p >= 0.001.

    Power against the threshold off by one (p = (faces - threshold + 1) / faces): the weakest
    case, 3 dice of a D300 above 150 (p 0.5 against 0.50333), has lambda = 13.3 on df 3 with
    100,000 throws (power 0.45), so 400,000 are thrown: lambda = 53.3, power 0.9997 (the other
    cases: lambda >= 323, power 1.0)."""
    above, _ = lane_throws(count, faces, threshold, 400_000, seed=count + faces + threshold)
    p = (faces - threshold) / faces
    assert chi_square_pvalue(above, stats.binom.pmf(np.arange(count + 1), count, p)) > ALPHA


@numba.njit
def _ten_faces(faces, reject_below, lane):
    """Accepted 10-bit lane values per face, each of the 2**10 values placed alone in ``lane``."""
    n = np.uint64(faces)
    rb = np.uint64(reject_below) * _TEN_ONES
    counts = np.zeros(faces, np.int64)
    for v in range(1 << 10):
        f, rejected = _ten_lanes(np.uint64(v) << np.uint64(10 * lane), n, rb)
        if rejected == 0:
            counts[(((f >> np.uint64(10)) * _TEN_ONES) >> _TEN_SUM) & _TEN_FIELD] += 1
    return counts


@pytest.mark.parametrize("faces", [1, 2, 6, 7, 12, 20, 30, 57, _TEN_MAX_FACES])
def test_ten_bit_lane_map_is_exactly_uniform_in_every_lane(faces):
    """Exhaustive, as for the 16-bit lanes: in each of a word's six 10-bit lanes (the damage dice
    of up to 64 faces), every face keeps exactly 2**10 // faces of the 1024 lane values."""
    (reject_below,) = damage_reject([faces])
    assert reject_below == (1 << 10) % faces
    for lane in range(6):
        counts = _ten_faces(faces, reject_below, lane)
        assert (counts == (1 << 10) // faces).all(), (lane, np.unique(counts))


@pytest.mark.parametrize("faces", [2, 7, 30, _TEN_MAX_FACES, _TEN_MAX_FACES + 1, 1000])
@pytest.mark.parametrize("count", [0, 1, 6, 7, 12, 13, 25])
def test_damage_dice_sums_follow_the_convolution(faces, count):
    """The damage roller's sum of ``count`` dice follows the exact pmf of a sum of independent
    fair dice (chi-square, p >= 0.001) on both sides of the switch from 10-bit lanes (up to 64
    faces) to 16-bit lanes: every lane of both words of a block, and blocks after the first.

    Power against a lane dropped or a masked lane counted (the sum of count - 1 or count + 1
    dice): lambda >= 10^3 on every case (100,000 sums), power 1.0 to double precision."""
    total = damage_throws(count, faces, 100_000, seed=count * 1013 + faces)
    if count == 0:
        assert (total == 0).all()
        return
    pmf = np.array([1.0])
    for _ in range(count):
        pmf = np.convolve(pmf, np.r_[0.0, np.full(faces, 1.0 / faces)])
    assert chi_square_pvalue(total, pmf) > ALPHA


def test_damage_reject_follows_the_roller_of_each_die():
    """Each die's rejected lane values are those of the lanes it is rolled in, and the sizes the
    lanes cannot take are refused."""
    faces = np.array([1, 6, 30, 64, 65, 1000, 1 << 15])
    expected = [(1 << 10) % f if f <= 64 else (1 << 16) % f for f in faces]
    np.testing.assert_array_equal(damage_reject(faces), expected)
    for bad in (0, (1 << 15) + 1):
        with pytest.raises(ValueError):
            damage_reject([bad])


@pytest.mark.parametrize("attacks,threshold,die", [
    (1, 6, 12), (8, 6, 12), (9, 2, 12), (12, 11, 12), (14, 5, 12), (15, 4, 12), (17, 0, 12),
    (3, 12, 12), (0, 4, 12), (40, 7, 12), (13, 9, 16), (5, 3, 7)])
def test_swar_hit_counts_are_binomial(attacks, threshold, die):
    """Hits of n defense rolls: Binomial(n, (die - threshold)/die) — "If the roll is more than
    your defense stat plus 2, that attack is considered a Hit." (chi-square, p >= 0.001). Covers
    one and several blocks of fourteen, a die with no rejected bytes (D16) and an odd one (D7).

    Power against the threshold off by one (the issue's ``r > threshold`` -> ``>=``): lambda >=
    2,778 (1 attack at threshold 6) on df <= 24, power 1.0 for every case; a sure hit or miss
    (threshold 0 or 12) is checked exactly."""
    hits = swar_hits(attacks, threshold, die, 100_000, seed=attacks * 31 + threshold)
    p = min(max(die - threshold, 0), die) / die
    if attacks == 0:
        assert (hits == 0).all()
        return
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
    """Sampled damage follows the exact distribution (chi-square, p >= 0.001).

    Power against the sampler's threshold off by one (``r > threshold`` -> ``>=``, the issue's
    mutant): the exact pmf at threshold - 1 against this one, 200,000 draws: lambda from 14,172
    (5 attacks, disadvantage, df 71) to 42,848 (df 240): power 1.0 in every case, both scopes."""
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


@pytest.mark.parametrize("defense_die,attacks,defense", [(16, 20, 4), (300, 18, 5)])
def test_monte_carlo_matches_exact_pmf_for_other_defense_dice(rules, defense_die, attacks,
                                                              defense):
    """A defense die that fills bytes exactly (D16) and one too large for byte lanes (D300,
    counted on the 16-bit lane roller), with attacks spanning several blocks (chi-square).

    Power against the threshold off by one: D16 lambda = 39,926 (df 138), power 1.0; D300
    lambda = 138.9 (df 113), power 0.9997."""
    r = with_rules(rules, defense_die=defense_die)
    exact = damage_distribution(attacks, defense, 2, r)
    drawn = sample_damage(attacks, defense, 2, r, seed=defense_die, n=N)
    assert chi_square_pvalue(drawn.damage, exact.pmf) > ALPHA
    se = np.sqrt(exact.p_hit * (1 - exact.p_hit) / (N * attacks))
    assert abs(drawn.hits.mean() / attacks - exact.p_hit) < 4 * se


def test_chi_square_detects_a_wrong_die(rules):
    """Power check: D12 damage sampled, tested against a D11 table, must be rejected (lambda =
    10,331 on df 69 with the damage above 88 pooled into the last bin: power 1.0 at 1e-6)."""
    drawn = sample_damage(8, 4, 2, rules, seed=7, n=N)
    wrong = damage_distribution(8, 4, 2, with_rules(rules, tier_faces=[6, 11, 20, 30]))
    assert chi_square_pvalue(np.minimum(drawn.damage, wrong.pmf.size - 1), wrong.pmf) < 1e-6


def test_mixed_batch_each_row_follows_its_own_matchup(rules):
    """A batch mixing matchups resolves each row with its own attacks, defense and tier.

    Power against the threshold off by one, about 100,000 rows per matchup: lambda >= 14,333
    (df <= 72), power 1.0 for each."""
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


@pytest.mark.parametrize("changes", [{}, {"max_defense": 20, "defense_margin": 0},
                                     {"max_defense": 3, "defense_margin": 5},
                                     {"tier_faces": [2, 64, 65, 1000]}])
def test_plain_batch_kernel_equals_the_general_one(rules, changes):
    """The no-advantage fast kernel rolls exactly the dice the general kernel rolls: its table of
    the defense that hits per stat ("more than your defense stat plus 2", the stat capped at the
    maximum defense) agrees with the general kernel's arithmetic for defense stats from below 0
    to above the cap, under other margins and caps, and dice on both sides of the damage
    roller's switch."""
    from sim.combat.sampler import _resolve_batch

    rules = with_rules(rules, **changes)
    rng = np.random.default_rng(8)
    n = 2 * CHUNK + 5
    attacks = rng.integers(0, 13, n).astype(np.int16)
    defense = rng.integers(-2, 25, n).astype(np.int16)
    tier = rng.integers(1, 5, n).astype(np.int8)
    fast = sample_damage(attacks, defense, tier, rules, seed=21)
    zero = np.zeros(n, np.int8)
    states = seed_states(21, -(-n // CHUNK))
    dmg, hits = _resolve_batch(attacks, defense, np.int64(rules.max_defense),
                               np.int64(rules.defense_margin), tier, zero, zero,
                               rules.tier_faces.astype(np.int64), damage_reject(rules.tier_faces),
                               False, np.int64(rules.defense_die),
                               np.uint64(lane_reject([rules.defense_die])[0]), states,
                               np.int64(CHUNK), np.empty(n, np.int32), np.empty(n, np.int16))
    np.testing.assert_array_equal(fast.damage, dmg)
    np.testing.assert_array_equal(fast.hits, hits)
