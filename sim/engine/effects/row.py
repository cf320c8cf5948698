"""Reading an effect row, wherever it lives: one reader for the interpreter and the slices' own
effects (``tile_effects``, ``item_effects``, ``entity_effects`` may not import ``interpreter``, which calls them).
"""

from __future__ import annotations

from sim._jit import njit

from sim.engine.state import fields as L


@njit(inline="always")
def _fx(st, S, user, source, row, slot):
    """Slot ``slot`` (``fields.FX_*``) of an effect row: the user's own ability (``source``
    ``FX_ABILITY``: its entity's ``ab`` field), item type ``row`` (``FX_ITEM``: ``S.item_fx``) or
    tile function ``row`` (``FX_TILE``: ``S.tile_fx``). One reader, so an item's heal and an
    ability's heal run the same code."""
    if source == L.FX_ABILITY:
        return st.ent.ab[user, slot]
    if source == L.FX_ITEM:
        return S.item_fx[row, slot]
    return S.tile_fx[row, slot]
