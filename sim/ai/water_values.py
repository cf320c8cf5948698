"""How greedy weighs water-rolls and the revive's second form.

A crossing is a gamble: with chance ``p`` (1 with free water; else the faces from
``water_success_min`` up, over ``water_die``) the character stands on the far space; otherwise it
stays where it is and, crossing a body, is Submerged (``greedy_submerged`` worse: "cannot move, and
cannot spend their action on anything except attempting to escape"), or, failing a fire wall,
takes its damage. Greedy crosses only while its streak is free (it never spends its action on a
fresh streak, except submerged, where the action has no other use).
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.board.graph import ROLL_FIRE_WALL
from sim.engine import layout as L
from sim.engine.actions import _water_base
from sim.engine.items import _free_water


@njit
def _water_targets(st, S, c, mask):
    """The spaces ``c``'s legal water actions lead to, and the roll each needs (0 body or
    escape, else the wall's ``move_roll`` code), read off the few candidates rather than the
    whole block."""
    ent = st.ent
    n = st.kind.shape[0]
    base = _water_base(n, ent.shape[0])
    here = ent[c, L.SPACE]
    # arrays hoisted into locals: a struct field read inside a loop is a reference-count round
    # trip each time (docs/performance.md)
    bodies = S.space_bodies
    starts = S.body_start
    members = S.body_members
    nbr = st.move_nbr
    rolled = st.move_roll
    out = np.empty(64, np.int64)
    wall = np.zeros(64, np.int64)
    k = 0
    for bi in range(bodies.shape[1]):
        b = bodies[here, bi]
        if b < 0:
            break
        for j in range(starts[b], starts[b + 1]):
            s = members[j]
            if mask[base + s] and k < 64:
                dup = False
                for i in range(k):
                    dup = dup or out[i] == s
                if not dup:
                    out[k] = s
                    k += 1
    if ent[c, L.SUBMERGED] == 0:
        for d in range(8):
            s = nbr[here, d]
            if s >= 0 and rolled[here, d] > 0 and mask[base + s] and k < 64:
                out[k] = s
                wall[k] = rolled[here, d]
                k += 1
    return out[:k], wall[:k]


@njit
def _p_cross(st, S, c):
    if st.ent[c, L.FREE_WATER] != 0 or _free_water(st, S, c):
        return 1.0
    die = S.ip[L.P_WATER_DIE]
    return (die - S.ip[L.P_WATER_MIN] + 1) / die


@njit
def _water_choice(st, S, c, spaces, walls, scores, here_score, best, best_a, base):
    """The water action worth more than ``best`` (expected position score), or ``best_a``."""
    ent = st.ent
    p = _p_cross(st, S, c)
    fp = S.fp
    for i in range(spaces.shape[0]):
        if walls[i] == 0:
            fail = here_score - (0.0 if ent[c, L.SUBMERGED] != 0 else fp[L.W_SUBMERGED])
        elif walls[i] == ROLL_FIRE_WALL:
            fail = here_score - fp[L.W_DAMAGE] * S.ip[L.P_FIRE_DAMAGE]
        else:
            fail = here_score
        v = p * scores[i] + (1.0 - p) * fail
        if v > best:
            best, best_a = v, base + spaces[i]
    return best, best_a
