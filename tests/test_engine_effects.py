"""Abilities and states, one table-driven scenario per rule: a small position is set up (the
first character of Team 1 and everybody else on one spawn space: range 0, in sight, one tile),
the ability is given to that character as data (an effect row from cards/abilities.toml), used
through the engine interface, and the rule it enforces is asserted. Each case quotes its rule."""

from __future__ import annotations

import numpy as np
import pytest

from sim.catalogue.tile_layout import FLOOR
from sim.combat.star import BLUE, GREEN
from sim.engine.state import fields as L
from sim.engine.rules.attack import _attack_star
from sim.engine.rules.death import _harm, _kill
from sim.engine.entities.timed_states import _tick
from sim.engine.rules.turn import _begin_turn
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, events, new_game

AB = CATALOGUE.abilities


def scenario(type_name: str, **params):
    """Team 1's first decision with everybody on one spawn space and the decider holding
    ``type_name`` with ``params`` (the rest at the type's defaults)."""
    game = new_game(1, 2, EXAMPLE_TEAMS.cards)
    ent = game.st.ent
    c = game.current
    here = int(game.S.spawn_space[0, 0])
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER:  # the teams' characters (not vehicles, spare rows)
            ent.space[e] = here
    code = AB.code(type_name)
    kind = AB.types[code]
    row = AB.row(code, [params.get(n, d) for n, d in zip(kind.param_names, kind.defaults)])
    ent.ab[c, :len(row)] = row
    ent.charges_left[c] = ent.ab_charges[c]
    return game, c


def ally_of(game, c):
    ent = game.st.ent
    return int(next(e for e in range(ent.shape[0]) if ent.team[e] == ent.team[c] and e != c))


def enemy_of(game, c):
    return int(np.flatnonzero(game.st.ent.team == 1)[0])


def on_entity(game, e):
    return game.action("ability", e)


def on_space(game, s):
    return game.action("ability_on_space", s)




def run_owner_turns(game, team, k):
    for _ in range(k):
        _begin_turn(game.st, game.S, team)


# --------------------------------------------------------------------- the 11 ability types

def test_strike_throws_extra_attacks_as_an_action():
    """strike (Ability Index house ruling): "Throws extra attacks with the current star point";
    "Actions are used to attack, use tiles, use items, or to interact with abilities"."""
    game, c = scenario("strike", bonus_attacks=3, charges=2)
    d = enemy_of(game, c)
    colour = int(_attack_star(game.st, game.S, c, d))
    n = int(game.st.ent.atk[c, colour])
    assert game.legal_mask()[on_entity(game, d)]
    game.apply(on_entity(game, d))
    attack = game.named_events("attack")[-1]
    assert attack["attacker"] == c and attack["defender"] == d and attack["attacks"] == n + 3
    assert game.st.ent.acted[c] == 1 and game.st.ent.charges_left[c] == 1


@pytest.mark.parametrize("defense, threshold", [(0, 2), (5, 7), (9, 11), (12, 11), (-3, 2)])
def test_a_hit_needs_more_than_defense_plus_two_and_defense_counts_at_most_nine(
        defense, threshold):
    """R3: "Any attack that lands a roll of more than your defense stat plus 2 is considered a
    Hit"; "The maximum defense a character can have is 9" (a buff beyond it counts as 9; below 0
    as 0). The attack's logged threshold is what the dice must beat."""
    game, c = scenario("strike", bonus_attacks=1, charges=2)
    d = enemy_of(game, c)
    game.st.ent.defense[d] = defense
    game.apply(on_entity(game, d))
    assert game.named_events("attack")[-1]["threshold"] == threshold


def test_area_is_flat_tile_wide_damage_on_everything_in_the_tile_the_users_team_included():
    """Book: "Tile-Wide Damage is flat damage dealt to a single tile or a collection of tiles,
    and it applies immediately to everything in the affected tiles. Flat damage applies straight
    to a health pool and is not affected by defense" — everything, so the user and its teammates
    in the tile take it too (only a Tile-Wide *Attack* "rolls against every opponent in the
    attacker's tile"); invisible entities stay "susceptible to ... tile-wide damage". Friendly
    damage is credited to nobody (the user's record counts what it did to opponents)."""
    game, c = scenario("area", damage=7)
    ent = game.st.ent
    here = ent.space[c]
    foes = np.flatnonzero((ent.team >= 1) & (ent.space == here))
    ent.invisible[foes[0]] = 99 * L.CLOCKS + 1
    mates = np.flatnonzero((ent.team == 0) & (ent.space == here))
    assert c in mates and len(mates) > 1
    before, mates_before = ent.health[foes].copy(), ent.health[mates].copy()
    dealt = int(ent.dealt[c])
    game.apply(on_entity(game, c))
    assert np.array_equal(ent.health[foes], before - 7)
    assert np.array_equal(ent.health[mates], mates_before - 7)
    assert ent.dealt[c] - dealt == 7 * len(foes)
    hits = [ev["entity"] for ev in game.named_events("tile-wide damage")]
    assert sorted(hits) == sorted(foes.tolist() + mates.tolist())


@pytest.mark.parametrize("user_health, foe_health, winner, reason", [
    (20, 10, 0, L.SIMULTANEOUS),   # both fall: the user's team had more health just before
    (10, 20, 1, L.SIMULTANEOUS),   # both fall: the foe's team had more
    (60, 10, 0, L.LAST_STANDING),  # only the foe falls
])
def test_a_blast_hits_everything_before_the_winner_is_decided(user_health, foe_health, winner,
                                                              reason):
    """Book: Tile-Wide Damage "applies immediately to everything in the affected tiles": one
    event, so the last two teams' characters in the tile both take it, and when both fall the
    house ruling of simultaneous elimination (docs/rulings.md: the most health just before the
    event wins) decides. The game was ended at the first death in entity order, the other
    character spared and its team the winner whatever the health."""
    game, c = scenario("area", damage=50)
    st, ent = game.st, game.st.ent
    foe = int(next(e for e in range(ent.shape[0])
                   if ent.team[e] == 1 and ent.kind[e] == L.K_CHARACTER))
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER and e not in (c, foe):
            ent.alive[e], ent.space[e] = 0, -1
    ent.health[c], ent.health[foe] = user_health, foe_health
    game.apply(on_entity(game, c))
    assert [ev["entity"] for ev in game.named_events("tile-wide damage")] == sorted([c, foe])
    assert ent.health[c] == max(0, user_health - 50) and ent.health[foe] == 0
    assert st.game.over == 1 and st.game.winner == winner and st.game.reason == reason


@pytest.mark.parametrize("shield, wound, amount, health_gain, shield_gain", [
    (0, 50, 30, 30, 0),   # "Healing increases current health towards ... its maximum value"
    (0, 10, 30, 10, 0),   # "... and up to, its maximum value"
    (1, 10, 30, 10, 20),  # "Shield is healing that is allowed to go beyond maximum health"
])
def test_heal_up_to_max_and_shield_beyond(shield, wound, amount, health_gain, shield_gain):
    game, c = scenario("heal", amount=amount, shield=shield, range=0)
    ent = game.st.ent
    a = ally_of(game, c)
    ent.health[a] -= wound
    h0 = ent.health[a]
    game.apply(on_entity(game, a))
    assert ent.health[a] - h0 == health_gain and ent.shield[a] == shield_gain


def test_shield_is_lost_before_health():
    """House ruling `[shield] absorbs_first`: shield is health beyond the maximum, lost first."""
    game, c = scenario("heal")
    ent = game.st.ent
    ent.shield[c] = 5
    h0 = ent.health[c]
    _harm(game.st, game.S, c, 8, -1, L.BY_ATTACK)
    assert ent.shield[c] == 0 and ent.health[c] == h0 - 3


@pytest.mark.parametrize("stat, column", [(0, L.SPEED), (1, L.RANGE), (2, L.DEFENSE),
                                          (3, L.ATK)])
def test_buff_raises_a_stat_turns_green_and_ends_after_its_duration(stat, column):
    """"A buff is an increase to a stat"; "Green is used while under a positive effect"; "A stat
    from an ability lasts as long as that ability specifies"; "counted from the moment that
    created it" (house: the creator team's turns)."""
    game, c = scenario("buff", stat=stat, amount=2, duration=2, range=0)
    ent = game.st.ent
    a = ally_of(game, c)
    v0 = int(ent.raw[a, column])
    game.apply(on_entity(game, a))
    assert ent.raw[a, column] == v0 + 2 and ent.buff[a] != 0
    assert _attack_star(game.st, game.S, a, enemy_of(game, c)) == GREEN
    run_owner_turns(game, 0, 1)
    assert ent.buff[a] != 0
    run_owner_turns(game, 0, 1)
    assert ent.buff[a] == 0 and ent.raw[a, column] == v0


@pytest.mark.parametrize("stat, column", [(0, L.SPEED), (1, L.RANGE), (2, L.DEFENSE),
                                          (3, L.ATK)])
def test_debuff_lowers_a_stat_turns_blue_and_is_reverted(stat, column):
    """"A de-buff is a negative effect placed on a character"; "Blue is used while
    de-buffed"."""
    game, c = scenario("debuff", stat=stat, amount=1, duration=1, range=0)
    ent = game.st.ent
    d = enemy_of(game, c)
    v0 = int(ent.raw[d, column])
    game.apply(on_entity(game, d))
    assert ent.raw[d, column] == max(v0 - 1, 0) and ent.debuff[d] != 0
    assert _attack_star(game.st, game.S, d, c) == BLUE
    run_owner_turns(game, 0, 1)
    assert ent.debuff[d] == 0 and ent.raw[d, column] == v0


def test_freeze_stops_a_thing_dead_until_unfrozen():
    """"A frozen entity cannot use any of its speed, cannot spend its action, and cannot use any
    effect stemming from an ability or an item"; "Freezing begins and ends as the ability ...
    specifies"."""
    game, c = scenario("freeze", duration=1, range=0)
    ent = game.st.ent
    d = enemy_of(game, c)
    game.apply(on_entity(game, d))
    assert ent.frozen[d] != 0
    _begin_turn(game.st, game.S, 1)  # the frozen character's team begins its turn: it passes
    assert ent.done[d] == 1
    game.st.game.cur = d
    assert game.legal_actions().tolist() == [L.END]
    run_owner_turns(game, 0, 1)  # one turn of the freezer's team: unfrozen
    assert ent.frozen[d] == 0


def test_frozen_cpu_does_not_retaliate():
    """"anything frozen can do nothing at all until it is unfrozen" — retaliation included."""
    from sim.engine.rules.attack import _strike
    game, c = scenario("freeze")
    ent = game.st.ent
    cpu = int(np.flatnonzero((ent.is_cpu != 0) & (ent.atk[:, 0] > 0))[0])
    ent.health[cpu] = ent.max_health[cpu] = 10_000
    ent.frozen[cpu] = 99 * L.CLOCKS + 1
    n0 = len(events(game, L.EV_RETALIATE))
    _strike(game.st, game.S, c, cpu, 0, c)
    assert len(events(game, L.EV_RETALIATE)) == n0


def test_invisible_cannot_be_targeted_by_a_direct_attack():
    """"an invisible entity cannot be targeted by a direct attack" (house: nor by an opponent's
    targeted ability); "Invisibility begins and ends exactly as the ability ... specifies"."""
    game, c = scenario("invisibility", duration=1)
    game.apply(on_entity(game, c))
    ent = game.st.ent
    assert ent.invisible[c] != 0
    d = enemy_of(game, c)
    game.st.game.cur = d
    ent.acted[d] = 0
    mask = game.legal_mask()
    assert not mask[game.action("attack", c)] and not mask[on_entity(game, c)]
    assert mask[game.action("attack", ally_of(game, c))]  # a visible teammate stands on the same space
    run_owner_turns(game, 0, 1)
    assert ent.invisible[c] == 0


def test_mobility_teleports_within_distance_without_spending_speed_or_action():
    """mobility (house ruling): "Teleports up to `distance` spaces"; teleporting is movement, not
    an action (`costs_action = 0`), and costs no speed."""
    game, c = scenario("mobility", distance=6, charges=0)
    ent = game.st.ent
    here = int(ent.space[c])
    mask = game.legal_mask()
    spaces = [s for s in range(game.st.kind.shape[0]) if mask[on_space(game, s)]]
    # within 6 spaces (each at most a block of 5 cells away: test_rules_audit.py checks the
    # distance against a reference)
    assert spaces and all(max(abs(s // 35 - here // 35), abs(s % 35 - here % 35)) <= 6 * 5
                          for s in spaces)
    speed = int(ent.speed_left[c])
    game.apply(on_space(game, spaces[-1]))
    assert ent.space[c] == spaces[-1] and ent.speed_left[c] == speed
    assert ent.acted[c] == 0
    group = game.block("group_attack").start  # group attacks: still legal
    assert not game.legal_mask()[on_space(game, 0):group].any()  # once per turn


def test_revive_returns_at_full_health_with_charges_and_debuffs_as_they_were():
    """"A revived character returns at full health"; "Ability charges spent while the character
    was alive remain spent ... whatever buffs or de-buffs sat on their stats when they died sit on
    them still"; the point of occurrence or the Spawn (house: the spot first)."""
    game, c = scenario("revive")
    st, ent = game.st, game.st.ent
    a = ally_of(game, c)
    ent.charges_left[a] = 0
    ent.debuff[a] = 99 * L.CLOCKS + 1
    ent.debuff_by[a] = enemy_of(game, c)
    spot = int(ent.space[a])
    _kill(st, game.S, a, -1, L.BY_ATTACK)
    assert game.legal_mask()[on_entity(game, a)]
    game.apply(on_entity(game, a))
    assert ent.alive[a] == 1 and ent.health[a] == ent.max_health[a]
    assert ent.space[a] == spot and ent.charges_left[a] == 0 and ent.debuff[a] != 0
    assert st.game.deaths - st.game.revives == 0


# --------------------------------------------------------------------- charges, turns, death

def test_charges_are_per_game_and_an_ability_once_per_turn():
    """`charges` = uses per game; every ability at most once per turn (house ruling)."""
    game, c = scenario("buff", charges=1, range=0, stat=0)
    ent = game.st.ent
    game.apply(on_entity(game, c))
    game.st.game.cur = c
    ent.acted[c] = 0
    assert not game.legal_mask()[on_entity(game, c)]  # spent
    ent.ab_used[c] = 0  # as on a later turn: the one charge is gone for the game
    assert ent.charges_left[c] == 0 and not game.legal_mask()[on_entity(game, c)]
    ent.charges_left[c] = 5
    ent.ab_used[c] = 1
    assert not game.legal_mask()[on_entity(game, c)]  # used this turn
    _begin_turn(game.st, game.S, 0)
    game.st.game.cur = c
    assert game.legal_mask()[on_entity(game, c)]


def test_effects_of_a_dead_character_cease():
    """"When a character dies ... unless specified otherwise all effects of that character's
    abilities cease"."""
    game, c = scenario("buff", stat=1, amount=3, duration=5, range=0)
    ent = game.st.ent
    a = ally_of(game, c)
    r0 = int(ent.range[a])
    game.apply(on_entity(game, a))
    assert ent.range[a] == r0 + 3
    _kill(game.st, game.S, c, -1, L.BY_ATTACK)
    assert ent.buff[a] == 0 and ent.range[a] == r0


def test_rotation_clock_alternative():
    """rules.toml `effect_clock = "rotations"`: "counted from the moment that created it" in
    rotations instead of the creator's turns."""
    game, c = scenario("freeze", duration=2, range=0)
    game.S.ip[L.P_CLOCK] = 1  # the set-up is shared (cached per board): restored whatever happens
    try:
        d = enemy_of(game, c)
        game.apply(on_entity(game, d))
        rot = int(game.st.game.rotation)
        _tick(game.st, L.ROT_CLOCK, rot + 1)
        assert game.st.ent.frozen[d] != 0
        _tick(game.st, L.ROT_CLOCK, rot + 2)
        assert game.st.ent.frozen[d] == 0
    finally:
        game.S.ip[L.P_CLOCK] = 0


# --------------------------------------------------------------------- invincible, advantage

def test_invincible_loses_no_health_except_to_the_apocalypse():
    """"Invincibility is an effect that prevents an Entity from losing Health by any means ...
    still Vulnerable to Instant Killing and Board Removing Threats such as the Apocalypse"."""
    game, c = scenario("buff", stat=5, range=0)
    game.apply(on_entity(game, c))
    st, ent = game.st, game.st.ent
    h0 = int(ent.health[c])
    for cause in (L.BY_ATTACK, L.BY_RETALIATION, L.BY_ABILITY, L.BY_TILE_DAMAGE):
        _harm(st, game.S, c, 10_000, 5, cause)
    assert ent.health[c] == h0 and ent.alive[c] == 1
    _harm(st, game.S, c, 10, -1, L.BY_APOCALYPSE)  # the flood
    assert ent.health[c] == h0 - 10


def test_advantage_rolls_twice_and_keeps_the_better():
    """"Advantage allows an entity to perform any random act twice, and choose the preferable
    outcome"; "Disadvantage forces ... the less preferable outcome" (buff / de-buff stat 4).
    Each is compared with a buff / de-buff of a stat with no number (invincibility), so the
    star's colour (green / blue: "Green is used while under a positive effect") is the same
    on both sides and only the advantage differs."""
    from sim.engine.rules.attack import _throw

    def mean_damage(col: int, stat: int) -> float:
        game, c = scenario("buff")
        st, ent = game.st, game.st.ent
        st.game.log = 0
        d = enemy_of(game, c)
        ent.raw[c, col], ent.raw[c, col + L.TIMED_STAT] = 99 * L.CLOCKS, stat
        total = 0
        for _ in range(3000):
            ent.health[d] = ent.max_health[d] = 10**9
            _throw(st, game.S, c, d, L.EV_ATTACK, L.BY_ATTACK, 0, c)
            total += 10**9 - int(ent.health[d])
        return total / 3000

    assert mean_damage(L.BUFF, L.STAT_ADVANTAGE) > mean_damage(L.BUFF, L.STAT_INVINCIBLE)
    assert mean_damage(L.DEBUFF, L.STAT_ADVANTAGE) < mean_damage(L.DEBUFF, L.STAT_INVINCIBLE)


def test_a_move_spends_its_cost_and_an_attack_the_action():
    """"Each turn, each character can only use as much speed as their stat shows" (a move takes
    its cost off the speed left) and "You attack an entity by spending the attacking character's
    action" ("Every character has 1 action every turn": no second attack is offered)."""
    game, c = scenario("strike", charges=0)
    st, ent = game.st, game.st.ent
    n = st.kind.shape[0]
    mask = game.legal_mask()
    reach = st.decision.reach_cost
    move = max((a for a in range(1, n + 1) if mask[a] and reach[a - 1] > 0),
               key=lambda a: reach[a - 1])
    cost, left = int(reach[move - 1]), int(ent.speed_left[c])
    game.apply(move)
    assert cost > 0 and ent.speed_left[c] == left - cost and ent.spent[c] == cost
    d = enemy_of(game, c)
    ent.space[d] = ent.space[c]  # range 0: any attacker reaches it
    ent.health[d] = ent.max_health[d] = 10**9
    st.game.cur = c
    attack = game.action("attack", d)
    assert game.legal_mask()[attack]
    game.apply(attack)
    st.game.cur = c
    assert ent.acted[c] == 1 and not game.legal_mask()[attack]


@pytest.mark.parametrize("reach", [1, 2, 3])
def test_an_attack_needs_the_defender_within_range(reach):
    """R3: "To initiate an attack, the defender must be within both the range and the line of
    sight of the attacker": an opponent at the attacker's range is offered, one step beyond is
    not (sight distances from live_movement._sight_from)."""
    from sim.engine.rules.live_movement import _sight_from

    game, c = scenario("strike", charges=0)
    st, ent = game.st, game.st.ent
    d = enemy_of(game, c)
    ent.range[c] = reach
    usable = (st.tile_pos >= 0) & (st.kind == FLOOR)
    for here in np.flatnonzero(usable):  # both distances inside its own tile (no lower bound
        same = usable & (st.tile_pos == st.tile_pos[here])  # on tile distance decides it)
        sight = _sight_from(st, game.S, int(here), reach + 1)
        at = np.flatnonzero(same & (sight == reach))
        beyond = np.flatnonzero(same & (sight == reach + 1))
        if at.size and beyond.size:
            break
    assert at.size and beyond.size
    ent.space[c] = here
    attack = game.action("attack", d)
    ent.space[d] = at[0]
    assert game.legal_mask()[attack]
    ent.space[d] = beyond[0]
    assert not game.legal_mask()[attack]

