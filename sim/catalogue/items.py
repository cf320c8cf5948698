"""Items as data: the seven item types (``cards/item_types.toml``) and the items
(``cards/items.csv``), validated into one effect row per item.

Why the abilities' vocabulary: an item's effect is a row of integers in the slot order
``abilities.SLOTS`` run by the same interpreter (``sim/engine/effects/interpreter.py:_run_effect``), so a
potion's heal and a heal ability are one code path and a designer adds an item without code
(docs/items.md). Book: "every item belongs to one of seven types" (not printed: the types are a
house ruling); "Items are denoted with a value in the top-right corner of the card"; "Some items
also cost that character's action ... to use"; "any item that grants its effect simply by being
held ... An item that is used up ...".

The engine's table (``S.item_fx``, built by ``sim.engine.items.holding.item_table``) is
:meth:`ItemCatalogue.table`: ``int64[item, ITEM_COLS]`` = the effect row, then ``HELD``,
``TYPE``, ``VALUE``; one last row holds the rules (``R_PICKUP``, ``R_KEEP``, ``R_HAND``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .abilities import MAX_DEBUFF_STAT, PARAM_LIMITS, PARAM_SLOT, SLOTS, TARGETS
from .diagnostics import (CsvRows, Named, Problems, check_row_name, in_name_order, read_header,
                          read_text, suggest, whole_number)
from .effect_row import FX_SLOTS, STAT_ATTACKS, STAT_DEFENSE, STAT_RANGE, STAT_SPEED
from .effect_table import effects_of, lookup, names_of
from .tomldoc import TomlDoc

TYPES_FILE = "item_types.toml"
ITEMS_FILE = "items.csv"
ITEM_TYPE_COUNT = 7  # "every item belongs to one of seven types" (book)
# an item's value is stored as int32 (ItemCatalogue.value); "The book gives no scale" (the shipped
# scale is 1..10): a million is far past any card and far inside the table (found by fuzzing,
# stop 73: a value of 3,000,000,000 raised OverflowError out of bwlab validate)
MAX_ITEM_VALUE = 1_000_000

# The effects an item may run (effect_table.py: the rows whose ``sources`` name "item"): the
# items' own (damage, blast, cleanse) and the abilities' it shares. Never revive: "A revive is
# caused by an ability or a tile that specifies one. Nothing else brings a character back";
# summon and tile_control are pending (later slices).
ITEM_EFFECTS = names_of(family="item")
ABILITY_EFFECTS = tuple(r.name for r in effects_of("ability", "item"))
USABLE = names_of(source="item")
TARGETS_OF = {r.name: set(r.targets) for r in effects_of(source="item")}
DEFAULT_TARGET_OF = {r.name: r.targets[0] for r in effects_of(source="item")}
# the parameters each effect reads (a parameter it does not read is a validation error)
EFFECT_PARAMS = {r.name: set(r.params) for r in effects_of(source="item")}
HELD_PARAMS = {"stat", "amount", "free_water"}  # a held item: a lasting buff of one stat
HELD_STATS = (STAT_SPEED, STAT_RANGE, STAT_DEFENSE, STAT_ATTACKS)

# the table's columns after the effect row, and its last (rules) row
HELD, TYPE, VALUE = FX_SLOTS, FX_SLOTS + 1, FX_SLOTS + 2
ITEM_COLS = FX_SLOTS + 3
R_PICKUP, R_KEEP, R_HAND = 0, 1, 2
# The slots of a character's item pool in the engine's state (``fields.ENT_BLOCKS``): the
# largest ``hand_limit`` the data may ask for.
HAND_SLOTS = 2

COLUMNS = ("name", "type", "value", "effect", "target", "costs_action", "params", "notes")
REQUIRED = ("name", "type", "value")


def opcode(effect: str) -> int:
    """The interpreter's opcode of an item effect."""
    return lookup(effect, source="item").op


@dataclass(frozen=True)
class ItemType:
    name: str
    description: str
    held: bool
    effects: tuple[str, ...]
    costs_action: int
    params: dict  # name -> (default, min, max)


@dataclass(frozen=True)
class ItemRules:
    pickup_range: int
    value_lo: int
    value_hi: int
    keep_percent: int
    hand_limit: int


@dataclass(frozen=True)
class ItemCatalogue(Named):
    """Every item as parallel tuples plus the engine's table (``S.item_fx``), in name order
    (not items.csv's row order): a random item is drawn by index."""

    names: tuple[str, ...]
    types: tuple[ItemType, ...]  # the seven types, in item_types.toml order
    type: np.ndarray             # int16: index into ``types``
    value: np.ndarray            # int32: the card's value
    effect: tuple[str, ...]
    rows: np.ndarray             # int64[item, len(SLOTS)]: the effect row
    rules: ItemRules
    lines: tuple[int, ...]
    path: str = ""

    @property
    def type_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.types)

    @property
    def held(self) -> np.ndarray:
        return np.array([self.types[t].held for t in self.type], np.bool_)

    def table(self) -> np.ndarray:
        """``int64[item + 1, ITEM_COLS]``: each item's effect row, held flag, type and value; the
        last row carries the rules the kernels read (pickup range, greedy's keep share)."""
        n = len(self.names)
        out = np.zeros((n + 1, ITEM_COLS), np.int64)
        out[:n, : len(SLOTS)] = self.rows
        out[:n, HELD] = self.held
        out[:n, TYPE] = self.type
        out[:n, VALUE] = self.value
        out[n, R_PICKUP] = self.rules.pickup_range
        out[n, R_KEEP] = self.rules.keep_percent
        out[n, R_HAND] = self.rules.hand_limit
        return out


def load_items(root: Path, problems: Problems) -> ItemCatalogue | None:
    """``item_types.toml`` and ``items.csv`` under ``root``; None (problems recorded) when
    unusable."""
    before = len(problems)
    loaded = _load_types(Path(root) / TYPES_FILE, problems)
    if loaded is None:
        return None
    types, rules = loaded
    items = _load_rows(Path(root) / ITEMS_FILE, types, rules, problems)
    if items is None or len(problems) > before:
        return None
    return items


def _params(doc: TomlDoc, path: tuple) -> dict:
    out = {}
    for pname, spec in (doc.get(path, dict, default={}, fallback={}) or {}).items():
        ok = (isinstance(spec, list) and len(spec) == 3
              and all(isinstance(v, int) and not isinstance(v, bool) for v in spec)
              and spec[1] <= spec[0] <= spec[2])
        if not ok:
            doc.add(path + (pname,), "expected [default, min, max] whole numbers with "
                                     "min <= default <= max")
        elif pname not in PARAM_SLOT:
            doc.add(path + (pname,), f"unknown parameter{suggest(pname, list(PARAM_SLOT))} "
                                     f"(the interpreter reads: {', '.join(PARAM_SLOT)})")
        elif spec[1] < PARAM_LIMITS[pname][0] or spec[2] > PARAM_LIMITS[pname][1]:
            # the bounds an ability's parameter meets (found by fuzzing, stop 73: a weapon of
            # 10^18 attacks validated, and its holder's first throw never ended)
            lo, hi = PARAM_LIMITS[pname]
            doc.add(path + (pname,), f"[min, max] = [{spec[1]}, {spec[2]}] is beyond what the "
                                     f"engine holds: [{lo}, {hi}]")
        else:
            out[pname] = tuple(spec)
    return out


def _load_types(path: Path, problems: Problems) -> tuple[tuple[ItemType, ...], ItemRules] | None:
    """item_types.toml's rules and seven types; None (problems recorded) when unusable."""
    doc = TomlDoc.load(path, problems)
    if doc is None:
        return None
    before = len(problems)
    rules = _item_rules(doc)
    body = doc.get(("types",), dict, fallback={}) or {}
    types = [t for t in (_item_type(doc, name, spec) for name, spec in body.items())
             if t is not None]
    if len(types) != ITEM_TYPE_COUNT:
        first = ("types", next(iter(body))) if body else ("types",)
        problems.add(path, doc.line(first) or 1, "types",
                     f"expected {ITEM_TYPE_COUNT} item types (\"every item belongs to one of seven "
                     f"types\"), got {len(types)}")
    if len(problems) > before:
        return None
    return tuple(types), rules


def _item_rules(doc: TomlDoc) -> ItemRules:
    """The [rules] and [greedy] tables; a bad value is recorded and its fallback kept."""
    doc.unknown_keys((), {"rules", "greedy", "types"})
    doc.unknown_keys(("rules",), {"pickup_range", "value", "hand_limit"})
    doc.unknown_keys(("greedy",), {"keep_percent"})
    pickup = doc.get(("rules", "pickup_range"), int, lo=0, hi=10, fallback=1)
    hand = doc.get(("rules", "hand_limit"), int, lo=1, hi=HAND_SLOTS, fallback=HAND_SLOTS)
    value = doc.get(("rules", "value"), list, fallback=[1, 10])
    if not (len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            and 0 <= value[0] <= value[1] <= MAX_ITEM_VALUE):
        doc.add(("rules", "value"), "expected [min, max] whole numbers with "
                                    f"0 <= min <= max <= {MAX_ITEM_VALUE:,}")
        value = [1, 10]
    keep = doc.get(("greedy", "keep_percent"), int, lo=0, hi=100, fallback=75)
    return ItemRules(pickup, value[0], value[1], keep, hand)


def _item_type(doc: TomlDoc, name: str, spec) -> ItemType | None:
    """One [types.NAME] table; None only when it is not a table, so the count stays checked."""
    base = ("types", name)
    if not isinstance(spec, dict):
        doc.add(base, "expected a table [types.NAME]")
        return None
    doc.unknown_keys(base, {"description", "held", "effects", "costs_action", "params"})
    desc = doc.get(base + ("description",), str, default="", fallback="")
    held = doc.get(base + ("held",), bool, fallback=False)
    good = _type_effects(doc, base, held)
    costs = doc.get(base + ("costs_action",), int, lo=0, hi=1, default=0 if held else 1,
                    fallback=1)
    params = _params(doc, base + ("params",))
    if held:
        _check_held_params(doc, base, params)
    return ItemType(name, desc, bool(held), tuple(good), costs, params)


def _type_effects(doc: TomlDoc, base: tuple, held: bool) -> list[str]:
    """A type's known effects (an unknown one recorded); a held type's must be the buff."""
    effects = doc.get(base + ("effects",), list, fallback=[])
    good = []
    for e in effects:
        if e not in USABLE:
            doc.add(base + ("effects",), f"unknown item effect {e!r}{suggest(str(e), USABLE)} "
                                         f"(items run: {', '.join(USABLE)})")
        else:
            good.append(e)
    if held and good != ["buff"]:
        doc.add(base + ("effects",), "a held item's effect is a lasting buff: "
                                     "effects = [\"buff\"]")
    if not effects:
        doc.add(base + ("effects",), "list at least one effect")
    return good


def _check_held_params(doc: TomlDoc, base: tuple, params: dict) -> None:
    """A held item is a lasting buff of one fixed stat: it reads only HELD_PARAMS."""
    for pname in params:
        if pname not in HELD_PARAMS:
            doc.add(base + ("params", pname), f"a held item reads only "
                                              f"{', '.join(sorted(HELD_PARAMS))}")
    stat = params.get("stat")
    if stat is None or stat[1] != stat[2] or stat[0] not in HELD_STATS:
        doc.add(base + ("params", "stat"), "a held item changes one stat: fix it as "
                                           "[s, s, s] with s 0 speed, 1 range, 2 defense "
                                           "or 3 attacks")


def _load_rows(path: Path, types: tuple[ItemType, ...], rules: ItemRules, problems: Problems
               ) -> ItemCatalogue | None:
    """``items.csv``, row by row against the types; None (problems recorded) when unusable."""
    text = read_text(path, problems)
    if text is None:
        return None
    before = len(problems)
    reader = CsvRows(path, text, problems)
    header = read_header(path, reader, COLUMNS, REQUIRED, problems)
    if header is None:
        return None
    type_ix = {t.name.lower(): i for i, t in enumerate(types)}
    columns = names, kinds, values, effects, rows, lines = [], [], [], [], [], []
    seen: dict[str, int] = {}
    last = reader.line_num
    for cells in reader:
        # the record's first line: a quoted cell may span lines (an unclosed quote runs on)
        line, last = last + 1, reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            problems.add(path, line, "row", f"has {len(cells)} cells, the header has {len(header)}")
            continue
        row = {h: c.strip() for h, c in zip(header, cells)}
        item = _item_row(problems, path, line, row, types, type_ix, rules, seen)
        if item is not None:
            for column, cell in zip(columns, (*item, line)):
                column.append(cell)
    if not names and len(problems) == before:
        problems.add(path, 2, "row", "no items")
    if len(problems) > before:
        return None
    # name order, not the file's: a random item reward is drawn by index (docs/architecture.md)
    names, kinds, values, effects, rows, lines = in_name_order(names, kinds, values, effects, rows,
                                                               lines)
    return ItemCatalogue(names=tuple(names), types=types, type=np.asarray(kinds, np.int16),
                         value=np.asarray(values, np.int32), effect=tuple(effects),
                         rows=np.asarray(rows, np.int64).reshape(len(names), len(SLOTS)),
                         rules=rules, lines=tuple(lines), path=str(path))


def _item_row(problems: Problems, path: Path, line: int, row: dict, types: tuple[ItemType, ...],
              type_ix: dict, rules: ItemRules, seen: dict):
    """One items.csv row: (name, type, value, effect, effect row), or None after a problem."""
    n0 = len(problems)
    add = lambda f, msg: problems.add(path, line, f, msg)  # noqa: E731
    name = row["name"]
    check_row_name(add, name, seen, line)
    t = type_ix.get(row["type"].lower(), -1)
    if t < 0:
        known = [x.name for x in types]
        add("type", f"unknown type {row['type']!r}{suggest(row['type'], known)}"
                    if row["type"] else "empty")
    value = _int(add, "value", row["value"], rules.value_lo, rules.value_hi)
    if t < 0:
        return None
    kind = types[t]
    effect = row.get("effect", "") or kind.effects[0]
    if effect not in kind.effects:
        add("effect", f"a {kind.name} runs {' or '.join(kind.effects)}, not {effect!r}"
                      f"{suggest(effect, kind.effects)}")
        return None
    target, costs, values_by_name = _item_effect(add, row, kind, effect)
    if len(problems) > n0:
        return None
    return name, t, value, effect, _effect_row(effect, target, costs, values_by_name)


def _item_effect(add, row: dict, kind: ItemType, effect: str):
    """An item row's target, whether its use costs the action, and its effect's parameters
    (the type's defaults, then the row's ``params``), each problem added to its field."""
    target = row.get("target", "") or DEFAULT_TARGET_OF[effect]
    if kind.held:
        target = "self"
    elif target not in TARGETS:
        add("target", f"unknown target {target!r}; choose from {', '.join(TARGETS)}")
    elif target not in TARGETS_OF[effect]:
        add("target", f"effect {effect!r} works on {' or '.join(sorted(TARGETS_OF[effect]))}, "
                      f"not {target!r}")
    costs = kind.costs_action
    if row.get("costs_action", ""):
        costs = _int(add, "costs_action", row["costs_action"], 0, 1)
        if kind.held and costs:
            add("costs_action", "a held item is never used: it costs nothing")
    reads = HELD_PARAMS if kind.held else EFFECT_PARAMS[effect]
    values_by_name = {p: spec[0] for p, spec in kind.params.items() if p in reads}
    given: set[str] = set()
    for item in filter(None, (p.strip() for p in row.get("params", "").split(";"))):
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep:
            add("params", f"expected key=value, got {item!r}")
        elif key not in kind.params:
            add("params", f"unknown parameter {key!r} for a {kind.name}"
                          f"{suggest(key, list(kind.params))}")
        elif key not in reads:
            add("params", f"parameter {key!r} does nothing for effect {effect!r} "
                          f"(it reads: {', '.join(sorted(reads & set(kind.params)))})")
        elif key in given:
            add("params", f"parameter {key!r} given twice")
        else:
            given.add(key)
            _, lo, hi = kind.params[key]
            values_by_name[key] = _int(add, f"params.{key}", raw.strip(), lo, hi)
    if effect == "debuff" and values_by_name.get("stat", 0) > MAX_DEBUFF_STAT:
        add("params.stat", f"a de-buff's stat is 0..{MAX_DEBUFF_STAT} (5, invincibility, "
                           "is a buff)")
    return target, costs, values_by_name


def _effect_row(effect: str, target: str, costs: int, values_by_name: dict) -> list[int]:
    """An item's effect row (the interpreter's slots, ``effect_row.SLOTS``)."""
    out = [0] * len(SLOTS)
    out[SLOTS.index("op")] = opcode(effect)
    out[SLOTS.index("target")] = TARGETS.index(target)
    out[SLOTS.index("costs_action")] = costs
    out[SLOTS.index("own_turn_only")] = 1  # "Both may only be done on your own turn" (and use)
    for pname, v in values_by_name.items():
        out[SLOTS.index(PARAM_SLOT[pname])] = int(v)
    return out


def _int(add, field: str, text: str, lo: int, hi: int) -> int:
    try:
        value = whole_number(text)
    except ValueError:
        add(field, f"not a whole number: {text!r}" if text else "empty")
        return lo
    if not lo <= value <= hi:
        add(field, f"{value} out of range [{lo}, {hi}]")
    return value
