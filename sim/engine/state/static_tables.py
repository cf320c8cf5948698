"""Compile a catalogue and a board into the ``Static`` arrays every game kernel reads.

Why once per board: the board graph (``sim.board.graph.compile_board``) is plain Python and far
slower than a whole simulated game, so it is built here for the face-down board *and* for the
board with the Apocalypse revealed ("When revealed it is treated as a 1x1 Tile"), and the kernels
switch between the two by copying arrays. Combat tables ("the exact combat tables" the greedy
policy reads) are built once per set of dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from sim.board.geometry import APOCALYPSE, N_SPACES, Board, layers_grid, local_space
from sim.board.graph import compile_board
from sim.catalogue.abilities import MAX_DICE
from sim.catalogue.apocalypses import ApocalypseIndex, load_apocalypses
from sim.catalogue.entities import R_CLONE_HEALTH
from sim.catalogue.board_rules import GRID
from sim.catalogue.game_rules import GameRules, load_game_rules
from sim.catalogue.tile_layout import CPU as CPU_FEATURE
from sim.catalogue.tiles import CPU_FIELDS
from sim.catalogue.tile_layout import FLOOR, PORTAL
from sim.combat.hits import hit_table
from sim.combat.lanes import damage_reject, lane_reject
from sim.fixed_sums import convolve

from sim.engine.state import fields as L
from sim.engine.items.holding import item_table
from sim.engine.state.game_state import Stacked, Static, new_static
from sim.engine.tiles.fx_table import tile_table

MAX_ATTACKS = MAX_DICE  # cards.LIMITS["attacks"]: the most dice one throw can hold
TAIL_HEALTH = 1500  # health beyond this is treated as this in the greedy kill table
# a CPU row (GameSetup.cpu_rows, written by _cpus, read by new_game._init_game): its space, its
# home grid position (the tile it is leashed to), then its stats
(CPU_SPACE, CPU_HOME, CPU_HEALTH, CPU_DEFENSE, CPU_ATTACKS, CPU_TIER, CPU_SPEED,
 CPU_RANGE) = range(8)
CPU_COLS = 8


@dataclass(frozen=True)
class GameSetup:
    """Everything a game needs that does not change during it (one board)."""

    static: Static
    cpu_rows: np.ndarray      # int64[k, CPU_COLS]
    cpu_names: tuple[str, ...]
    board: Board
    game_rules: GameRules
    apocalypses: ApocalypseIndex


def load_game_data(root: Path) -> tuple[GameRules, ApocalypseIndex]:
    return load_game_rules(root), load_apocalypses(root)


@lru_cache(maxsize=4)
def combat_tails(tier_faces: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``tail[t, h, k]`` = P(sum of k damage dice of tier t >= h) and ``ctail[t, h, k]`` =
    E[min(sum, h)]: exact tables (convolutions) behind the greedy policy's kill chances. Stored
    health-major so the k = 0..n values one decision reads share a cache line or two."""
    n_t = len(tier_faces)
    tail = np.zeros((n_t, MAX_ATTACKS + 1, TAIL_HEALTH + 2))
    for t, f in enumerate(tier_faces):
        die = np.zeros(f + 1)
        die[1:] = 1.0 / f
        pmf = np.array([1.0])
        for k in range(MAX_ATTACKS + 1):
            if k:
                pmf = convolve(pmf, die)  # the same bits on any CPU (sim.fixed_sums)
            sf = pmf[::-1].cumsum()[::-1]  # sf[x] = P(S >= x)
            m = min(sf.size, TAIL_HEALTH + 2)
            tail[t, k, :m] = sf[:m]
    ctail = np.zeros_like(tail)
    ctail[:, :, 1:] = np.cumsum(tail[:, :, 1:], axis=2)  # E[min(S,h)] = sum_{x=1..h} P(S>=x)
    return (np.ascontiguousarray(tail.transpose(0, 2, 1)),
            np.ascontiguousarray(ctail.transpose(0, 2, 1)))


def _int_params(catalogue, graph, gr: GameRules, apoc_pos: int) -> np.ndarray:
    r, br = catalogue.rules, catalogue.board_rules
    ip = np.zeros(L.NIP, np.int64)
    ip[L.P_DEFENSE_DIE] = r.defense_die
    ip[L.P_DEFENSE_REJECT] = int(lane_reject([r.defense_die])[0])
    ip[L.P_MARGIN] = r.defense_margin
    ip[L.P_MAX_DEFENSE] = r.max_defense
    ip[L.P_PER_ATTACK] = r.advantage_scope == "per_attack"
    ip[L.P_CANCEL_BASE] = r.homefield_cancel == "base"
    ip[L.P_RED_SHIELD] = r.red_counts_shield
    ip[L.P_MOVE_COST] = br.move_cost
    ip[L.P_RANGE_COST] = br.range_cost
    ip[L.P_DIAG_COST] = br.diagonal_range_cost
    ip[L.P_TILE_PEN] = br.cross_tile_penalty
    ip[L.P_PER_BOUNDARY] = br.cross_tile_count == "per_boundary"
    ip[L.P_WATER_PEN] = br.water_penalty
    ip[L.P_PER_WATER] = br.water_count == "per_water"
    ip[L.P_PORTAL_BOUNDARY] = br.portal_is_boundary
    ip[L.P_DOOR_RANGE] = br.door_sight_range
    ip[L.P_SIGHT_LINES] = br.sight_lines == "any_angle"
    ip[L.P_CLOSEST] = 0 if br.attack_own_space else 1
    # portal pieces on the board (sizes the sight kernel's stack): a transform may bring any tile
    # not in play, so as many as the whole catalogue holds (sim/engine/tiles/swap_in_play.py)
    ip[L.P_N_PIECES] = max(graph.n_pieces, int((catalogue.tiles.feature == PORTAL).sum()))
    ip[L.P_REVEAL_DEATHS] = gr.reveal_deaths
    ip[L.P_REVEAL_ROTATION] = gr.reveal_rotation
    ip[L.P_TURNS_AFTER] = gr.turns_after_reveal
    ip[L.P_LEASH] = gr.cpu_leash == "tile"
    ip[L.P_CPU_RANGE] = gr.cpu_default_range
    ip[L.P_CPUS_APOC] = gr.cpus_act_during_apocalypse
    ip[L.P_STALEMATE] = gr.stalemate_rotations
    ip[L.P_CAP] = gr.rotation_cap
    ip[L.P_TIEBREAK] = gr.simultaneous_tiebreak == "health_before"
    ip[L.P_APOC_POS] = apoc_pos
    ip[L.P_CLOCK] = gr.effect_clock == "rotations"
    ip[L.P_HANDOVERS] = gr.turn_order == "hand_over"
    ip[L.P_TILE_REVIVE_FIRST] = gr.tile_revive == "first"
    ip[L.P_CLONE_HEALTH] = catalogue.entities.rules[R_CLONE_HEALTH]
    ip[L.P_WATER_DIE] = br.water_die
    ip[L.P_WATER_MIN] = br.water_success_min
    ip[L.P_FIRE_DAMAGE] = br.fire_wall_damage
    ip[L.P_FIRE_CROSSES] = br.fire_wall_fail_crosses
    ip[L.P_FALL_DIE] = br.falling_die
    ip[L.P_FALL_MAX] = br.falling_max_face
    ip[L.P_FALL_DAMAGE] = br.falling_damage
    ip[L.P_WATER_STREAK] = br.water_streak_max
    ip[L.P_STREAK_ALL] = br.water_streak_counts == "all"
    ip[L.P_GROUP_DECLARED] = r.group_order == "declared"
    return ip


def _cpus(board: Board, tiles) -> tuple[np.ndarray, list[str]]:
    """One CPU per tile that brings one, on its ``C`` space (else the tile's middle floor space)."""
    rows, names = [], []
    for R in range(GRID):
        for C in range(GRID):
            t = board.tile_at((R, C))
            if t < 0:
                continue
            cpu = dict(zip(CPU_FIELDS, (int(v) for v in tiles.cpu[t])))
            if cpu["health"] < 1:
                continue
            size = int(tiles.size[t])
            spots = np.argwhere((tiles.feature[t, :size, :size] == CPU_FEATURE)
                                & (tiles.space[t, :size, :size] == FLOOR))
            if not len(spots):
                floors = np.argwhere(tiles.space[t, :size, :size] == FLOOR)
                mid = (size - 1) / 2
                spots = floors[np.argsort(np.abs(floors - mid).sum(axis=1), kind="stable")]
            i, j = (int(v) for v in spots[0])  # the spot's (row, column) in the tile
            row = np.zeros(CPU_COLS, np.int64)
            row[CPU_SPACE] = local_space((R, C), i, j, size)
            row[CPU_HOME] = R * GRID + C
            row[CPU_HEALTH] = cpu["health"]
            row[CPU_DEFENSE] = max(cpu["defense"], 0)
            row[CPU_ATTACKS] = max(cpu["attacks"], 0)
            row[CPU_TIER] = max(cpu["tier"], 1)
            row[CPU_SPEED] = cpu["speed"]
            row[CPU_RANGE] = cpu["range"]
            rows.append(row)
            names.append(tiles.cpu_name[t] or tiles.names[t])
    return np.asarray(rows, np.int64).reshape(-1, CPU_COLS), names


def _pos_dist(board: Board) -> np.ndarray:
    """``int64[49, 49]``: fewest tile boundaries between two grid positions, portals linking their
    positions at no cost. Every boundary a move or a line of sight crosses costs at least 1 speed
    or 1 range (tiles connect only orthogonally, through doorways), so this is a lower bound that
    lets kernels skip line-of-sight searches that cannot reach (voids only lengthen paths)."""
    n = GRID * GRID
    d = np.full((n, n), 10**6, np.int64)
    np.fill_diagonal(d, 0)
    for p in range(n):
        r, c = divmod(p, GRID)
        for q in (p + 1 if c + 1 < GRID else -1, p + GRID if r + 1 < GRID else -1):
            if q >= 0:
                d[p, q] = d[q, p] = 1
    for (ra, ca, _, _), (rb, cb, _, _) in board.portals:
        a, b = int(ra) * GRID + int(ca), int(rb) * GRID + int(cb)
        d[a, b] = d[b, a] = 0
    for k in range(n):  # Floyd–Warshall on 49 positions
        d = np.minimum(d, d[:, k:k + 1] + d[k:k + 1, :])
    return d


def build_setup(catalogue, board: Board, game_rules: GameRules, apocalypses: ApocalypseIndex
                ) -> GameSetup:
    tiles, br, rules = catalogue.tiles, catalogue.board_rules, catalogue.rules
    apoc = np.argwhere(board.tiles == APOCALYPSE)
    if len(apoc) != 1:
        raise ValueError("a game board holds exactly one face-down Apocalypse tile "
                         "(\"A single Apocalypse Tile must be in play in every game\")")
    apoc_pos = int(apoc[0][0] * GRID + apoc[0][1])
    revealed = board.copy()
    revealed.tiles[apoc[0][0], apoc[0][1]] = tiles.uncovered  # "treated as a 1x1 Tile"
    g0 = compile_board(board, tiles, br)
    g1 = compile_board(revealed, tiles, br)
    suit = np.full(GRID * GRID, -1, np.int64)
    for p in range(GRID * GRID):
        t = int(board.tiles.flat[p])
        if t >= 0:
            suit[p] = int(tiles.suit[t])
    spawn = np.zeros((4, 3), np.int64)
    for team in range(4):
        for k in range(3):
            r, c = (int(v) for v in board.spawns[team, k])
            t = board.tile_at((r, c))
            size = int(tiles.size[t])
            spawn[team, k] = local_space((r, c), size // 2, size // 2, size)
    fp = np.zeros(L.NFP, np.float64)
    fp[L.F_RED] = rules.red_health_fraction
    fp[L.W_DAMAGE:] = game_rules.greedy
    tail, ctail = combat_tails(tuple(int(f) for f in rules.tier_faces))
    static = new_static(
        move_nbr2=np.stack([g0.move_nbr, g1.move_nbr]),
        sight_nbr2=np.stack([g0.sight_nbr, g1.sight_nbr]),
        sight_flag2=np.stack([g0.sight_flag, g1.sight_flag]),
        kind2=np.stack([g0.kind, g1.kind]), tile_pos2=np.stack([g0.tile_pos, g1.tile_pos]),
        twin2=np.stack([g0.twin, g1.twin]), move_roll=g1.move_roll, pos_suit=suit,
        pos_layer=layers_grid().astype(np.int64).ravel(), spawn_space=spawn,
        ip=_int_params(catalogue, g1, game_rules, apoc_pos), fp=fp,
        tier_faces=rules.tier_faces.astype(np.int64),
        tier_reject=damage_reject(rules.tier_faces), apoc_code=apocalypses.code,
        apoc_params=apocalypses.params, tail=tail, ctail=ctail, pos_dist=_pos_dist(board),
        item_fx=item_table(catalogue), tile_fx=tile_table(catalogue),
        pos_tile=board.tiles.astype(np.int64).ravel().copy(), feature=g1.feature.copy(),
        hits=hit_table(rules.defense_die, rules.max_defense + rules.defense_margin, MAX_ATTACKS))
    assert static.kind2.shape[1] == N_SPACES
    rows, names = _cpus(board, tiles)
    return GameSetup(static, rows, tuple(names), board, game_rules, apocalypses)


def stack_setups(setups: list[GameSetup]) -> tuple[Stacked, np.ndarray, np.ndarray]:
    """Many boards' ``Static`` arrays stacked on a leading board axis, plus the CPU rows padded
    to ``[board, k, CPU_COLS]`` and each board's CPU count."""
    ss = [s.static for s in setups]
    stack = lambda f: np.stack([getattr(s, f) for s in ss])  # noqa: E731
    first = ss[0]
    static = Stacked(stack("move_nbr2"), stack("sight_nbr2"), stack("sight_flag2"), stack("kind2"),
                      stack("tile_pos2"), stack("twin2"), stack("move_roll"), stack("pos_suit"),
                      first.pos_layer, stack("spawn_space"), stack("ip"), first.fp,
                      first.tier_faces, first.tier_reject, first.apoc_code, first.apoc_params,
                      first.tail, first.ctail, stack("pos_dist"), first.item_fx, first.tile_fx,
                      stack("pos_tile"), stack("feature"), first.hits)
    k = max(max(s.cpu_rows.shape[0] for s in setups), 1)
    cpu = np.zeros((len(setups), k, CPU_COLS), np.int64)
    n_cpu = np.zeros(len(setups), np.int64)
    for i, s in enumerate(setups):
        cpu[i, : s.cpu_rows.shape[0]] = s.cpu_rows
        n_cpu[i] = s.cpu_rows.shape[0]
    return static, cpu, n_cpu
