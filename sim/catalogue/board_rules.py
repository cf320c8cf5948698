"""The ``[board]`` section of ``cards/rules.toml``: movement, range, sight and water numbers.

Why a separate module: the board's house rulings (doorway position, diagonal range, how the
cross-tile penalty counts, spawn positions...) are many and change independently of the combat
rules; keeping them as data lets a designer try an alternative without touching code.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .tomldoc import TomlDoc
from .variants import load_terrain_draft

GRID = 7  # "the league-approved 7×7 (49) square grid" (book)
DOORWAY_MODES = ("middle", "full_edge")
COUNT_MODES = ("per_boundary", "once")
WATER_COUNTS = ("once", "per_water")
WATER_CARRY = ("body",)
STREAK_COUNTS = ("automatic", "all")
SIGHT_LINES = ("any_angle", "compass")

_KEYS = {
    "doorway", "move_cost", "range_cost", "diagonal_range_cost", "cross_tile_penalty",
    "cross_tile_count", "water_penalty", "water_count", "portal_is_boundary", "water_die",
    "water_success_min", "water_streak_max", "water_streak_counts", "water_carry",
    "fire_wall_damage", "fire_wall_fail_crosses",
    "falling_die", "falling_max_face", "falling_damage", "door_sight_range", "team_spawns",
    "apocalypse_layer", "uncovered_chance", "sight_lines", "attack_own_space",
}


@dataclass(frozen=True)
class BoardRules:
    doorway: str
    move_cost: int
    range_cost: int
    diagonal_range_cost: int
    cross_tile_penalty: int
    cross_tile_count: str
    water_penalty: int
    water_count: str
    portal_is_boundary: bool
    water_die: int
    water_success_min: int
    water_streak_max: int
    water_streak_counts: str  # which successes count towards water_streak_max
    water_carry: str
    fire_wall_damage: int
    fire_wall_fail_crosses: bool
    falling_die: int
    falling_max_face: int
    falling_damage: int
    door_sight_range: int
    team_spawns: np.ndarray  # int32[team, 3, 2]: (row, column) of each spawn position
    apocalypse_layer: int
    uncovered_chance: float
    sight_lines: str = "any_angle"  # a straight line inside a tile: any angle, or compass rays
    attack_own_space: bool = True  # an enemy on the attacker's own space may be attacked
    terrain_draft: bool = False  # [variants]: play the terrain draft's features (variants.py)

    @property
    def water_success_p(self) -> float:
        """Chance of one successful water-roll (book: 4-6 on a D6 = 1/2)."""
        return (self.water_die - self.water_success_min + 1) / self.water_die


def layer_of(row: int, col: int) -> int:
    """Spawn layer (1..4) of a grid position: "Layer 1 is a single tile ... Layer 4 is 7 tiles"."""
    mid = GRID // 2
    return max(abs(row - mid), abs(col - mid)) + 1


def load_board_rules(doc: TomlDoc) -> BoardRules | None:
    """Parse ``[board]``; None (problems recorded on ``doc``) when missing or wrong."""
    before = len(doc.problems)
    if not isinstance(doc.lookup(("board",)), dict):
        doc.add(("board",), "missing section [board] (movement, range and water rules)")
        return None
    doc.unknown_keys(("board",), _KEYS)

    def get(key, kind=int, **kw):
        return doc.get(("board", key), kind, **kw)

    values = dict(
        doorway=get("doorway", str, choices=DOORWAY_MODES, fallback="middle"),
        move_cost=get("move_cost", lo=1, hi=10, fallback=1),
        range_cost=get("range_cost", lo=1, hi=10, fallback=1),
        diagonal_range_cost=get("diagonal_range_cost", lo=1, hi=10, fallback=1),
        cross_tile_penalty=get("cross_tile_penalty", lo=0, hi=10, fallback=1),
        cross_tile_count=get("cross_tile_count", str, choices=COUNT_MODES, fallback="per_boundary"),
        water_penalty=get("water_penalty", lo=0, hi=10, fallback=1),
        water_count=get("water_count", str, choices=WATER_COUNTS, fallback="once"),
        portal_is_boundary=get("portal_is_boundary", bool, fallback=False),
        water_die=get("water_die", lo=2, hi=100, fallback=6),
        water_success_min=get("water_success_min", lo=1, hi=100, fallback=4),
        water_streak_max=get("water_streak_max", lo=1, hi=1000, fallback=4),
        water_streak_counts=get("water_streak_counts", str, choices=STREAK_COUNTS,
                                fallback="automatic"),
        water_carry=get("water_carry", str, choices=WATER_CARRY, fallback="body"),
        fire_wall_damage=get("fire_wall_damage", lo=0, hi=100_000, fallback=50),
        fire_wall_fail_crosses=get("fire_wall_fail_crosses", bool, fallback=False),
        falling_die=get("falling_die", lo=2, hi=100, fallback=6),
        falling_max_face=get("falling_max_face", lo=0, hi=100, fallback=1),
        falling_damage=get("falling_damage", lo=0, hi=100_000, fallback=10),
        door_sight_range=get("door_sight_range", lo=0, hi=10, fallback=1),
        apocalypse_layer=get("apocalypse_layer", lo=1, hi=GRID // 2 + 1, fallback=2),
        uncovered_chance=float(get("uncovered_chance", (int, float), lo=0.0, hi=1.0, fallback=0.25)),
        sight_lines=get("sight_lines", str, choices=SIGHT_LINES, fallback="any_angle"),
        attack_own_space=get("attack_own_space", bool, fallback=True),
    )
    if values["water_success_min"] > values["water_die"]:
        doc.add(("board", "water_success_min"), f"{values['water_success_min']} is more than the "
                                                f"water die's {values['water_die']} faces")
    if values["falling_max_face"] > values["falling_die"]:
        doc.add(("board", "falling_max_face"), f"{values['falling_max_face']} is more than the "
                                               f"falling die's {values['falling_die']} faces")
    values["team_spawns"] = _spawns(doc)
    values["terrain_draft"] = load_terrain_draft(doc)
    if len(doc.problems) > before:
        return None
    return BoardRules(**values)


def _spawns(doc: TomlDoc) -> np.ndarray:
    """Four teams × three positions, each on the outer layer, none shared."""
    path = ("board", "team_spawns")
    raw = doc.get(path, list, fallback=None)
    out = np.zeros((4, 3, 2), np.int32)
    if raw is None:
        return out
    ok = (len(raw) == 4 and all(isinstance(t, list) and len(t) == 3 for t in raw)
          and all(isinstance(p, list) and len(p) == 2
                  and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < GRID for v in p)
                  for t in raw for p in t))
    if not ok:
        doc.add(path, f"expected 4 teams × 3 positions [row, column] with 0 <= row, column < {GRID} "
                      "(\"each game of Board Wars is played with 4 teams\")")
        return out
    out[:] = np.asarray(raw, np.int32)
    flat = [tuple(p) for t in raw for p in t]
    if len(set(flat)) != len(flat):
        doc.add(path, "a position is in two spawns")
    outer = [p for p in flat if layer_of(*p) != GRID // 2 + 1]
    if outer:
        doc.add(path, f"spawns sit in front of a Playspace, on the outer layer {GRID // 2 + 1}; "
                      f"{outer[0]} is in layer {layer_of(*outer[0])}")
    return out
