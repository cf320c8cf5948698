"""Items held, lying on the board, and changing hands (issue #5 item 2; design: docs/items.md).

Why these columns: an entity's items live on its **pool's row** ("Multi-Character Cards share
one item pool": ``POOL`` points every character of such a card at its first character's row;
minions may point at their creator's), two slots ("A character can only hold up to 2 items at a
time"), each with an *active* flag ("A character must End their Turn with an Item in order to
use it"). A held item's stat ("A stat from an item lasts as long as that item is held and
active") is applied **in place** to the stat columns of every entity sharing the pool ("any item
that grants its effect simply by being held, applies to all of them"), and the change actually
applied is recorded per row (``ITEM_DELTA + k``) and taken off exactly when the item leaves, so
hot loops read the stats as they are and pay nothing for items. Items on the board sit in
``State.floor`` (``[item, space]`` rows, -1 = empty).

This module must not import ``effects``, ``death`` or ``combat`` (``death._kill`` calls
:func:`_drop_items`); using an item through the interpreter lives in ``use.py``.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.catalogue.items import HAND_SLOTS, HELD, ITEM_COLS, R_HAND

from sim.engine.state import fields as L
from sim.engine.log.events import _log
from sim.engine.entities.timed_states import _shift_stat

# why an item reached the floor (EV_ITEM_DROP) and how it was gained (EV_ITEM_GAIN)
DROPPED, ON_DEATH, LOST = 0, 1, 2
PICKED_UP, GRANTED = 0, 1


def item_table(catalogue) -> np.ndarray:
    """``int64[item + 1, ITEM_COLS]``: one effect row per item (``S.item_fx``, in
    ``catalogue.items.names`` order) with its held flag, type and value, then the rules row
    (sim/catalogue/items.py)."""
    items = getattr(catalogue, "items", None)
    if items is None:
        return np.zeros((1, ITEM_COLS), np.int64)
    return items.table()


@njit(inline="always")
def _rule(S, r):
    """Rule ``r`` (``R_PICKUP``, ``R_KEEP``, ``R_HAND``) of cards/item_types.toml: the table's
    last row."""
    return S.item_fx[S.item_fx.shape[0] - 1, r]


@njit(inline="always")
def _pool(ent, e):
    """The row holding ``e``'s items: itself, or (``POOL``) its card's first character — one
    function, so minions can map to their creator's pool ("when a minion picks up an item, that
    item is added to the creator's item pool")."""
    o = ent.owner[e] - 1
    if o >= 0 and (ent.kind[e] == L.K_MINION or ent.kind[e] == L.K_CLONE):
        e = o  # "minions can make use of any and all items held by their creator" (a clone "is
        #        treated as a minion")
    p = ent.pool[e]
    return e if p == 0 else p - 1


@njit(inline="always")
def _held(ent, pool):
    """Items in the pool (0 up to its slots, ``HAND_SLOTS``)."""
    held = 0
    for k in range(HAND_SLOTS):
        held += int(ent.item_slot[pool, k] != 0)
    return held


@njit(inline="always")
def _hands_full(S, ent, pool):
    """The pool holds as many items as a character may: "A character can only hold up to 2 items
    at a time" (cards/item_types.toml [rules] hand_limit)."""
    return _held(ent, pool) >= _rule(S, R_HAND)


@njit
def _init_pools(ent, characters):
    """"They share one stat pool and one item pool": each character of a multi-character card
    points at the card's first character (a card's characters are consecutive rows, teams in
    order: new_game._init_game; ``characters`` = characters per card)."""
    e = 0
    while e < ent.shape[0] and ent.is_cpu[e] == 0:
        n = characters[ent.card[e]]
        for j in range(1, n):
            ent.pool[e + j] = e + 1
        e += n


@njit
def _held_effect(st, S, pool, k, on):
    """Put on (``on``) or take off the stat of the held item in slot ``k`` of ``pool``, on every
    entity sharing the pool; what was applied is recorded per row and reverted exactly."""
    ent = st.ent
    item = ent.item_slot[pool, k] - 1
    if item < 0 or S.item_fx[item, HELD] == 0:
        return
    stat = S.item_fx[item, L.FX_STAT]
    amount = S.item_fx[item, L.FX_AMOUNT]
    for e in range(ent.shape[0]):
        if _pool(ent, e) != pool:
            continue
        if on:
            ent.item_delta[e, k] = _shift_stat(ent, e, stat, amount)
        elif ent.item_delta[e, k] != 0:
            _shift_stat(ent, e, stat, -ent.item_delta[e, k])
            ent.item_delta[e, k] = 0


@njit
def _item_change(ent, S, e, stat):
    """The change the held items of ``e``'s pool made to ``e``'s ``stat`` (what
    :func:`_held_effect` applied to this row and will take off)."""
    pool = _pool(ent, e)
    total = 0
    for k in range(HAND_SLOTS):
        item = ent.item_slot[pool, k] - 1
        if item >= 0 and ent.item_delta[e, k] != 0 and S.item_fx[item, L.FX_STAT] == stat:
            total += ent.item_delta[e, k]
    return total


@njit
def _take(st, S, pool, k):
    """Empty slot ``k`` of ``pool`` (its held stat taken off); the item type it held."""
    ent = st.ent
    item = ent.item_slot[pool, k] - 1
    if ent.item_on[pool, k] != 0:
        _held_effect(st, S, pool, k, False)
    ent.item_slot[pool, k] = 0
    ent.item_on[pool, k] = 0
    return item


@njit
def _give(st, S, pool, item):
    """Put ``item`` in the first free slot of ``pool``, not yet usable ("When an item is gained or
    picked up, it cannot be used immediately"); the slot, or -1 when the hand is full."""
    ent = st.ent
    for k in range(_rule(S, R_HAND)):
        if ent.item_slot[pool, k] == 0:
            ent.item_slot[pool, k] = item + 1
            ent.item_on[pool, k] = 0
            return k
    return -1


@njit(inline="always")
def _row_free(st, f):
    """A floor row holds nothing, or an item on a destroyed coordinate ("Anything in a tile that
    is destroyed is removed from the game")."""
    s = st.floor[f, L.FL_SPACE]
    return st.floor[f, L.FL_ITEM] < 0 or st.tile_pos[s] < 0


@njit
def _free_row(st):
    """The first free floor row, or -1 when ``State.floor`` is full."""
    for f in range(st.floor.shape[0]):
        if _row_free(st, f):
            return f
    return -1


@njit
def _place(st, e, item, s, why):
    """``item`` (from ``e``) comes to lie on space ``s``; lost when the floor is full or ``s`` is
    gone (house ruling: docs/rulings.md). Returns whether it lies on the board."""
    g = st.game
    f = _free_row(st) if s >= 0 and st.tile_pos[s] >= 0 else -1
    if f < 0:
        g.items_lost += 1
        _log(st, L.EV_ITEM_DROP, e, item, s, LOST, 0, 0)
        return False
    if st.floor[f, L.FL_ITEM] >= 0:  # an item on a destroyed coordinate: it left the game then
        g.items_lost += 1
    else:
        g.floor_n += 1
    st.floor[f, L.FL_ITEM] = item
    st.floor[f, L.FL_SPACE] = s
    _log(st, L.EV_ITEM_DROP, e, item, s, why, f, 0)
    return True


@njit
def _drop_items(st, S, e):
    """``e`` died: "their items drop exactly where they were standing when they died". A
    multi-character card's pool drops with the last of its characters (while one lives, the card
    lives: "Every character attached to the card must be Killed before the card is considered
    dead")."""
    ent = st.ent
    if ent.kind[e] == L.K_MINION or ent.kind[e] == L.K_CLONE:
        return  # it holds nothing of its own: the pool is its creator's
    pool = _pool(ent, e)
    if _held(ent, pool) == 0:
        return
    # a living character of the same card keeps the pool; its minions and clone do not (they
    # share the pool and the card, and still live when this runs: "All of that character's
    # minions disappear" comes after; the fifth rules audit of stop 70)
    for d in range(ent.shape[0]):
        if (d != e and ent.alive[d] != 0 and ent.kind[d] <= L.K_SUMMONED
                and _pool(ent, d) == pool and ent.card[d] == ent.card[e]
                and ent.team[d] == ent.team[e]):
            return
    for k in range(HAND_SLOTS):
        if ent.item_slot[pool, k] != 0:
            item = _take(st, S, pool, k)
            _place(st, e, item, ent.space[e], ON_DEATH)


@njit
def _end_turn_items(st, S, c):
    """``c`` ends its turn: the items its pool holds become usable ("A character must End their
    Turn with an Item in order to use it") and a held item's stat starts ("A stat from an item
    lasts as long as that item is held and active")."""
    ent = st.ent
    pool = _pool(ent, c)
    for k in range(HAND_SLOTS):
        if ent.item_slot[pool, k] != 0 and ent.item_on[pool, k] == 0:
            ent.item_on[pool, k] = 1
            _held_effect(st, S, pool, k, True)
            _log(st, L.EV_ITEM_ACTIVE, c, ent.item_slot[pool, k] - 1, k, 0, 0, 0)


@njit
def _grant_item(st, S, e, item):
    """Give item type ``item`` to ``e``'s pool (a tile reward: "Items are gained primarily through
    tiles"); not usable until ``e`` (or a character sharing its pool) ends a turn holding it.
    False, and nothing happens, when the hand is full already."""
    ent = st.ent
    pool = _pool(ent, e)
    k = _give(st, S, pool, item)
    if k < 0:
        return False
    st.game.items_gained += 1
    _log(st, L.EV_ITEM_GAIN, e, item, GRANTED, ent.space[e], k, 0)
    return True


@njit
def _put_on_floor(st, item, s):
    """An item enters the game lying on space ``s`` (a tile's reward with no free slot, a test's
    scenario); False when it cannot (the floor full, ``s`` gone)."""
    st.game.items_gained += 1
    return _place(st, -1, item, s, DROPPED)


@njit
def _pick_up(st, S, c, f):
    """``c`` picks up floor item ``f`` (legal: within range, a free slot)."""
    pool = _pool(st.ent, c)
    item = st.floor[f, L.FL_ITEM]
    k = _give(st, S, pool, item)
    s = st.floor[f, L.FL_SPACE]
    st.floor[f, L.FL_ITEM] = -1
    st.floor[f, L.FL_SPACE] = -1
    st.game.floor_n -= 1
    _log(st, L.EV_ITEM_GAIN, c, item, PICKED_UP, s, k, 0)


@njit
def _drop(st, S, c, k):
    """``c`` drops slot ``k`` of its pool "onto their current space" (legal: a free floor row)."""
    item = _take(st, S, _pool(st.ent, c), k)
    _place(st, c, item, st.ent.space[c], DROPPED)


@njit
def _free_water(st, S, e):
    """Whether ``e``'s pool holds an active item that lets it "Freely Cross Water" (for the water
    slice: "All attempted Water Rolls are an Automatic Success")."""
    ent = st.ent
    pool = _pool(ent, e)
    for k in range(HAND_SLOTS):
        item = ent.item_slot[pool, k] - 1
        if (item >= 0 and ent.item_on[pool, k] != 0 and S.item_fx[item, HELD] != 0
                and S.item_fx[item, L.FX_FLAG] != 0):
            return True
    return False
