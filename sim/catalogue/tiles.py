"""``cards/tiles.toml``: the tile catalogue, validated once into parallel NumPy arrays.

Why arrays: the board kernels index tiles by number and read layouts as ``int8`` grids; no kernel
ever sees a string. Every tile has "Size", "Homefield" (its suit), "Spawn" (its layers) and
"Function" (book, "The tiles that populate the board"); the Uncovered Tile is the one tile with
no suit, no function and no reward.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .abilities import SLOTS
from .diagnostics import Named, Problems, name_order
from .rules import Rules
from .tile_functions import GREEDY_KEYS, INTERACTABLE, REWARD, parse_function, parse_greedy
from .tile_layout import FLOOR, INTERACT, MAX_SIZE, PORTAL, SIZES, parse_layout
from .tomldoc import TomlDoc

SIDES = ("N", "E", "S", "W")
LAYERS = (1, 2, 3, 4)
CPU_FIELDS = ("health", "defense", "attacks", "tier", "speed", "range")
_CPU_LIMITS = {"health": (1, 100_000), "attacks": (0, 50), "speed": (0, 30), "range": (0, 30)}
_TILE_KEYS = {"name", "suit", "size", "layers", "doorways", "layout", "spawnable", "uncovered",
              "reward", "interactable", "cpu", "notes"}


@dataclass(frozen=True)
class TileCatalogue(Named):
    """Every tile as parallel arrays, in name order (not tiles.toml's entry order); layouts sit in
    the top-left ``size × size`` of 5×5 grids."""

    names: tuple[str, ...]
    suit: np.ndarray        # int16, index into rules.suits; -1 for the Uncovered Tile
    size: np.ndarray        # int8: 1, 3 or 5
    layers: np.ndarray      # bool[tile, 4]: may spawn in layer 1..4
    doorways: np.ndarray    # bool[tile, 4]: doorway on side N, E, S, W
    space: np.ndarray       # int8[tile, 5, 5] space codes (sim.catalogue.tile_layout)
    feature: np.ndarray     # int8[tile, 5, 5] feature codes
    edge_e: np.ndarray      # int8[tile, 5, 5] edge between (i, j) and (i, j+1)
    edge_s: np.ndarray      # int8[tile, 5, 5] edge between (i, j) and (i+1, j)
    spawnable: np.ndarray   # bool: may be laid out at the start (not only by a trigger)
    reward: tuple[str, ...]  # "" when none
    reward_ticks: np.ndarray  # int16, -1 when no reward
    interactable: tuple[str, ...]
    cpu_name: tuple[str, ...]
    cpu: np.ndarray         # int32[tile, 6] CPU_FIELDS, -1 when no CPU
    uncovered: int          # index of the Uncovered Tile
    lines: tuple[int, ...]
    path: str = ""
    # tile functions as effect rows (sim/catalogue/tile_functions.py): row 2 * tile + kind
    # (0 reward, 1 interactable), all zero when the tile has none
    fx: np.ndarray = None           # int64[2 * tile, len(abilities.SLOTS)]
    fx_price: np.ndarray = None     # int64[2 * tile]: ticks of a reward, coins of an interactable
    fx_item: tuple[str, ...] = ()   # the item a function names ("" = a random one)
    fx_assist: tuple[str, ...] = ()  # the assist character a function names ("" = none)
    fx_assist_lines: tuple = ()      # ... and the line of its ``assist`` key (None: none)
    fx_item_lines: tuple = ()        # the line of a function's ``item`` key (None: none)
    fx_lines: tuple[int, ...] = ()  # the line of each function's table (0 = none)
    piece: np.ndarray = None        # bool[tile]: the interactable is a piece (I), not the tile
    greedy: dict = None             # [greedy] worth of tile functions, health units


def load_tiles(path: Path, rules: Rules | None, problems: Problems) -> TileCatalogue | None:
    """Parse and check ``tiles.toml``; None (problems recorded) if it cannot be used."""
    doc = TomlDoc.load(Path(path), problems)
    if doc is None:
        return None
    before = len(problems)
    doc.unknown_keys((), {"tiles", "greedy"})
    greedy = parse_greedy(doc) if "greedy" in doc.data else dict(GREEDY_KEYS)
    entries = doc.get(("tiles",), list, fallback=[])
    if not entries:
        doc.add(("tiles",), "no [[tiles]]")
    rows = [_tile(doc, i, e, rules) for i, e in enumerate(entries)]
    rows = [r for r in rows if r is not None]
    uncovered = _check_tile_set(doc, rows)
    if len(problems) > before:
        return None
    # name order, not the file's: boards are laid out and transforms choose by tile index
    # (docs/architecture.md); each row carries its own lines, so messages still name the file's
    rows = [rows[k] for k in name_order([r["name"] for r in rows])]
    return _catalogue(rows, rows.index(uncovered[0]), path, greedy)


def _check_tile_set(doc: TomlDoc, rows: list[dict]) -> list[dict]:
    """Checks across tiles (no name twice, one Uncovered Tile); returns the tiles marked so."""
    names = [r["name"].lower() for r in rows]
    for r in rows:
        if names.count(r["name"].lower()) > 1:
            doc.add(("tiles", r["index"], "name"), f"{r['name']!r} is used by more than one tile")
    uncovered = [r for r in rows if r["uncovered"]]
    if len(uncovered) != 1 and rows:
        doc.add(("tiles", 0), "expected exactly one tile with uncovered = true (the Uncovered "
                              f"Tile), got {len(uncovered)}")
    return uncovered


def _catalogue(rows: list[dict], uncovered: int, path: Path, greedy: dict) -> TileCatalogue:
    """The checked tiles, in their final order, as the parallel arrays the kernels index."""
    n = len(rows)
    cat = dict(
        names=tuple(r["name"] for r in rows),
        suit=np.array([r["suit"] for r in rows], np.int16),
        size=np.array([r["size"] for r in rows], np.int8),
        layers=np.zeros((n, 4), np.bool_), doorways=np.zeros((n, 4), np.bool_),
        space=np.zeros((n, MAX_SIZE, MAX_SIZE), np.int8),
        feature=np.zeros((n, MAX_SIZE, MAX_SIZE), np.int8),
        edge_e=np.zeros((n, MAX_SIZE, MAX_SIZE), np.int8),
        edge_s=np.zeros((n, MAX_SIZE, MAX_SIZE), np.int8),
        spawnable=np.array([r["spawnable"] for r in rows], np.bool_),
        reward=tuple(r["reward"] for r in rows),
        reward_ticks=np.array([r["ticks"] for r in rows], np.int16),
        interactable=tuple(r["interactable"] for r in rows),
        cpu_name=tuple(r["cpu_name"] for r in rows),
        cpu=np.array([r["cpu"] for r in rows], np.int32).reshape(n, len(CPU_FIELDS)),
        uncovered=uncovered, lines=tuple(r["line"] for r in rows), path=str(path),
        fx=np.zeros((2 * n, len(SLOTS)), np.int64), fx_price=np.zeros(2 * n, np.int64),
        piece=np.array([r["piece"] for r in rows], np.bool_), greedy=greedy,
    )
    _fill_functions(cat, rows)
    _fill_grids(cat, rows)
    return TileCatalogue(**cat)


def _fill_functions(cat: dict, rows: list[dict]) -> None:
    """Each tile's reward and interactable into the function rows 2 * tile + kind."""
    n = len(rows)
    items, assists, lines = [""] * (2 * n), [""] * (2 * n), [0] * (2 * n)
    assist_lines, item_lines = [None] * (2 * n), [None] * (2 * n)
    for k, r in enumerate(rows):
        for kind, f in enumerate(r["functions"]):
            if f is not None:
                cat["fx"][2 * k + kind] = f.row
                cat["fx_price"][2 * k + kind] = f.price
                items[2 * k + kind], assists[2 * k + kind] = f.item, f.assist
                lines[2 * k + kind], assist_lines[2 * k + kind] = r["fx_lines"][kind], f.assist_line
                item_lines[2 * k + kind] = f.item_line
    cat["fx_item"], cat["fx_assist"], cat["fx_lines"] = tuple(items), tuple(assists), tuple(lines)
    cat["fx_assist_lines"], cat["fx_item_lines"] = tuple(assist_lines), tuple(item_lines)


def _fill_grids(cat: dict, rows: list[dict]) -> None:
    """Each tile's layers, doorways and layout into its slice of the 5×5 grids."""
    for k, r in enumerate(rows):
        cat["layers"][k, [x - 1 for x in r["layers"]]] = True
        cat["doorways"][k, [SIDES.index(s) for s in r["doorways"]]] = True
        lay = r["layout"]
        cat["space"][k], cat["feature"][k] = lay.space, lay.feature
        cat["edge_e"][k], cat["edge_s"][k] = lay.edge_e, lay.edge_s


def _tile(doc: TomlDoc, i: int, entry, rules: Rules | None) -> dict | None:
    base = ("tiles", i)
    if not isinstance(entry, dict):
        doc.add(base, "expected a [[tiles]] table")
        return None
    doc.unknown_keys(base, _TILE_KEYS)
    name = doc.get(base + ("name",), str, fallback="")
    if isinstance(name, str) and not name.strip():
        doc.add(base + ("name",), "empty name")
    uncovered = doc.get(base + ("uncovered",), bool, default=False)
    suit = -1
    if uncovered:
        # "It has no suit, no function and no reward" (book, Uncovered Tile)
        for key in ("suit", "reward", "interactable", "cpu"):
            if key in entry:
                doc.add(base + (key,), "the Uncovered Tile has no suit, no function and no reward")
    elif rules is not None:
        s = doc.get(base + ("suit",), str, choices=rules.suits, fallback=None)
        suit = rules.suits.index(s) if s is not None else -1
    size = doc.get(base + ("size",), int, fallback=None)
    if size is not None and size not in SIZES:
        doc.add(base + ("size",), f"{size} is not a tile size; choose from 1, 3, 5 (\"a 1×1, 3×3, "
                                  f"or 5×5 space grid\")")
        size = None
    layers = _list(doc, base + ("layers",), LAYERS, "layer")
    doorways = _list(doc, base + ("doorways",), SIDES, "side")
    if uncovered and sorted(doorways) != sorted(SIDES):
        doc.add(base + ("doorways",), "an Uncovered Tile connects on every side "
                                      "(\"Characters enter and exit an Uncovered Tile exactly as "
                                      "they would any other Tile\"): list N, E, S, W")
    spawnable = doc.get(base + ("spawnable",), bool, default=True)
    rows = doc.get(base + ("layout",), list, fallback=None)
    layout = None
    if rows is not None and size is not None:
        layout, errs = parse_layout(rows, size)
        line = doc.line(base + ("layout",))
        for r, msg in errs:
            doc.problems.add(doc.path, line + 1 + r if line else None, "tiles.layout", msg)
        if not errs:
            _check_layout(doc, base, layout, doorways, entry)
    functions, reward, ticks, interactable = _functions(doc, base, entry)
    cpu_name, cpu = "", [-1] * len(CPU_FIELDS)
    if "cpu" in entry:
        cpu_name, cpu = _cpu(doc, base + ("cpu",), rules)
    if name is None or size is None or layout is None:
        return None
    # "An interactable may be a piece of the tile ... or the tile itself": a tile drawn with an
    # interactable piece I offers it from within 1 range of the piece, else from anywhere in it
    piece = bool((layout.feature == INTERACT).any())
    return dict(index=i, name=name.strip(), suit=suit, size=size, layers=layers,
                doorways=doorways, spawnable=spawnable, uncovered=uncovered, layout=layout,
                reward=reward, ticks=ticks, interactable=interactable, cpu_name=cpu_name, cpu=cpu,
                line=doc.line(base) or 0, functions=functions, piece=piece,
                fx_lines=[doc.line(base + (k,)) or 0 for k in ("reward", "interactable")])


def _functions(doc: TomlDoc, base: tuple, entry: dict):
    """A tile's reward and interactable: their rows (None where absent or wrong), the reward's
    name and price in ticks (-1: none), the interactable's name."""
    reward, ticks = "", -1
    functions = [None, None]
    if "reward" in entry:
        functions[REWARD] = parse_function(doc, base + ("reward",), REWARD)
        reward = doc.lookup(base + ("reward", "name"))
        reward = reward if isinstance(reward, str) else ""
        ticks = functions[REWARD].price if functions[REWARD] is not None else -1
    interactable = ""
    if "interactable" in entry:
        functions[INTERACTABLE] = parse_function(doc, base + ("interactable",), INTERACTABLE)
        interactable = doc.lookup(base + ("interactable", "name"))
        interactable = interactable if isinstance(interactable, str) else ""
    return functions, reward, ticks, interactable


def _list(doc: TomlDoc, path: tuple, choices: tuple, what: str) -> list:
    values = doc.get(path, list, fallback=[])
    good = []
    for v in values:
        if v in choices and not isinstance(v, bool):
            if v in good:
                doc.add(path, f"{what} {v!r} listed twice")
            good.append(v)
        else:
            doc.add(path, f"unknown {what} {v!r}; choose from {', '.join(map(str, choices))}")
    if isinstance(doc.lookup(path), list) and not doc.lookup(path):
        doc.add(path, f"list at least one {what}")
    return list(dict.fromkeys(good))


def _check_layout(doc: TomlDoc, base: tuple, lay, doorways: list, entry: dict) -> None:
    s = lay.size
    mid = s // 2
    middles = {"N": (0, mid), "S": (s - 1, mid), "W": (mid, 0), "E": (mid, s - 1)}
    for side in doorways:
        if lay.space[middles[side]] != FLOOR:
            doc.add(base + ("layout",), f"the doorway on side {side} opens onto a space that is "
                                        f"not floor (row {middles[side][0] + 1}, space "
                                        f"{middles[side][1] + 1})")
    if int((lay.feature == PORTAL).sum()) > 2:
        doc.add(base + ("layout",), "more than 2 portal pieces (\"A Portal is comprised of two "
                                    "components\")")
    if (lay.feature == INTERACT).any() and "interactable" not in entry:
        doc.add(base + ("layout",), "an interactable piece I needs an [tiles.interactable] table")


def _cpu(doc: TomlDoc, path: tuple, rules: Rules | None) -> tuple[str, list[int]]:
    doc.unknown_keys(path, set(CPU_FIELDS) | {"name"})
    name = doc.get(path + ("name",), str, fallback="")
    limits = dict(_CPU_LIMITS)
    limits["defense"] = (0, rules.max_defense if rules else 9)
    limits["tier"] = (1, rules.n_tiers if rules else 4)
    # "Not every CPU has an attack listed": attacks, tier, speed and range may be left out.
    optional = {"attacks", "tier", "speed", "range", "defense"}
    values = []
    for f in CPU_FIELDS:
        lo, hi = limits[f]
        kw = {"default": -1} if f in optional else {}
        v = doc.get(path + (f,), int, lo=lo, hi=hi, fallback=-1, **kw)
        values.append(v)
    return name, values
