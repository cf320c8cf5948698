"""Water-rolls in play: crossing bodies of water and rolled walls, being Submerged, escaping.

Book: "A water-roll is a D-6 roll where 1 to 3 is a fail and 4 to 6 is a success. A water-roll can
be performed from any space adjacent to water"; "On a success, you may move into any other space
adjacent to that same body of water. This movement costs no speed"; "On a failure, the Entity who
attempted the roll is Submerged"; "Each Entity may roll for water freely, as many times as they
like, until they fail. The first failed roll ends that streak for the turn"; "Spending that
character's action buys them a fresh streak"; "A submerged character is stuck in the water and
remains there until they succeed on a water-roll ... cannot move, and cannot spend their action on
anything except attempting to escape"; a water wall "cannot be traversed unless you perform a
successful water-roll ... Failing that roll simply means you do not cross. It does not submerge
you"; fire walls "can be passed with a water-roll. If that water-roll fails, the character takes
50 damage"; "'Freely Cross Water' ... All attempted Water Rolls are an Automatic Success".

Why an action per crossing: each roll is a decision point (the character sees the outcome before
choosing the next step, as at the table), and a policy weighs a crossing by its chance. One action
of the water block (``actions._water_base + s``) = one water-roll towards space ``s``: across a
body next to the character (no speed), across a rolled wall to the neighbour ``s`` (one step of
speed), or, submerged, an escape to any space next to the body it is in. House rulings
(docs/rulings.md): a submerged character stays on the space it rolled from (it is in the water
beside it: attackable, as the book says); a roll after the streak has failed spends the action
(the "fresh streak"); a streak of automatic successes also ends after ``water_streak_max`` of
them (else "Freely Cross Water" would never end a turn), while rolled successes go on "until they
fail" (``water_streak_counts = "automatic"``); the numbers are ``rules.toml [board]``
(``water_die``, ``water_success_min``, ``water_streak_max``, ``water_streak_counts``,
``fire_wall_damage``, ``fire_wall_fail_crosses``). Advantage and disadvantage apply to a
water-roll as to any random act (:func:`_water_roll`).

Where the water is: bodies of water are per tile (house ruling, docs/rulings.md "Water spaces
and bodies"; ``sim.board.graph._water_bodies``), so the spaces a crossing may land on are read
from the tile standing at the character's position now (``_shore``: ``fx_table.TF_SHORE`` of
the live ``st.tiles``), not from tables of the start board. A tile swapped in play keeps its
water as it keeps its rolled walls (``st.move_roll``, re-stamped by ``live_board``): "the tile
and everything in it remain unchanged"; a transformed one brings the new tile's own.
"""

from __future__ import annotations

from sim._jit import njit
from sim.board.graph import ROLL_FIRE_WALL
from sim.catalogue.tile_layout import FLOOR
from sim.rng import roll

from sim.engine.state import fields as L
from sim.engine.rules.attack import _advantage
from sim.engine.rules.death import _harm
from sim.engine.entities.special import _arrive, _drive, _move_speed
from sim.engine.log.events import _log
from sim.engine.items.holding import _free_water
from sim.engine.tiles.live_board import BLOCK, _cell_space, _space_cell, _uncovered_in
from sim.engine.tiles.fx_table import TF_SHORE


@njit(inline="always")
def _may_roll(ent, c):
    """A roll is free while this turn's streak has not failed; after that it costs the action."""
    return ent.streak_over[c] == 0 or ent.acted[c] == 0


@njit(inline="always")
def _shore(tile_pos, tiles, fx, here):
    """Where a crossing of the water next to ``here`` may land: "any other space adjacent to that
    same body of water", as bits over the cells of here's 5×5 block (bit ``cell``, ``here``'s own
    included; 0: no body of water touches it). Bodies are per tile, so they are read from the
    tile standing at here's position now (``fx_table.TF_SHORE``): a tile swapped or transformed
    in play brings its own water ("the tile and everything in it remain unchanged")."""
    p = tile_pos[here]
    if p < 0:  # a destroyed coordinate: no space
        return 0
    t = tiles.tile[p]
    if t < 0:  # the revealed Apocalypse, "treated as a 1x1 Tile": the Uncovered Tile
        t = _uncovered_in(fx)
    return fx[2 * t, TF_SHORE + _space_cell(here)]


@njit(inline="always")
def _walled(rolled, here):
    """Whether a wall that needs a water-roll (a water or fire wall) borders ``here``."""
    for d in range(8):
        if rolled[here, d] > 0:
            return True
    return False


@njit(inline="always")
def _by_water(tile_pos, tiles, fx, rolled, here):
    """Whether a water action can start at ``here``: a body of water touches it, or a wall that
    needs a roll borders it. Most spaces are dry: a cheap test before the search."""
    return _shore(tile_pos, tiles, fx, here) != 0 or _walled(rolled, here)


@njit
def _legal_water(st, S, c, mask, base):
    """Mark ``base + s`` for each space ``c`` may roll towards; return how many. Needs the
    character placed and not frozen (``_legal`` returns before this otherwise)."""
    ent = st.ent
    if not _may_roll(ent, c):
        return 0
    here = ent.space[c]
    tile_pos = st.tile_pos
    rolled = st.move_roll
    shore = _shore(tile_pos, st.tiles, S.tile_fx, here)
    if shore == 0 and not _walled(rolled, here):
        return 0
    kind = st.kind
    submerged = ent.submerged[c] != 0
    count = 0
    p = tile_pos[here]
    for cell in range(BLOCK * BLOCK if shore != 0 else 0):  # the water of here's tile now
        if (shore >> cell) & 1 == 0:
            continue
        s = _cell_space(p, cell)
        if (s != here or submerged) and kind[s] == FLOOR and not mask[base + s]:
            mask[base + s] = True
            count += 1
    if submerged or _move_speed(ent, c) < S.ip[L.P_MOVE_COST]:  # a pilot: its vehicle's
        return count
    nbr = st.move_nbr
    for d in range(8):
        s = nbr[here, d]
        if s >= 0 and rolled[here, d] > 0 and tile_pos[s] >= 0 and not mask[base + s]:
            mask[base + s] = True
            count += 1
    return count


@njit
def _wall_kind(st, S, here, s):
    """The roll a step from ``here`` to neighbour ``s`` needs (0: none, it is no neighbour)."""
    for d in range(8):
        if st.move_nbr[here, d] == s:
            return st.move_roll[here, d]
    return 0


@njit
def _roll_die(st, faces):
    """One die of ``faces`` from the game's stream."""
    rng = st.rng
    face, rng[0], rng[1], rng[2], rng[3] = roll(faces, rng[0], rng[1], rng[2], rng[3])
    return face


@njit
def _water_roll(st, S, c):
    """One water-roll for ``c`` from the game's stream: (face, success). Free water always
    succeeds and rolls nothing (face 0). A water-roll is a random act, so "Advantage allows an
    entity to perform any random act twice, and choose the preferable outcome" (the higher face)
    and "Disadvantage forces an entity to perform any random act twice, and the GM chooses the
    less preferable outcome" (the lower): with 4-6 a success, 3/4 and 1/4 instead of 1/2."""
    if st.ent.free_water[c] != 0 or _free_water(st, S, c):  # an ability's or a held item's
        return 0, True
    die = S.ip[L.P_WATER_DIE]
    face = _roll_die(st, die)
    adv = _advantage(st.ent, c)
    if adv > 0:
        face = max(face, _roll_die(st, die))
    elif adv < 0:
        face = min(face, _roll_die(st, die))
    return face, face >= S.ip[L.P_WATER_MIN]


@njit
def _cross(st, S, c, s, wall):
    """``c`` crosses to ``s`` (a roll won, or a fire wall crossed burning). A wall is crossed by
    a step ("Walls ... obstruct movement"): a pilot's vehicle drives it, else ``c`` pays the step
    from its own speed; then "its movement rules mirror those of the character occupying it —
    crossing water": the vehicle comes along (a frozen one stays: special._arrive), or one
    standing on ``s`` is boarded."""
    ent = st.ent
    mc = S.ip[L.P_MOVE_COST]
    if wall > 0 and not _drive(st, c, s, mc):
        ent.speed_left[c] -= mc
        ent.spent[c] += mc
    ent.space[c] = s
    _arrive(st, c)


@njit
def _apply_water(st, S, c, s):
    """``c`` rolls for water towards space ``s`` (a legal water action)."""
    ent = st.ent
    here = ent.space[c]
    if ent.streak_over[c] != 0:  # "Spending that character's action buys them a fresh streak"
        ent.acted[c] = 1
        ent.streak_over[c] = 0
        ent.streak_rolls[c] = 0
    wall = 0 if ent.submerged[c] != 0 else _wall_kind(st, S, here, s)
    face, ok = _water_roll(st, S, c)
    _log(st, L.EV_WATER_ROLL, c, here, s, face, 1 if ok else 0, wall)
    if ok:
        ent.submerged[c] = 0
        # house: a streak's length cap (rules.toml water_streak_max), counting the rolls
        # water_streak_counts names: automatic successes only (face 0), or every success
        if face == 0 or S.ip[L.P_STREAK_ALL] != 0:
            ent.streak_rolls[c] += 1
            if ent.streak_rolls[c] >= S.ip[L.P_WATER_STREAK]:
                ent.streak_over[c] = 1
        _cross(st, S, c, s, wall)
        return
    ent.streak_over[c] = 1  # "The first failed roll ends that streak for the turn"
    if wall == 0:
        if ent.submerged[c] == 0:
            ent.submerged[c] = 1  # "the Entity who attempted the roll is Submerged"
            _log(st, L.EV_SUBMERGED, c, here, 0, 0, 0, 0)
    elif wall == ROLL_FIRE_WALL:
        _harm(st, S, c, S.ip[L.P_FIRE_DAMAGE], -1, L.BY_FIRE_WALL)
        # the fire's damage may make it fall away from the wall (terrain draft): nothing to cross
        if S.ip[L.P_FIRE_CROSSES] != 0 and ent.alive[c] != 0 and ent.space[c] == here:
            _cross(st, S, c, s, wall)


@njit
def _begin_water(st, team):
    """A team's turn begins: each of its entities has a fresh streak."""
    ent = st.ent
    for e in range(ent.shape[0]):
        if ent.team[e] == team:
            ent.streak_over[e] = 0
            ent.streak_rolls[e] = 0
