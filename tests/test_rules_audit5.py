"""Rule sentences of the rulebook (../shared/seeds/000_527084f8378d7355.txt), lines 180-441, in the
areas the earlier audits did not probe (freezing against an item's own duration, what a
submerged character may still do, a dead pilot, a revive), pinned through the engine. Line
numbers are the book's. The first three were departures of the engine, fixed in stop 70 (each
failed at its intended assertion on the engine before: docs/rulings.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.ai.greedy import _greedy_action
from sim.engine.entities.timed_states import _set_state
from sim.engine.items.holding import _end_turn_items, _grant_item
from sim.engine.rules.death import _kill
from sim.engine.rules.turn import _begin_turn
from sim.engine.state import fields as L
from sim.engine.tiles.paused import _after_action_tiles, _paused, _set_tile_state
from tests import _tiles_kit as tiles
from tests import _water_kit as water
from tests._engine_kit import CATALOGUE


def _holding(game, c, *names):
    """``c`` holds the named items, active (held over the end of a turn)."""
    for name in names:
        assert _grant_item(game.st, game.S, c, CATALOGUE.items.find(name))
    _end_turn_items(game.st, game.S, c)


def _submerged_holding(*names):
    """A character holding the named items (active), hurt by 60, that has just failed a
    water-roll: Submerged on the space it rolled from, its decision again."""
    game, c = water.water_game()
    s, t = water.beside_water(game)
    water.put(game, c, s)
    ent = game.st.ent
    _holding(game, c, *names)
    ent.health[c] -= 60
    offered = {game.decode(a).kind for a in game.legal_actions()}
    with water.rules_ip(game.S, P_WATER_MIN=99):  # every face fails
        game.apply(water.water_action(game, t))
    assert game.current == c and ent.submerged[c] == 1 and ent.acted[c] == 0
    return game, c, offered


def _item_kinds(game, slot):
    return {game.decode(a).kind for a in game.legal_actions()
            if game.decode(a).kind.startswith("item") and game.decode(a).slot == slot}


# ------------------------------------------------------- departures (fixed in stop 70)

@pytest.mark.parametrize("order", ["item first", "tile first"])
def test_a_frozen_tile_does_not_cut_short_an_items_longer_freeze(order):
    """l.408: "Freezing begins and ends as the ability or item causing it specifies"; l.406
    "Every entity standing in a frozen tile is frozen too, for as long as the tile is" (a
    minimum, not a cap). An enemy frozen for 3 turns of Team 1 by an item (a Scroll of Frost's
    effect row: it outlives its user) stands in the Server Farm, which is frozen for 1 turn
    (as Lethe Waters does), before or after the item's freeze. Before stop 70 the tile's freeze
    replaced the entity's own (``paused._freeze_standing`` overwrote FROZEN with the tile's
    expiry; after an action ``_after_action_tiles`` did it again), so when Team 1's next turn began the tile
    thawed and so did the enemy, two turns before the item said (1 of 600 greedy games: a
    tile freeze is rare, 77 in 600 games)."""
    game, c = tiles.game_on()
    st, S, ent = game.st, game.S, game.st.ent
    farm = tiles.where("Server Farm")
    d = tiles.enemy_of(game, c)
    ent.space[d] = tiles.floor_of(game, farm)
    if order == "item first":
        _set_state(st, S, d, L.FROZEN, c, 3, 0, 0, False)
        _set_tile_state(st, S, farm, 1, 1, c)
    else:
        _set_tile_state(st, S, farm, 1, 1, c)
        _set_state(st, S, d, L.FROZEN, c, 3, 0, 0, False)
        _after_action_tiles(st, S)
    assert ent.frozen[d] != 0
    _begin_turn(st, S, 0)  # Team 1's next turn: the tile's 1 turn has run, the item's 3 not
    _after_action_tiles(st, S)
    assert not _paused(st, farm)
    assert ent.frozen[d] != 0, "the item's freeze ended with the tile's"


def test_a_submerged_character_may_still_drink_a_potion_that_costs_no_action():
    """l.348: "a submerged character cannot move, and cannot spend their action on anything
    except attempting to escape"; l.325 "Some items also cost that character's action" (the
    Health Potion does not: cards/items.csv costs_action 0, "drunk by the holder; costs no
    action"). The book takes the submerged character's movement and its action; drinking a
    potion uses neither. Before stop 70 the engine returned from ``legal._legal_listing`` with
    END and the water block only, so no item was offered at all (random play: 280 decisions in
    100 games with an active no-action potion held while submerged, 42 of them hurt by 40 or
    more; greedy was never submerged in 300 games). A teleport scroll (no action, but movement)
    stays closed; drinking leaves the character submerged, its action free for the escape."""
    game, c, offered = _submerged_holding("Health Potion", "Scroll of Blinking")
    assert "item_on_entity" in offered  # on foot, beside the water: the potion is drunk
    assert "item_on_entity" in _item_kinds(game, 0)
    assert not _item_kinds(game, 1)  # "cannot move": no teleport
    ent = game.st.ent
    hurt = int(ent.health[c])
    greedy = int(_greedy_action(game.st, game.S, game.legal_mask()))  # hurt by 60: it drinks
    assert game.decode(greedy).kind == "item_on_entity"
    drink = next(a for a in game.legal_actions() if game.decode(a).kind == "item_on_entity")
    game.apply(drink)
    assert ent.health[c] == hurt + 40 and ent.submerged[c] == 1 and ent.acted[c] == 0
    assert any(game.decode(a).kind == "water_roll" for a in game.legal_actions())


def test_a_summoners_items_drop_where_it_dies_though_its_minions_were_alive():
    """l.244 "When a character dies, their items drop exactly where they were standing ... All
    of that character's minions disappear"; l.331 (the same); l.256 "Items are not restored
    either. Whatever the character dropped on death stays where it fell". Quill Duelist holds a
    Knight's Plate, summons three minions and is killed. Before stop 70 ``holding._drop_items``
    kept the pool while "a living character of the same card" shared it, and took a living
    minion for one (same card column, team and pool); ``death._kill`` calls it before
    ``special._on_death_entities`` makes the minions vanish. So the plate never reached the
    floor: it stayed in the dead character's pool, out of everyone's reach, and came back with
    a revive (600 greedy games: 32 deaths of a summoner or cloner holding items with its minions
    or clone alive, all 32 keeping them; 1 then revived holding them)."""
    from tests._entities_kit import start, summon_minions

    game = start()
    st, S, ent = game.st, game.S, game.st.ent
    q, _ = summon_minions(game)
    assert ((ent.owner == q + 1) & (ent.alive != 0)).sum() == 3
    _holding(game, q, "Knight's Plate")
    spot = int(ent.space[q])
    _kill(st, S, q, -1, L.BY_ATTACK)
    assert not ((ent.owner == q + 1) & (ent.alive != 0)).any()  # the minions are gone
    lying = [(int(i), int(s)) for i, s in st.floor if i >= 0]
    assert lying == [(CATALOGUE.items.find("Knight's Plate"), spot)], lying
    assert ent.item_slot[q].tolist() == [0, 0]


# --------------------------------------------------------------- pins the engine gets right

def test_a_submerged_character_cannot_spend_its_action_on_an_item():
    """l.348: "a submerged character ... cannot spend their action on anything except attempting
    to escape"; l.325 "Some items also cost that character's action" (the Throwing Knife: a bomb,
    costs_action). An enemy in range and sight on the same space: the knife is offered on foot,
    not while Submerged; the escape roll still is."""
    game, c = water.water_game()
    s, t = water.beside_water(game)
    ent = game.st.ent
    d = tiles.enemy_of(game, c)
    ent.space[d] = s
    water.put(game, c, s)
    _holding(game, c, "Throwing Knife")
    assert game.action("item_on_entity", d, 0) in game.legal_actions()
    with water.rules_ip(game.S, P_WATER_MIN=99):
        game.apply(water.water_action(game, t))
    assert ent.submerged[c] == 1 and ent.acted[c] == 0
    kinds = {game.decode(a).kind for a in game.legal_actions()}
    assert kinds == {"end", "water_roll"}, kinds


def test_a_longer_tile_freeze_outlasts_a_shorter_freeze_of_the_entitys_own():
    """l.406: "Every entity standing in a frozen tile is frozen too, for as long as the tile
    is"; l.408. An enemy frozen for 1 turn of Team 1 by an item stands in the Server Farm,
    frozen for 3: when its own freeze has run (Team 1's next turn), it is still frozen, with
    the tile, and thaws when the tile does."""
    game, c = tiles.game_on()
    st, S, ent = game.st, game.S, game.st.ent
    farm = tiles.where("Server Farm")
    d = tiles.enemy_of(game, c)
    ent.space[d] = tiles.floor_of(game, farm)
    _set_state(st, S, d, L.FROZEN, c, 1, 0, 0, False)
    _set_tile_state(st, S, farm, 1, 3, c)
    for turn in range(3):
        assert ent.frozen[d] != 0 and _paused(st, farm), turn
        _begin_turn(st, S, 0)
        _after_action_tiles(st, S)
    assert ent.frozen[d] == 0 and not _paused(st, farm)


def test_a_dead_pilots_items_drop_where_it_sat_and_its_vehicle_is_unharmed():
    """l.244 "When a character dies, their items drop exactly where they were standing"; l.331
    "Those items can be picked up under the same rule as any other"; l.376/l.390 a vehicle has "a
    health pool separate from its pilot". Luffy, riding the Mystery Machine with two items, is
    killed: both items lie on the vehicle's space, the vehicle keeps every point of its health
    and stands unoccupied, and a teammate standing there is offered both items to pick up."""
    from sim.engine.entities.special import _arrive
    from tests._entities_kit import card_rows, decide, start, vehicle_row

    game = start()
    st, ent = game.st, game.st.ent
    v = vehicle_row(game, "Mystery Machine")
    vs = int(ent.space[v])
    c = int(card_rows(game, 0, "Luffy")[0])
    ent.space[c] = vs
    _arrive(st, c)
    assert ent.riding[c] == v + 1
    _holding(game, c, "Iron Sword", "Health Potion")
    health = int(ent.health[v])
    _kill(st, game.S, c, -1, L.BY_ATTACK)
    lying = {(int(i), int(s)) for i, s in st.floor if i >= 0}
    names = CATALOGUE.items.names
    assert lying == {(names.index("Iron Sword"), vs), (names.index("Health Potion"), vs)}
    assert ent.alive[v] == 1 and ent.health[v] == health and ent.pilot[v] == 0
    mate = int(card_rows(game, 0, "Mario")[0])
    ent.space[mate] = vs
    decide(game, mate)
    picks = [int(a) for a in game.legal_actions() if game.decode(a).kind == "pick_up"]
    assert len(picks) == 2


def test_a_revive_brings_back_no_minion_and_no_spent_charge():
    """l.244 "All of that character's minions disappear"; l.252-254 "A revived character returns
    at full health, with their ability and their stats in exactly the state they were in at the
    moment of death ... Ability charges spent while the character was alive remain spent". Quill
    Duelist summons its three minions (its one charge) and is killed: the minions vanish;
    revived on the spot by a teammate's revive, it is at full health, its minions stay gone and
    its summon is not offered again."""
    from tests._entities_kit import card_rows, decide, start, summon_minions

    game = start()
    st, S, ent = game.st, game.S, game.st.ent
    q, _ = summon_minions(game)
    minions = np.flatnonzero(ent.owner == q + 1)
    assert (ent.alive[minions] != 0).sum() == 3 and ent.charges_left[q] == 0
    spot = int(ent.space[q])
    _kill(st, S, q, -1, L.BY_ATTACK)
    assert not (ent.alive[minions] != 0).any()
    reviver = int(card_rows(game, 0, "Luffy")[0])
    tiles.give_ability(game, reviver, "revive")
    decide(game, reviver)
    game.apply(game.action("ability", q))
    assert ent.alive[q] == 1 and ent.health[q] == ent.max_health[q] and ent.space[q] == spot
    assert not (ent.alive[minions] != 0).any() and ent.charges_left[q] == 0
    decide(game, q)
    kinds = {game.decode(a).kind for a in game.legal_actions()}
    assert not kinds & {"ability", "ability_on_space"}, kinds


@pytest.mark.parametrize("col, stat, amount", [(L.BUFF, L.STAT_DEFENSE, 2),
                                               (L.DEBUFF, L.STAT_RANGE, 1)])
def test_a_revived_characters_buff_sits_on_it_still_however_long_it_lay_dead(col, stat, amount):
    """l.252 "A revived character returns at full health, with their ability and their stats in
    exactly the state they were in at the moment of death"; l.254 "whatever buffs or de-buffs sat
    on their stats when they died sit on them still". A character holds a 2-turn buff (or
    de-buff) of an enemy's item, dies after one of those turns, lies dead for three more of
    that team's turns and is revived: the stat is as at its death, and the state has the one
    turn it had left. Before stop 70 the clock ran on while it lay dead and the revived
    character had lost it (the fifth audit: 19 of 66 revived characters that died with one)."""
    from sim.engine.effects.ability_effects import _revive
    from tests._entities_kit import start

    game = start()
    st, S, ent = game.st, game.S, game.st.ent
    c = int(np.flatnonzero((ent.team == 0) & (ent.kind == L.K_CHARACTER))[0])
    d = tiles.enemy_of(game, c)
    foe = int(ent.team[d])
    read = {L.STAT_DEFENSE: lambda: int(ent.defense[c]), L.STAT_RANGE: lambda: int(ent.range[c])}
    before = read[stat]()
    _set_state(st, S, c, col, d, 2, stat, amount, False)  # an item's: it outlives its user
    changed = read[stat]()
    assert changed != before
    _begin_turn(st, S, foe)  # one of its two turns
    spot = int(ent.space[c])
    _kill(st, S, c, -1, L.BY_ATTACK)
    for _ in range(3):  # dead through three more turns of the enemy's team
        _begin_turn(st, S, foe)
    _revive(st, S, c, c, spot)
    assert ent.alive[c] == 1 and ent.raw[c, col] != 0 and read[stat]() == changed
    _begin_turn(st, S, foe)  # the turn it had left
    assert ent.raw[c, col] == 0 and read[stat]() == before
