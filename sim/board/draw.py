"""Draw a board with matplotlib: suits coloured, doorways, walls, water, portals, spawns, legend.

Drawn from the compiled graph's space grid and the catalogue's edges so the picture shows what the
engine uses. Written atomically (temporary file in the same folder, then ``os.replace``) so a
reader never sees half a PNG.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from sim.catalogue.board_rules import GRID

from .geometry import APOCALYPSE, Board, offset, portal_spaces, space_rc
from .layout import (BLOCK, CPU, DOOR, FIRE_WALL, GAP, INTERACT, LADDER, MAX_SIZE, PLATFORM, WALL,
                     WATER, WATER_EDGE, WATER_WALL)

EDGE_STYLE = {WALL: ("#ff69b4", "wall (pink)"), WATER_WALL: ("#1f5fbf", "water wall"),
              FIRE_WALL: ("#ff8c00", "fire wall"), GAP: ("#333333", "obscuring gap"),
              DOOR: ("#8b4513", "door / window"), WATER_EDGE: ("#4fa3ff", "water (edge)")}
FEATURE_MARK = {INTERACT: ("*", "interactable"), LADDER: ("H", "ladder"), PLATFORM: ("^", "platform"),
                CPU: ("X", "CPU")}
TEAM_COLOURS = ("#d62728", "#2ca02c", "#1f77b4", "#9467bd")


def draw_board(board: Board, catalogue, suits: tuple[str, ...], path: Path, title: str = "") -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    span = GRID * MAX_SIZE
    cmap = plt.get_cmap("tab20")
    fig, ax = plt.subplots(figsize=(11, 9.5))
    ax.set_xlim(0, span)
    ax.set_ylim(span, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    handles: dict[str, object] = {}
    for R in range(GRID):
        for C in range(GRID):
            ax.add_patch(Rectangle((C * MAX_SIZE, R * MAX_SIZE), MAX_SIZE, MAX_SIZE,
                                   facecolor="#f4f4f4", edgecolor="#cccccc", lw=0.5))
            t = board.tile_at((R, C))
            if t < 0:
                label = "Apocalypse (face-down)" if t == APOCALYPSE else "void"
                colour = "black" if t == APOCALYPSE else "#777777"
                ax.add_patch(Rectangle((C * MAX_SIZE, R * MAX_SIZE), MAX_SIZE, MAX_SIZE,
                                       facecolor=colour, hatch="xx", edgecolor="white"))
                handles[label] = Patch(facecolor=colour, hatch="xx", label=label)
                continue
            _draw_tile(ax, board, catalogue, suits, R, C, t, cmap, handles)
    for a, b in portal_spaces(board, catalogue):
        (ra, ca), (rb, cb) = space_rc(a), space_rc(b)
        ax.plot([ca + .5, cb + .5], [ra + .5, rb + .5], ":", color="purple", lw=1)
        ax.plot([ca + .5, cb + .5], [ra + .5, rb + .5], "o", color="purple", ms=9, mfc="none", mew=2)
    handles["portal"] = Line2D([], [], marker="o", color="purple", mfc="none", ls=":", label="portal")
    for k, team in enumerate(board.spawns):
        for r, c in team:
            ax.add_patch(Rectangle((c * MAX_SIZE + .15, r * MAX_SIZE + .15), MAX_SIZE - .3,
                                   MAX_SIZE - .3, fill=False, edgecolor=TEAM_COLOURS[k], lw=2.5))
        handles[f"spawn of team {k + 1}"] = Patch(fill=False, edgecolor=TEAM_COLOURS[k], lw=2.5,
                                                  label=f"spawn of team {k + 1}")
    handles["doorway"] = Line2D([], [], color="gold", lw=4, label="doorway (yellow)")
    ax.legend(handles=list(handles.values()), loc="center left", bbox_to_anchor=(1.01, 0.5),
              fontsize=7, frameon=False)
    if title:
        ax.set_title(title)
    fig.tight_layout()
    path = Path(path)
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=path.parent or Path("."))
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110, format="png", bbox_inches="tight")  # keep the legend whole
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    finally:
        plt.close(fig)


def _draw_tile(ax, board, catalogue, suits, R, C, t, cmap, handles) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    s = int(catalogue.size[t])
    o = offset(s)
    top, left = R * MAX_SIZE + o, C * MAX_SIZE + o
    suit = int(catalogue.suit[t])
    colour = cmap(suit) if suit >= 0 else "white"
    name = suits[suit] if suit >= 0 else "Uncovered Tile (no suit)"
    handles.setdefault(name, Patch(facecolor=colour, edgecolor="black", label=name))
    ax.add_patch(Rectangle((left, top), s, s, facecolor=colour, edgecolor="black", lw=1.2))
    if s >= 3:
        ax.text(left + s / 2, top + 0.12, catalogue.names[t], ha="center", va="top", fontsize=5)
    for i in range(s):
        for j in range(s):
            kind, feat = catalogue.space[t, i, j], catalogue.feature[t, i, j]
            if kind == WATER:
                ax.add_patch(Rectangle((left + j, top + i), 1, 1, facecolor="#4fa3ff", lw=0))
                handles.setdefault("water", Patch(facecolor="#4fa3ff", label="water"))
            elif kind == BLOCK:
                ax.add_patch(Rectangle((left + j, top + i), 1, 1, facecolor="#ff69b4", lw=0))
                handles.setdefault("wall block", Patch(facecolor="#ff69b4", label="wall block"))
            if feat in FEATURE_MARK:
                mark, label = FEATURE_MARK[feat]
                ax.plot(left + j + .5, top + i + .5, marker=mark if mark != "H" else "$H$",
                        color="black", ms=6, ls="none")
                handles.setdefault(label, Line2D([], [], marker=mark if mark != "H" else "$H$",
                                                 color="black", ls="none", label=label))
            if j + 1 < s and catalogue.edge_e[t, i, j] in EDGE_STYLE:
                col, label = EDGE_STYLE[int(catalogue.edge_e[t, i, j])]
                ax.plot([left + j + 1] * 2, [top + i, top + i + 1], color=col, lw=2.5)
                handles.setdefault(label, Line2D([], [], color=col, lw=2.5, label=label))
            if i + 1 < s and catalogue.edge_s[t, i, j] in EDGE_STYLE:
                col, label = EDGE_STYLE[int(catalogue.edge_s[t, i, j])]
                ax.plot([left + j, left + j + 1], [top + i + 1] * 2, color=col, lw=2.5)
                handles.setdefault(label, Line2D([], [], color=col, lw=2.5, label=label))
    mid = s // 2
    ends = {0: ((left + mid, top), (left + mid + 1, top)), 1: ((left + s, top + mid), (left + s, top + mid + 1)),
            2: ((left + mid, top + s), (left + mid + 1, top + s)), 3: ((left, top + mid), (left, top + mid + 1))}
    for side in range(4):
        # Uncovered Tiles' doorways "are simply invisible rather than yellow"
        if catalogue.doorways[t, side] and suit >= 0:
            (x0, y0), (x1, y1) = ends[side]
            ax.plot([x0, x1], [y0, y1], color="gold", lw=4, solid_capstyle="butt")
