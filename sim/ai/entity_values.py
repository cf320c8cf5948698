"""Greedy's values for the special entities (docs/entities.md): what harming each kind of entity
is worth, and what a summon is worth and where to make it.

One unit with ``sim.ai.values`` (health): a character is worth 1 per health point (a kill ends a
character: "'Kill' Specifically refers to the Death of a Character"), anything else that is not a
character — a CPU, a minion, a clone, an assist — ``greedy_cpu_value`` (rules.toml), an
unoccupied vehicle nothing (it threatens no one). A summon is worth the bodies it adds (their
health, which enemy attacks must go through) plus one attack each, at the enemies' mean defense:
the same expected-value logic as an attack, so greedy weighs it against the attacks it could
make instead. Boarding an unoccupied vehicle with a weapon adds one attack of the weapon to the
position score of its space (greedy's walk): the pilot may fire it every turn.
"""

from __future__ import annotations

from sim._jit import njit
from sim.board.geometry import SPAN
from sim.combat.hits import _hit_chance
from sim.combat.star import BASE
from sim.engine.state import fields as L
from sim.engine.rules.actions import _ability_space_base
from sim.engine.rules.attack import _threshold


@njit(inline="always")
def _target_value(kind, pilot, cpu_value):
    """What harming an entity of ``kind`` (a vehicle: ``pilot`` + 1, 0 unoccupied) is worth per
    health point (scalars only: it is called per entity in loops)."""
    if kind <= L.K_SUMMONED:
        return 1.0
    if kind == L.K_VEHICLE and pilot == 0:
        return 0.0
    return cpu_value


@njit
def _summon_value(st, S, c):
    """The value of ``c``'s summon now: per minion that enters (rows free, at most ``count``),
    its health plus the expected damage of one of its attacks against the opposing characters'
    mean defense (a clone: 1 HP and ``c``'s base attack)."""
    ent = st.ent
    free = 0
    for e in range(ent.shape[0]):
        if ent.owner[e] == c + 1 and ent.alive[e] == 0:
            free += 1
    made = min(free, ent.ab_count[c])
    if ent.ab_flag[c] != 0:
        health, attacks, tier = S.ip[L.P_CLONE_HEALTH], ent.atk[c, BASE], ent.tier[c, BASE]
    else:
        health, attacks, tier = ent.ab_health[c], ent.ab_attacks[c], ent.ab_tier[c]
    defense = _enemy_defense(ent, ent.team[c])
    return made * S.fp[L.W_DAMAGE] * (health + _mean_damage(S, attacks, tier, defense))


@njit(inline="always")
def _mean_damage(S, attacks, tier, defense):
    """Expected damage of ``attacks`` attacks of dice ``tier`` against ``defense``."""
    p = _hit_chance(S.ip[L.P_DEFENSE_DIE], _threshold(S, defense))
    return attacks * p * (S.tier_faces[tier - 1] + 1) / 2.0


@njit(inline="always")
def _may_board(ent, c, v):
    """Whether greedy values ``c`` boarding vehicle row ``v``: ``c`` is a team's character riding
    nothing ("If a character is on the same space as an unoccupied vehicle, they can board that
    vehicle"), ``v`` is in play, unoccupied and has a weapon."""
    return (ent.riding[c] == 0 and ent.kind[c] <= L.K_SUMMONED and ent.alive[v] != 0
            and ent.pilot[v] == 0 and ent.atk[v, BASE] > 0)


@njit
def _boarding_bonus(st, S, c, v, spaces, scores):
    """Add to ``scores[i]`` (the position score of ``spaces[i]``, reached by this move) where
    ``spaces[i]`` is vehicle ``v``'s (:func:`_may_board`) the worth of boarding it (arriving
    boards): one attack of its weapon per turn, against the opposing characters' mean
    defense."""
    ent = st.ent
    for i in range(spaces.shape[0]):
        if spaces[i] == ent.space[v]:
            scores[i] += S.fp[L.W_DAMAGE] * _mean_damage(
                S, ent.atk[v, BASE], ent.tier[v, BASE], _enemy_defense(ent, ent.team[c]))
            return


@njit(inline="always")
def _enemy_defense(ent, team):
    """The opposing characters' mean defense (rounded; 0 with none left)."""
    n = 0
    total = 0
    for e in range(ent.shape[0]):
        if (ent.alive[e] != 0 and ent.team[e] >= 0 and ent.team[e] != team
                and ent.kind[e] <= L.K_SUMMONED):
            n += 1
            total += ent.defense[e]
    return (total + n // 2) // n if n > 0 else 0


@njit
def _summon_action(st, S, c, mask, enemy_r, enemy_c):
    """(value, action) of ``c``'s best summon: on the legal space nearest an enemy (king steps;
    ties: the lowest space), so its minions can strike soonest; (0, -1) when none is legal."""
    ent = st.ent
    base = _ability_space_base(st.kind.shape[0], ent.shape[0])
    here = ent.space[c]
    reach = max(ent.range[c], 0)  # a summon's spaces are within the creator's range
    r0 = here // SPAN
    c0 = here % SPAN
    best_s = -1
    best_d = 1 << 30
    for r in range(max(r0 - reach, 0), min(r0 + reach, SPAN - 1) + 1):
        for col in range(max(c0 - reach, 0), min(c0 + reach, SPAN - 1) + 1):
            s = r * SPAN + col
            if not mask[base + s]:
                continue
            d = 1 << 29
            for k in range(enemy_r.shape[0]):
                d = min(d, max(abs(r - enemy_r[k]), abs(col - enemy_c[k])))
            if d < best_d:
                best_d = d
                best_s = s
    if best_s < 0:
        return 0.0, -1
    return _summon_value(st, S, c), base + best_s
