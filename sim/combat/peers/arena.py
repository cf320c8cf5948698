"""Arena: The Contest (Boss Versus Boss): d20 strikes against Defense, Bossbane miss damage, the
Overlord reroll and the Ultimate Blast — exact and Monte Carlo.

Source: ``../shared/seeds/003_362dba6ff5520ffe.txt``. An attack is ``strikes`` strikes on one
turn ("Roll strikes separately; if they both hit, apply damage twice"); each strike is one d20
that hits on Defense + ``margin`` or more (house, ``cards/peers.toml``). A hit deals ``damage``, a
miss ``miss_damage`` (the Prisoner's Bossbane Attack: "35 damage; Miss: 15 R-DMG"). An Overlord
rerolls "a die the first time they miss a strike on their turn. If the strike now hits, it deals
-3 damage." With ``charges`` > 0 the attack is instead the chain of Ultimate Blasts those charges
pay for: each costs four, "If the result is 16 or more, the blast misses", a hit deals 70, a miss
"50 nonlethal damage, and you gain a Blast Charge" — so the chain, its damage and the kill chance
(nonlethal damage never takes the last HP) follow a small Markov chain, enumerated exactly.

Why exact here too: the tables are the oracle for the sampler and the numbers compare-systems
prints; Arena's damage is fixed per outcome, so the pmf is a short sum over hit counts.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import prange

from sim._jit import njit
from sim.rng import roll

from .common import CHUNK, PeerDistribution, PeerSamples, chunk_states


def strike_p_hit(defense: int, rules) -> float:
    """Chance one d20 strike hits: the rolls r with r == auto_hit, or r != auto_miss and
    r >= defense + margin."""
    r = np.arange(1, rules.die + 1)
    hit = (r == rules.auto_hit) | ((r != rules.auto_miss) & (r >= defense + rules.margin))
    return float(hit.mean())


def blast_p_hit(rules) -> float:
    """"The target may roll a die. If the result is 16 or more, the blast misses." (the target
    always rolls: a miss only helps it)."""
    return min(max(rules.blast_miss_from - 1, 0), rules.die) / rules.die


def _strike_pmf(stats: dict, rules) -> np.ndarray:
    """Total damage of the strikes; the state is whether the Overlord reroll is spent."""
    p = strike_p_hit(stats["defense"], rules)
    hit, miss = stats["damage"], stats["miss_damage"]
    rerolled = max(hit - rules.overlord_penalty, 0)
    top = stats["strikes"] * max(hit, miss) + 1
    fresh = np.zeros(top)  # reroll not yet used (only with Overlord Perks)
    spent = np.zeros(top)
    (fresh if stats["overlord"] else spent)[0] = 1.0
    for _ in range(stats["strikes"]):
        new_fresh, new_spent = np.zeros(top), np.zeros(top)
        new_fresh[hit:] += p * fresh[: top - hit]
        new_spent[rerolled:] += (1 - p) * p * fresh[: top - rerolled]
        new_spent[miss:] += (1 - p) * (1 - p) * fresh[: top - miss]
        new_spent[hit:] += p * spent[: top - hit]
        new_spent[miss:] += (1 - p) * spent[: top - miss]
        fresh, spent = new_fresh, new_spent
    return fresh + spent


@lru_cache(maxsize=1024)
def _blast_chain(charges: int, hp: int, rules) -> tuple[tuple, float]:
    """(damage pmf as a tuple, P(killed)) of the blasts ``charges`` pay for, against ``hp``.

    "This happens automatically when you have 4 Blast Charges or more."; a miss refunds a charge,
    so the chain ends when fewer than ``blast_cost`` remain. Nonlethal damage stops at 1 HP.
    """
    if charges < rules.blast_cost:
        return (1.0,), 0.0
    p = blast_p_hit(rules)
    out = np.zeros(1)
    kill = 0.0
    for prob, dmg, left, new_hp in (
            (p, rules.blast_hit_damage, charges - rules.blast_cost, hp - rules.blast_hit_damage),
            (1 - p, rules.blast_miss_damage, charges - rules.blast_cost + rules.blast_miss_refund,
             max(hp - rules.blast_miss_damage, min(hp, 1)))):
        if prob == 0.0:
            continue
        if new_hp <= 0:
            kill += prob
            new_hp = 0  # dead; the chain still spends its charges, so damage goes on counting
        sub, sub_kill = _blast_chain(left, new_hp, rules)
        kill += prob * sub_kill if new_hp > 0 else 0.0
        sub = np.asarray(sub)
        if out.size < dmg + sub.size:
            out = np.pad(out, (0, dmg + sub.size - out.size))
        out[dmg: dmg + sub.size] += prob * sub
    return tuple(out), kill


def exact(stats: dict, rules) -> PeerDistribution:
    """Exact damage pmf and kill chance of one Arena attack (or Ultimate Blast chain)."""
    if stats["charges"] > 0:
        pmf, kill = _blast_chain(stats["charges"], stats["health"], rules)
        pmf = np.asarray(pmf)
        blasts = _expected_blasts(stats["charges"], rules)
        return PeerDistribution(pmf, blast_p_hit(rules), stats["health"], kill,
                                {"mode": "ultimate_blast", "expected_blasts": blasts})
    pmf = _strike_pmf(stats, rules)
    kill = float(pmf[stats["health"]:].sum())  # all strike damage is lethal
    return PeerDistribution(pmf, strike_p_hit(stats["defense"], rules), stats["health"], kill,
                            {"mode": "strike"})


def _expected_blasts(charges: int, rules) -> float:
    if charges < rules.blast_cost:
        return 0.0
    miss = 1 - blast_p_hit(rules)
    return 1.0 + (1 - miss) * _expected_blasts(charges - rules.blast_cost, rules) + miss * (
        _expected_blasts(charges - rules.blast_cost + rules.blast_miss_refund, rules))


@njit(inline="always")
def _strike_hits(r, threshold, auto_hit, auto_miss):
    if r == auto_hit:
        return True
    if r == auto_miss:
        return False
    return r >= threshold


@njit(parallel=True)
def _arena_batch(n, die, threshold, auto_hit, auto_miss, strikes, damage, miss_damage, overlord,
                 penalty, charges, hp, cost, miss_from, blast_hit, blast_miss, refund, states,
                 chunk, out_damage, out_killed):
    """Chunk ``c`` of the rows draws only from ``states[c]``: bit-identical for any thread count."""
    for c in prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            total = 0
            left = hp
            if charges > 0:
                bank = charges
                while bank >= cost:  # "you must use it once your team earns four Blast Charges"
                    bank -= cost
                    r, s0, s1, s2, s3 = roll(die, s0, s1, s2, s3)
                    if r >= miss_from:  # "If the result is 16 or more, the blast misses."
                        total += blast_miss
                        bank += refund
                        if left > 0:  # "nonlethal": never below 1 HP
                            left = max(left - blast_miss, min(left, 1))
                    else:
                        total += blast_hit
                        left -= blast_hit
            else:
                reroll = overlord
                for _ in range(strikes):
                    r, s0, s1, s2, s3 = roll(die, s0, s1, s2, s3)
                    if _strike_hits(r, threshold, auto_hit, auto_miss):
                        total += damage
                    elif reroll:  # "Reroll a die the first time they miss a strike"
                        reroll = False
                        r, s0, s1, s2, s3 = roll(die, s0, s1, s2, s3)
                        if _strike_hits(r, threshold, auto_hit, auto_miss):
                            total += max(damage - penalty, 0)  # "it deals -3 damage"
                        else:
                            total += miss_damage
                    else:
                        total += miss_damage
                left = hp - total
            out_damage[i] = total
            out_killed[i] = left <= 0
    return out_damage, out_killed


def sample(stats: dict, rules, n: int, seed: int, first_chunk: int = 0) -> PeerSamples:
    """``n`` Monte Carlo attacks rolled with real d20s from ``seed``
    (from its chunk ``first_chunk`` on: ``common.chunk_states``)."""
    states = chunk_states(seed, n, first_chunk)
    damage, killed = _arena_batch(
        np.int64(n), np.int64(rules.die), np.int64(stats["defense"] + rules.margin),
        np.int64(rules.auto_hit), np.int64(rules.auto_miss), np.int64(stats["strikes"]),
        np.int64(stats["damage"]), np.int64(stats["miss_damage"]), bool(stats["overlord"]),
        np.int64(rules.overlord_penalty), np.int64(stats["charges"]), np.int64(stats["health"]),
        np.int64(rules.blast_cost), np.int64(rules.blast_miss_from),
        np.int64(rules.blast_hit_damage), np.int64(rules.blast_miss_damage),
        np.int64(rules.blast_miss_refund), states, np.int64(CHUNK), np.empty(n, np.int64),
        np.empty(n, np.bool_))
    return PeerSamples(damage, killed)
