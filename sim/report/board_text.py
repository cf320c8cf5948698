"""The board as text for ``bwlab board``: row/column labels, a legend, portals named by place.

Why a layer over :func:`sim.board.generate.render_text`: that drawing is pinned by tests and sits
in digest-covered code; the reader's aids (axes, what each character means, where each portal
leads) are added here from the same arrays. The old portal line named only the 7×7 positions, so
a tile holding both pieces of a portal read "(2,4)<->(2,4)"; each end is now the space it stands
on (tile, position, [row, col] inside the tile).
"""

from __future__ import annotations

from sim.board.generate import render_text
from sim.board.geometry import Board, local_space
from sim.catalogue.board_rules import GRID
from sim.catalogue.tile_layout import MAX_SIZE

from .places import PLACE_HELP, place_name

BLOCK = 2 * MAX_SIZE + 1  # characters per position in render_text's drawing
MARGIN = 4                # room for the row labels

LEGEND = (
    "legend:",
    "  +--+ |  tile border; a gap in it is a doorway      digit  spawn of that team",
    "  .  floor    ~  water    #  wall block (a space)     I  interactable    P  portal piece",
    "  L  ladder   ^  platform   C  CPU start",
    "  between two spaces: # | -  wall   ~  water   w  water wall   f  fire wall",
    "                      g  obscuring gap   D  door or window",
    "  A A A  the face-down Apocalypse (layer 2)    X X X  void (destroyed)",
)


def board_text(board: Board, catalogue, suits: tuple[str, ...]) -> str:
    """The drawing with row and column labels, then one line per position, the portals and the
    legend."""
    lines = render_text(board, catalogue, suits).split("\n")
    n_grid = GRID * BLOCK
    drawing = lines[:n_grid]
    listing = [ln for ln in lines[n_grid:] if not ln.startswith("portals:")]
    header = [" " * MARGIN] * 2
    for C in range(GRID):
        header[0] += f"{'col ' + str(C):^{BLOCK}}"
    out = [header[0].rstrip()]
    for k, line in enumerate(drawing):
        R, within = divmod(k, BLOCK)
        label = f"r{R}" if within == BLOCK // 2 else ""
        out.append(f"{label:<{MARGIN}}{line}".rstrip())
    out += listing
    out += portal_lines(board, catalogue)
    out.append("")
    out += LEGEND
    out.append(f"  {PLACE_HELP}")
    return "\n".join(out)


def portal_lines(board: Board, catalogue) -> list[str]:
    """``portal 1: Gotham Alley (2,4) [0,0] <-> Gotham Alley (2,4) [2,2]`` per linked pair."""
    out = []
    for k, pair in enumerate(board.portals, 1):
        ends = []
        for r, c, i, j in pair:
            t = board.tile_at((r, c))
            size = int(catalogue.size[t]) if t >= 0 else 1
            ends.append(place_name(local_space((int(r), int(c)), int(i), int(j), size),
                                   board.tiles, catalogue))
        out.append(f"portal {k}: {ends[0]} <-> {ends[1]}")
    return out
