"""``cards/peers.toml``: the peer games' combat numbers (issue #9), parsed and checked.

Why a file: the peer documents print some numbers (Arena's d20 and Ultimate Blast, Dungeon
Twister's "+0" card, 8 Masters' Revenge's block values) and leave others out (Arena's strike rule,
Dungeon Twister's hand, 8 Masters' damage and deck). Each missing number is a house value quoted
in ``docs/rulings-peers.md``; keeping them as data lets a designer try an alternative without
code. The stat checks live here too, so ``[*.example]``, ``[compare.*]`` and ``bwlab combat
--stat`` reject a bad stat with the same words.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Problems
from .tomldoc import MISSING, TomlDoc

PEERS_FILE = "peers.toml"
SYSTEMS = ("boardwars", "arena", "dungeon_twister", "eight_masters")
POLICIES = ("uniform", "highest")

INT, INTS = "int", "ints"
OPTIONAL = {"attacker_hand", "defender_hand"}  # stats that may be left out
MAX_LEN = {"attackers": 6, "defenders": 6}  # list stats: group size (others: 12)
# system -> stat -> (kind, lo, hi, help). The bounds keep the exact tables small.
STAT_SPECS: dict[str, dict[str, tuple]] = {
    "boardwars": {
        "attacks": (INT, 0, 50, "attacks thrown"),
        "tier": (INT, 1, 4, "dice tier of the damage die"),
        "defense": (INT, 0, 100, "defender's defense (capped by rules.toml)"),
        "health": (INT, 1, 100_000, "target's health"),
    },
    "arena": {
        "strikes": (INT, 1, 8, "strikes of the attack (one per target)"),
        "defense": (INT, 1, 40, "target's Defense"),
        "damage": (INT, 0, 10_000, "damage of a hit"),
        "miss_damage": (INT, 0, 10_000, "damage of a miss (Bossbane R-DMG)"),
        "overlord": (INT, 0, 1, "1: the attacker has Overlord Perks"),
        "charges": (INT, 0, 40, "Blast Charges (>0: resolve Ultimate Blasts instead)"),
        "health": (INT, 1, 100_000, "target's HP"),
    },
    "dungeon_twister": {
        "attackers": (INTS, 0, 20, "Combat values of the attacking group"),
        "defenders": (INTS, 0, 20, "Combat values of the defending group"),
        "defender_wounded": (INT, 0, 1, "1: one wounded defender"),
        "combats": (INT, 1, 10, "Combats the attacker may initiate (ties)"),
        "attacker_hand": (INTS, 0, 20, "cards left in the attacker's hand (default: all)"),
        "defender_hand": (INTS, 0, 20, "cards left in the defender's hand (default: all)"),
    },
    "eight_masters": {
        "hand": (INT, 0, 4, "cards in the attacker's hand"),
        "defense": (INT, 2, 200, "defender's defense value"),
        "ends": (INTS, 1, 100, "end numbers of the attacker's couple"),
        "defender_blocking": (INT, 0, 1, "1: a defender card is in its blocking state"),
    },
}


@dataclass(frozen=True)
class ArenaRules:
    die: int
    margin: int
    auto_hit: int
    auto_miss: int
    overlord_penalty: int
    blast_cost: int
    blast_miss_from: int
    blast_hit_damage: int
    blast_miss_damage: int
    blast_miss_refund: int


@dataclass(frozen=True)
class TwisterRules:
    hand: tuple[int, ...]
    kept: tuple[int, ...]
    policy: str
    wound_levels: int


@dataclass(frozen=True)
class MastersRules:
    values: int
    colours: int
    dragon_share: float
    rotate: bool
    hit_damage: int
    block_reduction: int
    blocked_colour_penalty: int
    defender_hand: int
    life: int


@dataclass(frozen=True)
class Peers:
    arena: ArenaRules
    dungeon_twister: TwisterRules
    eight_masters: MastersRules
    examples: dict  # system -> checked stats of ``[system.example]``
    levels: tuple[str, ...]
    compare: dict   # system -> [checked stats per level]
    lines: dict     # system -> line of ``[compare.system]`` (for later checks against rules.toml)
    path: str = ""

    def rules_of(self, system: str):
        return getattr(self, system) if system != "boardwars" else None


def check_stats(system: str, values: dict, peers_rules=None) -> tuple[dict, list[tuple[str, str]]]:
    """Type, range and cross checks of one system's stats: (stats, [(field, problem)]).

    Missing stats are problems; unknown names too. ``peers_rules`` (the system's rules, when
    known) adds the checks that depend on them (8 Masters' card numbers).
    """
    specs = STAT_SPECS[system]
    problems, out = [], {}
    for name in values:
        if name not in specs:
            problems.append((name, f"unknown stat; {system} takes {', '.join(specs)}"))
    for name, (kind, lo, hi, _) in specs.items():
        if name not in values:
            if name not in OPTIONAL:
                problems.append((name, "missing"))
            continue
        v = values[name]
        if kind == INT:
            if isinstance(v, bool) or not isinstance(v, int):
                problems.append((name, f"expected an integer, got {v!r}"))
            elif not lo <= v <= hi:
                problems.append((name, f"{v} out of range [{lo}, {hi}]"))
            else:
                out[name] = int(v)
        else:
            if (not isinstance(v, (list, tuple)) or not v
                    or any(isinstance(x, bool) or not isinstance(x, int) for x in v)):
                problems.append((name, f"expected a non-empty list of integers, got {v!r}"))
            elif not all(lo <= x <= hi for x in v):
                problems.append((name, f"{list(v)}: every value must be in [{lo}, {hi}]"))
            elif len(v) > MAX_LEN.get(name, 12):
                problems.append((name, f"at most {MAX_LEN.get(name, 12)} values, got {len(v)}"))
            else:
                out[name] = tuple(int(x) for x in v)
    if problems:
        return out, problems
    if system == "dungeon_twister" and out["defender_wounded"] and len(out["defenders"]) != 1:
        problems.append(("defender_wounded", "a wounded character defends alone (\"you can only "
                                             "attack one wounded character at the same time\")"))
    if system == "dungeon_twister" and peers_rules is not None:
        for name in OPTIONAL & set(out):
            left = Counter(peers_rules.hand)
            left.subtract(out[name])
            if min(left.values()) < 0:
                problems.append((name, f"{list(out[name])} is not part of the hand "
                                       f"{list(peers_rules.hand)} (peers.toml)"))
    if system == "eight_masters":
        if len(out["ends"]) != 2:
            problems.append(("ends", f"a couple has 2 ends, got {len(out['ends'])}"))
        elif peers_rules is not None and max(out["ends"]) > peers_rules.values:
            problems.append(("ends", f"card numbers run 1..{peers_rules.values}"))
        elif peers_rules is not None and out["defense"] > 2 * peers_rules.values:
            problems.append(("defense", f"two ends sum to at most {2 * peers_rules.values}"))
    return out, problems


def load_peers(root: Path, problems: Problems | None = None) -> Peers:
    """Parse and check ``root/peers.toml``; raises InputError listing every problem."""
    path = Path(root) / PEERS_FILE
    doc = TomlDoc.load_or_raise(path, problems)
    own = doc.problems
    doc.unknown_keys((), {"arena", "dungeon_twister", "eight_masters", "compare"})
    arena = _arena(doc)
    twister = _twister(doc)
    masters = _masters(doc)
    system_rules = {"arena": arena, "dungeon_twister": twister, "eight_masters": masters}
    examples = {}
    for system, rules in system_rules.items():
        examples[system] = _stats(doc, (system, "example"), system, rules, None)
    levels = doc.get(("compare", "levels"), list, fallback=[])
    if not levels or not all(isinstance(x, str) and x.strip() for x in levels):
        doc.add(("compare", "levels"), "expected a non-empty list of level names")
        levels = ["level"]
    doc.unknown_keys(("compare",), set(SYSTEMS) | {"levels"})
    compare, lines = {}, {}
    for system in SYSTEMS:
        if doc.lookup(("compare", system)) is not MISSING:
            compare[system] = [_stats(doc, ("compare", system), system,
                                      system_rules.get(system), (i, len(levels)))
                               for i in range(len(levels))]
            lines[system] = doc.line(("compare", system))
    if not compare:
        doc.add(("compare",), f"no [compare.SYSTEM] table; give some of {', '.join(SYSTEMS)}")
    own.raise_if_any()
    return Peers(arena, twister, masters, examples, tuple(levels), compare, lines, str(path))


def _stats(doc: TomlDoc, base: tuple, system: str, rules, level) -> dict:
    """Stats of ``[base]``; with ``level = (i, n)`` a list stat gives its entry ``i`` of ``n``."""
    table = doc.lookup(base)
    if not isinstance(table, dict):
        doc.add(base, "missing table" if table is MISSING else "expected a table")
        return {}
    values, skipped = {}, set()
    for name, v in table.items():
        if level is not None and isinstance(v, list) and _per_level(system, name, v):
            if len(v) != level[1]:
                skipped.add(name)
                if level[0] == 0:
                    doc.add(base + (name,), f"expected one value per level ({level[1]}), "
                                            f"got {len(v)}")
                continue
            v = v[level[0]]
        values[name] = v
    stats, problems = check_stats(system, values, rules)
    for name, message in problems:
        raw = table.get(name)
        per_level = (level is not None and isinstance(raw, list)
                     and _per_level(system, name, raw))
        if name in skipped or (level is not None and level[0] > 0 and not per_level):
            continue  # reported once: at level 0, or as a list of the wrong length
        doc.add(base + (name,), message + (f" (level {level[0] + 1})" if per_level else ""))
    return stats


def _per_level(system: str, name: str, value: list) -> bool:
    """Is this list one value per level? (A list stat per level is a list of lists.)"""
    spec = STAT_SPECS[system].get(name)
    if spec is None or spec[0] == INT:
        return True
    return all(isinstance(x, list) for x in value)


def _arena(doc: TomlDoc) -> ArenaRules:
    s = ("arena",)
    doc.unknown_keys(s, {f for f in ArenaRules.__dataclass_fields__} | {"example"})
    die = doc.get(s + ("die",), int, lo=2, hi=1000, fallback=20)
    hit, miss = doc.lookup(s + ("auto_hit",)), doc.lookup(s + ("auto_miss",))
    if isinstance(hit, int) and hit and hit == miss:
        doc.add(s + ("auto_miss",), f"roll {hit} cannot both always hit and always miss")
    return ArenaRules(
        die=die, margin=doc.get(s + ("margin",), int, lo=-100, hi=100, fallback=0),
        auto_hit=doc.get(s + ("auto_hit",), int, lo=0, hi=die, fallback=0),
        auto_miss=doc.get(s + ("auto_miss",), int, lo=0, hi=die, fallback=0),
        overlord_penalty=doc.get(s + ("overlord_penalty",), int, lo=0, hi=10_000, fallback=3),
        blast_cost=doc.get(s + ("blast_cost",), int, lo=1, hi=40, fallback=4),
        blast_miss_from=doc.get(s + ("blast_miss_from",), int, lo=1, hi=die + 1, fallback=16),
        blast_hit_damage=doc.get(s + ("blast_hit_damage",), int, lo=0, hi=100_000, fallback=70),
        blast_miss_damage=doc.get(s + ("blast_miss_damage",), int, lo=0, hi=100_000, fallback=50),
        blast_miss_refund=_refund(doc),
    )


def _refund(doc: TomlDoc) -> int:
    cost = doc.lookup(("arena", "blast_cost"))
    hi = cost - 1 if isinstance(cost, int) and not isinstance(cost, bool) and cost > 1 else 0
    # a refund of the whole cost would blast forever
    return doc.get(("arena", "blast_miss_refund"), int, lo=0, hi=hi, fallback=0)


def _twister(doc: TomlDoc) -> TwisterRules:
    s = ("dungeon_twister",)
    doc.unknown_keys(s, {"hand", "kept", "policy", "wound_levels", "example"})
    hand = doc.get(s + ("hand",), list, fallback=[0])
    if not hand or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 20
                           for x in hand) or len(hand) > 12:
        doc.add(s + ("hand",), "expected 1 to 12 card values, each in [0, 20]")
        hand = [0]
    kept = doc.get(s + ("kept",), list, fallback=[])
    if not all(isinstance(x, int) and not isinstance(x, bool) and x in hand for x in kept):
        doc.add(s + ("kept",), "every kept card must be a value of the hand")
        kept = []
    return TwisterRules(
        hand=tuple(sorted(hand)), kept=tuple(sorted(set(kept))),
        policy=doc.get(s + ("policy",), str, choices=POLICIES, fallback="uniform"),
        wound_levels=doc.get(s + ("wound_levels",), int, lo=1, hi=10, fallback=2))


def _masters(doc: TomlDoc) -> MastersRules:
    s = ("eight_masters",)
    doc.unknown_keys(s, {f for f in MastersRules.__dataclass_fields__} | {"example"})
    return MastersRules(
        values=doc.get(s + ("values",), int, lo=1, hi=50, fallback=5),
        colours=doc.get(s + ("colours",), int, lo=1, hi=12, fallback=4),
        dragon_share=float(doc.get(s + ("dragon_share",), (int, float), lo=0.0, hi=1.0,
                                   fallback=0.25)),
        rotate=doc.get(s + ("rotate",), bool, fallback=True),
        hit_damage=doc.get(s + ("hit_damage",), int, lo=0, hi=1000, fallback=2),
        block_reduction=doc.get(s + ("block_reduction",), int, lo=0, hi=1000, fallback=1),
        blocked_colour_penalty=doc.get(s + ("blocked_colour_penalty",), int, lo=0, hi=1000,
                                       fallback=2),
        defender_hand=doc.get(s + ("defender_hand",), int, lo=0, hi=4, fallback=3),
        life=doc.get(s + ("life",), int, lo=1, hi=1000, fallback=12))
