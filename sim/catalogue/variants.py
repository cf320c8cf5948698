"""Opt-in rule variants from documents other than the rulebook (``rules.toml [variants]``).

Why: the terrain draft (``../shared/seeds/002_1f05986a99912579.txt``) is "a separate document,
not part of the Board Wars rulebook". Its features — falls from platforms and ladders ("On a 1:
The fighter falls"), obscuring gaps ("visibility cannot be drawn through them"), doors and
windows ("within 1" ... Melee") — are drawn on some shipped tiles, so playing them by default
played the draft as Board Wars. With ``terrain_draft = false`` (the default: the book) the
tiles are read as the book knows them; with ``true`` the draft's features are played as drawn.

How (docs/rulings.md, "The terrain draft is an opt-in variant"): the catalogue's layouts are
rewritten once at load time, so no kernel tests a switch in a hot loop and the tile tables, the
board compiler and the engine see one consistent catalogue:

- an obscuring gap ``g`` becomes a tile wall: "Tile walls are pink lines inside a tile. They
  obstruct movement but allow attacks through" (the book's only line inside a tile that blocks
  movement);
- a door or window ``D`` becomes an open edge (it was passable; the book has no doors inside a
  tile);
- a ladder ``L`` or platform ``^`` becomes plain floor (it already was floor; only the fall rule
  read the feature).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .tile_layout import DOOR, GAP, LADDER, NO_FEATURE, OPEN, PLATFORM, WALL
from .tomldoc import TomlDoc

SECTION = "variants"
KEYS = {"terrain_draft"}
# the draft's edges and features, and what each is under the book (see the module docstring)
BOOK_EDGE = {GAP: WALL, DOOR: OPEN}
DRAFT_FEATURES = (LADDER, PLATFORM)


def load_terrain_draft(doc: TomlDoc) -> bool:
    """``[variants] terrain_draft`` (false when absent: the book)."""
    doc.unknown_keys((SECTION,), KEYS)
    return bool(doc.get((SECTION, "terrain_draft"), bool, fallback=False))


def without_terrain_draft(tiles):
    """``tiles`` (a TileCatalogue) with every terrain-draft edge and feature read as the book
    reads it. Returns the same object when no tile draws one."""
    edge_e, edge_s = tiles.edge_e.copy(), tiles.edge_s.copy()
    for draft, book in BOOK_EDGE.items():
        edge_e[edge_e == draft] = book
        edge_s[edge_s == draft] = book
    feature = tiles.feature.copy()
    feature[np.isin(feature, DRAFT_FEATURES)] = NO_FEATURE
    if (np.array_equal(edge_e, tiles.edge_e) and np.array_equal(edge_s, tiles.edge_s)
            and np.array_equal(feature, tiles.feature)):
        return tiles
    return dataclasses.replace(tiles, edge_e=edge_e, edge_s=edge_s, feature=feature)


def draft_tiles(tiles) -> list[str]:
    """The names of the tiles that draw a terrain-draft edge or feature."""
    has = (np.isin(tiles.edge_e, list(BOOK_EDGE)).any(axis=(1, 2))
           | np.isin(tiles.edge_s, list(BOOK_EDGE)).any(axis=(1, 2))
           | np.isin(tiles.feature, DRAFT_FEATURES).any(axis=(1, 2)))
    return [tiles.names[k] for k in np.flatnonzero(has)]
