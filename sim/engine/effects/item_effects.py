"""The items' own effects (opcodes ``fields.OP_ITEM_DAMAGE`` .. ``OP_ITEM_CLEANSE``; names in
``sim.catalogue.items.ITEM_EFFECTS``), run by ``interpreter._run_effect``.

Book: "Flat damage applies straight to a health pool and is not affected by defense";
"Tile-Wide Damage is flat damage dealt to a single tile or a collection of tiles, and it applies
immediately to everything in the affected tiles"; a de-buff "is a negative effect placed on a
character" that a cleanse ends. Must not import ``effects`` (it calls this module): the row is
read here directly (``S.item_fx`` for an item, ``S.tile_fx`` for a tile function that reuses an
item effect).
"""

from __future__ import annotations

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.rules.death import _harm
from sim.engine.log.events import _log
from sim.engine.entities.timed_states import _end_state
from sim.engine.rules.live_movement import _in_tiles, _linked_tile


@njit(inline="always")
def _amount(S, src, k):
    if src == L.FX_TILE:
        return S.tile_fx[k, L.FX_AMOUNT]
    return S.item_fx[k, L.FX_AMOUNT]


@njit
def _flat(st, S, c, e, dmg, cause):
    """Flat damage ``dmg`` from ``c`` to ``e`` ("not affected by defense"; not an attack: no
    retaliation)."""
    _log(st, L.EV_ITEM_DAMAGE, e, dmg, st.ent[e, L.HEALTH] - dmg, c, 0, 0)
    _harm(st, S, e, dmg, c, cause)


@njit
def _blast(st, S, c, s, dmg, cause):
    """Tile-wide damage on the tile of space ``s``: every entity in it, invisible or not, the
    user ``c`` and its team included. Book: "Tile-Wide Damage is flat damage dealt to a single
    tile or a collection of tiles, and it applies immediately to everything in the affected
    tiles"; only a Tile-Wide *Attack* "rolls against every opponent in the attacker's tile".
    Invisible entities too: "none of those require an attacker to pick a target". A portal in
    the tile links the far component's tile: it is hit whole as well (R4:S5). The log names
    ``c`` on every hit; damage and kills on ``c``'s own team are credited to nobody, so a card's
    record (dealt, kills) counts only what it did to opponents."""
    ent = st.ent
    p = st.tile_pos[s]
    q = _linked_tile(st, p)  # "an effect landing on one tile lands on the whole of the other"
    team = ent[c, L.TEAM]
    for e in range(ent.shape[0]):
        if ent[e, L.ALIVE] != 0 and _in_tiles(st, ent[e, L.SPACE], p, q) and st.game.over == 0:
            _log(st, L.EV_TILE_DAMAGE, e, dmg, ent[e, L.HEALTH] - dmg, c, 0, 0)
            _harm(st, S, e, dmg, c if ent[e, L.TEAM] != team else -1, cause)


@njit
def _run_item_effect(st, S, c, t, src, k, op):
    """Run opcode ``op`` of row (``src``, ``k``) for user ``c`` on target ``t`` (an entity, or
    ``M + s`` for space ``s``)."""
    m = st.ent.shape[0]
    if op == L.OP_ITEM_DAMAGE:
        _flat(st, S, c, t, _amount(S, src, k), L.BY_ABILITY)
    elif op == L.OP_ITEM_BLAST:
        _blast(st, S, c, t - m, _amount(S, src, k), L.BY_TILE_DAMAGE)
    elif op == L.OP_ITEM_CLEANSE:
        _end_state(st, t, L.DEBUFF)
        _end_state(st, t, L.FROZEN)
