"""Exact damage distributions of one attack: pmf, mean, variance, P(damage >= h).

The attacker throws ``attacks`` attacks; the defender rolls the defense die (a D12) for each,
"If the roll is more than your defense stat plus 2, that attack is considered a Hit"; "You roll
the Damage Dice as many times as your Attack Hit", one die of the star point's tier per hit.
Hits are binomial; total damage is the mixture over the hit count of h-fold convolutions of the
damage die. Advantage (roll twice, keep the preferable) changes the single-die laws (scope
"per_die") or the whole-throw laws (scope "per_attack") — the house ruling ``advantage.scope``.

Why exact: the tables are the oracle for the Monte Carlo kernels, the greedy AI's evaluation and
the drift gate's snapshot of the combat rules. They are small (attacks <= 50, faces <= 1000).
Their sums are :mod:`sim.fixed_sums`', not BLAS's: the same bits on any machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from sim.fixed_sums import convolve, dot, power

ADVANTAGE, NONE, DISADVANTAGE = 1, 0, -1


class PmfMoments:
    """Mean and variance of a damage pmf over 0, 1, ... (every combat system's exact table)."""

    pmf: np.ndarray

    @property
    def mean(self) -> float:
        return dot(np.arange(self.pmf.size), self.pmf)

    @property
    def variance(self) -> float:
        k = np.arange(self.pmf.size)
        mean = self.mean
        return dot(k * k, self.pmf) - mean * mean


@dataclass(frozen=True)
class Distribution(PmfMoments):
    """Damage of one attack (or a group of attacks); ``pmf[k]`` = P(damage == k)."""

    pmf: np.ndarray
    p_hit: float      # chance one attack hits (after the defender's advantage, per die)
    die: int          # faces of the damage die (0 for a mixture of dice)
    attacks: int

    def survival(self) -> np.ndarray:
        """``s[h]`` = P(damage >= h) for h = 0..len(pmf)."""
        tail = np.cumsum(self.pmf[::-1])[::-1]
        return np.concatenate([tail, [0.0]])

    def p_at_least(self, h: int) -> float:
        """P(damage >= h): the kill probability against ``h`` health."""
        if h <= 0:
            return 1.0
        return float(self.pmf[h:].sum()) if h < self.pmf.size else 0.0


def defense_threshold(defense: int, rules) -> int:
    """The highest defense roll that misses: min(defense, 9) + 2 (book: cap 9, "defense stat plus 2")."""
    return min(max(int(defense), 0), rules.max_defense) + rules.defense_margin


def p_miss_single(threshold: int, defense_die: int, defender_advantage: int) -> float:
    """Chance that one defense die (rolled twice with advantage) makes the attack miss."""
    q = min(max(threshold, 0), defense_die) / defense_die
    if defender_advantage == ADVANTAGE:    # defender keeps the lower roll: misses unless both hit
        return 1.0 - (1.0 - q) * (1.0 - q)
    if defender_advantage == DISADVANTAGE:  # the GM keeps the higher roll: misses only if both miss
        return q * q
    return q


def die_pmf(faces: int, advantage: int = NONE) -> np.ndarray:
    """``p[x]`` for x = 0..faces (p[0] = 0) of one damage die, kept best/worst of two with (dis)advantage."""
    x = np.arange(faces + 1, dtype=np.float64)
    if advantage == ADVANTAGE:   # max of two: P(max <= x) = (x/f)^2
        cdf = (x / faces) * (x / faces)
    elif advantage == DISADVANTAGE:  # min of two: P(min <= x) = 1 - (1 - x/f)^2
        cdf = 1.0 - (1.0 - x / faces) * (1.0 - x / faces)
    else:
        cdf = x / faces
    return np.diff(cdf, prepend=0.0)


def binomial_pmf(n: int, p: float) -> np.ndarray:
    """P(k hits of n) for k = 0..n; the powers by :func:`sim.fixed_sums.power` (the C library's
    ``pow`` differs in its last bits from one CPU to the next)."""
    return np.array([comb(n, k) * power(p, k) * power(1.0 - p, n - k) for k in range(n + 1)])


def _sum_pmfs(single: np.ndarray, n: int) -> list[np.ndarray]:
    """[pmf of the sum of h iid dice for h = 0..n]."""
    out = [np.array([1.0])]
    for _ in range(n):
        out.append(convolve(out[-1], single))
    return out


def _keep_better(pmf: np.ndarray, advantage: int, higher_is_better: bool) -> np.ndarray:
    """pmf of the preferable (advantage) or less preferable (disadvantage) of two iid draws."""
    if advantage == NONE:
        return pmf
    cdf = np.cumsum(pmf)
    take_max = (advantage == ADVANTAGE) == higher_is_better
    new_cdf = cdf * cdf if take_max else 1.0 - (1.0 - cdf) * (1.0 - cdf)
    return np.diff(new_cdf, prepend=0.0)


@lru_cache(maxsize=16)
def _dice_sums(faces: int, attacks: int, attacker_advantage: int, per_attack: bool
               ) -> tuple[np.ndarray, ...]:
    """The damage of h hits for h = 0..attacks (its pmf; advantage per die or per throw), read
    only. Why kept apart from :func:`_damage_pmf`: they do not depend on the defense, and a sweep
    over the defenses built them again for each (12 sums of a D1000: 26 ms a defense)."""
    if per_attack:
        sums = [_keep_better(s, attacker_advantage, True)
                for s in _sum_pmfs(die_pmf(faces), attacks)]
    else:
        sums = _sum_pmfs(die_pmf(faces, attacker_advantage), attacks)
    for s in sums:
        s.flags.writeable = False
    return tuple(sums)


@lru_cache(maxsize=4096)
def _damage_pmf(attacks: int, threshold: int, faces: int, defense_die: int, attacker_advantage: int,
                defender_advantage: int, per_attack: bool) -> tuple[tuple, float]:
    if per_attack:
        p_hit = 1.0 - p_miss_single(threshold, defense_die, NONE)
        hits = _keep_better(binomial_pmf(attacks, p_hit), defender_advantage,
                            higher_is_better=False)  # the defender prefers fewer hits
    else:
        p_hit = 1.0 - p_miss_single(threshold, defense_die, defender_advantage)
        hits = binomial_pmf(attacks, p_hit)
    sums = _dice_sums(faces, attacks, attacker_advantage, per_attack)
    pmf = np.zeros(attacks * faces + 1)
    for h, ph in enumerate(hits):
        pmf[: sums[h].size] += ph * sums[h]
    if not per_attack or defender_advantage == NONE:
        p_report = p_hit
    else:
        p_report = dot(np.arange(attacks + 1), hits) / attacks if attacks else p_hit
    return tuple(pmf), p_report


def damage_distribution(attacks: int, defense: int, tier: int, rules, *,
                        attacker_advantage: int = NONE, defender_advantage: int = NONE
                        ) -> Distribution:
    """Exact damage of ``attacks`` attacks of dice ``tier`` (1-based) against ``defense``."""
    if attacks < 0:
        raise ValueError("attacks must be >= 0")
    if not 1 <= tier <= rules.n_tiers:
        raise ValueError(f"tier must be in 1..{rules.n_tiers}")
    for adv in (attacker_advantage, defender_advantage):
        if adv not in (ADVANTAGE, NONE, DISADVANTAGE):
            raise ValueError("advantage is -1, 0 or 1")
    faces = rules.faces(tier)
    pmf, p_hit = _damage_pmf(int(attacks), defense_threshold(defense, rules), faces,
                             rules.defense_die, int(attacker_advantage), int(defender_advantage),
                             rules.advantage_scope == "per_attack")
    return Distribution(np.asarray(pmf), p_hit, faces, int(attacks))
