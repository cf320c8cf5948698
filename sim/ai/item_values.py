"""Greedy's and the look-ahead's view of items, in greedy's unit (health; sim/ai/values.py).

Why these choices: picking up costs nothing (no action, no speed), so greedy picks up the most
valuable item within reach whenever its pool has a free slot (the item's printed value ranks
them: "Items are denoted with a value ... used in specified instances"), and never drops one. A
used-up item is scored like the ability with the same effect (a strike as the attack it is,
flat damage and tile-wide damage exactly with their kills, a heal by the health restored, a
freeze by the attack the target loses, buffs and de-buffs by ``greedy_effect``) and competes
with attacks and abilities; a heal is kept until it restores at least ``keep_percent`` of its
amount (cards/item_types.toml [greedy]) or the holder is in the red, so a potion is not wasted on
a scratch. Teleport items are left to the look-ahead (their worth is a position, not health now).
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.catalogue.items import VALUE
from sim.engine.state import fields as L
from sim.engine.rules.actions import _item_base, _item_space_offset, _pickup_offset
from sim.engine.rules.attack import _threshold
from sim.engine.items.use import _usable
from sim.engine.items.holding import R_KEEP, _pool, _rule
from sim.engine.rules.live_movement import _in_tiles, _linked_tile

from .values import _attack_score, _kill_table, _p_hit


@njit(inline="always")
def _flat_score(st, S, d, dmg):
    """Flat damage ``dmg`` on ``d``: the health it removes and the kill it makes (exact)."""
    ent = st.ent
    fp = S.fp
    if ent[d, L.BUFF] != 0 and ent[d, L.BUFF_STAT] == L.STAT_INVINCIBLE:
        return 0.0
    left = ent[d, L.HEALTH] + ent[d, L.SHIELD]
    value = 1.0 if ent[d, L.IS_CPU] == 0 else fp[L.W_CPU_VALUE]
    return value * (fp[L.W_DAMAGE] * min(dmg, left) + (fp[L.W_KILL] if dmg >= left else 0.0))


@njit
def _tile_score(st, S, c, p, dmg):
    """Tile-wide damage ``dmg`` on grid position ``p``: it "applies immediately to everything in
    the affected tiles", so what it does to ``c``'s own team counts against it."""
    ent = st.ent
    score = 0.0
    q = _linked_tile(st, p)  # a portal's far tile is hit whole as well
    for d in range(ent.shape[0]):
        if ent[d, L.ALIVE] != 0 and _in_tiles(st, ent[d, L.SPACE], p, q):
            if ent[d, L.TEAM] == ent[c, L.TEAM]:
                score -= _flat_score(st, S, d, dmg)  # a team's own are never CPUs
            else:
                score += _flat_score(st, S, d, dmg)
    return score


@njit
def _item_use_score(st, S, c, item, t):
    """The value of ``c`` using item type ``item`` on entity ``t`` (legal: ``_legal`` said so)."""
    ent = st.ent
    fp = S.fp
    fx = S.item_fx
    op = fx[item, L.FX_OP]
    amount = fx[item, L.FX_AMOUNT]
    duration = fx[item, L.FX_DURATION]
    if op == L.OP_STRIKE:
        return _attack_score(st, S, c, t, amount, c)
    if op == L.OP_ITEM_DAMAGE:
        return _flat_score(st, S, t, amount)
    if op == L.OP_AREA:
        return _tile_score(st, S, c, st.tile_pos[ent[c, L.SPACE]], amount)
    if op == L.OP_HEAL:
        healed = min(amount, ent[t, L.MAX_HEALTH] - ent[t, L.HEALTH])
        extra = amount - healed if fx[item, L.FX_FLAG] != 0 else 0
        red = ent[t, L.HEALTH] <= fp[L.F_RED] * ent[t, L.MAX_HEALTH]
        if not red and 100 * (healed + extra) < _rule(S, R_KEEP) * amount:
            return 0.0  # kept for when it is worth it
        return fp[L.W_DAMAGE] * (healed + extra)
    if op == L.OP_FREEZE:
        if ent[t, L.FROZEN] != 0 or ent[t, L.ATK] <= 0:
            return 0.0
        p = _p_hit(S, _threshold(S, ent[c, L.DEFENSE]))
        _, em = _kill_table(S, ent[t, L.ATK], p, ent[t, L.TIER], ent[c, L.HEALTH])
        return fp[L.W_DAMAGE] * em * duration
    if op == L.OP_BUFF:
        return 0.0 if ent[t, L.BUFF] != 0 else fp[L.W_EFFECT] * max(amount, 1) * duration
    if op == L.OP_DEBUFF:
        if ent[t, L.DEBUFF] != 0:
            return 0.0
        value = 1.0 if ent[t, L.IS_CPU] == 0 else fp[L.W_CPU_VALUE]
        return value * fp[L.W_EFFECT] * max(amount, 1) * duration
    if op == L.OP_INVISIBILITY:
        if ent[t, L.INVISIBLE] != 0:
            return 0.0
        wounded = ent[t, L.HEALTH] <= fp[L.F_RED] * ent[t, L.MAX_HEALTH]
        return fp[L.W_EFFECT] * duration * (1.0 if wounded else 0.25)
    if op == L.OP_ITEM_CLEANSE:
        score = 0.0
        if ent[t, L.DEBUFF] != 0:
            score += fp[L.W_EFFECT] * max(abs(ent[t, L.DEBUFF_DELTA]), 1)
        if ent[t, L.FROZEN] != 0:
            score += fp[L.W_EFFECT]
        return score
    return 0.0


@njit
def _item_pickup(st, S, c, mask):
    """The pick-up of the most valuable item within reach (``-1``: none legal)."""
    if st.game.floor_n == 0:
        return -1
    n = st.kind.shape[0]
    m = st.ent.shape[0]
    at = _item_base(n, m) + _pickup_offset(n, m)
    best, best_v = -1, -1
    fx = S.item_fx  # hoisted: a field read in the loop is a reference-count round trip
    floor = st.floor
    for f in range(L.F_CAP):
        if mask[at + f] and fx[floor[f, 0], VALUE] > best_v:
            best, best_v = at + f, fx[floor[f, 0], VALUE]
    return best


@njit
def _best_item_use(st, S, c, mask, best, best_a):
    """The best item use scoring above ``best`` (and its action), else ``best, best_a``."""
    ent = st.ent
    pool = _pool(ent, c)
    if ent[pool, L.ITEM_ON] == 0 and ent[pool, L.ITEM_ON + 1] == 0:
        return best, best_a
    n = st.kind.shape[0]
    m = ent.shape[0]
    base = _item_base(n, m)
    for k in range(2):
        item = _usable(st, S, c, pool, k)
        if item < 0:
            continue
        op = S.item_fx[item, L.FX_OP]
        if op == L.OP_MOBILITY:
            continue
        if op == L.OP_ITEM_BLAST:
            sc, a = _best_blast(st, S, c, mask, item, base + _item_space_offset(n, m) + k * n)
            if a >= 0 and sc > best:
                best, best_a = sc, a
            continue
        for e in range(m):
            if mask[base + k * m + e]:
                sc = _item_use_score(st, S, c, item, e)
                if sc > best:
                    best, best_a = sc, base + k * m + e
    return best, best_a


@njit
def _item_candidates(st, S, c, mask):
    """The look-ahead's item candidates, in order: the best pick-up, then every item use worth
    something by greedy's score (best first; a tile-wide item at its best tile)."""
    ent = st.ent
    pool = _pool(ent, c)
    n = st.kind.shape[0]
    m = ent.shape[0]
    base = _item_base(n, m)
    acts = np.empty(2 * m + 3, np.int64)
    scores = np.empty(2 * m + 3)
    j = 0
    pick = _item_pickup(st, S, c, mask)
    if pick >= 0:
        acts[0], scores[0] = pick, np.inf
        j = 1
    if ent[pool, L.ITEM_ON] == 0 and ent[pool, L.ITEM_ON + 1] == 0:
        return acts[:j]
    for slot in range(2):
        item = _usable(st, S, c, pool, slot)
        if item < 0 or S.item_fx[item, L.FX_OP] == L.OP_MOBILITY:
            continue
        if S.item_fx[item, L.FX_OP] == L.OP_ITEM_BLAST:
            sc, a = _best_blast(st, S, c, mask, item, base + _item_space_offset(n, m) + slot * n)
            if a >= 0:
                acts[j], scores[j] = a, sc
                j += 1
            continue
        for e in range(m):
            if mask[base + slot * m + e]:
                sc = _item_use_score(st, S, c, item, e)
                if sc > 0.0:
                    acts[j], scores[j] = base + slot * m + e, sc
                    j += 1
    return acts[:j][np.argsort(-scores[:j], kind="mergesort")]


@njit
def _best_blast(st, S, c, mask, item, at):
    """The best space (per tile) for a tile-wide item whose space actions start at ``at``."""
    n = st.kind.shape[0]
    seen = np.zeros(st.pos_state.shape[0], np.bool_)  # one score per tile
    best, best_a = 0.0, -1
    for s in range(n):
        p = st.tile_pos[s]
        if mask[at + s] and not seen[p]:
            seen[p] = True
            sc = _tile_score(st, S, c, p, S.item_fx[item, L.FX_AMOUNT])
            if sc > best:
                best, best_a = sc, at + s
    return best, best_a
