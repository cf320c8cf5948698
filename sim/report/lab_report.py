"""The lab's HTML report: what the shipped cards and rules imply, section by section.

Sections now: the combat report of every card (per star colour, against a typical defender),
the book's worked example drawn exact against Monte Carlo, and the rarity power curve with the
cards that stray from their band. Each section also lands as a CSV beside the page.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.catalogue.power import POWER_CURVE_FILE, load_power_curve, power_score
from sim.catalogue.diagnostics import Problems
from sim.combat.matchup import card_matchup
from sim.combat.sampler import sample_damage

from .atomic import atomic_path
from .combat_report import combat_report
from .html import Page
from .plots import damage_overlay, png_bytes, rarity_power_curve

EXAMPLE = ("Luffy", "Mario")  # the book's worked example: "If Luffy (Schedule J) were to attack Mario"


def power_table(catalogue, curve) -> pd.DataFrame:
    cards, rules = catalogue.cards, catalogue.rules
    score = power_score(cards, rules)
    lo, hi = curve.bands[cards.rarity, 0], curve.bands[cards.rarity, 1]
    return pd.DataFrame({
        "card": cards.names, "rarity": [rules.rarities[r] for r in cards.rarity],
        "power": np.round(score, 1), "band_low": lo, "band_high": hi,
        "in_band": (score >= lo) & (score <= hi)})


def rarity_summary(power: pd.DataFrame, rarities) -> tuple[pd.DataFrame, bool]:
    """Spread of power per rarity and whether the medians rise Bronze < ... < GOAT Series."""
    g = power.groupby("rarity", sort=False)["power"]
    table = pd.DataFrame({"cards": g.size(), "min": g.min(), "median": g.median(),
                          "max": g.max()}).reindex(list(rarities)).reset_index()
    medians = table["median"].to_numpy()
    return table, bool(np.all(np.diff(medians) > 0))


def write_report(catalogue, out: Path, *, seed: int = 0, samples: int = 200_000) -> Path:
    out = Path(out)
    problems = Problems()
    curve = load_power_curve(catalogue.root / POWER_CURVE_FILE, catalogue.rules, problems)
    problems.raise_if_any()
    page = Page("Board Wars Lab report")
    page.text(f"Cards and rules from {catalogue.root}. Every number here is reproducible: exact "
              f"tables, and Monte Carlo from seed {seed}.")

    frame, typical = combat_report(catalogue)
    page.heading("Combat: every card's attack star")
    page.text(f"Mean damage of one attack action per star colour against a typical defender "
              f"(defense {typical['defense']}, {typical['health']} health: medians of the cards); "
              f"actions_to_kill = attack actions needed to kill it with at least even odds.")
    page.table(frame[["card", "rarity", "suit", "base_star", "base_mean", "base_actions_to_kill",
                      "red_star", "red_mean", "blue_star", "blue_mean", "green_star",
                      "green_mean"]])

    a, d = (catalogue.cards.find(n) for n in EXAMPLE)
    m = card_matchup(catalogue, a, d)
    drawn = sample_damage(m.attacks, m.defense, m.tier, catalogue.rules, seed=seed, n=samples)
    page.heading("The book's worked example, exact against Monte Carlo")
    page.text(f"{m.attacker} ({m.attacks} attacks, dice tier {m.tier}) on {m.defender} "
              f"(defense {m.defense}): hit chance {m.distribution.p_hit:.3f}, mean "
              f"{m.distribution.mean:.2f} exact, {drawn.damage.mean():.2f} sampled "
              f"(the book: \"Mario suffers roughly 26 damage\").")
    page.image(png_bytes(damage_overlay(m.distribution.pmf, drawn.damage,
                                        f"{m.attacker} attacks {m.defender}")),
               "damage distribution, exact and Monte Carlo")

    power = power_table(catalogue, curve)
    summary, ordered = rarity_summary(power, catalogue.rules.rarities)
    page.heading("Rarity power curve")
    page.text("Bronze < Silver < Gold < Diamond < Legendary < GOAT Series by median power: "
              + ("holds." if ordered else "DOES NOT HOLD.")
              + f" {int((~power['in_band']).sum())} card(s) outside their rarity's band "
              f"(cards/{POWER_CURVE_FILE}). Power from card stats alone; win-rate ratings come "
              f"from experiments.")
    rarity = np.asarray(catalogue.cards.rarity, dtype=np.int64)
    page.image(png_bytes(rarity_power_curve(power["power"].to_numpy(), rarity,
                                            catalogue.rules.rarities, curve.bands,
                                            names=catalogue.cards.names)), "rarity power curve")
    page.table(summary)
    strays = power[~power["in_band"]]
    if len(strays):
        page.table(strays)

    out.mkdir(parents=True, exist_ok=True)
    for name, table in (("combat_report.csv", frame), ("power_curve.csv", power),
                        ("rarity_summary.csv", summary)):
        with atomic_path(out / name) as tmp:
            table.to_csv(tmp, index=False)
    path = out / "report.html"
    page.write(path)
    return path
