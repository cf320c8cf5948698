"""Turns and rotations: who decides next, applying one action, the GM Turn, the Rotation Counter.

Book: "Every rotation, each team gets a Turn, starting with Team 1 and continuing
counter-clockwise until ending with Team 4. After Team 4 finishes their turn, the GM must carry
out the GM Turn"; "The Rotation Counter ... increases once all four teams and the GM have taken
their turn"; "At the beginning of your first turn, your entire team must be placed into your
Spawn. All five characters go down at once, before anything else in that turn happens"; "Every
character has 1 action every turn"; "Each turn, each character can only use as much speed as
their stat shows". House ruling: a team's characters take their turns one after another (each may
move, attack, move on, then end) in the order the team chooses (``order.py``: a character that
has done nothing yet may hand the turn to a teammate); an eliminated team's turn is skipped
(it still passes for the durations its clock counts: :func:`_pass_turn`).
A team's turn begins by ending the timed states its clock has run out (``timed_states._tick``: "counted
from the moment that created it"); a frozen character's turn passes at once.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.rules.actions import (_ability_base, _alt_base, _attack_base, _group_base, _hand_base, _interact_base,
                      _item_base, _move_base, _water_base, _weapon_base)
from sim.engine.rules.apocalypse import _apocalypse_step, _resolve_check
from sim.engine.rules.attack import _group_attack, _strike, _vehicle_attack
from sim.engine.rules.cpu import _cpu_turn
from sim.engine.effects.interpreter import _use_ability, _use_ability_alt
from sim.engine.entities.special import _arrive, _begin_turn_entities, _board_here, _drive
from sim.engine.log.events import _log
from sim.engine.items.use import _apply_item
from sim.engine.items.holding import _end_turn_items
from sim.engine.rules.order import (_begin_order, _hand_over, _next_actor, _team_row,
                                    _team_row_count)
from sim.engine.rules.reveal import _check_reveal
from sim.engine.entities.timed_states import _tick
from sim.engine.tiles.paused import _after_action_tiles
from sim.engine.tiles.functions import _apply_interact, _end_turn_tile, _use_extra_action
from sim.engine.rules.victory import _best_health, _finish_by_health, _team_alive, _team_health
from sim.engine.rules.water_rolls import _apply_water, _begin_water


@njit
def _begin_turn(st, S, team):
    g = st.game
    ent = st.ent
    _log(st, L.EV_TURN, team, 0, 0, 0, 0, 0)
    # a condition met before any rotation ended or anyone died: reveal_rotation = 1 ("the Rotation
    # Counter reaches rotation 1" at the start; found by the fuzzing of stop 71)
    _check_reveal(st, S)
    if g.revealed != 0 and g.owed[team] > 0:
        g.owed[team] -= 1  # "at least one more regular turn" after the reveal
    g.turns[team] += 1
    _tick(st, team, g.turns[team])  # effects this team created that have run their turns
    _after_action_tiles(st, S)  # a freeze of its own ended in a frozen tile: the tile's now
    _begin_water(st, team)  # a fresh water-roll streak
    for i in range(_team_row_count(g, team, ent.shape[0])):  # the team's rows only (order.py)
        e = _team_row(g, team, i)
        if ent.team[e] == team and ent.alive[e] != 0:
            ent.speed_left[e] = ent.speed[e]
            ent.spent[e] = 0
            ent.acted[e] = 0
            ent.ab_used[e] = 0
            # "anything frozen can do nothing at all until it is unfrozen"
            ent.done[e] = 1 if ent.frozen[e] != 0 else 0
    _begin_turn_entities(st, team)  # vehicles: their speed again
    _begin_order(st, S, team)  # the team chooses who acts first (order.py)


@njit
def _pass_turn(st, team):
    """An eliminated team's turn, skipped: no one plays it, but it passes for the durations its
    clock counts (``timed_states._expiry``), so what its characters' items and tile functions
    set runs out on time. House ruling (docs/rulings.md, "Whose turns a duration counts"): a
    tile frozen by a team that was then eliminated stayed frozen for the rest of the game, and
    froze whoever walked in (the audit of stop 69)."""
    g = st.game
    g.turns[team] += 1
    _tick(st, team, g.turns[team])


@njit
def _gm_turn(st, S):
    g = st.game
    _log(st, L.EV_GM_TURN, 0, 0, 0, 0, 0, 0)
    if g.revealed != 0 and g.apoc_active == 0 and g.apoc_resolved == 0:
        owed = 0
        for t in range(4):
            owed += g.owed[t]
        if owed == 0:  # "Once the GM starts their turn and every player has had that chance"
            g.apoc_active = 1
            _log(st, L.EV_APOC_START, g.apoc, 0, 0, 0, 0, 0)
    if g.apoc_active != 0 and _resolve_check(st, S):
        _cpu_turn(st, S)  # "resolved by the players meeting its condition": the GM Turn resumes
    elif g.apoc_active != 0:
        _apocalypse_step(st, S)
        if S.ip[L.P_CPUS_APOC] != 0:
            _cpu_turn(st, S)
    else:
        _cpu_turn(st, S)


@njit
def _track_leader(st):
    """Count a lead change (Ludii's LeadChange) when the team with the most health at this
    rotation's end differs from the last one that led; a tie leads no one."""
    health = _team_health(st, np.zeros(4, np.int64))
    best = _best_health(health, health > 0)
    g = st.game
    if best >= 0:
        if g.leader > 0 and g.leader != best + 1:
            g.lead_changes += 1
        g.leader = best + 1


@njit
def _end_rotation(st, S):
    g = st.game
    g.rotation += 1
    _log(st, L.EV_ROTATION, g.rotation, 0, 0, 0, 0, 0)
    _tick(st, L.ROT_CLOCK, g.rotation)  # effects counted in rotations (effect_clock)
    _after_action_tiles(st, S)
    _check_reveal(st, S)  # "the Rotation Counter reaches rotation 7"
    _track_leader(st)
    if g.harm == 0:
        g.quiet += 1
    else:
        g.quiet = 0
    g.harm = 0
    if g.quiet >= S.ip[L.P_STALEMATE]:
        _finish_by_health(st, L.STALEMATE)
    elif g.rotation > S.ip[L.P_CAP]:
        _finish_by_health(st, L.CAP)
    if g.over != 0:
        # ended as this rotation closed (the cap, a stalemate, or a death at the rotation's
        # end): the counter has already turned to a rotation no one plays, so the game lasted
        # one fewer. Nothing reads it after the end but the result: a capped game read 61
        # rotations under a cap of 60 (stop 78's docs audit). The log keeps the counter's turn.
        g.rotation -= 1


@njit
def _advance(st, S):
    """Run everything automatic until a character must decide (``g.cur``) or the game ends."""
    g = st.game
    while g.over == 0:
        team = g.turn
        if team < L.GM:
            if g.phase == 0:
                if not _team_alive(st, team):
                    _pass_turn(st, team)
                    g.turn += 1
                    continue
                _begin_turn(st, S, team)
                g.phase = 1
            c = _next_actor(st, team)
            if c >= 0:
                _board_here(st, c)  # a vehicle left unoccupied on its space ("they can board")
                g.cur = c
                return
            g.phase = 0
            g.cur = -1
            g.turn += 1
        else:
            _gm_turn(st, S)
            if g.over != 0:
                return
            _end_rotation(st, S)
            g.turn = 0


@njit
def _apply(st, S, action):
    """Play ``action`` for the current character, then advance. The action must be legal and
    ``_legal`` must have run for this decision (its reach is reused for the move's cost)."""
    g = st.game
    ent = st.ent
    c = g.cur
    n = st.kind.shape[0]
    g.decisions += 1
    m = ent.shape[0]
    if action >= _hand_base(n, m):  # the turn goes to a teammate; ``c`` acts later (order.py)
        _hand_over(st, c, action - _hand_base(n, m))
        g.cur = -1
        _advance(st, S)
        return
    if ent.space[c] >= 0:  # (placing comes before the turn: "before anything else")
        ent.begun[c] = 1
    if action == L.END:
        # an extra action won gives the action back instead of ending the turn (house ruling):
        # the turn goes on, so nothing of its end happens (no item becomes usable: "A character
        # must End their Turn with an Item in order to use it"; the audit of stop 69 found a
        # potion picked up before the Encore drunk in the same turn)
        if not _use_extra_action(st, c):
            ent.done[c] = 1
            if ent.kind[c] <= L.K_SUMMONED:  # "A character must End their Turn with an Item":
                _end_turn_items(st, S, c)      # a minion's or clone's END is not a character's
            _end_turn_tile(st, S, c)
    elif action < _attack_base(n, m):
        s = action - _move_base(n, m)
        here = ent.space[c]
        if here < 0:
            ent.space[c] = s  # placing "costs no speed and no actions"
            _log(st, L.EV_PLACE, c, s, 0, 0, 0, 0)
        else:
            cost = st.decision.reach_cost[s]  # _legal searched this character's reach for it
            if _drive(st, c, s, cost):  # a pilot spends its vehicle's speed (entities.py)
                cost = 0
            ent.speed_left[c] -= cost
            ent.spent[c] += cost
            ent.space[c] = s
            _log(st, L.EV_MOVE, c, here, s, cost, 0, 0)
            _arrive(st, c)
    elif action < _ability_base(n, m):
        ent.acted[c] = 1  # "You attack an entity by spending the attacking character's action"
        _strike(st, S, c, action - _attack_base(n, m), 0, c)
    elif action < _alt_base(n, m):
        _use_ability(st, S, c, action - _ability_base(n, m))
    elif action < _item_base(n, m):
        _use_ability_alt(st, S, c, action - _alt_base(n, m))
    elif action < _interact_base(n, m):
        _apply_item(st, S, c, action - _item_base(n, m))
    elif action < _water_base(n, m):
        _apply_interact(st, S, c, action - _interact_base(n, m))
    elif action < _weapon_base(n, m):
        _apply_water(st, S, c, action - _water_base(n, m))
    elif action < _group_base(n, m):
        _vehicle_attack(st, S, c, action - _weapon_base(n, m))
    else:  # (the hand-over block, after this one, returned above)
        _group_attack(st, S, c, action - _group_base(n, m))
    _after_action_tiles(st, S)  # "Every entity standing in a frozen tile is frozen too"
    g.cur = -1
    _advance(st, S)
