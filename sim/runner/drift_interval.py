"""The drift gate's Elo-change intervals where it stops (docs/drift.md, docs/intervals.md).

Why: the gate looks after every round and stops in the first round where all four teams are
decided, and users act on its call, so each metric's interval is given the gate's call on it:
for a metric called drift, over the runs calling it drift (sim/analysis/called_interval.py);
for the others, the hull of the interval given no call (the same paths, those not calling it)
and the moved one below. Neither alone: given no call, the ordering plugs the other teams'
estimates in for their truths and covered 93.5 % at 0 Elo (90 % for two teams); the moved
one is placed over all runs. The hull covers wherever either does: 97.0 % at 0 Elo, 16 of 16
at +58 (1.15x and 1.25x the moved width). History: the fixed-size 95 % interval taken
at the stop covered 93.4-93.8 % at a planted +60 Elo; moved by the bias of the stopping rule
(the median-unbiased change of :mod:`sim.analysis.stopped_interval` minus the estimate) it
covered 94.2-95.7 % over all runs, but 65 % of the calls at +35 Elo, and given no call at a
planted +58 Elo (true +52.3) the planted team's in 7 of 16 suites
(tests/test_selection_calibration.py).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sim.analysis.fairness import game_values
from sim.analysis.called_interval import called_elo_intervals
from sim.analysis.paired import DRIFT_DOWN, DRIFT_UP, PairedDrift
from sim.analysis.ratings import ELO_PER_NAT
from sim.analysis.sequential import wald_bounds
from sim.analysis.stopped_interval import GateRule, median_unbiased_elo_changes

from .schedule import schedule

__all__ = ["gate_looks", "gate_rule", "is_called", "with_stopped_intervals"]


def is_called(decision: str) -> bool:
    """Whether the gate called the metric drift (either way): its interval is then the one
    given the call, else the one given no call (what the text, the JSON and the report say
    beside it)."""
    return decision in (DRIFT_UP, DRIFT_DOWN)


def gate_looks(suite, cap: int) -> np.ndarray:
    """The games played at each of the gate's looks in a matchup capped at ``cap``: a look
    after every ``round`` games (the last round cut at the cap), from ``min_games`` on."""
    ends = np.minimum(np.arange(1, -(-cap // suite.round_games) + 1) * suite.round_games, cap)
    return ends[ends >= min(suite.min_games, cap)]


def gate_rule(suite, cap: int, alpha: float) -> GateRule:
    """The gate's stopping rule for one metric with false-alarm budget ``alpha``
    (sim.analysis.paired.paired_drift's bounds and change, at the looks of :func:`gate_looks`)."""
    return GateRule(gate_looks(suite, cap), suite.delta_elo / ELO_PER_NAT,
                    wald_bounds(alpha / 2, suite.beta))


def with_stopped_intervals(tests: list[PairedDrift], exp, suite, cap: int, alpha: float,
                           before_winners, after_winners) -> list[PairedDrift]:
    """``tests`` (one per team of ``exp``, where the gate stopped in a matchup capped at
    ``cap``) with each Elo interval given the gate's call on it: for a metric called drift, its
    interval given the call; for the others, the smallest interval holding both the one given
    no call and the fixed-size one moved by the bias of the stopping rule (its median-unbiased
    change minus the estimate). From the winners before and after from the first game on (at
    least as many as the tests read)."""
    if not tests:
        return tests
    games = tests[0].games
    before, after = (game_values(np.asarray(w)[:games]) for w in (before_winners, after_winners))
    board = schedule(exp, 0, games).board
    rule = gate_rule(suite, cap, alpha)
    unbiased = median_unbiased_elo_changes(before, after, board, rule)
    given = called_elo_intervals(before, after, board, rule,
                                 [is_called(t.decision) for t in tests])
    out = []
    for t, m, g in zip(tests, unbiased, given):
        if not is_called(t.decision):
            moved = (t.elo_interval[0] + m - t.elo_change, t.elo_interval[1] + m - t.elo_change)
            g = (min(g[0], moved[0]), max(g[1], moved[1]))
        out.append(replace(t, elo_interval=g))
    return out
