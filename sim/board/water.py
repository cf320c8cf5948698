"""Water-rolls: single rolls, streaks, water and wall crossings, falls (the game rolls its own,
one action at a time: ``sim/engine/rules/water_rolls.py``; what a number of successes reaches:
``movement.reachable(max_rolls=)``).

Book: "A water-roll is a D-6 roll where 1 to 3 is a fail and 4 to 6 is a success"; "Each Entity
may roll for water freely, as many times as they like, until they fail. The first failed roll ends
that streak for the turn"; "Spending that character's action buys them a fresh streak"; "On a
failure, the Entity who attempted the roll is Submerged" (water only: "Failing that roll simply
means you do not cross. It does not submerge you" for a water wall; a fire wall deals 50 damage).

Samplers take a ``numpy.random.Generator`` so every run is reproducible from its seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.catalogue.board_rules import BoardRules
from sim.fixed_sums import power

from .graph import ROLL_FIRE_WALL, ROLL_WATER_WALL


def water_roll(rng: np.random.Generator, rules: BoardRules) -> bool:
    """One water-roll: True on a success (a face of ``water_success_min`` or more)."""
    return int(rng.integers(1, rules.water_die + 1)) >= rules.water_success_min


def streak_length(rng: np.random.Generator, rules: BoardRules, cap: int = 64) -> int:
    """Successes a character rolls before the first failure ends the streak (capped at ``cap``,
    a character never needs more)."""
    k = 0
    while k < cap and water_roll(rng, rules):
        k += 1
    return k


def p_streak_at_least(k: int, rules: BoardRules) -> float:
    """Chance that one streak gives at least ``k`` successes: p^k (``sim.fixed_sums.power``: the
    same bits on any CPU)."""
    return power(rules.water_success_p, k)


@dataclass(frozen=True)
class WallOutcome:
    crossed: bool
    damage: int       # fire wall: "If that water-roll fails, the character takes 50 damage"
    submerged: bool   # always False: "It does not submerge them"


def cross_wall(rng: np.random.Generator, rules: BoardRules, roll_kind: int) -> WallOutcome:
    """Attempt a water wall (``ROLL_WATER_WALL``) or fire wall (``ROLL_FIRE_WALL``)."""
    if roll_kind not in (ROLL_WATER_WALL, ROLL_FIRE_WALL):
        raise ValueError(f"not a wall needing a roll: {roll_kind}")
    if water_roll(rng, rules):
        return WallOutcome(True, 0, False)
    if roll_kind == ROLL_WATER_WALL:
        return WallOutcome(False, 0, False)
    return WallOutcome(rules.fire_wall_fail_crosses, rules.fire_wall_damage, False)


@dataclass(frozen=True)
class CrossingOutcome:
    crossed: bool
    submerged: bool   # "A character who fails a water-roll while traversing water is Submerged."
    rolls: int        # water-rolls made


def cross_water(rng: np.random.Generator, rules: BoardRules, successes_needed: int,
                free_water: bool = False) -> CrossingOutcome:
    """Traverse water that needs ``successes_needed`` successful water-rolls in one streak.

    "On a failure, the Entity who attempted the roll is Submerged"; "Some Items, Abilities and
    Vehicles ... allow you to 'Freely Cross Water'. This means All attempted Water Rolls are an
    Automatic Success." A character stops rolling once it is across.
    """
    if successes_needed < 0:
        raise ValueError("successes_needed must be >= 0")
    for k in range(successes_needed):
        if not (free_water or water_roll(rng, rules)):
            return CrossingOutcome(False, True, k + 1)
    return CrossingOutcome(True, False, successes_needed)


def falls(rng: np.random.Generator, rules: BoardRules) -> bool:
    """Terrain: damage on a ladder or platform edge — "On a 1: The fighter falls"."""
    return int(rng.integers(1, rules.falling_die + 1)) <= rules.falling_max_face
