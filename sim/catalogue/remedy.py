"""The remedy search's steps, as data: the ``[remedy]`` table of ``cards/power_curve.toml``.

A rarity outlier (``bwlab rarity``) is a card that plays outside its rarity's band. The remedy
search proposes the smallest *single-stat* change that brings it back. Which stats a designer is
willing to touch, and in what steps, is a design decision, not code: a designer who never wants
dice tiers changed leaves them out; health moves in steps of 5 because the starter cards' health
was rounded to 5 (``docs/power-curve.md``). Keys are the ``characters.csv`` column names, so a
proposed change ("max_health 200 -> 180") names the cell to edit::

    [remedy]
    max_health = { step = 5, steps = 16 }   # candidates: +-5, +-10, ..., +-80
    defense    = { step = 1, steps = 3 }

Problems are reported like every designer file: ``file:line: remedy.<stat>[.key]: message``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from .cards import LIMITS, CardCatalogue
from .rules import STAR_COLOURS, Rules
from .tomldoc import MISSING, TomlDoc

SCALARS = ("max_health", "defense", "speed", "range")
REMEDY_STATS = SCALARS + STAR_COLOURS + tuple(f"{c}_tier" for c in STAR_COLOURS)
MAX_STEPS = 100  # a guard: more candidates than this per stat is a typo, not a design


@dataclass(frozen=True)
class StatStep:
    """Candidates for one stat: ``+-step``, ``+-2 step`` ... ``+-steps * step``."""

    stat: str
    step: int
    steps: int
    line: int | None


@dataclass(frozen=True)
class RemedySteps:
    # in REMEDY_STATS order (characters.csv's columns), whatever the table's key order: the
    # tie-break between equal power deltas, so reordering the file's keys changes no advice
    stats: tuple[StatStep, ...]
    path: str = ""


def load_remedy(doc: TomlDoc) -> RemedySteps | None:
    """The ``[remedy]`` table of ``doc`` (None when absent or bad; problems go to ``doc``)."""
    table = doc.lookup(("remedy",))
    if table is MISSING:
        return None
    if not isinstance(table, dict):
        doc.add(("remedy",), "expected a table of stats, e.g. "
                             "max_health = { step = 5, steps = 16 }")
        return None
    before = len(doc.problems)
    doc.unknown_keys(("remedy",), set(REMEDY_STATS))
    stats = []
    for stat, value in table.items():
        if stat not in REMEDY_STATS:
            continue
        path = ("remedy", stat)
        if not isinstance(value, dict):
            doc.add(path, f"expected {{ step = N, steps = K }}, got {value!r}")
            continue
        doc.unknown_keys(path, {"step", "steps"})
        step = doc.get(path + ("step",), int, lo=1, hi=LIMITS["max_health"][1], fallback=None)
        steps = doc.get(path + ("steps",), int, lo=1, hi=MAX_STEPS, fallback=None)
        if step is not None and steps is not None:
            stats.append(StatStep(stat, step, steps, doc.line(path)))
    if not stats and len(doc.problems) == before:
        doc.add(("remedy",), f"lists no stats; choose from {', '.join(REMEDY_STATS)}")
    if len(doc.problems) > before:
        return None
    return RemedySteps(tuple(sorted(stats, key=lambda s: REMEDY_STATS.index(s.stat))),
                       str(doc.path))


def stat_bounds(stat: str, rules: Rules) -> tuple[int, int]:
    """The values a card may hold in ``stat``: the loader's own limits (``cards.LIMITS`` and the
    book's ``max_defense`` and tier count from ``rules.toml``), so no candidate is an illegal
    card."""
    if stat == "defense":
        return 0, rules.max_defense
    if stat.endswith("_tier"):
        return 1, rules.n_tiers
    if stat in STAR_COLOURS:
        return LIMITS["attacks"]
    return LIMITS[stat]


def _column(stat: str) -> tuple[str, int | None]:
    """The catalogue array holding ``stat`` and its star column (None for a scalar stat)."""
    if stat in SCALARS:
        return stat, None
    if stat.endswith("_tier"):
        return "tier", STAR_COLOURS.index(stat[: -len("_tier")])
    return "attacks", STAR_COLOURS.index(stat)


def stat_value(cards: CardCatalogue, card: int, stat: str) -> int:
    name, col = _column(stat)
    array = getattr(cards, name)
    return int(array[card] if col is None else array[card, col])


def with_stat(cards: CardCatalogue, card: int, stat: str, value: int) -> CardCatalogue:
    """A copy of ``cards`` with one card's stat changed (the other cards share nothing mutable)."""
    name, col = _column(stat)
    array = np.array(getattr(cards, name), copy=True)
    if col is None:
        array[card] = value
    else:
        array[card, col] = value
    return dataclasses.replace(cards, **{name: array})


__all__ = ["REMEDY_STATS", "StatStep", "RemedySteps", "load_remedy", "stat_bounds", "stat_value",
           "with_stat"]
