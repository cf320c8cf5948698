"""Items' effects: thrown flat damage ignores defense and draws no retaliation, used-up items run
their effect row, a scroll strike is an attack with extra dice and a teleport costs no action,
boots may let the holder freely cross water.

Each case sets up a small position (Team 1's first decision, everybody on one space or on an
open patch of a tile), gives items to characters or lays them on the board as data
(cards/items.csv rows), plays through the engine interface (the legal mask and ``apply``) and
asserts the rule. Each case quotes its rule (docs/items.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine.state import fields as L
from sim.engine.rules.attack import _attack_star
from sim.engine.items.holding import _free_water
from tests._items_kit import (ITEMS, ally_of, end_turn_of, enemy_of, give, item, item_actions, pick,
                              scenario, use_at, use_on)
from tests._engine_kit import events


# --------------------------------------------------------------------------- the effects

def test_thrown_flat_damage_ignores_defense_and_draws_no_retaliation():
    """bomb / damage: "Flat damage applies straight to a health pool and is not affected by
    defense"; not an attack, so a CPU does not retaliate ("If it survives an attack made against
    it ..."); an invisible opponent is not a target ("cannot be targeted by a direct attack")."""
    game, c = scenario()
    ent = game.st.ent
    cpu = int(np.flatnonzero((ent.is_cpu != 0) & (ent.atk[:, 0] > 0))[0])
    ent.space[cpu] = ent.space[c]
    ent.defense[cpu] = 9
    ent.health[cpu] = ent.max_health[cpu] = 1000
    give(game, c, "Throwing Knife")
    d = enemy_of(game, c)
    ent.invisible[d] = 99 * L.CLOCKS + 1
    assert use_on(game, 0, d) not in item_actions(game)
    h = int(ent.health[cpu])
    game.apply(use_on(game, 0, cpu))
    assert ent.health[cpu] == h - 20 and len(events(game, L.EV_RETALIATE)) == 0
    assert len(events(game, L.EV_ITEM_DAMAGE)) == 1


@pytest.mark.parametrize("name, check", [
    ("Shield Tonic", lambda ent, c, d, a: ent.shield[c] == 30),
    ("Healing Salve", lambda ent, c, d, a: ent.health[a] == ent.max_health[a]),
    ("Antidote", lambda ent, c, d, a: ent.debuff[c] == 0),
    ("Grenade", lambda ent, c, d, a: ent.health[d] == ent.max_health[d] - 30),
    ("Scroll of Frost", lambda ent, c, d, a: ent.frozen[d] != 0),
    ("Scroll of Shadows", lambda ent, c, d, a: ent.invisible[c] != 0),
    ("Scroll of Might", lambda ent, c, d, a: ent.buff[a] != 0 and ent.buff_delta[a] == 2),
    ("Scroll of Weakness", lambda ent, c, d, a: ent.debuff[d] != 0),
])
def test_used_up_items_run_their_effect_row(name, check):
    """Effects as data: a used-up item's row (cards/items.csv) runs through the abilities'
    interpreter ("An item that is used up is applied only to the individual character who used
    it": self items on the user; targeted ones on their target)."""
    game, c = scenario()
    ent = game.st.ent
    a, d = ally_of(game, c), enemy_of(game, c)
    ent.health[a] -= 40
    ent.debuff[c], ent.debuff_by[c] = 99 * L.CLOCKS + 1, d
    give(game, c, name)
    tk = int(ITEMS.rows[item(name), L.FX_TARGET])
    t = {L.T_NONE: c, L.T_SELF: c, L.T_ALLY: a, L.T_ENEMY: d}[tk]
    game.apply(use_on(game, 0, t))
    assert check(ent, c, d, a)
    assert len(events(game, L.EV_ITEM_USE)) == 1


def test_a_scroll_strike_is_an_attack_with_extra_dice_and_a_teleport_costs_no_action():
    """scroll: "Throws extra attacks with the current star point" (strike); a teleport is
    movement (mobility, `costs_action = 0`)."""
    game, c = scenario()
    ent = game.st.ent
    give(game, c, "Scroll of Fury")
    give(game, c, "Scroll of Blinking")
    d = enemy_of(game, c)
    n = int(ent.atk[c, _attack_star(game.st, game.S, c, d)])
    spaces = [a - use_at(game, 1, 0) for a in item_actions(game) if use_at(game, 1, 0) <= a
              < pick(game, 0)]
    assert spaces
    game.apply(use_at(game, 1, spaces[0]))
    assert ent.space[c] == spaces[0] and ent.acted[c] == 0
    ent.space[c] = ent.space[d]
    game.apply(use_on(game, 0, d))
    attack = events(game, L.EV_ATTACK)[-1]
    assert attack[3] == d and attack[5] == n + 3 and ent.acted[c] == 1


def test_boots_may_let_the_holder_freely_cross_water():
    """"Some Items, Abilities and Vehicles in the game allow you to 'Freely Cross Water'" (the
    water slice reads ``holding._free_water``)."""
    game, c = scenario()
    give(game, c, "Wader Boots", active=False)
    assert not _free_water(game.st, game.S, c)
    end_turn_of(game, c)
    assert _free_water(game.st, game.S, c)
