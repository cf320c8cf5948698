"""Terrain in play: falling from a platform edge or a ladder when damaged.

Terrain document (``../shared/seeds``): "Whenever damage is allocated to a fighter that is within
½" of the edge of a platform or climbing a ladder, the controlling player must roll a die: On a
1: The fighter falls"; "If a fighter is allocated damage while climbing a ladder, they may fall".
Tile layouts draw ladders (``L``) and platforms (``^``) as floor spaces with a feature
(``State.feature``). House rulings (docs/rulings.md, numbers in ``rules.toml [board]``):

- "within ½" of the edge" = a platform space with a move neighbour that is ground (a floor space
  that is neither platform nor ladder); a ladder space is always "climbing a ladder";
- the fall lands on the first such ground neighbour in the fixed direction order (N, NE, E, SE,
  S, SW, W, NW) that a dry step reaches (a water or fire wall needs a water-roll: book l.354-356,
  so no fall crosses one); with none, there is nowhere to fall and nothing happens;
- a character inside a vehicle does not fall (the vehicle holds it); a vehicle that falls carries
  its pilot along, unhurt; a Submerged fighter does not fall (it "is stuck in the water", beside
  the space it rolled from, not on the platform: docs/rulings.md "Where a submerged character is");
- a fighter that lands in a frozen tile is frozen at once ("Every entity standing in a frozen
  tile is frozen too"), so it does nothing more in the action or turn it fell in (a CPU does not
  retaliate from there, nor act in the GM Turn that follows);
- a fall deals ``falling_damage`` flat damage (the document gives none), which can itself kill but
  never makes a second fall (the landing space is ground).

Kept apart from ``death`` (which calls :func:`_fall` after health is lost) so that it imports
nothing that imports ``death``.
"""

from __future__ import annotations

from sim._jit import njit
from sim.catalogue.tile_layout import FLOOR, LADDER, PLATFORM
from sim.rng import roll

from sim.engine.state import fields as L
from sim.engine.log.events import _log
from sim.engine.tiles.paused import _freeze_arrival


@njit(inline="always")
def _ground(st, s):
    return s >= 0 and st.kind[s] == FLOOR and st.tile_pos[s] >= 0 and (
        st.feature[s] != PLATFORM and st.feature[s] != LADDER)


@njit
def _landing(st, s):
    """Where a fall from ``s`` lands (-1: ``s`` is no ladder or platform edge)."""
    f = st.feature[s]
    if f != PLATFORM and f != LADDER:
        return -1
    for d in range(8):
        t = st.move_nbr[s, d]
        if st.move_roll[s, d] == 0 and _ground(st, t):  # a wall needing a water-roll: no fall
            return t
    return -1


@njit
def _fall(st, S, e):
    """``e`` (alive) was just allocated damage: roll for a fall. Returns the falling damage to
    deal (0: no fall); ``e`` has already moved to where it landed."""
    if S.ip[L.P_FALL_MAX] <= 0:
        return 0
    s = st.ent.space[e]
    if s < 0 or st.ent.riding[e] != 0:  # a pilot sits in its vehicle: the vehicle may fall
        return 0
    if st.ent.submerged[e] != 0:  # in the water beside the platform, not on its edge
        return 0
    land = _landing(st, s)
    if land < 0:
        return 0
    rng = st.rng
    face, rng[0], rng[1], rng[2], rng[3] = roll(S.ip[L.P_FALL_DIE], rng[0], rng[1], rng[2],
                                               rng[3])
    if face > S.ip[L.P_FALL_MAX]:
        return 0
    st.ent.space[e] = land  # "On a 1: The fighter falls"
    pilot = st.ent.pilot[e] - 1
    if pilot >= 0:  # a vehicle falls with the character inside it
        st.ent.space[pilot] = land
    _log(st, L.EV_FALL, e, s, land, face, S.ip[L.P_FALL_DAMAGE], 0)
    _freeze_arrival(st, e)
    if pilot >= 0:
        _freeze_arrival(st, pilot)
    return S.ip[L.P_FALL_DAMAGE]
