"""Field numbers of the state arrays, event kinds and the action encoding.

Why integer fields in one ``int64[entity, field]`` array: Numba kernels then pass one array per
concept (entities, positions), the Python ``Game`` and the jitted loop share every kernel, and a
game's whole state is a handful of arrays that copy and compare cheaply. The game scalars are
read by name instead (``st.game.rotation``: one record of ``GAME_DTYPE``, laid out on the slots
below, so it copies and compares as the old ``int64[NG]`` row did).
"""

from __future__ import annotations

import numpy as np

# The effect row's schema (FX_* slots, OP_* opcodes, T_* targets, STAT_* codes) is the catalogue's:
# it writes the rows the interpreter runs. Re-exported here so the kernels read L.OP_HEAL.
from sim.catalogue import effect_row as _row
from sim.catalogue.items import HAND_SLOTS
from sim.catalogue.effect_row import (  # noqa: F401
    FX_AMOUNT, FX_ATTACKS, FX_CHARGES, FX_COSTS, FX_COUNT, FX_DURATION, FX_FLAG, FX_HEALTH, FX_OP,
    FX_OWN_TURN, FX_RANGE, FX_SLOTS, FX_STAT, FX_TARGET, FX_TIER, PERMANENT, STAT_ADVANTAGE,
    STAT_ATTACKS, STAT_DEFENSE, STAT_INVINCIBLE, STAT_RANGE, STAT_SPEED, T_ALLY, T_DEAD_ALLY,
    T_ENEMY, T_NONE, T_SELF, T_SPACE)

# every opcode (OP_NONE, OP_STRIKE .. OP_ASSIST), generated from the effect
# table (sim/catalogue/effect_table.py): a new effect needs no line here
globals().update({name: getattr(_row, name) for name in _row.OP_NAMES})

# ---- entities: int64[entity, NF] (characters of teams 1-4 in card order, then CPUs)
TEAM, CARD, ALIVE, HEALTH, MAX_HEALTH, SPACE, SPEED, RANGE, DEFENSE, SUIT = range(10)
SPEED_LEFT, ACTED, DONE, IS_CPU, HOME, SPENT = range(10, 16)
ATK = 16   # 16..19 attacks of the star points base, red, blue, green
TIER = 20  # 20..23 their dice tiers (1-based)
DEALT, TAKEN, KILLS = 24, 25, 26  # running totals: health it removed, health it lost, kills
# an effect row (FX_* slots: sim/catalogue/effect_row.py): an ability, item or tile function
FX_ABILITY, FX_ITEM, FX_TILE = 0, 1, 2  # where the interpreter reads a row (row._fx)
# the card's effect row, copied per entity (AB_OWN_TURN: the slot FX_OWN_TURN, copied, unread)
AB = 27
(AB_OP, AB_TARGET, AB_COSTS, AB_OWN_TURN, AB_CHARGES, AB_RANGE, AB_DURATION, AB_AMOUNT, AB_STAT,
 AB_FLAG, AB_COUNT, AB_HEALTH, AB_ATTACKS, AB_TIER) = range(AB, AB + 14)
# per-entity effect state (docs/effects.md): charges left, used this turn, shield; each timed
# state holds its expiry ("until", 0 = off) and the entity that created it ("by")
CHARGES_LEFT, AB_USED, SHIELD = 41, 42, 43
FROZEN, FROZEN_BY, INVISIBLE, INVISIBLE_BY = 44, 45, 46, 47
BUFF, BUFF_BY, BUFF_STAT, BUFF_DELTA = 48, 49, 50, 51        # one positive effect at a time
DEBUFF, DEBUFF_BY, DEBUFF_STAT, DEBUFF_DELTA = 52, 53, 54, 55  # one de-buff at a time
# Column blocks of the later slices of issue #5 (each owned by one module; unused columns are 0):
# 56..63 special entities (sim/engine/entities/special.py, docs/entities.md): what the row is (KIND), its
# creator + 1 (OWNER, 0: none), not yet in play (DORMANT), the vehicle it rides + 1 (RIDING), a
# vehicle's pilot + 1 (PILOT), its type in the assists / vehicles data (SLOT), the first row of
# its card + 1 (GROUP: a multi-character card's one stat pool); KIND values below (characters:
# KIND <= K_SUMMONED, the team's 5 cards and its summoned 6th)
KIND, OWNER, DORMANT, RIDING, PILOT, SLOT, GROUP = range(56, 63)
K_CHARACTER, K_SUMMONED, K_CPU, K_MINION, K_CLONE, K_ASSIST, K_VEHICLE = range(7)
#   64..71  items (sim/engine/items/holding.py, docs/items.md): on the pool's row the two held items
#           (ITEM_SLOT + k: item type + 1, 0 = empty) and whether each is active (ITEM_ON + k:
#           usable, its holder has ended a turn holding it); on every row the stat change slot k of
#           its pool applied to it (ITEM_DELTA + k) and the row holding its pool (POOL: row + 1,
#           0 = the entity itself)
ITEM_SLOT, ITEM_ON, ITEM_DELTA, POOL = 64, 66, 68, 70
#   72..79  tile functions (sim/engine/tiles/functions.py, docs/tiles.md): ticks banked, the catalogue
#           tile they are banked in (+ 1; 0 = none), extra actions won and the team turn
#           number they are for; a second string (ticks, tile), used while the character ends its
#           turns on a portal piece, in two tiles at once (R4:S5 "Both spaces apply in full")
TICKS, TICK_TILE, EXTRA_LEFT, EXTRA_TURN, TICKS_2ND, TICK_TILE_2ND = 72, 73, 74, 75, 76, 77
#   80..87  water and terrain (sim/engine/rules/water_rolls.py): submerged, the water-roll streak
ITEM_BLOCK = 64  # the items' columns 64..71 (tests compare them whole)
# water and terrain (sim/engine/rules/water_rolls.py, terrain.py): submerged ("stuck in the water"); this
# turn's water-roll streak has ended (a failure, or its length cap); sources letting it "Freely
# Cross Water"; the successful rolls of the current streak
SUBMERGED, STREAK_OVER, FREE_WATER, STREAK_ROLLS = 80, 81, 82, 83
#   88..89  turn order and observation (turn.py, sim/ai/observe.py): the character has done
#           something this turn (it may no longer hand the turn to a teammate); the space where an
#           invisible entity was last seen (set when it turns invisible: what opponents may know)
BEGUN, SEEN = 88, 89
#   90..96  the stat floor (sim/engine/entities/timed_states.py:_add_to_stat): what the changes on
#           a stat would take below 0, owed before it rises again (speed, range, defense, each
#           point of the star): "no stat goes below 0" (docs/rulings.md)
SPEED_DEBT, RANGE_DEBT, DEFENSE_DEBT, ATK_DEBT = 90, 91, 92, 93  # ATK_DEBT: 93..96
NF = 97
TIMED = (FROZEN, INVISIBLE, BUFF, DEBUFF)  # each followed by its "_BY" column
# a timed state's columns after its first ("until"), for kernels that pick the state at run time
# (``ent.raw[e, col + TIMED_BY]``): who set it, then a buff's or de-buff's stat and change
TIMED_BY, TIMED_STAT, TIMED_DELTA = 1, 2, 3
# who set a timed state, as its "_BY" column keeps it: the row whose ability set it ("all effects
# of that character's abilities cease" at its death: timed_states._cease); -1 a tile's freeze (or
# none); OUTLIVES - row an item's or a tile function's effect, which outlives its user (the book
# ceases only abilities' effects)
OUTLIVES = -2
# an expiry: (clock count at which it ends) * CLOCKS + clock; clocks 0-3 count a team's turns
# (g.turns[t]), clock ROT_CLOCK counts rotations (rules.toml [game] effect_clock)
CLOCKS, ROT_CLOCK = 8, 4
# the clock count of a permanent effect's expiry (duration PERMANENT): beyond any game's, so no
# clock reaches it (timed_states._expiry); the log reads an expiry this far as "permanent"
NEVER_COUNT = 1 << 40
NO_TEAM = -1  # "A CPU is an opponent with no affiliation to any team"

# The entity rows as one named record each: kernels read ``ent.health[e]`` and ``ent.atk[e, j]``
# (NumPy structured dtype; a field read is a strided view, which Numba folds into one load). Each
# field sits at its column above, so a row is byte for byte the old ``int64[NF]`` row; the blocks
# are arrays (a card's star points, the copied effect row, the two item slots). ``raw`` is the
# whole row as ``int64[NF]``, for the few kernels that pick a column at run time (a timed state
# and its "_BY" column: timed_states.py) and for tests that compare blocks whole.
ENT_BLOCKS = {"ATK": 4, "TIER": 4, "AB": FX_SLOTS, "ITEM_SLOT": HAND_SLOTS, "ITEM_ON": HAND_SLOTS,
              "ITEM_DELTA": HAND_SLOTS, "ATK_DEBT": 4}
ENT_FIELDS = ("TEAM", "CARD", "ALIVE", "HEALTH", "MAX_HEALTH", "SPACE", "SPEED", "RANGE",
              "DEFENSE", "SUIT", "SPEED_LEFT", "ACTED", "DONE", "IS_CPU", "HOME", "SPENT", "ATK",
              "TIER", "DEALT", "TAKEN", "KILLS", "AB", "AB_OP", "AB_TARGET", "AB_COSTS",
              "AB_OWN_TURN", "AB_CHARGES", "AB_RANGE", "AB_DURATION", "AB_AMOUNT", "AB_STAT",
              "AB_FLAG", "AB_COUNT", "AB_HEALTH", "AB_ATTACKS", "AB_TIER", "CHARGES_LEFT",
              "AB_USED", "SHIELD", "FROZEN", "FROZEN_BY", "INVISIBLE", "INVISIBLE_BY", "BUFF",
              "BUFF_BY", "BUFF_STAT", "BUFF_DELTA", "DEBUFF", "DEBUFF_BY", "DEBUFF_STAT",
              "DEBUFF_DELTA", "KIND", "OWNER", "DORMANT", "RIDING", "PILOT", "SLOT", "GROUP",
              "ITEM_SLOT", "ITEM_ON", "ITEM_DELTA", "POOL", "TICKS", "TICK_TILE", "EXTRA_LEFT",
              "EXTRA_TURN", "TICKS_2ND", "TICK_TILE_2ND", "SUBMERGED", "STREAK_OVER",
              "FREE_WATER", "STREAK_ROLLS", "BEGUN", "SEEN", "SPEED_DEBT", "RANGE_DEBT",
              "DEFENSE_DEBT", "ATK_DEBT")

# ---- game scalars: int64[NG]
(ROTATION, TURN, PHASE, CUR, DEATHS, REVEALED, APOC_ACTIVE, APOC, APOC_STEP, OVER, WINNER,
 REASON, QUIET, HARM, NEV, LOG, EV_LOST, DEFER, DECISIONS, REVEAL_WHY) = range(20)
OWED = 20  # 20..23 regular turns each team is still owed before the Apocalypse begins
# the live board's revision: every change to its graph (move_nbr, sight_nbr, sight_flag, kind,
# tile_pos, twin, move_roll, feature) adds one (game_state._board_changed), so the look-ahead's
# reset (game_state._copy_into) copies those arrays only after a play-out changed them
BOARD_REV = 24
TURNS = 25  # 25..28 turns each team has begun (the clocks effect durations count)
REVIVES = 29  # characters revived (DEATHS counts deaths, so dead now = DEATHS - REVIVES)
# entities: teams that have had their summon (bit t), the first vehicle row and how many, the
# first row after the CPUs (spare rows: summoned cards, assists, minions), a minion's speed,
# range and defense (rules.toml [entities])
G_SUMMONS, G_VEH_FIRST, G_VEH_N, G_SPARE = 30, 31, 32, 33
G_MINION_SPEED, G_MINION_RANGE, G_MINION_DEFENSE = 34, 35, 36
# timed states (a row's FROZEN, INVISIBLE, BUFF or DEBUFF) that may hold, an upper bound
# (timed_states: each start adds one, each end takes one away; a row entering play clears
# its states uncounted): while it is 0 no state can end, so a turn's tick need not look
TIMED_HELD = 37
# scalar blocks of the later slices of issue #5: 30..37 entities, 38..45 items, 46..57 tiles,
# 58..61 water and terrain
# items: rows of State.floor in use; items gained (tile rewards), used up, lost (a full floor, a
# destroyed coordinate): held + on the floor = gained - used - lost
FLOOR_N, ITEMS_GAINED, ITEMS_USED, ITEMS_LOST = 38, 39, 40, 41
# 42..45 each team's rows (new_game): team t's characters are the rows from TEAM_END[t - 1] (0
# for the first team) to TEAM_END[t] - 1, in card order; a row from G_SPARE on (a summoned card,
# a minion, a clone, an assist) may be any team's. The turn's scans over a team's members read
# those rows only (order.py), not every row
TEAM_END = 42
# tile functions: 46..49 each team's spending power from tile economies ("coins"); the teams
# that learned the face-down Apocalypse (bit per team); positions whose freeze may still hold
# (early-out of the frozen-tile checks); tiles swapped or transformed so far; whether the last
# tile function run gave what it promised (an item with a free hand, a Summon left: the price in
# ticks is paid only then)
COINS = 46
KNOWS, FROZEN_TILES, TILE_CHANGES, FX_OK = 50, 51, 52, 53
# 54: entity rows whose invisibility may hold, an upper bound (timed_states: each start of it
# adds one, each end takes one away; a row entering play clears it without counting): no row
# is invisible while it is 0, so a decision need not look for one (ai/observe.py)
INVISIBLE_ROWS = 54
# the Apocalypse's resolution (cards/apocalypses.toml resolve/hold): GM Turns in a row at which a
# character stood on the revealed Apocalypse tile; 1 + the team that resolved it (0: not resolved)
APOC_HELD, APOC_RESOLVED = 55, 56
# turn order (turn.py): 1 + the teammate the current character handed the turn to (0: none), and
# the hand-overs the team has left this turn (its characters able to act, less one: any order of
# them can be reached, and a turn still ends)
NEXT_UP, HANDS_LEFT = 62, 63
# balance metrics (turn._end_rotation): 1 + the team with the most health at the last rotation end
# that had one (0: none yet; a tie names no leader), and how often that leader changed
LEADER, LEAD_CHANGES = 64, 65
NG = 66
GM = 4  # TURN value of the GM Turn

# The game scalars as one named record: kernels read ``st.game.rotation`` and ``g.owed[team]``
# (``game_state``: ``st.game`` is the one record of ``st.g``). Each field sits at its slot above
# (8 bytes a slot), so the record is byte for byte the old int64[NG] row; the blocks of four
# (one per team) are arrays. The slot numbers stay the one place a field's position is set.
GAME_BLOCKS = {"OWED": 4, "TURNS": 4, "COINS": 4, "TEAM_END": 4}
GAME_SCALARS = ("ROTATION", "TURN", "PHASE", "CUR", "DEATHS", "REVEALED", "APOC_ACTIVE", "APOC",
                "APOC_STEP", "OVER", "WINNER", "REASON", "QUIET", "HARM", "NEV", "LOG", "EV_LOST",
                "DEFER", "DECISIONS", "REVEAL_WHY", "OWED", "BOARD_REV", "TURNS", "REVIVES",
                "G_SUMMONS", "G_VEH_FIRST", "G_VEH_N", "G_SPARE", "G_MINION_SPEED",
                "G_MINION_RANGE", "G_MINION_DEFENSE", "TIMED_HELD", "FLOOR_N", "ITEMS_GAINED",
                "ITEMS_USED", "ITEMS_LOST", "TEAM_END", "COINS", "KNOWS", "FROZEN_TILES",
                "TILE_CHANGES",
                "FX_OK", "APOC_HELD", "APOC_RESOLVED", "NEXT_UP", "HANDS_LEFT", "LEADER",
                "LEAD_CHANGES", "INVISIBLE_ROWS")


def _record_dtype(consts, blocks, width, prefix="", raw=True):
    """A record laid out on int64 slots: field ``health`` at slot HEALTH (a block of n slots is
    an array field), and with ``raw`` the whole row as one more field; so the record is byte for
    byte the old row."""
    names, formats, offsets = [], [], []
    for const in consts:
        n = blocks.get(const, 1)
        names.append(const.lower().removeprefix(prefix))
        formats.append(np.int64 if n == 1 else (np.int64, (n,)))
        offsets.append(8 * globals()[const])
    if raw:
        names.append("raw")
        formats.append((np.int64, (width,)))
        offsets.append(0)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets,
                     "itemsize": 8 * width})


GAME_DTYPE = _record_dtype(GAME_SCALARS, GAME_BLOCKS, NG, prefix="g_", raw=False)
ENT_DTYPE = _record_dtype(ENT_FIELDS, ENT_BLOCKS, NF)


class Named(np.ndarray):
    """A structured array whose fields read as attributes from Python and interpreted kernels
    (``ent.health[e]``), as compiled kernels read them. NumPy's recarray does the same but
    builds a view on every read (about 6 µs); this one keeps each field's view after its first
    read, so an interpreted game runs at about the speed of the old column indexing."""

    def __getattr__(self, name):
        fields = np.ndarray.__getattribute__(self, "dtype").fields
        if fields is None or name not in fields:
            raise AttributeError(name)
        view = self.view(np.ndarray)[name]
        self.__dict__[name] = view
        return view


def named(array) -> Named:
    """``array`` (structured) with its fields as attributes, sharing its memory."""
    return array.view(Named)

# game end reasons
LAST_STANDING, STALEMATE, CAP, SIMULTANEOUS = 1, 2, 3, 4
REASON_NAMES = {0: "running", LAST_STANDING: "last team standing", STALEMATE: "stalemate",
                CAP: "rotation cap", SIMULTANEOUS: "simultaneous elimination"}
# reveal reasons
BY_DEATHS, BY_ROTATION, BY_ELIMINATION = 1, 2, 3

# positions: int64[49]
NORMAL, ANNOUNCED, VOIDED = 0, 1, 2

# ---- events: int64[cap, EVF] = kind, rotation, then six arguments (named per kind:
#      log/events.EVENTS)
EVF = 8
EVC_KIND, EVC_ROTATION, EVC_ARGS = 0, 1, 2  # the columns: EVC_ARGS..EVF-1 the arguments
(EV_TURN, EV_PLACE, EV_MOVE, EV_ATTACK, EV_ROLL, EV_DAMAGE, EV_RETALIATE, EV_DEATH, EV_ELIMINATED,
 EV_REVEAL, EV_APOC_START, EV_ANNOUNCE, EV_DESTROY, EV_TILE_DAMAGE, EV_GM_TURN, EV_ROTATION,
 EV_END, EV_ABILITY, EV_HEAL, EV_STATE, EV_REVIVE, EV_TELEPORT) = range(1, 23)
EV_SPAWN, EV_VANISH, EV_BOARD, EV_ALIGHT, EV_DRIVE, EV_WEAPON = 23, 24, 25, 26, 27, 28  # entities
# event kinds of the later slices: 23..29 entities, 30..36 items, 37..45 tiles, 46..50 water
EV_ITEM_GAIN, EV_ITEM_ACTIVE, EV_ITEM_USE, EV_ITEM_DROP, EV_ITEM_DAMAGE = 30, 31, 32, 33, 34
(EV_TICKS, EV_REWARD, EV_INTERACT, EV_TILE_STATE, EV_SWAP, EV_TRANSFORM, EV_GAIN, EV_COINS,
 EV_EXTRA_ACTION) = range(37, 46)
EV_WATER_ROLL, EV_SUBMERGED, EV_FALL = 46, 47, 48  # water.py, terrain.py
EV_GROUP, EV_GROUP_LATE = 51, 52  # group attacks (combat.py)
EV_APOC_HOLD, EV_APOC_RESOLVED = 53, 54  # apocalypse.py: the players meet its condition
EV_HAND = 55  # turn.py: a character hands its team's turn to a teammate before doing anything
# death causes
BY_ATTACK, BY_RETALIATION, BY_DESTRUCTION, BY_TILE_DAMAGE, BY_ABILITY, BY_APOCALYPSE = range(1, 7)
BY_FIRE_WALL, BY_FALL = 7, 8  # water.py, terrain.py
BY_ITEM = 9  # item_effects.py: an item's flat damage (an ability's is BY_ABILITY)

# ---- actions: the blocks, their offsets and the codec (decode, encode, action_to_string) are
#      sim/engine/rules/actions.py's; END is the first action of all
END = 0
F_CAP = 32  # items lying on the board at once (State.floor rows)
FL_ITEM, FL_SPACE = 0, 1  # State.floor: int64[F_CAP, NFL], the item (-1: none) and its space
NFL = 2
# State.tiles: int64[49, NTL], one row per grid position. Columns 0..48 are the live tile
# distance (Static.pos_dist as the game's swaps leave it: portals travel with their tiles), then
# the tile there now (catalogue index; geometry.APOCALYPSE face-down, VOID), its suit (-1 none),
# deactivated until / by, frozen until / by (expiries as the entity states': count*CLOCKS+clock)
TL_DIST = 0  # 0..48
TL_TILE, TL_SUIT, TL_OFF, TL_OFF_BY, TL_FROZEN, TL_FROZEN_BY = range(49, 55)
NTL = 55
# read by name (``st.tiles.suit[p]``, ``st.tiles.dist[p, q]``): records of TILE_DTYPE below
TILE_FIELDS = ("TL_DIST", "TL_TILE", "TL_SUIT", "TL_OFF", "TL_OFF_BY", "TL_FROZEN", "TL_FROZEN_BY")
TILE_DTYPE = _record_dtype(TILE_FIELDS, {"TL_DIST": 49}, NTL, prefix="tl_")

# ---- integer parameters ip[NIP]
(P_DEFENSE_DIE, P_DEFENSE_REJECT, P_MARGIN, P_MAX_DEFENSE, P_PER_ATTACK, P_CANCEL_BASE,
 P_RED_SHIELD, P_MOVE_COST, P_RANGE_COST, P_DIAG_COST, P_TILE_PEN, P_PER_BOUNDARY, P_WATER_PEN,
 P_PER_WATER, P_PORTAL_BOUNDARY, P_DOOR_RANGE, P_N_PIECES, P_REVEAL_DEATHS, P_REVEAL_ROTATION,
 P_TURNS_AFTER, P_LEASH, P_CPU_RANGE, P_CPUS_APOC, P_STALEMATE, P_CAP, P_TIEBREAK,
 P_APOC_POS, P_CLOCK) = range(28)
# water and terrain (rules.toml [board]): the water-roll die and its least success, a failed
# fire wall's damage and whether it still crosses, the fall die, its falling faces, the damage
(P_WATER_DIE, P_WATER_MIN, P_FIRE_DAMAGE, P_FIRE_CROSSES, P_FALL_DIE, P_FALL_MAX,
 P_FALL_DAMAGE, P_WATER_STREAK) = range(28, 36)
# the streak cap counts every success (1) or automatic ones only (0: rules.toml
# water_streak_counts)
P_STREAK_ALL = 36
# group attacks (rules.toml [group_attack] order): 1 = "declared" (every declared attacker spends
# its action), 0 = "sequential" (one whose target is already dead keeps it)
P_GROUP_DECLARED = 37
# the order inside a team's turn (rules.toml [game] turn_order): 1 = "hand_over" (a character
# that has done nothing may hand the turn to a teammate), 0 = "card" (card order only)
P_HANDOVERS = 38
# line of sight inside a tile (rules.toml [board] sight_lines): 1 = "any_angle" (the book), 0 =
# "compass" (the eight rays only)
P_SIGHT_LINES = 39
# the least range an attack may cross (rules.toml [board] attack_own_space): 0 = an enemy on the
# attacker's own space may be attacked (the house ruling), 1 = only one at least a space away
P_CLOSEST = 40
# whom a tile's revive brings back (rules.toml [game] tile_revive): 0 = "strongest" (the highest
# maximum health, the first in card order on a tie), 1 = "first" (the first in card order)
P_TILE_REVIVE_FIRST = 41
# a clone's health (rules.toml [entities] clone_health; book: "A clone has only 1 HP")
P_CLONE_HEALTH = 42
NIP = 43
# ---- float parameters fp[NFP]
F_RED = 0
(W_DAMAGE, W_KILL, W_CPU_VALUE, W_RETALIATION, W_HOMEFIELD, W_DOOMED, W_CPU_DANGER, W_APPROACH,
 W_EFFECT, W_SUBMERGED, W_APOC_HOLD, W_PRESS, W_PRESS_AFTER) = range(1, 14)
NFP = 14

# policies (built-in Numba kernels, dispatched by id in sim.ai.play._choose)
# lookahead-rotation: the look-ahead whose play-outs all run whole rotations (sim.ai.lookahead)
RANDOM, GREEDY, LOOKAHEAD, LOOKAHEAD_ROTATION = 0, 1, 2, 3
POLICY_IDS = {"random": RANDOM, "greedy": GREEDY, "lookahead": LOOKAHEAD,
              "lookahead-rotation": LOOKAHEAD_ROTATION}
