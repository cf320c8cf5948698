"""Tile rewards, one table-driven scenario per rule: a character is put on a tile of board 3
(every catalogue tile is in play there) and its turns are ended through the engine's END
(``end_turn_of``); the ticks banked, the rewards bought with them and the permanent gains are
asserted. Each case quotes its rule (docs/tiles.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.combat.star import GREEN
from sim.engine.state import fields as L
from sim.engine.rules.attack import _attack_star
from sim.engine.tiles.paused import _set_tile_state
from sim.engine.tiles.swap_in_play import _swap, _transform
from tests._engine_kit import CATALOGUE, events
from tests._tiles_kit import (TILES, ally_of, end_turn_of, enemy_of, floor_of, game_on,
                              uncovered_at, where)


# ------------------------------------------------------------------------------ tile rewards

def _speed(g, c):
    return int(g.st.ent.speed[c])


@pytest.mark.parametrize("tile, price, what, check", [
    ("Hyperbolic Time Chamber", 3, "+1 speed", lambda g, c, b: g.st.ent.speed[c] == b[L.SPEED] + 1),
    ("Hidden Leaf Gate", 2, "+1 range", lambda g, c, b: g.st.ent.range[c] == b[L.RANGE] + 1),
    ("Fortress of Solitude", 4, "+1 defense",
     lambda g, c, b: g.st.ent.defense[c] == b[L.DEFENSE] + 1),
    ("Colosseum", 3, "+1 attack on every point",
     lambda g, c, b: np.array_equal(g.st.ent.atk[c], b[L.ATK:L.ATK + 4] + 1)),
    ("Manga Cafe", 1, "heal 20", lambda g, c, b: g.st.ent.health[c] == b[L.HEALTH] + 20),
    ("Central Perk", 2, "heal 30", lambda g, c, b: g.st.ent.health[c] == b[L.HEALTH] + 30),
    ("Warp Zone", 2, "green star",
     lambda g, c, b: _attack_star(g.st, g.S, c, enemy_of(g, c)) == GREEN),
    ("Server Farm", 1, "a coin for the team", lambda g, c, b: g.st.game.coins[0] == 1),
    ("Concert Stage", 2, "an extra action", lambda g, c, b: g.st.ent.extra_left[c] == 1),
    ("Sky Island", 2, "an item", lambda g, c, b: g.st.ent.item_slot[c, 0] != 0),
    # "A Summon is when a random 6th character card joins your team ... usually achieved as a
    # tile reward"; an assist character (house: a tile reward grants one)
    ("Gotham Alley", 4, "a 6th card (Bat-Signal)", lambda g, c, b: np.any(
        (g.st.ent.kind == L.K_SUMMONED) & (g.st.ent.team == 0) & (g.st.ent.alive == 1))),
    ("Jurassic Paddock", 3, "an assist (Park Ranger)", lambda g, c, b: np.any(
        (g.st.ent.kind == L.K_ASSIST) & (g.st.ent.team == 0) & (g.st.ent.alive == 1))),
])
def test_a_reward_is_bought_with_ticks_of_turns_ended_in_a_row(tile, price, what, check):
    """"A Tile Reward is a reward a character gets by ending their turn in a tile. Some rewards
    ... require several turns in a row"; "Ticks are spent at the end of your turn in the
    relevant tile. The reward's price in ticks disappears in exchange for the reward itself"."""
    game, c = game_on()
    ent = game.st.ent
    ent.space[c] = floor_of(game, where(tile))
    ent.health[c] -= 50
    for k in range(1, price):
        before = ent.raw[c].copy()
        end_turn_of(game, c)
        assert ent.ticks[c] == k and not check(game, c, before), what
    before = ent.raw[c].copy()
    end_turn_of(game, c)
    assert check(game, c, before), what
    assert ent.ticks[c] == 0 and ent.tick_tile[c] == TILES.find(tile) + 1
    assert len(events(game, L.EV_REWARD)) == 1


def test_an_item_reward_with_both_slots_taken_lands_on_the_floor():
    """"Items are gained primarily through tiles"; "A character can only hold up to 2 items at a
    time": with both slots taken, Sky Island's item is put on the character's space (house
    ruling, docs/items.md) and the ticks are spent for it."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    ent.item_slot[c, 0] = ent.item_slot[c, 1] = 1  # two items held (the first item type)
    spot = floor_of(game, where("Sky Island"))
    ent.space[c] = spot
    for _ in range(2):
        end_turn_of(game, c)
    lying = [int(s) for i, s in st.floor if i >= 0]
    assert lying == [spot] and ent.ticks[c] == 0 and len(events(game, L.EV_REWARD)) == 1


def test_ticks_are_counted_separately_for_each_character():
    """"Progress towards a tile reward is tracked with Ticks, counted separately for each
    character"; each character of a multi-character card has "their own tile reward ticks"."""
    game, c = game_on()
    ent = game.st.ent
    a = ally_of(game, c)
    ent.space[[c, a]] = floor_of(game, where("Fortress of Solitude"))
    end_turn_of(game, c)
    end_turn_of(game, c)
    end_turn_of(game, a)
    assert ent.ticks[c] == 2 and ent.ticks[a] == 1


@pytest.mark.parametrize("kind", ["K_MINION", "K_CLONE", "K_ASSIST", "K_VEHICLE"])
def test_minions_and_other_non_characters_earn_no_ticks(kind):
    """"Minions cannot receive tile rewards unless specified" (a clone "is treated as a minion";
    assists and vehicles are not characters): the same row ending its turn in a reward tile
    earns a tick as a character and none as any other kind
    (sim/engine/tiles/functions.py:_end_turn_tile)."""
    game, c = game_on()
    ent = game.st.ent
    ent.space[c] = floor_of(game, where("Fortress of Solitude"))
    end_turn_of(game, c)
    assert ent.ticks[c] == 1
    ent.kind[c] = getattr(L, kind)
    end_turn_of(game, c)
    assert ent.ticks[c] == 1


@pytest.mark.parametrize("second, ticks_after", [
    ("Rabbit Hole", 1),      # a string starts in the other reward tile
    ("Uncovered Tile", 0),   # a tile with no reward
])
def test_interrupting_the_string_loses_every_tick(second, ticks_after):
    """"All of a character's ticks in a tile disappear at once if they interrupt the string of
    consecutive turns ended in that tile" — ending a turn in another tile interrupts it; leaving
    and coming back within the turn does not."""
    game, c = game_on()
    ent = game.st.ent
    htc = floor_of(game, where("Hyperbolic Time Chamber"))
    ent.space[c] = htc
    end_turn_of(game, c)
    ent.space[c] = floor_of(game, where("Rabbit Hole"))  # a walk out and back in
    ent.space[c] = htc
    end_turn_of(game, c)
    assert ent.ticks[c] == 2
    p = where(second) if second != "Uncovered Tile" else uncovered_at()
    ent.space[c] = floor_of(game, p)
    end_turn_of(game, c)
    assert ent.ticks[c] == ticks_after
    ent.space[c] = htc
    end_turn_of(game, c)
    assert ent.ticks[c] == 1 and ent.speed[c] == _speed(game_on()[0], c)


def test_redeeming_removes_only_the_price():
    """"Redeeming a reward removes only the number of ticks that reward costs. Any ticks a
    character has banked beyond that price stay with them" (ticks beyond the price: banked while
    the reward could not be given, e.g. a Summon already used)."""
    game, c = game_on()
    ent = game.st.ent
    ent.space[c] = floor_of(game, where("Hyperbolic Time Chamber"))
    ent.ticks[c], ent.tick_tile[c] = 4, TILES.find("Hyperbolic Time Chamber") + 1
    end_turn_of(game, c)
    assert ent.ticks[c] == 2 and len(events(game, L.EV_REWARD)) == 1


@pytest.mark.parametrize("tile, price", [("Gotham Alley", 4), ("Jurassic Paddock", 3)])
def test_no_reward_no_exchange(tile, price):
    """"The reward's price in ticks disappears in exchange for the reward itself": a Summon or an
    assist character that cannot join (the special-entities slice's hooks refuse: no Summon left,
    an assist already held) keeps the ticks banked."""
    game, c = game_on()
    ent = game.st.ent
    ent.space[c] = floor_of(game, where(tile))
    for _ in range(price):  # the first reward: given, and its price paid
        end_turn_of(game, c)
    assert len(events(game, L.EV_REWARD)) == 1 and ent.ticks[c] == 0
    for _ in range(price + 1):  # now none can join (the Summon used, the assist alive)
        end_turn_of(game, c)
    assert len(events(game, L.EV_REWARD)) == 1  # no reward ...
    assert ent.ticks[c] == price + 1  # ... no exchange: every tick stays banked


def test_a_permanent_gain_survives_deactivation_swap_and_removal():
    """"All buffs a tile gives you are permanent ... none of it is lost if that tile is later
    deactivated, swapped, or removed from the board"; "Once a reward has been redeemed it is
    severed from the tile that produced it"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    p = where("Hidden Leaf Gate")
    ent.space[c] = floor_of(game, p)
    r0 = int(ent.range[c])
    end_turn_of(game, c)
    end_turn_of(game, c)
    assert ent.range[c] == r0 + 1
    _set_tile_state(st, game.S, p, 0, 3, c)
    _swap(st, game.S, p, where("Firewall"), c)
    _transform(st, game.S, where("Firewall"), TILES.uncovered, c)
    assert ent.range[c] == r0 + 1


def test_a_tile_gain_of_one_toon_twin_is_gained_by_both():
    """A multi-character card's characters "share one stat pool and one item pool. A stat buff
    gained by one of them is gained by all of them": one Toon Twin earns Hidden Leaf Gate's
    permanent +1 range and both rows gain it (one gain event each); other cards do not."""
    game, c = game_on()
    ent = game.st.ent
    twins = np.flatnonzero((ent.kind == L.K_CHARACTER)
                           & (ent.card == CATALOGUE.cards.find("Toon Twins")))
    assert len(twins) == 2 and len(set(ent.group[twins])) == 1
    a, b = (int(x) for x in twins)
    others = np.flatnonzero((ent.kind == L.K_CHARACTER) & (ent.group != ent.group[a]))
    ent.space[a] = floor_of(game, where("Hidden Leaf Gate"))
    before, others_before = ent.range[[a, b]].copy(), ent.range[others].copy()
    end_turn_of(game, a)
    end_turn_of(game, a)
    assert np.array_equal(ent.range[[a, b]], before + 1)
    assert np.array_equal(ent.range[others], others_before)
    assert sorted(events(game, L.EV_GAIN)[:, 2].tolist()) == [a, b]
