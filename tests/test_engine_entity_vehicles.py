"""Vehicles, one table-driven scenario per rule: on the shipped vehicle's board a character
stands next to a vehicle, boards, drives, is attacked or walks off through the engine interface
or its hook, and the outcome the book asks for is asserted. Each test quotes its rule
(docs/entities.md, docs/rules-coverage.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.catalogue.entities import V_ATTACKS, V_HEALTH, V_TILE
from sim.engine.state import fields as L
from sim.engine.rules.attack import _strike
from sim.engine.rules.death import _kill
from sim.engine.entities.timed_states import _set_state
from sim.engine.rules.turn import _begin_turn
from tests._engine_kit import CATALOGUE, events
from tests._entities_kit import (ENT, attack, card_rows, decide, enemy_character, on_space, rows,
                                 start, summon_minions, vehicle_scene)


# --------------------------------------------------------------------- vehicles

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
