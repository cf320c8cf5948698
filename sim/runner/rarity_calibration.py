"""The rarity study's verdicts against truths it can be checked on (issue #21, item 2).

Two questions a designer asks before acting on a flag:

- **Does the study see a card that is plainly out of its rarity?** A Bronze card is given every
  stat of a GOAT Series card (:func:`plant`: its ability, characters, speed, range, health,
  defense, attacks and dice; it keeps its name, suit and rarity), and the study is run many
  times from independent seeds; the share of runs that flag it *strong* is its power
  (target: at least 95 % of 2,000-game runs).
- **Would another run flag the same cards?** :func:`flag_agreement` plays independent runs of the
  shipped study and reports, of the cards flagged in any run, the share flagged the same way in
  every run (target: at least 90 % over three 4,000-game runs), the share flagged in some run and
  contradicted by none (no run flags it the other way or shows it inside its band; a run that
  leaves it undecided claims nothing), and the share of all cards whose flag (weak, strong,
  none) is the same in every run.

Each run ``r`` plays the study's experiment from its own root seed (``SeedSequence([seed,
STREAM, r])``), so its boards, teams and dice are independent of every other run's.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .rarity_recurrence import Recurrence

STREAM = 2121   # SeedSequence([seed, STREAM, r]): root seed of calibration run r

# the stats a planted card takes over from its model: everything that makes a card strong
PLANTED_FIELDS = ("ability", "ability_params", "effects", "characters", "speed", "range",
                  "max_health", "defense", "attacks", "tier")


def run_seed(seed: int, r: int) -> int:
    return int(np.random.SeedSequence([seed, STREAM, r]).generate_state(1)[0])


def median_card(catalogue, rarity: int) -> int:
    """The card of ``rarity`` with the median power score (the lower middle of an even count)."""
    from sim.catalogue.power import power_score

    power = np.asarray(power_score(catalogue.cards, catalogue.rules), float)
    ids = np.flatnonzero(np.asarray(catalogue.cards.rarity) == rarity)
    return int(ids[np.argsort(power[ids], kind="stable")[(ids.size - 1) // 2]])


def plant(catalogue, card: int, like: int):
    """The catalogue with ``card`` given every stat of ``like`` (``PLANTED_FIELDS``); its name,
    suit and rarity stay, so the study still judges it against its own rarity's band."""
    cards = catalogue.cards
    changed = {}
    for field in PLANTED_FIELDS:
        arr = np.array(getattr(cards, field), copy=True)
        arr[card] = arr[like]
        changed[field] = arr
    return replace(catalogue, cards=replace(cards, **changed))


def planted_detection(catalogue, exp, runs: int, games: int, seed: int, *,
                      correction: str = "holm", progress=None) -> dict:
    """``runs`` studies of ``games`` games with the median Bronze card planted with the median
    GOAT Series card's stats; how often it is flagged strong, with a 95 % Clopper-Pearson
    interval, and how often any other card is."""
    from scipy.stats import binomtest

    from .rarity import study_at_seed

    names = catalogue.rules.rarities
    low, top = 0, len(names) - 1
    card, like = median_card(catalogue, low), median_card(catalogue, top)
    planted = plant(catalogue, card, like)
    exp = replace(exp, games=games)
    hits, others = 0, []
    for r in range(runs):
        s = study_at_seed(planted, exp, run_seed(seed, r), correction=correction)
        hits += int(s.outlier[card] > 0)
        others.append(int(np.count_nonzero(np.delete(s.outlier, card))))
        if progress is not None:
            progress(r + 1, runs)
    ci = binomtest(hits, runs).proportion_ci(0.95, method="exact")
    return {"card": catalogue.cards.names[card], "rarity": names[low],
            "stats_of": catalogue.cards.names[like], "stats_rarity": names[top],
            "runs": runs, "games": games, "flagged_strong": hits, "rate": hits / runs,
            "rate_low": float(ci.low), "rate_high": float(ci.high), "target": 0.95,
            "other_flags_per_run": float(np.mean(others)) if others else 0.0}


def flag_agreement(catalogue, exp, runs: int, games: int, seed: int, *,
                   correction: str = "holm", progress=None) -> dict:
    """``runs`` independent studies of ``games`` games on the shipped cards: the agreement of
    their flags (:meth:`Recurrence.summary`), and the flagged cards by name with their runs."""
    from .rarity import study_at_seed

    exp = replace(exp, games=games)
    seeds, studies = [run_seed(seed, r) for r in range(runs)], []
    for r in range(runs):
        studies.append(study_at_seed(catalogue, exp, seeds[r], correction=correction))
        if progress is not None:
            progress(r + 1, runs)
    rec = Recurrence.of(seeds, studies)
    out = rec.summary()
    out.update({"games": games, "target": 0.90, "cards": {
        catalogue.cards.names[c]: [int(v) for v in rec.outlier[c]]
        for c in np.flatnonzero(np.any(rec.outlier != 0, axis=1))}})
    return out


__all__ = ["PLANTED_FIELDS", "flag_agreement", "median_card", "plant", "planted_detection",
           "run_seed"]
