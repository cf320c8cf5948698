"""Greedy's choice of who acts next in its team's turn (``sim.engine.rules.order``: the team chooses).

Why "those who can strike first": an attack can kill or wound, and the teammates who act after it
then move and strike knowing the result (focus fire on the wounded, no walk towards the dead);
a move first changes nothing for the strikers, as spaces hold any number of entities. The test
is ``live_movement._may_reach``'s cheap lower bound (an opponent within the character's range in tile
distance), so it costs a scan of the entities per teammate, and only when the character asked
first has no attack, ability, item or tile action worth taking.
"""

from __future__ import annotations

from sim._jit import njit
from sim.engine.rules.actions import _hand_base
from sim.engine.rules.live_movement import _may_reach


@njit
def _first_striker(st, S, c, mask):
    """The hand-over to the first teammate (card order) that may have an opponent within its
    range, when ``c`` has none within its own; -1 when there is none or ``c`` may not hand over."""
    ent = st.ent
    if st.game.hands_left <= 0 or ent.begun[c] != 0:
        return -1
    team = ent.team[c]
    if _may_reach(st, S, ent.space[c], team, ent.range[c]):
        return -1  # an opponent near but out of sight: ``c`` moves to strike, no one is surer
    base = _hand_base(st.kind.shape[0], ent.shape[0])
    for e in range(ent.shape[0]):
        if (mask[base + e] and ent.acted[e] == 0 and ent.submerged[e] == 0
                and _may_reach(st, S, ent.space[e], team, ent.range[e])):
            return base + e
    return -1
