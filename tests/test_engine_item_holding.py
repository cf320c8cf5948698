"""Items: the catalogue (seven types, every type in the starter content, values) and holding and
using them: usable only after ending a turn holding one, at most two (the hand limit is data),
some cost the action, a held item's stat lasts while it is held and active, items drop where
the holder dies, both only on your own turn and never frozen, one item pool per multi-character
card.

Each case sets up a small position (Team 1's first decision, everybody on one space or on an
open patch of a tile), gives items to characters or lays them on the board as data
(cards/items.csv rows), plays through the engine interface (the legal mask and ``apply``) and
asserts the rule. Each case quotes its rule (docs/items.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.catalogue.items import ITEM_TYPE_COUNT, R_PICKUP
from sim.combat.star import GREEN
from sim.engine.state import fields as L
from sim.engine.rules.attack import _attack_star
from sim.engine.rules.death import _kill
from sim.engine.items.holding import _grant_item, _put_on_floor
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS
from tests._items_kit import (ITEMS, ally_of, drop, end_turn_of, enemy_of, give, item,
                              item_actions, pick, scenario, slots, use_on)


# --------------------------------------------------------------------------- the catalogue

def test_seven_types_every_type_in_the_starter_content_and_values():
    """"Aside from having a value, every item belongs to one of seven types" (house: weapon,
    armour, boots, scope, potion, bomb, scroll); "Items are denoted with a value"; the engine's
    table lists the items in ``catalogue.items.names`` order."""
    assert len(ITEMS.types) == ITEM_TYPE_COUNT == 7
    assert set(ITEMS.type) == set(range(7)), "the starter content uses every item type"
    lo, hi = ITEMS.rules.value_lo, ITEMS.rules.value_hi
    assert np.all((ITEMS.value >= lo) & (ITEMS.value <= hi))
    game, _ = scenario()
    fx = game.S.item_fx
    assert fx.shape[0] == len(ITEMS.names) + 1 and fx[-1, R_PICKUP] == 1
    assert np.array_equal(fx[:-1, :L.FX_SLOTS], ITEMS.rows)
    assert 14 <= len(ITEMS.names) <= 24


# --------------------------------------------------------------------------- holding and using

@pytest.mark.parametrize("how", ["granted", "picked up"])
def test_an_item_gained_is_usable_only_after_ending_a_turn_holding_it(how):
    """"When an item is gained or picked up, it cannot be used immediately. A character must End
    their Turn with an Item in order to use it"."""
    game, c = scenario()
    ent = game.st.ent
    ent.health[c] -= 60
    if how == "granted":
        give(game, c, "Health Potion", active=False)
    else:
        assert _put_on_floor(game.st, item("Health Potion"), int(ent.space[c]))
        game.apply(pick(game, 0))
    assert slots(game, c) == ["Health Potion", None]
    assert use_on(game, 0, c) not in item_actions(game)
    end_turn_of(game, c)
    assert use_on(game, 0, c) in item_actions(game)
    h = int(ent.health[c])
    game.apply(use_on(game, 0, c))
    assert ent.health[c] == h + 40 and slots(game, c) == [None, None]  # used up


def test_at_most_two_items():
    """"A character can only hold up to 2 items at a time": a third is neither granted nor
    picked up until one leaves."""
    game, c = scenario()
    ent = game.st.ent
    give(game, c, "Iron Sword")
    give(game, c, "Spyglass")
    assert not _grant_item(game.st, game.S, c, item("Antidote"))
    _put_on_floor(game.st, item("Antidote"), int(ent.space[c]))
    assert pick(game, 0) not in item_actions(game)
    game.apply(drop(game, 1))
    assert slots(game, c) == ["Iron Sword", None]
    assert pick(game, 0) in item_actions(game) and pick(game, 1) in item_actions(game)
    game.apply(pick(game, 0))
    assert slots(game, c) == ["Iron Sword", "Antidote"]
    assert pick(game, 1) not in item_actions(game)


@pytest.mark.parametrize("name, costs", [("Health Potion", False), ("Throwing Knife", True),
                                         ("Scroll of Frost", True), ("Scroll of Blinking", False)])
def test_some_items_cost_the_action(name, costs):
    """"Some items also cost that character's action ... to use"; "Actions are used to attack,
    use tiles, use items, or to interact with abilities" (cards/items.csv `costs_action`)."""
    game, c = scenario()
    ent = game.st.ent
    ent.health[c] -= 60
    give(game, c, name)
    ent.acted[c] = 1
    usable = [a for a in item_actions(game) if a < drop(game, 0)]
    assert bool(usable) != costs
    ent.acted[c] = 0
    usable = [a for a in item_actions(game) if a < drop(game, 0)]
    assert usable
    game.apply(usable[0])
    assert ent.acted[c] == int(costs)


@pytest.mark.parametrize("name, column, delta", [
    ("Iron Sword", L.ATK, 1), ("War Hammer", L.ATK, 2), ("Knight's Plate", L.DEFENSE, 2),
    ("Swift Boots", L.SPEED, 1), ("Sniper Scope", L.RANGE, 2)])
def test_a_held_item_s_stat_lasts_as_long_as_it_is_held_and_active(name, column, delta):
    """"A stat from an item lasts as long as that item is held and active"; a held item is never
    used up; it is no "positive effect" that turns the star green (house: "anything that causes
    green attack will specify")."""
    game, c = scenario()
    ent = game.st.ent
    cols = slice(L.ATK, L.ATK + 4) if column == L.ATK else slice(column, column + 1)
    v0 = ent.raw[c, cols].copy()
    give(game, c, name, active=False)
    assert np.array_equal(ent.raw[c, cols], v0), "not active yet: no stat"
    end_turn_of(game, c)
    assert np.array_equal(ent.raw[c, cols], v0 + delta)
    assert item_actions(game) == [drop(game, 0)], "held: only dropped, never used"
    assert _attack_star(game.st, game.S, c, enemy_of(game, c)) != GREEN
    game.apply(drop(game, 0))
    assert np.array_equal(ent.raw[c, cols], v0)


def test_the_hand_limit_is_data():
    """The book's "up to 2 items" is cards/item_types.toml [rules] hand_limit: a designer's folder
    with 1 holds one item (a second is neither granted nor picked up until it leaves), and one
    asking for more than the engine's two slots is refused, file, line and field."""
    from sim.catalogue.diagnostics import InputError
    from sim.catalogue.loader import load_catalogue
    from tests._engine_kit import cards_with, new_game_with

    game = new_game_with((("item_types.toml", "hand_limit = 2", "hand_limit = 1"),), 1, 2,
                         EXAMPLE_TEAMS.cards)
    ent = game.st.ent
    here = int(game.S.spawn_space[0, 0])
    ent.space[ent.kind == L.K_CHARACTER] = here
    c = game.current
    give(game, c, "Iron Sword")
    assert not _grant_item(game.st, game.S, c, item("Spyglass"))
    _put_on_floor(game.st, item("Antidote"), here)
    assert pick(game, 0) not in item_actions(game)
    game.apply(drop(game, 0))
    assert slots(game, c) == [None, None] and pick(game, 0) in item_actions(game)
    with pytest.raises(InputError) as err:
        load_catalogue(cards_with((("item_types.toml", "hand_limit = 2", "hand_limit = 3"),)))
    assert any("item_types.toml:" in str(p) and "rules.hand_limit" in str(p)
               for p in err.value.problems), str(err.value)


def test_items_drop_where_the_holder_dies_and_a_revive_does_not_restore_them():
    """"When a character dies, their items drop exactly where they were standing when they
    died"; "Items are not restored either. Whatever the character dropped on death stays where
    it fell ... a revived character recovers it only by picking it up again"."""
    game, c = scenario()
    st, ent = game.st, game.st.ent
    a = ally_of(game, c)
    give(game, a, "War Hammer")
    give(game, a, "Health Potion")
    atk = ent.atk[a, 0]
    spot = int(ent.space[a])
    _kill(st, game.S, a, -1, L.BY_ATTACK)
    assert slots(game, a) == [None, None] and ent.atk[a, 0] == atk - 2
    lying = sorted(ITEMS.names[i] for i, s in st.floor if i >= 0 and s == spot)
    assert lying == ["Health Potion", "War Hammer"] and st.game.floor_n == 2
    from sim.engine.effects.ability_effects import _revive, _revive_space
    _revive(st, game.S, c, a, _revive_space(st, game.S, a))
    assert slots(game, a) == [None, None] and st.game.floor_n == 2


def test_both_only_on_your_own_turn_and_never_frozen():
    """"Both may only be done on your own turn" (only the deciding character acts); "A frozen
    entity ... cannot use any effect stemming from an ability or an item, in any way" (house:
    nor pick up or drop: "anything frozen can do nothing at all")."""
    game, c = scenario()
    ent = game.st.ent
    ent.health[c] -= 60
    give(game, c, "Health Potion")
    _put_on_floor(game.st, item("Antidote"), int(ent.space[c]))
    assert item_actions(game) == [use_on(game, 0, c), pick(game, 0), drop(game, 0)]
    ent.frozen[c] = 99 * L.CLOCKS + 1
    assert game.legal_actions().tolist() == [L.END]


def test_a_multi_character_card_shares_one_item_pool():
    """"Multi-Character Cards share one item pool, so any item that grants its effect simply by
    being held, applies to all of them. An item that is used up is applied only to the individual
    character who used it. Any one of them may drop or pick up items"; the pool drops its items
    only when the card is dead ("Every character attached to the card must be Killed before the
    card is considered dead")."""
    game, _ = scenario()
    st, ent = game.st, game.st.ent
    twins = np.flatnonzero(ent.card == CATALOGUE.cards.find("Toon Twins"))
    a, b = (int(x) for x in twins)
    assert ent.pool[b] == a + 1
    atk = ent.atk[twins, 0].copy()
    give(game, b, "Iron Sword")  # gained by one: the pool's
    give(game, a, "Health Potion")
    assert slots(game, a) == slots(game, b) == ["Iron Sword", "Health Potion"]
    assert np.array_equal(ent.atk[twins, 0], atk + 1), "held: applies to all of them"
    st.game.cur = b
    ent.health[twins] -= 50
    game.apply(use_on(game, 1, b))
    assert ent.health[b] == ent.health[a] + 40, "used up: only the user"
    st.game.cur = b
    game.apply(drop(game, 0))  # "Any one of them may drop"
    assert np.array_equal(ent.atk[twins, 0], atk)
    st.game.cur = a
    ent.space[a] = ent.space[b]
    game.apply(pick(game, 0))  # ... "or pick up"
    give(game, a, "Spyglass")
    _kill(st, game.S, a, -1, L.BY_ATTACK)
    assert slots(game, b) == ["Iron Sword", "Spyglass"] and st.game.floor_n == 0
    _kill(st, game.S, b, -1, L.BY_ATTACK)
    assert st.game.floor_n == 2 and set(st.floor[:2, 1]) == {int(ent.space[b])}
