"""8 Masters' Revenge: hits only when attack exactly equals defense, blocks and counters — exact
and Monte Carlo.

Source: ``../shared/seeds/001_ff90c4d5732b31e1.txt``. The attacker puts a card from its hand next
to its couple in play; "The card that is not adjacent to the new card will be discarded and is
the card that performs the attack". The new couple's "Attack value is equal to the sum of the
numbers in the center", so placing on the left gives (left end) + (new card's inner number) and
on the right (right end) + (inner number). "An attack hits if the attacker's attack value is
exactly equal to the defender's defense value" (the sum of the defender's ends).

The defender then blocks ("a card in play that has the same color as the card with which is
attacked"; "reduce incoming dmg with 1"; a card already blocking cannot block again, and the same
colour again means "2 additional damage") or counters ("a card with a dragon symbol" in play and
one in hand; counters alternate "until one of you no longer has a card with a dragon symbol";
an attacker who cannot answer loses the attack).

House values (``cards/peers.toml``, ``docs/rulings-peers.md``): every card an independent draw
(numbers uniform on 1..values, a uniform colour, a dragon with chance ``dragon_share``), cards may
be turned, a hit deals ``hit_damage``. Policies: the attacker plays a hitting card on the side
whose attacking colour hurts most (the colours in play are public); the defender counters when
it can (it cannot see the attacker's hand), else blocks when it can.
"""

from __future__ import annotations

from itertools import product

import numpy as np
from numba import prange

from sim._jit import njit
from sim.combat.exact import binomial_pmf
from sim.fixed_sums import power
from sim.rng import roll

from .common import CHUNK, PeerDistribution, PeerSamples, chunk_states, uniform01


def card_covers(x: int, y: int, t_left: int, t_right: int, rotate: bool) -> tuple[bool, bool]:
    """Can card (x, y) make the attack hit on the left / right? Unturned, a card put on the left
    faces its right number inward, on the right its left number."""
    if rotate:
        return x == t_left or y == t_left, x == t_right or y == t_right
    return y == t_left, x == t_right


def side_damage(colour: int, e1: int, e2: int, blocking: bool, rules) -> tuple[int, int]:
    """(damage if it lands unblocked, damage after the defender's best block) for an attacking
    card of ``colour`` against defender cards of colours e1 (already blocking if ``blocking``)
    and e2."""
    land = rules.hit_damage + (rules.blocked_colour_penalty if blocking and colour == e1 else 0)
    blockable = colour == e2 or (not blocking and colour == e1)
    return land, max(land - rules.block_reduction, 0) if blockable else land


def counter_odds(hand: int, rules) -> tuple[float, float, float]:
    """(P(the attack is cancelled), P(countered but lands), P(no counter))."""
    q = rules.dragon_share
    in_play = 1 - (1 - q) * (1 - q)  # either of two cards in play
    d = in_play * binomial_pmf(rules.defender_hand, q)   # d[i]: defender can counter i times
    d[0] += 1 - in_play
    a = in_play * binomial_pmf(max(hand - 1, 0), q)      # the attacker's other cards
    a[0] += 1 - in_play
    a_cdf = np.cumsum(a)
    cancel = sum(d[i] * a_cdf[min(i - 1, a.size - 1)] for i in range(1, d.size))
    return float(cancel), float(1 - d[0] - cancel), float(d[0])


def exact(stats: dict, rules) -> PeerDistribution:
    """Exact damage pmf of one attack, over hands, colours and dragons."""
    k, v = stats["hand"], rules.values
    t_left = stats["defense"] - stats["ends"][0]
    t_right = stats["defense"] - stats["ends"][1]
    neither = not_left = not_right = 0.0
    for x, y in product(range(1, v + 1), repeat=2):
        left, right = card_covers(x, y, t_left, t_right, rules.rotate)
        neither += (not left and not right) / v**2
        not_left += (not left) / v**2
        not_right += (not right) / v**2
    p_none = power(neither, k)  # (sim.fixed_sums: the same bits on any CPU)
    sides = {"L": power(not_right, k) - p_none, "R": power(not_left, k) - p_none,
             "LR": 1 - power(not_left, k) - power(not_right, k) + p_none}
    cancel, countered, free = counter_odds(k, rules)
    top = rules.hit_damage + rules.blocked_colour_penalty
    pmf = np.zeros(top + 1)
    pmf[0] += p_none + (1 - p_none) * cancel
    c = rules.colours
    blocking = bool(stats["defender_blocking"])
    for c_left, c_right, e1, e2 in product(range(c), repeat=4):
        w = 1.0 / c**4
        # placing on the left discards (and attacks with) the right card, and vice versa
        on_left = side_damage(c_right, e1, e2, blocking, rules)
        on_right = side_damage(c_left, e1, e2, blocking, rules)
        best = on_left if (on_left[1], on_left[0]) >= (on_right[1], on_right[0]) else on_right
        for avail, p in sides.items():
            land, blocked = {"L": on_left, "R": on_right, "LR": best}[avail]
            pmf[land] += w * p * countered
            pmf[blocked] += w * p * free
    return PeerDistribution(pmf, 1 - p_none, rules.life, float(pmf[rules.life:].sum()),
                            {"p_cancelled": (1 - p_none) * cancel})


# a hot loop kept in one function (docs/performance.md, "Long kernels kept whole")
@njit(parallel=True)
def _attack_batch(n, hand, t_left, t_right, values, rotate, colours, q, defender_hand, blocking,
                  hit, reduction, penalty, states, chunk, out_damage):
    for c in prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        dragon = np.empty(max(hand, 1), np.bool_)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            first_l = -1
            first_r = -1
            for j in range(hand):
                x, s0, s1, s2, s3 = roll(values, s0, s1, s2, s3)
                y, s0, s1, s2, s3 = roll(values, s0, s1, s2, s3)
                u, s0, s1, s2, s3 = uniform01(s0, s1, s2, s3)
                dragon[j] = u < q
                if rotate:
                    cov_l = x == t_left or y == t_left
                    cov_r = x == t_right or y == t_right
                else:
                    cov_l = y == t_left
                    cov_r = x == t_right
                if cov_l and first_l < 0:
                    first_l = j
                if cov_r and first_r < 0:
                    first_r = j
            c_left, s0, s1, s2, s3 = roll(colours, s0, s1, s2, s3)
            c_right, s0, s1, s2, s3 = roll(colours, s0, s1, s2, s3)
            e1, s0, s1, s2, s3 = roll(colours, s0, s1, s2, s3)
            e2, s0, s1, s2, s3 = roll(colours, s0, s1, s2, s3)
            u, s0, s1, s2, s3 = uniform01(s0, s1, s2, s3)
            d_left = u < q     # the attacker's couple
            u, s0, s1, s2, s3 = uniform01(s0, s1, s2, s3)
            d_right = u < q
            u, s0, s1, s2, s3 = uniform01(s0, s1, s2, s3)
            f1 = u < q         # the defender's couple
            u, s0, s1, s2, s3 = uniform01(s0, s1, s2, s3)
            f2 = u < q
            def_dragons = 0
            for _ in range(defender_hand):
                u, s0, s1, s2, s3 = uniform01(s0, s1, s2, s3)
                def_dragons += u < q
            if first_l < 0 and first_r < 0:
                out_damage[i] = 0  # no card makes attack == defense
                continue
            # left placement attacks with the right card's colour, right placement the left's
            land_l = hit + (penalty if blocking and c_right == e1 else 0)
            block_l = c_right == e2 or (not blocking and c_right == e1)
            after_l = max(land_l - reduction, 0) if block_l else land_l
            land_r = hit + (penalty if blocking and c_left == e1 else 0)
            block_r = c_left == e2 or (not blocking and c_left == e1)
            after_r = max(land_r - reduction, 0) if block_r else land_r
            go_left = first_l >= 0 and (first_r < 0 or after_l > after_r
                                        or (after_l == after_r and land_l >= land_r))
            new = first_l if go_left else first_r
            kept_dragon = d_left if go_left else d_right  # the card that stays beside the new one
            att_dragons = 0
            for j in range(hand):
                att_dragons += dragon[j] and j != new
            eff_d = def_dragons if (f1 or f2) else 0
            eff_a = att_dragons if (kept_dragon or dragon[new]) else 0
            if eff_d >= 1:  # the defender counters; the attacker answers while it can
                out_damage[i] = 0 if eff_d > eff_a else (land_l if go_left else land_r)
            else:
                out_damage[i] = after_l if go_left else after_r
    return out_damage


def sample(stats: dict, rules, n: int, seed: int, first_chunk: int = 0) -> PeerSamples:
    """``n`` Monte Carlo attacks, each dealing real cards, colours and dragons, from ``seed``
    (from its chunk ``first_chunk`` on: ``common.chunk_states``)."""
    states = chunk_states(seed, n, first_chunk)
    damage = _attack_batch(
        np.int64(n), np.int64(stats["hand"]), np.int64(stats["defense"] - stats["ends"][0]),
        np.int64(stats["defense"] - stats["ends"][1]), np.int64(rules.values), rules.rotate,
        np.int64(rules.colours), np.float64(rules.dragon_share), np.int64(rules.defender_hand),
        bool(stats["defender_blocking"]), np.int64(rules.hit_damage),
        np.int64(rules.block_reduction), np.int64(rules.blocked_colour_penalty), states,
        np.int64(CHUNK), np.empty(n, np.int64))
    return PeerSamples(damage, damage >= rules.life)
