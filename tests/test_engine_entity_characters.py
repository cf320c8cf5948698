"""Special entities that are characters, one table-driven scenario per rule: multi-character
cards, the summoned 6th card and assist characters. A small position is set up (a team with a
summoner and a multi-character card; everybody else crowded on one spawn space so range and
sight are no question unless the rule is about them), the rule's action is played through the
engine interface or its hook, and the outcome the book asks for is asserted. Each test quotes
its rule (docs/entities.md, docs/rules-coverage.md)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy import stats

from sim.engine.state import fields as L
from sim.engine.rules.attack import _strike
from sim.engine.rules.death import _kill
from sim.engine.entities.special import _spawn_assist, _summon_card
from sim.engine.game import Game
from sim.engine.state.new_game import init_game
from sim.engine.state.game_state import STATIC_FIELDS, new_static, static_fields
from sim.engine.entities.timed_states import _set_state
from sim.engine.rules.turn import _begin_turn, _next_actor
from sim.engine.rules.victory import _team_alive
from sim.rng import seed_states
from tests._engine_kit import CARDS, CATALOGUE, events, setup_for
from tests._entities_kit import (BOARD, ENT, SEED, TEAMS, card_rows, decide, enemy_character,
                                 granting, rows, start)


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
