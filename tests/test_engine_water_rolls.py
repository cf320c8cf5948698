"""Water-rolls and rolled walls in play, one table-driven scenario per rule: a success crosses the
body for no speed, a failure submerges (only escape is left), the first failure ends the streak
and spending the action buys a fresh one, a water wall's failed roll does not submerge and a
fire wall's costs 50 damage, free water (a mobility ability, boots) always succeeds without
rolling up to the house cap on automatic successes, and a submerged character remains a target.

Each case puts a character beside the water, a wall, a platform edge or a ladder of board 1 and
acts through the engine interface; each case quotes its rule."""

from __future__ import annotations

import numpy as np
import pytest

from sim.board.graph import ROLL_FIRE_WALL, ROLL_WATER_WALL, compile_board
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from tests._engine_kit import CATALOGUE, events, setup_for
from tests._water_kit import (BOARD, RULES, beside_water, cross, put, rules_ip, water_action,
                              water_game)


def beside_wall(game, code):
    S = game.S
    for s in range(S.move_roll.shape[0]):
        for d in range(8):
            t = game.st.move_nbr[s, d]
            if t >= 0 and S.move_roll[s, d] == code and game.st.kind[s] == FLOOR:
                return s, int(t)
    raise AssertionError("board 1 has this wall")


def test_a_successful_water_roll_crosses_the_body_for_no_speed():
    """"On a success, you may move into any other space adjacent to that same body of water.
    This movement costs no speed"."""
    game, c = water_game()
    s, t = beside_water(game)
    # the landing spaces offered are exactly the other spaces next to the bodies s touches (and
    # the far side of any wall needing a roll), no other space of the tile
    g = compile_board(setup_for(BOARD).board, CATALOGUE.tiles, RULES)
    shore = {int(x) for b in g.space_bodies[s] if b >= 0
             for x in g.body_members[g.body_start[b]:g.body_start[b + 1]]} - {s}
    walls = {int(x) for d, x in enumerate(game.st.move_nbr[s])
             if x >= 0 and game.st.move_roll[s, d]}
    mask = put(game, c, s)
    offered = {x for x in range(game.st.kind.shape[0]) if mask[water_action(game, x)]}
    assert offered == shore | walls and t in offered
    assert cross(game, c, s, t)["success"] == 1


def test_a_failed_water_roll_submerges_and_only_escape_is_left():
    """"On a failure, the Entity who attempted the roll is Submerged"; "a submerged character
    cannot move, and cannot spend their action on anything except attempting to escape"; "The
    first failed roll ends that streak for the turn"; "Spending that character's action buys them
    a fresh streak"; an escape that succeeds ends it ("remains there until they succeed")."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    with rules_ip(game.S, P_WATER_MIN=99):  # every face fails
        game.apply(water_action(game, t))
    ent = game.st.ent
    assert ent.submerged[c] == 1 and ent.space[c] == s and ent.streak_over[c] == 1
    assert len(events(game, L.EV_SUBMERGED)) == 1
    legal = game.legal_actions()
    wb = water_action(game, 0)
    assert legal[0] == L.END and np.all(legal[1:] >= wb)  # no move, attack, ability or item
    assert ent.acted[c] == 0
    with rules_ip(game.S, P_WATER_MIN=1):
        game.apply(int(legal[1]))  # a fresh streak: it costs the action
    assert ent.acted[c] == 1 and ent.submerged[c] == 0 and ent.streak_over[c] == 0
    assert not game.legal_mask()[game.block("attack").start:wb].any()


def test_no_roll_is_left_once_the_streak_failed_and_the_action_is_spent():
    """"The first failed roll ends that streak for the turn" and the action buys only one fresh
    streak."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    game.st.ent.acted[c] = 1
    game.st.ent.streak_over[c] = 1
    assert not game.legal_mask()[game.block("water_roll").start:game.block("hand_over").start].any()
    # the same through a failed roll: the action spent, the roll fails, no roll is left
    game.st.ent.streak_over[c] = 0
    assert put(game, c, s)[water_action(game, t)]
    with rules_ip(game.S, P_WATER_MIN=7):  # every face fails
        game.apply(water_action(game, t))
    game.st.game.cur = c
    assert game.st.ent.streak_over[c] == 1
    assert not game.legal_mask()[game.block("water_roll").start:game.block("hand_over").start].any()


@pytest.mark.parametrize("code, damage, submerged", [
    # "Failing that roll simply means you do not cross. It does not submerge you"
    (ROLL_WATER_WALL, 0, 0),
    # "If that water-roll fails, the character takes 50 damage. It does not submerge them"
    (ROLL_FIRE_WALL, None, 0),
])
def test_a_failed_wall_roll(code, damage, submerged):
    game, c = water_game()
    s, t = beside_wall(game, code)
    put(game, c, s)
    health = int(game.st.ent.health[c])
    with rules_ip(game.S, P_WATER_MIN=99):
        game.apply(water_action(game, t))
    ent = game.st.ent
    lost = RULES.fire_wall_damage if damage is None else damage
    assert ent.space[c] == s and ent.submerged[c] == submerged
    assert health - ent.health[c] == min(lost, health)


def test_a_wall_crossed_costs_a_step():
    """A rolled wall is crossed by a step ("can be passed with a water-roll"): one move of speed."""
    game, c = water_game()
    s, t = beside_wall(game, ROLL_WATER_WALL)
    put(game, c, s)
    speed = int(game.st.ent.speed_left[c])
    with rules_ip(game.S, P_WATER_MIN=1):
        game.apply(water_action(game, t))
    assert game.st.ent.space[c] == t
    assert game.st.ent.speed_left[c] == speed - RULES.move_cost


def test_free_water_always_succeeds_without_rolling():
    """"Freely Cross Water ... All attempted Water Rolls are an Automatic Success" (mobility with
    free_water; the log shows no face)."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    game.st.ent.free_water[c] = 1
    with rules_ip(game.S, P_WATER_MIN=99):
        game.apply(water_action(game, t))
    assert game.st.ent.space[c] == t
    assert game.named_events("water-roll")[-1]["face"] == 0


def test_a_streak_of_automatic_successes_ends_at_the_house_cap():
    """House ruling (rules.toml ``water_streak_max``) completing "Each Entity may roll for water
    freely, as many times as they like, until they fail": with "Freely Cross Water" no roll fails,
    so the streak ends after ``water_streak_max`` crossings; one more buys a fresh streak with the
    action, after which no roll is left once that streak ends too (a turn always ends)."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    ent = game.st.ent
    ent.free_water[c] = 1
    cap = RULES.water_streak_max
    assert game.S.ip[L.P_WATER_STREAK] == cap
    here, there = s, t
    for k in range(cap):
        assert ent.streak_over[c] == 0 and ent.acted[c] == 0
        assert game.legal_mask()[water_action(game, there)]
        game.apply(water_action(game, there))
        here, there = there, here
    assert ent.streak_over[c] == 1 and ent.acted[c] == 0 and ent.space[c] == here
    game.apply(water_action(game, there))  # the fresh streak costs the action
    assert ent.acted[c] == 1 and ent.streak_rolls[c] == 1
    for k in range(cap - 1):
        here, there = there, here
        game.apply(water_action(game, there))
    assert ent.streak_over[c] == 1
    assert not game.legal_mask()[game.block("water_roll").start:game.block("hand_over").start].any()


def test_a_submerged_character_remains_a_target():
    """"They remain a target. A submerged character can be attacked like anyone else"."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    game.st.ent.submerged[c] = 1
    foe = int(np.flatnonzero((game.st.ent.team == 1) & (game.st.ent.kind == L.K_CHARACTER))[0])
    game.st.game.cur = foe
    game.st.ent.space[foe] = s
    game.st.ent.acted[foe] = 0
    assert game.legal_mask()[game.action("attack", c)]


def test_boots_with_free_water_cross_without_rolling():
    """"Some Items ... allow you to 'Freely Cross Water'": held, active boots with free_water make
    the roll an automatic success (no face rolled)."""
    from sim.engine.items.holding import _end_turn_items, _grant_item
    game, c = water_game()
    items = CATALOGUE.items
    flagged = [i for i in range(len(items.names))
               if game.S.item_fx[i, L.FX_FLAG] != 0 and items.types[items.type[i]].name == "boots"]
    assert flagged, "the starter items include boots that freely cross water"
    assert _grant_item(game.st, game.S, c, flagged[0])
    _end_turn_items(game.st, game.S, c)  # "A character must End their Turn with an Item"
    s, t = beside_water(game)
    put(game, c, s)
    with rules_ip(game.S, P_WATER_MIN=99):
        game.apply(water_action(game, t))
    assert game.st.ent.space[c] == t
    assert game.named_events("water-roll")[-1]["face"] == 0
