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


@njit
def _summon_card(st, S, c):
    """``c``'s team summons: "a random 6th character card joins your team. Each team is allowed
    1 summon per game". Returns whether it happened (a tile reward calls this)."""
    return False


@njit
def _spawn_assist(st, S, c, k):
    """``c``'s team gains assist character ``k`` ("You can only have 1 assist character at a
    time"). Returns whether it happened."""
    return False
