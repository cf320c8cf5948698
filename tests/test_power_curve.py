"""The rarity power curve (``sim/catalogue/power.py``, ``cards/power_curve.toml``).

Book: "Schedule D lists them from left to right in order from least to most powerful: Bronze,
Silver, Gold, Diamond, Legendary, and GOAT Series." and "Rarity communicates statistical power
and nothing else." The score and the bands are a house ruling (docs/power-curve.md).
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from sim.catalogue.diagnostics import InputError, Problems
from sim.catalogue.loader import load_catalogue
from sim.catalogue.power import (POWER_CURVE_FILE, check_bands, hit_probability,
                                 load_power_curve, power_score, rarity_bands, score_weights)

SHIPPED = Path(__file__).resolve().parents[1] / "cards"


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue(SHIPPED)


def test_each_shipped_card_is_in_its_rarity_band(catalogue):
    """Book: "Schedule D lists them from left to right in order from least to most powerful" —
    every shipped card scores inside its rarity's band (no mis-rarity'd card)."""
    rules, cards = catalogue.rules, catalogue.cards
    bands = rarity_bands(rules)
    score = power_score(cards, rules)
    lo, hi = bands[cards.rarity, 0], bands[cards.rarity, 1]
    outside = [(cards.names[i], rules.rarities[cards.rarity[i]], round(float(score[i]), 1))
               for i in np.flatnonzero((score < lo) | (score > hi))]
    assert outside == []
    problems = Problems()
    curve = load_power_curve(SHIPPED / POWER_CURVE_FILE, rules, problems)
    check_bands(cards, rules, curve, problems)
    assert not problems


def test_bands_increase_strictly_with_rarity(catalogue):
    """Book: "from least to most powerful" — each band lies above the previous one: min and max
    rise strictly and consecutive bands do not overlap."""
    bands = rarity_bands(catalogue.rules)
    assert bands.shape == (len(catalogue.rules.rarities), 2)
    assert (bands[:, 0] < bands[:, 1]).all()
    assert (np.diff(bands[:, 0]) > 0).all() and (np.diff(bands[:, 1]) > 0).all()
    assert (bands[1:, 0] >= bands[:-1, 1]).all()


def test_mean_power_rises_with_rarity(catalogue):
    """Book: "from least to most powerful" — the shipped cards' median power rises with rarity."""
    cards, rules = catalogue.cards, catalogue.rules
    score = power_score(cards, rules)
    medians = [np.median(score[cards.rarity == r]) for r in range(len(rules.rarities))]
    assert (np.diff(medians) > 0).all()


def test_luffy_offense_is_the_books_26(catalogue):
    """Book: "Luffy's base attack is Dice Tier 2, meaning each hit rolls a D-12 for an average of
    6.5 damage. Mario suffers roughly 26 damage." — the score's offense unit reproduces it."""
    rules, cards = catalogue.rules, catalogue.cards
    luffy, mario = cards.find("Luffy"), cards.find("Mario")
    p = float(hit_probability(cards.defense[mario], rules))
    assert p == 0.5
    mean = (rules.faces(int(cards.tier[luffy, 0])) + 1) / 2
    assert cards.attacks[luffy, 0] * p * mean == pytest.approx(26.0)
    weights = score_weights(rules)  # power_curve.toml [score]
    assert weights.reference_defense == cards.defense[mario]
    assert weights.reference_defense == np.median(cards.defense)  # the shipped median


def test_hit_probability_matches_the_book(catalogue):
    """Book: "The maximum defense a character can achieve is 9 — at that ceiling only a rolled 12
    will land a hit." and "with a defense of 4 ... anything from 1 to 6 is a dodge"."""
    rules = catalogue.rules
    p = hit_probability(np.arange(10), rules)
    assert p[9] == pytest.approx(1 / 12) and p[4] == pytest.approx(0.5)
    assert (np.diff(p) < 0).all()


def test_multi_character_card_scores_n_times(catalogue):
    """Book: "Every one of them has their own action, their own health pool" — a card with n
    characters scores n times the same card with one."""
    rules, cards = catalogue.rules, catalogue.cards
    one = power_score(dataclasses.replace(cards, characters=np.ones_like(cards.characters)), rules)
    three = power_score(dataclasses.replace(cards, characters=np.full_like(cards.characters, 3)),
                        rules)
    np.testing.assert_allclose(three, 3 * one)


def _bumped(cards, field, rules, rng):
    """A copy of ``cards`` with a random non-negative increase of one stat (within its bounds)."""
    value = getattr(cards, field)
    if field in ("attacks", "tier"):
        col = rng.integers(0, 4, size=len(cards))
        step = np.zeros_like(value)
        step[np.arange(len(cards)), col] = rng.integers(0, 4, size=len(cards))
        new = value + step
        if field == "tier":
            new = np.minimum(new, rules.n_tiers)
    else:
        new = value + rng.integers(0, 40 if field == "max_health" else 3, size=value.shape)
        if field == "defense":
            new = np.minimum(new, rules.max_defense)
    return dataclasses.replace(cards, **{field: new.astype(value.dtype)})


@pytest.mark.parametrize("field", ["attacks", "tier", "defense", "max_health", "speed", "range",
                                   "characters"])
def test_power_score_is_monotone(catalogue, field):
    """Book: "Rarity communicates statistical power and nothing else." — improving any stat
    (more attacks, a higher tier, more defense, health, speed, range or characters) never
    lowers the score; random increases over the shipped cards, 200 rounds."""
    rules = catalogue.rules
    rng = np.random.default_rng(20240611)
    cards = catalogue.cards
    for _ in range(200):
        better = _bumped(cards, field, rules, rng)
        assert (power_score(better, rules) >= power_score(cards, rules) - 1e-9).all()
        cards = better if rng.random() < 0.3 else cards


@pytest.mark.parametrize("field,colour", [("attacks", 0), ("attacks", 1), ("attacks", 2),
                                          ("attacks", 3), ("defense", None),
                                          ("max_health", None)])
def test_power_score_strictly_rewards_core_stats(catalogue, field, colour):
    """Book: "No colour is inherently stronger or weaker than another." — one more attack on any
    colour, one more defense (below 9), or more health strictly raises the score: no stat is
    free power."""
    rules, cards = catalogue.rules, catalogue.cards
    value = getattr(cards, field).copy()
    if colour is None:
        value += 1
    else:
        value[:, colour] += 1
    mask = cards.defense < rules.max_defense if field == "defense" else slice(None)
    better = dataclasses.replace(cards, **{field: value})
    assert (power_score(better, rules)[mask] > power_score(cards, rules)[mask]).all()


# ------------------------------------------------------------ power_curve.toml validation

@pytest.fixture
def folder(tmp_path):
    return Path(shutil.copytree(SHIPPED, tmp_path / "cards"))


def _load(folder, rules):
    problems = Problems()
    curve = load_power_curve(folder / POWER_CURVE_FILE, rules, problems)
    return curve, [str(p) for p in problems.items], problems.items


def _edit(folder, old, new) -> int:
    path = folder / POWER_CURVE_FILE
    text = path.read_text(encoding="utf-8")
    assert old in text
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return line


@pytest.mark.parametrize("old,new,field,text", [
    ('"Silver"      = [47, 64]', '"Silvr"      = [47, 64]', "bands.Silvr", "did you mean Silver"),
    ('"Gold"        = [64, 86]', '"Gold"        = [64]', "bands.Gold", "expected [min, max]"),
    ('"Gold"        = [64, 86]', '"Gold"        = [90, 86]', "bands.Gold", "0 <= min < max"),
    ('"Gold"        = [64, 86]', '"Gold"        = "64-86"', "bands.Gold", "expected a list"),
    ('"Diamond"     = [86, 115]', '"Diamond"     = [80, 115]', "bands.Diamond", "must lie above"),
    ('"Diamond"     = [86, 115]', '"Diamond"     = = [86, 115]', "syntax", "invalid value"),
    ("[bands]", "[band]", "band", "did you mean bands"),
])
def test_power_curve_problems_name_file_line_field(catalogue, folder, old, new, field, text):
    """Book: "Schedule D lists them from left to right in order from least to most powerful" —
    a bad power_curve.toml is one problem naming file, line and field (no traceback)."""
    line = _edit(folder, old, new)
    curve, lines, items = _load(folder, catalogue.rules)
    assert curve is None
    assert len(items) == 1, lines
    (p,) = items
    assert Path(p.file).name == POWER_CURVE_FILE
    assert (p.line, p.field) == (line, field), lines
    assert text.lower() in p.message.lower(), lines


def test_power_curve_missing_rarity(catalogue, folder):
    """Book: "There are 6 Card Rarities in Board Wars." — every rarity needs a band."""
    _edit(folder, '"GOAT Series" = [155, 210]\n', "")
    curve, lines, items = _load(folder, catalogue.rules)
    assert curve is None and len(items) == 1, lines
    assert items[0].field == "bands.GOAT Series" and "missing" in items[0].message


def test_rarity_bands_raises_input_error(catalogue, folder):
    """rarity_bands() turns a bad file into InputError (the CLI's exit 2), not a traceback."""
    _edit(folder, '"Gold"        = [64, 86]', '"Gold"        = [64, -1]')
    with pytest.raises(InputError) as info:
        rarity_bands(catalogue.rules, folder / POWER_CURVE_FILE)
    assert len(info.value.problems) == 1


def test_check_bands_reports_the_card_line(catalogue):
    """A card outside its band is reported at its CSV line, field ``rarity`` (Luffy promoted to
    GOAT Series scores below that band)."""
    rules, cards = catalogue.rules, catalogue.cards
    luffy = cards.find("Luffy")
    rarity = cards.rarity.copy()
    rarity[luffy] = rules.rarities.index("GOAT Series")
    problems = Problems()
    curve = load_power_curve(SHIPPED / POWER_CURVE_FILE, rules, problems)
    check_bands(dataclasses.replace(cards, rarity=rarity), rules, curve, problems)
    assert len(problems) == 1
    (p,) = problems.items
    assert (p.line, p.field) == (cards.lines[luffy], "rarity") and "Luffy" in p.message
