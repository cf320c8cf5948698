"""A vehicle's action, one table-driven scenario per rule: a pilot aboard the armed vehicle (the
Batmobile) attacks through it; when it may, what its weapon reaches, the CPU's retaliation, the
exact damage distribution, and greedy's use of the weapon. Each test quotes its rule
(docs/entities.md, docs/rules-coverage.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.ai.greedy import _greedy_action
from sim.board.graph import compile_board
from sim.board.reference import ref_attack_costs
from sim.catalogue.entities import V_ATTACKS, V_RANGE, V_TIER
from sim.catalogue.tile_layout import FLOOR
from sim.combat.exact import damage_distribution
from sim.engine.state import fields as L
from sim.engine.rules.attack import _vehicle_attack
from sim.engine.entities.timed_states import _set_state
from tests._engine_kit import CATALOGUE
from tests.stats import chi_square_pvalue
from tests._entities_kit import (ENT, card_rows, decide, enemy_character, start, vehicle_row,
                                 vehicle_scene)


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
    ent = game.st.ent
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
    # at whichever enemy in the weapon's range is worth most
    assert fire.start <= chosen < fire.stop
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
