"""The items' own effects (opcodes ``fields.OP_ITEM_DAMAGE`` .. ``OP_ITEM_CLEANSE``; their rows in
``sim/catalogue/effect_table.py``), one kernel each, run by ``interpreter._run_effect``.

Book: "Flat damage applies straight to a health pool and is not affected by defense";
"Tile-Wide Damage is flat damage dealt to a single tile or a collection of tiles, and it applies
immediately to everything in the affected tiles"; a de-buff "is a negative effect placed on a
character" that a cleanse ends. Must not import ``interpreter`` (it calls this module): the row
is read with ``row._fx``.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.rules.death import _harm, _health_after
from sim.engine.rules.victory import _check_victory, _team_health
from sim.engine.log.events import _log
from sim.engine.effects.row import _fx
from sim.engine.entities.timed_states import _end_state
from sim.engine.rules.live_movement import _in_tiles, _linked_tile


@njit
def _flat(st, S, c, e, dmg, cause):
    """Flat damage ``dmg`` from ``c`` to ``e`` ("not affected by defense"; not an attack: no
    retaliation)."""
    _log(st, L.EV_ITEM_DAMAGE, e, dmg, _health_after(st, e, dmg, cause), c, 0, 0)
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
    record (dealt, kills) counts only what it did to opponents.

    "applies immediately to everything": the blast is one event, so every entity in the tiles
    is hit and the winner is decided after it, as after an Apocalypse step; when the last teams
    standing all fall in it, the simultaneous-elimination ruling (health just before the blast)
    decides. Deciding at the first death ended the game mid-blast and spared the others. For
    the same reason who is hit is read before anyone is: a hit can move an entity (a fall, with
    the terrain draft), and a pilot carried out of the tile by its falling vehicle, whose row
    comes later, escaped the blast (found by fuzzing, stop 72)."""
    ent = st.ent
    g = st.game
    p = st.tile_pos[s]
    q = _linked_tile(st, p)  # "an effect landing on one tile lands on the whole of the other"
    team = ent.team[c]
    before = _team_health(st, np.zeros(4, np.int64))
    inside = np.zeros(ent.shape[0], np.bool_)
    for e in range(ent.shape[0]):
        inside[e] = ent.alive[e] != 0 and _in_tiles(st, ent.space[e], p, q)
    outer = g.defer  # a blast inside a deferred event leaves the decision to that event
    g.defer = 1
    for e in range(ent.shape[0]):
        if inside[e] and ent.alive[e] != 0:
            _log(st, L.EV_TILE_DAMAGE, e, dmg, _health_after(st, e, dmg, cause), c, 0, 0)
            _harm(st, S, e, dmg, c if ent.team[e] != team else -1, cause)
    g.defer = outer
    _check_victory(st, S, before)


@njit
def _run_item_damage(st, S, user, target, source, row):
    """Flat damage ``amount`` on entity ``target``."""
    _flat(st, S, user, target, _fx(st, S, user, source, row, L.FX_AMOUNT), L.BY_ITEM)


@njit
def _run_item_blast(st, S, user, target, source, row):
    """Tile-wide damage ``amount`` on the tile of space ``target - M``."""
    amount = _fx(st, S, user, source, row, L.FX_AMOUNT)
    _blast(st, S, user, target - st.ent.shape[0], amount, L.BY_TILE_DAMAGE)


@njit
def _run_item_cleanse(st, S, user, target, source, row):
    """The end of ``target``'s de-buff and freeze."""
    _end_state(st, target, L.DEBUFF)
    _end_state(st, target, L.FROZEN)
