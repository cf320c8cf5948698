"""The Elo interval of a metric the drift gate calls drift, given that call (selective
inference): the interval holds the metric's true change in 95 % of the gate's runs that call
it drift, not only in 95 % of all runs.

Why: users act on the alarms (exit 1), and the alarm selects. Over all metrics the gate's moved
interval (:mod:`sim.analysis.stopped_interval`) covers 94-95 %, but a metric whose true change
is small is called drift only when its estimate lies far out, so among the calls it covered
65 % at a planted +35 Elo (half the gate's delta; 0 of 57 calls on the teams whose truth was a
renormalisation of -13 to -17 Elo: tests/test_selection_calibration.py). The remedy is the
selective one (Fithian, Sun & Taylor, "Optimal inference after model selection", 2014; Lee,
Sun, Sun & Taylor, "Exact post-selection inference", Ann. Statist. 2016): order the gate's
outcomes by the estimate at the stop *among the runs that reach the same call*, and invert:
the ends are the true changes under which the estimate would reach the observed one in 2.5 %
and 97.5 % of the runs calling the metric drift. Given the call its coverage is 95 % in the
path model, whatever the truth.

Which call is conditioned on: the alarm, drift either way (the event the exit code acts on),
not its direction. Given the direction too, the distribution is a Gaussian truncated at the
gate's bar, whose interval's far end runs off to minus infinity as the estimate nears the bar
(Kivaranovic & Leeb, "On the length of post-model-selection confidence intervals conditional
on polyhedral constraints", JASA 2021: its expected length is infinite), and the gate's calls
lie mostly just past the bar. Given the alarm either way, a change far on the other side makes
the other direction's alarm the likely one, so the far end stays finite (about half a standard
error past zero for a call at the bar).

Method: :mod:`sim.analysis.stopped_interval`'s Gaussian paths (the boards' and games' parts of
the covariance measured at the stop, the gate's own tests, looks and all-decided stop, one
team's true "after" rate moved by bisection, the others' held at their estimates, common random
numbers from a fixed seed). A truth near zero makes calls rare (1.25 % of runs a metric at the
gate's alpha), so the paths are :data:`CALLED_PATHS`, ten times the median's; a candidate
change under which fewer than :data:`MIN_CALLED` paths reach the call is read among the
:data:`NEAREST` paths nearest a call (until stop 79 it was kept, which could hold a change of
the other sign in the interval of a call far past the bar). Computed only for the metrics
called drift, so a gate that passes pays nothing.
"""

from __future__ import annotations

import math

import numpy as np

from .paired import RATE_FLOOR, _logit, alternative_means
from .stopped_interval import (STOP_SEED, Entries, GateRule, PathModel, _bisect, _decided,
                               _difference_var, _noise, path_model)

__all__ = ["CALLED_PATHS", "MIN_CALLED", "NEAREST", "QUIET_PATHS", "called_elo_intervals"]

CALLED_PATHS = 10000   # paths given the call: over 100 calling ones at a zero truth
QUIET_PATHS = 2000     # paths given no call: a truth near zero leaves nearly all uncalled
MIN_CALLED = 20        # fewer paths reaching the call: read among the NEAREST nearest a call
NEAREST = 100          # the paths nearest a call that stand in for too few calls
_HALVINGS = 14         # of 20 standard errors: 0.001 of one, below these paths' resolution


def called_elo_intervals(before, after, board, rule: GateRule, called, *, level: float = 0.95,
                         quiet_tails=None, paths: int = CALLED_PATHS,
                         quiet_paths: int = QUIET_PATHS, seed: int = STOP_SEED) -> list:
    """Per team, its Elo interval given the gate's alarm (the ``level`` ordering interval among
    the paths whose test calls drift either way at their stop) where ``called[k]``; elsewhere
    the true changes under which the estimate at the stop reaches the observed one in each
    share ``quiet_tails`` of the paths whose test does not call (the first ``quiet_paths``;
    None without ``quiet_tails``: sim/analysis/quiet_interval.py reads them). From paired
    game values ``before``/``after`` (games x teams) on ``board`` and the gate's ``rule``. A
    team whose games all changed alike gets its observed change throughout."""
    from .ratings import ELO_PER_NAT

    called = np.asarray(called, bool)
    if not called.any() and quiet_tails is None:
        return [None] * called.size
    model = path_model(before, after, board)
    looks = np.asarray(rule.looks, dtype=np.int64)
    var = _difference_var(model, looks)
    alike = (np.ptp(np.asarray(after, float) - np.asarray(before, float), axis=0) == 0) \
        | ~np.all(var > 0, axis=0)
    noise = _noise(model, looks, paths if called.any() else min(paths, quiet_paths), seed)
    decided = _all_decided(model, noise, var, rule, alike)
    n, t = np.asarray(before).shape[0], model.before.size
    df = max(np.unique(np.asarray(board)).size - 1, 1)
    out: list = []
    for k in range(t):
        base = _logit(model.before[k])
        tails = ((1 - level) / 2, (1 + level) / 2) if called[k] else \
            (None if quiet_tails is None else tuple(quiet_tails))
        if tails is None or alike[k]:
            change = float(_logit(model.after[k]) - base) * ELO_PER_NAT
            out.append(None if tails is None else (change,) * len(tails))
            continue
        # given no call, the first quiet_paths: a metric not called has most often a small
        # truth, under which nearly every path leaves it uncalled too
        m = noise.shape[0] if called[k] else min(quiet_paths, noise.shape[0])
        others = np.all(np.delete(decided[:, :m], k, axis=0), axis=0)
        spread = 10 * math.sqrt(var[-1, k] + model.board_cov[t + k, t + k]
                                + model.game_cov[t + k, t + k] / n)
        # one tail for both ends (it does not depend on the share sought)
        tail = _called_tail(k, model, noise[:m], others, rule, df, bool(called[k]))
        ends = [_bisect(tail, p, model.after[k], spread, _HALVINGS) for p in tails]
        out.append(tuple(float(_logit(q) - base) * ELO_PER_NAT for q in ends))
    return out


def _all_decided(model: PathModel, noise, var, rule: GateRule, alike) -> np.ndarray:
    """Whether each team's test is decided at each look of each path (teams, paths, looks), at
    the estimates; a team without spread counts as decided (it replays exactly)."""
    t = model.before.size
    decided = np.ones((t,) + noise.shape[:2], dtype=bool)
    for i in range(t):
        if not alike[i]:
            decided[i] = _decided(model.before[i] + noise[:, :, i],
                                  model.after[i] + noise[:, :, t + i], var[None, :, i], rule)
    return decided


def _variance_parts(model: PathModel, looks, k: int):
    """Team ``k``'s variances at each look of its mean "before", mean "after" and their
    covariance (boards' part plus games' part over the games played)."""
    t = model.before.size
    idx = [(k, k), (t + k, t + k), (k, t + k)]
    return [model.board_cov[i, j] + model.game_cov[i, j] / looks for i, j in idx]


def _called_tail(k: int, model: PathModel, noise, others, rule: GateRule, df: int,
                 given_call: bool = True):
    """``tail(q)``: among the paths whose team-``k`` test calls drift (up or down) at their
    stop when its true "after" rate is ``q`` (``given_call``; else among those whose test does
    not), the share whose estimate at the stop reaches the observed one. Where fewer than
    :data:`MIN_CALLED` paths call, among the :data:`NEAREST` paths nearest a call (the largest
    LLR either way): a rare event's conditional law is its boundary's, and those paths crowd
    it. Until stop 79 such a candidate was kept inside the interval whatever the estimate,
    which broke the tail's order: a drift called at twelve times the bar was shown -78…+15
    Elo, its far end past zero (the CI audit of stop 79). Where fewer go uncalled, the
    candidate is read at its limit (rejected: the uncalled estimates crowd the edge of the
    uncalled region nearest it)."""
    t = model.before.size
    before = model.before[k] + noise[:, :, k]
    observed = _logit(model.after[k]) - _logit(model.before[k])
    rows = np.arange(noise.shape[0])
    last = rule.looks.size - 1
    mu_up, mu_down = alternative_means(before, rule.delta)
    upper = rule.bounds[1]
    parts = _variance_parts(model, rule.looks, k)
    # the gate's test reads a variance estimated from the games (board-clustered, G - 1
    # degrees of freedom), and calls sooner where it came out low: one draw of it a path
    rng = np.random.default_rng(np.random.SeedSequence([STOP_SEED, k]))
    read = (rng.chisquare(df, noise.shape[0]) / df)[:, None]
    rate = np.clip(model.after[k], RATE_FLOOR, 1 - RATE_FLOOR)

    after_noise = noise[:, :, t + k]
    # the test can stop only where the other teams are decided: its decision is read at those
    # (path, look) entries alone (a tenth to a third of them), each as over the whole grid
    at = Entries(others)
    before_at, noise_at, read_at = at.take(before), at.take(after_noise), read[at.paths, 0]
    means_at = (at.take(mu_up), at.take(mu_down))
    flat = [np.ravel(a) for a in (after_noise, before, mu_up, mu_down)]  # read at each stop
    read_path = read[:, 0]
    seen: dict = {}  # both ends' searches start from the same bracket

    def tail(q: float) -> float:
        if q not in seen:
            seen[q] = _tail_at(q)
        return seen[q]

    def _tail_at(q: float) -> float:
        # a win rate's spread follows the rate: the "after" noise scaled to q's binomial sd
        scale = math.sqrt(q * (1 - q) / (rate * (1 - rate)))
        var = parts[0] + scale ** 2 * parts[1] - 2 * scale * parts[2]
        done = _decided(before_at, q + scale * noise_at, var[at.looks] * read_at, rule, means_at)
        stop = at.first(done, last)
        noise_then, before_then, up, down = (a.take(rows * (last + 1) + stop) for a in flat)
        after = q + scale * noise_then
        mu, v = after - before_then, var[stop] * read_path
        call = (up * (2 * mu - up) >= 2 * v * upper) | (down * (2 * mu - down) >= 2 * v * upper)
        given = call if given_call else ~call
        if given.sum() < MIN_CALLED:
            if not given_call:
                return float(q > model.after[k])
            # calls too rare to read (a truth near zero): the paths nearest a call stand in
            lean = np.maximum(up * (2 * mu - up), down * (2 * mu - down)) / (2 * v)
            given = (np.argpartition(-lean, NEAREST)[:NEAREST] if lean.size > NEAREST
                     else slice(None))  # (fewer paths than that: all of them)
        estimate = _logit(after) - _logit(before_then)
        return float(np.mean(estimate[given] >= observed))

    return tail
