"""Field numbers of the state arrays, event kinds and the action encoding.

Why integer fields in one ``int64[entity, field]`` array: Numba kernels then pass one array per
concept (entities, game scalars, positions), the Python ``Game`` and the jitted loop share every
kernel, and a game's whole state is a handful of arrays that copy and compare cheaply.
"""

from __future__ import annotations

# ---- entities: int64[entity, NF] (characters of teams 1-4 in card order, then CPUs)
TEAM, CARD, ALIVE, HEALTH, MAX_HEALTH, SPACE, SPEED, RANGE, DEFENSE, SUIT = range(10)
SPEED_LEFT, ACTED, DONE, IS_CPU, HOME, SPENT = range(10, 16)
ATK = 16   # 16..19 attacks of the star points base, red, blue, green
TIER = 20  # 20..23 their dice tiers (1-based)
DEALT, TAKEN, KILLS = 24, 25, 26  # running totals: health it removed, health it lost, kills
NF = 27
NO_TEAM = -1  # "A CPU is an opponent with no affiliation to any team"

# ---- game scalars: int64[NG]
(ROTATION, TURN, PHASE, CUR, DEATHS, REVEALED, APOC_ACTIVE, APOC, APOC_STEP, OVER, WINNER,
 REASON, QUIET, HARM, NEV, LOG, EV_LOST, DEFER, DECISIONS, REVEAL_WHY) = range(20)
OWED = 20  # 20..23 regular turns each team is still owed before the Apocalypse begins
NREACH = 24  # spaces the last reach search touched (their ids are queue[:NREACH])
NG = 25
GM = 4  # TURN value of the GM Turn

# game end reasons
LAST_STANDING, STALEMATE, CAP, SIMULTANEOUS = 1, 2, 3, 4
REASON_NAMES = {0: "running", LAST_STANDING: "last team standing", STALEMATE: "stalemate",
                CAP: "rotation cap", SIMULTANEOUS: "simultaneous elimination"}
# reveal reasons
BY_DEATHS, BY_ROTATION, BY_ELIMINATION = 1, 2, 3

# positions: int64[49]
NORMAL, ANNOUNCED, VOIDED = 0, 1, 2

# ---- events: int64[cap, EVF] = kind, rotation, then six arguments
EVF = 8
(EV_TURN, EV_PLACE, EV_MOVE, EV_ATTACK, EV_ROLL, EV_DAMAGE, EV_RETALIATE, EV_DEATH, EV_ELIMINATED,
 EV_REVEAL, EV_APOC_START, EV_ANNOUNCE, EV_DESTROY, EV_TILE_DAMAGE, EV_GM_TURN, EV_ROTATION,
 EV_END) = range(1, 18)
# death causes
BY_ATTACK, BY_RETALIATION, BY_DESTRUCTION, BY_TILE_DAMAGE = 1, 2, 3, 4

# ---- actions: 0 end the character's turn; 1 + s move to (or be placed on) space s;
#      1 + N_SPACES + e attack entity e
END = 0

# ---- integer parameters ip[NIP]
(P_DEFENSE_DIE, P_DEFENSE_REJECT, P_MARGIN, P_MAX_DEFENSE, P_PER_ATTACK, P_CANCEL_BASE,
 P_RED_SHIELD, P_MOVE_COST, P_RANGE_COST, P_DIAG_COST, P_TILE_PEN, P_PER_BOUNDARY, P_WATER_PEN,
 P_PER_WATER, P_PORTAL_BOUNDARY, P_DOOR_RANGE, P_N_PIECES, P_REVEAL_DEATHS, P_REVEAL_ROTATION,
 P_TURNS_AFTER, P_LEASH, P_CPU_RANGE, P_CPUS_APOC, P_STALEMATE, P_CAP, P_TIEBREAK,
 P_APOC_POS) = range(27)
NIP = 27
# ---- float parameters fp[NFP]
F_RED = 0
W_DAMAGE, W_KILL, W_CPU_VALUE, W_RETALIATION, W_HOMEFIELD, W_DOOMED, W_CPU_DANGER, W_APPROACH = \
    range(1, 9)
NFP = 9

# policies (built-in Numba kernels, dispatched by id in runner._choose)
RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2
POLICY_IDS = {"random": RANDOM, "greedy": GREEDY, "lookahead": LOOKAHEAD}
