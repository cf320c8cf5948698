"""The drift gate's Elo-change intervals where it stops (docs/drift.md, docs/intervals.md).

Why: the gate looks after every round and stops in the first round where all four teams are
decided, so the 95 % interval taken there as if the games had been fixed in advance is
misplaced: at a planted +60 Elo it covers in 93.4-93.8 % of runs, where nothing changed in
96.7-97.0 %. Its width is right, its place is not: the gate moves it by the bias its own
stopping rule puts into the estimate, the median-unbiased change
(:mod:`sim.analysis.stopped_interval`) minus the estimate. Measured on planted changes of -60
to +150 Elo: 94.2-95.7 % cover, at the same width. Not used: the interval that orders the
rule's outcomes outright, over on a large change (95.4-98.2 %, up to 1.13x as wide) and short
on a small one or none (91.8-93.8 % at 0 and +30 Elo: it plugs the other teams' estimates in
for their truths), and the smallest interval holding both (95.3-98.6 %, up to 1.15x as wide).

Given the call (2026-12-07): users act on the call, so each metric's interval is given the
gate's call on it. A metric called drift gets its interval over the runs calling it drift
(:mod:`sim.analysis.called_interval`; the moved one held 65 % of the calls at +35 Elo); one not
called, its interval over the runs not calling it (:mod:`sim.analysis.quiet_interval`; the
moved one held a missed +52 Elo in 7 of 16 suites), which needs no median over all runs.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sim.analysis.fairness import game_values
from sim.analysis.called_interval import called_elo_intervals
from sim.analysis.paired import (DRIFT_DOWN, DRIFT_UP, NO_DRIFT, OPEN, PairedDrift,
                                 unmoved_elo_interval)
from sim.analysis.ratings import ELO_PER_NAT
from sim.analysis.sequential import wald_bounds
from sim.analysis.quiet_interval import quiet_elo_interval, quiet_tails
from sim.analysis.stopped_interval import GateRule

from .schedule import schedule

__all__ = ["gate_looks", "gate_rule", "is_called", "unmoved_decision", "with_stopped_intervals"]


def is_called(decision: str) -> bool:
    """Whether the gate called the metric drift (either way): its interval is then the one
    given the call (what the text, the JSON and the report say beside it)."""
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
                           before_winners, after_winners, exact: bool = False
                           ) -> list[PairedDrift]:
    """``tests`` (one per team of ``exp``, where the gate stopped in a matchup capped at
    ``cap``) with each Elo interval given the gate's call on it: for a metric called drift, its
    interval given the call; for the others, its interval given no call (the hull of the
    ordering interval and the fixed-size one moved to the median-unbiased change, both among
    the runs not calling it: :mod:`sim.analysis.quiet_interval`). From the winners before and
    after from the first game on (at least as many as the tests read).

    A metric none of whose games moved gets :func:`sim.analysis.paired.unmoved_elo_interval`
    unless the replay is ``exact`` (the same engine and the same numbers from the cards: every
    game is the same game, so its change is 0 by construction, not by sample)."""
    if not tests:
        return tests
    games = tests[0].games
    before, after = (game_values(np.asarray(w)[:games]) for w in (before_winners, after_winners))
    board = schedule(exp, 0, games).board
    rule = gate_rule(suite, cap, alpha)
    called = [is_called(t.decision) for t in tests]
    given = called_elo_intervals(before, after, board, rule, called, quiet_tails=quiet_tails())
    out = [replace(t, elo_interval=g if c else quiet_elo_interval(t.elo_interval,
                                                                   t.elo_change, g))
           for t, c, g in zip(tests, called, given)]
    if exact:
        return out
    return [replace(t, elo_interval=unmoved_elo_interval(t.before, games, board,
                                                              rate_interval=t.before_interval))
            if np.array_equal(before[:, k], after[:, k]) else t for k, t in enumerate(out)]


def unmoved_decision(test: PairedDrift, board, suite) -> PairedDrift:
    """``test`` of a metric none of whose paired games moved, in a replay that was not exact (a
    changed engine or cards): "no drift" only once the change the games allow lies within the
    suite's delta at the test's beta each side (:func:`sim.analysis.paired.unmoved_elo_interval`
    at 1 − 2β), else still open. Why: every pair alike gives a spread of 0, an LLR of −∞ and "no
    drift" at any size; at ``--games 8`` a team of a doubled-health card folder passed with an
    interval of ±1,490 Elo (the drift audit of stop 82). At the suite's floor the bound is about
    ±27 Elo, inside its 70, so the default gate decides as before."""
    if test.decision != NO_DRIFT:
        return test
    lo, hi = unmoved_elo_interval(test.before, test.games, board, 1 - 2 * suite.beta,
                                  rate_interval=test.before_interval)
    return test if -suite.delta_elo < lo and hi < suite.delta_elo else replace(test, decision=OPEN)
