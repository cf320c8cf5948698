"""The GM's fairness verdict from duplicate play, settled sequentially.

A game is fair when every team's chance to win is within ``tolerance`` of 1/4 ("teams are
balanced using the GMs discernment"). The verdict is decided with confidence: each team's
win-rate interval (block design of duplicate play, :func:`variance.duplicate_win_rates`) is
either wholly inside the fair band (fair), or one lies wholly outside it (unfair), else the
question is still open. Because the check is repeated after every round of games, each look
spends ``alpha / max_looks`` (Bonferroni over looks and over the four teams), so stopping early
does not inflate the error rate beyond ``alpha``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .variance import duplicate_win_rates

FAIR, UNFAIR, OPEN = "fair", "unfair", "open"


@dataclass(frozen=True)
class FairnessVerdict:
    status: str                 # fair | unfair | open
    rate: np.ndarray            # win probability per team
    lower: np.ndarray           # simultaneous interval (all teams, all looks)
    upper: np.ndarray
    variance_ratio: np.ndarray  # duplicate vs unpaired play: < 1 = duplicate play saved games
    games: int
    level: float                # confidence of each interval after the corrections
    text: str


def game_values(winner: np.ndarray, n_teams: int = 4) -> np.ndarray:
    """Per game and team: 1 for the winner, 0 otherwise; a game with no winner (-1) is shared
    equally, so the values of a game always sum to 1 and a fair game is 1/4 each."""
    winner = np.asarray(winner)
    values = np.zeros((winner.size, n_teams))
    won = winner >= 0
    values[np.flatnonzero(won), winner[won]] = 1.0
    values[~won] = 1.0 / n_teams
    return values


def fairness_verdict(outcomes, *, tolerance: float = 0.05, alpha: float = 0.05,
                     max_looks: int = 1, names=None) -> FairnessVerdict:
    """Verdict from ``outcomes[block, rotation, team]`` (game values of duplicate blocks)."""
    y = np.asarray(outcomes, dtype=float)
    n_teams = y.shape[2]
    level = 1.0 - alpha / (n_teams * max(1, max_looks))
    est = duplicate_win_rates(y, confidence=level)
    target = 1.0 / n_teams
    lo, hi = np.clip(est.lower, 0, 1), np.clip(est.upper, 0, 1)
    inside = (lo >= target - tolerance) & (hi <= target + tolerance)
    above, below = lo > target + tolerance, hi < target - tolerance
    names = list(names) if names is not None else [f"Team {k + 1}" for k in range(n_teams)]
    band = f"{100 * target:.0f} % ± {100 * tolerance:.0f} points"
    if inside.all():
        status = FAIR
        text = (f"Fair: every team's chance to win is within {band} "
                f"(confidence {100 * (1 - alpha):.0f} %, {est.n_games} games).")
    elif above.any() or below.any():
        status = UNFAIR
        parts = []
        for k in np.flatnonzero(above | below):
            word = "favoured" if above[k] else "disadvantaged"
            parts.append(f"{names[k]} is {word}: {100 * est.rate[k]:.1f} % "
                         f"({100 * lo[k]:.1f}–{100 * hi[k]:.1f} %), "
                         f"{100 * (est.rate[k] - target):+.1f} points from a fair {100 * target:.0f} %")
        text = "Unfair: " + "; ".join(parts) + f" ({est.n_games} games)."
    else:
        status = OPEN
        worst = int(np.argmax(np.abs(est.rate - target)))
        text = (f"Not settled after {est.n_games} games: no team is surely outside {band}, "
                f"but not all are surely inside (widest gap: {names[worst]} at "
                f"{100 * est.rate[worst]:.1f} %). Play more games or widen the tolerance.")
    return FairnessVerdict(status, est.rate, lo, hi, est.variance_ratio, est.n_games, level, text)
