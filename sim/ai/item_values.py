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
from sim.catalogue.items import R_KEEP, VALUE
from sim.engine.state import fields as L
from sim.engine.rules.actions import _item_base, _item_space_offset, _pickup_offset
from sim.engine.items.use import _usable
from sim.engine.items.holding import _pool, _rule

from .values import _effect_score, _tile_score


@njit
def _item_use_score(st, S, c, item, t):
    """The value of ``c`` using item type ``item`` on entity ``t`` (legal: ``_legal`` said so):
    its effect scored as an ability's (``values._effect_score``), except that a heal is kept
    until it restores ``keep_percent`` of its amount or the holder is in the red."""
    ent = st.ent
    fx = S.item_fx
    op = fx[item, L.FX_OP]
    amount = fx[item, L.FX_AMOUNT]
    if op == L.OP_HEAL:
        healed = min(amount, ent.max_health[t] - ent.health[t])
        extra = amount - healed if fx[item, L.FX_FLAG] != 0 else 0
        red = ent.health[t] <= S.fp[L.F_RED] * ent.max_health[t]
        if not red and 100 * (healed + extra) < _rule(S, R_KEEP) * amount:
            return 0.0  # kept for when it is worth it
    return _effect_score(st, S, c, t, op, amount, fx[item, L.FX_DURATION], fx[item, L.FX_FLAG])


@njit
def _item_pickup(st, S, c, mask):
    """The pick-up of the most valuable item within reach (``-1``: none legal)."""
    if st.game.floor_n == 0:
        return -1
    n = st.kind.shape[0]
    m = st.ent.shape[0]
    at = _item_base(n, m) + _pickup_offset(n, m)
    best, best_v = -1, -1
    fx = S.item_fx  # hoisted: a field read in the loop would be a load through the pointer
    floor = st.floor
    for f in range(L.F_CAP):
        if mask[at + f] and fx[floor[f, L.FL_ITEM], VALUE] > best_v:
            best, best_v = at + f, fx[floor[f, L.FL_ITEM], VALUE]
    return best


@njit
def _best_item_use(st, S, c, mask, best, best_a):
    """The best item use scoring above ``best`` (and its action), else ``best, best_a``."""
    ent = st.ent
    pool = _pool(ent, c)
    if ent.item_on[pool, 0] == 0 and ent.item_on[pool, 1] == 0:
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
    if ent.item_on[pool, 0] == 0 and ent.item_on[pool, 1] == 0:
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
