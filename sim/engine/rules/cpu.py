"""CPUs on the GM Turn.

Book: "Outside of retaliating, CPUs act on the GM Turn, using their speed where they have one";
"Where a CPU has a range or a speed of its own, those govern what it does on the GM Turn";
"A CPU with no attack listed never retaliates". What a CPU does is not written: house ruling
(rules.toml [game] ``cpu_leash``, ``cpu_default_range``): it attacks the character with the least
health in its range and line of sight, first moving up to its speed (within its own tile when
leashed) to the nearest space from which it has one.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.combat.star import BASE

from sim.engine.state import fields as L
from sim.engine.rules.attack import _strike
from sim.engine.log.events import _log
from sim.engine.rules.live_movement import _may_reach, _reach_from, _sight_from


@njit
def _cpu_target(st, S, space, rng):
    """The living character with the least health attackable from ``space`` (-1: none)."""
    if not _may_reach(st, S, space, -1, rng):
        return -1
    sight = _sight_from(st, S, space, rng)
    ent = st.ent
    best = -1
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if ent.team[e] < 0 or ent.alive[e] == 0 or s < 0 or sight[s] > rng:
            continue
        if sight[s] < S.ip[L.P_CLOSEST]:  # on its own space, attack_own_space = false
            continue
        if ent.kind[e] > L.K_SUMMONED:  # a character: not a minion, assist or vehicle
            continue
        if ent.invisible[e] != 0:  # "cannot be targeted by a direct attack"
            continue
        if best < 0 or ent.health[e] < ent.health[best]:
            best = e
    return best


@njit
def _cpu_act(st, S, c):
    ent = st.ent
    rng = ent.range[c] if ent.range[c] >= 0 else S.ip[L.P_CPU_RANGE]
    speed = max(ent.speed[c], 0)
    here = ent.space[c]
    target = _cpu_target(st, S, here, rng)
    leash = S.ip[L.P_LEASH] != 0
    # a leashed CPU never leaves its tile: it can reach no further boundary than its range
    if target < 0 and speed > 0 and _may_reach(st, S, here, -1, rng + (0 if leash else speed)):
        spaces, costs = _nearest_first(st, S, here, speed, leash, ent.home[c])
        for i in range(spaces.shape[0]):
            t = _cpu_target(st, S, spaces[i], rng)
            if t >= 0:
                target = t
                _log(st, L.EV_MOVE, c, here, spaces[i], costs[i], 0, 0)
                ent.space[c] = spaces[i]
                break
    if target >= 0:
        _strike(st, S, c, target, 0, c)


@njit
def _nearest_first(st, S, here, speed, leash, home):
    """The spaces a CPU at ``here`` can move to with ``speed`` (within position ``home`` when
    ``leash``) and their costs, nearest first and by space id among equals ("the nearest space
    from which it has one"). From the reach search's list of the spaces it touched (a space may
    be listed twice), not a scan of all 1,225 spaces per step of speed."""
    touched = _reach_from(st, S, here, speed)
    listed = st.decision.reached
    cost = st.decision.reach_cost
    tile_pos = st.tile_pos
    n = cost.shape[0]
    keys = np.empty(touched, np.int64)  # cost, then space: one sortable number
    k = 0
    for i in range(touched):
        s = listed[i]
        if cost[s] >= 1 and cost[s] <= speed and (not leash or tile_pos[s] == home):
            keys[k] = cost[s] * n + s
            k += 1
    keys = np.unique(keys[:k])  # sorted, each space once
    return keys % n, keys // n


@njit
def _cpu_turn(st, S):
    ent = st.ent
    for c in range(ent.shape[0]):
        if st.game.over != 0:
            return
        # "A frozen entity cannot use any of its speed, cannot spend its action"
        if (ent.is_cpu[c] != 0 and ent.alive[c] != 0 and ent.atk[c, BASE] > 0
                and ent.frozen[c] == 0):
            _cpu_act(st, S, c)
