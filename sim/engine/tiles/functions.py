"""Tile functions in play: rewards bought with ticks, interactables, tile economies, and the
targets of tile swaps and transforms (issue #5 item 3; design: docs/tiles.md).

Book: "A Tile Reward is a reward a character gets by ending their turn in a tile. Some rewards
... require several turns in a row, of ending a turn, in the same tile"; "Progress towards a tile
reward is tracked with Ticks, counted separately for each character"; "Ticks are spent at the end
of your turn in the relevant tile. The reward's price in ticks disappears in exchange for the
reward itself"; "Redeeming a reward removes only the number of ticks that reward costs. Any ticks
a character has banked beyond that price stay with them"; "All of a character's ticks in a tile
disappear at once if they interrupt the string of consecutive turns ended in that tile";
"Interactables are portions of a tile that can be interacted with by spending an action, from
within 1 range of the interactable piece ... or the tile itself".

State: a character's ticks and the catalogue tile they are banked in (``TICKS``, ``TICK_TILE``:
the tile, not the position, so a swap that carries the character along keeps its string; a
second pair ``TICKS_2ND``, ``TICK_TILE_2ND`` for a turn ended on a portal piece, in two tiles), the
teams' coins (``g.coins[team]``), the tiles' states (``State.tiles``); the functions are effect
rows of ``S.tile_fx`` (``fx_table.py``) run by ``interpreter._run_effect``.
"""

from __future__ import annotations


from sim._jit import njit
from sim.catalogue.tile_layout import INTERACT

from sim.engine.state import fields as L
from sim.engine.state.game_state import new_tiles
from sim.engine.effects.ability_effects import _tile_revive_target
from sim.engine.effects.interpreter import _run_effect, _teleport_targets
from sim.engine.log.events import _log
from sim.engine.tiles.live_board import (APOCALYPSE, GRID, _far_tile, _middle, _space_cell,
                                         _tile_at, _tile_seen_from)
from sim.engine.tiles.swap_in_play import _transform_choice
from sim.engine.tiles.paused import _paused
from sim.engine.tiles.fx_table import TF_FEATURE, TF_PIECE, TF_PRICE, TF_SIZE, TF_SUIT

WATER_FLAG = 2   # sim.board.graph: a sight step over water (range penalty)
CROSS = 1        # a sight step across a tile boundary (range penalty)


@njit
def _init_tiles(S):
    """The tiles' state when a game starts (``State.tiles``, records of ``fields.TILE_DTYPE``):
    the start board's tile distance, the tile and suit at every position, no tile deactivated or
    frozen."""
    out = new_tiles()
    out.dist[:] = S.pos_dist
    for p in range(49):
        t = S.pos_tile[p]
        out.tile[p] = t
        out.suit[p] = S.tile_fx[2 * t, TF_SUIT] if t >= 0 else -1
        out.off_by[p] = -1
        out.frozen_by[p] = -1
    return out


# ------------------------------------------------------------------------------ tile rewards

@njit
def _break_string(st, ticks, tiles, c):
    """"All of a character's ticks in a tile disappear at once if they interrupt the string":
    the string held in ``ticks``/``tiles`` (``ent.ticks``/``ent.tick_tile`` or the second
    string's pair)."""
    if tiles[c] != 0:
        if ticks[c] != 0:
            _log(st, L.EV_TICKS, c, tiles[c] - 1, 0, -1, 0, 0)
        ticks[c] = 0
        tiles[c] = 0


@njit
def _use_extra_action(st, c):
    """An extra action won ("one extra action next turn") is taken when the character would end
    that turn having acted: its action comes back instead (house ruling); unused, it is lost
    when that turn ends."""
    ent = st.ent
    if ent.extra_left[c] == 0:
        return False
    turn = st.game.turns[ent.team[c]]
    if ent.extra_turn[c] < turn:
        ent.extra_left[c] = 0
        ent.extra_turn[c] = 0
        return False
    if ent.extra_turn[c] == turn and ent.acted[c] != 0:
        ent.extra_left[c] -= 1
        ent.acted[c] = 0
        ent.done[c] = 0
        _log(st, L.EV_EXTRA_ACTION, c, ent.extra_left[c], 1, 0, 0, 0)
        if ent.extra_left[c] == 0:
            ent.extra_turn[c] = 0
        return True
    return False


@njit
def _reward_tile(st, S, p):
    """The catalogue tile at position p when it has a reward (-1: none, or no tile)."""
    t = _tile_at(st, S, p) if p >= 0 else -1
    return t if t >= 0 and S.tile_fx[2 * t, L.FX_OP] != 0 else -1


@njit
def _end_turn_tile(st, S, c):
    """``c`` ends its turn: a tick in each reward tile it stands in, the reward when the ticks
    reach its price. Only characters earn ticks ("Minions cannot receive tile rewards").

    On a portal piece it stands in two tiles, its own and the far piece's (R4:S5 "An entity
    standing on either component is treated as standing on both components at the same time";
    "Both spaces apply in full"), so it ends its turn in both: a string in each (the second
    string's columns, ``fields.TICKS_2ND``). A string in neither tile is interrupted (a tile
    without a reward interrupts too); a deactivated or frozen tile pauses its string (no tick,
    the ticks banked in it stay: "paused until the deactivation is removed")."""
    ent = st.ent
    s = ent.space[c]
    if s < 0 or ent.is_cpu[c] != 0 or ent.kind[c] > L.K_SUMMONED:
        return
    p = st.tile_pos[s]
    t = _reward_tile(st, S, p)
    q = _far_tile(st, s)
    u = _reward_tile(st, S, q) if q != p else -1
    for second in (False, True):
        ticks = ent.ticks_2nd if second else ent.ticks
        tiles = ent.tick_tile_2nd if second else ent.tick_tile
        if tiles[c] != 0 and tiles[c] != t + 1 and tiles[c] != u + 1:
            _break_string(st, ticks, tiles, c)
    if t >= 0:
        _tick(st, S, c, t, p)
    if u >= 0:
        _tick(st, S, c, u, q)


@njit
def _tick(st, S, c, t, p):
    """A tick for ``c`` in reward tile ``t`` (at position p) unless the tile is paused, on the
    string already banked there or a free one; the reward when the ticks reach its price."""
    if _paused(st, p):
        return
    ent = st.ent
    second = ent.tick_tile_2nd[c] == t + 1 or (ent.tick_tile[c] != t + 1
                                                and ent.tick_tile[c] != 0)
    ticks = ent.ticks_2nd if second else ent.ticks
    tiles = ent.tick_tile_2nd if second else ent.tick_tile
    tiles[c] = t + 1
    ticks[c] += 1
    price = S.tile_fx[2 * t, TF_PRICE]
    _log(st, L.EV_TICKS, c, t, ticks[c], price, 0, 0)
    if ticks[c] >= price:  # "Ticks are spent at the end of your turn in the relevant tile"
        st.game.fx_ok = 1
        op = _run_effect(st, S, c, c, L.FX_TILE, 2 * t)
        if st.game.fx_ok != 0:  # the reward given: "The reward's price in ticks disappears"
            ticks[c] -= price
            _log(st, L.EV_REWARD, c, t, op, ticks[c], 0, 0)


# ------------------------------------------------------------------------------ interactables

@njit
def _interactable(st, S, c):
    """The function row of the interactable ``c`` can reach now (-1: none): its own tile's, or
    on a portal piece the far piece's tile's (R4:S5 "An entity standing on either component is
    treated as standing on both components at the same time": within 1 range of either)."""
    s = st.ent.space[c]
    if s < 0:
        return -1
    k = _interactable_from(st, S, s)
    far = st.twin[s]
    return k if k >= 0 or far < 0 else _interactable_from(st, S, far)


@njit
def _interactable_from(st, S, s):
    """The function row of the interactable reachable from space ``s`` (-1: none): its tile's,
    when the tile is not paused and ``s`` is within 1 range of an interactable piece (on it, or
    one step of line of sight with no range penalty: a boundary or water costs more than 1), or
    anywhere in the tile when the interactable is the tile itself."""
    p = st.tile_pos[s]
    if p < 0:
        return -1
    t = _tile_at(st, S, p)
    if t < 0:
        return -1
    k = 2 * t + 1
    fx = S.tile_fx
    if fx[k, L.FX_OP] == 0 or _paused(st, p):
        return -1
    if fx[k, TF_PIECE] == 0:
        return k
    if fx[k, TF_FEATURE + _space_cell(s)] == INTERACT:
        return k
    nbr = st.sight_nbr  # hoisted: a field read in the loop would be a load through a pointer
    flag = st.sight_flag
    tile_pos = st.tile_pos
    for d in range(8):
        x = nbr[s, d]
        if (x >= 0 and flag[s, d] & (CROSS | WATER_FLAG) == 0 and tile_pos[x] == p
                and fx[k, TF_FEATURE + _space_cell(x)] == INTERACT):
            return k
    return -1


@njit
def _legal_interact(st, S, c, mask, base):
    """Mark ``base + s`` for each space ``c`` may act on through the interactable within 1 range
    (the space the effect targets; its own space for an effect on itself); return how many.
    Needs the action ("by spending an action") and the team's coins for its price."""
    ent = st.ent
    g = st.game
    st.decision.interactable = -1
    if ent.acted[c] != 0 or ent.frozen[c] != 0:
        return 0
    k = _interactable(st, S, c)
    st.decision.interactable = k  # for the policies: no second search this decision
    if k < 0 or g.coins[ent.team[c]] < S.tile_fx[k, TF_PRICE]:
        return 0
    fx = S.tile_fx
    op = fx[k, L.FX_OP]
    if fx[k, L.FX_TARGET] != L.T_SPACE:
        if op == L.OP_LEARN and _nothing_to_learn(st, ent.team[c]):
            return 0
        if op == L.OP_REVIVE and _tile_revive_target(st, S, c) < 0:  # no one to bring back
            return 0
        mask[base + ent.space[c]] = True
        return 1
    if op == L.OP_MOBILITY:
        return _teleport_targets(st, c, fx[k, L.FX_AMOUNT], base, mask, False)
    p = _tile_seen_from(st, S, ent.space[c], k // 2)  # targets counted from that tile
    if op == L.OP_TILE_STATE:
        return _state_targets(st, S, p, fx[k, L.FX_RANGE], base, mask)
    return _control_targets(st, S, c, p, fx[k, L.FX_RANGE], fx[k, L.FX_FLAG], fx[k, L.FX_STAT],
                            base, mask)


@njit
def _apply_interact(st, S, c, s):
    """``c`` uses the interactable within 1 range on space ``s``: it spends its action and the
    price in its team's coins ("Any intangible spending power gained from a Tile can be used by
    any member of your team"), then the effect runs."""
    ent = st.ent
    k = _interactable(st, S, c)
    team = ent.team[c]
    ent.acted[c] = 1
    price = S.tile_fx[k, TF_PRICE]
    if price > 0:
        st.game.coins[team] -= price
        _log(st, L.EV_COINS, team, -price, st.game.coins[team], c, 0, 0)
    _log(st, L.EV_INTERACT, c, k // 2, S.tile_fx[k, L.FX_OP], s, 0, 0)
    t = c if S.tile_fx[k, L.FX_TARGET] != L.T_SPACE else ent.shape[0] + s
    st.game.fx_ok = 1
    _run_effect(st, S, c, t, L.FX_TILE, k)


# ------------------------------------------------------------------------------ tile targets

@njit(inline="always")
def _tiles_apart(p, q):
    """Tiles between two positions (a king's distance on the 7×7 grid: a "Tile Radius" is a
    square area of tiles)."""
    return max(abs(p // GRID - q // GRID), abs(p % GRID - q % GRID))


@njit
def _state_targets(st, S, p, rng, base, mask):
    """Tiles within ``rng`` tiles of p that can be deactivated or frozen (any tile on the board;
    the face-down Apocalypse and voids are none): ``base + middle space``."""
    count = 0
    for q in range(GRID * GRID):
        if _tiles_apart(p, q) <= rng and _tile_at(st, S, q) >= 0:
            mask[base + _middle(q)] = True
            count += 1
    return count


@njit
def _control_targets(st, S, c, p, rng, mode, same_size, base, mask):
    """Mark ``base + middle space`` of every tile within ``rng`` tiles of p that the tile at p
    may swap with (``mode`` 0; ``same_size``: only a tile of its size) or that may be
    transformed (``mode`` 1). The Apocalypse "cannot be ... transformed, tile-swapped over"
    (face-down or revealed: "cannot be transformed or removed by Players"), nor can a void."""
    apoc = S.ip[L.P_APOC_POS]
    a = _tile_at(st, S, p) if p >= 0 else -1
    if a < 0 or p == apoc:
        return 0
    if mode != 0 and _transform_choice(st, S, c, False) < 0:
        return 0
    fx = S.tile_fx
    count = 0
    for q in range(GRID * GRID):
        if q == apoc or _tiles_apart(p, q) > rng or st.tiles.tile[q] == APOCALYPSE:
            continue
        b = _tile_at(st, S, q)
        if b < 0:
            continue
        if mode == 0 and (q == p or (same_size != 0 and fx[2 * a, TF_SIZE] != fx[2 * b, TF_SIZE])):
            continue
        mask[base + _middle(q)] = True
        count += 1
    return count


@njit
def _ability_control_targets(st, S, c, base, mask):
    """The tile_control ability's targets: its own tile swaps (``mode`` 0) or a tile is
    transformed (``mode`` 1) within ``range`` tiles."""
    ent = st.ent
    p = st.tile_pos[ent.space[c]]
    return _control_targets(st, S, c, p, ent.ab_range[c], ent.ab_flag[c], ent.ab_stat[c],
                            base, mask)


@njit
def _knows_apocalypse(st, team):
    """Whether ``team`` has learned the face-down Apocalypse (a tile's ``learn``)."""
    return team >= 0 and (st.game.knows >> team) & 1 != 0


@njit
def _nothing_to_learn(st, team):
    """A ``learn`` effect would teach ``team`` nothing: it knows the Apocalypse, or all do."""
    return st.game.revealed != 0 or _knows_apocalypse(st, team)
