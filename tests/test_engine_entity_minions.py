"""Minions and clones, one table-driven scenario per rule: a small position is set up (a team
with a summoner; everybody else crowded on one spawn space so range and sight are no question
unless the rule is about them), the summon or the clone is played through the engine interface
or its hook, and the outcome the book asks for is asserted. Each test quotes its rule
(docs/entities.md, docs/rules-coverage.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.board.graph import compile_board
from sim.board.reference import ref_attack_costs
from sim.catalogue.entities import R_MINION_DEFENSE, R_MINION_RANGE, R_MINION_SPEED
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.rules.cpu import _cpu_target
from sim.engine.rules.death import _kill
from sim.engine.entities.special import _spawn_assist
from sim.engine.entities.timed_states import _set_state
from sim.engine.rules.turn import _begin_turn, _next_actor
from tests._engine_kit import CATALOGUE, events
from tests._entities_kit import (ENT, TEAM0, TEAMS, card_rows, decide, enemy_character, on_space,
                                 rows, start, summon_minions)


# --------------------------------------------------------------------- minions

def test_minions_are_spawned_within_the_range_and_line_of_sight_of_their_creator():
    """"Minions are spawned on any space within both the range and the line of sight of their
    creator" — the legal spaces are exactly the floor spaces the reference sight search
    (sim.board.reference, Dijkstra) finds within the creator's range."""
    game = start()
    st, ent = game.st, game.st.ent
    q = int(card_rows(game, 0, "Quill Duelist")[0])
    decide(game, q)
    mask = game.legal_mask()
    legal = {s for s in range(st.kind.shape[0]) if mask[on_space(game, s)]}
    setup = game.setup
    graph = compile_board(setup.board, CATALOGUE.tiles, CATALOGUE.board_rules)
    reach = int(ent.range[q])
    costs = ref_attack_costs(graph, int(ent.space[q]), reach)
    expected = {s for s in range(st.kind.shape[0])
                if 0 <= costs[s] <= reach and st.kind[s] == FLOOR and st.tile_pos[s] >= 0}
    assert legal == expected and len(legal) > 1


def test_a_summon_makes_its_minions_as_data_says_and_spends_a_charge():
    """summon (Ability Index house type): `count` minions of `health`, `attacks`, `tier`; the
    book gives no minion speed, range or defense (house: rules.toml [entities]); "Actions are
    used to ... interact with abilities"; charges per game."""
    game = start()
    ent = game.st.ent
    q, spaces = summon_minions(game)
    made = np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))
    assert len(made) == 3 and len(events(game, L.EV_SPAWN)) == 3
    assert np.all(ent.kind[made] == L.K_MINION) and np.all(ent.space[made] == spaces[-1])
    assert np.all(ent.health[made] == 30) and np.all(ent.atk[made] == 1)
    assert np.all(ent.tier[made] == 1)
    assert np.all(ent.speed[made] == ENT.rules[R_MINION_SPEED])
    assert np.all(ent.range[made] == ENT.rules[R_MINION_RANGE])
    assert np.all(ent.defense[made] == ENT.rules[R_MINION_DEFENSE])
    assert np.all(ent.team[made] == 0) and np.all(ent.done[made] == 1)
    assert ent.acted[q] == 1 and ent.charges_left[q] == 0
    decide(game, q)
    assert not game.legal_mask()[game.block("ability_on_space")].any()


def test_minions_are_controlled_by_their_team_after_its_characters():
    """"A Minion is an entity ... controlled by that character's team" (house: they act in their
    team's turn after its characters, from the turn after they were spawned)."""
    game = start()
    st, ent = game.st, game.st.ent
    q, _ = summon_minions(game)
    _begin_turn(st, game.S, 0)
    first = _next_actor(st, 0)
    assert ent.kind[first] == L.K_CHARACTER
    ent.done[(ent.team == 0) & (ent.kind == L.K_CHARACTER)] = 1
    nxt = _next_actor(st, 0)
    assert ent.kind[nxt] == L.K_MINION and ent.owner[nxt] == q + 1
    game.st.game.cur = nxt
    assert game.legal_mask()[L.END]


def test_minions_disappear_when_their_creator_is_killed():
    """"all of a character's minions disappear if that character is killed"; "All of that
    character's minions disappear" (not a Kill, not in the count of 7)."""
    game = start()
    st, ent = game.st, game.st.ent
    q, _ = summon_minions(game)
    deaths = int(st.game.deaths)
    _kill(st, game.S, q, -1, L.BY_ATTACK)
    assert not np.any((ent.owner == q + 1) & (ent.alive != 0))
    assert len(events(game, L.EV_VANISH)) == 3 and st.game.deaths == deaths + 1


def test_a_revive_brings_back_characters_only():
    """"A Revive is when a character who has died comes back to life" — not a minion, nor a
    destroyed vehicle ("once destroyed, cannot be respawned")."""
    game = start()
    st, ent = game.st, game.st.ent
    q, _ = summon_minions(game)
    minion = int(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))[0])
    _kill(st, game.S, minion, -1, L.BY_ATTACK)
    mate = int(card_rows(game, 0, "Mario")[0])
    _kill(st, game.S, mate, -1, L.BY_ATTACK)
    c = int(card_rows(game, 0, "Luffy")[0])
    code = CATALOGUE.abilities.code("revive")
    ent.ab[c] = CATALOGUE.abilities.row(code, [1, 1])
    ent.charges_left[c] = 1
    decide(game, c)
    targets = [e for e in range(ent.shape[0]) if game.legal_mask()[game.action("ability", e)]]
    assert targets == [mate]


def test_a_cards_record_counts_its_minions_damage_but_not_their_losses():
    """Card records (runner._card_record): a card's minions were made by its ability — the health
    they deal and their kills count for it; they are not its characters (health taken, alive)."""
    from sim.ai.play import _card_record
    game = start()
    st, ent = game.st, game.st.ent
    q, _ = summon_minions(game)
    minion = int(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))[0])
    ent.dealt[minion], ent.taken[minion], ent.kills[minion] = 50, 20, 1
    rec = np.zeros((4, 5, 4), np.int64)
    _card_record(st, TEAMS, rec)
    slot = TEAM0.index("Quill Duelist")
    assert rec[0, slot].tolist() == [ent.dealt[q] + 50, ent.taken[q], ent.kills[q] + 1, 1]


@pytest.mark.parametrize("kind", [L.K_MINION, L.K_ASSIST, L.K_VEHICLE])
def test_the_count_of_7_counts_characters_only(kind):
    """"The count of 7, counts characters only. Minions, CPUs and assist characters that have died
    do not add to it"; "'Kill' Specifically refers to the Death of a Character"."""
    game = start("assist")
    st, ent = game.st, game.st.ent
    if kind == L.K_MINION:
        summon_minions(game)
        e = int(np.flatnonzero((ent.kind == L.K_MINION) & (ent.alive != 0))[0])
    elif kind == L.K_ASSIST:
        assert _spawn_assist(st, game.S, int(card_rows(game, 0, "Luffy")[0]), 0)
        e = int(rows(game, L.K_ASSIST, 0)[0])
    else:
        e = int(rows(game, L.K_VEHICLE)[0])
    killer = enemy_character(game)
    _kill(st, game.S, e, killer, L.BY_ATTACK)
    assert ent.alive[e] == 0 and st.game.deaths == 0 and ent.kills[killer] == 0


def test_cpus_attack_characters_only():
    """House ruling (rules.toml [game] cpu_leash): a CPU "attacks the character with the least
    health in its range and line of sight" — a minion beside it is not a character."""
    game = start()
    st, ent = game.st, game.st.ent
    q, _ = summon_minions(game)
    minion = int(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))[0])
    here = int(ent.space[q])
    ent.space[minion] = here
    ent.health[minion] = 1
    assert _cpu_target(st, game.S, here, 0) == int(np.argmin(np.where(
        (ent.kind == L.K_CHARACTER) & (ent.space == here), ent.health, 10**9)))


# --------------------------------------------------------------------- clones

def test_a_clone_is_a_one_hp_copy_on_the_same_space_holding_nothing():
    """"A Clone is a direct copy of a character's stats and abilities. A clone is created on the
    same space as the character it copies"; "Items are not cloned"; "A clone has only 1 HP" (its
    stats as printed: a buff belongs to the original)."""
    game = start()
    st, ent = game.st, game.st.ent
    d = int(card_rows(game, 0, "Silent Film Duo")[0])
    ent.space[d] = int(game.S.spawn_space[0, 1])
    _set_state(st, game.S, d, L.BUFF, d, 3, L.STAT_SPEED, 2, True)
    ent.raw[d, L.ITEM_BLOCK:L.ITEM_BLOCK + 8] = 7  # whatever the original holds
    decide(game, d)
    mask = game.legal_mask()
    legal = [s for s in range(st.kind.shape[0]) if mask[on_space(game, s)]]
    assert legal == [int(ent.space[d])]
    clone_row = int(np.flatnonzero(ent.owner == d + 1)[0])
    items_before = ent.raw[clone_row, L.ITEM_BLOCK:L.ITEM_BLOCK + 8].copy()
    game.apply(on_space(game, legal[0]))
    k = clone_row
    assert ent.alive[k] == 1 and ent.kind[k] == L.K_CLONE
    assert ent.health[k] == 1 and ent.max_health[k] == 1 and ent.space[k] == legal[0]
    assert ent.speed[k] == ent.speed[d] - 2  # unbuffed
    for col in (L.RANGE, L.DEFENSE, L.SUIT, L.CARD):
        assert ent.raw[k, col] == ent.raw[d, col]
    assert np.array_equal(ent.raw[k, L.ATK:L.ATK + 8], ent.raw[d, L.ATK:L.ATK + 8])
    assert np.array_equal(ent.ab[k], ent.ab[d])
    assert np.array_equal(ent.raw[k, L.ITEM_BLOCK:L.ITEM_BLOCK + 8], items_before)
    assert ent.buff[k] == 0


def test_a_clone_dies_when_its_original_dies():
    """"The Clone dies when the character it was copied from dies"."""
    game = start()
    st, ent = game.st, game.st.ent
    d = int(card_rows(game, 0, "Silent Film Duo")[0])
    decide(game, d)
    game.apply(on_space(game, int(ent.space[d])))
    k = int(np.flatnonzero((ent.owner == d + 1) & (ent.alive != 0))[0])
    _kill(st, game.S, d, -1, L.BY_ATTACK)
    assert ent.alive[k] == 0 and events(game, L.EV_VANISH)[-1][2] == k
