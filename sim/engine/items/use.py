"""Using, picking up and dropping items: their legal actions and playing them.

The items block of the action space (``actions._item_base``, length ``actions._item_actions``):
use held item k on entity e (``k * M + e``; the user itself for target kinds none and self), use
it on space s (``_item_space_offset + k * N + s``), pick up floor item f (``_pickup_offset + f``),
drop held item k (``_drop_offset + k``): the offsets are ``actions``'.

Book: "When an item is gained or picked up, it cannot be used immediately. A character must End
their Turn with an Item in order to use it. Some items also cost that character's action"; "A
character can drop any held item onto their current space, and can pick up any item in a space
within 1 range of their current space. Both may only be done on your own turn" (only the
deciding character acts: its own turn); "A frozen entity ... cannot use any effect stemming from
... an item" (house: nor pick up or drop: "anything frozen can do nothing at all"); "An item
that is used up is applied only to the individual character who used it". Targets follow the
abilities' rules (docs/effects.md): range and line of sight, no invisible opponent.
"""

from __future__ import annotations

from sim._jit import njit
from sim.catalogue.tile_layout import FLOOR

from sim.engine.state import fields as L
from sim.engine.rules.actions import _drop_offset, _item_space_offset, _pickup_offset
from sim.engine.effects.interpreter import _run_effect, _teleport_targets
from sim.engine.log.events import _log
from sim.catalogue.items import HAND_SLOTS, R_PICKUP
from sim.engine.items.holding import (HELD, _drop, _free_row, _hands_full, _held, _pick_up, _pool,
                                      _rule, _take)
from sim.engine.rules.live_movement import _sight_from
from sim.engine.entities.special import _ridden_by, _teammate_target


@njit(inline="always")
def _usable(st, S, c, pool, k):
    """The item type in slot ``k`` if ``c`` may use it now, else -1: active, used up (not held),
    and its action free if it costs one."""
    ent = st.ent
    item = ent.item_slot[pool, k] - 1
    if item < 0 or ent.item_on[pool, k] == 0 or S.item_fx[item, HELD] != 0:
        return -1
    if S.item_fx[item, L.FX_COSTS] != 0 and ent.acted[c] != 0:
        return -1
    return item


@njit(inline="always")
def _item_range(st, S, c, item):
    """A strike is an attack (the attack's range); other effects their own ``range``."""
    if S.item_fx[item, L.FX_OP] == L.OP_STRIKE:
        return st.ent.range[c]
    return S.item_fx[item, L.FX_RANGE]


@njit
def _near_floor(st, here, r):
    """Whether a floor item lies within ``r`` tile boundaries of ``here`` (the live tile
    distance, portals linking their tiles at no cost: a range is never less, as for
    ``live_movement._may_reach``): a cheap test before the line-of-sight search. Why not king
    steps in cells: across the void between small tiles and through a portal a range is shorter
    than that (an item on the far piece of a portal, at range 0, was not offered: the third
    rules audit of stop 69)."""
    p = st.tile_pos[here]
    if p < 0:
        return False
    for f in range(st.floor.shape[0]):
        s = st.floor[f, L.FL_SPACE]
        if st.floor[f, L.FL_ITEM] >= 0:
            q = st.tile_pos[s]
            if q >= 0 and st.tiles.dist[p, q] <= r:
                return True
    return False


@njit
def _legal_items(st, S, c, mask, base):
    """Mark ``c``'s item actions in ``mask[base:]``; return how many. Costs two reads when
    ``c``'s pool holds nothing and no item lies on the board."""
    ent = st.ent
    pool = _pool(ent, c)
    if _held(ent, pool) == 0 and st.game.floor_n == 0:
        return 0
    return _legal_items_now(st, S, c, mask, base, pool)


@njit
def _legal_free_items(st, S, c, mask, base):
    """A submerged ``c``'s item actions: the uses on itself that cost no action and do not move
    it (a potion). l.348 "a submerged character cannot move, and cannot spend their action on
    anything except attempting to escape" takes its movement and its action, and drinking a
    potion spends neither; picking up and dropping stay closed to it (house ruling,
    docs/rulings.md). Why: nothing at all was offered (the fifth rules audit of stop 70)."""
    ent = st.ent
    pool = _pool(ent, c)
    m = ent.shape[0]
    count = 0
    for k in range(HAND_SLOTS):
        item = _usable(st, S, c, pool, k)
        if (item < 0 or S.item_fx[item, L.FX_COSTS] != 0
                or S.item_fx[item, L.FX_OP] == L.OP_MOBILITY):
            continue
        tk = S.item_fx[item, L.FX_TARGET]
        if tk == L.T_NONE or tk == L.T_SELF:
            mask[base + k * m + c] = True
            count += 1
    return count


@njit
def _legal_items_now(st, S, c, mask, base, pool):
    ent = st.ent
    here = ent.space[c]
    if here < 0 or ent.frozen[c] != 0:  # "anything frozen can do nothing at all"
        return 0
    n = st.kind.shape[0]
    m = ent.shape[0]
    count = 0
    minion = ent.kind[c] == L.K_MINION or ent.kind[c] == L.K_CLONE
    if _free_row(st) >= 0 and not minion:  # "can drop any held item onto their current space";
        #                                     "minions cannot drop or trade items"
        for k in range(HAND_SLOTS):
            if ent.item_slot[pool, k] != 0:
                mask[base + _drop_offset(n, m) + k] = True
                count += 1
    need = -1  # the longest range a line-of-sight search must cover
    pickup = _rule(S, R_PICKUP)
    near = not _hands_full(S, ent, pool) and st.game.floor_n > 0 and _near_floor(st, here, pickup)
    if near:
        need = pickup
    for k in range(HAND_SLOTS):
        item = _usable(st, S, c, pool, k)
        if item < 0:
            continue
        tk = S.item_fx[item, L.FX_TARGET]
        # "An item that is used up is applied only to the individual character who used it"
        if tk == L.T_NONE or tk == L.T_SELF:
            mask[base + k * m + c] = True
            count += 1
        elif tk == L.T_SPACE and S.item_fx[item, L.FX_OP] == L.OP_MOBILITY:
            count += _teleport_targets(st, c, S.item_fx[item, L.FX_AMOUNT],
                                       base + _item_space_offset(n, m) + k * n, mask, False)
        else:
            need = max(need, _item_range(st, S, c, item))
    if need < 0:
        return count
    sight = _sight_from(st, S, here, need)
    if near:
        for f in range(L.F_CAP):  # "any item in a space within 1 range of their current space"
            s = st.floor[f, L.FL_SPACE]
            if st.floor[f, L.FL_ITEM] >= 0 and st.tile_pos[s] >= 0 and sight[s] <= pickup:
                mask[base + _pickup_offset(n, m) + f] = True
                count += 1
    return count + _sighted_item_uses(st, S, c, pool, mask, base, sight)


@njit
def _sighted_item_uses(st, S, c, pool, mask, base, sight):
    """Mark the uses of ``c``'s items on an ally, an enemy or a space within the item's range
    and line of sight (``sight``: the search from ``c``'s space); how many."""
    ent = st.ent
    n = st.kind.shape[0]
    m = ent.shape[0]
    team = ent.team[c]
    count = 0
    for k in range(HAND_SLOTS):
        item = _usable(st, S, c, pool, k)
        if item < 0:
            continue
        tk = S.item_fx[item, L.FX_TARGET]
        r = _item_range(st, S, c, item)
        if tk == L.T_ALLY or tk == L.T_ENEMY:
            for e in range(m):
                s = ent.space[e]
                if ent.alive[e] == 0 or s < 0 or sight[s] > r:
                    continue
                if tk == L.T_ALLY and ent.team[e] == team and _teammate_target(ent, c, e):
                    mask[base + k * m + e] = True  # "Targets follow the abilities' rulings"
                    count += 1
                elif (tk == L.T_ENEMY and ent.team[e] != team
                      and ent.invisible[e] == 0  # "cannot be targeted by a direct attack"
                      and not _ridden_by(ent, e, team)):
                    mask[base + k * m + e] = True
                    count += 1
        elif tk == L.T_SPACE and S.item_fx[item, L.FX_OP] != L.OP_MOBILITY:
            at = base + _item_space_offset(n, m) + k * n
            for s in range(n):  # a space within range and line of sight: its tile is hit
                if sight[s] <= r and st.kind[s] == FLOOR and st.tile_pos[s] >= 0:
                    mask[at + s] = True
                    count += 1
    return count


@njit
def _use_item(st, S, c, k, t):
    """``c`` uses the item in slot ``k`` of its pool on target ``t`` (an entity, or ``M + s``):
    the item is used up, its action spent if it costs one, then its effect runs."""
    ent = st.ent
    pool = _pool(ent, c)
    item = _take(st, S, pool, k)
    if S.item_fx[item, L.FX_COSTS] != 0:
        ent.acted[c] = 1  # "Some items also cost that character's action ... to use"
    st.game.items_used += 1
    _log(st, L.EV_ITEM_USE, c, item, t, k, 0, 0)
    _run_effect(st, S, c, t, L.FX_ITEM, item)


@njit
def _apply_item(st, S, c, a):
    """Play item action ``a`` (an offset into the items block) for ``c``."""
    n = st.kind.shape[0]
    m = st.ent.shape[0]
    if a < _item_space_offset(n, m):
        _use_item(st, S, c, a // m, a % m)
    elif a < _pickup_offset(n, m):
        b = a - _item_space_offset(n, m)
        _use_item(st, S, c, b // n, m + b % n)
    elif a < _drop_offset(n, m):
        _pick_up(st, S, c, a - _pickup_offset(n, m))
    else:
        _drop(st, S, c, a - _drop_offset(n, m))
