"""The tile functions' own effects (``OP_GAIN`` .. ``OP_TILE_ASSIST``) and tile_control, one kernel
each (their rows in ``sim/catalogue/effect_table.py``), run by ``interpreter._run_effect`` (which
this module must not import: it calls this one).

| effect | what it does (book sentence) |
|---|---|
| gain | a permanent stat gain: "All buffs a tile gives you are permanent ... none of it is lost if that tile is later deactivated, swapped, or removed" (the stat column itself: nothing reverts it); on every character of a multi-character card ("A stat buff gained by one of them is gained by all of them") |
| item | an item, named or drawn uniformly ("Items are gained primarily through tiles"); with both hands full it lands on the character's space |
| summon_card | "A Summon is when a random 6th character card joins your team ... usually achieved as a tile reward" |
| assist | assist character ``amount`` (cards/assists.toml) joins: "You can only have 1 assist character at a time" |
| extra_action | extra actions in the character's next turn (``functions._use_extra_action``) |
| tile_state | deactivate or freeze the tile around space ``t`` (``paused.py``) |
| earn | coins for the team ("Any intangible spending power gained from a Tile can be used by any member of your team") |
| learn | the team learns the face-down Apocalypse (the look-ahead stops guessing it) |
| tile_control | swap the user's tile with the tile around ``t`` (``flag`` 0) or transform that tile (1) |

``g.fx_ok`` is cleared when the effect could not give what it promised (no room on the floor
for an item, no Summon left, an assist already held, no tile out of play): a reward's ticks are spent only "in exchange for the
reward itself".
"""

from __future__ import annotations

from sim._jit import njit
from sim.combat.star import BASE
from sim.rng import roll

from sim.engine.state import fields as L
from sim.engine.entities.special import _spawn_assist, _summon_card
from sim.engine.entities.timed_states import _add_to_stat
from sim.engine.log.events import _log
from sim.engine.effects.row import _fx
from sim.engine.items.holding import _grant_item, _put_on_floor
from sim.engine.tiles.live_board import _position_of, _tile_seen_from
from sim.engine.tiles.swap_in_play import _swap, _transform, _transform_choice
from sim.engine.tiles.paused import _set_tile_state


@njit
def _gain_one(st, e, stat, amount):
    """A permanent gain of ``amount`` to a stat of ``e`` alone (every point of the star for
    attacks), through the stat floor (``timed_states._add_to_stat``: a stat a de-buff holds at 0
    pays what it owes first)."""
    ent = st.ent
    _add_to_stat(ent, e, stat, amount)
    if stat == L.STAT_SPEED:
        value = ent.speed[e]
    elif stat == L.STAT_RANGE:
        value = ent.range[e]
    elif stat == L.STAT_DEFENSE:  # above 9 is capped when rolling ("The maximum defense ... 9")
        value = ent.defense[e]
    else:
        value = ent.atk[e, BASE]
    _log(st, L.EV_GAIN, e, stat, amount, value, 0, 0)


@njit
def _gain(st, e, stat, amount):
    """A permanent gain to ``e`` and to every other character of its card. Book: a
    multi-character card's characters "share one stat pool and one item pool. A stat buff gained
    by one of them is gained by all of them" (its rows follow one another from ``GROUP - 1``;
    ``timed_states._set_state`` does the same for an ability's buff). The dead of the card gain too
    (house ruling, docs/rulings.md): the pool is the card's, and a revived character comes back
    "as they were" with the card's stats. An entity of no card (GROUP 0) gains alone."""
    ent = st.ent
    _gain_one(st, e, stat, amount)
    grp = ent.group[e]
    if grp <= 0:
        return
    f = grp - 1
    while f < ent.shape[0] and ent.group[f] == grp:
        if f != e:
            _gain_one(st, f, stat, amount)
        f += 1


@njit
def _run_tile_control(st, S, user, target, source, row):
    """Swap the user's tile with the tile around space ``target - M`` (``flag`` 0) or transform that
    tile (1). An interactable's swap moves the interactable's own tile, which may be the far
    piece's when its user stands on a portal (``live_board._tile_seen_from``)."""
    ent = st.ent
    q = _position_of(target - ent.shape[0])
    if _fx(st, S, user, source, row, L.FX_FLAG) == 0:
        s = ent.space[user]
        mine = _tile_seen_from(st, S, s, row // 2) if source == L.FX_TILE else st.tile_pos[s]
        _swap(st, S, mine, q, user)
    else:
        n = _transform_choice(st, S, user, True)
        if n >= 0:
            _transform(st, S, q, n, user)
        else:
            st.game.fx_ok = 0


@njit
def _run_gain(st, S, user, target, source, row):
    _gain(st, target, _fx(st, S, user, source, row, L.FX_STAT),
          _fx(st, S, user, source, row, L.FX_AMOUNT))


@njit
def _run_item_reward(st, S, user, target, source, row):
    """Item ``stat`` (-1: one of the catalogue's, uniformly: a house ruling) for ``target``; with
    both hands full it lands at ``target``'s feet (house ruling)."""
    ent = st.ent
    item = _fx(st, S, user, source, row, L.FX_STAT)
    n_items = S.item_fx.shape[0] - 1  # the item table's last row holds the item rules
    if item < 0 and n_items > 0:
        rng = st.rng
        r, s0, s1, s2, s3 = roll(n_items, rng[0], rng[1], rng[2], rng[3])
        rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
        item = r - 1
    if item < 0 or not (_grant_item(st, S, target, item)
                        or _put_on_floor(st, item, ent.space[target])):
        st.game.fx_ok = 0


@njit
def _run_tile_summon(st, S, user, target, source, row):
    if not _summon_card(st, S, target):
        st.game.fx_ok = 0


@njit
def _run_tile_assist(st, S, user, target, source, row):
    if not _spawn_assist(st, S, target, _fx(st, S, user, source, row, L.FX_AMOUNT)):
        st.game.fx_ok = 0


@njit
def _run_extra_action(st, S, user, target, source, row):
    ent = st.ent
    ent.extra_left[target] += _fx(st, S, user, source, row, L.FX_AMOUNT)
    ent.extra_turn[target] = st.game.turns[ent.team[target]] + 1  # "next turn"
    _log(st, L.EV_EXTRA_ACTION, target, ent.extra_left[target], 0, ent.extra_turn[target], 0, 0)


@njit
def _run_tile_state(st, S, user, target, source, row):
    where = _position_of(target - st.ent.shape[0])
    _set_tile_state(st, S, where, _fx(st, S, user, source, row, L.FX_FLAG),
                    _fx(st, S, user, source, row, L.FX_DURATION), user)


@njit
def _run_earn(st, S, user, target, source, row):
    g = st.game
    team = st.ent.team[user]
    amount = _fx(st, S, user, source, row, L.FX_AMOUNT)
    g.coins[team] += amount
    _log(st, L.EV_COINS, team, amount, g.coins[team], user, 0, 0)


@njit
def _run_learn(st, S, user, target, source, row):
    st.game.knows |= 1 << st.ent.team[user]
