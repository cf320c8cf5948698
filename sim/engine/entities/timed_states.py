"""Timed states on entities: frozen, invisible, one buff and one de-buff, with their clocks.

Why columns of the entity array: every kernel already holds ``st.ent``, so a state costs one
read where it is enforced (``_legal``, ``_harm``, ``_attack_star``) and nothing elsewhere; a
game's copy (look-ahead) copies them for free. Each state is ``until`` (0 = off) and ``by`` (the
entity that created it); a buff or de-buff also keeps its stat and the change it applied, which
is reverted exactly when it ends, so hot loops read the stats as they are.

Book: "An effect that lasts any amount of turns or rotations is counted from the moment that
created it": ``until`` counts the creator team's turns (``g.turns[t]``) or the rotations
(``rules.toml`` ``effect_clock``), and :func:`_tick` ends it when that clock reaches it. "When a
character dies ... unless specified otherwise all effects of that character's abilities cease"
(:func:`_cease`). "A buff is an increase to a stat ... A de-buff is a negative effect placed on a
character"; "A stat from an ability lasts as long as that ability specifies".
"""

from __future__ import annotations

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.log.events import _log


@njit
def _expiry(st, S, by, duration):
    """The expiry of an effect ``by`` creates now, lasting ``duration`` turns of its team (or
    rotations): ``count * CLOCKS + clock``. A ``PERMANENT`` duration (a tile's buff: "All buffs
    a tile gives you are permanent") ends at a count no clock reaches."""
    g = st.game
    if duration == L.PERMANENT:
        return L.NEVER_COUNT * L.CLOCKS + L.ROT_CLOCK
    if S.ip[L.P_CLOCK] != 0:
        return (g.rotation + duration) * L.CLOCKS + L.ROT_CLOCK
    team = st.ent.team[by]
    return (g.turns[team] + duration) * L.CLOCKS + team


@njit(inline="always")
def _owed(value, debt, delta):
    """A stat's (value, debt) after a change of ``delta``: the stat is the sum of its changes;
    below 0 it reads 0 and the rest is owed."""
    total = value - debt + delta
    return (total, 0) if total >= 0 else (0, -total)


@njit
def _add_to_stat(ent, e, stat, delta):
    """Add ``delta`` to ``e``'s stat (every point of the star, each on its own, for attacks).
    No stat reads below 0: what a change would take below it is owed (``fields.SPEED_DEBT`` ..
    ``ATK_DEBT``) and paid back before the stat rises again, so whatever order changes come and
    go in, the stat is what the changes left on it make it (docs/rulings.md "What a de-buff does
    to a stat at 0"). Why: reverting only the change actually applied left permanent gains (a
    buff ending under a de-buff; an item dropped under one) and a de-buff of attacks took the
    smallest point's room from all four (the sixth audit, stop 71). A stat not listed (-1: a
    CPU's speed or range) stays so. Returns (the change to the stat as it reads, 0 for attacks'
    four numbers; the change to keep and revert later: ``delta``, or 0 for a stat not listed or
    a state that is no number, such as advantage or invincibility)."""
    if stat == L.STAT_SPEED:
        old = ent.speed[e]
        if old < 0:
            return 0, 0
        ent.speed[e], ent.speed_debt[e] = _owed(old, ent.speed_debt[e], delta)
        return ent.speed[e] - old, delta
    if stat == L.STAT_RANGE:
        old = ent.range[e]
        if old < 0:
            return 0, 0
        ent.range[e], ent.range_debt[e] = _owed(old, ent.range_debt[e], delta)
        return ent.range[e] - old, delta
    if stat == L.STAT_DEFENSE:  # above 9 is capped when rolling (_threshold)
        old = ent.defense[e]
        ent.defense[e], ent.defense_debt[e] = _owed(old, ent.defense_debt[e], delta)
        return ent.defense[e] - old, delta
    if stat == L.STAT_ATTACKS:
        for j in range(4):
            ent.atk[e, j], ent.atk_debt[e, j] = _owed(ent.atk[e, j], ent.atk_debt[e, j], delta)
        return 0, delta
    return 0, 0


@njit
def _shift_stat(ent, e, stat, delta):
    """A timed or held change of ``delta`` to a stat (:func:`_add_to_stat`); the speed left this
    turn follows the speed. Returns the change to keep and revert (``-delta`` takes it off
    exactly): ``delta``, or 0 for a stat not listed or a state that is no number (advantage,
    invincibility)."""
    applied, kept = _add_to_stat(ent, e, stat, delta)
    if stat == L.STAT_SPEED:
        ent.speed_left[e] = min(max(ent.speed_left[e] + applied, 0), ent.speed[e])
    return kept


@njit
def _end_state(st, e, col):
    ent = st.ent
    if ent.raw[e, col] == 0:
        return
    st.game.timed_held -= 1  # (fields.TIMED_HELD)
    if col == L.INVISIBLE:
        st.game.invisible_rows -= 1  # (fields.INVISIBLE_ROWS)
    if col == L.BUFF or col == L.DEBUFF:
        _shift_stat(ent, e, ent.raw[e, col + L.TIMED_STAT], -ent.raw[e, col + L.TIMED_DELTA])
        ent.raw[e, col + L.TIMED_DELTA] = 0
    ent.raw[e, col] = 0
    ent.raw[e, col + L.TIMED_BY] = -1
    _log(st, L.EV_STATE, e, col, 0, 0, 0, 0)


@njit
def _set_state(st, S, e, col, by, duration, stat, amount, ability):
    """Put state ``col`` on ``e`` (a buff or de-buff replaces the one it holds: house ruling). A
    buff or de-buff lands on every living character of ``e``'s card: a multi-character card's
    characters "share one stat pool ... A stat buff gained by one of them is gained by all of
    them" (its rows follow one another from ``GROUP - 1``). ``ability``: set by ``by``'s ability,
    so it ceases when ``by`` dies (:func:`_cease`); an item's or a tile function's does not."""
    ent = st.ent
    if col == L.INVISIBLE and ent.invisible[e] == 0:  # where opponents last saw it
        ent.seen[e] = ent.space[e]                  # (sim/ai/observe.py)
    _set_one(st, S, e, col, by, duration, stat, amount, ability)
    grp = ent.group[e]
    if grp > 0 and (col == L.BUFF or col == L.DEBUFF):
        f = grp - 1
        while f < ent.shape[0] and ent.group[f] == grp:
            if f != e and ent.alive[f] != 0:
                _set_one(st, S, f, col, by, duration, stat, amount, ability)
            f += 1


@njit
def _set_one(st, S, e, col, by, duration, stat, amount, ability):
    ent = st.ent
    _end_state(st, e, col)
    until = _expiry(st, S, by, duration)
    ent.raw[e, col] = until
    # counted (fields.TIMED_HELD, INVISIBLE_ROWS): _end_state took the state it replaces away
    st.game.timed_held += 1
    if col == L.INVISIBLE:
        st.game.invisible_rows += 1
    ent.raw[e, col + L.TIMED_BY] = by if ability else L.OUTLIVES - by  # (fields.OUTLIVES)
    delta = 0  # the stat change a buff or de-buff made
    if col == L.BUFF or col == L.DEBUFF:
        ent.raw[e, col + L.TIMED_STAT] = stat
        delta = _shift_stat(ent, e, stat, amount if col == L.BUFF else -amount)
        ent.raw[e, col + L.TIMED_DELTA] = delta
    _log(st, L.EV_STATE, e, col, until, by, stat, delta)


@njit
def _tick(st, clock, count):
    """End every timed state kept by ``clock`` that has reached ``count``; a dead character's
    buffs and de-buffs are stopped (:func:`_stop_stat_clocks`: a negative ``until``) and never
    end here. No scan while no state can hold (``fields.TIMED_HELD``: about half the turns)."""
    if st.game.timed_held <= 0:
        return
    ent = st.ent
    for e in range(ent.shape[0]):
        for col in L.TIMED:
            until = ent.raw[e, col]
            if until > 0 and until % L.CLOCKS == clock and until // L.CLOCKS <= count:
                _end_state(st, e, col)


@njit(inline="always")
def _clock_now(st, clock):
    """The count of ``clock`` now: a team's turns, or the rotations (``_expiry``)."""
    return st.game.rotation if clock == L.ROT_CLOCK else st.game.turns[clock]


@njit
def _stop_stat_clocks(st, e):
    """``e`` died: its buff and de-buff stop counting, kept as ``-(turns left * CLOCKS + clock)``
    until a revive (:func:`_restart_stat_clocks`). Book: "A revived character returns ... with
    their ability and their stats in exactly the state they were in at the moment of death";
    "whatever buffs or de-buffs sat on their stats when they died sit on them still" (l.252,
    l.254). Why: they ran out while the character lay dead (the fifth rules audit of stop 70: 19
    of 66 revived characters that died with one had lost it). A freeze and invisibility are no
    stats: their clocks run on (house ruling). Only a character can be revived: a minion's, a
    clone's or a vehicle's run out as before (and stop being counted, ``fields.TIMED_HELD``)."""
    ent = st.ent
    if ent.kind[e] > L.K_SUMMONED:
        return
    for col in (L.BUFF, L.DEBUFF):
        until = ent.raw[e, col]
        if until > 0:
            clock = until % L.CLOCKS
            left = max(until // L.CLOCKS - _clock_now(st, clock), 1)
            ent.raw[e, col] = -(left * L.CLOCKS + clock)


@njit
def _restart_stat_clocks(st, e):
    """``e`` is revived: its stopped buff and de-buff count on from now, with the turns they had
    left at its death (:func:`_stop_stat_clocks`)."""
    ent = st.ent
    for col in (L.BUFF, L.DEBUFF):
        kept = -ent.raw[e, col]
        if kept > 0:
            clock = kept % L.CLOCKS
            ent.raw[e, col] = (_clock_now(st, clock) + kept // L.CLOCKS) * L.CLOCKS + clock


@njit
def _cease(st, by):
    """"All effects of that character's abilities cease" when ``by`` dies — on others; what sits
    on the dead character itself stays ("whatever buffs or de-buffs sat on their stats when they
    died sit on them still"). Its items' and tile functions' effects run their course: the book
    ceases its abilities' only (``fields.OUTLIVES``; they all ceased until the audit of stop
    69)."""
    if st.game.timed_held <= 0:  # (fields.TIMED_HELD)
        return
    ent = st.ent
    for e in range(ent.shape[0]):
        if e == by:
            continue
        for col in L.TIMED:
            if ent.raw[e, col] != 0 and ent.raw[e, col + L.TIMED_BY] == by:
                _end_state(st, e, col)
