"""Movement and sight on a game's live board, and destroying a coordinate.

Why copies of the graph per game: "When a tile coordinate is destroyed, it is replaced by a 'void'
that functions identically to the face-down Apocalypse tile" — untraversable and blocking line of
sight — so each game cuts the links of its destroyed coordinates out of its own neighbour tables,
and the unchanged board kernels (:func:`sim.board.movement._reach`, :func:`sim.board.sight._sight`)
keep answering every question.
"""

from __future__ import annotations

from sim._jit import njit
from sim.board.movement import _reach
from sim.board.sight import _sight

from . import layout as L


@njit
def _reach_from(st, S, start, speed):
    """``st.cost[s]``: speed to reach s from ``start`` (-1 out of reach). Dry moves only: no
    water-rolls in simulated games (part 1)."""
    _reach(st.move_nbr, S.move_roll, st.twin, S.space_bodies, S.body_start, S.body_members,
           start, speed, 0, S.ip[L.P_MOVE_COST], st.cost, st.rolls)


@njit
def _sight_from(st, S, start, max_range):
    """``st.sight[s]``: range needed to attack s from ``start`` (-1: out of range or sight)."""
    ip = S.ip
    stack_cap = 4 * (max_range + 2) * max(ip[L.P_N_PIECES], 1) + 8
    _sight(st.sight_nbr, st.sight_flag, st.kind, st.twin, st.tile_pos, start, max_range,
           ip[L.P_RANGE_COST], ip[L.P_DIAG_COST], ip[L.P_TILE_PEN], ip[L.P_PER_BOUNDARY] != 0,
           ip[L.P_WATER_PEN], ip[L.P_PER_WATER] != 0, ip[L.P_PORTAL_BOUNDARY] != 0,
           ip[L.P_DOOR_RANGE], stack_cap, st.sight)


@njit
def _cut(nbr, s):
    for d in range(8):
        t = nbr[s, d]
        if t >= 0:
            for d2 in range(8):
                if nbr[t, d2] == s:
                    nbr[t, d2] = -1
            nbr[s, d] = -1


@njit
def _void_position(st, p):
    """Turn every space of grid position ``p`` into void: no moves or sight into, out or through."""
    for s in range(st.kind.shape[0]):
        if st.tile_pos[s] != p:
            continue
        _cut(st.move_nbr, s)
        _cut(st.sight_nbr, s)
        t = st.twin[s]
        if t >= 0:  # "If a portal disappears ... The link is severed"
            st.twin[t] = -1
            st.twin[s] = -1
        st.kind[s] = 0
        st.tile_pos[s] = -1


@njit
def _homefield(st, S, e):
    """R3:S2:A8 "When a character's suit matches the suit of the tile they are in"."""
    s = st.ent[e, L.SPACE]
    if s < 0 or st.ent[e, L.SUIT] < 0:
        return False
    p = st.tile_pos[s]
    return p >= 0 and S.pos_suit[p] == st.ent[e, L.SUIT]
