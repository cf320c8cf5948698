"""``cards/characters.csv``: one row per character card, validated into typed NumPy arrays.

Why CSV: designers balance cards in a spreadsheet. Why arrays: the Numba kernels index cards by
number and never see a string. Each attack-star point is two columns, its number of attacks and
its dice tier ("A value printed with no exponent is Tier 1": a blank tier cell is tier 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .abilities import MAX_DICE, SLOTS, AbilityIndex
from .diagnostics import (CsvRows, InputError, Problem, Problems, check_row_name, name_order,
                          read_header, read_text, suggest, whole_number)
from .rules import STAR_COLOURS, Rules

STAR_COLUMNS = tuple(c for colour in STAR_COLOURS for c in (colour, f"{colour}_tier"))
REQUIRED = ("name", "suit", "rarity", "ability", "speed", "range", "max_health", "defense",
            "base", "red", "blue", "green")
OPTIONAL = ("ability_params", "characters", "base_tier", "red_tier", "blue_tier", "green_tier",
            "notes")
COLUMNS = REQUIRED + OPTIONAL

# Plausibility bounds a designer cannot exceed by accident; the book's own bounds (defense <= 9,
# tiers 1..4) come from rules.toml.
LIMITS = {"speed": (0, 30), "range": (0, 30), "max_health": (1, 100_000), "characters": (1, 10),
          "attacks": (0, MAX_DICE)}


@dataclass(frozen=True)
class CardCatalogue:
    """Every card as parallel arrays; star arrays are ``[card, colour]`` with colour base/red/blue/green."""

    names: tuple[str, ...]
    suit: np.ndarray         # int16, index into rules.suits
    rarity: np.ndarray       # int16, index into rules.rarities (0 = Bronze)
    ability: np.ndarray      # int16, index into the Ability Index
    ability_params: np.ndarray  # int64[card, max_params], in the type's parameter order
    effects: np.ndarray      # int64[card, len(abilities.SLOTS)]: the card's effect row
    characters: np.ndarray   # int32, characters per card (multi-character cards)
    speed: np.ndarray
    range: np.ndarray
    max_health: np.ndarray
    defense: np.ndarray
    attacks: np.ndarray      # int32[card, 4]
    tier: np.ndarray         # int32[card, 4], 1-based dice tier
    lines: tuple[int, ...]   # the CSV line of each card, for later error messages
    path: str = ""
    # Cards are in name order (sim.catalogue.diagnostics.name_order), whatever the order of the
    # CSV's rows: index c is the c-th name, so draws by index name the same cards for a seed.

    def __len__(self) -> int:
        return len(self.names)

    def find(self, name: str) -> int:
        """Index of the card called ``name`` (case-insensitive); InputError with suggestions if none."""
        lowered = [n.lower() for n in self.names]
        try:
            return lowered.index(name.strip().lower())
        except ValueError:
            raise InputError([Problem(str(self.path), None, "name",
                                      f"unknown card {name!r}{suggest(name, list(self.names))}")])


def load_cards(path: Path, rules: Rules, abilities: AbilityIndex, problems: Problems
               ) -> CardCatalogue | None:
    text = read_text(Path(path), problems)
    if text is None:
        return None
    before = len(problems)
    reader = CsvRows(path, text, problems)
    header = read_header(path, reader, COLUMNS, REQUIRED, problems)
    if header is None:
        return None

    suit_ix = {s.lower(): i for i, s in enumerate(rules.suits)}
    rarity_ix = {r.lower(): i for i, r in enumerate(rules.rarities)}
    rows: dict[str, list] = {k: [] for k in ("names", "suit", "rarity", "ability", "params",
                                             "characters", "speed", "range", "max_health",
                                             "defense", "attacks", "tier", "lines")}
    seen: dict[str, int] = {}
    last = reader.line_num
    for values in reader:
        # the record's first line: a quoted cell may span lines (an unclosed quote runs on)
        line, last = last + 1, reader.line_num
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(header):
            problems.add(path, line, "row", f"has {len(values)} cells, the header has {len(header)}")
            continue
        row = {h: v.strip() for h, v in zip(header, values)}
        check = _RowChecker(path, line, problems)
        name = row["name"]
        check_row_name(check.add, name, seen, line)
        fields = _card_fields(check, row, rules, abilities, suit_ix, rarity_ix)
        if check.failed:
            continue
        for key, value in (("names", name), ("lines", line), *fields.items()):
            rows[key].append(value)
    if not rows["names"] and len(problems) == before:
        problems.add(path, 2, "row", "no cards")
    if len(problems) > before:
        return None
    # name order, not the sheet's: a summon's random card is drawn by index, and a designer who
    # sorts the sheet changes no card (each row keeps its own line for later messages)
    order = name_order(rows["names"])
    rows = {key: [column[k] for k in order] for key, column in rows.items()}
    i32 = lambda key: np.asarray(rows[key], dtype=np.int32)  # noqa: E731
    return CardCatalogue(
        names=tuple(rows["names"]), suit=np.asarray(rows["suit"], np.int16),
        rarity=np.asarray(rows["rarity"], np.int16), ability=np.asarray(rows["ability"], np.int16),
        ability_params=np.asarray(rows["params"], np.int64).reshape(len(rows["names"]),
                                                                     abilities.max_params),
        effects=np.asarray([abilities.row(a, p) for a, p in zip(rows["ability"], rows["params"])],
                           np.int64).reshape(len(rows["names"]), len(SLOTS)),
        characters=i32("characters"), speed=i32("speed"), range=i32("range"),
        max_health=i32("max_health"), defense=i32("defense"), attacks=i32("attacks"),
        tier=i32("tier"), lines=tuple(rows["lines"]), path=str(path),
    )


def _card_fields(check, row: dict, rules: Rules, abilities: AbilityIndex, suit_ix: dict,
                 rarity_ix: dict) -> dict:
    """One card row's values by catalogue column (suit .. tier), each bad cell recorded on
    ``check``."""
    suit = check.choice("suit", row["suit"], suit_ix, rules.suits)
    rarity = check.choice("rarity", row["rarity"], rarity_ix, rules.rarities)
    ability = check.choice("ability", row["ability"],
                           {n.lower(): i for i, n in enumerate(abilities.names)}, abilities.names)
    params = _ability_params(check, row.get("ability_params", ""), abilities, ability)
    nums = {f: check.integer(f, row[f], *LIMITS[f]) for f in ("speed", "range", "max_health")}
    characters = check.integer("characters", row.get("characters", "") or "1",
                               *LIMITS["characters"])
    defense = check.integer("defense", row["defense"], 0, rules.max_defense)
    attacks = [check.integer(c, row[c], *LIMITS["attacks"]) for c in STAR_COLOURS]
    tiers = [check.integer(f"{c}_tier", row.get(f"{c}_tier", "") or "1", 1, rules.n_tiers)
             for c in STAR_COLOURS]
    kind = abilities.types[ability] if ability >= 0 else None
    if not check.failed and kind is not None and "bonus_attacks" in kind.param_names:
        bonus = params[kind.param_names.index("bonus_attacks")]
        if max(attacks) + bonus > LIMITS["attacks"][1]:  # one throw: "strike" adds its dice
            check.add("ability_params.bonus_attacks",
                      f"{max(attacks)} attacks + {bonus} bonus attacks is more than one throw "
                      f"holds ({LIMITS['attacks'][1]})")
    return {"suit": suit, "rarity": rarity, "ability": ability, "params": params,
            "characters": characters, "defense": defense, "attacks": attacks, "tier": tiers,
            **nums}


class _RowChecker:
    """Checks one CSV row's cells, recording one problem per bad cell."""

    def __init__(self, path, line, problems: Problems):
        self.path, self.line, self.problems, self.failed = path, line, problems, False

    def add(self, field: str, message: str) -> None:
        self.failed = True
        self.problems.add(self.path, self.line, field, message)

    def integer(self, field: str, text: str, lo: int, hi: int) -> int:
        try:
            value = whole_number(text)
        except ValueError:
            self.add(field, f"not a whole number: {text!r}" if text else "empty")
            return lo
        if not lo <= value <= hi:
            self.add(field, f"{value} out of range [{lo}, {hi}]")
        return value

    def choice(self, field: str, text: str, index: dict[str, int], known) -> int:
        if text.lower() in index:
            return index[text.lower()]
        self.add(field, f"unknown {field} {text!r}{suggest(text, list(known))}" if text else "empty")
        return -1


def _ability_params(check: _RowChecker, text: str, abilities: AbilityIndex, code: int) -> list[int]:
    """``key=value; key=value`` checked against the ability type's parameters; defaults fill in."""
    width = abilities.max_params
    if code < 0:
        return [0] * width
    kind = abilities.types[code]
    values = list(kind.defaults) + [0] * (width - len(kind.defaults))
    given: set[str] = set()
    for item in filter(None, (part.strip() for part in text.split(";"))):
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep:
            check.add("ability_params", f"expected key=value, got {item!r}")
            continue
        if key not in kind.param_names:
            check.add("ability_params", f"unknown parameter {key!r} for ability {kind.name!r}"
                                        f"{suggest(key, list(kind.param_names))}")
            continue
        if key in given:
            check.add("ability_params", f"parameter {key!r} given twice")
            continue
        given.add(key)
        j = kind.param_names.index(key)
        values[j] = check.integer(f"ability_params.{key}", raw.strip(), kind.lows[j], kind.highs[j])
    return values
