"""Where things are, in words a player reads off the table: tile name and (row, col).

Why here and not in the engine: the kernels log a space as its id in the 35×35 grid
(``row * 35 + col``, :mod:`sim.board.geometry`), which means nothing at the table. The board the
players see is a 7×7 grid of tiles, so a space is named by the tile standing there, its position
(row, col) on that grid and, for a 3×3 or 5×5 tile, the space inside it [row, col] counted from
the tile's top-left corner. The names are made from the arrays (the board as laid out and the
log's tile events), so the engine's digest-covered code is untouched.
"""

from __future__ import annotations

import re

import numpy as np

from sim.board.geometry import APOCALYPSE, SPAN, offset
from sim.catalogue.board_rules import GRID
from sim.catalogue.tile_layout import MAX_SIZE

PLACE_HELP = ("places read: tile (row, col) on the 7×7 board, then [row, col] of the space "
              "inside a 3×3 or 5×5 tile from its top-left corner")


def _no_tile(t: int, revealed: bool) -> str:
    if t == APOCALYPSE:
        # "When revealed it is treated as a 1x1 Tile"
        return "the Apocalypse tile" if revealed else "the face-down Apocalypse"
    return "void"


def place_name(space: int, tiles: np.ndarray, catalogue, revealed: bool = False) -> str:
    """``Gotham Alley (3,1) [2,0]`` for the space ``space`` when ``tiles[R, C]`` (catalogue
    index, or VOID / APOCALYPSE) stand at the 7×7 positions (``revealed``: the Apocalypse
    has been revealed)."""
    space = int(space)
    if not 0 <= space < SPAN * SPAN:
        return f"off the board ({space})"
    r, c = divmod(space, SPAN)
    R, C = r // MAX_SIZE, c // MAX_SIZE
    t = int(tiles[R, C])
    if t < 0:
        return f"{_no_tile(t, revealed)} ({R},{C})"
    size = int(catalogue.size[t])
    o = offset(size)
    i, j = r - R * MAX_SIZE - o, c - C * MAX_SIZE - o
    where = f" [{i},{j}]" if size > 1 and 0 <= i < size and 0 <= j < size else ""
    return f"{catalogue.names[t]} ({R},{C}){where}"


def position_name(p: int, tiles: np.ndarray, catalogue, revealed: bool = False) -> str:
    """``Gotham Alley (3,1)`` for grid position ``p`` (``row * 7 + col``)."""
    R, C = divmod(int(p), GRID)
    t = int(tiles[R, C])
    if t < 0:
        return f"{_no_tile(t, revealed)} ({R},{C})"
    return f"{catalogue.names[t]} ({R},{C})"


def _is_pos(p) -> bool:
    return isinstance(p, int) and 0 <= p < GRID * GRID


class BoardTracker:
    """The tile at every position as a log's events leave it: swaps, transforms, destruction.

    Starts from the board ``generate_board(seed)`` lays out (the log's header names the seed) and
    follows the tile events, so a name read after a swap is the tile standing there then."""

    def __init__(self, tiles: np.ndarray, catalogue):
        self.tiles = np.array(tiles, np.int64).reshape(GRID, GRID)
        self.catalogue = catalogue
        self.revealed = False

    def apply(self, ev: dict) -> None:
        """Follow one event (a field out of range, as in a hand-edited log, is ignored)."""
        name = ev.get("event")
        if name == "tile swap" and _is_pos(ev.get("from")) and _is_pos(ev.get("to")):
            p, q = divmod(ev["from"], GRID), divmod(ev["to"], GRID)
            a, b = self.tiles[p], self.tiles[q]
            self.tiles[q], self.tiles[p] = a, b  # covering leaves the Uncovered Tile's place to b
        elif name == "tile transform" and _is_pos(ev.get("position")):
            new = ev.get("new")
            if isinstance(new, int) and 0 <= new < len(self.catalogue.names):
                self.tiles[divmod(ev["position"], GRID)] = new
        elif name == "destruction" and _is_pos(ev.get("position")):
            self.tiles[divmod(ev["position"], GRID)] = -1
        elif name == "reveal":
            self.revealed = True

    def place(self, space: int) -> str:
        return place_name(space, self.tiles, self.catalogue, self.revealed)

    def position(self, p: int) -> str:
        return position_name(p, self.tiles, self.catalogue, self.revealed)


_ARROW = re.compile(r"(-?\d+) -> (-?\d+)")
_SPACE = re.compile(r"\b(beside |on |)space (-?\d+)")


def name_places(ev: dict, tracker: BoardTracker) -> str:
    """The event's sentence with every space id replaced by its place name.

    The sentence comes from the log (``sim.engine.log.events``); the ids in it are the event's own
    fields, so each replacement is checked against a field before it is made."""
    text = ev["text"]
    if not isinstance(text, str):
        return str(text)
    fields = {v for k, v in ev.items() if isinstance(v, int) and k in _SPACE_FIELDS}

    def arrow(m):
        a, b = int(m.group(1)), int(m.group(2))
        if a not in fields or b not in fields:
            return m.group(0)
        return f"{tracker.place(a)} -> {tracker.place(b)}"

    def space(m):
        s = int(m.group(2))
        if s not in fields and not _item_space(ev, s):
            return m.group(0)
        return f"{m.group(1)}{tracker.place(s)}"

    text = _ARROW.sub(arrow, text)
    text = _SPACE.sub(space, text)
    return _name_positions(text, ev, tracker)


_SPACE_FIELDS = frozenset({"space", "from", "to"})


def _item_space(ev: dict, s: int) -> bool:
    """An item used on a space names it as ``target - len(labels)`` (sim.engine.log.events)."""
    return ev.get("event") == "item used" and 0 <= s < SPAN * SPAN


def _name_positions(text: str, ev: dict, tracker: BoardTracker) -> str:
    """``(2,4)`` of a 7×7 position → ``Gotham Alley (2,4)`` where the sentence names only the
    coordinate (announcement, destruction, tile state)."""
    if ev.get("event") in ("announcement", "destruction", "tile state") and _is_pos(
            ev.get("position")):
        p = ev["position"]
        R, C = divmod(p, GRID)
        return text.replace(f"({R},{C})", tracker.position(p), 1)
    return text


def named_sentences(events: list[dict], board_tiles: np.ndarray, catalogue) -> list[str]:
    """Every event's sentence with its places named, the board followed through the game."""
    tracker = BoardTracker(board_tiles, catalogue)
    out = []
    for ev in events:
        out.append(name_places(ev, tracker))
        tracker.apply(ev)
    return out
