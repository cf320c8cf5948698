"""The Apocalypse Index interpreter: one step per rotation in place of the GM Turn.

Book: "From that point the GM Turn no longer operates as normal: the Apocalypse takes its place and
progresses every rotation where the GM Turn would be"; "When a tile coordinate is destroyed, it is
replaced by a 'void'"; "The tile coordinate to be destroyed is announced on the GM Turn, and it is
destroyed on the following GM Turn"; "Tile-Wide Damage is flat damage ... not affected by
defense". Effects (``cards/apocalypses.toml``): storm = the outermost coordinates first, collapse
= random coordinates, flood = tile-wide damage everywhere; each grows by ``rise`` per rotation.

Resolution: "It continues until it is resolved by the players meeting its condition, or until the
game ends with one team victorious." The book prints no condition, so each entry states one
(house ruling, docs/rulings.md): ``hold`` = at ``hold`` GM Turns in a row a character stands on the
revealed Apocalypse tile (checked where the GM Turn would be, before the step, so a tile announced
for destruction can still be held on the turn allotted to react). Once resolved the Apocalypse
stops (announced coordinates are spared) and the GM Turn operates as normal again.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.catalogue.apocalypses import (FLOOD, P_COUNT, P_DAMAGE, P_HOLD, P_RESOLVE, P_RISE,
                                       RESOLVE_HOLD, STORM)
from sim.rng import roll

from sim.engine.state import fields as L
from sim.engine.rules.death import _harm, _health_after, _kill
from sim.engine.log.events import _log
from sim.engine.rules.live_movement import _void_position
from sim.engine.rules.victory import _check_victory, _team_health


@njit
def _destroy(st, S, p):
    """"Anything in a tile that is destroyed is removed from the game"; the coordinate turns void."""
    _log(st, L.EV_DESTROY, p, 0, 0, 0, 0, 0)
    ent = st.ent
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if ent.alive[e] != 0 and s >= 0 and st.tile_pos[s] == p:
            _kill(st, S, e, -1, L.BY_DESTRUCTION)
    _void_position(st, p)
    st.pos_state[p] = L.VOIDED
    st.game.harm = 1


@njit
def _announce(st, S, k, outermost):
    """Announce ``k`` coordinates: random ones, or random among the outermost layer left."""
    for _ in range(k):
        top = 0
        for p in range(49):
            if st.pos_state[p] == L.NORMAL and S.pos_layer[p] > top:
                top = S.pos_layer[p]
        n = 0
        for p in range(49):
            if st.pos_state[p] == L.NORMAL and (not outermost or S.pos_layer[p] == top):
                n += 1
        if n == 0:
            return
        s0, s1, s2, s3 = st.rng[0], st.rng[1], st.rng[2], st.rng[3]
        r, s0, s1, s2, s3 = roll(n, s0, s1, s2, s3)
        st.rng[0], st.rng[1], st.rng[2], st.rng[3] = s0, s1, s2, s3
        for p in range(49):
            if st.pos_state[p] == L.NORMAL and (not outermost or S.pos_layer[p] == top):
                r -= 1
                if r == 0:
                    st.pos_state[p] = L.ANNOUNCED
                    _log(st, L.EV_ANNOUNCE, p, 0, 0, 0, 0, 0)
                    break


@njit
def _apocalypse_step(st, S):
    g = st.game
    a = g.apoc
    code = S.apoc_code[a]
    count, damage, rise = (S.apoc_params[a, P_COUNT], S.apoc_params[a, P_DAMAGE],
                           S.apoc_params[a, P_RISE])
    j = g.apoc_step
    before = _team_health(st, np.zeros(4, np.int64))
    g.defer = 1  # the step is one event: the winner is decided after it
    for p in range(49):
        if st.pos_state[p] == L.ANNOUNCED:  # announced one GM Turn ahead
            _destroy(st, S, p)
    if code == FLOOD:
        dmg = damage + rise * j
        ent = st.ent
        for e in range(ent.shape[0]):
            if ent.alive[e] != 0 and ent.space[e] >= 0:
                left = _health_after(st, e, dmg, L.BY_APOCALYPSE)
                _log(st, L.EV_TILE_DAMAGE, e, dmg, left, -1, 0, 0)
                _harm(st, S, e, dmg, -1, L.BY_APOCALYPSE)  # reaches the invincible too
    else:
        _announce(st, S, count + rise * j, code == STORM)
    g.apoc_step = j + 1
    g.defer = 0
    _check_victory(st, S, before)


@njit
def _holder(st, S):
    """A living team character standing on the revealed Apocalypse tile (-1: none)."""
    ent = st.ent
    apoc = S.ip[L.P_APOC_POS]
    for e in range(ent.shape[0]):
        s = ent.space[e]
        kind = ent.kind[e]
        if (ent.alive[e] != 0 and ent.team[e] >= 0 and s >= 0 and st.tile_pos[s] == apoc
                and (kind == L.K_CHARACTER or kind == L.K_SUMMONED)):
            return e
    return -1


@njit
def _resolve_check(st, S) -> bool:
    """Count this GM Turn towards the Apocalypse's condition; True once it is met (then resolved:
    logged, announced coordinates spared)."""
    g = st.game
    a = g.apoc
    if S.apoc_params[a, P_RESOLVE] != RESOLVE_HOLD or st.pos_state[S.ip[L.P_APOC_POS]] == L.VOIDED:
        return False
    e = _holder(st, S)
    if e < 0:
        g.apoc_held = 0
        return False
    g.apoc_held += 1
    need = S.apoc_params[a, P_HOLD]
    _log(st, L.EV_APOC_HOLD, e, g.apoc_held, need, 0, 0, 0)
    if g.apoc_held < need:
        return False
    g.apoc_resolved = 1 + st.ent.team[e]
    g.apoc_active = 0
    for p in range(49):
        if st.pos_state[p] == L.ANNOUNCED:
            st.pos_state[p] = L.NORMAL
    _log(st, L.EV_APOC_RESOLVED, a, st.ent.team[e], e, 0, 0, 0)
    return True
