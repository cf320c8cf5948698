"""Streaming summaries of a stored run: read one batch at a time, keep only running totals.

Why streaming: a million-game run must not need a million rows in memory to be summarised.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .store import RunStore


CARD_STATS = ("games", "wins", "dealt", "taken", "kills", "alive")


def _add(total: np.ndarray, part: np.ndarray) -> np.ndarray:
    if part.shape[0] > total.shape[0]:
        total = np.pad(total, ((0, part.shape[0] - total.shape[0]), (0, 0)))
    total[: part.shape[0]] += part
    return total


def card_totals(table) -> np.ndarray:
    """Per card id: games held, games won, health dealt, taken, kills, games survived."""
    winner = table.column("winner_seat").to_numpy()
    cols = []
    for s in range(4):
        for k in range(5):
            card = table.column(f"seat{s + 1}_card{k + 1}").to_numpy()
            pre = f"seat{s + 1}_card{k + 1}_"
            values = [np.ones_like(card), (winner == s).astype(np.int64)] + \
                [table.column(pre + c).to_numpy() for c in ("dealt", "taken", "kills")] + \
                [(table.column(pre + "alive").to_numpy() > 0).astype(np.int64)]
            cols.append((card, np.stack(values, 1)))
    n = max(int(c.max(initial=-1)) for c, _ in cols) + 1
    out = np.zeros((n, len(CARD_STATS)), np.int64)
    for card, values in cols:
        for j in range(values.shape[1]):
            out[:, j] += np.bincount(card, weights=values[:, j], minlength=n).astype(np.int64)
    return out


def summarise(store: RunStore, card_names=None) -> dict:
    """Games, each experiment team's win rate, outcome counts, mean rotations, and per-card totals
    — in one pass over the stored batches, keeping only running totals."""
    games = 0
    wins = np.zeros(4, np.int64)
    outcomes: Counter = Counter()
    rotations = 0
    cards = np.zeros((0, len(CARD_STATS)), np.int64)
    apocalypses: dict[int, dict] = {}
    for _, table in store.batches():
        _count_apocalypses(apocalypses, table)
        cards = _add(cards, card_totals(table))
        winner = table.column("winner_team").to_numpy()
        games += len(winner)
        wins += np.bincount(winner[winner >= 0], minlength=4)
        outcomes.update(table.column("outcome").to_pylist())
        rotations += int(table.column("rotations").to_numpy().sum())
    store.write_cards(cards, CARD_STATS, card_names)
    return {"games": games,
            "team_win_rate": [float(w) / games if games else 0.0 for w in wins],
            "outcomes": dict(sorted(outcomes.items())),
            "mean_rotations": rotations / games if games else 0.0,
            "apocalypses": {str(a): apocalypses[a] for a in sorted(apocalypses)}}


def _count_apocalypses(into: dict, table) -> None:
    """Per Apocalypse (index in the Index): games, games in which it was resolved, and how the
    games ended ("Reported per Apocalypse: how often it is resolved, and how games end")."""
    names = table.column_names
    apoc = table.column("apocalypse").to_numpy()
    resolved = (table.column("apocalypse_resolved").to_numpy() if "apocalypse_resolved" in names
                else np.zeros(len(apoc), bool))
    outcome = table.column("outcome").to_pylist()
    for a in np.unique(apoc):
        entry = into.setdefault(int(a), {"games": 0, "resolved": 0, "outcomes": {}})
        rows = np.flatnonzero(apoc == a)
        entry["games"] += int(rows.size)
        entry["resolved"] += int(resolved[rows].sum())
        for r in rows:
            entry["outcomes"][outcome[r]] = entry["outcomes"].get(outcome[r], 0) + 1
