"""Special entities in play: multi-character cards, assist characters, minions, clones, summons,
vehicles (issue #5 item 4; design: docs/entities.md).

Book: "Entity is the broadest term in these rules. It covers characters, assist characters,
minions and CPUs alike". Every entity is a row of ``st.ent``; column ``KIND`` says which
(``fields.K_*``). Rows that enter play later (summoned cards, assists, minions) are made when the
game starts (``special_setup``) and wait with ``DORMANT = 1``; the functions here switch them on
and off and keep the links between rows (``OWNER``: a minion's or clone's creator; ``RIDING`` /
``PILOT``: a character and the vehicle it rides). Links are stored + 1 so a zero row means "none".

Imports only ``layout``, ``events`` and ``states``: ``death._kill`` calls
:func:`_on_death_entities`.
"""

from __future__ import annotations

from sim._jit import njit
from sim.catalogue.items import HAND_SLOTS
from sim.catalogue.tile_layout import FLOOR
from sim.combat.star import BASE

from sim.engine.state import fields as L
from sim.engine.log.events import _log
from sim.engine.entities.timed_states import _cease, _end_state
from sim.engine.tiles.live_board import _first_spawn


# ------------------------------------------------------------------ who is what

@njit
def _has_character(ent, team):
    for e in range(ent.shape[0]):
        if ent.team[e] == team and ent.alive[e] != 0 and ent.kind[e] <= L.K_SUMMONED:
            return True
    return False


@njit(inline="always")
def _teammate_target(ent, c, e):
    """Whether ``e``, of ``c``'s team, may be the target of ``c``'s ally-target ability or
    item: "A Teammate refers to a Character that is on your Team" (a character, a summoned
    card's included; not a minion, assist or vehicle: docs/rulings.md), or ``c`` itself. One
    test for abilities (``legal._legal_sighted``) and items (``use._sighted_item_uses``): the
    items' once let an ally-target item aim at the user's minions."""
    return ent.kind[e] <= L.K_SUMMONED or e == c


@njit(inline="always")
def _ridden_by(ent, v, team):
    """Whether ``v`` is a vehicle ``team`` rides: not its opponent, though not of its team."""
    p = ent.pilot[v]
    return p > 0 and ent.team[p - 1] == team


# ------------------------------------------------------------------ entering and leaving play

@njit
def _enter(st, f, s):
    """Row ``f`` enters play on space ``s`` (-1: to be placed in the Spawn) at full health, with
    no state on it; it acts from its team's next turn (house ruling, as a revive)."""
    ent = st.ent
    ent.alive[f] = 1
    ent.dormant[f] = 0
    ent.health[f] = ent.max_health[f]
    ent.shield[f] = 0
    ent.space[f] = s
    ent.speed_left[f] = ent.speed[f]
    ent.spent[f] = 0
    ent.acted[f] = 0
    ent.ab_used[f] = 0
    ent.done[f] = 1
    ent.riding[f] = 0
    for col in L.TIMED:
        ent.raw[f, col] = 0
        ent.raw[f, col + L.TIMED_BY] = -1
    ent.buff_delta[f] = 0
    ent.debuff_delta[f] = 0
    ent.speed_debt[f] = 0  # its stats as made (a re-used assist's: its states reverted first)
    ent.range_debt[f] = 0
    ent.defense_debt[f] = 0
    for j in range(4):
        ent.atk_debt[f, j] = 0
    for k in range(HAND_SLOTS):  # no held item's stat: "a minion summoned later does not get
        ent.item_delta[f, k] = 0  # it" (its stats are made afresh; a waiting row shared the
        #                           pool's change, which its item leaving would take off again)


@njit
def _vanish(st, f, by):
    """``f`` leaves play without a death: "all of a character's minions disappear if that
    character is killed"; "The Clone dies when the character it was copied from dies"; an
    eliminated team's assist leaves with it. Not a Kill, not in the count of 7."""
    ent = st.ent
    ent.alive[f] = 0
    ent.health[f] = 0
    ent.shield[f] = 0
    ent.done[f] = 1
    _log(st, L.EV_VANISH, f, by, ent.kind[f], ent.space[f], 0, 0)
    _cease(st, f)  # its own effects on others end with it


@njit
def _alight(st, c):
    """``c`` leaves the vehicle it rides (it stays where it is; the vehicle is unoccupied)."""
    ent = st.ent
    v = ent.riding[c] - 1
    if v < 0:
        return
    ent.riding[c] = 0
    ent.pilot[v] = 0
    _log(st, L.EV_ALIGHT, c, v, ent.space[c], 0, 0, 0)


@njit
def _on_death_entities(st, S, e):
    """``e`` died: its vehicle is left unoccupied (or, a vehicle, its pilot is on foot), its
    minions disappear, its clones die with it ("all of a character's minions disappear if that
    character is killed"; "The Clone dies when the character it was copied from dies"); when the
    last character of a team dies its assist leaves ("An assist character does not keep you in
    the game")."""
    ent = st.ent
    g = st.game
    m = ent.shape[0]
    if g.spare >= m:  # no vehicle, summon, assist or minion in this game
        return
    if ent.riding[e] > 0:
        _alight(st, e)
    if ent.kind[e] == L.K_VEHICLE and ent.pilot[e] > 0:
        _alight(st, ent.pilot[e] - 1)
    team = ent.team[e]
    last = team >= 0 and ent.kind[e] <= L.K_SUMMONED and not _has_character(ent, team)
    changed = True
    while changed:  # creators of creators (an assist's minions) in as many passes as needed
        changed = False
        for f in range(g.spare, m):
            if ent.alive[f] == 0:
                continue
            o = ent.owner[f] - 1
            if o >= 0 and ent.alive[o] == 0:
                _vanish(st, f, o)
                changed = True
            elif last and ent.kind[f] == L.K_ASSIST and ent.team[f] == team:
                _vanish(st, f, e)
                changed = True


# ------------------------------------------------------------------ summons and assists

@njit
def _summon_card(st, S, c):
    """``c``'s team summons: "A Summon is when a random 6th character card joins your team. Each
    team is allowed 1 summon per game". The card was drawn when the game started (its rows wait
    dormant); its characters go to the Spawn like the team's first five ("your entire team must
    be placed into your Spawn": the team places them at once), or, when no spawn space stands,
    onto ``c``'s space. Returns whether it happened (a tile reward calls this)."""
    ent = st.ent
    g = st.game
    team = ent.team[c]
    if team < 0 or (g.summons >> team) & 1:
        return False
    spawn = _first_spawn(st, S, team)
    done = False
    for f in range(g.spare, ent.shape[0]):
        if ent.kind[f] == L.K_SUMMONED and ent.team[f] == team and ent.dormant[f] != 0:
            _enter(st, f, -1 if spawn >= 0 else ent.space[c])
            _log(st, L.EV_SPAWN, f, c, ent.space[f], L.K_SUMMONED, 0, 0)
            done = True
    if done:
        g.summons |= 1 << team
    return done


@njit
def _spawn_assist(st, S, c, k):
    """``c``'s team gains assist character ``k`` (cards/assists.toml) on ``c``'s space: "You can
    only have 1 assist character at a time" (none while one lives). Returns whether it
    happened."""
    ent = st.ent
    team = ent.team[c]
    if team < 0:
        return False
    row = -1
    for f in range(st.game.spare, ent.shape[0]):
        if ent.kind[f] != L.K_ASSIST or ent.team[f] != team:
            continue
        if ent.alive[f] != 0:
            return False
        if ent.slot[f] == k:
            row = f
    if row < 0:
        return False
    ent.charges_left[row] = ent.ab_charges[row]  # a new assist: its ability afresh
    for col in (L.BUFF, L.DEBUFF):  # and its stats: what a state left on the dead one reverted
        _end_state(st, row, col)    # (a new Sidekick entered with the old one's de-buff for good)
    _enter(st, row, ent.space[c])
    _log(st, L.EV_SPAWN, row, c, ent.space[c], L.K_ASSIST, 0, 0)
    return True


@njit
def _summon_targets(st, sight, reach, base, mask):
    """Mark ``base + s`` for every floor space within ``reach`` in ``sight`` (the range each
    space needs from the summoner): "Minions are spawned on any space within both the range and
    the line of sight of their creator". Returns how many."""
    kind = st.kind
    tile_pos = st.tile_pos
    count = 0
    for s in range(kind.shape[0]):
        if sight[s] <= reach and kind[s] == FLOOR and tile_pos[s] >= 0:
            mask[base + s] = True
            count += 1
    return count


@njit(inline="always")
def _summon_room(ent, c):
    """Whether ``c`` has a minion row free (fewer than its most minions alive at once)."""
    for f in range(ent.shape[0]):
        if ent.owner[f] == c + 1 and ent.alive[f] == 0:
            return True
    return False


# ------------------------------------------------------------------ vehicles

@njit(inline="always")
def _move_speed(ent, c):
    """The speed ``c``'s next move spends: its vehicle's while it rides one that has speed left
    and is not frozen ("Vehicle speed is entirely separate and distinct from character speed"),
    else its own (walking off, house ruling: it alights)."""
    v = ent.riding[c] - 1
    if v >= 0 and ent.speed_left[v] > 0 and ent.frozen[v] == 0:
        return ent.speed_left[v]
    return ent.speed_left[c]


@njit(inline="always")
def _weapon_ready(ent, c):
    """The vehicle ``c`` rides when an action may be used through it now (-1: none): it has a
    weapon, neither it nor ``c`` has spent its action this turn ("Using that action spends both
    the pilot's action and the vehicle's action"), and it is not frozen ("anything frozen can do
    nothing at all")."""
    v = ent.riding[c] - 1
    if (v >= 0 and ent.atk[v, BASE] > 0 and ent.acted[v] == 0 and ent.acted[c] == 0
            and ent.frozen[v] == 0):
        return v
    return -1


@njit
def _drive(st, c, s, cost):
    """``c`` moves to ``s`` for ``cost``: a pilot whose vehicle can move drives it there
    ("Spending a vehicle's speed does not touch the pilot's") and True is returned; a pilot whose
    vehicle cannot alights and walks (False: the caller spends ``c``'s own speed)."""
    ent = st.ent
    v = ent.riding[c] - 1
    if v < 0:
        return False
    if ent.speed_left[v] > 0 and ent.frozen[v] == 0:
        ent.speed_left[v] -= cost
        _log(st, L.EV_DRIVE, v, c, ent.space[v], s, cost, 0)
        ent.space[v] = s
        return True
    _alight(st, c)
    return False


@njit
def _arrive(st, c):
    """``c`` now stands on a new space (a move, a water crossing, a teleport): the vehicle it
    rides comes along ("its movement rules mirror those of the character occupying it — ...
    teleporting"; a frozen vehicle stays and ``c`` alights: house ruling), or it boards an
    unoccupied vehicle standing there ("If a character is on the same space as an unoccupied
    vehicle, they can board that vehicle. Boarding costs nothing": house ruling, a character
    arriving on its space always boards)."""
    g = st.game
    if g.veh_n == 0:
        return
    ent = st.ent
    here = ent.space[c]
    v = ent.riding[c] - 1
    if v >= 0:
        if ent.frozen[v] != 0:  # "A frozen entity cannot use any of its speed" (house: it
            _alight(st, c)          # stays where it is frozen; its pilot goes on, on foot)
        else:
            if ent.space[v] != here:
                _log(st, L.EV_DRIVE, v, c, ent.space[v], here, 0, 0)
                ent.space[v] = here
            return
    _board_here(st, c)


@njit
def _board_here(st, c):
    """``c``, on foot, boards an unoccupied vehicle on its space: "If a character is on the same
    space as an unoccupied vehicle, they can board that vehicle. Boarding costs nothing — no
    speed and no action" (house ruling: a team's character always boards, arriving there
    (:func:`_arrive`) or standing there as its decision comes (``turn._advance``): a vehicle
    whose pilot it had just killed on their shared space could otherwise be boarded only by
    stepping off and back on, for 2 speed: the audit of stop 69). Not while frozen ("anything
    frozen can do nothing at all") or submerged."""
    g = st.game
    ent = st.ent
    here = ent.space[c]
    if (g.veh_n == 0 or here < 0 or ent.riding[c] != 0 or ent.kind[c] > L.K_SUMMONED
            or ent.frozen[c] != 0 or ent.submerged[c] != 0):
        return
    for v in range(g.veh_first, g.veh_first + g.veh_n):
        if ent.alive[v] != 0 and ent.pilot[v] == 0 and ent.space[v] == here:
            ent.pilot[v] = c + 1
            ent.riding[c] = v + 1
            _log(st, L.EV_BOARD, c, v, here, 0, 0, 0)
            return


@njit
def _begin_turn_entities(st, team):
    """``team``'s turn begins: each vehicle it rides, and each unoccupied one, has its speed and
    its action again ("A vehicle can use all of its speed, and can have 1 action used through it,
    each turn")."""
    g = st.game
    if g.veh_n == 0:
        return
    ent = st.ent
    for v in range(g.veh_first, g.veh_first + g.veh_n):
        p = ent.pilot[v] - 1
        if ent.alive[v] != 0 and (p < 0 or ent.team[p] == team):
            ent.speed_left[v] = ent.speed[v]
            ent.acted[v] = 0
