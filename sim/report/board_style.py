"""How the board's pictures mark edges, features and teams: one home for the drawing's colours
and symbols (sim/report/board_view.py draws with them)."""

from __future__ import annotations

from sim.catalogue.tile_layout import CPU, DOOR, FIRE_WALL, GAP, INTERACT, LADDER, PLATFORM, WALL, \
    WATER_EDGE, WATER_WALL

EDGE_STYLE = {WALL: ("#ff69b4", "wall (pink)"), WATER_WALL: ("#1f5fbf", "water wall"),
              FIRE_WALL: ("#ff8c00", "fire wall"), GAP: ("#333333", "obscuring gap"),
              DOOR: ("#8b4513", "door / window"), WATER_EDGE: ("#4fa3ff", "water (edge)")}
FEATURE_MARK = {INTERACT: ("*", "interactable"), LADDER: ("H", "ladder"),
                PLATFORM: ("^", "platform"), CPU: ("P", "CPU's start")}
# (a CPU's start was an "X" labelled "CPU", the cross a dead piece is drawn with: the watching
# audit of stop 78; a living CPU is a black dot, a dead piece a faded cross, both in the legend)
TEAM_COLOURS = ("#d62728", "#2ca02c", "#1f77b4", "#9467bd")
