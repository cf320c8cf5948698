"""The Ability Index (``cards/abilities.toml``): 11 ability types, each with named parameters.

Why data: abilities are "effects as data" — a card names its type and sets parameters; one
interpreter in the engine (``sim/engine/effects/interpreter.py``) executes them, so a designer adds a card
without touching code. Each type names the interpreter's ``effect``, its ``target`` kind and
whether it ``costs_action``; :meth:`AbilityIndex.row` turns a card's parameters into one row of
integers in the fixed slot order ``SLOTS`` (the interpreter's vocabulary: docs/effects.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Problems, suggest
from .effect_table import TARGETS, effects_of, lookup, names_of
from .tomldoc import TomlDoc

ABILITY_TYPE_COUNT = 11  # "one of the 11 ability types set out in the Ability Index" (book)

# The effects an ability type may name (opcode = index + 1; 0 = no ability), the target kinds
# (TARGETS) each works on and its default: queries of the one effect table (effect_table.py).
EFFECTS = names_of(source="ability")
PENDING_EFFECTS: tuple[str, ...] = ()  # every effect plays
EFFECT_TARGETS = {r.name: set(r.targets) for r in effects_of(source="ability")}
DEFAULT_TARGET = {r.name: r.targets[0] for r in effects_of(source="ability")}
# One effect row: these slots, in this order (sim/engine/state/fields.py AB_* columns mirror them).
SLOTS = ("op", "target", "costs_action", "own_turn_only", "charges", "range", "duration",
         "amount", "stat", "flag", "count", "health", "attacks", "tier")
# parameter name -> slot (several types' parameters share a slot: one meaning per effect)
PARAM_SLOT = {"charges": "charges", "own_turn_only": "own_turn_only", "range": "range",
              "duration": "duration", "stat": "stat", "bonus_attacks": "amount",
              "damage": "amount", "amount": "amount", "distance": "amount", "shield": "flag",
              "free_water": "flag", "clone": "flag", "mode": "flag", "count": "count",
              "health": "health", "attacks": "attacks", "tier": "tier"}
# what the engine can hold per parameter, whatever a type declares: one throw holds at most 50
# dice (cards.LIMITS["attacks"], static_tables.MAX_ATTACKS), a board is 35 spaces wide, a stat code is
# 0..5, a flag 0 or 1 (issue #22: a declared range must not let a card throw 1,009 attacks)
MAX_DICE = 50  # one throw's dice (cards.LIMITS["attacks"], static_tables.MAX_ATTACKS)
# own_turn_only: 1 only. The engine offers a character's ability in its own turn's decisions and
# has no moment outside them to offer it in; a 0 was accepted and did nothing (docs/rulings.md).
# Why a limit is narrower than the data could ask, said beside the refusal:
PARAM_WHY = {"own_turn_only": "an ability used outside its owner's turn is not simulated: "
                              "docs/rulings.md"}
PARAM_LIMITS = {"charges": (0, 1000), "own_turn_only": (1, 1), "range": (0, 35),
                "duration": (0, 1000), "stat": (0, 5), "bonus_attacks": (0, MAX_DICE),
                "damage": (0, 100_000), "amount": (0, 100_000), "distance": (0, 35),
                "shield": (0, 1), "free_water": (0, 1), "clone": (0, 1), "mode": (0, 1),
                "count": (0, 10), "health": (1, 100_000), "attacks": (0, MAX_DICE), "tier": (1, 16)}
# parameters of the use, read whatever the effect: charges per game, own turn only; the effect's
# own are its row's in the effect table
USE_PARAMS = ("charges", "own_turn_only")
MAX_DEBUFF_STAT = 4  # stat codes 0..4 (4: disadvantage); 5 (invincibility) is a buff only


@dataclass(frozen=True)
class AbilityType:
    name: str
    description: str
    param_names: tuple[str, ...]
    defaults: tuple[int, ...]
    lows: tuple[int, ...]
    highs: tuple[int, ...]
    effect: str = ""
    target: str = "none"
    costs_action: int = 1


@dataclass(frozen=True)
class AbilityIndex:
    types: tuple[AbilityType, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.types)

    @property
    def max_params(self) -> int:
        return max((len(t.param_names) for t in self.types), default=0)

    def code(self, name: str) -> int:
        return self.names.index(name)

    def row(self, code: int, values) -> list[int]:
        """The effect row (``SLOTS`` order) of a card of type ``code`` with parameter ``values``
        (in the type's parameter order)."""
        t = self.types[code]
        out = [0] * len(SLOTS)
        out[0] = lookup(t.effect, source="ability").op
        out[1] = TARGETS.index(t.target)
        out[2] = t.costs_action
        for pname, v in zip(t.param_names, values):
            out[SLOTS.index(PARAM_SLOT[pname])] = int(v)
        return out


def load_abilities(path: Path, problems: Problems, n_tiers: int | None = None
                   ) -> AbilityIndex | None:
    """abilities.toml's types; ``n_tiers`` (rules.toml's dice tiers, when it loaded) bounds a
    summon's ``tier`` as a card's star tiers are bounded (a minion throws ``tier_faces[tier - 1]``:
    a tier past the table read past its end; found by fuzzing, stop 73)."""
    before = len(problems)  # (a value the load itself rejects counts: no half-read index)
    doc = TomlDoc.load(Path(path), problems)
    if doc is None:
        return None
    types = []
    for name, body in doc.data.items():
        if not isinstance(body, dict):
            doc.add((name,), "expected a table [type] with description and params")
            continue
        doc.unknown_keys((name,), {"description", "params", "effect", "target", "costs_action"})
        desc = doc.get((name, "description"), str, fallback="")
        effect = doc.get((name, "effect"), str, default=name, fallback=name)
        if effect is not None and effect not in EFFECTS:
            doc.add((name, "effect"), f"unknown effect {effect!r}{suggest(effect, EFFECTS)} "
                                      f"(the interpreter runs: {', '.join(EFFECTS)})")
            effect = None
        target = doc.get((name, "target"), str, fallback="none",
                         default=DEFAULT_TARGET.get(effect or "", "none"))
        if target is not None and target not in TARGETS:
            doc.add((name, "target"), f"unknown target {target!r}; choose from {', '.join(TARGETS)}")
            target = None
        elif effect is not None and target is not None and target not in EFFECT_TARGETS[effect]:
            doc.add((name, "target"), f"effect {effect!r} works on "
                                      f"{' or '.join(sorted(EFFECT_TARGETS[effect]))}, not {target!r}")
        costs = doc.get((name, "costs_action"), int, lo=0, hi=1, default=1, fallback=1)
        params = doc.get((name, "params"), dict, fallback={})
        pnames, defaults, lows, highs = _param_specs(doc, name, effect, params, n_tiers)
        types.append(AbilityType(name, desc, pnames, defaults, lows, highs, effect or "",
                                 target or "none", costs or 0))
    _check_type_count(doc, path, problems, types)
    if len(problems) > before:
        return None
    return AbilityIndex(tuple(types))


def _check_type_count(doc: TomlDoc, path: Path, problems: Problems, types: list) -> None:
    """The book's count of types. A table past the 11th is named at its own line (stop 77's
    audit: a designer's added ``self_heal`` type was reported at line 1 of the file); too few
    has no line to point at, so the file's first."""
    n = len(types)
    if n < ABILITY_TYPE_COUNT:
        problems.add(path, 1, "types", f"expected {ABILITY_TYPE_COUNT} ability types "
                                       f"(the book's Ability Index), got {n}")
    for extra in types[ABILITY_TYPE_COUNT:]:
        doc.add((extra.name,), f"expected {ABILITY_TYPE_COUNT} ability types (the book's Ability "
                               f"Index), got {n}: a new kind of ability is one of the "
                               f"{ABILITY_TYPE_COUNT} types with other parameters "
                               f"(docs/effects.md)")


def _param_specs(doc: TomlDoc, name: str, effect, params: dict, n_tiers: int | None = None):
    """A type's ``params``: each ``[default, min, max]`` within what the engine holds and read
    by its effect (the effect table's parameters, or the use's ``USE_PARAMS``: a parameter that
    does nothing is a typo, never silently ignored); the names, defaults, lows and highs as
    tuples (a bad one recorded and left out)."""
    pnames, defaults, lows, highs = [], [], [], []
    for pname, spec in (params or {}).items():
        if doc.reported((name, "params", pname)):
            continue
        ok = (isinstance(spec, list) and len(spec) == 3
              and all(isinstance(v, int) and not isinstance(v, bool) for v in spec)
              and spec[1] <= spec[0] <= spec[2])
        if not ok:
            doc.add((name, "params", pname), "expected [default, min, max] whole numbers "
                                             "with min <= default <= max")
            continue
        if pname not in PARAM_SLOT:
            doc.add((name, "params", pname), f"unknown parameter{suggest(pname, list(PARAM_SLOT))}"
                                             f" (the interpreter reads: {', '.join(PARAM_SLOT)})")
            continue
        reads = USE_PARAMS + (lookup(effect, source="ability").params if effect else ())
        if effect and pname not in reads:
            doc.add((name, "params", pname), f"parameter {pname!r} does nothing for effect "
                                             f"{effect!r} (it reads: {', '.join(reads)})")
            continue
        lo, hi = PARAM_LIMITS[pname]
        why = PARAM_WHY.get(pname)
        if pname == "tier" and n_tiers is not None and n_tiers < hi:
            hi, why = n_tiers, f"rules.toml [dice] tier_faces has {n_tiers} dice tiers"
        if spec[1] < lo or spec[2] > hi:
            doc.add((name, "params", pname), f"[min, max] = [{spec[1]}, {spec[2]}] is beyond "
                                             f"what the engine holds: [{lo}, {hi}]"
                                             + (f" ({why})" if why else ""))
            continue
        if pname == "stat" and effect == "debuff" and spec[2] > MAX_DEBUFF_STAT:
            doc.add((name, "params", pname), f"a de-buff's stat is 0..{MAX_DEBUFF_STAT} "
                                             "(5, invincibility, is a buff)")
            continue
        pnames.append(pname)
        defaults.append(spec[0])
        lows.append(spec[1])
        highs.append(spec[2])
    return tuple(pnames), tuple(defaults), tuple(lows), tuple(highs)
