"""The demo's combat report: every card's expected damage per star colour against a typical defender.

Why per colour: "No colour is inherently stronger or weaker than another ... whether that number
is higher or lower than your base is decided by the card." A designer sees at a glance which
cards hit harder wounded (red), de-buffed (blue) or boosted (green).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.catalogue.rules import STAR_COLOURS
from sim.combat.exact import damage_distribution


def typical_defender(catalogue) -> tuple[int, int]:
    """(defense, health) of the typical defender: the medians of the cards, or the rules' number."""
    cards, rules = catalogue.cards, catalogue.rules
    if rules.typical_defender == "median":
        return int(np.median(cards.defense)), int(np.median(cards.max_health))
    return int(rules.typical_defender), int(np.median(cards.max_health))


def actions_to_kill(pmf: np.ndarray, health: int, chance: float = 0.5, cap: int = 200) -> int:
    """Fewest attack actions whose summed damage reaches ``health`` with at least ``chance``.

    A designer reads "Luffy needs 7 base attacks to kill a typical card" faster than a kill
    probability. Damage at or above ``health`` is pooled into one absorbing bin, so the arrays
    stay ``health + 1`` long however many actions are summed. ``cap + 1`` means never (no damage).
    """
    if pmf.size <= 1 or pmf[1:].sum() == 0:
        return cap + 1
    state = np.zeros(health + 1)
    state[0] = 1.0
    for k in range(1, cap + 1):
        nxt = np.convolve(state[:health], pmf)
        dead = state[health] + nxt[health:].sum()
        state = np.concatenate([nxt[:health], [dead]])
        if dead >= chance:
            return k
    return cap + 1


def combat_report(catalogue) -> tuple[pd.DataFrame, dict]:
    """One row per card: for each colour its attacks, tier, expected damage and kill chance."""
    cards, rules = catalogue.cards, catalogue.rules
    defense, health = typical_defender(catalogue)
    rows = []
    for i, name in enumerate(cards.names):
        row = {"card": name, "rarity": rules.rarities[cards.rarity[i]],
               "suit": rules.suits[cards.suit[i]], "max_health": int(cards.max_health[i]),
               "defense": int(cards.defense[i])}
        for c, colour in enumerate(STAR_COLOURS):
            attacks, tier = int(cards.attacks[i, c]), int(cards.tier[i, c])
            dist = damage_distribution(attacks, defense, tier, rules)
            row[f"{colour}_star"] = f"{attacks}^{tier}"
            row[f"{colour}_mean"] = round(dist.mean, 2)
            row[f"{colour}_sd"] = round(dist.variance ** 0.5, 2)
            row[f"{colour}_p_kill"] = round(dist.p_at_least(health), 4)
            row[f"{colour}_actions_to_kill"] = actions_to_kill(dist.pmf, health)
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["rarity"] = pd.Categorical(frame["rarity"], categories=list(rules.rarities), ordered=True)
    frame = frame.sort_values(["rarity", "base_mean", "card"], ascending=[True, False, True])
    return frame.reset_index(drop=True), {"defense": defense, "health": health}
