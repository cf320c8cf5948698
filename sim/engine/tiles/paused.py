"""Deactivated and frozen tiles: their clocks, and the entities a frozen tile freezes.

Book: "When a tile is deactivated, all functionality of that tile is paused until the
deactivation is removed. Rewards and stats it has already granted are untouched"; "A frozen tile
has its functionality paused, exactly as a deactivated tile does. Every entity standing in a
frozen tile is frozen too, for as long as the tile is."

Why lazy expiries: a tile state is one ``until`` per position in ``State.tiles`` (``off``,
``frozen``), an expiry on the same clocks as the entity states (``timed_states._expiry``:
``count * CLOCKS + clock``, the creator team's turns or the rotations). Whether it still holds is
read where it matters (:func:`_over`: the test ``timed_states._tick`` applies), so no tick of the 49
positions runs at every turn. An entity in a frozen tile carries the tile's freeze as its own
``FROZEN`` state with the same expiry (``FROZEN_BY`` -1: a tile's state, not a character's
ability, so a death does not end it), which every place enforcing "frozen" already reads and
``timed_states._tick`` ends together with the tile's.
"""

from __future__ import annotations

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.log.events import _log
from sim.engine.entities.timed_states import _clock_now, _expiry
from sim.engine.rules.live_movement import _linked_tile
from sim.engine.tiles.live_board import _far_tile


@njit(inline="always")
def _over(st, until):
    """Whether the expiry ``until`` has been reached (``timed_states._tick``'s test, read lazily)."""
    return _clock_now(st, until % L.CLOCKS) >= until // L.CLOCKS


@njit
def _paused(st, p):
    """Position p's tile is deactivated or frozen now: "all functionality of that tile is
    paused"."""
    u = st.tiles.off[p]
    return (u != 0 and not _over(st, u)) or _frozen_now(st, p)


@njit
def _set_tile_state(st, S, p, freeze, duration, by):
    """Deactivate (``freeze`` 0) or freeze (1) the tile at p for ``duration`` turns of ``by``'s
    team (or rotations): "Freezing begins and ends as the ability or item causing it specifies".
    A portal in the tile links the far piece's tile, which takes the same state (R4:S5 "an
    effect landing on one tile lands on the whole of the other as well"; house ruling: a swap
    or a transform moves one tile only, docs/rulings.md)."""
    until = _expiry(st, S, by, duration)
    _hold_tile_state(st, p, freeze, until, by)
    q = _linked_tile(st, p)
    if q >= 0:
        _hold_tile_state(st, q, freeze, until, by)


@njit
def _hold_tile_state(st, p, freeze, until, by):
    """The tile at p deactivated (``freeze`` 0) or frozen (1) until ``until``."""
    if freeze != 0:
        st.tiles.frozen[p] = until
        st.tiles.frozen_by[p] = by
    else:
        st.tiles.off[p] = until
        st.tiles.off_by[p] = by
    _log(st, L.EV_TILE_STATE, p, freeze, until, by, 0, 0)
    if freeze != 0:
        st.game.frozen_tiles += 1
        _freeze_standing(st, p, until, by)


@njit
def _freeze_standing(st, p, until, by):
    """"Every entity standing in a frozen tile is frozen too, for as long as the tile is": each
    carries the tile's freeze, except one frozen by an ability or item of its own, which keeps
    it ("Freezing begins and ends as the ability or item causing it specifies"); when that one
    ends first, the tile's takes over at once (``_after_action_tiles``, also run after each clock's
    tick: ``turn._begin_turn``, ``turn._end_rotation``). Why: the tile's freeze replaced
    an entity's own, so a 1-turn tile freeze cut a 3-turn item freeze short (the fifth rules
    audit of stop 70)."""
    ent = st.ent
    for e in range(ent.shape[0]):
        s = ent.space[e]
        # on a portal piece it stands in the far piece's tile too ("treated as standing on both
        # components at the same time")
        if ent.alive[e] == 0 or s < 0 or (st.tile_pos[s] != p and _far_tile(st, s) != p):
            continue
        _take_tile_freeze(st, e, until, by)


@njit
def _take_tile_freeze(st, e, until, by):
    """``e`` stands in a tile frozen until ``until``: it carries the tile's freeze."""
    ent = st.ent
    if ent.frozen[e] != 0 and (ent.frozen[e] == until or ent.frozen_by[e] != -1):
        return  # the tile's freeze already, or a freeze of its own
    if ent.frozen[e] == 0:  # a state starts here, not through timed_states._set_one
        st.game.timed_held += 1  # (fields.TIMED_HELD)
    ent.frozen[e] = until
    ent.frozen_by[e] = -1
    ent.done[e] = 1 if ent.team[e] >= 0 else ent.done[e]
    _log(st, L.EV_STATE, e, L.FROZEN, until, by, 0, 0)


@njit
def _freeze_arrival(st, e):
    """``e`` was just moved in the middle of an action (a fall: ``terrain._fall``): in a frozen
    tile it is frozen at once, not after the action (:func:`_after_action_tiles`), so a CPU that
    fell there does not retaliate, nor act in the GM Turn that follows. Why only ``e``: the
    others in frozen tiles are as they were before the fall."""
    s = st.ent.space[e]
    if st.game.frozen_tiles == 0 or s < 0 or st.ent.alive[e] == 0:
        return
    p = st.tile_pos[s]
    if not _frozen_now(st, p):
        p = _far_tile(st, s)  # on a portal piece it stands in the far piece's tile too
        if p < 0 or not _frozen_now(st, p):
            return
    _take_tile_freeze(st, e, st.tiles.frozen[p], st.tiles.frozen_by[p])


@njit(inline="always")
def _frozen_now(st, p):
    u = st.tiles.frozen[p]
    return u != 0 and not _over(st, u)


@njit
def _after_action_tiles(st, S):
    """After every action and every clock's tick: whoever now stands in a frozen tile (walked,
    teleported, launched, carried by a swap, revived there, or thawed from a freeze of its own)
    is frozen with it. Costs one read while no tile is frozen."""
    g = st.game
    if g.frozen_tiles == 0:
        return
    n = 0
    for p in range(st.tiles.shape[0]):
        u = st.tiles.frozen[p]
        if u == 0:
            continue
        if _over(st, u):
            st.tiles.frozen[p] = 0
            st.tiles.frozen_by[p] = -1
            _log(st, L.EV_TILE_STATE, p, 1, 0, -1, 0, 0)
            continue
        n += 1
        _freeze_standing(st, p, u, st.tiles.frozen_by[p])
    g.frozen_tiles = n
