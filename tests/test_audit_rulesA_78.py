"""Stop 78 rules audit (helper A): rule sentences of the rulebook
(../shared/seeds/000_527084f8378d7355.txt) the engine departs from, each pinned by a strict xfail
until the departure is fixed or recorded as a house ruling."""

from __future__ import annotations

from sim.catalogue import tile_functions


def test_a_tile_may_specify_a_revive():
    """"A revive is caused by an ability or a tile that specifies one. Nothing else brings a
    character back." A tile is one of the two sources the book names, so a tile function (a
    reward or an interactable) must be able to run the revive effect (stop 81: it can; whom it
    brings back is the house ruling "A tile's revive", tests/test_engine_tile_revive.py)."""
    assert "revive" in tile_functions.FUNCTION_EFFECTS
    assert "revive" in tile_functions.REWARD_EFFECTS
