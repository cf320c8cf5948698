"""Planted truths for calibrating the lab's statistics: synthetic data with a known answer.

Why: an interval or a gate can only be trusted once it has been run many times on data whose
truth is known, and its coverage and false-verdict rates measured (the calibration suite,
``benchmarks/calibration.py``, and the statistical tests). These generators reproduce the
structure of the lab's games that matters to the statistics: boards shared by several duplicate
blocks (a board can favour a team from every seat), and paired replays in which only some games
change.
"""

from __future__ import annotations

import numpy as np

from .paired import OPEN, PairedDrift, paired_drift
from .ratings import ELO_PER_NAT

BLOCK = 4  # games of one duplicate block (one board, the teams through every seat)


def _expit(z):
    return 1.0 / (1.0 + np.exp(-z))


def _logit(p):
    return np.log(p / (1.0 - p))


def paired_games(rng: np.random.Generator, rate: float, shift_elo: float, *, games: int,
                 boards: int, board_sd: float = 0.6, changed: float = 1.0):
    """One team's win indicators before and after a change, and each game's board.

    Game ``i`` is on board ``(i // 4) % boards`` (as the lab's schedule assigns them); a board
    moves the team's log-odds by N(0, board_sd). The change moves every game's log-odds by
    ``shift_elo``; a share ``changed`` of the games is played anew (new dice), the rest replays
    alike wherever the shift does not flip it (one uniform drives both outcomes).
    """
    board = (np.arange(games) // BLOCK) % boards
    logit = _logit(rate) + rng.normal(0.0, board_sd, boards)[board]
    p_before, p_after = _expit(logit), _expit(logit + shift_elo / ELO_PER_NAT)
    shared = rng.random(games)
    fresh = rng.random(games) < changed
    before = shared < p_before
    after = np.where(fresh, rng.random(games) < p_after, shared < p_after)
    return before.astype(float), after.astype(float), board


def sequential_paired(before, after, board, *, delta_elo: float, alpha: float, beta: float,
                      min_games: int, round_games: int) -> PairedDrift:
    """The gate's schedule on given data: a look after each round from ``min_games`` on."""
    n = len(before)
    result = None
    for stop in range(min(min_games, n), n + 1, round_games):
        result = paired_drift(before[:stop], after[:stop], board[:stop], delta_elo=delta_elo,
                              alpha=alpha, beta=beta)
        if result.decision != OPEN:
            return result
    if result is None or result.games < n:
        result = paired_drift(before, after, board, delta_elo=delta_elo, alpha=alpha, beta=beta)
    return result


__all__ = ["BLOCK", "paired_games", "sequential_paired"]
