"""Special entities as data: vehicles (``cards/vehicles.toml``), assist characters
(``cards/assists.toml``) and the house rulings of minions and summons (``cards/rules.toml``
``[entities]``), validated into integer tables the engine copies into entity rows.

Why data: "Each vehicle has stats that show its capabilities, and a health pool separate from its
pilot"; an assist character is "a temporary ally that you control" — a designer adds either
without touching code. The kernels never see a name: each vehicle and assist is one row of
integers in the column order below (``V_*``, ``A_*``), and an assist's ability is an effect row
of the Ability Index (``abilities.SLOTS``), like a card's. docs/entities.md is the design.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .abilities import SLOTS, AbilityIndex
from .diagnostics import Problems, in_name_order, suggest
from .effect_table import lookup, names_of
from .rules import Rules
from .tiles import TileCatalogue
from .tomldoc import TomlDoc

VEHICLES_FILE = "vehicles.toml"
ASSISTS_FILE = "assists.toml"
RULES_FILE = "rules.toml"

# Effects of this slice (effect_table.py, family "entity": OP_SUMMON_CARD, OP_ASSIST).
# "summon_card": "a random 6th character card joins your team"; "assist": the team gains assist
# character `amount`.
ENTITY_EFFECTS = names_of(family="entity")

# [entities] of rules.toml, in this order in the rules vector the kernels read (R_*)
RULE_KEYS = ("minion_speed", "minion_range", "minion_defense", "max_minions", "summon_pool",
             "clone_health")
(R_MINION_SPEED, R_MINION_RANGE, R_MINION_DEFENSE, R_MAX_MINIONS, R_SUMMON_POOL,
 R_CLONE_HEALTH) = range(6)
SUMMON_POOLS = ("not_in_play", "any")  # R_SUMMON_POOL 0, 1
_RULE_LIMITS = {"minion_speed": (0, 30), "minion_range": (0, 30), "minion_defense": (0, 9),
                "max_minions": (1, 20), "clone_health": (1, 100_000)}

# a vehicle row: health, speed, defense, the catalogue tile it starts on, then its weapon (the
# action "used through it": attacks on every star point, their dice tier, its range; 0 attacks =
# no weapon)
V_HEALTH, V_SPEED, V_DEFENSE, V_TILE, V_ATTACKS, V_TIER, V_RANGE = range(7)
V_COLS = 7
_VEHICLE_KEYS = {"name", "tile", "health", "speed", "defense", "attacks", "tier", "range",
                 "notes"}
# an assist row: health, speed, range, defense, its one attack (every star point) and tier, then
# its ability's effect row (abilities.SLOTS; all 0 = no ability)
A_HEALTH, A_SPEED, A_RANGE, A_DEFENSE, A_ATTACKS, A_TIER = range(6)
A_FX = 6
A_COLS = A_FX + len(SLOTS)
_ASSIST_KEYS = {"name", "health", "speed", "range", "defense", "attacks", "tier", "ability",
                "ability_params", "notes"}
_LIMITS = {"health": (1, 100_000), "speed": (0, 30), "range": (0, 30), "attacks": (0, 50)}


@dataclass(frozen=True)
class EntityCatalogue:
    """The vehicles, the assist characters and the [entities] rulings as integer tables."""

    rules: np.ndarray                 # int64[len(RULE_KEYS)]
    vehicle_names: tuple[str, ...]    # in name order, not vehicles.toml's entry order
    vehicles: np.ndarray              # int64[vehicle, V_COLS]
    # in name order (a tile function names its assist: ``assist = "Sidekick"``)
    assist_names: tuple[str, ...]
    assists: np.ndarray               # int64[assist, A_COLS]
    paths: tuple[str, ...] = field(default=())


def entity_opcode(name: str) -> int:
    """The opcode of an entity effect named in a data file (``ENTITY_EFFECTS``)."""
    return lookup(name, family="entity").op


def load_entities(root: Path, rules: Rules, abilities: AbilityIndex | None,
                  tiles: TileCatalogue | None, problems: Problems) -> EntityCatalogue | None:
    """Parse ``[entities]`` of rules.toml, vehicles.toml and assists.toml (each file optional:
    none means no vehicles / no assists); None (problems recorded) if they cannot be used."""
    root = Path(root)
    before = len(problems)
    ent_rules = _entity_rules(root / RULES_FILE, problems)
    vnames, vrows = _vehicles(root / VEHICLES_FILE, rules, tiles, problems)
    anames, arows = _assists(root / ASSISTS_FILE, rules, abilities, problems)
    if len(problems) > before or ent_rules is None:
        return None
    return EntityCatalogue(
        rules=np.asarray(ent_rules, np.int64), vehicle_names=tuple(vnames),
        vehicles=np.asarray(vrows, np.int64).reshape(len(vrows), V_COLS),
        assist_names=tuple(anames), assists=np.asarray(arows, np.int64).reshape(len(arows), A_COLS),
        paths=tuple(str(root / f) for f in (RULES_FILE, VEHICLES_FILE, ASSISTS_FILE)))


def _entity_rules(path: Path, problems: Problems) -> list[int] | None:
    doc = TomlDoc.load(path, problems)
    if doc is None:
        return None
    if not isinstance(doc.lookup(("entities",)), dict):
        doc.add(("entities",), "missing section [entities] (minions and summons)")
        return None
    doc.unknown_keys(("entities",), set(RULE_KEYS))
    out = []
    for key in RULE_KEYS:
        if key == "summon_pool":
            pool = doc.get(("entities", key), str, choices=SUMMON_POOLS, fallback=None)
            out.append(SUMMON_POOLS.index(pool) if pool is not None else 0)
        else:
            lo, hi = _RULE_LIMITS[key]
            out.append(doc.get(("entities", key), int, lo=lo, hi=hi, fallback=0))
    return out


def _named_entries(doc: TomlDoc, table: str, keys: set[str]) -> list[tuple[int, dict, str]]:
    """(index, entry, name) of each ``[[table]]`` entry with a usable, unique name."""
    doc.unknown_keys((), {table})
    entries = doc.get((table,), list, default=[], fallback=[])
    out, seen = [], set()
    for i, entry in enumerate(entries):
        base = (table, i)
        if not isinstance(entry, dict):
            doc.add(base, f"expected a [[{table}]] table")
            continue
        doc.unknown_keys(base, keys)
        doc.get(base + ("notes",), str, default="", fallback="")  # a designer's note is text
        name = doc.get(base + ("name",), str, fallback="")
        if name is not None and not name.strip():
            doc.add(base + ("name",), "empty name")
        elif name and name.strip().lower() in seen:
            doc.add(base + ("name",), f"{name!r} is used by more than one entry")
        if name:
            seen.add(name.strip().lower())
        out.append((i, entry, (name or "").strip()))
    return out


def _vehicles(path: Path, rules: Rules, tiles: TileCatalogue | None, problems: Problems):
    if not path.exists():
        return [], []
    doc = TomlDoc.load(path, problems)
    if doc is None:
        return [], []
    names, rows = [], []
    used_tiles: dict[int, str] = {}
    for i, entry, name in _named_entries(doc, "vehicles", _VEHICLE_KEYS):
        base = ("vehicles", i)
        health = doc.get(base + ("health",), int, lo=_LIMITS["health"][0],
                         hi=_LIMITS["health"][1], fallback=1)
        speed = doc.get(base + ("speed",), int, lo=_LIMITS["speed"][0], hi=_LIMITS["speed"][1],
                        fallback=0)
        defense = doc.get(base + ("defense",), int, lo=0, hi=rules.max_defense, fallback=0)
        tile = doc.get(base + ("tile",), str, fallback=None)
        t = -1
        if tile is not None and tiles is not None:
            try:
                t = tiles.find(tile)
            except ValueError:
                doc.add(base + ("tile",),
                        f"unknown tile {tile!r}{suggest(tile, list(tiles.names))}")
            else:
                # "All vehicles can only be spawned 1 time": one vehicle per tile, spawned once
                if t in used_tiles:
                    doc.add(base + ("tile",), f"tile {tile!r} already holds {used_tiles[t]!r}")
                used_tiles[t] = name
                if t == tiles.uncovered:
                    doc.add(base + ("tile",), "the Uncovered Tile has no function")
        # "can have 1 action used through it" (house: a weapon, thrown like an assist's attack)
        attacks = doc.get(base + ("attacks",), int, lo=_LIMITS["attacks"][0],
                          hi=_LIMITS["attacks"][1], default=0, fallback=None)
        tier = doc.get(base + ("tier",), int, lo=1, hi=rules.n_tiers, default=1, fallback=1)
        reach = doc.get(base + ("range",), int, lo=_LIMITS["range"][0], hi=_LIMITS["range"][1],
                        default=0, fallback=0)
        if attacks == 0:  # (None: a bad value, already reported)
            for key in ("tier", "range"):
                if key in entry:
                    doc.add(base + (key,), "a weapon's tier or range given without attacks")
        names.append(name)
        rows.append([health or 1, speed or 0, defense or 0, t, attacks or 0, tier or 1,
                     reach or 0])
    # name order, not the file's: vehicles are created one by one, in index order
    # (docs/architecture.md); their tiles were resolved by name, so nothing else moves
    return in_name_order(names, rows)


def _assists(path: Path, rules: Rules, abilities: AbilityIndex | None, problems: Problems):
    if not path.exists():
        return [], []
    doc = TomlDoc.load(path, problems)
    if doc is None:
        return [], []
    names, rows = [], []
    for i, entry, name in _named_entries(doc, "assists", _ASSIST_KEYS):
        base = ("assists", i)
        row = [0] * A_COLS
        for col, key in ((A_HEALTH, "health"), (A_SPEED, "speed"), (A_RANGE, "range"),
                         (A_ATTACKS, "attacks")):
            lo, hi = _LIMITS[key]
            row[col] = doc.get(base + (key,), int, lo=lo, hi=hi, fallback=lo) or 0
        row[A_DEFENSE] = doc.get(base + ("defense",), int, lo=0, hi=rules.max_defense,
                                 fallback=0) or 0
        row[A_TIER] = doc.get(base + ("tier",), int, lo=1, hi=rules.n_tiers, default=1,
                              fallback=1) or 1
        kind = doc.get(base + ("ability",), str, default="", fallback="")
        params = doc.get(base + ("ability_params",), dict, default={}, fallback={})
        if kind and abilities is not None:
            row[A_FX:] = _ability_row(doc, base, kind, params, abilities)
        elif params and not kind:
            doc.add(base + ("ability_params",), "parameters given without an ability")
        names.append(name)
        rows.append(row)
    # name order, as every table the engine iterates (docs/architecture.md): a tile function
    # names its assist (tile_functions.check_assist_names), so the file's order moves nothing
    return in_name_order(names, rows)


def _ability_row(doc: TomlDoc, base: tuple, kind: str, params: dict,
                 abilities: AbilityIndex) -> list[int]:
    """The effect row of ability type ``kind`` with ``params`` (the rest at the type's defaults),
    checked against the type's bounds as a card's ``ability_params`` are."""
    try:
        code = abilities.code(kind)
    except ValueError:
        doc.add(base + ("ability",), f"unknown ability type {kind!r}"
                                     f"{suggest(kind, list(abilities.names))}")
        return [0] * len(SLOTS)
    t = abilities.types[code]
    values = list(t.defaults)
    for key, value in params.items():
        if key not in t.param_names:
            doc.add(base + ("ability_params", key), f"unknown parameter for ability {kind!r}"
                                                   f"{suggest(key, list(t.param_names))}")
            continue
        j = t.param_names.index(key)
        if not isinstance(value, int) or isinstance(value, bool) \
                or not t.lows[j] <= value <= t.highs[j]:
            doc.add(base + ("ability_params", key),
                    f"expected a whole number in [{t.lows[j]}, {t.highs[j]}], got {value!r}")
            continue
        values[j] = value
    return abilities.row(code, values)


def check_summon_counts(cards, entities: EntityCatalogue, problems: Problems) -> None:
    """A card whose summon brings more minions than one creator may have at once (rules.toml
    ``[entities] max_minions``) would bring only that many every time, without a word in play:
    one line at the card's row (the designer audit of stop 81: ``max_minions`` lowered to 2
    quietly halved a shipped card's summon)."""
    from .effect_table import lookup

    cap = int(entities.rules[R_MAX_MINIONS])
    op, count, clone = (SLOTS.index(k) for k in ("op", "count", "flag"))
    summon = lookup("summon", source="ability").op
    for c, row in enumerate(cards.effects):
        if row[op] == summon and row[clone] == 0 and row[count] > cap:
            problems.add(cards.path, cards.lines[c], "ability_params.count",
                         f"{int(row[count])} minions a use, but rules.toml [entities] "
                         f"max_minions is {cap}: a use would bring at most {cap} (lower count "
                         f"or raise max_minions)")
