"""The game log names a tile's reward and interactable by their own names from tiles.toml, beside
their tile's (stop 82: only the tile was named, so a designer reading a log could not tell which
function of the data file a line meant). Rule quoted by the events: "The reward's price in ticks
disappears in exchange for the reward itself"; "Interactables are portions of a tile that can be
interacted with by spending an action"."""

from __future__ import annotations

import numpy as np

from sim.catalogue.loader import load_catalogue
from sim.engine.log.events import decode
from sim.engine.state import fields as L

CAT = load_catalogue()
TILES = CAT.tiles


def _row(kind: int, **args) -> np.ndarray:
    from sim.engine.log.tile_events import TILE_EVENTS

    row = np.zeros(L.EVF, dtype=np.int64)
    row[L.EVC_KIND] = kind
    for k, name in enumerate(TILE_EVENTS[kind][1]):
        row[L.EVC_ARGS + k] = args.get(name, 0)
    return row


def _text(kind: int, tiles, **args) -> str:
    rows = np.stack([_row(kind, **args)])
    return decode(rows, ["Ember Knight (T1)"], (), (), tiles)[0]["text"]


def test_a_reward_is_named_with_its_tile():
    t = TILES.names.index("Hyperbolic Time Chamber")
    text = _text(L.EV_REWARD, TILES, entity=0, tile=t, ticks_left=1)
    assert text == ("Ember Knight (T1) redeems A Year in a Day, the reward of Hyperbolic Time "
                    "Chamber (1 ticks left)")


def test_an_interactable_is_named_with_its_tile():
    t = TILES.names.index("Bird Island")
    text = _text(L.EV_INTERACT, TILES, entity=0, tile=t, space=12)
    assert text == "Ember Knight (T1) uses Slingshot, the interactable of Bird Island (on space 12)"


def test_names_only_or_nothing_still_read():
    t = TILES.names.index("Bird Island")
    assert "the interactable of Bird Island" in _text(L.EV_INTERACT, TILES.names, entity=0, tile=t)
    assert "the reward of tile 999" in _text(L.EV_REWARD, (), entity=0, tile=999)
