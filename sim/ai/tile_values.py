"""Greedy's values of the tile functions, in health units (the unit of ``sim.ai.values``).

Why per position, once per decision: greedy scores every reachable space in its hottest kernel
(``position_values._position_scores``); the tiles' worth to the deciding character is folded
with the Homefield term into one ``float64[49]`` per decision (:func:`_pos_bonus`), so a space
costs the one lookup the Homefield test cost before. A reward tile is worth its reward times the
share of the price the next tick pays (``worth * (ticks + 1) / price`` where the character's
string runs, ``worth / price`` where one would start): staying on a tile where ticks are banked
is worth more than walking off, which would lose them ("All of a character's ticks in a tile
disappear at once if they interrupt the string"). Worths: a heal by the health it restores, a
buff (permanent: "All buffs a tile gives you are permanent") as a permanent stat point a point, a
revive as the ability's (for the teammate the rules would bring back),
the other effects by ``cards/tiles.toml [greedy]`` (``TF_WORTH``).

Interactables and the tile_control ability are actions (:func:`_best_tile_action`): an effect on
the user by its worth less the coins it costs; deactivating a tile by the ticks it denies to
opponents banking there, freezing one like the freeze ability on each entity in it (opponents
count for, teammates against); a swap of the user's tile like a long move (closing on the
nearest opponent, leaving or entering a coordinate announced for destruction); a transform by
the Homefield it gives or takes away. A launch (the slingshot: a mobility interactable) is a
move that spends the action: :func:`_launch` lists where it may land and its price, and greedy
scores the destinations by position, as it scores a teleport's.
"""

from __future__ import annotations

from sim._jit import njit
from sim.combat.star import BASE
from sim.engine.state import fields as L
from sim.engine.rules.attack import _threshold
from sim.engine.items.holding import _hands_full, _pool
from sim.engine.rules.actions import _ability_space_base, _interact_base
from sim.engine.rules.live_movement import _linked_tile
from sim.engine.tiles.live_board import GRID, SPAN, _middle, _position_of, _tile_at
from sim.engine.tiles.swap_in_play import _shift, _transform_choice
from sim.engine.tiles.paused import _paused
from sim.engine.tiles.fx_table import TF_COIN, TF_PRICE, TF_SUIT, TF_WORTH
from sim.engine.effects.ability_effects import _tile_revive_target
from sim.engine.tiles.functions import _nothing_to_learn

from .values import _kill_table, _spaces_within


@njit(inline="always")
def _worth(op, amount, flag, worth, w_damage, missing, buffed, knows, hands_full):
    """A reward's worth from scalars only: no array crosses the call, so scoring 49 positions
    costs no reference counting (docs/performance.md). A tile's buff is permanent (the book:
    "All buffs a tile gives you are permanent"): worth a permanent stat point a point
    (``[greedy] stat_point``, in ``worth``), nothing while a buff is held (it would replace it:
    "one buff at a time")."""
    if op == L.OP_HEAL:
        healed = min(amount, missing)
        extra = amount - healed if flag != 0 else 0
        return w_damage * (healed + extra)
    if op == L.OP_BUFF:
        return 0.0 if buffed else worth / 100.0
    if (op == L.OP_LEARN and knows) or (op == L.OP_ITEM_REWARD and hands_full):
        return 0.0  # an item is worth it only with a free hand (else it lands on the floor)
    return worth / 100.0


@njit
def _revive_worth(st, S, c):
    """A tile's revive, to ``c``: as the ability's (a kill undone plus the health returned) for
    the teammate the rules would bring back now; nothing when none would come back."""
    e = _tile_revive_target(st, S, c)
    return 0.0 if e < 0 else S.fp[L.W_KILL] + S.fp[L.W_DAMAGE] * st.ent.max_health[e]


@njit
def _reward_worth(st, S, c, k):
    """What function row ``k`` is worth to ``c`` now, in health units."""
    ent = st.ent
    fx = S.tile_fx
    if fx[k, L.FX_OP] == L.OP_REVIVE:
        return _revive_worth(st, S, c)
    return _worth(fx[k, L.FX_OP], fx[k, L.FX_AMOUNT], fx[k, L.FX_FLAG], fx[k, TF_WORTH],
                  S.fp[L.W_DAMAGE], ent.max_health[c] - ent.health[c], ent.buff[c] != 0,
                  _nothing_to_learn(st, ent.team[c]), _hands_full(S, ent, _pool(ent, c)))


@njit
def _pos_bonus(st, S, c):
    """Per grid position, what standing there at the end of the turn is worth to ``c``:
    Homefield (the tile's suit now: swaps move suits) plus the reward's share. The character's
    side of each reward's worth is read once; the loop reads only local arrays. Written into the
    decision's ``pos_base`` scratch (state/decision.py), which it returns."""
    ent = st.ent
    fx = S.tile_fx
    tiles = st.tiles
    out = st.decision.pos_base
    suit = ent.suit[c]
    fp = S.fp
    w_home = fp[L.W_HOMEFIELD]
    w_damage = fp[L.W_DAMAGE]
    banked, ticks_banked = ent.tick_tile[c] - 1, ent.ticks[c]
    banked_2nd, ticks_2nd = ent.tick_tile_2nd[c] - 1, ent.ticks_2nd[c]  # (a portal's two tiles)
    missing = ent.max_health[c] - ent.health[c]
    buffed = ent.buff[c] != 0
    knows = _nothing_to_learn(st, ent.team[c])
    hands_full = _hands_full(S, ent, _pool(ent, c))
    for p in range(GRID * GRID):  # every entry written (no clearing pass first)
        out[p] = w_home if suit >= 0 and tiles.suit[p] == suit else 0.0
        t = tiles.tile[p]
        if t < 0 or fx[2 * t, L.FX_OP] == 0:
            continue
        # deactivated or frozen: a call only for a tile that ever was (both columns 0 otherwise)
        if (tiles.off[p] != 0 or tiles.frozen[p] != 0) and _paused(st, p):
            continue
        k = 2 * t
        price = fx[k, TF_PRICE]
        ticks = ticks_banked + 1 if banked == t else (ticks_2nd + 1 if banked_2nd == t else 1)
        op = fx[k, L.FX_OP]
        if op == L.OP_REVIVE:  # (a call only for a revive: it looks at the team's dead)
            worth = _revive_worth(st, S, c)
        else:
            worth = _worth(op, fx[k, L.FX_AMOUNT], fx[k, L.FX_FLAG], fx[k, TF_WORTH], w_damage,
                           missing, buffed, knows, hands_full)
        out[p] += worth * min(ticks, price) / price
    return out


@njit
def _freeze_worth(st, S, c, p, duration):
    """Freezing the tile at p: each opponent's expected attack per turn lost (as the freeze
    ability), each teammate's counted against."""
    ent = st.ent
    fp = S.fp
    team = ent.team[c]
    score = 0.0
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if ent.alive[e] == 0 or s < 0 or st.tile_pos[s] != p or ent.atk[e, BASE] <= 0:
            continue
        _, em = _kill_table(S, ent.atk[e, BASE], _threshold(S, ent.defense[c]), ent.tier[e, BASE],
                            ent.health[c])
        value = fp[L.W_DAMAGE] * em * duration
        if ent.team[e] == team:
            score -= value
        elif ent.frozen[e] == 0:
            score += value * (1.0 if ent.is_cpu[e] == 0 else fp[L.W_CPU_VALUE])
    return score


@njit
def _deactivate_worth(st, S, c, p):
    """Deactivating the tile at p: the tick each opponent banking there would earn, denied."""
    ent = st.ent
    t = _tile_at(st, S, p)
    if t < 0 or S.tile_fx[2 * t, L.FX_OP] == 0 or _paused(st, p):
        return 0.0
    price = S.tile_fx[2 * t, TF_PRICE]
    score = 0.0
    for e in range(ent.shape[0]):
        if ent.alive[e] != 0 and (ent.tick_tile[e] == t + 1 or ent.tick_tile_2nd[e] == t + 1):
            v = _reward_worth(st, S, e, 2 * t) / price
            score += -v if ent.team[e] == ent.team[c] else v
    return score


@njit
def _gap(st, S, c, here, p, q, moved_p, moved_q):
    """``c``'s distance beyond its range to the nearest opponent character when standing on
    ``here``, entities in position p shifted by ``moved_p`` and in q by ``moved_q``; or short of
    the least range of an attack (``attack_own_space = false``: greedy's approach term,
    ``position_values._position_scores``)."""
    ent = st.ent
    near = 1 << 30
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if (ent.alive[e] == 0 or s < 0 or ent.is_cpu[e] != 0
                or ent.team[e] == ent.team[c]):
            continue
        pos = _position_of(s)
        if pos == p:
            s += moved_p
        elif pos == q:
            s += moved_q
        near = min(near, max(abs(s // SPAN - here // SPAN), abs(s % SPAN - here % SPAN)))
    if near == 1 << 30:
        return 0
    return max(near - ent.range[c], 0) + max(S.ip[L.P_CLOSEST] - near, 0)


@njit
def _swap_worth(st, S, c, q, before):
    """Swapping ``c``'s tile to position q: like a long move of everyone in it. ``before``:
    ``c``'s gap to the nearest opponent now (:func:`_gap` with nothing moved), the same for
    every q, so a caller scoring many positions computes it once."""
    ent = st.ent
    fp = S.fp
    here = ent.space[c]
    p = st.tile_pos[here]
    d = _shift(p, q)
    after = _gap(st, S, c, here + d, p, q, d, -d)
    score = fp[L.W_APPROACH] * (before - after)
    if st.pos_state[p] == L.ANNOUNCED:  # the tile leaves a doomed coordinate
        score += fp[L.W_DOOMED]
    if st.pos_state[q] == L.ANNOUNCED:
        score -= fp[L.W_DOOMED]
    return score


@njit
def _transform_worth(st, S, c, q, n):
    """Transforming the tile at q: Homefield gained or lost by whoever stands in it (only when
    the tile brought is known: one of the user's suit). ``n``: the tile it would bring
    (``_transform_choice`` without a draw), the same for every q."""
    ent = st.ent
    if n < 0 or S.tile_fx[2 * n, TF_SUIT] != ent.suit[c]:
        return 0.0
    new_suit = S.tile_fx[2 * n, TF_SUIT]
    old_suit = st.tiles.suit[q]
    score = 0.0
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if ent.alive[e] == 0 or s < 0 or st.tile_pos[s] != q or ent.suit[e] < 0:
            continue
        change = (1 if ent.suit[e] == new_suit else 0) - (1 if ent.suit[e] == old_suit else 0)
        score += change if ent.team[e] == ent.team[c] else -change
    return S.fp[L.W_HOMEFIELD] * score


@njit
def _space_context(st, S, c, op, flag):
    """What :func:`_space_worth_in` reads that does not depend on the space: a swap's gap
    before it (``_gap`` with nothing moved) and the tile a transform brings. Computed once per
    decision: scoring 49 tile middles used to find the same tile 49 times (an allocation each)
    and the same gap 49 times."""
    before, brought = 0, -1
    if op == L.OP_TILE_CONTROL:
        if flag == 0:
            here = st.ent.space[c]
            before = _gap(st, S, c, here, st.tile_pos[here], -1, 0, 0)
        else:
            brought = _transform_choice(st, S, c, False)
    return before, brought


@njit
def _space_worth_in(st, S, c, op, flag, duration, s, before, brought):
    """The worth of an effect aimed at space s (the middle of a tile for tile effects), given
    its context (:func:`_space_context`)."""
    q = _position_of(s)
    if op == L.OP_TILE_STATE:  # the portal-linked tile is paused too (paused._set_tile_state)
        worth = 0.0
        for p in (q, _linked_tile(st, q)):
            if p >= 0:
                worth += (_freeze_worth(st, S, c, p, duration) if flag != 0
                          else _deactivate_worth(st, S, c, p))
        return worth
    if op == L.OP_TILE_CONTROL:
        return (_swap_worth(st, S, c, q, before) if flag == 0
                else _transform_worth(st, S, c, q, brought))
    return 0.0


@njit
def _best_tile_action(st, S, c, mask):
    """Greedy's best use of the interactable within reach or of the tile_control ability:
    (score, action), (0.0, -1) when none is worth anything."""
    ent = st.ent
    n = st.kind.shape[0]
    m = ent.shape[0]
    best = 0.0
    best_a = -1
    k = st.decision.interactable  # the interactable within reach this decision (legal._legal)
    if k >= 0:
        fx = S.tile_fx
        base = _interact_base(n, m)
        cost = fx[k, TF_PRICE] * fx[k, TF_COIN] / 100.0
        if fx[k, L.FX_TARGET] != L.T_SPACE:
            a = base + ent.space[c]
            if mask[a]:
                sc = _reward_worth(st, S, c, k) - cost
                if sc > best:
                    best, best_a = sc, a
        elif fx[k, L.FX_OP] != L.OP_MOBILITY:
            best, best_a = _best_middle(st, S, c, mask, base, fx[k, L.FX_OP], fx[k, L.FX_FLAG],
                                        fx[k, L.FX_DURATION], cost, best, best_a)
    if ent.ab_op[c] == L.OP_TILE_CONTROL and ent.ab_used[c] == 0:
        best, best_a = _best_middle(st, S, c, mask, _ability_space_base(n, m), L.OP_TILE_CONTROL,
                                    ent.ab_flag[c], 0, 0.0, best, best_a)
    return best, best_a


@njit
def _best_middle(st, S, c, mask, base, op, flag, duration, cost, best, best_a):
    """The tile middle ``s`` whose action ``base + s`` ``mask`` allows and whose worth less
    ``cost`` beats ``best``, as (score, action); else (best, best_a). Ties keep the earlier."""
    ready, before, brought = False, 0, -1
    for q in range(GRID * GRID):
        s = _middle(q)
        if mask[base + s]:
            if not ready:  # the context once, and only when some middle is legal
                ready = True
                before, brought = _space_context(st, S, c, op, flag)
            sc = _space_worth_in(st, S, c, op, flag, duration, s, before, brought) - cost
            if sc > best:
                best, best_a = sc, base + s
    return best, best_a


@njit(inline="always")
def _is_launch(fx, k):
    """Whether function row ``k`` is a launch: a mobility interactable aimed at a space ("launch
    to any space of the board within 6 spaces")."""
    return fx[k, L.FX_OP] == L.OP_MOBILITY and fx[k, L.FX_TARGET] == L.T_SPACE


@njit
def _launch(st, S, c, mask, k):
    """Where the launch of function row ``k`` (:func:`_is_launch`) may land ``c`` now, and its
    price in coins' worth: greedy scores the landings as moves (``greedy``)."""
    fx = S.tile_fx
    base = _interact_base(st.kind.shape[0], st.ent.shape[0])
    return (_spaces_within(st.ent.space[c], fx[k, L.FX_AMOUNT], base, mask),
            fx[k, TF_PRICE] * fx[k, TF_COIN] / 100.0)
