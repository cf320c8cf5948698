"""Rule paragraphs of the rulebook that had no focused test (docs/rules-coverage.md): one engine
scenario each, set up with the other engine tests' helpers, played through the engine's own
kernels or its interface (the legal mask and ``apply``), and asserted on the outcome. Each test
quotes the book sentence it checks."""

from __future__ import annotations

import numpy as np
import pytest

from sim.catalogue.loader import load_catalogue
from sim.combat.star import GREEN
from sim.engine.effects.item_effects import _blast
from sim.engine.rules.apocalypse import _destroy
from sim.engine.rules.attack import _attack_star
from sim.engine.rules.death import _harm
from sim.engine.rules.live_movement import _homefield, _linked_tile
from sim.engine.state import fields as L
from sim.engine.tiles.functions import _state_targets
from sim.engine.tiles.live_board import _tile_at
from sim.engine.tiles.swap_in_play import _transform, _transform_choice
from tests import test_engine_effects as fx
from tests import _entities_kit as ents
from tests import _tiles_kit as tiles
from tests._validation_kit import SHIPPED, expect, set_cell
from tests.test_engine_portals import _floor_off_portal, _portal_game, _two_opponents

SPAN = 35  # spaces per row of the 7×7 grid of 5×5 blocks


def _middle(p: int) -> int:
    return ((p // 7) * 5 + 2) * SPAN + (p % 7) * 5 + 2


# ---------------------------------------------------------------------------- portals, tiles

def test_a_portal_that_disappears_leaves_its_stander_on_its_literal_space():
    """R4:S5: "If a portal disappears while an entity is standing on it, that entity remains on
    the literal physical space its piece occupies. The link is severed, and the far space stops
    applying to it." The far component's coordinate is destroyed (apocalypse._destroy →
    live_movement._void_position): whoever stands in the far tile is removed, the character on
    the near component stays where it is, alive, and no longer draws the far tile's Homefield
    nor links the two tiles."""
    game, s, far = _portal_game()
    st, S = game.st, game.S
    p, q = int(st.tile_pos[s]), int(st.tile_pos[far])
    c, foe = _two_opponents(st)
    st.ent.space[c] = s
    st.ent.space[foe] = _floor_off_portal(st, q)
    st.ent.suit[c] = int(st.tiles.suit[q])  # its Homefield comes from the far tile only
    if st.ent.suit[c] < 0 or st.tiles.suit[p] == st.tiles.suit[q]:
        pytest.skip("the linked tiles share a suit (or the far one has none)")
    assert _homefield(st, S, c) and _linked_tile(st, p) == q and st.twin[s] == far
    _destroy(st, S, q)
    assert st.ent.alive[foe] == 0  # "Anything in a tile that is destroyed is removed"
    assert st.ent.alive[c] != 0 and st.ent.space[c] == s and st.tile_pos[s] == p
    assert st.twin[s] == -1 and st.twin[far] == -1  # "The link is severed"
    assert not _homefield(st, S, c)  # "the far space stops applying to it"
    assert _linked_tile(st, p) == -1


def test_an_uncovered_tile_is_caught_by_tile_wide_damage_and_can_be_transformed():
    """R1:S2:A2 Uncovered Tiles: "They are still treated as tiles where it matters in play ...
    one can be caught by tile-wide damage and transformed into a new tile." A blast on a spawn
    space (an Uncovered Tile) hits everyone in it; the position is offered to a transform
    (functions._control_targets, mode 1) and becomes the tile brought in."""
    from sim.engine.tiles.functions import _control_targets
    game, c = tiles.game_on()
    st, S, ent = game.st, game.S, game.st.ent
    here = int(ent.space[c])
    p = int(st.tile_pos[here])
    assert _tile_at(st, S, p) == tiles.TILES.uncovered
    standing = np.flatnonzero((ent.space == here) & (ent.alive != 0))
    assert len(standing) > 1
    for e in standing:
        ent.shield[e] = 0
    before = ent.health[standing].copy()
    _blast(st, S, c, here, 5, L.BY_TILE_DAMAGE)
    assert np.array_equal(ent.health[standing], before - 5)
    # a transform into it: board 4 holds every catalogue tile, so one is taken out of play first
    _transform(st, S, tiles.where("Hyperbolic Time Chamber"), tiles.TILES.uncovered, c)
    mask = np.zeros(st.kind.shape[0], np.bool_)
    assert _control_targets(st, S, c, p, 1, 1, 0, 0, mask) > 0 and mask[_middle(p)]
    new = int(_transform_choice(st, S, c, False))
    assert new == tiles.TILES.find("Hyperbolic Time Chamber")
    _transform(st, S, p, new, c)
    assert _tile_at(st, S, p) == new


def test_a_transformed_tile_is_suspended_until_it_re_enters_the_board():
    """R4:S2: "A Tile that is Transformed will have its functionality suspended unless it
    re-enters the board." The Hyperbolic Time Chamber (+1 speed for 3 turns ended in it) is
    transformed away: turns ended at its old position earn it nothing, and it is out of play
    (the one tile a transform may bring: ``_transform_choice``). Transformed back onto another
    position, it works there again."""
    game, c = tiles.game_on()
    st, S, ent = game.st, game.S, game.st.ent
    htc = tiles.TILES.find("Hyperbolic Time Chamber")
    p, q = tiles.where("Hyperbolic Time Chamber"), tiles.where("Manga Cafe")
    assert _transform_choice(st, S, c, False) == -1  # board 4: every tile in play
    _transform(st, S, p, tiles.TILES.uncovered, c)
    speed = int(ent.speed[c])
    ent.space[c] = tiles.floor_of(game, p)
    for _ in range(4):
        tiles.end_turn_of(game, c)
    assert ent.speed[c] == speed and ent.ticks[c] == 0  # suspended
    assert _transform_choice(st, S, c, False) == htc  # out of play, free to re-enter
    _transform(st, S, q, htc, c)
    ent.space[c] = tiles.floor_of(game, q)
    for _ in range(3):
        tiles.end_turn_of(game, c)
    assert ent.speed[c] == speed + 1  # back on the board, it functions again


def test_a_tile_radius_is_a_square_area_of_tiles():
    """R4:S2: "Tile Radius refers to an Area of Square Tiles on the Board, in either a 3×3 or 5×5
    area": the tiles a tile-state effect of radius 1 (2) may aim at from a position are exactly
    those of the 3×3 (5×5) square around it, corners included (functions._tiles_apart, a king's
    distance, read by _state_targets)."""
    game, _ = tiles.game_on()
    st, S = game.st, game.S
    p = 3 * 7 + 3
    for radius, side in ((1, 3), (2, 5)):
        mask = np.zeros(st.kind.shape[0], np.bool_)
        _state_targets(st, S, p, radius, 0, mask)
        got = {q for q in range(49) if mask[_middle(q)]}
        want = {q for q in range(49) if max(abs(q // 7 - 3), abs(q % 7 - 3)) <= radius
                and _tile_at(st, S, q) >= 0}
        assert got == want
        assert len({q for q in range(49) if max(abs(q // 7 - 3), abs(q % 7 - 3)) <= radius}) \
            == side * side


# ---------------------------------------------------------------------------- attacks, actions

def test_one_character_attacks_one_target_per_action():
    """R3: "One character cannot naturally choose to attack multiple targets." With two
    opponents in reach, the attack on one is one throw at that one only, and afterwards no
    attack on the other is offered."""
    game, c = fx.scenario("strike", charges=0)
    st, ent = game.st, game.st.ent
    foes = [int(e) for e in np.flatnonzero((ent.team == 1) & (ent.kind == L.K_CHARACTER))[:2]]
    for d in foes:
        ent.space[d] = ent.space[c]
        ent.health[d] = ent.max_health[d] = 10**9
    assert all(game.legal_mask()[game.action("attack", d)] for d in foes)
    game.apply(game.action("attack", foes[0]))
    attacks = game.named_events("attack")
    assert [(ev["attacker"], ev["defender"]) for ev in attacks] == [(c, foes[0])]
    assert ent.health[foes[1]] == 10**9
    st.game.cur = c
    assert not game.legal_mask()[game.action("attack", foes[1])]


def test_an_action_is_never_traded_or_lent_between_teammates():
    """R4: "Each character only naturally receives 1 action each turn, and actions cannot
    naturally be traded or lent from one of your characters to another." A character whose
    teammate has not acted still has only its own action: after it attacks it is offered no
    second attack, and the teammate keeps exactly its one."""
    game, c = fx.scenario("strike", charges=0)
    st, ent = game.st, game.st.ent
    mate = fx.ally_of(game, c)
    d = fx.enemy_of(game, c)
    ent.space[d] = ent.space[c] = ent.space[mate]
    ent.health[d] = ent.max_health[d] = 10**9
    game.apply(game.action("attack", d))
    st.game.cur = c
    assert ent.acted[c] == 1 and ent.acted[mate] == 0
    assert not game.legal_mask()[game.action("attack", d)]
    st.game.cur = mate
    assert game.legal_mask()[game.action("attack", d)]
    game.apply(game.action("attack", d))
    st.game.cur = mate
    assert ent.acted[mate] == 1 and not game.legal_mask()[game.action("attack", d)]
    assert len(game.named_events("attack")) == 2


def test_once_an_attack_has_started_every_die_is_thrown():
    """R3: "Once an attack has started, there is no going back." An attack is one decision: all
    its dice are thrown (the roll event counts the star point's attacks), the action is spent
    even when nothing hits, and nothing undoes it."""
    game, c = fx.scenario("strike", charges=0)
    st, ent = game.st, game.st.ent
    d = fx.enemy_of(game, c)
    ent.space[d] = ent.space[c]
    ent.defense[d] = 9  # only a 12 hits: most throws miss
    ent.health[d] = ent.max_health[d] = 10**9
    n = int(ent.atk[c, int(_attack_star(st, game.S, c, d))])
    game.apply(game.action("attack", d))
    (roll,) = game.named_events("roll")
    assert roll["attacker"] == c and roll["attacks"] == n
    st.game.cur = c
    assert ent.acted[c] == 1 and not game.legal_mask()[game.action("attack", d)]


def test_an_opponent_is_any_attackable_entity_not_on_your_team():
    """R3:S5: "An Opponent is any attackable entity that is not on your team — enemies, assist
    characters, minions, and CPUs alike." The same row is offered as an attack target as an enemy
    character, an enemy minion, an enemy assist and a CPU, and not once it is of the attacker's
    team."""
    game, c = fx.scenario("strike", charges=0)
    st, ent = game.st, game.st.ent
    e = fx.enemy_of(game, c)
    ent.space[e] = ent.space[c]
    for kind, team in ((L.K_CHARACTER, 1), (L.K_MINION, 1), (L.K_ASSIST, 1),
                       (L.K_CPU, L.NO_TEAM)):
        ent.kind[e], ent.team[e] = kind, team
        ent.is_cpu[e] = int(team == L.NO_TEAM)
        st.game.cur = c
        assert game.legal_mask()[game.action("attack", e)], (kind, team)
    ent.kind[e], ent.team[e], ent.is_cpu[e] = L.K_MINION, ent.team[c], 0
    st.game.cur = c
    assert not game.legal_mask()[game.action("attack", e)]


def test_a_cpu_can_be_attacked_and_defends_with_its_own_defense():
    """R3:S5: "Unless specified otherwise, a CPU can be attacked, may have a defense stat, and can
    be harmed as though it were a normal character. Not every CPU has an attack listed." An attack
    on a CPU throws against its defense (the logged threshold is its defense + 2) and harms it."""
    game, c = fx.scenario("strike", charges=0)
    ent = game.st.ent
    cpu = int(np.flatnonzero(ent.is_cpu != 0)[0])
    ent.space[cpu] = ent.space[c]
    ent.defense[cpu] = 3
    ent.atk[cpu, :] = 0  # no attack listed: it takes the hit and never strikes back
    ent.atk[c, :] = 40
    ent.health[cpu] = ent.max_health[cpu] = 10**6
    game.apply(game.action("attack", cpu))
    (attack,) = game.named_events("attack")
    assert attack["defender"] == cpu and attack["threshold"] == 5
    assert ent.health[cpu] < 10**6 and not game.named_events("retaliation")


# ---------------------------------------------------------------------------- stats and health

def test_each_character_of_a_multi_character_card_spends_its_own_action_speed_and_health():
    """R3:S4: "Each character on the card draws from the same stats, but spends them separately.
    Every one of them has their own action, their own health pool, their own speed to spend".
    One of the Silent Film Duo moves and attacks through the engine and is harmed: its partner's
    speed left, action and health are untouched, and it may still move and attack."""
    game = ents.start()
    st, ent = game.st, game.st.ent
    a, b = (int(x) for x in ents.card_rows(game, 0, "Silent Film Duo"))
    assert ent.speed[a] == ent.speed[b] and ent.max_health[a] == ent.max_health[b]
    d = ents.enemy_character(game)
    ent.health[d] = ent.max_health[d] = 10**9
    ents.decide(game, a)
    ents.decide(game, b)
    st.game.cur = a
    mask = game.legal_mask()
    reach = st.decision.reach_cost
    move = next(m for m in range(1, st.kind.shape[0] + 1) if mask[m] and reach[m - 1] > 0)
    game.apply(move)
    st.game.cur = a
    ent.space[d] = ent.space[a]
    game.apply(ents.attack(game, d))
    _harm(st, game.S, a, 10, -1, L.BY_ATTACK)
    assert ent.spent[a] > 0 and ent.acted[a] == 1
    assert ent.spent[b] == 0 and ent.speed_left[b] == ent.speed[b] and ent.acted[b] == 0
    assert ent.health[a] < ent.max_health[a] and ent.health[b] == ent.max_health[b]
    st.game.cur = b
    ent.space[b] = ent.space[d]
    mask = game.legal_mask()
    assert mask[ents.attack(game, d)] and mask[1:st.kind.shape[0] + 1].any()


def test_health_is_not_a_stat():
    """R3:S1: "Health is not considered a stat." A heal is no buff (no positive effect: the star
    stays off green) and, on a multi-character card whose characters "share one stat pool", a heal
    or a wound of one is not shared with its partner (a stat buff is: see
    tests/test_engine_entity_characters.py::test_a_multi_character_cards_stat_changes_are_shared)."""
    game = ents.start()
    st, S, ent = game.st, game.S, game.st.ent
    a, b = (int(x) for x in ents.card_rows(game, 0, "Silent Film Duo"))
    ents.decide(game, a)
    tiles.give_ability(game, a, "heal", amount=30, range=0)
    ent.health[[a, b]] -= 40
    hb = int(ent.health[b])
    d = ents.enemy_character(game)
    game.apply(game.action("ability", a))
    assert ent.health[a] == ent.max_health[a] - 10 and ent.health[b] == hb
    assert ent.buff[a] == 0 and ent.buff[b] == 0
    assert _attack_star(st, S, a, d) != GREEN


def test_stats_are_changed_by_items_abilities_and_tiles():
    """R3:S1: "Stats are not fixed. Speed, and every other stat, can be changed by items,
    abilities, and tiles ... Stat increases given by a tile are permanent". An ability's buff
    raises speed for its duration, then it reverts; a tile reward's +1 speed stays."""
    game, c = tiles.game_on()
    st, ent = game.st, game.st.ent
    speed = int(ent.speed[c])
    tiles.give_ability(game, c, "buff", stat=0, amount=2, duration=1, range=0)
    game.apply(game.action("ability", c))
    assert ent.speed[c] == speed + 2
    from sim.engine.rules.turn import _begin_turn
    _begin_turn(st, game.S, 0)
    assert ent.speed[c] == speed  # the ability's change was temporary
    ent.space[c] = tiles.floor_of(game, tiles.where("Hyperbolic Time Chamber"))
    for _ in range(3):
        tiles.end_turn_of(game, c)
    for _ in range(3):
        _begin_turn(st, game.S, 0)
    assert ent.speed[c] == speed + 1  # the tile's is permanent


# ---------------------------------------------------------------------------- cards (data)

@pytest.fixture
def cards(tmp_path):
    import shutil
    return shutil.copytree(SHIPPED, tmp_path / "cards")


def test_every_card_has_an_ability_whatever_its_rarity(capsys, cards):
    """R2: "Rarity communicates statistical power and nothing else. It has no bearing on whether a
    card has an Ability — every card in the game has one, at every rarity"; "There is no card
    without one". Every shipped card names an ability, cards of every rarity hold several ability
    types, and a card with a blank ability cell is refused (sim/catalogue/cards.py)."""
    cat = load_catalogue(SHIPPED)
    assert np.all(cat.cards.ability >= 0)
    for r in range(len(cat.rules.rarities)):
        assert len(set(cat.cards.ability[cat.cards.rarity == r].tolist())) >= 2, r
    set_cell(cards, 2, "ability", "")
    expect(capsys, cards, ("characters.csv", 2, "ability", "empty"))


def test_there_are_six_card_rarities_from_least_to_most_powerful():
    """R2: "There are 6 Card Rarities"; "Schedule D lists them from left to right in order from
    least to most powerful: Bronze, Silver, Gold, Diamond, Legendary, and GOAT Series." The
    shipped rules name exactly those six, in that order (the index order is the power order the
    bands of sim/catalogue/power.py rise along)."""
    rules = load_catalogue(SHIPPED).rules
    assert list(rules.rarities) == ["Bronze", "Silver", "Gold", "Diamond", "Legendary",
                                    "GOAT Series"]


@pytest.mark.parametrize("column,value", [("range", "-1"), ("max_health", "0"),
                                          ("speed", "31")])
def test_a_cards_range_max_health_and_speed_are_checked(capsys, cards, column, value):
    """R3:S1 card stats: "Each character has a unique Speed stat", a Range and a "Max Health is
    the maximum amount of health a character can have". A negative range, a max health of 0 (a
    character that could never stand) and a speed beyond the house limit of 30 are refused on
    their own line and field."""
    set_cell(cards, 4, column, value)
    expect(capsys, cards, ("characters.csv", 4, column, f"{value} out of range"))


def test_health_reaching_exactly_zero_kills_and_removes_from_the_game():
    """R3: "Both Defeat and Kill refer to the Instance when one causes Entities Health Points to
    Reach 0. This Act causes them to Die and Removes them from the Game." Damage one short of an
    enemy's health leaves it standing; the last point kills it: no health, not alive, one death
    counted, and it is no longer offered as an attack target."""
    game = ents.start()
    st, S, ent = game.st, game.S, game.st.ent
    c = int(np.flatnonzero((ent.team == 0) & (ent.kind == L.K_CHARACTER))[0])
    d = ents.enemy_character(game)
    ents.decide(game, c)
    assert game.legal_mask()[ents.attack(game, d)]
    deaths = int(st.game.deaths)
    _harm(st, S, d, int(ent.health[d]) - 1, -1, L.BY_ATTACK)
    assert ent.alive[d] != 0 and ent.health[d] == 1 and int(st.game.deaths) == deaths
    _harm(st, S, d, 1, -1, L.BY_ATTACK)
    assert ent.alive[d] == 0 and ent.health[d] == 0 and int(st.game.deaths) == deaths + 1
    ents.decide(game, c)
    assert not game.legal_mask()[ents.attack(game, d)]
