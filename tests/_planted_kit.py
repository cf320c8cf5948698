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
