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
    _set_state(game.st, game.S, c, L.INVISIBLE, c, 3, 0, 0, True)
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


def test_no_decision_skips_a_scan_while_a_state_holds():
    """``_conceal`` looks for invisible opponents only while ``fields.INVISIBLE_ROWS`` is above
    0, and a turn's tick (``timed_states._tick``, ``_cease``) looks for states to end only while
    ``fields.TIMED_HELD`` is, so neither count may fall below what it counts: at every decision
    of greedy games in which characters turn invisible, are frozen, buffed and de-buffed,
    states end, characters die and rows enter play
    (``special._enter`` clears their states uncounted). The games must hold decisions with a
    state and decisions with none counted (both branches of each skip); with either count left
    at 0 where ``_set_one`` starts a state an assertion fails. (A frozen tile's freeze left
    uncounted in ``paused._freeze_standing`` is caught by tests/test_engine_tile_paused.py::
    test_a_frozen_tile_freezes_everyone_in_it_for_as_long_as_it_is: the entities never thaw.)"""
    from sim.ai.play import step
    from tests._engine_kit import new_game

    seen = {"invisible": 0, "none invisible counted": 0, "timed": 0, "none timed counted": 0}
    for seed in range(12):
        game = new_game(seed, 3 * seed + 1, log=False)
        ent, g = game.st.ent, game.st.game
        while not game.terminal:
            hidden = int((ent.invisible != 0).sum())
            held = sum(int((ent.raw[:, col] != 0).sum()) for col in L.TIMED)
            assert g.invisible_rows >= hidden >= 0 and g.timed_held >= held >= 0
            seen["invisible"] += hidden > 0
            seen["none invisible counted"] += g.invisible_rows == 0
            seen["timed"] += held > 0
            seen["none timed counted"] += g.timed_held == 0
            step(game, L.GREEDY)
    assert min(seen.values()) > 100, seen
