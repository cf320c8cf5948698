"""A copy of the shipped cards with one card made plainly too strong: the planted truth of the
report's and the remedy search's tests."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAT_SIZED = (("max_health", "400"), ("base", "12"), ("red", "12"))


def planted_cards(tmp: Path, card: str = "Mario", changes=GOAT_SIZED) -> Path:
    """``tmp/cards``: cards/ with ``card``'s columns set to ``changes`` (default: Mario, a Gold
    card, given GOAT-sized health and attacks)."""
    cards = Path(shutil.copytree(ROOT / "cards", tmp / "cards"))
    path = cards / "characters.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    i = next(k for k, r in enumerate(rows) if r.startswith(f"{card},"))
    fields = rows[i].split(",")
    for column, value in changes:
        fields[header.index(column)] = value
    rows[i] = ",".join(fields)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return cards


def planted_band_study(rng, lift: float, spread: float, se: float = 0.056):
    """A rarity study without games: 6 rarities of 12 cards 0.3 apart (the shipped shape),
    spread uniformly ``spread`` either side of their rarity's centre; the strongest Silver is
    moved to ``lift`` above its true band's top edge (moving it up keeps it above its rarity's
    median, so the true edges stay where they were); the study sees every rating with error
    N(0, se). Returns (rarity, truth, the Silver's index, the seen ratings, the true edges
    (low, high), the edges of the seen medians (low, high)), edges per rarity."""
    import numpy as np

    from sim.analysis.rarity_bands import band_edges

    rarity = np.repeat(np.arange(6), 12)

    def medians(r):
        return np.array([np.median(r[rarity == k]) for k in range(6)])

    truth = 0.3 * rarity + rng.uniform(-spread, spread, rarity.size)
    silver = np.flatnonzero(rarity == 2)
    c = silver[np.argmax(truth[silver])]
    true_edges = band_edges(medians(truth))
    truth[c] = true_edges[1][2] + lift
    rating = truth + rng.normal(0.0, se, rarity.size)
    return rarity, truth, c, rating, true_edges, band_edges(medians(rating))
