"""Which alternatives ``bwlab rulings`` lists as gaps to close first: Holm over the alternatives.

Why: each alternative is tested at 5 % family-wise over its own effects (:mod:`.rulings_compare`:
the 4 teams' win-rate changes and the cards' rating changes, Bonferroni at 2.5 % each), but the
first line lists over all the alternatives at once, and a designer acts on it. With 13 null
alternatives at 5 % each, the list named at least one in 47 % of planted studies
(tests/test_rulings_gaps_list.py). So each alternative gets the p-value of that same test,

    p = min(1, FAMILIES * min over the two families of min(1, m_family * its smallest p)),

each effect's p the two-sided t's on its family's df (a team whose change came out alike on
every board: :func:`.rulings_compare._flat_p`), so ``p <= ALPHA`` exactly when its ``score``
is above 1; and an alternative **matters** when Holm's step-down over the alternatives rejects
it at ``ALPHA``: 5 % family-wise over the whole list, under any dependence (the alternatives
share the book default's games). Holm is Bonferroni's equal at the first step and never less
powerful; the alternative that the data favour most is tested at ALPHA / (alternatives tested).

Left out of the count: the alternatives whose engine inputs (boards, rules, cards: the digest
of everything the engine was given) equal the book default's and whose games are therefore
identical: the default itself (a check of the pairing) and a key the engine does not read.
Their replay is the default's own computation, so their statistic is exactly 0 and their p 1
on every seed: no study can list them, and counting them would only lower every other
alternative's bar. Not left out: an alternative whose inputs differ but whose games came out
identical (read, never decisive here): whether its situation arose depends on the games' luck,
and choosing the family's size from the outcomes would void Holm's guarantee.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import t as student_t

from sim.analysis.multiple import holm

ALPHA = 0.05            # family-wise over the alternatives tested (Holm)
FAMILIES = 2            # teams' win rates and cards' ratings (sim.runner.rulings_compare)


def t_p(z: float, df: int) -> float:
    """Two-sided p-value of ``|z|`` on ``df`` (0 for an infinite |z|, 1 for 0)."""
    return t_ps([z], df)[0]


def t_ps(zs, df: int) -> list[float]:
    """:func:`t_p` of each of ``zs`` in one call (scipy's per-call checks cost about 100 us)."""
    return [float(p) for p in np.minimum(1.0, 2.0 * student_t.sf(np.abs(zs), df))]


def family_p(effects: list[dict], df: int) -> float:
    """A family's Bonferroni p-value: min(1, its size * its smallest effect's p); an effect
    without its own ``p`` gets the t's of its |z|. At most ALPHA / FAMILIES exactly when the
    family's largest |z| passes its critical value (:func:`.rulings_compare._family`)."""
    if all("p" in e for e in effects):
        smallest = min(e["p"] for e in effects)
    else:       # the p of the largest |z| (the t's p falls as |z| grows)
        smallest = min([e["p"] for e in effects if "p" in e]
                       + [t_p(max(e["z"] for e in effects if "p" not in e), df)])
    return min(1.0, len(effects) * smallest)


def alternative_p(fair: dict, ratings: dict | None) -> float:
    """The alternative's own p-value: Bonferroni over its two families (a study without card
    ratings has p 1 there, as its critical |z| is infinite)."""
    team = family_p(fair["teams"], fair["df"])
    card = family_p(ratings["cards"], ratings["df"]) if ratings else 1.0
    return min(1.0, FAMILIES * min(team, card))


def tested(r: dict) -> bool:
    """Whether the alternative counts in Holm's family (the module's docstring says why not
    the ones whose engine inputs, and so games, are the default's)."""
    return not (r["engine_inputs_equal"] and r["identical_games"])


def mark_gaps(results: list[dict]) -> None:
    """Add, in place, ``p_holm`` (Holm-adjusted over the alternatives tested; 1 for the others)
    and ``matters`` (``p_holm`` at most ALPHA), and ``tested_alternatives``: how many counted."""
    counted = [r for r in results if tested(r)]
    adjusted = holm([r["p_value"] for r in counted]) if counted else []
    for r in results:
        r["p_holm"], r["matters"], r["tested_alternatives"] = 1.0, False, len(counted)
    for r, p in zip(counted, adjusted):
        r["p_holm"], r["matters"] = float(p), bool(p <= ALPHA)


def alone_sentence(ranked: list[dict]) -> str:
    """The conclusion's sentence on the alternatives beyond the noise of their own test but not
    of the whole list (``beyond_alone`` without ``matters``), or ""."""
    alone = [r["label"] for r in ranked if r.get("beyond_alone") and not r["matters"]]
    if not alone:
        return ""
    n = ranked[0]["tested_alternatives"]
    return (" Beyond the noise of one alternative's own test but not of the "
            f"{n} tested together (Holm; worth a larger study): " + ", ".join(alone) + ".")


__all__ = ["ALPHA", "FAMILIES", "alone_sentence", "alternative_p", "family_p", "mark_gaps",
           "t_p", "t_ps", "tested"]
