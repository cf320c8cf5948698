"""Bodies of water on the live board: the tile table's bodies of water are the compiled board's,
a tile swapped in play brings its water ("the two tiles trade positions on the board while
keeping their orientation"), and a submerged character escapes across moved water while a
transform frees it.

Each case puts a character beside the water, a wall, a platform edge or a ladder of board 1 and
acts through the engine interface; each case quotes its rule."""

from __future__ import annotations

import numpy as np
import pytest

from sim.board.geometry import APOCALYPSE, local_space
from sim.board.graph import compile_board
from sim.engine.tiles.swap_in_play import _swap, _transform
from tests._engine_kit import CATALOGUE, board_shores, live_shores, new_game, setup_for
from tests._water_kit import BOARD, RULES, cross, put, rules_ip, water_action, water_game


@pytest.mark.parametrize("board", [0, 1, 2, 3, 4, 5])
def test_the_tile_tables_bodies_of_water_are_the_compiled_boards(board):
    """"On a success, you may move into any other space adjacent to that same body of water":
    with no tile moved, the spaces a crossing may land on, read from the tile at each position
    (water_rolls._shore, fx_table.TF_SHORE), are per space exactly those of the board compiled in
    Python (compile_board's space_bodies and body_members, as sets), before the reveal and on
    the revealed board ("When revealed it is treated as a 1x1 Tile")."""
    game = new_game(board, 1)
    st, S = game.st, game.S
    start = setup_for(board).board
    shores = board_shores(compile_board(start, CATALOGUE.tiles, RULES))
    assert shores, "every generated board has water"
    assert live_shores(st, S) == shores
    revealed = start.copy()
    revealed.tiles[revealed.tiles == APOCALYPSE] = CATALOGUE.tiles.uncovered
    assert (live_shores(st, S, S.tile_pos2[1])
            == board_shores(compile_board(revealed, CATALOGUE.tiles, RULES)))


def swapped_styx(dry="Tokyo Rooftops"):
    """Board 1 with River Styx swapped in play with a dry 5×5 tile: the game, the character
    deciding and the position River Styx stands at now. River Styx's thin water edge runs along
    the whole tile between its rows 1 and 2 (cards/tiles.toml)."""
    game, c = water_game()
    tiles = setup_for(BOARD).board.tiles.ravel()
    p = int(np.flatnonzero(tiles == CATALOGUE.tiles.find("River Styx"))[0])
    q = int(np.flatnonzero(tiles == CATALOGUE.tiles.find(dry))[0])
    _swap(game.st, game.S, p, q, -1)
    assert game.st.tiles.tile[q] == CATALOGUE.tiles.find("River Styx")
    return game, c, q


def test_a_tile_swapped_in_play_brings_its_water():
    """"the two tiles trade positions on the board while keeping their orientation" and "the
    tile and everything in it remain unchanged": beside the water of River Styx, swapped in
    play, a character may roll across it ("you may move into any other space adjacent to that
    same body of water. This movement costs no speed") and lands on the moved tile's far side;
    the position River Styx left (now dry Tokyo Rooftops) offers no crossing."""
    game, c, q = swapped_styx()
    here = local_space(divmod(q, 7), 1, 0, 5)  # above the water edge
    far = local_space(divmod(q, 7), 2, 4, 5)   # below it, at the other end of the body
    roll = cross(game, c, here, far)
    assert roll["from"] == here and roll["to"] == far and roll["success"] == 1
    ent = game.st.ent
    p = int(np.flatnonzero(setup_for(BOARD).board.tiles.ravel()
                           == CATALOGUE.tiles.find("River Styx"))[0])
    ent.streak_over[c] = 0
    mask = put(game, c, local_space(divmod(p, 7), 1, 0, 5))  # Tokyo Rooftops' space there
    assert not mask[water_action(game, 0):].any()


def test_a_submerged_character_escapes_across_moved_water_and_a_transform_frees_it():
    """"A submerged character is stuck in the water and remains there until they succeed on a
    water-roll": in River Styx swapped in play, its escapes lead to the spaces next to the body,
    of the tile where it stands now. House ruling (docs/rulings.md "Water on a moved tile"):
    when its tile is transformed, the water it was stuck in leaves play with the old tile, and
    so it is no longer Submerged."""
    game, c, q = swapped_styx()
    here = local_space(divmod(q, 7), 1, 0, 5)
    put(game, c, here)
    with rules_ip(game.S, P_WATER_MIN=99):  # every face fails
        game.apply(water_action(game, local_space(divmod(q, 7), 2, 0, 5)))
    ent = game.st.ent
    assert ent.submerged[c] == 1 and ent.space[c] == here
    escapes = set(np.flatnonzero(game.legal_mask()[game.block("water_roll")]).tolist())
    assert escapes == {local_space(divmod(q, 7), i, j, 5) for i in (1, 2) for j in range(5)}
    _transform(game.st, game.S, q, CATALOGUE.tiles.find("Hyperbolic Time Chamber"), -1)
    assert ent.submerged[c] == 0 and ent.space[c] == local_space(divmod(q, 7), 0, 0, 1)
    assert not game.legal_mask()[game.block("water_roll")].any()  # the 1×1 tile has no water
