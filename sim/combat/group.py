"""Group Attack: several attackers on one target, resolved in the declared order.

Book: "Multiple of your characters can choose to attack the same target at once, this is called
a 'Group Attack'." and "Once an attack has started, there is no going back." House ruling
``group_attack.order``: "sequential" — one attacker at a time, each throw rolled in full once
started; an attacker whose target is already dead keeps its action. The kill probability does not
depend on the ruling; the actions spent do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.fixed_sums import convolve

from .exact import Distribution


@dataclass(frozen=True)
class GroupResult:
    kill_probability: float
    killed_by: np.ndarray         # P(the k-th attacker lands the kill)
    expected_attackers_used: float  # actions spent, under the group_attack.order ruling
    damage: Distribution          # total damage if every attacker throws (no stopping)


def group_attack(distributions: list[Distribution], target_health: int, order: str = "sequential"
                 ) -> GroupResult:
    """Exact kill probability of ``distributions`` (one per attacker, in order) on ``target_health``."""
    if target_health <= 0:
        raise ValueError("target_health must be positive")
    if not distributions:
        raise ValueError("a group attack needs at least one attacker")
    alive = np.zeros(target_health)
    alive[0] = 1.0  # accumulated damage so far, while the target still stands
    killed_by = np.zeros(len(distributions))
    used = 0.0
    total = np.array([1.0])
    for k, dist in enumerate(distributions):
        used += alive.sum() if order == "sequential" else 1.0
        after = convolve(alive, dist.pmf)
        killed_by[k] = after[target_health:].sum()
        alive = after[:target_health]
        total = convolve(total, dist.pmf)
    combined = Distribution(total, p_hit=float("nan"), die=0,
                            attacks=sum(d.attacks for d in distributions))
    return GroupResult(float(killed_by.sum()), killed_by, float(used), combined)


def sample_group_kills(damage_samples: list[np.ndarray], target_health: int) -> np.ndarray:
    """Which attacker (0-based) lands the kill in each sampled group attack, -1 if none.

    ``damage_samples[k][i]`` is attacker k's damage in trial i (independent streams).
    """
    cumulative = np.cumsum(np.vstack(damage_samples), axis=0)
    dead = cumulative >= target_health
    return np.where(dead.any(axis=0), dead.argmax(axis=0), -1)
