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
from sim.engine.state import fields as L
from sim.engine.rules.actions import _water_base
from sim.engine.rules.attack import _advantage
from sim.engine.items.holding import _free_water
from sim.engine.tiles.live_board import BLOCK, _cell_space
from sim.engine.rules.water_rolls import _shore


@njit
def _water_targets(st, S, c, mask):
    """The spaces ``c``'s legal water actions lead to, and the roll each needs (0 body or
    escape, else the wall's ``move_roll`` code), read off the few candidates rather than the
    whole block."""
    ent = st.ent
    n = st.kind.shape[0]
    base = _water_base(n, ent.shape[0])
    here = ent.space[c]
    # arrays hoisted into locals: a struct field read inside a loop would be a load through the
    # state's pointer each time
    tile_pos = st.tile_pos
    nbr = st.move_nbr
    rolled = st.move_roll
    shore = _shore(tile_pos, st.tiles, S.tile_fx, here)  # the water of here's tile now
    p = tile_pos[here]
    out = np.empty(BLOCK * BLOCK + 8, np.int64)
    wall = np.zeros(BLOCK * BLOCK + 8, np.int64)
    k = 0
    for cell in range(BLOCK * BLOCK if shore != 0 else 0):  # ascending space ids
        if (shore >> cell) & 1 != 0:
            s = _cell_space(p, cell)
            if mask[base + s]:
                out[k] = s
                k += 1
    if ent.submerged[c] == 0:
        for d in range(8):
            s = nbr[here, d]
            if s >= 0 and rolled[here, d] > 0 and mask[base + s]:
                out[k] = s
                wall[k] = rolled[here, d]
                k += 1
    return out[:k], wall[:k]


@njit
def _p_cross(st, S, c):
    """The chance of one water-roll of ``c``: the success faces over the die, rolled twice with
    advantage (either succeeds) or disadvantage (both must), as ``water_rolls._water_roll`` does."""
    if st.ent.free_water[c] != 0 or _free_water(st, S, c):
        return 1.0
    die = S.ip[L.P_WATER_DIE]
    p = (die - S.ip[L.P_WATER_MIN] + 1) / die
    adv = _advantage(st.ent, c)
    if adv > 0:
        return 1.0 - (1.0 - p) * (1.0 - p)
    if adv < 0:
        return p * p
    return p


@njit
def _water_choice(st, S, c, spaces, walls, scores, here_score, best, best_a, base):
    """The water action worth more than ``best`` (expected position score), or ``best_a``."""
    ent = st.ent
    p = _p_cross(st, S, c)
    fp = S.fp
    for i in range(spaces.shape[0]):
        if walls[i] == 0:
            fail = here_score - (0.0 if ent.submerged[c] != 0 else fp[L.W_SUBMERGED])
        elif walls[i] == ROLL_FIRE_WALL:
            fail = here_score - fp[L.W_DAMAGE] * S.ip[L.P_FIRE_DAMAGE]
        else:
            fail = here_score
        v = p * scores[i] + (1.0 - p) * fail
        if v > best:
            best, best_a = v, base + spaces[i]
    return best, best_a
