"""The simulation is the judge of every piece of advice: surrogate proposals, confirmed by play.

Why: the cheap surrogates (card ratings summed into team strengths for ``fairness --suggest``,
power scores for ``draft``) rank proposals well enough to search, but not well enough to promise
anything: ``fairness --suggest 3`` once predicted a largest gap from 25 % of 0.7 points that replayed at
10.7 (issue #21). So a proposal is advice only once duplicate play (:func:`.fairness.
check_fairness`, the GM's own check, with its sequential stop and board-clustered intervals) has
called it *fair*. Proposals are judged in the surrogate's order until one is confirmed or the
game budget is spent; otherwise the answer is "no fair set found within N games" with the best
one measured, never a prediction.

Every judgement replays the same seed (same boards, same dice families), so proposals are
compared on common random numbers and the outcome is a pure function of the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np

from sim.analysis.fairness import FAIR


@dataclass(frozen=True)
class Trial:
    """One proposal played: what it is (``label``), its teams, and the fairness check."""

    label: object
    teams: np.ndarray
    report: object           # FairnessReport

    @property
    def gap(self) -> float:
        """The measured largest distance of a team's chance to win from a fair share."""
        return self.report.verdict.largest_gap

    @property
    def fair(self) -> bool:
        return self.report.verdict.status == FAIR


@dataclass(frozen=True)
class Confirmation:
    confirmed: Trial | None      # the first proposal the simulation called fair
    best: Trial | None           # the proposal measured closest to fair (smallest gap)
    trials: tuple                # every proposal played, in order
    games: int                   # games played on proposals
    budget: int                  # the most games these proposals could take (see confirm)

    def as_dict(self, describe: Callable[[Trial], dict]) -> dict:
        return {"confirmed": None if self.confirmed is None else describe(self.confirmed),
                "best": None if self.best is None else describe(self.best),
                "proposals_played": len(self.trials), "games": self.games,
                "game_budget": self.budget,
                "tried": [describe(t) for t in self.trials]}


def confirm(proposals: Iterable[tuple[object, np.ndarray]], judge: Callable, *,
            budget: int, per_check: int,
            stage: str = "confirming proposals by play") -> Confirmation:
    """Play ``proposals`` (``(label, teams)``, best first by the surrogate) with ``judge(teams,
    games)`` until one is fair or ``budget`` games are spent; each check plays at most
    ``per_check`` games (fewer when it settles early, and never more than the budget left).
    ``stage`` names this search on the progress line (:mod:`.progress`), each check a step.

    The budget is the real maximum: at most ``per_check`` times the number of proposals there
    are, since the caller's ``--proposals`` x ``--games`` promised "of at most 4,096 games" when
    the surrogate had only 6 proposals of 512."""
    from . import progress as line

    proposals = list(proposals)
    budget = min(budget, per_check * len(proposals))
    trials: list[Trial] = []
    games = 0
    with line.stage(stage, budget, at_most=True):
        for label, teams in proposals:
            left = budget - games
            if left < min(per_check, 8):
                break
            games_now = min(per_check, left - left % 4)
            with line.stage(f"proposal {len(trials) + 1}"):
                report = judge(teams, games_now)
            games += report.games
            trials.append(Trial(label, np.asarray(teams), report))
            if trials[-1].fair:
                break
    confirmed = trials[-1] if trials and trials[-1].fair else None
    best = min(trials, key=lambda t: (not t.fair, t.gap)) if trials else None
    return Confirmation(confirmed, best, tuple(trials), games, budget)


__all__ = ["Confirmation", "Trial", "confirm"]
