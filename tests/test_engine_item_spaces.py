"""Items and the board's spaces, on board 1's open patch and doorway (the module-scoped ``patch``,
found once): drop onto the current space and pick up within 1 range, a blast is tile-wide damage
on the tile of the space hit, and a destroyed coordinate removes its items (a full floor loses
them).

Each case sets up a small position (Team 1's first decision, everybody on one space or on an
open patch of a tile), gives items to characters or lays them on the board as data
(cards/items.csv rows), plays through the engine interface (the legal mask and ``apply``) and
asserts the rule. Each case quotes its rule (docs/items.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.rules.death import _kill
from sim.engine.items.holding import _put_on_floor
from sim.engine.rules.live_movement import _sight_from, _void_position
from tests._engine_kit import EXAMPLE_TEAMS, check_items, new_game
from tests._items_kit import drop, give, item, item_actions, pick, scenario, use_at


SPAN = 35


@pytest.fixture(scope="module")
def patch():
    """Board 1's geometry for range cases: an open space ``s`` of a big tile (its eight king
    neighbours ``ring`` floor of the same tile at range 1), a floor space ``far`` of that tile two
    steps away, and a doorway space ``door`` with the space ``beyond`` it in the next tile (range
    2: "It costs an extra range as a penalty when attacking across tiles")."""
    game = new_game(1, 2, EXAMPLE_TEAMS.cards)
    st = game.st
    kind, tp = st.kind, st.tile_pos
    floor = np.flatnonzero((kind == FLOOR) & (tp >= 0))
    open_, door = None, None
    for s in floor:
        r, c = divmod(int(s), SPAN)
        sight = _sight_from(st, game.S, int(s), 2)
        if open_ is None and 2 <= r < SPAN - 2 and 2 <= c < SPAN - 2:
            ring = [int(s) + dr * SPAN + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
            far = [t for t in floor if tp[t] == tp[s] and max(abs(t // SPAN - r),
                                                              abs(t % SPAN - c)) == 2]
            if all(kind[t] == FLOOR and tp[t] == tp[s] and sight[t] == 1 for t in ring) and far:
                open_ = (int(s), ring, int(far[0]))
        if door is None:
            beyond = [t for t in (s + 1, s - 1, s + SPAN, s - SPAN)
                      if 0 <= t < kind.shape[0] and tp[t] >= 0 and tp[t] != tp[s] and sight[t] == 2]
            if beyond:
                door = (int(s), int(beyond[0]))
        if open_ and door:
            return open_ + door
    # a failure, not a skip: the range cases must not stop running unnoticed when the board
    # generator changes (issue #27); pick another board seed above if this ever fires
    raise AssertionError("board 1 has no open patch or doorway: the range cases need another board")


# --------------------------------------------------------------------------- holding and using

def test_drop_onto_the_current_space_and_pick_up_within_1_range(patch):
    """"A character can drop any held item onto their current space, and can pick up any item in
    a space within 1 range of their current space" (house: 1 range = the range rules: a
    neighbouring space of the same tile; a tile boundary adds its penalty)."""
    s, ring, far, door, beyond = patch
    game, c = scenario(s)
    st = game.st
    give(game, c, "Spyglass")
    game.apply(drop(game, 0))
    assert [list(r) for r in st.floor if r[0] >= 0] == [[item("Spyglass"), s]]
    for t in (ring[0], ring[3], ring[7], far):
        _put_on_floor(st, item("Antidote"), t)
    legal = [a - pick(game, 0) for a in item_actions(game)]
    # rows: 0 the dropped spyglass (own space), 1-3 neighbours, 4 two steps away
    assert legal == [0, 1, 2, 3]
    saved, n_floor = st.floor.copy(), int(st.game.floor_n)
    st.floor[:] = -1
    st.game.floor_n = 0
    _put_on_floor(st, item("Antidote"), ring[0])  # nothing underfoot, one item a step away
    assert [a - pick(game, 0) for a in item_actions(game)] == [0]
    st.floor[:] = saved
    st.game.floor_n = n_floor
    game.st.ent.space[c] = door
    st.floor[1:5] = -1
    st.game.floor_n = 1
    _put_on_floor(st, item("Antidote"), beyond)  # row 1: next tile, range 2
    assert [a - pick(game, 0) for a in item_actions(game)] == []
    game.st.ent.space[c] = beyond
    assert [a - pick(game, 0) for a in item_actions(game)] == [1]


# --------------------------------------------------------------------------- the effects

def test_a_blast_is_tile_wide_damage_on_the_tile_of_the_space_hit(patch):
    """bomb / blast: "Tile-Wide Damage is flat damage dealt to a single tile ... applies
    immediately to everything in the affected tiles" (opponents, invisible ones too, and the
    thrower's own teammates standing there); within the item's range and line of sight."""
    s, ring, far, door, other = patch
    game, c = scenario(door)
    ent = game.st.ent
    foes = np.flatnonzero((ent.team >= 1) & (ent.kind == L.K_CHARACTER))
    ent.space[foes] = other
    ent.invisible[foes[0]] = 99 * L.CLOCKS + 1
    mates = np.flatnonzero((ent.team == 0) & (ent.kind == L.K_CHARACTER))
    ent.space[mates[1:]] = other
    give(game, c, "Fire Bomb")
    spaces = [a - use_at(game, 0, 0) for a in item_actions(game) if a < drop(game, 0)]
    assert other in spaces and door in spaces
    before, mates_before = ent.health[foes].copy(), ent.health[mates].copy()
    game.apply(use_at(game, 0, other))
    assert np.array_equal(ent.health[foes], before - 25)
    there = ent.space[mates] == other  # the thrower stands on another tile
    assert there.sum() == len(mates) - 1 and not there[mates == c].any()
    assert np.array_equal(ent.health[mates], mates_before - 25 * there)


# --------------------------------------------------------------------------- the floor

def test_a_destroyed_coordinate_removes_its_items_and_a_full_floor_loses_them():
    """"Anything in a tile that is destroyed is removed from the game"; house ruling: at most
    ``F_CAP`` items lie on the board — then one more cannot be dropped, and one dropped by a death
    leaves the game (docs/rulings.md)."""
    game, c = scenario()
    st, ent = game.st, game.st.ent
    here = int(ent.space[c])
    for _ in range(L.F_CAP - 1):
        assert _put_on_floor(st, item("Antidote"), here)
    give(game, c, "Spyglass")
    assert drop(game, 0) in item_actions(game)
    give(game, c, "Iron Sword")
    game.apply(drop(game, 0))
    assert drop(game, 1) not in item_actions(game), "the floor is full"
    _kill(st, game.S, c, -1, L.BY_ATTACK)
    assert st.game.items_lost == 1
    check_items(game)
    _void_position(st, int(st.tile_pos[here]))
    assert not _put_on_floor(st, item("Antidote"), here)
    other = int(np.flatnonzero((st.kind == FLOOR) & (st.tile_pos >= 0))[0])
    assert _put_on_floor(st, item("Antidote"), other)  # a row on the void is free again
    assert st.game.items_lost == 3
    check_items(game)
