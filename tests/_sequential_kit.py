"""The GM's sequential fairness check on synthetic duplicate games: a planted truth for the tests
of verdicts built on it (players side by side, confirmed advice, a false "fair")."""

from __future__ import annotations

import numpy as np


def sequential_check(rng, truth, games=2048, round_games=256, boards=256, tolerance=0.05):
    """The check's verdict on games drawn from ``truth`` (each team's chance to win), looking
    every ``round_games`` games as ``sim.runner.fairness.check_fairness`` does, clustered by
    board. Returns the status (fair, unfair or open)."""
    from sim.analysis.fairness import OPEN, fairness_verdict

    n = games // 4
    y = np.eye(4)[rng.choice(4, size=(n, 4), p=truth)]
    board = np.arange(n) % boards
    looks = -(-games // round_games)
    for stop in range(round_games // 4, n + 1, round_games // 4):
        v = fairness_verdict(y[:stop], tolerance=tolerance, max_looks=looks,
                             clusters=board[:stop])
        if v.status != OPEN:
            break
    return v.status
