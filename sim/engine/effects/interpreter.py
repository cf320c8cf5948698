"""The effects interpreter: one kernel runs every ability from its row of integers.

Why one interpreter over data: a card's ability is a row of its entity (``fields.AB_*``: the
effect's opcode, target kind, whether it costs the action, charges, range, duration, amount,
stat, flag — built from ``cards/abilities.toml`` and ``cards/characters.csv`` by
``sim.catalogue.abilities``), so a designer adds a card, or a type that reuses an effect, without
touching code (docs/effects.md). Book: "Every ability belongs to one of the 11 ability types set
out in the Ability Index"; "This ability will grant the user their own unique functions that can
be performed only during their turn unless specified otherwise".

The timed states the effects create (frozen, invisible, buffs, de-buffs) live in
:mod:`sim.engine.entities.timed_states`.
"""

from __future__ import annotations

from sim._jit import njit
from sim.board.geometry import SPAN
from sim.catalogue.tile_layout import FLOOR

from sim.engine.state import fields as L
from sim.engine.rules.attack import _strike
from sim.engine.rules.death import _harm
from sim.engine.log.events import _log
from sim.engine.effects.row import _fx
from sim.engine.entities.special import _arrive, _summon_room
from sim.engine.effects.entity_effects import _run_entity_effect, _summon
from sim.engine.effects.item_effects import _blast, _run_item_effect
from sim.engine.effects.tile_effects import _run_tile_effect
from sim.engine.entities.timed_states import _set_state
from sim.engine.tiles.live_board import _first_spawn


@njit(inline="always")
def _ability_ready(ent, c):
    """Whether ``c`` may use its ability now (its own turn: the engine asks only the character
    whose decision it is). Book: "A frozen entity ... cannot use any effect stemming from an
    ability"; every ability at most once per turn and within its charges (house ruling)."""
    op = ent[c, L.AB_OP]
    if op == L.OP_NONE:
        return False
    if ent[c, L.FROZEN] != 0 or ent[c, L.AB_USED] != 0:
        return False
    if ent[c, L.AB_CHARGES] > 0 and ent[c, L.CHARGES_LEFT] <= 0:
        return False
    if op == L.OP_SUMMON and not _summon_room(ent, c):  # its most minions are out already
        return False
    return ent[c, L.AB_COSTS] == 0 or ent[c, L.ACTED] == 0


@njit(inline="always")
def _ability_range(ent, c):
    """A strike is an attack: it uses the attack's range; a summon the creator's ("within both
    the range and the line of sight of their creator"); other effects their own ``range``."""
    op = ent[c, L.AB_OP]
    return ent[c, L.RANGE] if op == L.OP_STRIKE or op == L.OP_SUMMON else ent[c, L.AB_RANGE]


@njit
def _revive_space(st, S, e):
    """Where a dead character comes back by the ability's first form: where it fell if that
    space still stands, else the first spawn space that does (-1: none). Book: "The player may
    choose whether the revive occurs at the point of occurrence, or back in the team's Spawn"
    (the second form, :func:`_spawn_revive_space`, is the Spawn)."""
    s = st.ent[e, L.SPACE]
    if s >= 0 and st.tile_pos[s] >= 0 and st.kind[s] == FLOOR:
        return s
    return _spawn_revive_space(st, S, e)


@njit
def _spawn_revive_space(st, S, e):
    """The first spawn space of ``e``'s team that still stands (-1: none)."""
    return _first_spawn(st, S, st.ent[e, L.TEAM])


@njit
def _teleport_targets(st, c, dist, base, mask):
    """Mask ``base + s`` for every floor space within ``dist`` king steps of ``c`` (walls,
    water and tile boundaries do not matter to a teleport; voids hold no space)."""
    here = st.ent[c, L.SPACE]
    kind = st.kind
    tile_pos = st.tile_pos
    r0 = here // SPAN
    c0 = here % SPAN
    count = 0
    for r in range(max(r0 - dist, 0), min(r0 + dist, SPAN - 1) + 1):
        for col in range(max(c0 - dist, 0), min(c0 + dist, SPAN - 1) + 1):
            s = r * SPAN + col
            if s != here and kind[s] == FLOOR and tile_pos[s] >= 0:
                mask[base + s] = True
                count += 1
    return count


@njit
def _heal(st, c, e, amount, shield):
    """"Healing increases current health towards, and up to, its maximum value. Shield is healing
    that is allowed to go beyond maximum health" (the excess is kept as shield)."""
    ent = st.ent
    room = ent[e, L.MAX_HEALTH] - ent[e, L.HEALTH]
    healed = min(amount, room)
    ent[e, L.HEALTH] += healed
    extra = amount - healed if shield != 0 else 0
    ent[e, L.SHIELD] += extra
    _log(st, L.EV_HEAL, c, e, healed, extra, ent[e, L.HEALTH], 0)


@njit
def _revive(st, S, c, e, s):
    """"A revived character returns at full health, with their ability and their stats in
    exactly the state they were in at the moment of death" (charges stay spent) on space ``s``.
    Not submerged: it returns to a floor space, not into the water."""
    ent = st.ent
    ent[e, L.SUBMERGED] = 0
    ent[e, L.ALIVE] = 1
    ent[e, L.HEALTH] = ent[e, L.MAX_HEALTH]
    ent[e, L.SHIELD] = 0
    ent[e, L.SPACE] = s
    ent[e, L.DONE] = 1  # it acts from its team's next turn (house ruling)
    st.game.revives += 1
    _log(st, L.EV_REVIVE, c, e, s, 0, 0, 0)


@njit
def _run_effect(st, S, c, t, src, k):
    """Run the effect of row (``src``, ``k``) for user ``c`` on target ``t`` (an entity, or
    ``M + s`` for space ``s``). Pays nothing: the caller (an ability, item or tile) pays its own
    cost. Returns the opcode run."""
    ent = st.ent
    m = ent.shape[0]
    op = _fx(st, S, c, src, k, L.FX_OP)
    amount = _fx(st, S, c, src, k, L.FX_AMOUNT)
    duration = _fx(st, S, c, src, k, L.FX_DURATION)
    if op == L.OP_STRIKE:
        _strike(st, S, c, t, amount, c)
    elif op == L.OP_AREA:
        # Tile-Wide Damage: everything in the user's tile, the user's team included
        _blast(st, S, c, st.ent[c, L.SPACE], amount, L.BY_ABILITY)
    elif op == L.OP_HEAL:
        _heal(st, c, t, amount, _fx(st, S, c, src, k, L.FX_FLAG))
    elif op == L.OP_BUFF:
        _set_state(st, S, t, L.BUFF, c, duration, _fx(st, S, c, src, k, L.FX_STAT), amount)
    elif op == L.OP_DEBUFF:
        _set_state(st, S, t, L.DEBUFF, c, duration, _fx(st, S, c, src, k, L.FX_STAT), amount)
    elif op == L.OP_FREEZE:
        _set_state(st, S, t, L.FROZEN, c, duration, 0, 0)
    elif op == L.OP_INVISIBILITY:
        _set_state(st, S, t, L.INVISIBLE, c, duration, 0, 0)
    elif op == L.OP_MOBILITY:
        here = ent[c, L.SPACE]
        ent[c, L.SPACE] = t - m
        _log(st, L.EV_TELEPORT, c, here, t - m, 0, 0, 0)
        _arrive(st, c)  # a pilot's vehicle comes along; a vehicle there is boarded
    elif op == L.OP_REVIVE:
        _revive(st, S, c, t, _revive_space(st, S, t))
    elif op == L.OP_SUMMON:  # minions or clones (sim/engine/effects/entity_effects.py)
        _summon(st, S, c, t - m, _fx(st, S, c, src, k, L.FX_COUNT),
                _fx(st, S, c, src, k, L.FX_HEALTH), _fx(st, S, c, src, k, L.FX_ATTACKS),
                _fx(st, S, c, src, k, L.FX_TIER), _fx(st, S, c, src, k, L.FX_FLAG))
    elif op == L.OP_TILE_CONTROL:  # swaps and transforms: sim/engine/effects/tile_effects.py
        _run_tile_effect(st, S, c, t, src, k, op)
    elif op >= L.OP_ENT_FIRST:
        _run_entity_effect(st, S, c, t, src, k, op)
    elif op >= L.OP_TILE_FIRST:
        _run_tile_effect(st, S, c, t, src, k, op)
    elif op >= L.OP_ITEM_FIRST:
        _run_item_effect(st, S, c, t, src, k, op)
    return op


@njit
def _pay_ability(st, c, t, form):
    """Pay one use of ``c``'s ability (its ``form``, 1 = the second) on ``t``: a charge, the
    once-per-turn use and, if the type costs it, the action."""
    ent = st.ent
    ent[c, L.AB_USED] = 1
    if ent[c, L.AB_CHARGES] > 0:
        ent[c, L.CHARGES_LEFT] -= 1
    if ent[c, L.AB_COSTS] != 0:
        ent[c, L.ACTED] = 1
    _log(st, L.EV_ABILITY, c, ent[c, L.AB_OP], t, ent[c, L.CHARGES_LEFT], form, 0)


@njit
def _use_ability(st, S, c, t):
    """Run ``c``'s ability on target ``t`` (an entity, or ``M + s`` for space ``s``); the action
    must be legal (``_legal``). Pays the charge, the once-per-turn use and, if the type costs
    it, the action ("Actions are used to attack, use tiles, use items, or to interact with
    abilities")."""
    _pay_ability(st, c, t, 0)
    _run_effect(st, S, c, t, L.FX_ABILITY, 0)


@njit
def _use_ability_alt(st, S, c, e):
    """The ability's second form on entity ``e``: a revive "back in the team's Spawn" rather
    than "at the point of occurrence" (the only effect with a second form; legal only when both
    spots exist and differ: ``legal._legal``). Pays like :func:`_use_ability`."""
    _pay_ability(st, c, e, 1)
    _revive(st, S, c, e, _spawn_revive_space(st, S, e))
