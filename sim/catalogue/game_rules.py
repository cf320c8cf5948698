"""The ``[game]`` section of ``cards/rules.toml``: the turn loop's house rulings, as data.

Why separate from ``rules.py``/``loader.py``: full games add rulings (reveal thresholds, what CPUs
do on the GM Turn, stalemate, the rotation cap, greedy weights) that change independently of the
combat and board rules. The engine loads this file itself (:func:`load_game_rules`), so the
catalogue loader stays as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .diagnostics import Problems
from .tomldoc import TomlDoc

LEASHES = ("tile", "none")
TIEBREAKS = ("health_before", "draw")
CLOCKS = ("owner_turns", "rotations")
TURN_ORDERS = ("hand_over", "card")
TILE_REVIVES = ("strongest", "first")  # whom a tile's revive brings back (docs/rulings.md)
GREEDY_KEYS = ("greedy_damage", "greedy_kill", "greedy_cpu_value", "greedy_retaliation",
               "greedy_homefield", "greedy_doomed", "greedy_cpu_danger", "greedy_approach",
               "greedy_effect", "greedy_submerged", "greedy_apocalypse_hold", "greedy_press",
               "greedy_press_after")
MAX_WEIGHT = 1e9  # the largest greedy weight a rules or weights file may give
# weights added after the first rules files: 0 (their term off) where a file leaves them out
_LATER_KEYS = ("greedy_effect", "greedy_submerged", "greedy_apocalypse_hold", "greedy_press",
               "greedy_press_after")
_KEYS = {"reveal_deaths", "reveal_rotation", "turns_after_reveal", "cpu_leash",
         "cpu_default_range", "cpus_act_during_apocalypse", "stalemate_rotations", "rotation_cap",
         "simultaneous_tiebreak", "effect_clock", "turn_order", "tile_revive", *GREEDY_KEYS}


@dataclass(frozen=True)
class GameRules:
    reveal_deaths: int
    reveal_rotation: int
    turns_after_reveal: int
    cpu_leash: str
    cpu_default_range: int
    cpus_act_during_apocalypse: bool
    stalemate_rotations: int
    rotation_cap: int
    simultaneous_tiebreak: str
    effect_clock: str
    turn_order: str
    greedy: np.ndarray  # float64[len(GREEDY_KEYS)], in GREEDY_KEYS order
    path: str = ""
    tile_revive: str = "strongest"


def load_game_rules(root: Path, problems: Problems | None = None) -> GameRules:
    """Parse ``[game]`` of ``root/rules.toml``; raises InputError (file:line: field) when wrong."""
    path = Path(root) / "rules.toml"
    doc = TomlDoc.load_or_raise(path, problems)
    own = doc.problems
    before = len(own)
    if not isinstance(doc.lookup(("game",)), dict):
        doc.add(("game",), "missing section [game] (turn loop, CPUs, Apocalypse, victory)")
        own.raise_if_any()
    doc.unknown_keys(("game",), _KEYS)

    def get(key, kind=int, **kw):
        return doc.get(("game", key), kind, **kw)

    leash = get("cpu_leash", str, fallback="tile")
    if leash is not None and leash not in LEASHES:
        doc.add(("game", "cpu_leash"), f"unknown value {leash!r}; choose from {', '.join(LEASHES)}")
    tiebreak = get("simultaneous_tiebreak", str, fallback="health_before")
    if tiebreak is not None and tiebreak not in TIEBREAKS:
        doc.add(("game", "simultaneous_tiebreak"),
                f"unknown value {tiebreak!r}; choose from {', '.join(TIEBREAKS)}")
    clock = get("effect_clock", str, default="owner_turns", fallback="owner_turns")
    if clock is not None and clock not in CLOCKS:
        doc.add(("game", "effect_clock"), f"unknown value {clock!r}; choose from {', '.join(CLOCKS)}")
    order = get("turn_order", str, fallback="hand_over")
    if order is not None and order not in TURN_ORDERS:
        doc.add(("game", "turn_order"),
                f"unknown value {order!r}; choose from {', '.join(TURN_ORDERS)}")
    # a key added after the first rules files: the house ruling where a file leaves it out
    revive = get("tile_revive", str, default="strongest", fallback="strongest")
    if revive is not None and revive not in TILE_REVIVES:
        doc.add(("game", "tile_revive"),
                f"unknown value {revive!r}; choose from {', '.join(TILE_REVIVES)}")
    values = dict(
        reveal_deaths=get("reveal_deaths", lo=1, hi=1000, fallback=7),
        reveal_rotation=get("reveal_rotation", lo=1, hi=1000, fallback=7),
        turns_after_reveal=get("turns_after_reveal", lo=0, hi=10, fallback=1),
        cpu_leash=leash,
        cpu_default_range=get("cpu_default_range", lo=0, hi=30, fallback=1),
        cpus_act_during_apocalypse=get("cpus_act_during_apocalypse", bool, fallback=False),
        stalemate_rotations=get("stalemate_rotations", lo=1, hi=1000, fallback=10),
        rotation_cap=get("rotation_cap", lo=1, hi=10_000, fallback=60),
        simultaneous_tiebreak=tiebreak,
        effect_clock=clock,
        turn_order=order,
        tile_revive=revive,
    )
    weights = [get(k, (int, float), lo=0.0, hi=MAX_WEIGHT, fallback=0.0,
                   **({"default": 0.0} if k in _LATER_KEYS else {})) for k in GREEDY_KEYS]
    if len(own) > before:
        own.raise_if_any()
    return GameRules(**values, greedy=np.asarray(weights, np.float64), path=str(path))
