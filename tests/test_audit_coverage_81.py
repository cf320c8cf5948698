"""The rules-coverage audit of stop 81: rows of docs/rules-coverage.md whose cited test did not
check the sentence they quote get a test here that does (each passes: the engine follows the
book; the row now cites it)."""

from __future__ import annotations

import numpy as np

from sim.engine.items.holding import _grant_item, _put_on_floor
from sim.engine.state import fields as L
from tests import _entities_kit as ents
from tests import _tiles_kit as tiles
from tests._engine_kit import new_game


def test_placing_the_team_costs_no_speed_and_no_action_and_the_turn_proceeds_as_normal():
    """R2: "At the beginning of your first turn, your entire team must be placed into your Spawn
    ... placing them costs no speed and no actions"; "Once your team is placed, the rest of your
    first turn proceeds as normal" (every character still holds its full speed and its action,
    and may move)."""
    game = new_game(3, 1)
    st, ent = game.st, game.st.ent
    team = np.flatnonzero((ent.team == 0) & (ent.kind == L.K_CHARACTER))
    placed = 0
    while np.any(ent.space[team] < 0):
        c = game.current
        assert ent.space[c] < 0
        game.apply(int(np.flatnonzero(game.legal_mask())[0]))  # the first spawn space offered
        placed += 1
    assert placed == len(team) and set(ent.space[team].tolist()) <= set(game.S.spawn_space[0])
    assert np.all(ent.speed_left[team] == ent.speed[team])
    assert np.all(ent.spent[team] == 0) and np.all(ent.acted[team] == 0)
    c = game.current
    assert c in team
    mask = game.legal_mask()
    n = st.kind.shape[0]
    assert any(mask[a] and st.decision.reach_cost[a - 1] > 0 for a in range(1, n + 1))


def test_each_character_of_a_multi_character_card_has_its_own_tile_reward_ticks():
    """R3:S4: "Every one of them has their own action, their own health pool, their own speed to
    spend, and their own tile reward ticks": two characters of one card ending turns in a reward
    tile count their ticks apart (not one pool, as their stats are)."""
    game, _ = tiles.game_on()
    ent = game.st.ent
    chars = [e for e in range(ent.shape[0]) if ent.kind[e] == L.K_CHARACTER]
    cards = [(int(ent.team[e]), int(ent.card[e])) for e in chars]
    a, b = [e for e in chars if cards.count((int(ent.team[e]), int(ent.card[e]))) > 1][:2]
    assert ent.card[a] == ent.card[b] and ent.team[a] == ent.team[b]
    ent.space[[a, b]] = tiles.floor_of(game, tiles.where("Fortress of Solitude"))
    tiles.end_turn_of(game, a)
    tiles.end_turn_of(game, a)
    tiles.end_turn_of(game, b)
    assert ent.ticks[a] == 2 and ent.ticks[b] == 1


def test_a_minion_cannot_pick_up_an_item_when_its_creators_pool_is_full():
    """R3:S4: "A minion cannot pick up an item at all if there is no slot available for it": with
    its creator's two slots taken, a minion standing on an item is offered no pick-up; with one
    free, it is."""
    game = ents.start()
    st, ent, S = game.st, game.st.ent, game.S
    q, _ = ents.summon_minions(game)
    minion = int(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))[0])
    names = ents.CATALOGUE.items.names
    assert _grant_item(st, S, q, names.index("Health Potion"))
    _put_on_floor(st, names.index("Antidote"), int(ent.space[minion]))
    ents.decide(game, minion)
    legal = {game.decode(a).kind for a in np.flatnonzero(game.legal_mask())}
    assert "pick_up" in legal
    assert _grant_item(st, S, q, names.index("Iron Sword"))
    ents.decide(game, minion)
    legal = {game.decode(a).kind for a in np.flatnonzero(game.legal_mask())}
    assert "pick_up" not in legal and "drop" not in legal
