"""Dungeon Twister: Combat value plus a Combat card from a hand that is used up, group combat and
wounded characters — exact and Monte Carlo.

Source: ``../shared/seeds/001_ff90c4d5732b31e1.txt``. "Each player selects a Combat card from his
hand ... Each player adds the card's value to his character's Combat value"; in group combat "The
attacking player adds the Combat value of all his adjacent characters and the defending player
does the same", one card per side. "The player with the highest total wins the Combat and the
opponent's character is wounded"; "In the case of a tie, nothing happens and the player whose
turn it is can decide to spend 1 new AP to initiate a new Combat" (the lab: it always does while
``combats`` remain). "All used Combat cards are removed from the game ... The "Combat +0" card
is the only card that the owner always gets back." A wounded defender has "Combat value ... 0"
and, losing, "is removed from the game".

Damage is counted in wound levels (house: two per character, ``wound_levels``): a won Combat
takes one level from every defender involved. How a player picks its card is the house
``policy``: "uniform" (every card of the hand equally likely) or "highest".
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np
from numba import prange

from sim._jit import njit
from sim.rng import roll

from .common import CHUNK, PeerDistribution, PeerSamples, chunk_states, two_point

UNIFORM, HIGHEST = 0, 1


def hands(stats: dict, rules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The attacker's and defender's hands: the given ``*_hand`` stats, else full hands."""
    return (tuple(sorted(stats.get("attacker_hand") or rules.hand)),
            tuple(sorted(stats.get("defender_hand") or rules.hand)))


def card_choice(hand: tuple[int, ...], policy: str) -> dict[int, float]:
    """value -> chance the player plays a card of that value."""
    if not hand:
        return {0: 1.0}  # no card left: the total is the Combat value alone
    if policy == "highest":
        return {max(hand): 1.0}
    return {v: c / len(hand) for v, c in Counter(hand).items()}


def _after(hand: tuple[int, ...], value: int, kept: tuple[int, ...]) -> tuple[int, ...]:
    if value in kept or value not in hand:
        return hand
    i = hand.index(value)
    return hand[:i] + hand[i + 1:]


@lru_cache(maxsize=65536)
def duel(att: int, dfn: int, att_hand: tuple, def_hand: tuple, combats: int, kept: tuple,
         policy: str) -> tuple[float, float]:
    """(P(attacker wins), P(attacker loses)) of up to ``combats`` Combats, re-initiated on ties."""
    win = lose = 0.0
    for va, pa in card_choice(att_hand, policy).items():
        for vd, pd in card_choice(def_hand, policy).items():
            p = pa * pd
            diff = att + va - dfn - vd
            if diff > 0:
                win += p
            elif diff < 0:
                lose += p
            elif combats > 1:
                w, l_ = duel(att, dfn, _after(att_hand, va, kept), _after(def_hand, vd, kept),
                             combats - 1, kept, policy)
                win += p * w
                lose += p * l_
    return win, lose


def health(stats: dict, rules) -> int:
    """Wound levels the defending group has left."""
    return rules.wound_levels * len(stats["defenders"]) - stats["defender_wounded"]


def _defender_total(stats: dict) -> int:
    return 0 if stats["defender_wounded"] else sum(stats["defenders"])  # "His Combat value is 0"


def exact(stats: dict, rules) -> PeerDistribution:
    """Exact damage pmf (wound levels dealt) of one attack."""
    att_hand, def_hand = hands(stats, rules)
    win, lose = duel(sum(stats["attackers"]), _defender_total(stats), att_hand, def_hand,
                     stats["combats"], rules.kept, rules.policy)
    levels = len(stats["defenders"])
    # a defender with one level left is removed when it loses: "If a wounded character loses a
    # Combat, he is removed from the game"
    last = rules.wound_levels - stats["defender_wounded"] == 1
    return PeerDistribution(two_point(win, 0, levels), win, health(stats, rules),
                            win if last else 0.0,
                            {"p_attacker_wounded": lose, "p_nothing": 1.0 - win - lose})


@njit(inline="always")
def _pick(hand, present, policy, s0, s1, s2, s3):
    """Slot of the card played (-1: none left)."""
    count = 0
    best = -1
    for j in range(hand.shape[0]):
        if present[j]:
            count += 1
            if best < 0 or hand[j] > hand[best]:
                best = j
    if count == 0 or policy == HIGHEST:
        return best, s0, s1, s2, s3
    k, s0, s1, s2, s3 = roll(count, s0, s1, s2, s3)
    for j in range(hand.shape[0]):
        if present[j]:
            k -= 1
            if k == 0:
                return j, s0, s1, s2, s3
    return best, s0, s1, s2, s3


@njit(inline="always")
def _play(hand, present, slot, kept):
    if slot < 0:
        return 0
    value = hand[slot]
    keep = False
    for v in kept:
        keep |= v == value
    if not keep:
        present[slot] = False  # "All used Combat cards are removed from the game."
    return value


@njit(parallel=True)
def _duel_batch(n, att, dfn, att_hand, def_hand, kept, combats, policy, levels, last, states,
                chunk, out_damage, out_killed, out_lost):
    for c in prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        a_present = np.empty(att_hand.shape[0], np.bool_)
        d_present = np.empty(def_hand.shape[0], np.bool_)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            a_present[:] = True
            d_present[:] = True
            result = 0
            for _ in range(combats):
                ja, s0, s1, s2, s3 = _pick(att_hand, a_present, policy, s0, s1, s2, s3)
                jd, s0, s1, s2, s3 = _pick(def_hand, d_present, policy, s0, s1, s2, s3)
                diff = att + _play(att_hand, a_present, ja, kept) - dfn - _play(
                    def_hand, d_present, jd, kept)
                if diff != 0:
                    result = 1 if diff > 0 else -1
                    break  # a tie: "spend 1 new AP to initiate a new Combat"
            out_damage[i] = levels if result > 0 else 0
            out_killed[i] = result > 0 and last
            out_lost[i] = result < 0
    return out_damage, out_killed, out_lost


def sample(stats: dict, rules, n: int, seed: int, first_chunk: int = 0) -> PeerSamples:
    """``n`` Monte Carlo attacks, each drawing real cards from the two hands, from ``seed``
    (from its chunk ``first_chunk`` on: ``common.chunk_states``)."""
    att_hand, def_hand = hands(stats, rules)
    states = chunk_states(seed, n, first_chunk)
    damage, killed, _ = _duel_batch(
        np.int64(n), np.int64(sum(stats["attackers"])), np.int64(_defender_total(stats)),
        np.asarray(att_hand, np.int64), np.asarray(def_hand, np.int64),
        np.asarray(rules.kept + (-1,), np.int64), np.int64(stats["combats"]),
        np.int64(HIGHEST if rules.policy == "highest" else UNIFORM),
        np.int64(len(stats["defenders"])),
        rules.wound_levels - stats["defender_wounded"] == 1, states, np.int64(CHUNK),
        np.empty(n, np.int64), np.empty(n, np.bool_), np.empty(n, np.bool_))
    return PeerSamples(damage, killed)
