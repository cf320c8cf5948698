"""Streaming summaries of a stored run: read one batch at a time, keep only running totals.

Why streaming: a million-game run must not need a million rows in memory to be summarised.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .store import RunStore


def summarise(store: RunStore) -> dict:
    """Games, each experiment team's win rate, outcome counts, mean rotations — in one pass."""
    games = 0
    wins = np.zeros(4, np.int64)
    outcomes: Counter = Counter()
    rotations = 0
    for _, table in store.batches():
        winner = table.column("winner_team").to_numpy()
        games += len(winner)
        wins += np.bincount(winner[winner >= 0], minlength=4)
        outcomes.update(table.column("outcome").to_pylist())
        rotations += int(table.column("rotations").to_numpy().sum())
    return {"games": games,
            "team_win_rate": [float(w) / games if games else 0.0 for w in wins],
            "outcomes": dict(sorted(outcomes.items())),
            "mean_rotations": rotations / games if games else 0.0}
