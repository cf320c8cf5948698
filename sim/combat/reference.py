"""Slow, obviously-correct resolvers: the baselines of the combat benchmark and test oracles.

``resolve_python`` follows the book sentence by sentence with Python's ``random``;
``resolve_numpy`` is the natural vectorised version (a matrix of defense rolls, a matrix of
damage rolls, masked sums). Neither supports advantage: they exist to be compared against.
"""

from __future__ import annotations

import random

import numpy as np


def resolve_python(attacks, thresholds, faces, defense_die: int, seed: int) -> list[int]:
    """Damage of each attack, one die at a time."""
    rng = random.Random(seed)
    out = []
    for n, threshold, f in zip(attacks, thresholds, faces):
        damage = 0
        for _ in range(n):
            # "If the roll is more than your defense stat plus 2, that attack is considered a Hit."
            if rng.randint(1, defense_die) > threshold:
                damage += rng.randint(1, f)  # "You roll the Damage Dice as many times as your Attack Hit"
        out.append(damage)
    return out


def resolve_numpy(attacks: np.ndarray, thresholds: np.ndarray, faces: np.ndarray,
                  defense_die: int, seed: int) -> np.ndarray:
    """Damage of each attack with whole-array operations (memory ~ n x max attacks)."""
    rng = np.random.default_rng(seed)
    n, width = attacks.shape[0], int(attacks.max(initial=0))
    live = np.arange(width)[None, :] < attacks[:, None]
    defense_rolls = rng.integers(1, defense_die + 1, size=(n, width))
    hit = live & (defense_rolls > thresholds[:, None])
    damage_rolls = np.floor(rng.random((n, width)) * faces[:, None]).astype(np.int64) + 1
    return np.where(hit, damage_rolls, 0).sum(axis=1)
