"""``cards/apocalypses.toml``: the Apocalypse Index as effect codes and parameters.

Why data: "Each Apocalypse has its own abilities and specifications, and these are set out in the
Apocalypse Index". The book prints none, so designers write them here; one interpreter
(:mod:`sim.engine.rules.apocalypse`) runs every entry, and the kernels only ever see integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .diagnostics import Named, Problems, in_name_order
from .tomldoc import MISSING, TomlDoc

EFFECTS = ("storm", "flood", "collapse")  # code = index + 1
STORM, FLOOD, COLLAPSE = 1, 2, 3
# How the players resolve it ("It continues until it is resolved by the players meeting its
# condition"): "hold" = a character stands on the revealed Apocalypse tile at `hold` GM Turns in a
# row; "none" = it cannot be resolved (the old behaviour, kept as an alternative).
RESOLUTIONS = ("none", "hold")  # code = index
RESOLVE_NONE, RESOLVE_HOLD = 0, 1
_KEYS = {"name", "description", "effect", "count", "damage", "rise", "resolve", "hold"}
N_PARAMS = 5  # count, damage, rise, resolution code, GM Turns to hold
P_COUNT, P_DAMAGE, P_RISE, P_RESOLVE, P_HOLD = range(N_PARAMS)
MAX_HOLD = 20  # a hold longer than the rotation cap could never be met


@dataclass(frozen=True)
class ApocalypseIndex(Named):
    """The Apocalypses in name order (not the file's entry order): one is drawn by index."""

    names: tuple[str, ...]
    descriptions: tuple[str, ...]
    code: np.ndarray    # int64[k]: STORM, FLOOD, COLLAPSE
    params: np.ndarray  # int64[k, 3]: count, damage, rise
    lines: tuple[int, ...]
    path: str = ""


def load_apocalypses(root: Path, problems: Problems | None = None) -> ApocalypseIndex:
    """Parse and check ``root/apocalypses.toml``; raises InputError listing every problem."""
    path = Path(root) / "apocalypses.toml"
    doc = TomlDoc.load_or_raise(path, problems)
    own = doc.problems
    doc.unknown_keys((), {"apocalypses"})
    entries = doc.get(("apocalypses",), list, fallback=[])
    if not entries:
        doc.add(("apocalypses",), "no [[apocalypses]] (\"A single Apocalypse Tile must be in play "
                                  "in every game\")")
    names, descs, codes, params, lines = [], [], [], [], []
    for i, e in enumerate(entries):
        base = ("apocalypses", i)
        if not isinstance(e, dict):
            doc.add(base, "expected an [[apocalypses]] table")
            continue
        doc.unknown_keys(base, _KEYS)
        name = doc.get(base + ("name",), str, fallback="")
        if isinstance(name, str) and not name.strip():
            doc.add(base + ("name",), "empty name")
        elif name.lower() in [n.lower() for n in names]:
            doc.add(base + ("name",), f"{name!r} is used by more than one Apocalypse")
        desc = doc.get(base + ("description",), str, default="")
        effect = doc.get(base + ("effect",), str, fallback=None)
        if effect is not None and effect not in EFFECTS:
            doc.add(base + ("effect",), f"unknown effect {effect!r}; choose from {', '.join(EFFECTS)}")
            effect = None
        unread = _refuse_unread(doc, base, effect)
        count = 0 if "count" in unread else doc.get(
            base + ("count",), int, lo=1, hi=49,
            **({} if effect in ("storm", "collapse") else {"default": 0}), fallback=0)
        damage = 0 if "damage" in unread else doc.get(
            base + ("damage",), int, lo=1, hi=100_000,
            **({} if effect == "flood" else {"default": 0}), fallback=0)
        rise = doc.get(base + ("rise",), int, lo=0, hi=100_000, default=0, fallback=0)
        if effect == "flood" and damage is not None and rise == 0:
            doc.add(base + ("rise",), "a flood needs rise >= 1 so it can end every game "
                                      "(health has no upper bound from shields)")
        resolve, hold = _resolution(doc, base)
        names.append(name)
        descs.append(desc)
        codes.append(EFFECTS.index(effect) + 1 if effect else 0)
        params.append([count or 0, damage or 0, rise or 0, resolve, hold])
        lines.append(doc.line(base) or 0)
    own.raise_if_any()
    # name order, not the file's: the game's Apocalypse is drawn by index (docs/architecture.md)
    names, descs, codes, params, lines = in_name_order(names, descs, codes, params, lines)
    return ApocalypseIndex(tuple(names), tuple(descs), np.asarray(codes, np.int64),
                           np.asarray(params, np.int64).reshape(-1, N_PARAMS), tuple(lines), str(path))


# the keys each effect reads besides the resolution: one named that its effect does not read is
# refused, as an ability's or an item's is ("a typo can never silently do nothing")
READS = {"storm": ("count", "rise"), "flood": ("damage", "rise"), "collapse": ("count", "rise")}


def _refuse_unread(doc: TomlDoc, base: tuple, effect: str | None) -> tuple[str, ...]:
    """One line for each of ``count``/``damage`` the entry names though its effect does not read
    it; returns those keys (not checked further: one line per problem)."""
    if effect is None:
        return ()
    unread = tuple(k for k in ("count", "damage")
                   if k not in READS[effect] and doc.lookup(base + (k,)) is not MISSING)
    for key in unread:
        doc.add(base + (key,), f"{key!r} does nothing for effect {effect!r} (it reads "
                               f"{' and '.join(READS[effect])})")
    return unread


def _resolution(doc: TomlDoc, base: tuple) -> tuple[int, int]:
    """The entry's resolution condition: (code, GM Turns to hold); every problem on its line."""
    resolve = doc.get(base + ("resolve",), str, choices=RESOLUTIONS, fallback=None)
    if resolve not in RESOLUTIONS:  # already reported: the hold is not checked against it
        return RESOLVE_NONE, 0
    code = RESOLUTIONS.index(resolve)
    if code == RESOLVE_HOLD:
        hold = doc.get(base + ("hold",), int, lo=1, hi=MAX_HOLD, fallback=1)
    else:
        hold = doc.get(base + ("hold",), int, lo=1, hi=MAX_HOLD, default=0, fallback=0)
        if hold:
            doc.add(base + ("hold",), "`hold` needs resolve = \"hold\"")
    return code, int(hold or 0)
