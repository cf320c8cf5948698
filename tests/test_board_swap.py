"""Tile swaps, transforms and consolidation, case by case as the book states them."""

from __future__ import annotations

import numpy as np
import pytest

from tests._board_kit import KIT, T, board_of, sp
from sim.board.geometry import APOCALYPSE, local_space
from sim.board.swap import consolidate, swap_tiles, transform_tile


def test_1x1_lands_in_the_middle_space():
    """"A 1x1 Tile, entering a larger tile lands in the middle space of that tile"."""
    assert consolidate(0, 0, 1, 3) == (1, 1)
    assert consolidate(0, 0, 1, 5) == (2, 2)


def test_3x3_onto_middle_of_5x5():
    """"A 3×3 entering a 5×5 keeps its coordinates, mapped onto the middle 3×3"."""
    for i in range(3):
        for j in range(3):
            assert consolidate(i, j, 3, 5) == (i + 1, j + 1)


def test_5x5_folds_into_3x3_by_nine_regions():
    """"Each 2×2 corner block goes to the one-space corner nearest it. The spaces running along the
    edges between those corners go to the edge spaces of the 3×3"; middle to middle."""
    regions = {(i, j): consolidate(i, j, 5, 3) for i in range(5) for j in range(5)}
    assert regions[(2, 2)] == (1, 1)
    for ci, cj, target in [(0, 0, (0, 0)), (0, 3, (0, 2)), (3, 0, (2, 0)), (3, 3, (2, 2))]:
        for di in range(2):
            for dj in range(2):
                assert regions[(ci + di, cj + dj)] == target
    for i in (0, 1):
        assert regions[(i, 2)] == (0, 1) and regions[(4 - i, 2)] == (2, 1)
        assert regions[(2, i)] == (1, 0) and regions[(2, 4 - i)] == (1, 2)


def test_contents_keep_relative_positions_in_the_global_grid_when_growing():
    """Tiles are centred in their position, so 1→3, 1→5, 3→5 leave every global space unchanged."""
    b = board_of({(3, 3): "Open3"})
    ents = [sp(b, (3, 3), i, j) for i in range(3) for j in range(3)]
    new, moved = transform_tile(b, KIT, (3, 3), T["Open5"], ents)
    assert list(moved) == ents and new.tile_at((3, 3)) == T["Open5"]


def test_transform_5x5_to_1x1_gathers_everyone_in_the_one_space():
    b = board_of({(3, 3): "Open5"})
    ents = [sp(b, (3, 3), 0, 0), sp(b, (3, 3), 4, 1)]
    new, moved = transform_tile(b, KIT, (3, 3), T["Portal"], ents)
    assert set(moved.tolist()) == {sp(new, (3, 3))}


def test_transformed_tile_must_not_be_in_play():
    b = board_of({(3, 3): "Open5", (0, 0): "Open3"})
    with pytest.raises(ValueError, match="already in play"):
        transform_tile(b, KIT, (3, 3), T["Open3"])


def test_swap_trades_positions_and_carries_entities_and_components():
    """"the tile and everything in it remain unchanged; the two tiles trade positions"."""
    b = board_of({(1, 1): "Open5", (5, 5): "Open3"})
    e1, e2 = sp(b, (1, 1), 0, 4), sp(b, (5, 5), 2, 0)
    new, (m1, m2) = swap_tiles(b, KIT, (1, 1), (5, 5), [e1, e2])
    assert new.tile_at((5, 5)) == T["Open5"] and new.tile_at((1, 1)) == T["Open3"]
    assert m1 == local_space((5, 5), 0, 4, 5) and m2 == local_space((1, 1), 2, 0, 3)


def test_portal_pieces_travel_with_their_tile():
    """"Components travel with the Tile beneath them": a swap moves a portal piece along with
    its tile (the other piece stays where its own tile is)."""
    b = board_of({(3, 2): "Portal", (0, 6): "Portal", (5, 5): "Open3"},
                 portals=[[[3, 2, 0, 0], [0, 6, 0, 0]]])
    new, _ = swap_tiles(b, KIT, (3, 2), (5, 5), [])
    pieces = sorted((int(p[0]), int(p[1])) for p in new.portals.reshape(-1, 4))
    assert pieces == [(0, 6), (5, 5)]


def test_swap_onto_uncovered_tile_picks_up_its_contents():
    """"every entity and Component standing on that Uncovered Tile is picked up and placed into the
    tile that has arrived over them" — consolidated to the middle space."""
    b = board_of({(1, 1): "Open5"})
    on_uncovered, inside = sp(b, (2, 2)), sp(b, (1, 1), 0, 0)
    new, (m1, m2) = swap_tiles(b, KIT, (1, 1), (2, 2), [on_uncovered, inside])
    assert new.tile_at((2, 2)) == T["Open5"] and new.tile_at((1, 1)) == T["U"]
    assert m1 == local_space((2, 2), 2, 2, 5)
    assert m2 == local_space((2, 2), 0, 0, 5)


def test_spawns_are_coordinates_and_stay():
    """"those three positions stay that team's spawn point, no matter what tile is later swapped"."""
    b = board_of({(1, 1): "Open5"})
    new, _ = swap_tiles(b, KIT, (1, 1), (6, 3))
    assert np.array_equal(new.spawns, b.spawns) and new.tile_at((6, 3)) == T["Open5"]


def test_portal_pieces_travel_with_their_tiles():
    b = board_of({(3, 2): "Portal", (0, 6): "Portal", (5, 5): "Open3"},
                 portals=[[[3, 2, 0, 0], [0, 6, 0, 0]]])
    new, _ = swap_tiles(b, KIT, (3, 2), (5, 5))
    assert new.portals[0, 0, :2].tolist() == [5, 5]


def test_apocalypse_cannot_be_swapped_over_or_transformed():
    """"It cannot be traversed, attacked over, transformed, tile-swapped over"."""
    b = board_of({(2, 3): APOCALYPSE})
    with pytest.raises(ValueError):
        swap_tiles(b, KIT, (1, 1), (2, 3))
    with pytest.raises(ValueError):
        transform_tile(b, KIT, (2, 3), T["Open3"])
