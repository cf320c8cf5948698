"""Monte Carlo resolution of many attacks at once: a Numba kernel over mixed matchups.

Every resolution rolls real dice — one defense die per attack (two with advantage), one damage
die of the point's tier per hit — so the sampler is an independent check of the exact tables,
not a re-draw from them. Work is cut into fixed chunks of ``CHUNK`` resolutions; chunk ``c``
draws from child ``c`` of ``SeedSequence(seed)``. Threads take chunks in any order and the
result is bit-identical for any thread count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import prange

from sim._jit import njit
from sim.rng import next_u64, roll_small, seed_states

from .exact import defense_threshold

CHUNK = 16384


@dataclass(frozen=True)
class Samples:
    damage: np.ndarray  # int64 per resolution
    hits: np.ndarray    # int64 per resolution


@njit(inline="always")
def _throw_hits(attacks, threshold, defense_die, defender_advantage, s0, s1, s2, s3, buf, left):
    """Hits of one throw; the defender keeps the lower of two rolls with advantage (misses low)."""
    hits = 0
    for _ in range(attacks):
        r, s0, s1, s2, s3, buf, left = roll_small(defense_die, s0, s1, s2, s3, buf, left)
        if defender_advantage != 0:
            r2, s0, s1, s2, s3, buf, left = roll_small(defense_die, s0, s1, s2, s3, buf, left)
            r = min(r, r2) if defender_advantage > 0 else max(r, r2)
        hits += r > threshold  # "more than your defense stat plus 2 ... is considered a Hit"
    return hits, s0, s1, s2, s3, buf, left


@njit(inline="always")
def _lane_dice(count, faces, threshold, s0, s1, s2, s3):
    """Roll ``count`` dice without advantage: (dice showing more than ``threshold``, their sum, state).

    Eight dice of up to 32 faces (8-bit lanes), or four larger ones (16-bit lanes), come from each
    64-bit output. A lane value ``v`` maps to ``(v * faces) >> bits`` (Lemire) and is rejected
    when the low bits fall below ``2**bits mod faces``, so every face is exactly equally likely.
    Branch-free inside the lane loop: this is the hot path of the combat core.
    """
    bits = 8 if faces <= 32 else 16
    lanes = 64 // bits
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    n = np.uint64(faces)
    reject_below = ((mask + np.uint64(1)) - n) % n
    above = 0
    total = 0
    remaining = count
    while remaining > 0:
        r, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
        for lane in range(lanes):
            m = ((r >> np.uint64(bits * lane)) & mask) * n
            take = ((m & mask) >= reject_below) and (remaining > 0)
            value = np.int64(m >> np.uint64(bits)) + 1
            above += take and (value > threshold)
            total += take * value
            remaining -= take
    return above, total, s0, s1, s2, s3


@njit(inline="always")
def _throw_damage(hits, faces, attacker_advantage, s0, s1, s2, s3, buf, left):
    """Damage of ``hits`` damage dice; the attacker keeps the higher of two with advantage."""
    total = 0
    for _ in range(hits):
        x, s0, s1, s2, s3, buf, left = roll_small(faces, s0, s1, s2, s3, buf, left)
        if attacker_advantage != 0:
            x2, s0, s1, s2, s3, buf, left = roll_small(faces, s0, s1, s2, s3, buf, left)
            x = max(x, x2) if attacker_advantage > 0 else min(x, x2)
        total += x
    return total, s0, s1, s2, s3, buf, left


@njit(inline="always")
def _resolve_one(attacks, threshold, faces, attacker_advantage, defender_advantage, per_attack,
                 defense_die, s0, s1, s2, s3, buf, left):
    if not per_attack and defender_advantage == 0 and attacker_advantage == 0:
        # The common case, on the lane fast path (same dice, same laws as below).
        hits, _, s0, s1, s2, s3 = _lane_dice(attacks, defense_die, threshold, s0, s1, s2, s3)
        _, dmg, s0, s1, s2, s3 = _lane_dice(hits, faces, 0, s0, s1, s2, s3)
        return dmg, hits, s0, s1, s2, s3, buf, left
    if not per_attack:  # house ruling advantage.scope = "per_die": each die rolled twice
        hits, s0, s1, s2, s3, buf, left = _throw_hits(attacks, threshold, defense_die, defender_advantage,
                                           s0, s1, s2, s3, buf, left)
        dmg, s0, s1, s2, s3, buf, left = _throw_damage(hits, faces, attacker_advantage, s0, s1, s2, s3, buf, left)
        return dmg, hits, s0, s1, s2, s3, buf, left
    # "per_attack": each side's whole throw is repeated and the preferable total kept
    hits, s0, s1, s2, s3, buf, left = _throw_hits(attacks, threshold, defense_die, 0, s0, s1, s2, s3, buf, left)
    if defender_advantage != 0:
        h2, s0, s1, s2, s3, buf, left = _throw_hits(attacks, threshold, defense_die, 0, s0, s1, s2, s3, buf, left)
        hits = min(hits, h2) if defender_advantage > 0 else max(hits, h2)
    dmg, s0, s1, s2, s3, buf, left = _throw_damage(hits, faces, 0, s0, s1, s2, s3, buf, left)
    if attacker_advantage != 0:
        d2, s0, s1, s2, s3, buf, left = _throw_damage(hits, faces, 0, s0, s1, s2, s3, buf, left)
        dmg = max(dmg, d2) if attacker_advantage > 0 else min(dmg, d2)
    return dmg, hits, s0, s1, s2, s3, buf, left


@njit(parallel=True)
def _resolve_batch(attacks, threshold, faces, attacker_advantage, defender_advantage, per_attack,
                   defense_die, states, chunk, out_damage, out_hits):
    n = attacks.shape[0]
    for c in prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        buf, left = np.uint64(0), 0
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            dmg, hits, s0, s1, s2, s3, buf, left = _resolve_one(
                np.int64(attacks[i]), np.int64(threshold[i]), np.int64(faces[i]),
                np.int64(attacker_advantage[i]), np.int64(defender_advantage[i]),
                per_attack, defense_die, s0, s1, s2, s3, buf, left)
            out_damage[i] = dmg
            out_hits[i] = hits
    return out_damage, out_hits


def _column(value, n: int, name: str) -> np.ndarray:
    arr = np.asarray(value, dtype=np.int64)
    if arr.ndim == 0:
        return np.full(n, arr, dtype=np.int64)
    if arr.shape != (n,):
        raise ValueError(f"{name} has shape {arr.shape}, expected ({n},)")
    return np.ascontiguousarray(arr)


def sample_damage(attacks, defense, tier, rules, *, seed: int, n: int | None = None,
                  attacker_advantage=0, defender_advantage=0) -> Samples:
    """Resolve a batch of attacks (arrays or scalars broadcast to ``n``) from ``seed``.

    ``tier`` is the 1-based dice tier; defense is capped at the book's maximum (9).
    """
    sizes = [np.size(a) for a in (attacks, defense, tier, attacker_advantage, defender_advantage)
             if np.ndim(a) > 0]
    if n is None:
        if not sizes:
            raise ValueError("give n, or at least one array")
        n = sizes[0]
    if n < 0:
        raise ValueError("n must be >= 0")
    attacks = _column(attacks, n, "attacks")
    tier = _column(tier, n, "tier")
    defense = _column(defense, n, "defense")
    if attacks.size and attacks.min() < 0:
        raise ValueError("attacks must be >= 0")
    if tier.size and (tier.min() < 1 or tier.max() > rules.n_tiers):
        raise ValueError(f"tier must be in 1..{rules.n_tiers}")
    att_adv = np.sign(_column(attacker_advantage, n, "attacker_advantage"))
    def_adv = np.sign(_column(defender_advantage, n, "defender_advantage"))
    threshold = (np.clip(defense, 0, rules.max_defense) + rules.defense_margin).astype(np.int64)
    assert int(threshold[0] if n else 0) >= 0 and defense_threshold(0, rules) >= 0
    faces = rules.tier_faces[tier - 1].astype(np.int64)
    states = seed_states(seed, -(-n // CHUNK))
    damage, hits = _resolve_batch(attacks, threshold, faces, att_adv, def_adv,
                                  rules.advantage_scope == "per_attack", np.int64(rules.defense_die),
                                  states, np.int64(CHUNK), np.empty(n, np.int64),
                                  np.empty(n, np.int64))
    return Samples(damage=damage, hits=hits)
