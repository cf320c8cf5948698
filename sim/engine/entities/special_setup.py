"""The special entities' rows when a game starts: vehicles on the board, the summoned 6th cards,
assist characters and minions, each in a row of the entity array that waits dormant until it
enters play (docs/entities.md).

Why rows made up front: kernels run on fixed arrays, and a row holds everything an entity is
(stats, ability, states), so a summon or a spawn only switches a prepared row on — no card or
assist table is needed at run time, and the look-ahead's copies copy them for free. Rows are
made only for what this game can bring into play (a vehicle whose tile is on the board; summons
and assists only when an item or a tile on the board can grant one; minion rows per character
whose ability summons), so a game without them pays nothing.

Row order: the teams' characters, the CPUs (``new_game._init_game``), then the vehicles, each team's
summoned card, each team's assists, and the minion rows of every summoner in row order — spare
rows after a team's characters, so its characters act first in its turn.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.board.geometry import SPAN
from sim.catalogue.board_rules import GRID
from sim.catalogue.entities import (A_ATTACKS, A_DEFENSE, A_FX, A_HEALTH, A_RANGE, A_SPEED,
                                    A_TIER, R_MAX_MINIONS, R_MINION_DEFENSE, R_MINION_RANGE,
                                    R_MINION_SPEED, R_SUMMON_POOL, V_ATTACKS, V_DEFENSE, V_HEALTH,
                                    V_RANGE, V_SPEED, V_TIER, V_TILE)
from sim.catalogue.tile_layout import FLOOR, MAX_SIZE
from sim.rng import roll

from sim.engine.state import fields as L



@njit
def _content_grants(S, op, tile_op):
    """Whether an item type runs opcode ``op``, or the function of a tile of the catalogue runs
    ``op`` or the tile slice's own ``tile_op`` (a summon of a 6th card, an assist): only then are
    its rows made. Any catalogue tile counts, not only those on the board at the start: a
    transform can bring one in (docs/tiles.md). A tile has two function rows (``fx_table.tile_table``:
    ``2 * tile`` its reward, ``2 * tile + 1`` its interactable)."""
    for k in range(S.item_fx.shape[0]):
        if S.item_fx[k, L.FX_OP] == op:
            return True
    for r in range(S.tile_fx.shape[0]):
        if S.tile_fx[r, L.FX_OP] == op or S.tile_fx[r, L.FX_OP] == tile_op:
            return True
    return False


@njit
def _vehicle_space(S, tile):
    """The space a vehicle of catalogue tile ``tile`` starts on: the tile's middle space if it
    is floor, else its first floor space (-1: the tile is not on this board)."""
    kind = S.kind2[0]
    tile_pos = S.tile_pos2[0]
    for p in range(S.pos_tile.shape[0]):
        if S.pos_tile[p] != tile:
            continue
        mid = ((p // GRID) * MAX_SIZE + MAX_SIZE // 2) * SPAN + (p % GRID) * MAX_SIZE + MAX_SIZE // 2
        if kind[mid] == FLOOR and tile_pos[mid] == p:
            return mid
        for s in range(kind.shape[0]):
            if tile_pos[s] == p and kind[s] == FLOOR:
                return s
    return -1


@njit(inline="always")
def _minion_rows(op, count, charges, cap):
    """Rows a character with this ability needs for its minions (clones are minions): ``count``
    per use, for every charge (unlimited: ``cap``), at most ``cap`` alive at once."""
    if op != L.OP_SUMMON:
        return 0
    return min(count * (charges if charges > 0 else cap), cap)


@njit
def _draw_summons(C, team_cards, rng):
    """Each team's summoned card: "a random 6th character card", drawn now from the game's own
    stream (house ruling ``summon_pool``: the cards no team holds, else any card), over the card
    indices, which are in name order (sim.catalogue.cards): a sorted sheet draws the same card."""
    n_cards = C.speed.shape[0]
    held = np.zeros(n_cards, np.bool_)
    if C.ent_rules[R_SUMMON_POOL] == 0:
        for t in range(team_cards.shape[0]):
            for k in range(team_cards.shape[1]):
                held[team_cards[t, k]] = True
    n_pool = n_cards - held.sum()
    if n_pool == 0:
        held[:] = False
        n_pool = n_cards
    out = np.empty(team_cards.shape[0], np.int64)
    for t in range(team_cards.shape[0]):
        s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
        r, s0, s1, s2, s3 = roll(n_pool, s0, s1, s2, s3)
        rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
        for c in range(n_cards):
            if not held[c]:
                r -= 1
                if r == 0:
                    out[t] = c
                    break
    return out


@njit
def _plan(S, C, team_cards, rng):
    """What this game's spare rows hold: each vehicle's start space (-1: not on the board), each
    team's summoned card (-1: no summons in play), whether assists are in play, and the number
    of spare rows."""
    cap = C.ent_rules[R_MAX_MINIONS]
    n_v = C.vehicles.shape[0]
    veh = np.full(n_v, -1, np.int64)
    rows = 0
    for v in range(n_v):
        veh[v] = _vehicle_space(S, C.vehicles[v, V_TILE])
        if veh[v] >= 0:
            rows += 1
    summon = np.full(team_cards.shape[0], -1, np.int64)
    if _content_grants(S, L.OP_SUMMON_CARD, L.OP_TILE_SUMMON):
        summon = _draw_summons(C, team_cards, rng)
    assists = _content_grants(S, L.OP_ASSIST, L.OP_TILE_ASSIST) and C.assists.shape[0] > 0
    fx = C.effects
    for t in range(team_cards.shape[0]):
        for k in range(team_cards.shape[1]):
            c = team_cards[t, k]
            rows += C.characters[c] * _minion_rows(fx[c, L.FX_OP], fx[c, L.FX_COUNT],
                                                   fx[c, L.FX_CHARGES], cap)
        c = summon[t]
        if c >= 0:
            rows += C.characters[c] * (1 + _minion_rows(fx[c, L.FX_OP], fx[c, L.FX_COUNT],
                                                        fx[c, L.FX_CHARGES], cap))
        if assists:
            for a in range(C.assists.shape[0]):
                ab = C.assists[a, A_FX:]
                rows += 1 + _minion_rows(ab[0], ab[L.FX_COUNT], ab[L.FX_CHARGES], cap)
    return veh, summon, assists, rows


@njit
def _card_row(ent, e, C, c, team):
    """Row ``e`` as a character of card ``c``, not yet alive nor placed: the teams' own
    characters (``new_game._init_game``) and a summoned 6th card."""
    ent.team[e] = team
    ent.card[e] = c
    ent.max_health[e] = C.max_health[c]
    ent.space[e] = -1
    ent.speed[e] = C.speed[c]
    ent.range[e] = C.range[c]
    ent.defense[e] = C.defense[c]
    ent.suit[e] = C.suit[c]
    ent.home[e] = -1
    for j in range(4):
        ent.atk[e, j] = C.attacks[c, j]
        ent.tier[e, j] = C.tier[c, j]
    for j in range(C.effects.shape[1]):  # the card's effect row (docs/effects.md)
        ent.ab[e, j] = C.effects[c, j]
    ent.charges_left[e] = C.effects[c, L.AB_CHARGES - L.AB]
    # mobility with free_water: "allow you to 'Freely Cross Water'"
    if C.effects[c, L.FX_OP] == L.OP_MOBILITY and C.effects[c, L.FX_FLAG] != 0:
        ent.free_water[e] = 1


@njit
def _fill_spare(S, C, team_cards, ent, n_cpu, veh, summon, assists, g):
    """Mark the rows ``new_game._init_game`` made (KIND, GROUP: each card's first row + 1, the one
    stat pool of a multi-character card) and fill the spare rows after them (``_plan``)."""
    cap = C.ent_rules[R_MAX_MINIONS]
    e = 0
    for t in range(team_cards.shape[0]):
        for k in range(team_cards.shape[1]):
            first = e
            for _ in range(C.characters[team_cards[t, k]]):
                ent.group[e] = first + 1
                e += 1
    for _ in range(n_cpu):
        ent.kind[e] = L.K_CPU
        e += 1
    g.spare = e
    g.minion_speed = C.ent_rules[R_MINION_SPEED]
    g.minion_range = C.ent_rules[R_MINION_RANGE]
    g.minion_defense = C.ent_rules[R_MINION_DEFENSE]
    g.veh_first = e
    e = _vehicle_rows(ent, e, C, veh)
    g.veh_n = e - g.veh_first
    e = _summoned_rows(ent, e, C, summon)
    if assists:
        e = _assist_rows(ent, e, C, team_cards.shape[0])
    return _minion_rows_of_all(ent, e, cap)


@njit
def _vehicle_rows(ent, e, C, veh):
    """The vehicles' rows from row ``e`` on ("All vehicles can only be spawned 1 time": now, or
    never); the next free row."""
    for v in range(veh.shape[0]):
        if veh[v] < 0:
            continue
        ent.kind[e] = L.K_VEHICLE
        ent.slot[e] = v
        ent.team[e] = L.NO_TEAM  # nobody's until boarded; it never takes a turn itself
        ent.card[e] = -1
        ent.alive[e] = 1
        ent.health[e] = C.vehicles[v, V_HEALTH]
        ent.max_health[e] = C.vehicles[v, V_HEALTH]
        ent.speed[e] = C.vehicles[v, V_SPEED]
        ent.speed_left[e] = C.vehicles[v, V_SPEED]
        ent.defense[e] = C.vehicles[v, V_DEFENSE]
        ent.space[e] = veh[v]
        ent.home[e] = -1
        ent.suit[e] = -1
        ent.done[e] = 1
        ent.range[e] = C.vehicles[v, V_RANGE]
        for j in range(4):  # its weapon, one attack on every point of its star (0: none)
            ent.atk[e, j] = C.vehicles[v, V_ATTACKS]
            ent.tier[e, j] = C.vehicles[v, V_TIER]
        e += 1
    return e


@njit
def _summoned_rows(ent, e, C, summon):
    """Each team's summoned 6th card (``summon[t]``, -1: none), dormant until a reward brings
    it in; the next free row."""
    for t in range(summon.shape[0]):
        c = summon[t]
        if c < 0:
            continue
        first = e
        for _ in range(C.characters[c]):
            _card_row(ent, e, C, c, t)
            ent.kind[e] = L.K_SUMMONED
            ent.dormant[e] = 1
            ent.group[e] = first + 1
            ent.done[e] = 1
            e += 1
    return e


@njit
def _assist_rows(ent, e, C, n_teams):
    """Every assist character of the Index for every team, dormant until called; the next
    free row."""
    for t in range(n_teams):
        for a in range(C.assists.shape[0]):
            ent.kind[e] = L.K_ASSIST
            ent.slot[e] = a
            ent.team[e] = t
            ent.card[e] = -1
            ent.dormant[e] = 1
            ent.done[e] = 1
            ent.space[e] = -1
            ent.home[e] = -1
            ent.suit[e] = -1
            ent.max_health[e] = C.assists[a, A_HEALTH]
            ent.speed[e] = C.assists[a, A_SPEED]
            ent.range[e] = C.assists[a, A_RANGE]
            ent.defense[e] = C.assists[a, A_DEFENSE]
            for j in range(4):  # one attack: every point of its star (like a CPU's)
                ent.atk[e, j] = C.assists[a, A_ATTACKS]
                ent.tier[e, j] = C.assists[a, A_TIER]
            for j in range(L.FX_SLOTS):
                ent.ab[e, j] = C.assists[a, A_FX + j]
            ent.charges_left[e] = ent.ab_charges[e]
            e += 1
    return e


@njit
def _minion_rows_of_all(ent, e, cap):
    """Every summoner's minion rows after row ``e`` ("controlled by that character's team"),
    at most ``cap`` each; the number of rows used."""
    n = e
    for o in range(n):
        k = _minion_rows(ent.ab_op[o], ent.ab_count[o], ent.ab_charges[o], cap)
        for _ in range(k):
            ent.kind[e] = L.K_MINION
            ent.owner[e] = o + 1
            ent.team[e] = ent.team[o]
            ent.card[e] = ent.card[o]
            ent.dormant[e] = 1
            ent.done[e] = 1
            ent.space[e] = -1
            ent.home[e] = -1
            ent.suit[e] = -1
            e += 1
    return e
