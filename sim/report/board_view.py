"""One board renderer (matplotlib, Agg) for ``bwlab board --png``, ``play --png-every`` frames and
``replay --gif/--html``.

Why one: the three pictures used to come from two drawings (a tile map with 5 pt names and no
axes; a game map of unlabelled dots with no team key, whose last frame, most of the board void,
was black). Everything drawn here comes from a :class:`View` — the tiles at the 49 positions,
the pieces with their health, the teams — so a laid-out board, a game in play and a replayed log
look the same. What a frame shows:

* the tiles by suit, with their walls, water, doorways, features and portals, each tile's name
  in 8 pt; row and column numbers (0–6) on the axes;
* every piece in play as a dot in its team's colour (CPUs black, vehicles grey) with a short
  name and a health bar; a dead character as a cross where it died;
* a panel beside the board: the team key (colour, name, player) and each character's health,
  dead ones marked; at the end the result first — the standings, not a dark board.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import numpy as np

from sim.board.geometry import APOCALYPSE, SPAN, offset
from sim.catalogue.board_rules import GRID
from sim.catalogue.tile_layout import BLOCK, MAX_SIZE, WATER
from sim.report.board_style import EDGE_STYLE, FEATURE_MARK, TEAM_COLOURS

FONT = 8          # pt: the smallest text drawn (tile names, piece names, the panel)
FIGSIZE = (13.0, 10.0)
CPU_COLOUR, VEHICLE_COLOUR, DEAD_ALPHA = "black", "#7f7f7f", 0.55
STACK, LINE = 4, 0.62  # living pieces listed on one space at most, and their spacing (spaces)


@dataclass
class Piece:
    """One entity as drawn: where it stands (space id, -1 off the board) and its health."""

    label: str                 # "Luffy (T1)", "Coyote (CPU)"
    short: str                 # the name on the board, ≤ 8 characters
    team: int                  # 0..3, -1 for CPUs and unoccupied vehicles
    space: int
    health: int
    max_health: int
    alive: bool = True
    character: bool = True     # a team's character card (listed in the panel)
    colour: str = ""           # default: the team's colour


@dataclass
class View:
    """What one picture shows. ``tiles[R, C]`` is a catalogue index, VOID or APOCALYPSE."""

    tiles: np.ndarray
    spawns: np.ndarray                       # int[team, 3, 2] positions
    portals: list = field(default_factory=list)   # (space, space) pairs
    announced: np.ndarray | None = None      # bool[7, 7]: to be destroyed at the next GM Turn
    pieces: list = field(default_factory=list)
    teams: list = field(default_factory=list)     # "Team 1 Straw Hats (greedy)" per team
    title: str = ""
    headline: str = ""                       # the result, on the final frame
    events: list = field(default_factory=list)    # a few sentences shown under the panel
    revealed: bool = False                   # the Apocalypse is revealed: a 1×1 tile


def piece_colour(p: Piece) -> str:
    if p.colour:
        return p.colour
    return TEAM_COLOURS[p.team] if 0 <= p.team < len(TEAM_COLOURS) else CPU_COLOUR


def draw_view(view: View, catalogue, suits: tuple[str, ...]):
    """A matplotlib Figure of ``view`` (the caller saves it; nothing is registered with pyplot)."""
    fig, ax, panel = _static(view, catalogue, suits)
    _dynamic(fig, ax, panel, view)
    return fig


def _static(view: View, catalogue, suits):
    """The figure with what changes only when a tile does: tiles, portals, spawns, the legend."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=FIGSIZE)
    ax = fig.add_axes((0.05, 0.155, 0.56, 0.76))
    panel = fig.add_axes((0.63, 0.02, 0.36, 0.93))
    panel.axis("off")
    panel.set_xlim(0, 1)
    panel.set_ylim(0, 1)
    handles: dict[str, object] = {}
    _board_axes(ax)
    for R in range(GRID):
        for C in range(GRID):
            _draw_position(ax, view, catalogue, suits, R, C, handles)
    _draw_portals(ax, view.portals, handles)
    _draw_spawns(ax, view.spawns)
    _piece_keys(handles)
    fig.legend(handles=list(handles.values()), loc="lower left", bbox_to_anchor=(0.04, 0.0),
               ncol=4, fontsize=FONT, frameon=False)
    return fig, ax, panel


def _dynamic(fig, ax, panel, view: View) -> None:
    """What changes every step: the pieces, the panel, the title."""
    _draw_pieces(ax, view.pieces)
    _draw_panel(panel, view)
    if view.title:
        fig.text(0.33, 0.985, view.title, ha="center", va="top", fontsize=12, gid="title")


def _static_key(view: View) -> bytes:
    announced = b"" if view.announced is None else np.asarray(view.announced).tobytes()
    return (np.asarray(view.tiles).tobytes() + announced + np.asarray(view.spawns).tobytes()
            + repr((sorted(map(tuple, view.portals)), view.revealed)).encode())


class Painter:
    """Frames as Pillow images, fast: the static layer is drawn once (again only when a tile
    changes) and each frame draws its pieces, panel and title over a copy of it (Agg blitting).
    About 4× faster than drawing every frame whole; the picture is the same."""

    def __init__(self, catalogue, suits, dpi: int):
        self.catalogue, self.suits, self.dpi = catalogue, suits, dpi
        self._key = None

    def image(self, view: View):
        from PIL import Image

        key = _static_key(view)
        if key != self._key:
            self._fig, self._ax, self._panel = _static(view, self.catalogue, self.suits)
            self._fig.set_dpi(self.dpi)
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            self._canvas = FigureCanvasAgg(self._fig)
            self._canvas.draw()
            self._background = self._canvas.copy_from_bbox(self._fig.bbox)
            self._key = key
        fig, canvas = self._fig, self._canvas
        before = {id(a) for a in _artists(fig, self._ax, self._panel)}
        _dynamic(fig, self._ax, self._panel, view)
        new = [a for a in _artists(fig, self._ax, self._panel) if id(a) not in before]
        canvas.restore_region(self._background)
        for a in sorted(new, key=lambda a: a.get_zorder()):
            a.set_animated(True)
            fig.draw_artist(a)
        img = Image.frombuffer("RGBA", canvas.get_width_height(),
                               bytes(canvas.buffer_rgba())).convert("RGB")
        for a in new:
            a.remove()
        return img


def _artists(fig, *axes) -> list:
    return [*fig.texts, *(a for ax in axes for a in (*ax.lines, *ax.patches, *ax.texts))]


def _board_axes(ax) -> None:
    """The board in space units (35 a side, row 0 at the top), numbered by position."""
    span = GRID * MAX_SIZE
    ax.set_xlim(0, span)
    ax.set_ylim(span, 0)
    ax.set_aspect("equal")
    ticks = [MAX_SIZE * k + MAX_SIZE / 2 for k in range(GRID)]
    ax.set_xticks(ticks, [str(k) for k in range(GRID)], fontsize=10)
    ax.set_yticks(ticks, [str(k) for k in range(GRID)], fontsize=10)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("column", fontsize=10)
    ax.set_ylabel("row", fontsize=10)
    ax.tick_params(length=0)
    for s in ax.spines.values():
        s.set_visible(False)


def _draw_position(ax, view, catalogue, suits, R, C, handles) -> None:
    from matplotlib.patches import Patch, Rectangle

    x, y = C * MAX_SIZE, R * MAX_SIZE
    ax.add_artist(Rectangle((x, y), MAX_SIZE, MAX_SIZE, facecolor="#f4f4f4", edgecolor="#bbbbbb",
                           lw=0.6))
    t = int(view.tiles[R, C])
    if t == APOCALYPSE and view.revealed:  # "When revealed it is treated as a 1x1 Tile"
        o = offset(1)
        ax.add_artist(Rectangle((x + o, y + o), 1, 1, facecolor="#8b0000", edgecolor="black",
                                lw=1.2))
        ax.text(x + MAX_SIZE / 2, y + 0.08, "Apocalypse", ha="center", va="top", fontsize=FONT,
                gid="tile-name", bbox=dict(boxstyle="square,pad=0.05", facecolor="white",
                                           alpha=0.6, lw=0))
        handles.setdefault("apocalypse", Patch(facecolor="#8b0000", edgecolor="black",
                                               label="Apocalypse tile (revealed)"))
    elif t < 0:
        face_down = t == APOCALYPSE
        label = "Apocalypse (face-down)" if face_down else "void (destroyed)"
        colour = "#4a4a4a" if face_down else "#9a9a9a"
        ax.add_artist(Rectangle((x, y), MAX_SIZE, MAX_SIZE, facecolor=colour, hatch="xx",
                                edgecolor="white", lw=0))
        handles.setdefault(label, Patch(facecolor=colour, hatch="xx", edgecolor="white",
                                        label=label))
    else:
        _draw_tile(ax, catalogue, suits, R, C, t, handles)
    if view.announced is not None and view.announced[R, C]:
        ax.add_artist(Rectangle((x + .1, y + .1), MAX_SIZE - .2, MAX_SIZE - .2, fill=False,
                               hatch="//", edgecolor="red", lw=1.5))
        handles.setdefault("announced", Patch(fill=False, hatch="//", edgecolor="red",
                                              label="to be destroyed"))


def _draw_tile(ax, catalogue, suits, R, C, t, handles) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle
    from matplotlib import colormaps

    s = int(catalogue.size[t])
    o = offset(s)
    top, left = R * MAX_SIZE + o, C * MAX_SIZE + o
    suit = int(catalogue.suit[t])
    colour = colormaps["tab20"](suit) if suit >= 0 else "white"
    name = suits[suit] if suit >= 0 else "Uncovered Tile (no suit)"
    handles.setdefault(name, Patch(facecolor=colour, edgecolor="black", label=name))
    ax.add_artist(Rectangle((left, top), s, s, facecolor=colour, edgecolor="black", lw=1.2))
    for i in range(s):
        for j in range(s):
            _draw_space(ax, catalogue, t, i, j, s, left, top, handles)
    mid = s // 2
    ends = ((left + mid, top, left + mid + 1, top), (left + s, top + mid, left + s, top + mid + 1),
            (left + mid, top + s, left + mid + 1, top + s), (left, top + mid, left, top + mid + 1))
    for side in range(4):
        # Uncovered Tiles' doorways "are simply invisible rather than yellow"
        if catalogue.doorways[t, side] and suit >= 0:
            x0, y0, x1, y1 = ends[side]
            ax.plot([x0, x1], [y0, y1], color="gold", lw=4, solid_capstyle="butt")
            handles.setdefault("doorway", Line2D([], [], color="gold", lw=4, label="doorway"))
    words = "\n".join(textwrap.wrap(catalogue.names[t], 13)[:2])
    ax.text(C * MAX_SIZE + MAX_SIZE / 2, R * MAX_SIZE + 0.08, words, ha="center", va="top",
            fontsize=FONT, gid="tile-name", linespacing=0.9,
            bbox=dict(boxstyle="square,pad=0.05", facecolor="white", alpha=0.6, lw=0))


def _draw_space(ax, catalogue, t, i, j, s, left, top, handles) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    kind, feat = catalogue.space[t, i, j], catalogue.feature[t, i, j]
    if kind == WATER:
        ax.add_artist(Rectangle((left + j, top + i), 1, 1, facecolor="#4fa3ff", lw=0))
        handles.setdefault("water", Patch(facecolor="#4fa3ff", label="water"))
    elif kind == BLOCK:
        ax.add_artist(Rectangle((left + j, top + i), 1, 1, facecolor="#ff69b4", lw=0))
        handles.setdefault("wall block", Patch(facecolor="#ff69b4", label="wall block"))
    if feat in FEATURE_MARK:
        mark, label = FEATURE_MARK[feat]
        mark = "$H$" if mark == "H" else mark
        ax.plot(left + j + .5, top + i + .5, marker=mark, color="black", ms=6, ls="none")
        handles.setdefault(label, Line2D([], [], marker=mark, color="black", ls="none",
                                         label=label))
    for edge, along in ((catalogue.edge_e, True), (catalogue.edge_s, False)):
        if (j + 1 < s if along else i + 1 < s) and edge[t, i, j] in EDGE_STYLE:
            col, label = EDGE_STYLE[int(edge[t, i, j])]
            xs = [left + j + 1] * 2 if along else [left + j, left + j + 1]
            ys = [top + i, top + i + 1] if along else [top + i + 1] * 2
            ax.plot(xs, ys, color=col, lw=2.5)
            handles.setdefault(label, Line2D([], [], color=col, lw=2.5, label=label))


def _draw_portals(ax, portals, handles) -> None:
    from matplotlib.lines import Line2D

    for a, b in portals:
        (ra, ca), (rb, cb) = divmod(int(a), SPAN), divmod(int(b), SPAN)
        ax.plot([ca + .5, cb + .5], [ra + .5, rb + .5], ":", color="purple", lw=1)
        ax.plot([ca + .5, cb + .5], [ra + .5, rb + .5], "o", color="purple", ms=9, mfc="none",
                mew=2)
    if len(portals):
        handles["portal"] = Line2D([], [], marker="o", color="purple", mfc="none", ls=":",
                                   label="portal (linked pair)")


def _piece_keys(handles: dict) -> None:
    """The legend's keys for what the tiles do not show: a living CPU (a black dot), a dead
    piece (a faded cross in its team's colour, where it fell) and a team's spawn (an outline in
    its colour). Why: the legend had none of them, and its "CPU" was the dead piece's cross."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles["CPU"] = Line2D([], [], marker="o", color=CPU_COLOUR, ls="none", label="CPU")
    handles["dead"] = Line2D([], [], marker="X", color="grey", alpha=DEAD_ALPHA, mec="white",
                             ms=8, ls="none", label="dead (where it fell)")
    handles["spawn"] = Patch(fill=False, edgecolor="grey", lw=2.5, label="spawn (team colour)")


def _draw_spawns(ax, spawns) -> None:
    from matplotlib.patches import Rectangle

    for k, team in enumerate(spawns):
        for r, c in team:
            ax.add_artist(Rectangle((c * MAX_SIZE + .15, r * MAX_SIZE + .15), MAX_SIZE - .3,
                                   MAX_SIZE - .3, fill=False, edgecolor=TEAM_COLOURS[k], lw=2.5))


def _draw_pieces(ax, pieces) -> None:
    """Living pieces sharing a space are listed down from it, one line each (dot, health bar,
    name), at most ``STACK`` lines: past that the last line says how many more (the panel lists
    them all). A dead character is a faded cross on the space where it fell.
    (Patches, here and above, are added with ``add_artist``: the limits are fixed, and skipping
    add_patch's autoscale bookkeeping makes a frame about a third cheaper.)"""
    stacks: dict[int, list[Piece]] = {}
    for p in pieces:
        if p.space < 0:
            continue
        if not p.alive:
            r, c = divmod(p.space, SPAN)
            ax.plot(c + .5, r + .5, marker="X", color=piece_colour(p), ms=8, alpha=DEAD_ALPHA,
                    mec="white", ls="none", gid="dead")
            continue
        stacks.setdefault(p.space, []).append(p)
    for space, group in stacks.items():
        r, c = divmod(space, SPAN)
        shown = group if len(group) <= STACK else group[:STACK - 1]
        for k, p in enumerate(shown):
            _draw_piece(ax, p, c + .5, r + .5 + LINE * k)
        if len(shown) < len(group):
            ax.text(c + .2, r + .5 + LINE * len(shown), f"+{len(group) - len(shown)} more",
                    fontsize=FONT, va="center", ha="left", zorder=6, gid="more",
                    bbox=dict(boxstyle="square,pad=0.05", facecolor="white", alpha=0.75, lw=0))


def _draw_piece(ax, p: Piece, x: float, y: float) -> None:
    from matplotlib.patches import Rectangle

    colour = piece_colour(p)
    ax.plot(x, y, "o", color=colour, ms=8, mec="white", mew=1, gid="piece", zorder=5)
    frac = min(max(p.health, 0) / p.max_health, 1.0) if p.max_health > 0 else 0.0
    ax.add_artist(Rectangle((x + .35, y - .12), 1.0, .24, facecolor="#dddddd",
                            edgecolor="black", lw=.4, zorder=5))
    ax.add_artist(Rectangle((x + .35, y - .12), frac, .24, facecolor=_health_colour(frac),
                            lw=0, zorder=6, gid="health-bar"))
    ax.text(x + 1.45, y, p.short, fontsize=FONT, va="center", ha="left", zorder=6,
            color=colour, gid="piece-name", fontweight="bold",
            bbox=dict(boxstyle="square,pad=0.05", facecolor="white", alpha=0.75, lw=0))


def _health_colour(frac: float) -> str:
    return "#2ca02c" if frac > 0.5 else "#ffbf00" if frac > 0.25 else "#d62728"


def _draw_panel(panel, view: View) -> None:
    """The team key and standings: each team's colour, name and player, then each character
    with its health (or dead), one line each; the result first on the final frame."""
    y = 1.0
    if view.headline:
        panel.text(0, y, view.headline, fontsize=12, fontweight="bold", va="top", wrap=True,
                   gid="headline")
        y -= 0.06
    panel.text(0, y, "team key", fontsize=10, fontweight="bold", va="top", gid="team-key")
    y -= 0.035
    for k, name in enumerate(view.teams):
        colour = TEAM_COLOURS[k]
        chars = [p for p in view.pieces if p.character and p.team == k]
        alive = sum(p.alive for p in chars)
        panel.add_artist(_square(0, y - 0.022, colour))
        panel.text(0.05, y, f"{name} — {alive} of {len(chars)} alive" if chars else name,
                   fontsize=9, fontweight="bold", va="top", color=colour, gid="team-key-entry")
        y -= 0.03
        for p in chars:
            _panel_line(panel, p, y)
            y -= 0.024
        y -= 0.01
    others = [p for p in view.pieces if not p.character and p.alive and p.space >= 0]
    if others:
        panel.text(0, y, "also on the board: " + ", ".join(sorted({p.label for p in others})),
                   fontsize=FONT, va="top", wrap=True)
        y -= 0.05
    if view.events:
        panel.text(0, max(y, 0.2), "\n".join(textwrap.shorten(e, 70) for e in view.events),
                   fontsize=FONT, va="top", color="#333333", gid="events")


def _panel_line(panel, p: Piece, y: float) -> None:
    from matplotlib.patches import Rectangle

    name = p.label.rsplit(" (", 1)[0]
    if not p.alive:
        panel.text(0.05, y, f"† {name} — dead", fontsize=FONT, va="top", color="#777777",
                   gid="dead-entry")
        return
    frac = min(max(p.health, 0) / p.max_health, 1.0) if p.max_health > 0 else 0.0
    panel.add_artist(Rectangle((0.05, y - 0.016), 0.16, 0.013, facecolor="#dddddd",
                              edgecolor="black", lw=.4))
    panel.add_artist(Rectangle((0.05, y - 0.016), 0.16 * frac, 0.013,
                              facecolor=_health_colour(frac), lw=0))
    panel.text(0.23, y, f"{name}  {max(p.health, 0)}/{p.max_health}", fontsize=FONT, va="top")


def _square(x, y, colour):
    from matplotlib.patches import Rectangle
    return Rectangle((x, y), 0.035, 0.02, facecolor=colour, edgecolor="black", lw=.5)


def save_png(fig, path, dpi: int = 100) -> None:
    """Write ``fig`` atomically (a reader never sees half a PNG)."""
    from sim.atomic import atomic_path

    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=dpi, format="png")

