"""Items, one table-driven scenario per rule: a small position is set up (Team 1's first decision,
everybody on one space or on an open patch of a tile), items are given to characters or laid on
the board as data (cards/items.csv rows), played through the engine interface (the legal mask and
``apply``), and the rule is asserted. Each case quotes its rule (docs/items.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.ai.play import play_game, step
from sim.catalogue.items import ITEM_TYPE_COUNT, R_PICKUP
from sim.catalogue.tile_layout import FLOOR
from sim.combat.star import GREEN
from sim.engine.state import fields as L
from sim.engine.rules.attack import _attack_star
from sim.engine.rules.death import _kill
from sim.engine.items.holding import _free_water, _grant_item, _put_on_floor
from sim.engine.rules.live_movement import _sight_from, _void_position
from sim.engine.rules.turn import _begin_turn
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, check_items, new_game

ITEMS = CATALOGUE.items
SPAN = 35


def item(name: str) -> int:
    return ITEMS.find(name)


def scenario(space: int | None = None):
    """Team 1's first decision with every character on ``space`` (default: a spawn space)."""
    game = new_game(1, 2, EXAMPLE_TEAMS.cards)
    ent = game.st.ent
    here = int(game.S.spawn_space[0, 0]) if space is None else space
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER:  # the teams' characters (not spare rows)
            ent.space[e] = here
    return game, game.current


def give(game, e: int, name: str, active: bool = True) -> None:
    """``e`` gains the item; ``active``: as if it had since ended a turn holding it."""
    assert _grant_item(game.st, game.S, e, item(name))
    if active:
        end_turn_of(game, e)


def end_turn_of(game, e: int) -> None:
    """``e`` ends its turn (through the engine's END), then the decision comes back to the
    scenario's decider with its turn as it was."""
    st, ent = game.st, game.st.ent
    c = game.current
    acted, done = int(ent.acted[c]), ent.done.copy()
    st.game.cur = e
    game.apply(L.END)
    ent.done[:] = done
    st.game.cur = c
    ent.acted[c] = acted


def use_on(game, k: int, e: int) -> int:
    return game.action("item_on_entity", e, k)


def use_at(game, k: int, s: int) -> int:
    return game.action("item_on_space", s, k)


def pick(game, f: int) -> int:
    return game.action("pick_up", f)


def drop(game, k: int) -> int:
    return game.action("drop", slot=k)


ITEM_KINDS = ("item_on_entity", "item_on_space", "pick_up", "drop")


def item_actions(game) -> list[int]:
    return [int(a) for a in game.legal_actions() if game.decode(a).kind in ITEM_KINDS]


def slots(game, e: int) -> list[int]:
    """The item names in ``e``'s pool (None: empty slot)."""
    ent = game.st.ent
    p = e if ent.pool[e] == 0 else int(ent.pool[e]) - 1
    return [ITEMS.names[v - 1] if v else None for v in ent.item_slot[p]]


def ally_of(game, c):
    ent = game.st.ent
    return int(next(e for e in range(ent.shape[0]) if ent.team[e] == ent.team[c] and e != c))


def enemy_of(game, c):
    return int(np.flatnonzero((game.st.ent.team == 1) & (game.st.ent.kind == L.K_CHARACTER))[0])


def events(game, kind):
    rows = game.event_rows()
    return rows[rows[:, 0] == kind]


@pytest.fixture(scope="module")
def patch():
    """Board 1's geometry for range cases: an open space ``s`` of a big tile (its eight king
    neighbours ``ring`` floor of the same tile at range 1), a floor space ``far`` of that tile two
    steps away, and a doorway space ``door`` with the space ``beyond`` it in the next tile (range
    2: "It costs an extra range as a penalty when attacking across tiles")."""
    game = new_game(1, 2, EXAMPLE_TEAMS.cards)
    st = game.st
    kind, tp = st.kind, st.tile_pos
    floor = np.flatnonzero((kind == FLOOR) & (tp >= 0))
    open_, door = None, None
    for s in floor:
        r, c = divmod(int(s), SPAN)
        sight = _sight_from(st, game.S, int(s), 2)
        if open_ is None and 2 <= r < SPAN - 2 and 2 <= c < SPAN - 2:
            ring = [int(s) + dr * SPAN + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
            far = [t for t in floor if tp[t] == tp[s] and max(abs(t // SPAN - r),
                                                              abs(t % SPAN - c)) == 2]
            if all(kind[t] == FLOOR and tp[t] == tp[s] and sight[t] == 1 for t in ring) and far:
                open_ = (int(s), ring, int(far[0]))
        if door is None:
            beyond = [t for t in (s + 1, s - 1, s + SPAN, s - SPAN)
                      if 0 <= t < kind.shape[0] and tp[t] >= 0 and tp[t] != tp[s] and sight[t] == 2]
            if beyond:
                door = (int(s), int(beyond[0]))
        if open_ and door:
            return open_ + door
    # a failure, not a skip: the range cases must not stop running unnoticed when the board
    # generator changes (issue #27); pick another board seed above if this ever fires
    raise AssertionError("board 1 has no open patch or doorway: the range cases need another board")


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


def test_drop_onto_the_current_space_and_pick_up_within_1_range(patch):
    """"A character can drop any held item onto their current space, and can pick up any item in
    a space within 1 range of their current space" (house: 1 range = the range rules: a
    neighbouring space of the same tile; a tile boundary adds its penalty)."""
    s, ring, far, door, beyond = patch
    game, c = scenario(s)
    st = game.st
    give(game, c, "Spyglass")
    game.apply(drop(game, 0))
    assert [list(r) for r in st.floor if r[0] >= 0] == [[item("Spyglass"), s]]
    for t in (ring[0], ring[3], ring[7], far):
        _put_on_floor(st, item("Antidote"), t)
    legal = [a - pick(game, 0) for a in item_actions(game)]
    # rows: 0 the dropped spyglass (own space), 1-3 neighbours, 4 two steps away
    assert legal == [0, 1, 2, 3]
    saved, n_floor = st.floor.copy(), int(st.game.floor_n)
    st.floor[:] = -1
    st.game.floor_n = 0
    _put_on_floor(st, item("Antidote"), ring[0])  # nothing underfoot, one item a step away
    assert [a - pick(game, 0) for a in item_actions(game)] == [0]
    st.floor[:] = saved
    st.game.floor_n = n_floor
    game.st.ent.space[c] = door
    st.floor[1:5] = -1
    st.game.floor_n = 1
    _put_on_floor(st, item("Antidote"), beyond)  # row 1: next tile, range 2
    assert [a - pick(game, 0) for a in item_actions(game)] == []
    game.st.ent.space[c] = beyond
    assert [a - pick(game, 0) for a in item_actions(game)] == [1]


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


def test_a_blast_is_tile_wide_damage_on_the_tile_of_the_space_hit(patch):
    """bomb / blast: "Tile-Wide Damage is flat damage dealt to a single tile ... applies
    immediately to everything in the affected tiles" (opponents, invisible ones too, and the
    thrower's own teammates standing there); within the item's range and line of sight."""
    s, ring, far, door, other = patch
    game, c = scenario(door)
    ent = game.st.ent
    foes = np.flatnonzero((ent.team >= 1) & (ent.kind == L.K_CHARACTER))
    ent.space[foes] = other
    ent.invisible[foes[0]] = 99 * L.CLOCKS + 1
    mates = np.flatnonzero((ent.team == 0) & (ent.kind == L.K_CHARACTER))
    ent.space[mates[1:]] = other
    give(game, c, "Fire Bomb")
    spaces = [a - use_at(game, 0, 0) for a in item_actions(game) if a < drop(game, 0)]
    assert other in spaces and door in spaces
    before, mates_before = ent.health[foes].copy(), ent.health[mates].copy()
    game.apply(use_at(game, 0, other))
    assert np.array_equal(ent.health[foes], before - 25)
    there = ent.space[mates] == other  # the thrower stands on another tile
    assert there.sum() == len(mates) - 1 and not there[mates == c].any()
    assert np.array_equal(ent.health[mates], mates_before - 25 * there)


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


# --------------------------------------------------------------------------- the floor

def test_a_destroyed_coordinate_removes_its_items_and_a_full_floor_loses_them():
    """"Anything in a tile that is destroyed is removed from the game"; house ruling: at most
    ``F_CAP`` items lie on the board — then one more cannot be dropped, and one dropped by a death
    leaves the game (docs/rulings.md)."""
    game, c = scenario()
    st, ent = game.st, game.st.ent
    here = int(ent.space[c])
    for _ in range(L.F_CAP - 1):
        assert _put_on_floor(st, item("Antidote"), here)
    give(game, c, "Spyglass")
    assert drop(game, 0) in item_actions(game)
    give(game, c, "Iron Sword")
    game.apply(drop(game, 0))
    assert drop(game, 1) not in item_actions(game), "the floor is full"
    _kill(st, game.S, c, -1, L.BY_ATTACK)
    assert st.game.items_lost == 1
    check_items(game)
    _void_position(st, int(st.tile_pos[here]))
    assert not _put_on_floor(st, item("Antidote"), here)
    other = int(np.flatnonzero((st.kind == FLOOR) & (st.tile_pos >= 0))[0])
    assert _put_on_floor(st, item("Antidote"), other)  # a row on the void is free again
    assert st.game.items_lost == 3
    check_items(game)


# --------------------------------------------------------------------------- policies and logs

def test_greedy_picks_up_heals_when_hurt_and_throws_at_the_best_target():
    """Greedy (sim/ai/item_values.py): picks up when it has a free slot; keeps a potion while it
    would restore less than `keep_percent` of it; throws a knife at the target it kills."""
    game, c = scenario()
    st, ent = game.st, game.st.ent
    _put_on_floor(st, item("Health Potion"), int(ent.space[c]))
    step(game, L.GREEDY)
    assert slots(game, c) == ["Health Potion", None]
    end_turn_of(game, c)
    ent.acted[c] = 1
    st.game.cur = c
    ent.health[c] = ent.max_health[c] - 5
    ent.speed_left[c] = 0
    step(game, L.GREEDY)
    assert slots(game, c)[0] == "Health Potion", "kept: a scratch"
    st.game.cur, ent.done[c] = c, 0
    ent.health[c] = ent.max_health[c] - 45
    step(game, L.GREEDY)
    assert slots(game, c)[0] is None and ent.health[c] == ent.max_health[c] - 5
    st.game.cur, ent.done[c], ent.acted[c] = c, 0, 0
    give(game, c, "Throwing Knife")
    foes = np.flatnonzero((ent.team == 1) & (ent.kind == L.K_CHARACTER))
    ent.defense[foes] = 9
    weak = int(foes[2])
    ent.health[weak] = 15
    ent.atk[c] = 0
    step(game, L.GREEDY)
    assert ent.alive[weak] == 0


def test_the_lookahead_considers_item_uses():
    """The look-ahead's candidates include the pick-up and every item use worth something."""
    from sim.ai.candidates import _candidates
    game, c = scenario()
    ent = game.st.ent
    d = enemy_of(game, c)
    away = int(game.S.spawn_space[2, 0])
    ent.space[(ent.kind == L.K_CHARACTER) & (np.arange(ent.shape[0]) != c) & (np.arange(ent.shape[0]) != d)] = away
    give(game, c, "Throwing Knife")
    _put_on_floor(game.st, item("Antidote"), int(ent.space[c]))
    mask = game.legal_mask()
    cands = np.empty(40, np.int64)
    k = _candidates(game.st, game.S, mask, cands, 64)
    got = set(cands[:k].tolist())
    assert pick(game, 0) in got and use_on(game, 0, d) in got


def test_item_events_read_well():
    """The JSONL log names the item and quotes the rule (sim/engine/log/events.py)."""
    from sim.engine.log.events import decode
    game, c = scenario()
    give(game, c, "Iron Sword")
    game.apply(drop(game, 0))
    labels = game.labels(CATALOGUE.cards.names, game.setup.cpu_names)
    rows = decode(game.event_rows(), labels, game.setup.apocalypses.names, ITEMS.names)
    texts = [e["text"] for e in rows if e["event"].startswith("item")]
    assert texts[0].endswith("gains Iron Sword (space %d; usable after ending a turn)"
                             % game.st.ent.space[c])
    assert "drops Iron Sword on space" in texts[-1]
    assert all(e["rule"] for e in rows)


def test_begin_turn_keeps_items():
    """Items stay held across turns (nothing in the book takes them away)."""
    game, c = scenario()
    give(game, c, "Iron Sword")
    _begin_turn(game.st, game.S, 0)
    assert slots(game, c) == ["Iron Sword", None]


CHILD = """
import json, warnings
warnings.simplefilter("ignore")  # NumPy scalars warn where compiled code wraps silently
import numpy as np
from sim.ai.play import play_game
from sim.engine.state import fields as L
from tests._engine_kit import new_game, seed_items
game = new_game(7, 3)
seed_items(game, np.random.default_rng(3))
play_game(game, [L.GREEDY, L.RANDOM, L.LOOKAHEAD, L.GREEDY], [0, 0, 2, 0])
print(json.dumps(game.event_rows().tolist()))
"""


@pytest.mark.slow
def test_items_play_the_same_game_interpreted_and_compiled():
    """An oracle for the item kernels (tests/test_engine_interpreted.py's, with items in play):
    the same game, event for event, under ``NUMBA_DISABLE_JIT=1`` and compiled."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    from tests._engine_kit import seed_items
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(root))
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=root, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    interpreted = np.array(json.loads(done.stdout), np.int64)
    game = new_game(7, 3)
    seed_items(game, np.random.default_rng(3))
    play_game(game, [L.GREEDY, L.RANDOM, L.LOOKAHEAD, L.GREEDY], [0, 0, 2, 0])
    compiled = game.event_rows()
    kinds = set(compiled[:, 0].tolist())
    assert {L.EV_ITEM_GAIN, L.EV_ITEM_ACTIVE, L.EV_ITEM_USE, L.EV_ITEM_DROP} <= kinds
    assert np.array_equal(interpreted, compiled)
