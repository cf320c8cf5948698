"""Interactables, one scenario per rule: a character is put on or beside a tile's interactable
piece on board 3 (every catalogue tile is in play there), the interactable is used through the
engine interface (the legal mask and ``apply``), and its range, price and effect are asserted
(learning the Apocalypse, the team economy, the extra action). Each case quotes its rule
(docs/tiles.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.catalogue.tile_layout import FLOOR, INTERACT
from sim.engine.state import fields as L
from sim.engine.tiles.live_board import _space_cell, _tile_at
from sim.engine.tiles.fx_table import CELLS, TF_FEATURE, TF_PIECE
from sim.engine.tiles.functions import _knows_apocalypse
from sim.engine.rules.turn import _begin_turn
from tests._tiles_kit import (TILES, ally_of, end_turn_of, enemy_of, floor_of, game_on, interact,
                              interact_actions, space, where)


# ---------------------------------------------------------------------------- interactables

@pytest.mark.parametrize("tile, at, offered", [
    ("Fortress of Solitude", (1, 2), True),   # beside the crystal piece
    ("Fortress of Solitude", (2, 2), True),   # on it
    ("Fortress of Solitude", (0, 0), False),  # two steps away
    ("Mystic Elevator", (0, 0), True),        # "or the tile itself, such as the Mystic Elevator"
    ("River Styx", (0, 0), True),             # a tile with no piece: the tile itself
])
def test_an_interactable_is_used_from_within_1_range(tile, at, offered):
    """"Interactables are portions of a tile that can be interacted with by spending an action,
    from within 1 range of the interactable piece ... or the tile itself"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    st.game.coins[0] = 5
    ent.space[c] = space(tile, *at)
    assert bool(interact_actions(game)) == offered
    ent.acted[c] = 1  # "by spending an action": none left, none offered
    assert interact_actions(game) == []


def test_an_interactable_from_the_next_tile_is_out_of_range():
    """Range across a tile boundary costs the tile-to-tile penalty: a doorway space beside a tile
    whose piece is the tile itself (the Mystic Elevator, 1×1) is not within 1 range."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    elevator = space("Mystic Elevator", 0, 0)
    beside = [int(s) for s in st.sight_nbr[elevator] if s >= 0 and st.kind[s] == FLOOR]
    assert beside and all(st.tile_pos[s] != st.tile_pos[elevator] for s in beside)
    ent.space[c] = beside[0]
    assert interact_actions(game) == []


def test_the_pieces_cell_in_the_next_tile_is_not_within_1_range():
    """"from within 1 range of the interactable piece": only the piece's own spaces count. A
    character two or more spaces from the piece, whose neighbour across the tile boundary lies on
    the piece's cell number of the *next* tile, is not within 1 range (every such space of board
    4; there are some, so the case is reached)."""
    game, c = game_on()
    st, ent, S = game.st, game.st.ent, game.S
    st.game.coins[0] = 5
    fx, nbr, tile_pos = S.tile_fx, st.sight_nbr, st.tile_pos
    cases = []
    for s in np.flatnonzero((tile_pos >= 0) & (st.kind == FLOOR)):
        p, t = tile_pos[s], _tile_at(st, S, tile_pos[s])
        if t < 0 or fx[2 * t + 1, L.FX_OP] == 0 or fx[2 * t + 1, TF_PIECE] == 0:
            continue
        piece = {cell for cell in range(CELLS) if fx[2 * t + 1, TF_FEATURE + cell] == INTERACT}
        near = [x for x in nbr[s] if x >= 0]
        if _space_cell(s) in piece or any(tile_pos[x] == p and _space_cell(x) in piece
                                          for x in near):
            continue  # within 1 range of the piece itself
        if any(tile_pos[x] != p and _space_cell(x) in piece for x in near):
            cases.append(int(s))
    assert cases
    for s in cases:
        ent.space[c] = s
        assert interact_actions(game) == [], s


def test_learning_the_apocalypse_once():
    """The Kryptonian Crystal ("learn the Apocalypse early"): the team learns which Apocalypse
    lies face-down (the look-ahead stops guessing it); nothing is left to learn afterwards."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    ent.space[c] = space("Fortress of Solitude", 1, 2)
    assert not _knows_apocalypse(st, 0)
    game.apply(interact(game, int(ent.space[c])))
    assert _knows_apocalypse(st, 0) and not _knows_apocalypse(st, 1) and ent.acted[c] == 1
    ent.acted[c] = 0
    assert interact_actions(game) == []


def test_a_team_economy_is_spent_by_any_teammate():
    """"Aside from Tile Rewards, other Nonphysical resources can also be gained through a Tile's
    native economy system. Any intangible spending power gained from a Tile can be used by any
    member of your team": coins earned in the Server Farm buy an item at the Acme Catalogue."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    a = ally_of(game, c)
    ent.space[a] = floor_of(game, where("Server Farm"))
    ent.space[c] = space("Acme Warehouse", 1, 0)  # beside the catalogue piece
    end_turn_of(game, a)
    assert st.game.coins[0] == 1 and interact_actions(game) == []  # the price is 2
    end_turn_of(game, a)
    assert st.game.coins[0] == 2 and interact_actions(game) == [int(ent.space[c])]
    game.apply(interact(game, int(ent.space[c])))
    assert st.game.coins[0] == 0 and ent.item_slot[c, 0] != 0
    d = enemy_of(game, c)
    st.game.coins[1] = 0
    ent.space[d] = ent.space[c]
    st.game.cur, st.game.coins[0] = d, 5  # Team 1's coins are not Team 2's
    assert interact_actions(game) == []


def test_an_extra_action_next_turn():
    """The Encore ("one extra action next turn"): in the next turn, the character that has acted
    gets its action back once; unused, it is gone when that turn is over (house ruling)."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    ent.space[c] = floor_of(game, where("Concert Stage"))
    ent.ticks[c], ent.tick_tile[c] = 1, TILES.find("Concert Stage") + 1
    end_turn_of(game, c)
    assert ent.extra_left[c] == 1
    ent.acted[c] = 1
    game.apply(L.END)  # this turn: not yet
    assert ent.done[c] == 1
    _begin_turn(st, game.S, 0)
    st.game.cur = c
    ent.acted[c] = 1  # it has attacked
    game.apply(L.END)
    assert ent.acted[c] == 0 and ent.done[c] == 0 and ent.extra_left[c] == 0
    assert game.current == c
    game.apply(L.END)
    assert ent.done[c] == 1
