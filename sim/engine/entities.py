"""Special entities: multi-character cards, assist characters, minions, clones, summons,
vehicles (issue #5 item 4).

CONTRACT STUB (to be replaced by the entities slice). Must import only ``layout`` and
``events``: ``death._kill`` calls :func:`_on_death_entities`.
"""

from __future__ import annotations

from sim._jit import njit


@njit
def _on_death_entities(st, S, e):
    """``e`` died: its minions disappear, its clones die with it ("all of a character's minions
    disappear if that character is killed"; "The Clone dies when the character it was copied
    from dies")."""
    return
