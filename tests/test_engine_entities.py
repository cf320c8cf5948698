"""Special entities, one table-driven scenario per rule: a small position is set up (a team with a
summoner, a multi-character card and the shipped vehicle's board; everybody else crowded on one
spawn space so range and sight are no question unless the rule is about them), the rule's action
is played through the engine interface or its hook, and the outcome the book asks for is
asserted. Each test quotes its rule (docs/entities.md, docs/rules-coverage.md)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy import stats

from sim.ai.greedy import _greedy_action
from sim.board.graph import compile_board
from sim.board.reference import ref_attack_costs
from sim.catalogue.entities import (R_MINION_DEFENSE, R_MINION_RANGE, R_MINION_SPEED, V_ATTACKS,
                                    V_HEALTH, V_RANGE, V_TIER, V_TILE, entity_opcode)
from sim.catalogue.tile_layout import FLOOR
from sim.combat.exact import damage_distribution
from sim.engine.state import fields as L
from sim.engine.rules.actions import Action
from sim.engine.rules.attack import _strike, _vehicle_attack
from sim.engine.rules.cpu import _cpu_target
from sim.engine.rules.death import _kill
from sim.engine.entities.special import _spawn_assist, _summon_card
from sim.engine.game import Game
from sim.engine.state.new_game import init_game
from sim.engine.state.game_state import STATIC_FIELDS, new_static, static_fields
from sim.engine.entities.timed_states import _set_state
from sim.engine.rules.turn import _begin_turn, _next_actor
from sim.engine.rules.victory import _team_alive
from sim.rng import seed_states
from tests._engine_kit import CARDS, CATALOGUE, EXAMPLE_TEAMS, setup_for
from tests.stats import chi_square_pvalue

BOARD, SEED = 1, 2
ENT = CATALOGUE.entities
TEAM0 = ["Quill Duelist", "Silent Film Duo", "Luffy", "Mario", "Sitcom Trio"]
TEAMS = EXAMPLE_TEAMS.cards.copy()
TEAMS[0] = [CATALOGUE.cards.find(n) for n in TEAM0]


def granting(*effects):
    """The setup of board ``BOARD`` with an item type per entity effect named (``summon_card``,
    ``assist``): content that can summon a 6th card or grant an assist, so the game makes their
    rows (special_setup: only then)."""
    setup = setup_for(BOARD)
    if not effects:
        return setup
    fx = np.zeros((len(effects), L.FX_SLOTS), np.int64)
    for i, name in enumerate(effects):
        fx[i, L.FX_OP] = entity_opcode(name)
    values = [fx if f == "item_fx" else v for f, v in zip(STATIC_FIELDS, static_fields(setup.static))]
    return dataclasses.replace(setup, static=new_static(*values))


def start(*effects, crowd=True):
    """Team 1's first decision; with ``crowd`` every character stands on Team 1's first spawn
    space (placed, in range 0 of everyone)."""
    game = Game(granting(*effects), CARDS, TEAMS, SEED)
    ent = game.st.ent
    if crowd:
        here = int(game.S.spawn_space[0, 0])
        for e in range(ent.shape[0]):
            if ent.kind[e] == L.K_CHARACTER:
                ent.space[e] = here
    return game


def rows(game, kind, team=None):
    ent = game.st.ent
    sel = ent.kind == kind
    if team is not None:
        sel &= ent.team == team
    return np.flatnonzero(sel)


def card_rows(game, team, name):
    ent = game.st.ent
    return np.flatnonzero((ent.team == team) & (ent.kind == L.K_CHARACTER)
                          & (ent.card == CATALOGUE.cards.find(name)))


def decide(game, c):
    """Make ``c`` the character deciding now, fresh for its turn."""
    ent = game.st.ent
    game.st.game.cur = c
    ent.acted[c] = 0
    ent.ab_used[c] = 0
    ent.speed_left[c] = ent.speed[c]
    ent.spent[c] = 0


def on_space(game, s):
    return game.action("ability_on_space", s)


def attack(game, e):
    return game.action("attack", e)


def events(game, kind):
    rows_ = game.event_rows()
    return rows_[rows_[:, 0] == kind]


def enemy_character(game):
    return int(card_rows(game, 1, "Iron Panel Brawler")[0])


# --------------------------------------------------------------------- multi-character cards

def test_a_multi_character_card_spawns_several_characters_each_with_its_own_turn():
    """"A multi-character card spawns multiple characters instead of one"; "Every one of them has
    their own action, their own health pool, their own speed to spend"."""
    game = start()
    ent = game.st.ent
    duo = card_rows(game, 0, "Silent Film Duo")
    assert len(duo) == 2 and len(set(ent.group[duo])) == 1
    a, b = (int(x) for x in duo)
    decide(game, a)
    _strike(game.st, game.S, a, enemy_character(game), 0, a)
    ent.acted[a] = 1
    ent.speed_left[a] = 0
    ent.health[a] -= 10
    assert ent.acted[b] == 0 and ent.speed_left[b] == ent.speed[b]
    assert ent.health[b] == ent.max_health[b]


def test_a_multi_character_card_is_dead_only_when_all_its_characters_are():
    """"Every character attached to the card must be Killed before the card is considered dead";
    "A team is Eliminated once all of its characters are dead"."""
    game = start()
    st, ent = game.st, game.st.ent
    duo = card_rows(game, 0, "Silent Film Duo")
    for e in np.flatnonzero((ent.team == 0) & (ent.kind == L.K_CHARACTER)):
        if e != duo[1]:
            _kill(st, game.S, int(e), -1, L.BY_ATTACK)
    assert _team_alive(st, 0) and len(events(game, L.EV_ELIMINATED)) == 0
    _kill(st, game.S, int(duo[1]), -1, L.BY_ATTACK)
    assert not _team_alive(st, 0) and events(game, L.EV_ELIMINATED)[-1][2] == 0


@pytest.mark.parametrize("col, stat, column", [(L.BUFF, L.STAT_SPEED, L.SPEED),
                                               (L.BUFF, L.STAT_DEFENSE, L.DEFENSE),
                                               (L.DEBUFF, L.STAT_RANGE, L.RANGE)])
def test_a_multi_character_cards_stat_changes_are_shared(col, stat, column):
    """"They share one stat pool ... A stat buff gained by one of them is gained by all of them"
    (a de-buff too: one pool); it ends for all of them when it runs out."""
    game = start()
    st, ent = game.st, game.st.ent
    a, b = (int(x) for x in card_rows(game, 0, "Silent Film Duo"))
    other = int(card_rows(game, 0, "Luffy")[0])
    before = ent.raw[[a, b, other], column].copy()
    _set_state(st, game.S, a, col, other, 1, stat, 1, True)
    sign = 1 if col == L.BUFF else -1
    assert np.array_equal(ent.raw[[a, b], column], before[:2] + sign)
    assert ent.raw[other, column] == before[2] and ent.raw[b, col] != 0
    _begin_turn(st, game.S, 0)  # the creator's team's next turn: the one-turn effect ends for both
    assert np.array_equal(ent.raw[[a, b, other], column], before)


# --------------------------------------------------------------------- minions

def summon_minions(game):
    """Quill Duelist (summon: count 3, health 30, attacks 1, tier 1) summons on the legal space
    farthest from it; its row."""
    q = int(card_rows(game, 0, "Quill Duelist")[0])
    decide(game, q)
    mask = game.legal_mask()
    spaces = [s for s in range(game.st.kind.shape[0]) if mask[on_space(game, s)]]
    game.apply(on_space(game, spaces[-1]))
    return q, spaces


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


# --------------------------------------------------------------------- summons (a 6th card)

def test_a_summon_brings_a_6th_card_once_per_team_per_game():
    """"A Summon is when a random 6th character card joins your team. Each team is allowed 1
    summon per game" (house: it is placed in the Spawn like the first five, by its team)."""
    game = start("summon_card")
    st, ent = game.st, game.st.ent
    c = int(card_rows(game, 0, "Luffy")[0])
    sixth = rows(game, L.K_SUMMONED, 0)
    assert len(sixth) >= 1 and np.all(ent.alive[sixth] == 0)
    assert _summon_card(st, game.S, c)
    assert np.all(ent.alive[sixth] == 1) and np.all(ent.space[sixth] == -1)
    assert not _summon_card(st, game.S, c)  # "1 summon per game"
    assert _next_actor(st, 0) == sixth[0]  # placed before anything else
    game.st.game.cur = int(sixth[0])
    assert set(np.flatnonzero(game.legal_mask()) - 1) <= set(game.S.spawn_space[0].tolist())
    assert _summon_card(st, game.S, int(card_rows(game, 1, "Ink Samurai")[0]))  # its own
    deaths = int(st.game.deaths)
    _kill(st, game.S, int(sixth[0]), -1, L.BY_ATTACK)
    assert st.game.deaths == deaths + 1  # a character of the team: it counts


def test_no_summon_rows_unless_something_can_summon():
    """Rows are made only for what can enter play (docs/entities.md): without a summon in the
    content there is no 6th card, and the hook does nothing."""
    setup = setup_for(BOARD)
    tile_fx = setup.static.tile_fx.copy()  # the shipped tiles' summon and assist rewards removed
    grants = np.isin(tile_fx[:, L.FX_OP], [L.OP_TILE_SUMMON, L.OP_TILE_ASSIST, L.OP_SUMMON_CARD,
                                           L.OP_ASSIST])
    tile_fx[grants, L.FX_OP] = 0
    values = [tile_fx if f == "tile_fx" else v
              for f, v in zip(STATIC_FIELDS, static_fields(setup.static))]
    game = Game(dataclasses.replace(setup, static=new_static(*values)), CARDS, TEAMS, SEED)
    assert len(rows(game, L.K_SUMMONED)) == 0 and len(rows(game, L.K_ASSIST)) == 0
    assert not _summon_card(game.st, game.S, 0) and not _spawn_assist(game.st, game.S, 0, 0)


def test_the_6th_card_is_drawn_uniformly_from_the_cards_not_in_play():
    """"a random 6th character card" (house ruling summon_pool = "not_in_play"). Statistical:
    600 draws (150 games x 4 teams, seeds 0..149) never hold a card in play, and a chi-square
    goodness-of-fit test against the uniform over the pool does not reject (p > 0.001).

    Power: against a card of the pool never drawn (an off-by-one in the draw) the chi-square
    has lambda = 600 / 51 = 11.8 on df 51, power 0.03; so every card of the pool must be drawn,
    which that mutant fails surely (power 1.0) and uniform draws fail with probability
    52 * (51/52)^600 = 4.5e-4. Against a held card drawn, the zero count is exact (power 1.0)."""
    setup = granting("summon_card")
    held = set(TEAMS.ravel().tolist())
    pool = [c for c in range(len(CATALOGUE.cards)) if c not in held]
    counts = np.zeros(len(CATALOGUE.cards), np.int64)
    for state in seed_states(20260, 150):
        st = init_game(setup, CARDS, TEAMS, state, log=False, ev_cap=1)
        ent = st.ent
        first = (ent.kind == L.K_SUMMONED) & (ent.group == np.arange(len(ent)) + 1)
        for c in ent.card[first]:
            counts[c] += 1
    assert counts.sum() == 600 and counts[list(held)].sum() == 0
    assert stats.chisquare(counts[pool]).pvalue > 0.001
    # a card left out of the pool (an off-by-one) moves the chi-square little (~1 % power);
    # every card drawn at least once catches it for sure, and under uniform draws misses one of
    # the 52 with probability 52 * (51/52)**600 < 0.001
    assert (counts[pool] > 0).all()


# --------------------------------------------------------------------- assist characters

def test_only_one_assist_character_at_a_time():
    """"You can only have 1 assist character at a time" — a second is refused while one lives,
    and granted once it is gone."""
    game = start("assist")
    st, ent = game.st, game.st.ent
    c = int(card_rows(game, 0, "Luffy")[0])
    assert _spawn_assist(st, game.S, c, 0)
    a = int(rows(game, L.K_ASSIST, 0)[0])
    assert ent.alive[a] == 1 and ent.space[a] == ent.space[c]
    assert ent.max_health[a] == ENT.assists[0, 0] and ent.ab_op[a] == L.OP_HEAL
    assert not _spawn_assist(st, game.S, c, 0)
    _kill(st, game.S, a, -1, L.BY_ATTACK)
    assert _spawn_assist(st, game.S, c, 0) and ent.health[a] == ent.max_health[a]


def test_an_assist_does_not_keep_its_team_in_the_game():
    """"An assist character does not keep you in the game ... holding one when your last
    character dies does not save you from elimination" (house: it leaves with its team)."""
    game = start("assist")
    st, ent = game.st, game.st.ent
    assert _spawn_assist(st, game.S, int(card_rows(game, 0, "Luffy")[0]), 0)
    a = int(rows(game, L.K_ASSIST, 0)[0])
    for e in np.flatnonzero((ent.team == 0) & (ent.kind == L.K_CHARACTER)):
        _kill(st, game.S, int(e), -1, L.BY_ATTACK)
    assert not _team_alive(st, 0) and events(game, L.EV_ELIMINATED)[-1][2] == 0
    assert ent.alive[a] == 0
    ent.alive[a] = 1  # and even were it still in play, it is not a character of the team
    assert not _team_alive(st, 0)


def test_an_assist_is_controlled_by_its_team_but_is_not_a_teammate():
    """"a temporary ally that you control but that is not considered part of your team": it
    decides in its team's turn; "A Teammate refers to a Character that is on your Team" (an
    ally-target ability such as its heal targets characters)."""
    game = start("assist")
    st, ent = game.st, game.st.ent
    assert _spawn_assist(st, game.S, int(card_rows(game, 0, "Luffy")[0]), 0)
    a = int(rows(game, L.K_ASSIST, 0)[0])
    _begin_turn(st, game.S, 0)
    ent.done[(ent.team == 0) & (ent.kind == L.K_CHARACTER)] = 1
    assert _next_actor(st, 0) == a
    st.game.cur = a
    mask = game.legal_mask()
    targets = [e for e in range(ent.shape[0]) if mask[game.action("ability", e)]]
    assert targets and all(ent.kind[e] == L.K_CHARACTER or e == a for e in targets)
    m = next(e for e in targets if e != a)  # a character in reach: were it a minion of the
    ent.kind[m] = L.K_MINION             # team, it would be no teammate to target
    assert not game.legal_mask()[game.action("ability", m)]


# --------------------------------------------------------------------- vehicles

def vehicle_row(game, name):
    """The row of vehicle ``name`` (cards/vehicles.toml) in this game."""
    k = ENT.vehicle_names.index(name)
    return int(next(r for r in rows(game, L.K_VEHICLE) if game.st.ent.slot[r] == k))


def vehicle_scene(game, name="Mystery Machine"):
    """Vehicle ``name`` and a Team 1 character (Luffy) on a space next to it, deciding."""
    st, ent = game.st, game.st.ent
    v = vehicle_row(game, name)
    vs = int(ent.space[v])
    nbr = next(int(t) for d, t in enumerate(st.move_nbr[vs])
               if t >= 0 and st.kind[t] == FLOOR and game.S.move_roll[vs, d] == 0)
    c = int(card_rows(game, 0, "Luffy")[0])
    ent.space[c] = nbr
    decide(game, c)
    return v, vs, c


def test_a_vehicle_is_spawned_once_on_its_tile():
    """"All vehicles can only be spawned 1 time" (house: when the game starts, on the middle of
    the tile vehicles.toml names); "a health pool separate from its pilot"."""
    game = start()
    ent = game.st.ent
    vs = rows(game, L.K_VEHICLE)
    assert len(vs) == len(ENT.vehicle_names) == 2  # both tiles are on this board
    for v in vs:
        k = int(ent.slot[v])
        tile = int(ENT.vehicles[k, V_TILE])
        assert game.S.pos_tile[game.st.tile_pos[ent.space[v]]] == tile
        assert ent.health[v] == ENT.vehicles[k, V_HEALTH] and ent.team[v] == L.NO_TEAM
        assert (ent.atk[v] == ENT.vehicles[k, V_ATTACKS]).all()


def test_boarding_costs_nothing():
    """"If a character is on the same space as an unoccupied vehicle, they can board that
    vehicle. Boarding costs nothing — no speed and no action" (house: arriving boards)."""
    game = start()
    ent = game.st.ent
    v, vs, c = vehicle_scene(game)
    assert game.legal_mask()[game.action("move", vs)]
    speed = int(ent.speed_left[c])
    game.apply(game.action("move", vs))
    step = speed - int(ent.speed_left[c])
    assert step == game.S.ip[L.P_MOVE_COST]  # the step onto the space, nothing more
    assert ent.riding[c] == v + 1 and ent.pilot[v] == c + 1 and ent.acted[c] == 0
    assert len(events(game, L.EV_BOARD)) == 1


def test_driving_spends_the_vehicles_speed_only():
    """"Vehicle speed is entirely separate and distinct from character speed. Spending a
    vehicle's speed does not touch the pilot's, and the pilot's speed does not extend the
    vehicle's"; "the only restriction that remains is the vehicle's own set speed"."""
    from sim.engine.rules.live_movement import _reach_from
    game = start()
    st, ent = game.st, game.st.ent
    v, vs, c = vehicle_scene(game)
    game.apply(game.action("move", vs))
    decide(game, c)
    ent.speed_left[c] = 1  # the pilot's own speed is no limit while it drives
    mask = game.legal_mask().copy()
    n_reach = _reach_from(st, game.S, vs, int(ent.speed[v]))
    reach = st.decision.reach_cost
    far = [int(s) for s in st.decision.reached[:n_reach] if reach[s] == ent.speed[v]]
    assert far and all(mask[game.action("move", s)] for s in far)
    assert not any(mask[game.action("move", s)] for s in range(st.kind.shape[0]) if reach[s] < 0)
    game.legal_mask()
    game.apply(game.action("move", far[0]))
    assert ent.speed_left[c] == 1 and ent.speed_left[v] == 0
    assert ent.space[v] == ent.space[c] == far[0] and len(events(game, L.EV_DRIVE)) == 1


def test_a_pilot_walks_off_when_its_vehicle_has_no_speed_left():
    """House ruling: a pilot whose vehicle has spent its speed may walk on with its own speed,
    leaving the vehicle where it stands (alighting costs nothing)."""
    game = start()
    st, ent = game.st, game.st.ent
    v, vs, c = vehicle_scene(game)
    game.apply(game.action("move", vs))
    decide(game, c)
    ent.speed_left[v] = 0
    mask = game.legal_mask()
    dest = next(int(t) for t in st.move_nbr[vs] if t >= 0 and mask[game.action("move", t)])
    game.apply(game.action("move", dest))
    assert ent.riding[c] == 0 and ent.pilot[v] == 0 and ent.space[v] == vs
    assert ent.speed_left[c] == ent.speed[c] - game.S.ip[L.P_MOVE_COST]


@pytest.mark.parametrize("frozen", [False, True])
def test_a_vehicle_mirrors_its_pilots_teleport_unless_frozen(frozen):
    """"When a vehicle moves, its movement rules mirror those of the character occupying it —
    crossing water, teleporting, entering portals"; but "A frozen entity cannot use any of its
    speed" (house ruling "A frozen vehicle stays"): the pilot goes on alone and the vehicle is
    left unoccupied where it is."""
    game = start()
    st, ent = game.st, game.st.ent
    v, vs, c = vehicle_scene(game)
    game.apply(game.action("move", vs))
    code = CATALOGUE.abilities.code("mobility")
    ent.ab[c] = CATALOGUE.abilities.row(code, [4, 0, 0, 1])
    if frozen:
        _set_state(st, game.S, v, L.FROZEN, -1, 2, 0, 0, True)
    decide(game, c)
    mask = game.legal_mask()
    dest = max(s for s in range(st.kind.shape[0]) if mask[on_space(game, s)])
    game.apply(on_space(game, dest))
    assert ent.space[c] == dest
    if frozen:
        assert ent.space[v] == vs and ent.riding[c] == 0 and ent.pilot[v] == 0
        assert len(events(game, L.EV_ALIGHT)) == 1
    else:
        assert ent.space[v] == dest and ent.riding[c] == v + 1


def test_the_attacker_chooses_the_vehicle_or_the_character_inside():
    """"the attacker chooses what they are attacking: either the vehicle itself, or the character
    inside it"; "Only the chosen target suffers the attack"; a teammate does not attack its own
    team's vehicle (not an opponent)."""
    game = start()
    st, ent = game.st, game.st.ent
    v, vs, c = vehicle_scene(game)
    game.apply(game.action("move", vs))
    d = enemy_character(game)
    mate = int(card_rows(game, 0, "Mario")[0])
    ent.space[d] = ent.space[mate] = vs
    decide(game, d)
    mask = game.legal_mask()
    assert mask[attack(game, v)] and mask[attack(game, c)]
    hv, hc = int(ent.health[v]), int(ent.health[c])
    ent.atk[d] = 10
    _strike(st, game.S, d, v, 0, d)
    assert ent.health[v] < hv and ent.health[c] == hc
    hv = int(ent.health[v])
    _strike(st, game.S, d, c, 0, d)
    assert ent.health[c] < hc and ent.health[v] == hv
    decide(game, mate)
    assert not game.legal_mask()[attack(game, v)]


def test_a_vehicle_has_its_speed_again_each_turn_of_its_pilots_team():
    """"A vehicle can use all of its speed ... each turn"."""
    game = start()
    st, ent = game.st, game.st.ent
    v, vs, c = vehicle_scene(game)
    game.apply(game.action("move", vs))
    ent.speed_left[v] = 0
    _begin_turn(st, game.S, 1)
    assert ent.speed_left[v] == 0  # another team's turn
    _begin_turn(st, game.S, 0)
    assert ent.speed_left[v] == ent.speed[v]


def test_a_destroyed_vehicle_is_never_respawned_and_its_pilot_is_on_foot():
    """"once destroyed, cannot be respawned"; the pilot's health pool is separate; a pilot that
    dies leaves its vehicle unoccupied."""
    game = start()
    st, ent = game.st, game.st.ent
    v, vs, c = vehicle_scene(game)
    game.apply(game.action("move", vs))
    _kill(st, game.S, v, -1, L.BY_ATTACK)
    assert ent.alive[c] == 1 and ent.riding[c] == 0 and ent.space[c] == vs
    game2 = start()
    v2, vs2, c2 = vehicle_scene(game2)
    game2.apply(game2.action("move", vs2))
    _kill(game2.st, game2.S, c2, -1, L.BY_ATTACK)
    assert game2.st.ent.pilot[v2] == 0 and game2.st.ent.alive[v2] == 1


def test_only_characters_board():
    """"If a character is on the same space as an unoccupied vehicle" — a minion is not one."""
    from sim.engine.entities.special import _arrive
    game = start()
    st, ent = game.st, game.st.ent
    q, _ = summon_minions(game)
    minion = int(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))[0])
    v = int(rows(game, L.K_VEHICLE)[0])
    ent.space[minion] = ent.space[v]
    _arrive(st, minion)
    assert ent.pilot[v] == 0 and ent.riding[minion] == 0


# --------------------------------------------------------------------- a vehicle's action

def weapon(game, e):
    return game.action("vehicle_weapon", e)


def armed_pilot(game):
    """Luffy boards the armed vehicle (the Batmobile) and decides, fresh for its turn; an enemy
    character stands on the same space (range 0 from both)."""
    st, ent = game.st, game.st.ent
    v = vehicle_row(game, "Batmobile")
    c = int(card_rows(game, 0, "Luffy")[0])
    ent.space[c] = ent.space[v]
    from sim.engine.entities.special import _arrive
    _arrive(st, c)
    assert ent.riding[c] == v + 1
    decide(game, c)
    d = enemy_character(game)
    ent.space[d] = ent.space[v]
    return v, c, d


def test_a_pilot_attacks_through_its_vehicle_spending_both_actions():
    """"A vehicle can use all of its speed, and can have 1 action used through it, each turn.
    Using that action spends both the pilot's action and the vehicle's action for the turn"
    (house ruling: the action is the vehicle's weapon, vehicles.toml attacks / tier / range; the
    pilot is the attacker, credited with what it deals)."""
    game = start()
    st, ent = game.st, game.st.ent
    v, c, d = armed_pilot(game)
    k = int(ent.slot[v])
    assert game.legal_mask()[weapon(game, d)]
    h0, dealt0 = int(ent.health[d]), int(ent.dealt[c])
    n_ev = len(game.event_rows())
    game.apply(weapon(game, d))
    new = game.named_events(since=n_ev)
    assert new[0]["event"] == "vehicle action"
    assert (new[0]["pilot"], new[0]["vehicle"], new[0]["target"]) == (c, v, d)
    hit = next(ev for ev in new if ev["event"] == "attack")
    assert hit["attacker"] == c and hit["defender"] == d
    assert hit["attacks"] == ENT.vehicles[k, V_ATTACKS] and hit["tier"] == ENT.vehicles[k, V_TIER]
    dealt = h0 - int(ent.health[d])
    assert int(ent.dealt[c]) - dealt0 == dealt and ent.dealt[v] == 0
    assert ent.acted[c] == 1 and ent.acted[v] == 1


@pytest.mark.parametrize("spent", ["pilot", "vehicle", "frozen", "unarmed", "walked"])
def test_no_action_through_a_vehicle_that_cannot_act(spent):
    """The vehicle's action needs both actions unspent ("spends both the pilot's action and the
    vehicle's action"), a vehicle that is not frozen ("anything frozen can do nothing at all"),
    a weapon (the Mystery Machine has none) and a pilot inside it."""
    game = start()
    st, ent = game.st, game.st.ent
    v, c, d = armed_pilot(game)
    if spent == "pilot":
        ent.acted[c] = 1
    elif spent == "vehicle":
        ent.acted[v] = 1
    elif spent == "frozen":
        _set_state(st, game.S, v, L.FROZEN, -1, 2, 0, 0, True)
    elif spent == "unarmed":
        ent.atk[v] = 0
    else:
        from sim.engine.entities.special import _alight
        _alight(st, c)
    mask = game.legal_mask()
    base = weapon(game, 0)
    assert not mask[base:base + ent.shape[0]].any()


def test_a_vehicles_weapon_reaches_what_its_range_and_sight_allow():
    """"To initiate an attack, the defender must be within both the range and the line of
    sight of the attacker": the weapon's targets are the opponents within the vehicle's range
    (vehicles.toml) by the board's reference sight costs, from the space it stands on."""
    game = start(crowd=False)
    st, ent = game.st, game.st.ent
    v, c, d = armed_pilot(game)
    graph = compile_board(game.setup.board, CATALOGUE.tiles, CATALOGUE.board_rules)
    vs = int(ent.space[v])
    reach = int(ent.range[v])
    costs = ref_attack_costs(graph, vs, reach + 6)
    inside = [s for s in range(st.kind.shape[0]) if st.kind[s] == FLOOR and 0 <= costs[s] <= reach]
    beyond = [s for s in range(st.kind.shape[0]) if st.kind[s] == FLOOR and costs[s] > reach]
    foes = [int(e) for e in range(ent.shape[0])
            if ent.kind[e] == L.K_CHARACTER and ent.team[e] == 1]
    for i, e in enumerate(foes):  # in range and beyond it, by turns
        spaces = inside if i % 2 == 0 else beyond
        ent.space[e] = spaces[(7 * i) % len(spaces)]
    mask = game.legal_mask()
    legal = {e for e in range(ent.shape[0]) if mask[weapon(game, e)]}
    opponents = [e for e in range(ent.shape[0])  # not its own team, nor a vehicle it rides
                 if ent.alive[e] and ent.space[e] >= 0 and ent.team[e] != 0
                 and not (ent.pilot[e] > 0 and ent.team[ent.pilot[e] - 1] == 0)]
    expected = {e for e in opponents if 0 <= costs[ent.space[e]] <= reach}
    assert legal == expected and set(foes) & expected and set(foes) - expected
    assert reach == ENT.vehicles[ENT.vehicle_names.index("Batmobile"), V_RANGE]


def test_a_cpu_attacked_through_a_vehicle_retaliates_at_the_pilot():
    """"If it survives an attack made against it, it immediately attacks back at the character
    who attacked it" (house ruling: the pilot, not its vehicle)."""
    game = start()
    st, ent = game.st, game.st.ent
    v, c, d = armed_pilot(game)
    cpu = int(np.flatnonzero((ent.is_cpu != 0) & (ent.atk[:, 0] > 0))[0])
    ent.space[cpu] = ent.space[v]
    ent.health[cpu] = ent.max_health[cpu] = 10**6  # it survives
    ent.health[c] = ent.max_health[c] = 10**6
    n_ev = len(game.event_rows())
    _vehicle_attack(st, game.S, c, cpu)
    back = game.named_events("retaliation", since=n_ev)
    assert len(back) == 1 and back[0]["attacker"] == cpu and back[0]["defender"] == c


def test_a_vehicles_weapon_deals_the_exact_damage_distribution():
    """The weapon's attack is an attack like any other ("If the roll is more than your defense
    stat plus 2, that attack is considered a Hit"; "You roll the Damage Dice as many times as
    your Attack Hit"), with the vehicle's attacks and tier: 4,000 attacks through the Batmobile
    against the exact distribution (Pearson chi-square, seed fixed by the game, p > 0.001).

    Power against the threshold off by one (any defense 0-9 of the target): lambda >= 273 on
    df <= 43 (noncentral chi-square on the pooled bins), power 1.0; against the pilot's star
    thrown instead (Luffy's 8 attacks): lambda >= 65,886, power 1.0."""
    game = start()
    st, ent = game.st, game.st.ent
    v, c, d = armed_pilot(game)
    st.game.log = 0
    out = np.empty(4000, np.int64)
    for i in range(out.size):
        ent.health[d] = ent.max_health[d] = 10**9
        ent.acted[c] = ent.acted[v] = 0
        _vehicle_attack(st, game.S, c, d)
        out[i] = 10**9 - int(ent.health[d])
    k = int(ent.slot[v])
    exact = damage_distribution(int(ENT.vehicles[k, V_ATTACKS]), int(ent.defense[d]),
                                int(ENT.vehicles[k, V_TIER]), CATALOGUE.rules)
    assert chi_square_pvalue(out, exact.pmf) > 1e-3


def test_greedy_fires_the_vehicles_weapon_when_it_is_worth_most():
    """greedy (docs/ai.md) scores an attack through the vehicle like its own attacks, with the
    vehicle's dice: with the pilot's own attack out of reach, it fires the weapon."""
    game = start()
    st, ent = game.st, game.st.ent
    v, c, d = armed_pilot(game)
    ent.atk[c] = 0  # the pilot's own attack is worth nothing, its ability spent
    ent.ab_used[c] = 1
    mask = game.legal_mask()
    chosen = int(_greedy_action(st, game.S, mask))
    fire = game.block("vehicle_weapon")
    assert fire.start <= chosen < fire.stop  # at whichever enemy in the weapon's range is worth most
    target = chosen - fire.start
    assert mask[weapon(game, d)] and ent.team[target] != ent.team[c] and ent.alive[target]


@pytest.mark.parametrize("armed", [True, False])
def test_greedy_walks_onto_a_vehicle_with_a_weapon(armed):
    """greedy adds to the position score of an unoccupied vehicle's space one attack of its
    weapon ("can have 1 action used through it, each turn"; arriving boards: "Boarding costs
    nothing"): within reach of the Batmobile it walks there and boards; with the weapon taken
    away (the Mystery Machine's case) the same position does not draw it."""
    game = start(crowd=False)
    st, ent = game.st, game.st.ent
    v, vs, c = vehicle_scene(game, "Batmobile")
    ent.acted[c] = 1  # nothing to attack with: the move decides
    if not armed:
        ent.atk[v] = 0
    mask = game.legal_mask()
    assert mask[game.action("move", vs)]
    assert (int(_greedy_action(st, game.S, mask)) == game.action("move", vs)) == armed


# --------------------------------------------------------------------- greedy and the log

def test_greedy_summons_toward_the_nearest_enemy_when_no_attack_is_worth_more():
    """docs/entities.md: greedy values a summon as the minions' health plus one attack each
    (sim/ai/entity_values.py) and makes it on the legal space nearest an enemy."""
    game = start(crowd=False)
    st, ent = game.st, game.st.ent
    for t in range(4):
        for e in np.flatnonzero((ent.team == t) & (ent.kind == L.K_CHARACTER)):
            ent.space[e] = game.S.spawn_space[t, 1]
    q = int(card_rows(game, 0, "Quill Duelist")[0])
    decide(game, q)
    # one enemy a few steps beyond the summoner's range, so the legal spaces are not all
    # equally far from the nearest enemy (else any of them would pass)
    here, reach = int(ent.space[q]), int(ent.range[q])
    near = next(x for x in range(st.kind.shape[0]) if st.kind[x] == FLOOR and st.tile_pos[x] >= 0
                and max(abs(x // 35 - here // 35), abs(x % 35 - here % 35)) == reach + 3)
    ent.space[int(np.flatnonzero((ent.team == 1) & (ent.kind == L.K_CHARACTER))[0])] = near
    mask = game.legal_mask()
    a = int(_greedy_action(st, game.S, mask))
    s = a - on_space(game, 0)
    legal = [x for x in range(st.kind.shape[0]) if mask[on_space(game, x)]]
    assert s in legal
    foes = [int(ent.space[e]) for e in range(ent.shape[0])
            if ent.kind[e] == L.K_CHARACTER and ent.team[e] != 0]

    def dist(x):
        return min(max(abs(x // 35 - f // 35), abs(x % 35 - f % 35)) for f in foes)
    assert len({dist(x) for x in legal}) > 1
    assert dist(s) == min(dist(x) for x in legal)


def test_the_log_names_special_entities():
    """The game log reads well: spawns, vanishing, boarding name minions and vehicles."""
    game = start()
    summon_minions(game)
    evs = game.events(CATALOGUE.cards.names, game.setup.cpu_names, ENT)
    spawn = [e for e in evs if e["event"] == "spawn"]
    assert len(spawn) == 3 and "Quill Duelist minion (T1)" in spawn[0]["text"]
    labels = game.labels(CATALOGUE.cards.names, game.setup.cpu_names, ENT)
    assert "Mystery Machine (vehicle)" in labels


def test_minions_use_their_creators_items_pick_up_into_its_pool_and_never_drop():
    """"Unless specified otherwise: minions cannot drop or trade items; minions can make use of any
    and all items held by their creator; and when a minion picks up an item, that item is added to
    the creator's item pool"; a minion's death drops nothing of its creator's."""
    from sim.engine.items.holding import _end_turn_items, _grant_item, _pool, _put_on_floor
    game = start()
    st, ent, S = game.st, game.st.ent, game.S
    q, _ = summon_minions(game)
    minion = int(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))[0])
    pool = _pool(ent, q)
    assert _pool(ent, minion) == pool
    names = CATALOGUE.items.names
    assert _grant_item(st, S, q, names.index("Health Potion"))
    _end_turn_items(st, S, q)  # "A character must End their Turn with an Item in order to use it"
    _put_on_floor(st, names.index("Antidote"), int(ent.space[minion]))
    decide(game, minion)
    ent.health[minion] = 1
    legal = {game.decode(a) for a in np.flatnonzero(game.legal_mask())}
    assert Action("item_on_entity", minion, 0) in legal  # uses its creator's potion on itself
    assert Action("pick_up", 0) in legal                  # may pick up the antidote
    assert not any(a.kind == "drop" for a in legal)       # never drops
    game.apply(game.action("pick_up", 0))
    held = sorted(names[i - 1] for i in ent.item_slot[pool] if i > 0)
    assert held == ["Antidote", "Health Potion"]
    _kill(st, S, minion, -1, L.BY_ATTACK)
    assert sorted(names[i - 1] for i in ent.item_slot[pool] if i > 0) == held
