"""Revealing the Apocalypse.

Book: "The Apocalypse is revealed under any one of three circumstances: 7 characters on the board
are dead, the Rotation Counter reaches rotation 7, or one team has been completely eliminated";
"The count of 7, counts characters only"; "When revealed it is treated as a 1x1 Tile";
"Everyone is allotted at least one more regular turn before the Apocalypse begins" (house ruling
``turns_after_reveal``: turns *started* after the reveal).
"""

from __future__ import annotations

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.state.game_state import _board_changed
from sim.engine.log.events import _log
from sim.engine.rules.live_movement import _void_position
from sim.engine.tiles.live_board import _reveal_in_place
from sim.engine.rules.victory import _team_alive


@njit
def _reveal_reason(st, S):
    """Which reveal condition holds now (0: none), in the book's order."""
    g = st.game
    if g.deaths >= S.ip[L.P_REVEAL_DEATHS]:
        return L.BY_DEATHS
    if g.rotation >= S.ip[L.P_REVEAL_ROTATION]:
        return L.BY_ROTATION
    for t in range(4):
        if not _team_alive(st, t):
            return L.BY_ELIMINATION
    return 0


@njit
def _check_reveal(st, S):
    g = st.game
    if g.revealed != 0:
        return
    why = _reveal_reason(st, S)
    if why == 0:
        return
    g.revealed = 1
    g.reveal_why = why
    for t in range(4):
        g.owed[t] = S.ip[L.P_TURNS_AFTER] if _team_alive(st, t) else 0
    # "When revealed it is treated as a 1x1 Tile": switch to the revealed board's tables (or,
    # once tiles have been swapped or transformed, stamp the 1x1 tile into the live board)
    if not _reveal_in_place(st, S):
        _board_changed(st)
        st.move_nbr[:] = S.move_nbr2[1]
        st.sight_nbr[:] = S.sight_nbr2[1]
        st.sight_flag[:] = S.sight_flag2[1]
        st.kind[:] = S.kind2[1]
        st.tile_pos[:] = S.tile_pos2[1]
        st.twin[:] = S.twin2[1]
        for p in range(st.pos_state.shape[0]):
            if st.pos_state[p] == L.VOIDED:
                _void_position(st, p)
    _log(st, L.EV_REVEAL, why, g.apoc, 0, 0, 0, 0)
