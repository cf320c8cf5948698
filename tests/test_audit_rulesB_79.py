"""Rules audit of stop 79 (rulesB): the rulebook's lines 1-175 (board, routes, movement, range,
line of sight, the star, the dice). No departure from the book was found; these pin line-of-sight
and range cases between tiles that tests/test_board_rules.py's table did not list. Line numbers
are the book's (../shared/seeds/000_527084f8378d7355.txt)."""

from __future__ import annotations

import pytest

from sim.board.sight import attack_costs
from tests._board_kit import board_of, graph_of, sp


def _range(board, a, b, max_range=30):
    return int(attack_costs(graph_of(board), a, max_range)[b])


CASES = [
    # l.118 "From one tile into another, a diagonal is obstructed by the tiles' doorways. There is
    # no diagonal line of sight between two tiles": a line bent at the doorway is no straight line
    ("angled inside, then through the doorway", {(3, 3): "Open5", (3, 4): "Open5"},
     ((3, 3), 1, 2), ((3, 4), 2, 0), -1),
    ("through the doorway, then angled inside", {(3, 3): "Open5", (3, 4): "Open5"},
     ((3, 3), 2, 3), ((3, 4), 0, 2), -1),
    ("off the doorway row into a 1x1 tile", {(3, 3): "Open5"}, ((3, 3), 1, 2), ((3, 4),), -1),
    ("from a 1x1 tile to a corner of a 5x5", {(3, 3): "Open5"}, ((3, 4),), ((3, 3), 0, 0), -1),
    # l.108 adjacent 1, l.114 +1 per tile boundary (house: per_boundary), straight along the row
    ("doorway row across two 5x5 tiles: 9 spaces + 1", {(3, 3): "Open5", (3, 4): "Open5"},
     ((3, 3), 2, 0), ((3, 4), 2, 4), 10),
    ("a 5x5 middle into the next 1x1: 3 spaces + 1", {(3, 3): "Open5"}, ((3, 3), 2, 2),
     ((3, 4),), 4),
    ("across a 5x5 between two 1x1 tiles: 6 spaces + 2", {(3, 3): "Open5"}, ((3, 2),),
     ((3, 4),), 8),
    ("1x1 tiles two apart: 2 spaces + 2 (Red: 4)", {}, ((3, 3),), ((3, 5),), 4),
]


@pytest.mark.parametrize("why,grid,att,tgt,expected", CASES, ids=[c[0] for c in CASES])
def test_range_and_sight_between_tiles(why, grid, att, tgt, expected):
    b = board_of(grid)
    assert _range(b, sp(b, *att), sp(b, *tgt)) == expected
