"""Stop 78 rules audit (helper A): rule sentences of the rulebook
(../shared/seeds/000_527084f8378d7355.txt) the engine departs from, each pinned by a strict xfail
until the departure is fixed or recorded as a house ruling."""

from __future__ import annotations

import pytest

from sim.catalogue import tile_functions


@pytest.mark.xfail(strict=True, reason=(
    "book l.248 'A revive is caused by an ability or a tile that specifies one': the effect "
    "table lists revive for abilities only (sim/catalogue/effect_table.py:106), so a tile "
    "function naming effect = \"revive\" is refused by bwlab validate (unknown effect)"))
def test_a_tile_may_specify_a_revive():
    """"A revive is caused by an ability or a tile that specifies one. Nothing else brings a
    character back." A tile is one of the two sources the book names, so a tile function (a
    reward or an interactable) must be able to run the revive effect."""
    assert "revive" in tile_functions.FUNCTION_EFFECTS
