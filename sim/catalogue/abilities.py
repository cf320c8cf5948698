"""The Ability Index (``cards/abilities.toml``): 11 ability types, each with named parameters.

Why data: abilities are "effects as data" — a card names its type and sets parameters; one
interpreter in the engine executes them, so a designer adds a card without touching code.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Problems
from .tomldoc import TomlDoc

ABILITY_TYPE_COUNT = 11  # "one of the 11 ability types set out in the Ability Index" (book)


@dataclass(frozen=True)
class AbilityType:
    name: str
    description: str
    param_names: tuple[str, ...]
    defaults: tuple[int, ...]
    lows: tuple[int, ...]
    highs: tuple[int, ...]


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


def load_abilities(path: Path, problems: Problems) -> AbilityIndex | None:
    doc = TomlDoc.load(Path(path), problems)
    if doc is None:
        return None
    before = len(problems)
    types = []
    for name, body in doc.data.items():
        if not isinstance(body, dict):
            doc.add((name,), "expected a table [type] with description and params")
            continue
        doc.unknown_keys((name,), {"description", "params"})
        desc = doc.get((name, "description"), str, fallback="")
        params = doc.get((name, "params"), dict, fallback={})
        pnames, defaults, lows, highs = [], [], [], []
        for pname, spec in (params or {}).items():
            ok = (isinstance(spec, list) and len(spec) == 3
                  and all(isinstance(v, int) and not isinstance(v, bool) for v in spec)
                  and spec[1] <= spec[0] <= spec[2])
            if not ok:
                doc.add((name, "params", pname), "expected [default, min, max] whole numbers "
                                                 "with min <= default <= max")
                continue
            pnames.append(pname)
            defaults.append(spec[0])
            lows.append(spec[1])
            highs.append(spec[2])
        types.append(AbilityType(name, desc, tuple(pnames), tuple(defaults), tuple(lows), tuple(highs)))
    if len(types) != ABILITY_TYPE_COUNT:
        problems.add(path, 1, "types", f"expected {ABILITY_TYPE_COUNT} ability types "
                                       f"(the book's Ability Index), got {len(types)}")
    if len(problems) > before:
        return None
    return AbilityIndex(tuple(types))
