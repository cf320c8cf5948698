"""Invisibility conceals (sim/ai/observe.py). Book: "An invisible entity is not shown on the
board, and its position stays concealed for as long as the effect holds"; "The GM is told
secretly where every invisible entity stands". The engine keeps the true space; opponents'
policies see the space where it turned invisible (``fields.SEEN``)."""

from __future__ import annotations

import numpy as np

from sim.ai.observe import _conceal
from sim.engine.state import fields as L
from tests.test_engine_effects import on_entity, scenario


def test_last_seen_is_where_it_turned_invisible_and_moving_unseen_keeps_it():
    game, c = scenario("invisibility", duration=3)
    ent = game.st.ent
    here = int(ent.space[c])
    game.apply(on_entity(game, c))
    assert ent.invisible[c] != 0 and ent.seen[c] == here
    other = int(game.S.spawn_space[2, 0])
    ent.space[c] = other  # it moves unseen; invisibility granted again while it holds
    from sim.engine.entities.timed_states import _set_state
    _set_state(game.st, game.S, c, L.INVISIBLE, c, 3, 0, 0)
    assert ent.seen[c] == here  # re-granting does not reveal the new space


def test_conceal_shows_opponents_the_last_seen_space_and_restores_exactly():
    game, c = scenario("invisibility", duration=3)
    ent = game.st.ent
    here = int(ent.space[c])
    game.apply(on_entity(game, c))
    other = int(game.S.spawn_space[2, 0])
    ent.space[c] = other
    before = ent.copy()
    assert _conceal(game.st, 1) == 1  # an opponent's view: c stands where it was last seen
    assert ent.space[c] == here
    _conceal(game.st, 1)
    assert np.array_equal(ent, before)
    assert _conceal(game.st, int(ent.team[c])) == 0  # its own team sees it where it is
    assert np.array_equal(ent, before)
