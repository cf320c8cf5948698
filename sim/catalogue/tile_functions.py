"""Tile functions as data: each tile's reward and interactable become effect rows.

Why rows: the book's "Function" of a tile ("most tiles offer unique rewards for spending time
there, defeating bosses, using actions, or sacrificing specific items") is executed by the same
interpreter as the abilities (``sim/engine/effects/interpreter.py:_run_effect``), so a designer adds or
changes a tile's function in ``cards/tiles.toml`` without code (docs/tiles.md). A function names
an ``effect`` (the abilities' vocabulary where it fits — heal, buff, mobility, tile_control — and
the tile functions' own effects ``TILE_EFFECTS``), optionally a ``target`` and ``params``; a
reward has its price in ``ticks``, an interactable its price in the team's ``coins`` (a tile
economy: "Any intangible spending power gained from a Tile can be used by any member of your
team"). Rows use the abilities' slot order (``abilities.SLOTS``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .abilities import SLOTS, TARGETS
from .diagnostics import Problems, suggest
from .effect_row import PERMANENT
from .effect_table import effects_of, lookup, names_of
from .tomldoc import MISSING, TomlDoc

# The effects a tile function may run (effect_table.py: the rows whose ``sources`` name "tile"):
# the tile functions' own and the abilities' effects they reuse
TILE_EFFECTS = names_of(family="tile")
SHARED_EFFECTS = tuple(r.name for r in effects_of(source="tile") if r.family != "tile")
FUNCTION_EFFECTS = TILE_EFFECTS + SHARED_EFFECTS
# whom each effect works on: the character itself, a space (a destination, a tile's middle), or
# a dead teammate (a revive: whom, the rules decide: rules.toml [game] tile_revive)
EFFECT_TARGET = {r.name: "self" if "self" in r.targets else r.targets[0]
                 for r in effects_of(source="tile")}
# "A Tile Reward is a reward a character gets by ending their turn in a tile": it acts on the
# character (or its team's dead, whom no one chooses), never on a chosen space
REWARD_EFFECTS = tuple(e for e in FUNCTION_EFFECTS if EFFECT_TARGET[e] in ("self", "dead_ally"))
# parameter -> (slot, min, max, default) per effect; one meaning per slot and effect
STAT_NAMES = ("speed", "range", "defense", "attacks", "advantage", "invincibility")
EFFECT_PARAMS = {
    "gain": {"stat": ("stat", 0, 3, 0), "amount": ("amount", 1, 5, 1)},
    "item": {},
    "summon_card": {},
    "assist": {},  # the function's ``assist`` key names it (check_assist_names)
    "extra_action": {"amount": ("amount", 1, 3, 1)},
    "tile_state": {"state": ("flag", 0, 1, 0), "duration": ("duration", 1, 10, 1),
                   "range": ("range", 0, 6, 0)},
    "earn": {"amount": ("amount", 1, 20, 1)},
    "learn": {},
    "heal": {"amount": ("amount", 1, 500, 20), "shield": ("flag", 0, 1, 0)},
    # no duration: "All buffs a tile gives you are permanent" (the row's duration is PERMANENT)
    "buff": {"stat": ("stat", 0, 5, 0), "amount": ("amount", 0, 6, 1)},
    "mobility": {"distance": ("amount", 1, 12, 3)},
    "tile_control": {"mode": ("flag", 0, 1, 0), "range": ("range", 0, 6, 6),
                     "same_size": ("stat", 0, 1, 0)},
    "revive": {},  # whom and where: rules.toml [game] tile_revive (docs/rulings.md)
}
# a tile function's bounds, for the parameters its effect reads (the effect table's)
assert set(EFFECT_PARAMS) == set(FUNCTION_EFFECTS) and all(
    set(p) <= set(lookup(e, source="tile").params) for e, p in EFFECT_PARAMS.items())
REWARD, INTERACTABLE = 0, 1  # a tile's two function rows: 2 * tile + kind
KINDS = ("reward", "interactable")
MAX_PRICE = 50
# [greedy]: what greedy counts a tile function worth, in health units (docs/tiles.md)
GREEDY_KEYS = {"stat_point": 40.0, "item": 25.0, "summon": 120.0, "extra_action": 15.0,
               "coin": 8.0, "learn": 4.0, "assist": 60.0}
_FUNCTION_KEYS = {"name", "effect", "target", "params", "description", "item", "assist"}


@dataclass(frozen=True)
class Function:
    """One parsed function: its effect row (``SLOTS`` order), its price (ticks for a reward,
    coins for an interactable), the item it names ("" = a random item) and the assist character
    it names (an ``assist`` effect; resolved by :func:`check_assist_names`)."""

    row: list[int]
    price: int
    item: str = ""
    assist: str = ""
    assist_line: int | None = None  # the ``assist`` key's line, for check_assist_names
    item_line: int | None = None  # the ``item`` key's line, for check_item_names


def effect_code(effect: str) -> int:
    """The interpreter's opcode of a function effect."""
    return lookup(effect, source="tile").op


def parse_function(doc: TomlDoc, path: tuple, kind: int) -> Function | None:
    """Check the ``[tiles.reward]`` / ``[tiles.interactable]`` table at ``path``; its row, or None
    after recording every problem (file, line, field)."""
    price_key = "ticks" if kind == REWARD else "price"
    doc.unknown_keys(path, _FUNCTION_KEYS | {price_key})
    doc.get(path + ("name",), str, fallback="")
    doc.get(path + ("description",), str, default="")
    if kind == REWARD:
        price = doc.get(path + ("ticks",), int, lo=1, hi=MAX_PRICE, fallback=None)
    else:  # an interactable's price in coins: 0 = free (the action is its only cost)
        price = doc.get(path + ("price",), int, lo=0, hi=MAX_PRICE, default=0, fallback=None)
    allowed = REWARD_EFFECTS if kind == REWARD else FUNCTION_EFFECTS
    effect = doc.get(path + ("effect",), str, fallback=None)
    if effect is not None and effect not in allowed:
        why = (" (a reward acts on the character who earned it)"
               if kind == REWARD and effect in FUNCTION_EFFECTS else "")
        doc.add(path + ("effect",), f"unknown effect {effect!r}{suggest(effect, allowed)}{why}; "
                                    f"choose from {', '.join(allowed)}")
        effect = None
    target = doc.get(path + ("target",), str, fallback=None,
                     default=EFFECT_TARGET.get(effect or "", "self"))
    if effect is not None and target is not None and target != EFFECT_TARGET[effect]:
        doc.add(path + ("target",), f"effect {effect!r} works on {EFFECT_TARGET[effect]}, "
                                    f"not {target!r}")
        target = None
    item = doc.get(path + ("item",), str, default="", fallback="")
    if item and effect is not None and effect != "item":
        doc.add(path + ("item",), f"only an 'item' effect names an item, not {effect!r}")
    assist = _assist_name(doc, path, effect)
    params = doc.get(path + ("params",), dict, default={}, fallback={})
    row = [0] * len(SLOTS)
    ok = effect is not None and target is not None and price is not None
    if effect is not None:
        values = _function_params(doc, path, effect, params)
        ok = ok and values is not None
        if ok:
            row[0] = effect_code(effect)
            row[1] = TARGETS.index(target)
            # "Interactables are portions of a tile that can be interacted with by spending an
            # action"; a reward costs nothing but the turn ended in the tile
            row[2] = 1 if kind == INTERACTABLE else 0
            row[3] = 1
            for name, (slot, _, _, _) in EFFECT_PARAMS[effect].items():
                row[SLOTS.index(slot)] = int(values[name])
            if effect == "item":
                row[SLOTS.index("stat")] = -1  # a random item until resolved by name
            if effect == "buff":  # "All buffs a tile gives you are permanent" (l.281)
                row[SLOTS.index("duration")] = PERMANENT
    if not ok or assist is None:
        return None
    return Function(row, int(price), item.strip(), assist,
                    doc.line(path + ("assist",)) if assist else None,
                    doc.line(path + ("item",)) if item.strip() else None)


def _assist_name(doc: TomlDoc, path: tuple, effect: str | None) -> str | None:
    """The assist character an ``assist`` effect names ("" for other effects); None after
    recording a problem. Why a name: the assists' numbers follow their name order, and a number
    beyond the last assist once validated and then silently granted nothing."""
    assist = doc.get(path + ("assist",), str, default="", fallback=None)
    if assist is None:
        return None
    assist = assist.strip()
    if assist and effect is not None and effect != "assist":
        doc.add(path + ("assist",), f"only an 'assist' effect names an assist, not {effect!r}")
        return None
    if effect == "assist" and not assist:
        given = doc.lookup(path + ("assist",)) is not MISSING
        doc.add(path + (("assist",) if given else ("effect",)),
                "an 'assist' effect names its assist character: assist = \"NAME\" (a name in "
                "cards/assists.toml)")
        return None
    return assist


def _function_params(doc: TomlDoc, path: tuple, effect: str, params: dict) -> dict | None:
    """The effect's parameters: its defaults, then the table's ``params`` (each within its
    bounds); None after recording every problem."""
    spec = EFFECT_PARAMS[effect]
    values = {name: d for name, (_, _, _, d) in spec.items()}
    ok = True
    for name, value in (params or {}).items():
        where = path + ("params", name)
        if name not in spec:
            known = list(spec) or ["none"]
            hint = ("; an assist character is named, not numbered: assist = \"NAME\""
                    if effect == "assist" else "; a tile's buff is permanent (\"All buffs a tile "
                    "gives you are permanent\")" if (effect, name) == ("buff", "duration") else "")
            doc.add(where, f"unknown parameter{suggest(name, list(spec))} for effect "
                           f"{effect!r} (it reads: {', '.join(known)}){hint}")
            ok = False
            continue
        _, lo, hi, _ = spec[name]
        v = doc.get(where, int, lo=lo, hi=hi, fallback=None)
        if v is None:
            ok = False
            continue
        values[name] = v
    return values if ok else None


def parse_greedy(doc: TomlDoc) -> dict[str, float]:
    """The ``[greedy]`` table: each value in health units (default ``GREEDY_KEYS``)."""
    doc.unknown_keys(("greedy",), set(GREEDY_KEYS))
    out = {}
    for key, default in GREEDY_KEYS.items():
        v = doc.get(("greedy", key), (int, float), lo=0, hi=10_000, default=default,
                    fallback=default)
        out[key] = float(v)
    return out


def check_assist_names(tiles, assist_names, problems: Problems) -> np.ndarray:
    """Resolve every function's named assist against cards/assists.toml (``assist_names``, in
    name order); one problem per unknown name (file, line, field). Returns the assist's index
    per function row (-1: not an assist function)."""
    return _resolve(tiles, tiles.fx_assist, tiles.fx_assist_lines, assist_names, "assist",
                    "assist character", " (cards/assists.toml lists none)", problems)


def check_item_names(tiles, item_names, problems: Problems) -> np.ndarray:
    """Resolve every function's named item against the item catalogue (``item_names``); one
    problem per unknown name (file, line, field). Returns the item index per function row
    (-1: a random item, or not an item function)."""
    return _resolve(tiles, tiles.fx_item, tiles.fx_item_lines, item_names, "item", "item", "",
                    problems)


def _resolve(tiles, named, key_lines, known, field: str, what: str, none_known: str,
             problems: Problems) -> np.ndarray:
    """The index in ``known`` (case-insensitive) of each function row's ``named`` entry (-1: no
    name); an unknown name is one problem at its key's line (``key_lines``, else its table's),
    with a suggestion (``none_known`` when ``known`` is empty)."""
    lowered = [n.lower() for n in known]
    out = np.full(len(named), -1, np.int64)
    for r, name in enumerate(named):
        if not name:
            continue
        if name.lower() in lowered:
            out[r] = lowered.index(name.lower())
            continue
        t, kind = divmod(r, 2)
        hint = suggest(name, list(known)) if known else none_known
        line = (key_lines[r] if key_lines else None) or tiles.fx_lines[r] or tiles.lines[t]
        problems.add(tiles.path, line, f"tiles.{KINDS[kind]}.{field}",
                     f"unknown {what} {name!r}{hint}")
    return out
