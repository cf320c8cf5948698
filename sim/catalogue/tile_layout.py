"""Tile layouts drawn as text, turned into small integer arrays.

Why in the catalogue: the drawings are the data a designer writes in ``cards/tiles.toml``, parsed
and validated here like every other card file; the space, feature and edge codes below are the
vocabulary the board (``sim.board``), the engine and the report all read, so it sits at the
bottom with the data it describes.

Why an interleaved drawing: the book draws tile walls as *lines* ("Tile walls are pink lines inside
a tile. They obstruct movement but allow attacks through"), so a wall sits between two spaces, not
on one. A tile of size ``s`` is drawn as ``2s-1`` strings of ``2s-1`` characters: characters at
even (row, column) are spaces, characters between two spaces are the edge between them, and the
characters at odd (row, column) are corner points (decoration, ignored). The tile border is not
drawn: doorways are listed per side in ``cards/tiles.toml``.

Spaces::

    .  floor            ~  water (a space of a body of water; not walkable)
    #  wall block       I  interactable piece (floor)       P  portal piece (floor)
    L  ladder (floor)   ^  platform (floor)                 C  CPU start (floor)

Edges::

    (blank)  open            # | -  wall (blocks movement, not attacks)
    ~  water (a thin body of water between two spaces)
    w  water wall            f  fire wall
    g  obscuring gap (a wall that also blocks line of sight)
    D  door or window (passable; line of sight only across it from within 1 on both sides)
"""

from __future__ import annotations

import numpy as np

MAX_SIZE = 5  # "a 1×1, 3×3, or 5×5 space grid" (book): the biggest tile
SIZES = (1, 3, 5)

# space codes
NONE, FLOOR, WATER, BLOCK = 0, 1, 2, 3
# feature codes (on floor spaces)
NO_FEATURE, INTERACT, PORTAL, LADDER, PLATFORM, CPU = 0, 1, 2, 3, 4, 5
# edge codes
OPEN, WALL, WATER_EDGE, WATER_WALL, FIRE_WALL, GAP, DOOR = 0, 1, 2, 3, 4, 5, 6

SPACE_CHARS = {
    ".": (FLOOR, NO_FEATURE), "~": (WATER, NO_FEATURE), "#": (BLOCK, NO_FEATURE),
    "I": (FLOOR, INTERACT), "P": (FLOOR, PORTAL), "L": (FLOOR, LADDER),
    "^": (FLOOR, PLATFORM), "C": (FLOOR, CPU),
}
EDGE_CHARS = {
    " ": OPEN, "#": WALL, "|": WALL, "-": WALL, "~": WATER_EDGE, "w": WATER_WALL,
    "f": FIRE_WALL, "g": GAP, "D": DOOR,
}
SPACE_CHAR = {v: k for k, v in SPACE_CHARS.items()}
EDGE_CHAR = {OPEN: " ", WALL: "#", WATER_EDGE: "~", WATER_WALL: "w", FIRE_WALL: "f", GAP: "g",
             DOOR: "D"}


class Layout:
    """One tile's spaces, features and edges in the top-left ``size × size`` corner of 5×5 arrays.

    ``edge_e[i, j]`` is the edge between space (i, j) and (i, j+1); ``edge_s[i, j]`` the edge between
    (i, j) and (i+1, j).
    """

    def __init__(self, size: int):
        self.size = size
        self.space = np.zeros((MAX_SIZE, MAX_SIZE), np.int8)
        self.feature = np.zeros((MAX_SIZE, MAX_SIZE), np.int8)
        self.edge_e = np.zeros((MAX_SIZE, MAX_SIZE), np.int8)
        self.edge_s = np.zeros((MAX_SIZE, MAX_SIZE), np.int8)


def parse_layout(rows: list[str], size: int) -> tuple[Layout, list[tuple[int, str]]]:
    """Parse a drawing; returns the layout and ``(row index, message)`` for every problem."""
    lay = Layout(size)
    problems: list[tuple[int, str]] = []
    width = 2 * size - 1
    if len(rows) != width:
        problems.append((0, f"a {size}×{size} tile is drawn as {width} rows, got {len(rows)}"))
        return lay, problems
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            problems.append((r, f"row {r + 1}: expected text, got {row!r}"))
            continue
        if len(row) != width:
            problems.append((r, f"row {r + 1}: expected {width} characters, got {len(row)} "
                                f"({row!r}); pad with spaces"))
            continue
        for c, ch in enumerate(row):
            if r % 2 == 0 and c % 2 == 0:
                if ch not in SPACE_CHARS:
                    problems.append((r, f"row {r + 1}, column {c + 1}: unknown space {ch!r}; "
                                        f"use one of {' '.join(SPACE_CHARS)}"))
                    continue
                lay.space[r // 2, c // 2], lay.feature[r // 2, c // 2] = SPACE_CHARS[ch]
            elif r % 2 == 1 and c % 2 == 1:
                continue  # corner point: decoration
            else:
                if ch not in EDGE_CHARS:
                    problems.append((r, f"row {r + 1}, column {c + 1}: unknown edge {ch!r}; use "
                                        f"blank or one of {' '.join(k for k in EDGE_CHARS if k != ' ')}"))
                    continue
                if r % 2 == 0:
                    lay.edge_e[r // 2, c // 2] = EDGE_CHARS[ch]
                else:
                    lay.edge_s[r // 2, c // 2] = EDGE_CHARS[ch]
    return lay, problems


def draw_layout(space: np.ndarray, feature: np.ndarray, edge_e: np.ndarray, edge_s: np.ndarray,
                size: int) -> list[str]:
    """The inverse of :func:`parse_layout` (corners drawn as blanks)."""
    rows = []
    for r in range(2 * size - 1):
        chars = []
        for c in range(2 * size - 1):
            if r % 2 == 0 and c % 2 == 0:
                code = (int(space[r // 2, c // 2]), int(feature[r // 2, c // 2]))
                chars.append(SPACE_CHAR.get(code, "?"))
            elif r % 2 == 1 and c % 2 == 1:
                chars.append(" ")
            elif r % 2 == 0:
                chars.append(EDGE_CHAR[int(edge_e[r // 2, c // 2])])
            else:
                chars.append(EDGE_CHAR[int(edge_s[r // 2, c // 2])])
        rows.append("".join(chars))
    return rows
