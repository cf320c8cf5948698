"""The abilities' effects (opcodes ``OP_STRIKE`` .. ``OP_REVIVE``; their rows in
``sim/catalogue/effect_table.py``): one small kernel per effect, called by
``interpreter._run_effect`` for an ability, an item or a tile function that names it.

Why one kernel per effect with one signature, ``(st, S, user, target, source, row)``: the effect
table names each effect's kernel, and ``tests/test_effect_table.py`` checks that the dispatch
calls exactly that kernel for its opcode; each reads its parameters from its row with ``row._fx``
(``src``, ``k``: an ability's entity columns, an item's or a tile function's row), so an item's
heal and an ability's heal run the same code. A ``target`` is an entity, or ``M + s`` for space
``s``. Must not import ``interpreter`` (it calls this module).
"""

from __future__ import annotations

from sim._jit import njit
from sim.catalogue.tile_layout import FLOOR

from sim.engine.state import fields as L
from sim.engine.rules.attack import _strike
from sim.engine.log.events import _log
from sim.engine.effects.row import _fx
from sim.engine.entities.special import _arrive
from sim.engine.effects.item_effects import _blast
from sim.engine.entities.timed_states import _restart_stat_clocks, _set_state
from sim.engine.tiles.live_board import _first_spawn


@njit
def _run_strike(st, S, user, target, source, row):
    """An attack on ``target`` with ``amount`` attacks beyond the star point's (range, sight and
    retaliation as an attack's)."""
    _strike(st, S, user, target, _fx(st, S, user, source, row, L.FX_AMOUNT), user)


@njit
def _run_area(st, S, user, target, source, row):
    """Tile-Wide Damage: everything in the user's tile, the user's team included."""
    amount = _fx(st, S, user, source, row, L.FX_AMOUNT)
    _blast(st, S, user, st.ent.space[user], amount, L.BY_ABILITY)


@njit
def _run_heal(st, S, user, target, source, row):
    _heal(st, user, target, _fx(st, S, user, source, row, L.FX_AMOUNT),
          _fx(st, S, user, source, row, L.FX_FLAG))


@njit
def _run_buff(st, S, user, target, source, row):
    _set_state(st, S, target, L.BUFF, user, _fx(st, S, user, source, row, L.FX_DURATION),
               _fx(st, S, user, source, row, L.FX_STAT), _fx(st, S, user, source, row, L.FX_AMOUNT),
               source == L.FX_ABILITY)


@njit
def _run_debuff(st, S, user, target, source, row):
    _set_state(st, S, target, L.DEBUFF, user, _fx(st, S, user, source, row, L.FX_DURATION),
               _fx(st, S, user, source, row, L.FX_STAT), _fx(st, S, user, source, row, L.FX_AMOUNT),
               source == L.FX_ABILITY)


@njit
def _run_freeze(st, S, user, target, source, row):
    _set_state(st, S, target, L.FROZEN, user, _fx(st, S, user, source, row, L.FX_DURATION), 0, 0,
               source == L.FX_ABILITY)


@njit
def _run_invisibility(st, S, user, target, source, row):
    _set_state(st, S, target, L.INVISIBLE, user, _fx(st, S, user, source, row, L.FX_DURATION), 0, 0,
               source == L.FX_ABILITY)


@njit
def _run_mobility(st, S, user, target, source, row):
    """A teleport to space ``target - M`` (``_legal`` lists the spaces within ``amount``)."""
    ent = st.ent
    here = ent.space[user]
    s = target - ent.shape[0]
    ent.space[user] = s
    _log(st, L.EV_TELEPORT, user, here, s, 0, 0, 0)
    _arrive(st, user)  # a pilot's vehicle comes along; a vehicle there is boarded


@njit
def _run_revive(st, S, user, target, source, row):
    """The revive's first form: where ``target`` fell (else its Spawn). A tile's revive (a reward
    or an interactable: ``target`` is the user) brings back the teammate the rules pick
    (:func:`_tile_revive_target`); with none to bring back the effect is not given
    (``g.fx_ok``: a reward keeps its ticks)."""
    if source == L.FX_TILE:
        target = _tile_revive_target(st, S, user)
        if target < 0:
            st.game.fx_ok = 0
            return
    _revive(st, S, user, target, _revive_space(st, S, target))


@njit
def _tile_revive_target(st, S, c):
    """Whom a tile's revive brings back for ``c`` (-1: none). "A revive is caused by an ability
    or a tile that specifies one"; a tile offers no choice, so the rules pick (rules.toml [game]
    ``tile_revive``, docs/rulings.md "A tile's revive"): of ``c``'s dead teammates a revive may
    return (as the ability's: not a minion, nor a card not yet in play) with a space to return
    to, the one with the highest maximum health, the first in card order on a tie
    ("strongest"), or the first in card order ("first")."""
    ent = st.ent
    team = ent.team[c]
    first = S.ip[L.P_TILE_REVIVE_FIRST] != 0
    best, best_health = -1, -1
    for e in range(ent.shape[0]):
        if (ent.team[e] == team and ent.alive[e] == 0 and ent.kind[e] <= L.K_SUMMONED
                and ent.dormant[e] == 0 and ent.max_health[e] > best_health
                and _revive_space(st, S, e) >= 0):
            best, best_health = e, ent.max_health[e]
            if first:
                break
    return best


@njit
def _heal(st, c, e, amount, shield):
    """"Healing increases current health towards, and up to, its maximum value. Shield is healing
    that is allowed to go beyond maximum health" (the excess is kept as shield)."""
    ent = st.ent
    room = ent.max_health[e] - ent.health[e]
    healed = min(amount, room)
    ent.health[e] += healed
    extra = amount - healed if shield != 0 else 0
    ent.shield[e] += extra
    _log(st, L.EV_HEAL, c, e, healed, extra, ent.health[e], 0)


@njit
def _revive(st, S, c, e, s):
    """"A revived character returns at full health, with their ability and their stats in
    exactly the state they were in at the moment of death" (charges stay spent) on space ``s``.
    Not submerged: it returns to a floor space, not into the water."""
    ent = st.ent
    ent.submerged[e] = 0
    ent.alive[e] = 1
    ent.health[e] = ent.max_health[e]
    ent.shield[e] = 0
    ent.space[e] = s
    ent.done[e] = 1  # it acts from its team's next turn (house ruling)
    _restart_stat_clocks(st, e)  # its buffs and de-buffs as at its death
    st.game.revives += 1
    _log(st, L.EV_REVIVE, c, e, s, 0, 0, 0)


@njit
def _revive_space(st, S, e):
    """Where a dead character comes back by the ability's first form: where it fell if that
    space still stands, else the first spawn space that does (-1: none). Book: "The player may
    choose whether the revive occurs at the point of occurrence, or back in the team's Spawn"
    (the second form, :func:`_spawn_revive_space`, is the Spawn)."""
    s = st.ent.space[e]
    if s >= 0 and st.tile_pos[s] >= 0 and st.kind[s] == FLOOR:
        return s
    return _spawn_revive_space(st, S, e)


@njit
def _spawn_revive_space(st, S, e):
    """The first spawn space of ``e``'s team that still stands (-1: none)."""
    return _first_spawn(st, S, st.ent.team[e])
