"""Lay out a legal starting board from a seed, and print it as text.

Legal (book): "Every tile in the game has assigned layers in which it can spawn"; "A single
Apocalypse Tile must be in play in every game, spawning face-down somewhere in Layer 2"; "The three
Uncovered Tiles in front of a team's Playspace mark that team's Spawn"; tiles that "can only be
spawned onto the board through specific means" (``spawnable = false``) are never laid out.
House rulings (rules.toml [board]): spawn positions, ``uncovered_chance``, each league tile at most
once. Randomness: ``default_rng(SeedSequence(seed))`` — the same seed gives the same board.
"""

from __future__ import annotations

import numpy as np

from sim.catalogue.board_rules import GRID, BoardRules
from sim.catalogue.tile_layout import MAX_SIZE, PORTAL, draw_layout

from .geometry import APOCALYPSE, VOID, Board, layers_grid

_UNSET = -9


def generate_board(catalogue, rules: BoardRules, seed: int) -> Board:
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    tiles = np.full((GRID, GRID), _UNSET, np.int32)
    layers = layers_grid()
    for team in rules.team_spawns:
        for r, c in team:
            tiles[r, c] = catalogue.uncovered
    ring = [(r, c) for r in range(GRID) for c in range(GRID)
            if layers[r, c] == rules.apocalypse_layer and tiles[r, c] == _UNSET]
    r, c = ring[int(rng.integers(len(ring)))]
    tiles[r, c] = APOCALYPSE
    used = np.zeros(len(catalogue), np.bool_)
    league = np.arange(len(catalogue)) != catalogue.uncovered
    # inner layers first: they have the fewest candidate tiles
    order = sorted(((int(layers[r, c]), r, c) for r in range(GRID) for c in range(GRID)
                    if tiles[r, c] == _UNSET))
    for layer, r, c in order:
        cands = np.flatnonzero(league & catalogue.spawnable & ~used & catalogue.layers[:, layer - 1])
        if rng.random() < rules.uncovered_chance or cands.size == 0:
            tiles[r, c] = catalogue.uncovered
            continue
        t = int(cands[rng.integers(cands.size)])
        tiles[r, c] = t
        used[t] = True
    return Board(tiles, rules.team_spawns.copy(), pair_portals(tiles, catalogue))


def pair_portals(tiles: np.ndarray, catalogue) -> np.ndarray:
    """A tile with two portal pieces links them; single pieces pair up in reading order of
    their positions (house ruling); a last odd piece stays unlinked."""
    pairs, singles = [], []
    for r in range(GRID):
        for c in range(GRID):
            t = int(tiles[r, c])
            if t < 0:
                continue
            s = int(catalogue.size[t])
            pieces = [[r, c, int(i), int(j)] for i, j in np.argwhere(catalogue.feature[t, :s, :s] == PORTAL)]
            if len(pieces) == 2:
                pairs.append(pieces)
            elif len(pieces) == 1:
                singles.append(pieces[0])
    for k in range(0, len(singles) - 1, 2):
        pairs.append([singles[k], singles[k + 1]])
    return np.array(pairs, np.int32).reshape(-1, 2, 4)


def render_text(board: Board, catalogue, suits: tuple[str, ...]) -> str:
    """The board as text: each position an 11×11 block, tile borders with gaps at doorways,
    spawns marked with their team's number, then one line per position."""
    block = 2 * MAX_SIZE + 1
    grid = [[" "] * (GRID * block) for _ in range(GRID * block)]
    spawn_team = {(int(r), int(c)): k + 1 for k, team in enumerate(board.spawns) for r, c in team}
    for R in range(GRID):
        for C in range(GRID):
            t = board.tile_at((R, C))
            top, left = R * block, C * block
            if t < 0:
                ch = "A" if t == APOCALYPSE else "X"
                for i in range(1, block - 1):
                    for j in range(1, block - 1):
                        grid[top + i][left + j] = ch if (i + j) % 2 == 0 else " "
                continue
            s = int(catalogue.size[t])
            rows = draw_layout(catalogue.space[t], catalogue.feature[t], catalogue.edge_e[t],
                               catalogue.edge_s[t], s)
            o = MAX_SIZE - s + 1  # first row of the drawing inside the block (centred)
            for i, row in enumerate(rows):
                for j, ch in enumerate(row):
                    grid[top + o + i][left + o + j] = ch
            if (R, C) in spawn_team:
                grid[top + MAX_SIZE][left + MAX_SIZE] = str(spawn_team[(R, C)])
            lo, hi = o - 1, o + 2 * s - 1
            for k in range(lo, hi + 1):
                for a, b, ch in ((lo, k, "-"), (hi, k, "-"), (k, lo, "|"), (k, hi, "|")):
                    grid[top + a][left + b] = "+" if k in (lo, hi) else ch
            mid = MAX_SIZE
            for side, (a, b) in zip("NESW", ((lo, mid), (mid, hi), (hi, mid), (mid, lo))):
                if catalogue.doorways[t, "NESW".index(side)]:
                    grid[top + a][left + b] = " "
    lines = ["".join(row).rstrip() for row in grid]
    layers = layers_grid()
    lines.append("")
    for R in range(GRID):
        for C in range(GRID):
            t = board.tile_at((R, C))
            if t == APOCALYPSE:
                what = "Apocalypse (face-down)"
            elif t == VOID:
                what = "void (destroyed)"
            else:
                suit = suits[catalogue.suit[t]] if catalogue.suit[t] >= 0 else "no suit"
                s = int(catalogue.size[t])
                what = f"{catalogue.names[t]} ({suit}, {s}×{s})"
            team = spawn_team.get((R, C))
            spawn = f"  [spawn of team {team}]" if team else ""
            lines.append(f"({R},{C}) layer {layers[R, C]}: {what}{spawn}")
    if len(board.portals):
        links = ", ".join(f"({a[0]},{a[1]})<->({b[0]},{b[1]})" for a, b in board.portals)
        lines.append(f"portals: {links}")
    return "\n".join(lines)
