"""What a team may know: invisible opponents are seen where they were last seen.

Book: "An invisible entity is not shown on the board, and its position stays concealed for as
long as the effect holds"; "The GM is told secretly where every invisible entity stands". The
engine (the GM) keeps every true position; a policy decides on an *observation* in which each
invisible opponent stands on the space where it turned invisible (``fields.SEEN``, set by
``timed_states._set_state``). ``_conceal`` swaps the true and the last-seen space of those entities
in place, and swapping again restores the state exactly (the set swapped depends only on
columns no policy writes), so a decision costs one scan of the entities and no copy. The
look-ahead's play-outs start from the observation: they play a world in which the invisible
opponent stands where it was last seen. The conformance suite checks that no policy's choice
depends on a hidden position (tests/test_policy_conformance.py).
"""

from __future__ import annotations

from sim._jit import njit


@njit
def _conceal(st, team):
    """Swap the true and last-seen spaces of ``team``'s invisible opponents (an involution);
    how many were swapped. No scan of the rows while none can be invisible
    (``fields.INVISIBLE_ROWS``: seven decisions in ten; the scan was 1 % of a greedy game)."""
    if st.game.invisible_rows <= 0:
        return 0
    ent = st.ent
    n = 0
    for e in range(ent.shape[0]):
        if ent.invisible[e] != 0 and ent.alive[e] != 0 and ent.team[e] != team:
            s = ent.space[e]
            ent.space[e] = ent.seen[e]
            ent.seen[e] = s
            n += 1
    return n
