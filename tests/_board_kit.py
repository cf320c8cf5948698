"""Shared helpers for the board tests: a small test tile catalogue and hand-built boards."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from sim.board.geometry import Board, local_space
from sim.board.graph import compile_board
from sim.catalogue.diagnostics import Problems
from sim.catalogue.loader import load_board_only
from sim.catalogue.tiles import load_tiles

RULES, BOARD_RULES, TILES = load_board_only(Path(__file__).resolve().parents[1] / "cards")

TEST_TILES = '''
[[tiles]]
name = "U"
uncovered = true
size = 1
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = ["."]

[[tiles]]
name = "Open5"
suit = "Anime"
size = 5
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = [". . . . .", "         ", ". . . . .", "         ", ". . . . .", "         ",
          ". . . . .", "         ", ". . . . ."]

[[tiles]]
name = "Open3"
suit = "Manga"
size = 3
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = [". . .", "     ", ". . .", "     ", ". . ."]

[[tiles]]
name = "NorthOnly"
suit = "Comics"
size = 1
layers = [1, 2, 3, 4]
doorways = ["N"]
layout = ["."]

[[tiles]]
name = "Walled"
suit = "Movies"
size = 3
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = [". .|.", "     ", ". .|.", "     ", ". .|."]

[[tiles]]
name = "River"
suit = "Mythology"
size = 3
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = [". . .", "~~~~~", ". . .", "     ", ". . ."]

[[tiles]]
name = "WaterWall"
suit = "Music"
size = 3
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = [".w. .", "     ", ".w. .", "     ", ".w. ."]

[[tiles]]
name = "FireWall"
suit = "Sports"
size = 3
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = [".f. .", "     ", ".f. .", "     ", ".f. ."]

[[tiles]]
name = "Gapped"
suit = "Internet"
size = 3
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = [".g. .", "     ", ".g. .", "     ", ".g. ."]

[[tiles]]
name = "Doored"
suit = "Television"
size = 3
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = [".|. .", "     ", ".D. .", "     ", ".|. ."]

[[tiles]]
name = "Portal"
suit = "Literature"
size = 1
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = ["P"]

[[tiles]]
name = "Pond"
suit = "Cartoons"
size = 3
layers = [1, 2, 3, 4]
doorways = ["N", "E", "S", "W"]
layout = [". . .", "     ", ". ~ .", "     ", ". . ."]
'''


def make_catalogue():
    import tempfile
    d = Path(tempfile.mkdtemp())
    (d / "tiles.toml").write_text(TEST_TILES, encoding="utf-8")
    problems = Problems()
    cat = load_tiles(d / "tiles.toml", RULES, problems)
    problems.raise_if_any()
    return cat


KIT = make_catalogue()
T = {name: KIT.find(name) for name in KIT.names}


def board_of(grid: dict | None = None, fill: str = "U", portals=()) -> Board:
    """A board of ``fill`` tiles with ``grid[(row, col)] = tile name`` placed (or -1/-2)."""
    tiles = np.full((7, 7), T[fill], np.int32)
    for pos, name in (grid or {}).items():
        tiles[pos] = T[name] if isinstance(name, str) else name
    ports = np.array(portals, np.int32).reshape(-1, 2, 4)
    return Board(tiles, BOARD_RULES.team_spawns.copy(), ports)


def graph_of(board: Board, **rule_changes):
    rules = dataclasses.replace(BOARD_RULES, **rule_changes) if rule_changes else BOARD_RULES
    return compile_board(board, KIT, rules)


def sp(board: Board, pos, i=None, j=None) -> int:
    """Space id of local (i, j) (default: the middle) of the tile at ``pos``."""
    size = int(KIT.size[board.tile_at(pos)])
    i = size // 2 if i is None else i
    j = size // 2 if j is None else j
    return local_space(pos, i, j, size)
