"""Tile swaps and transforms in play: tile_control through the engine interface, a tile covering
an Uncovered Tile, consolidation, the live board against the Python reference (sim.board.swap +
compile_board, ``board_now``), water, the Apocalypse, Spawns and Homefield following their
tiles. Set up on board 3 (every catalogue tile is in play there) unless a case needs a tile out
of play. Each case quotes its rule (docs/tiles.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.ai.greedy import _greedy_action
from sim.board.geometry import APOCALYPSE, local_space
from sim.board.swap import swap_tiles, transform_tile
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.rules.live_movement import _homefield
from sim.engine.tiles.live_board import _reveal_in_place, _tile_at
from sim.engine.tiles.swap_in_play import _swap, _transform
from tests._engine_kit import CATALOGUE, live_shores, setup_for
from tests._tiles_kit import (BOARD, NO_HTC, SPAN, TILES, ally_of, board_now, board_with, enemy_of,
                              floor_of, game_on, give_ability, interact_actions, middle, on_space,
                              space, uncovered_at, where)


# ------------------------------------------------------------------- swaps and transforms

def test_tile_control_swaps_the_users_tile_keeping_everything_in_it():
    """tile_control mode 0 (Ability Index): "Swaps two tiles ... within `range` tiles" (house:
    the user's own tile and the chosen one); "the tile and everything in it remain unchanged; the
    two tiles trade positions on the board while keeping their orientation"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    p, q = where("Rabbit Hole"), where("Comment Section")
    reach = max(2, abs(p // 7 - q // 7), abs(p % 7 - q % 7))  # q within range
    give_ability(game, c, "tile_control", mode=0, range=reach)
    ent.space[c] = floor_of(game, p)
    e = enemy_of(game, c)
    ent.space[e] = space("Comment Section", 0, 4)
    mask = game.legal_mask()
    targets = {(s // SPAN // 5) * 7 + (s % SPAN) // 5
               for s in range(SPAN ** 2) if mask[on_space(game, s)]}
    assert q in targets and p not in targets
    assert all(max(abs(t // 7 - p // 7), abs(t % 7 - p % 7)) <= reach for t in targets)
    before_e = int(ent.space[e])
    game.apply(on_space(game, middle(q)))
    ref, moved = swap_tiles(setup_for(BOARD).board, TILES, divmod(p, 7), divmod(q, 7),
                            [middle(p), before_e])
    assert board_now(game, ref) == []
    assert ent.space[c] == moved[0] and ent.space[e] == moved[1]
    assert st.tiles.tile[q] == TILES.find("Rabbit Hole")


def test_a_tile_landing_on_an_uncovered_tile_covers_it_and_carries_its_contents():
    """"When the destination is an Uncovered Tile ... The moving tile simply moves onto it and
    covers it up"; "every entity and Component standing on that Uncovered Tile is picked up and
    placed into the tile that has arrived over them" ("A 1x1 Tile, entering a larger tile lands
    in the middle space"). The Mystic Elevator swaps "with any tile of the same size"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    give_ability(game, c, "tile_control", mode=0, range=6)
    p, q = where("Hidden Leaf Gate"), uncovered_at()  # an Uncovered Tile
    ent.space[c] = space("Hidden Leaf Gate", 0, 0)
    e = enemy_of(game, c)
    ent.space[e] = middle(q)
    game.apply(on_space(game, middle(q)))
    ref, moved = swap_tiles(setup_for(BOARD).board, TILES, divmod(p, 7), divmod(q, 7),
                            [space("Hidden Leaf Gate", 0, 0), middle(q)])
    assert board_now(game, ref) == []
    assert ent.space[c] == moved[0] and ent.space[e] == moved[1] == middle(q)
    assert st.tiles.tile[p] == TILES.uncovered  # the position left shows one
    game2, c2 = game_on()
    game2.st.ent.space[c2] = space("Mystic Elevator", 0, 0)
    sizes = {int(TILES.size[_tile_at(game2.st, game2.S, (s // SPAN // 5) * 7 + (s % SPAN) // 5)])
             for s in interact_actions(game2)}
    assert sizes == {1}


def test_a_transform_brings_a_tile_not_in_play_and_consolidates():
    """tile_control mode 1: "Transforming a tile will result in an existing tile on the board
    being transformed into a chosen tile that is not already in play" (house: one of the user's
    suit first); consolidation "when a tile is transformed into a bigger or smaller one"."""
    game, c = game_on()
    give_ability(game, c, "tile_control", mode=1, range=6)
    game.st.ent.space[c] = floor_of(game, where("Rabbit Hole"))
    # BOARD: every tile is in play (nothing from the ability on spaces to the hand-overs)
    assert not game.legal_mask()[on_space(game, 0):game.block("hand_over").start].any()
    board = board_with(*NO_HTC)  # the Hyperbolic Time Chamber (Anime) is out of play
    game, c = game_on(board=board)
    st, ent = game.st, game.st.ent
    give_ability(game, c, "tile_control", mode=1, range=6)
    ent.suit[c] = CATALOGUE.rules.suits.index("Anime")
    p = where("Tokyo Rooftops", board=board)
    ent.space[c] = space("Tokyo Rooftops", 0, 0, board=board)
    game.apply(on_space(game, middle(p)))
    assert st.tiles.tile[p] == TILES.find("Hyperbolic Time Chamber")
    assert ent.space[c] == middle(p)  # 5×5 → 1×1: "the concentric center"
    ref, _ = transform_tile(setup_for(board).board, TILES, divmod(p, 7),
                            TILES.find("Hyperbolic Time Chamber"))
    assert board_now(game, ref) == []


def test_a_5x5_folds_into_a_3x3():
    """"A 5×5 becoming a 3×3 folds inward instead ... everything standing in a region moves to
    the single space that region corresponds to": the 2×2 corner blocks to the corners, the edge
    runs to the edge spaces, the middle to the middle. The regions are spelled out here, not
    taken from sim.board.swap.consolidate: the engine inlines that very function, so it would be
    no independent oracle."""
    region = (0, 0, 1, 2, 2)  # a 5×5 row or column -> the 3×3 row or column it folds into
    game, c = game_on()
    st, ent = game.st, game.st.ent
    p, n = where("Tokyo Rooftops"), TILES.find("Firewall")
    _transform(st, game.S, where("Firewall"), TILES.uncovered, c)  # Firewall leaves play
    chars = np.flatnonzero(ent.kind == L.K_CHARACTER)
    cells = [(i, j) for i in range(5) for j in range(5)][: len(chars)]
    for e, (i, j) in zip(chars, cells):
        ent.space[e] = space("Tokyo Rooftops", i, j)
    _transform(st, game.S, p, n, c)
    for e, (i, j) in zip(chars, cells):
        assert ent.space[e] == local_space(divmod(p, 7), region[i], region[j], 3)


@pytest.mark.parametrize("board", [0, 1, 4, 9])
def test_swaps_and_transforms_in_play_match_the_python_board(board):
    """The kernel re-stamping (sim/engine/tiles/live_board.py) gives, array for array, the graph the
    Python reference compiles (sim.board.swap + compile_board) after random swaps and transforms,
    portals travelling with their tiles; the reveal then stamps the 1×1 Apocalypse tile in place
    ("When revealed it is treated as a 1x1 Tile")."""
    game, _ = game_on(board)
    st, S = game.st, game.S
    ref = setup_for(board).board.copy()
    rng = np.random.default_rng(board)
    for _ in range(6):
        on = [p for p in range(49) if ref.tiles.flat[p] >= 0]
        p, q = (int(x) for x in rng.choice(on, 2, replace=False))
        ref, _ = swap_tiles(ref, TILES, divmod(p, 7), divmod(q, 7))
        _swap(st, S, p, q, -1)
        assert board_now(game, ref) == []
        out = [t for t in range(len(TILES)) if t != TILES.uncovered and not (ref.tiles == t).any()]
        if out:
            n = int(rng.choice(out))
            ref, _ = transform_tile(ref, TILES, divmod(q, 7), n)
            _transform(st, S, q, n, -1)
            assert board_now(game, ref) == []
    st.game.revealed = 1
    assert _reveal_in_place(st, S)
    ref.tiles[ref.tiles == APOCALYPSE] = TILES.uncovered
    assert [b for b in board_now(game, ref) if b != "tile distance"] == []


def test_water_travels_with_its_tile_and_a_transform_brings_its_own():
    """"the tile and everything in it remain unchanged; the two tiles trade positions on the
    board while keeping their orientation": River Styx's bodies of water go where the tile goes;
    a transform into "a chosen tile that is not already in play" takes the old tile's water away
    and brings the new tile's own. After each step the live bodies (and the whole graph) equal
    the Python reference's (sim.board.swap + compile_board)."""
    board = board_with(*NO_HTC)
    game, _ = game_on(board)
    st, S = game.st, game.S
    styx, htc = TILES.find("River Styx"), TILES.find("Hyperbolic Time Chamber")
    p, q = where("River Styx", board), where("Tokyo Rooftops", board)  # two 5×5 tiles
    ref = setup_for(board).board.copy()
    assert not (ref.tiles == htc).any()  # out of play on this board: a transform may bring it

    def water_at():
        """The positions holding a space from which a body of water can be crossed."""
        return {int(st.tile_pos[s]) for s in live_shores(st, S)}

    before = water_at()
    assert p in before and q not in before  # Tokyo Rooftops is dry
    ref, _ = swap_tiles(ref, TILES, divmod(p, 7), divmod(q, 7))
    _swap(st, S, p, q, -1)
    assert board_now(game, ref) == []
    assert water_at() == (before - {p}) | {q}
    ref, _ = transform_tile(ref, TILES, divmod(q, 7), htc)  # River Styx leaves play ...
    _transform(st, S, q, htc, -1)
    assert board_now(game, ref) == [] and water_at() == before - {p}
    ref, _ = transform_tile(ref, TILES, divmod(p, 7), styx)  # ... and a transform brings it back
    _transform(st, S, p, styx, -1)
    assert board_now(game, ref) == [] and water_at() == before


def test_the_apocalypse_cannot_be_swapped_or_transformed():
    """The Apocalypse "cannot be traversed, attacked over, transformed, tile-swapped over ...
    When revealed it is treated as a 1x1 Tile that cannot be transformed or removed by Players"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    apoc = int(game.S.ip[L.P_APOC_POS])
    give_ability(game, c, "tile_control", mode=0, range=6)
    ent.space[c] = floor_of(game, where("Fortress of Solitude"))  # beside the Apocalypse
    for revealed in (0, 1):
        st.game.revealed = revealed
        mask = game.legal_mask()
        assert mask[on_space(game, middle(where("Concert Stage")))]
        assert not mask[on_space(game, middle(apoc))]
    # standing on the revealed Apocalypse ("a 1x1 Tile that cannot be transformed or removed by
    # Players"): its own tile_control swaps nothing
    from sim.engine.rules.reveal import _check_reveal

    st.game.revealed = 0
    st.game.rotation = 7
    _check_reveal(st, game.S)
    ent.space[c] = middle(apoc)
    mask = game.legal_mask()
    assert not any(mask[on_space(game, middle(q))] for q in range(49))


def test_a_spawn_is_a_set_of_coordinates():
    """"A Spawn is a set of coordinates, not a tile: those three positions stay that team's
    spawn point, no matter what tile is later swapped or transformed into them"; house ruling
    "Spawn in play": Central Perk's middle space is a wall block, so a character is placed on
    the tile's nearest floor space (fewest king steps, then lowest id), never on the block."""
    game, c = game_on()
    st, S = game.st, game.S
    spawn = int(S.spawn_space[0, 0])
    p = int(st.tile_pos[spawn])
    _swap(st, S, where("Central Perk"), p, -1)
    assert st.tiles.tile[p] == TILES.find("Central Perk") and st.tile_pos[spawn] == p
    assert st.kind[spawn] != FLOOR
    ent = st.ent
    ent.space[c] = -1
    floor = [int(s) for s in np.flatnonzero((st.tile_pos == p) & (st.kind == FLOOR))]
    nearest = min(floor, key=lambda s: (max(abs(s // SPAN - spawn // SPAN),
                                            abs(s % SPAN - spawn % SPAN)), s))
    offered = set(np.flatnonzero(game.legal_mask()[game.block("move")]).tolist())
    assert nearest in offered and spawn not in offered
    assert offered - {nearest} <= {int(s) for s in S.spawn_space[0, 1:]}
    game.apply(game.action("move", nearest))
    assert ent.space[c] == nearest


def test_a_spawn_destroyed_or_walled_off_offers_no_place_and_the_character_waits():
    """House ruling "Spawn in play": a destroyed Spawn coordinate offers no space; with none of
    the three left, a character still to be placed can only end its turn (it waits), and
    greedy does so."""
    from sim.engine.rules.apocalypse import _destroy
    game, c = game_on()
    st, S = game.st, game.S
    ent = st.ent
    away = floor_of(game, where("Colosseum"))
    ent.space[(ent.kind == L.K_CHARACTER) & (ent.team == 0)] = away
    ent.space[c] = -1
    _destroy(st, S, int(st.tile_pos[S.spawn_space[0, 0]]))
    offered = np.flatnonzero(game.legal_mask()[game.block("move")])
    assert set(offered.tolist()) == {int(s) for s in S.spawn_space[0, 1:]}
    # walled off: the tile at the second coordinate has no floor space left (all wall blocks)
    from sim.catalogue.tile_layout import BLOCK as WALL_BLOCK
    block = st.tile_pos == st.tile_pos[S.spawn_space[0, 1]]
    kinds = st.kind[block].copy()
    st.kind[block] = WALL_BLOCK
    offered = np.flatnonzero(game.legal_mask()[game.block("move")])
    assert offered.tolist() == [int(S.spawn_space[0, 2])]
    st.kind[block] = kinds
    for k in (1, 2):
        _destroy(st, S, int(st.tile_pos[S.spawn_space[0, k]]))
    assert st.game.over == 0 and ent.alive[c] != 0
    mask = game.legal_mask()
    assert np.flatnonzero(mask).tolist() == [L.END]
    assert _greedy_action(st, S, mask) == L.END


def test_homefield_follows_the_tile():
    """"When a character's suit matches the suit of the tile they are in, they gain the
    Homefield Advantage" — the tile they are in now: a swap carries a character and its tile
    together, and whoever the arriving tile covers stands in that tile's suit."""
    game, c = game_on()
    st, S, ent = game.st, game.S, game.st.ent
    p, q = where("Manga Cafe"), uncovered_at()  # an Uncovered Tile
    ent.suit[c] = CATALOGUE.rules.suits.index("Manga")
    e = ally_of(game, c)
    ent.suit[e] = ent.suit[c]
    ent.space[c], ent.space[e] = middle(p), middle(q)
    assert _homefield(st, S, c) and not _homefield(st, S, e)
    _swap(st, S, p, q, -1)
    assert _homefield(st, S, c) and _homefield(st, S, e)  # both now in the Manga Cafe at q
    assert ent.space[c] == ent.space[e] == middle(q)
