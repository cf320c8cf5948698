"""The drift gate's Elo change where the gate stops, corrected for its stopping rule by
ordering the rule's outcomes.

Why: the gate looks after every round and stops in the first round where all four teams' tests
are decided (``sim/runner/drift.py``), so it tends to stop where a change looks large: at a
planted +60 Elo the estimate at the stop overshoots, and the 95 % interval taken there as if
the games had been fixed in advance covers in only about 94 % of runs (docs/intervals.md).
The textbook repair for a sequential test is to order the possible outcomes and invert the
ordering (Jennison & Turnbull, "Group Sequential Methods", 2000, ch. 8; Fishtest's ``sprt.py``
does it for one SPRT): the true change under which the estimate at the stop would reach the
observed one in half the runs is the median-unbiased estimate; in 2.5 % and 97.5 % of runs,
the ends of an interval. The gate uses the first (sim/runner/drift_interval.py says why).

Method: the gate's games are replaced by Gaussian paths of the eight means (each team's win
rate before and after) at the gate's looks, with the covariance measured where it stopped and
split in two: the boards' part, which the looks share (every look after the first pass plays
every board, so a board that favours a change keeps favouring it), and the games' part, a
random walk over the looks (per-game covariance within boards). Along each path the gate's own
tests are run (the same log-likelihood ratios, bounds and all-decided stop), and the estimate
logit(after) - logit(before) is read at the path's stop. One team's true "after" rate is moved
by bisection, the other teams' and every "before" rate held at their estimates (nuisance
parameters plugged in); the same draws (common random numbers, a fixed
``SeedSequence(STOP_SEED)``) serve every candidate, so the result is a deterministic function
of the games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from .cluster import cluster_ids, cluster_sums, cr1_factor
from .paired import RATE_FLOOR, _logit, alternative_means

__all__ = ["GateRule", "PathModel", "STOP_PATHS", "STOP_SEED", "median_unbiased_elo_changes",
           "ordered_elo_changes", "path_model"]

STOP_SEED = 20261204   # SeedSequence(STOP_SEED): the paths, the same for every gate and worker
STOP_PATHS = 2000      # Gaussian paths per team: the median to 0.03 standard errors
_BISECTIONS = 24       # halvings of 20 standard errors: 1e-6 of one, below the paths' resolution


@dataclass(frozen=True)
class GateRule:
    """What the gate does at each look: the games played (increasing), the change its tests
    look for (``delta``, in nats) and Wald's bounds (lower, upper)."""

    looks: np.ndarray
    delta: float
    bounds: tuple[float, float]


@dataclass(frozen=True)
class PathModel:
    """The eight means at the stop (``before`` and ``after``, one per team) and their noise:
    ``board_cov`` the boards' part of the means' covariance (the same at every look),
    ``game_cov`` the covariance of one game within its board (a random walk over the looks)."""

    before: np.ndarray
    after: np.ndarray
    board_cov: np.ndarray
    game_cov: np.ndarray


def path_model(before, after, board) -> PathModel:
    """The means and the two covariances of paired game values ``before``/``after`` (games x
    teams) played on ``board``: the clustered (CR1) covariance of the means is split into the
    within-board part (the pooled within-board covariance over the games) and the rest, the
    boards' part, clipped to be positive semi-definite."""
    values = np.concatenate([np.asarray(before, float), np.asarray(after, float)], axis=1)
    n, teams = values.shape[0], values.shape[1] // 2
    ids, g = cluster_ids(board, n)
    mean = values.mean(axis=0)
    sums = cluster_sums(values - mean, ids, g)
    clustered = cr1_factor(g) * sums.T @ sums / n ** 2
    sizes = np.bincount(ids, minlength=g).astype(float)
    within = values - (cluster_sums(values, ids, g) / sizes[:, None])[ids]
    game_cov = within.T @ within / max(n - g, 1)
    return PathModel(mean[:teams], mean[teams:], _psd(clustered - game_cov / n), game_cov)


def _psd(cov: np.ndarray) -> np.ndarray:
    """``cov`` with its negative eigenvalues set to zero (symmetrised first)."""
    w, v = np.linalg.eigh((cov + cov.T) / 2)
    return (v * np.maximum(w, 0.0)) @ v.T


def _root(cov: np.ndarray) -> np.ndarray:
    """A matrix ``L`` with ``L @ L.T == cov`` for a positive semi-definite ``cov``."""
    w, v = np.linalg.eigh((cov + cov.T) / 2)
    return v * np.sqrt(np.maximum(w, 0.0))


def _noise(model: PathModel, looks: np.ndarray, paths: int, seed: int) -> np.ndarray:
    """The means' zero-mean noise at each look, (paths, looks, 2 x teams): the boards' draw,
    shared by the looks, plus the games' random walk divided by the games played."""
    board_draws, walk_draws = _standard_draws(seed, paths, looks.size, model.game_cov.shape[0])
    boards = board_draws @ _root(model.board_cov).T
    steps = np.diff(np.concatenate([[0], looks])).astype(float)
    walk = walk_draws @ _root(model.game_cov).T
    # in place (the same values as new arrays, without three more of this size)
    walk *= np.sqrt(steps)[None, :, None]
    np.cumsum(walk, axis=1, out=walk)
    walk /= looks[None, :, None]
    walk += boards[:, None, :]
    return walk


@lru_cache(maxsize=4)
def _standard_draws(seed: int, paths: int, looks: int, dim: int) -> tuple:
    """The standard normals :func:`_noise` scales, (paths, dim) for the boards then (paths,
    looks, dim) for the games, drawn in that order from ``seed``. Kept (read-only) for the next
    call: they depend on the sizes alone, every interval of a gate run draws the same ones, and
    drawing them was a third of the intervals' time."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    draws = rng.standard_normal((paths, dim)), rng.standard_normal((paths, looks, dim))
    for d in draws:
        d.setflags(write=False)
    return draws


def _decided(before, after, var, rule: GateRule, means=None) -> np.ndarray:
    """Whether one team's test is decided at each look of each path (the gate's rule:
    either side's LLR at the upper bound, or both at the lower). ``means``: the alternatives'
    means from ``before`` (``alternative_means``), when the caller has them already."""
    lower, upper = rule.bounds
    mu1_up, mu1_down = alternative_means(before, rule.delta) if means is None else means
    # each side's LLR as :func:`sim.analysis.paired.paired_llr` (``var`` > 0 wherever it is
    # read), the parts they share computed once (the drift gate's intervals spend most of their
    # time here); either side at the upper bound is the larger at it, both at the lower the
    # larger at it
    twice, twice_var = 2 * (after - before), 2 * var
    larger = np.maximum(mu1_up * (twice - mu1_up) / twice_var,
                        mu1_down * (twice - mu1_down) / twice_var)
    return (larger >= upper) | (larger <= lower)


def _difference_var(model: PathModel, looks: np.ndarray) -> np.ndarray:
    """The variance the gate's test uses at each look, per team (looks, teams): that of the
    mean difference, boards' part plus games' part over the games played."""
    t = model.before.size
    e = np.concatenate([-np.eye(t), np.eye(t)], axis=1)
    board = np.einsum("ki,ij,kj->k", e, model.board_cov, e)
    game = np.einsum("ki,ij,kj->k", e, model.game_cov, e)
    return board[None, :] + game[None, :] / looks[:, None]


def _team_tail(k: int, model: PathModel, noise: np.ndarray, others: np.ndarray,
               var: np.ndarray, rule: GateRule):
    """``tail(q)``: the share of paths whose estimate at their stop reaches team ``k``'s
    observed one when its true "after" rate is ``q`` (others decided per ``others``)."""
    t = model.before.size
    before = model.before[k] + noise[:, :, k]
    observed = _logit(model.after[k]) - _logit(model.before[k])
    rows = np.arange(noise.shape[0])
    last = rule.looks.size - 1
    # the "before" paths do not move with q: their alternatives are computed once, not at each
    # of the bisection's some eighty calls (a third of the drift gate's interval time); the
    # decisions are read only where the others' hold (:class:`Entries`)
    at = Entries(others)
    means = alternative_means(before, rule.delta)
    after_noise = noise[:, :, t + k]
    before_at, noise_at, var_at = at.take(before), at.take(after_noise), var[at.looks]
    means_at = (at.take(means[0]), at.take(means[1]))

    def tail(q: float) -> float:
        stop = at.first(_decided(before_at, q + noise_at, var_at, rule, means_at), last)
        estimate = _logit(q + after_noise[rows, stop]) - _logit(before[rows, stop])
        return float(np.mean(estimate >= observed))

    return tail


class Entries:
    """The (path, look) entries where a mask holds, path by path and look by look within a path
    (NumPy's row-major order). Why: a team's test stops at the first look where it and every
    other team are decided, and the others' decisions do not move while one team's truth is
    searched, so its own needs reading only where theirs hold (a tenth to a third of the grid
    in the drift gate's intervals): the same decisions, from far fewer elements."""

    def __init__(self, mask: np.ndarray):
        self.paths, self.looks = np.nonzero(mask)
        self.shape = mask.shape

    def take(self, grid: np.ndarray) -> np.ndarray:
        """A (paths, looks) grid's values at the entries."""
        return grid[self.paths, self.looks]

    def first(self, held: np.ndarray, last: int) -> np.ndarray:
        """Per path, the look of its first entry where ``held`` (one value an entry) holds;
        ``last`` where none does."""
        out = np.full(self.shape[0], last, dtype=np.intp)
        pos = np.flatnonzero(held)
        if pos.size:
            paths = self.paths[pos]
            first = pos[np.concatenate(([True], paths[1:] != paths[:-1]))]
            out[self.paths[first]] = self.looks[first]
        return out


def _bisect(tail, target: float, centre: float, spread: float,
            steps: int = _BISECTIONS) -> float:
    """The rate ``q`` where ``tail(q)`` (increasing) crosses ``target``, searched from
    ``centre`` +- ``spread`` (widened while it does not bracket; clipped to the rate floor),
    halved ``steps`` times."""
    floor = RATE_FLOOR
    lo, hi = max(centre - spread, floor), min(centre + spread, 1 - floor)
    while tail(lo) > target and lo > floor:
        lo = max(centre - 2 * (centre - lo), floor)
    while tail(hi) < target and hi < 1 - floor:
        hi = min(centre + 2 * (hi - centre), 1 - floor)
    for _ in range(steps):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if tail(mid) < target else (lo, mid)
    return (lo + hi) / 2


def median_unbiased_elo_changes(before, after, board, rule: GateRule, *,
                                paths: int = STOP_PATHS, seed: int = STOP_SEED) -> list[float]:
    """Each team's change logit(after) - logit(before), in Elo points, corrected for where the
    gate stopped: the true change under which the estimate at the stop would reach the observed
    one in half the runs (median-unbiased), from paired game values ``before``/``after``
    (games x teams) on ``board`` and the gate's ``rule`` (its looks up to its cap)."""
    return [q[0] for q in ordered_elo_changes(before, after, board, rule, (0.5,), paths=paths,
                                              seed=seed)]


def ordered_elo_changes(before, after, board, rule: GateRule, tails, *,
                        paths: int = STOP_PATHS, seed: int = STOP_SEED) -> list[tuple]:
    """Per team, the true changes (Elo) under which the estimate at the stop reaches the
    observed one in each share ``tails`` of the paths (0.5: the median-unbiased estimate;
    0.025 and 0.975: the interval by ordering). A team whose games all changed alike (no spread
    in its difference, as when a baseline replays exactly) gets its observed change."""
    alike = np.ptp(np.asarray(after, float) - np.asarray(before, float), axis=0) == 0
    return _ordered(path_model(before, after, board), np.asarray(before).shape[0], rule, tails,
                    alike, paths, seed)


def _ordered(model: PathModel, n: int, rule: GateRule, tails, alike, paths: int,
             seed: int) -> list[tuple]:
    """:func:`ordered_elo_changes` from the path model of the ``n`` games at the stop."""
    from .ratings import ELO_PER_NAT

    looks = np.asarray(rule.looks, dtype=np.int64)
    rule = replace(rule, looks=looks)
    var = _difference_var(model, looks)
    noise = _noise(model, looks, paths, seed)
    t = model.before.size
    alike = np.asarray(alike, bool) | ~np.all(var > 0, axis=0)
    decided = np.ones((t, paths, looks.size), dtype=bool)
    for i in range(t):
        if not alike[i]:
            decided[i] = _decided(model.before[i] + noise[:, :, i],
                                  model.after[i] + noise[:, :, t + i], var[None, :, i], rule)
    out = []
    for k in range(t):
        base = _logit(model.before[k])
        if alike[k]:
            change = float(_logit(model.after[k]) - base) * ELO_PER_NAT
            out.append((change,) * len(tails))
            continue
        others = np.all(np.delete(decided, k, axis=0), axis=0)
        tail = _team_tail(k, model, noise, others, var[:, k], rule)
        spread = 10 * math.sqrt(var[-1, k] + model.board_cov[t + k, t + k]
                                + model.game_cov[t + k, t + k] / n)
        ends = [_bisect(tail, p, model.after[k], spread) for p in tails]
        out.append(tuple(float(_logit(q) - base) * ELO_PER_NAT for q in ends))
    return out
