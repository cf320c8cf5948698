"""Remedies for rarity outliers: the smallest single-stat change that brings a card back into its
rarity's band, proposed by the power curve and confirmed by simulation.

The rarity study (:mod:`.rarity`) flags a card whose rating interval lies wholly outside its
rarity's band. A designer then asks "what do I change?". Three steps answer it:

1. **Candidates** (:func:`candidates`): every single-stat change allowed by ``[remedy]`` in
   ``cards/power_curve.toml`` (stats and step sizes are data), kept only if it moves the card's
   power score (``docs/power-curve.md``) the right way — down for a strong card (a nerf), up for
   a weak one (a buff) — and ranked by how much power it moves. The power curve is the lab's
   documented notion of "how big a change is", so "smallest" means smallest power delta.
2. **Check** (:func:`remedies`): replay the card's own games with the changed card — same boards,
   seats, teams and dice seeds (child ``game`` of the experiment's root seed) — and measure its
   new rating as the study's rating plus the paired shift (:mod:`sim.analysis.shift`). Common
   random numbers remove the luck of which games were drawn; the dice that diverge after the
   change remain, and the reported interval carries them: the shift's standard error is
   clustered by the board each replayed game was played on, with t on the boards' G - 1 degrees
   of freedom (summed game by game, it covered a planted shift in 92 % of 600 studies at 95 %).
3. **Search** (:func:`search`): a bigger change of one stat moves the card further (its
   strength is monotone in each stat, like its power score), so per stat one check of its
   largest change rules the stat out or a bisection finds its smallest change that reaches the
   band; the best landing so far bounds the later stats. The simulation is free to disagree with
   the power curve *across* stats (an attack point may matter less in play than its power says),
   so the answer is the smallest landing candidate, not merely the first one along the ranking.
   A candidate *lands* when its simulated rating's whole interval lies inside the band; when
   the rating is inside but the interval is not, it is ``unsettled``, with how many replays
   would settle it (:func:`replays_to_settle`: the replayed part of the interval shrinks as
   1/sqrt(games), the study's own rating uncertainty does not, so sometimes only a longer study
   can). When no rating reaches the band, the checked candidate nearest it is reported, with
   status ``overshoots`` (changes reach the band but jump past it: the steps are too coarse) or
   ``short`` (none reaches it).

Budget: ``budget`` replayed games per outlier, split evenly over the most checks the search can
need (:func:`max_checks`), so it is never exceeded. Every check replays the same first games of
the card, in game order, so candidates are compared on identical games. Everything is a pure
function of the experiment's seed: the same seed gives the same remedy whatever the number of
threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from sim.analysis.cluster import MIN_CLUSTERS, t_quantile
from sim.analysis.shift import offsets, paired_shift
from sim.catalogue.power import DEFAULT_WEIGHTS, power_score
from sim.catalogue.remedy import RemedySteps, stat_bounds, stat_value, with_stat

from . import progress
from .schedule import schedule
from .tasks import build_arena, replay_winners

LANDS, OVERSHOOTS, SHORT, NONE = "lands", "overshoots", "short", "no candidate"
UNSETTLED = "unsettled"   # the rating is inside the band, its interval is not (yet)


@dataclass(frozen=True)
class Candidate:
    stat: str            # a characters.csv column
    old: int
    new: int
    power_before: float
    power_after: float

    @property
    def power_delta(self) -> float:
        return self.power_after - self.power_before

    @property
    def change(self) -> str:
        return f"{self.stat} {self.old} → {self.new}"


@dataclass(frozen=True)
class Check:
    """One candidate played: its simulated rating and interval."""

    index: int           # position in the ranked candidate list
    candidate: Candidate
    rating: float
    low: float
    high: float
    win_change: float    # paired change of its team's win rate over the replayed games
    games: int


@dataclass(frozen=True)
class Remedy:
    card: int
    direction: int            # -1: nerf (the card plays above its band), +1: buff
    status: str               # LANDS, OVERSHOOTS, SHORT or NONE
    proposal: Check | None    # the landing candidate, else the checked one nearest the band
    checks: tuple[Check, ...]
    candidates: int
    band_low: float
    band_high: float
    rating: float             # the study's rating and interval before the change
    rating_low: float
    rating_high: float
    replays_needed: int | None = None  # UNSETTLED: replayed games per check that would settle
    #                                    it (-1: no number of replays can; a longer study can)


def candidates(cards, rules, steps: RemedySteps, card: int, direction: int,
               weights=DEFAULT_WEIGHTS) -> list[Candidate]:
    """Every allowed single-stat change of ``card`` whose power delta has the sign of
    ``direction``, smallest ``|delta|`` first (ties: the order of ``[remedy]``, then step size)."""
    before = float(power_score(cards, rules, weights)[card])
    ranked = []
    for rank, s in enumerate(steps.stats):
        old = stat_value(cards, card, s.stat)
        lo, hi = stat_bounds(s.stat, rules)
        for k in range(1, s.steps + 1):
            for sign in (-1, 1):
                new = old + sign * k * s.step
                if not lo <= new <= hi:
                    continue
                changed = with_stat(cards, card, s.stat, new)
                after = float(power_score(changed, rules, weights)[card])
                if (after - before) * direction > 0:
                    ranked.append((abs(after - before), rank, k,
                                   Candidate(s.stat, old, new, before, after)))
    ranked.sort(key=lambda t: t[:3])
    return [t[3] for t in ranked]


def _chains(cands: list[Candidate]) -> list[list[int]]:
    """Candidate indices grouped by stat (in the order the stats first appear), each chain in
    ranked order — for one stat that is step order, as the power score is monotone in each stat."""
    chains: dict[str, list[int]] = {}
    for i, c in enumerate(cands):
        chains.setdefault(c.stat, []).append(i)
    return list(chains.values())


def max_checks(cands: list[Candidate]) -> int:
    """Checks :func:`search` needs at most: per stat with ``k`` candidates, one for the largest
    and ``ceil(log2 k)`` to bisect the rest."""
    return sum(1 + (len(chain) - 1).bit_length() for chain in _chains(cands))


def distance(rating: float, low: float, high: float) -> float:
    """How far a rating lies outside the band [low, high] (0 inside)."""
    return max(low - rating, rating - high, 0.0)


def search(cands: list[Candidate], measure: Callable[[int], Check], band_low: float,
           band_high: float, direction: int) -> tuple[str, Check | None, tuple[Check, ...]]:
    """The smallest-ranked candidate whose measured rating lands in [band_low, band_high].

    Premise: for one stat, a bigger change moves the card further (its strength is monotone in
    each stat, as its power score is). Across stats the simulation may disagree with the power
    curve (a point of attack may matter less in play than its power suggests), so each stat is
    searched on its own. Per stat: check its largest candidate still ranked below the best landing
    found so far; if that does not *reach* the band (at or below its top for a nerf, at or above
    its bottom for a buff), no smaller change of that stat will, and one check rules the stat out;
    otherwise bisect for the smallest change that reaches it, which lands unless it jumps the
    band (then no change of that stat lands). The best landing bounds every later stat, so the
    result is the smallest landing candidate overall.

    Returns (status, proposal, every check in ranked order); ``measure(i)`` is called at most
    :func:`max_checks` times and never twice for one candidate. Status: LANDS; OVERSHOOTS (some
    change reaches the band but every one passes it); SHORT (none reaches it); NONE (no
    candidates). Without a landing, the proposal is the checked candidate nearest the band.
    """
    done: dict[int, Check] = {}

    def reached(i: int) -> bool:
        if i not in done:
            done[i] = measure(i)
        r = done[i].rating
        return r <= band_high if direction < 0 else r >= band_low

    best = None
    any_reached = False
    for chain in _chains(cands):
        chain = [i for i in chain if best is None or i < best]
        if not chain or not reached(chain[-1]):
            continue
        any_reached = True
        lo, hi = 0, len(chain) - 1           # chain[hi] reaches the band
        while lo < hi:
            mid = (lo + hi) // 2
            if reached(chain[mid]):
                hi = mid
            else:
                lo = mid + 1
        if distance(done[chain[lo]].rating, band_low, band_high) == 0.0:
            best = chain[lo]
    checks = tuple(done[i] for i in sorted(done))
    if not cands:
        return NONE, None, checks
    if best is not None:
        return LANDS, done[best], checks
    nearest = min(checks, key=lambda c: (distance(c.rating, band_low, band_high), c.index))
    return (OVERSHOOTS if any_reached else SHORT), nearest, checks


def remedies(catalogue, exp, seat_cards: np.ndarray, winner: np.ndarray, study, steps: RemedySteps,
             budget: int, *, l2: float = 1.0, confidence: float = 0.95, arena=None,
             only: set[int] | None = None) -> list[Remedy]:
    """A :class:`Remedy` for every outlier of ``study`` (played on ``seat_cards``/``winner`` of
    ``exp``; with ``only``, just those cards), spending at most ``budget`` replayed games on each
    (see the module doc)."""
    from scipy.stats import norm

    if arena is None:
        arena = build_arena(catalogue, exp)
    z = float(norm.ppf(0.5 + confidence / 2.0))
    beta = np.asarray(study.rating, float)
    todo = [int(c) for c in np.flatnonzero(study.outlier != 0) if only is None or int(c) in only]
    if not todo:
        return []
    boards = schedule(exp, 0, len(winner)).board  # the board of every study game (its replay's)
    with progress.stage("remedies", budget * len(todo), at_most=True):
        return [_remedy(catalogue, arena, seat_cards, winner, boards, study, steps, budget, c,
                        beta, z, l2, confidence) for c in todo]


def _shift_scale(boards: np.ndarray, z: float, confidence: float) -> float:
    """t on the replayed games' G - 1 board degrees of freedom over the normal z: the factor that
    makes the shift's part of the half-width z * sqrt(se0^2 + (scale * se)^2) a t interval."""
    g = int(np.unique(boards).size)
    return t_quantile(confidence, g - 1) / z if g >= MIN_CLUSTERS else 1.0


def _remedy(catalogue, arena, seat_cards, winner, boards, study, steps, budget, c, beta, z, l2,
            confidence):
    """One outlier's remedy (a stage of the progress line of its own)."""
    from sim.engine.state.new_game import card_arrays

    cards, rules = catalogue.cards, catalogue.rules
    with progress.stage(cards.names[c]):
        direction = -int(study.outlier[c])
        cands = candidates(cards, rules, steps, c, direction)
        per_check = max(1, budget // max(1, max_checks(cands)))
        holds = np.argwhere(seat_cards == c)[:per_check]            # (game, seat, slot), in order
        games, seat = holds[:, 0].astype(np.int64), holds[:, 1].astype(np.int64)
        board = boards[games]
        scale = _shift_scale(board, z, confidence)
        teams = seat_cards[games]
        rest = beta[teams].sum(axis=2)
        rest[np.arange(games.size), seat] -= beta[c]
        o = offsets(rest, seat)
        won0, ranked0 = winner[games] == seat, winner[games] >= 0
        se0 = (float(study.rating_se[c]) if getattr(study, "rating_se", None) is not None
               else (study.rating_high[c] - study.rating_low[c]) / (2.0 * z))

        def measure(i: int, c=c, cands=cands, games=games, seat=seat, teams=teams, o=o,
                    won0=won0, ranked0=ranked0, se0=se0, board=board, scale=scale) -> Check:
            cand = cands[i]
            changed = replace(arena, cards=card_arrays(with_stat(cards, c, cand.stat, cand.new)))
            w1 = replay_winners(changed, games, teams)
            sh = paired_shift(o, won0, ranked0, w1 == seat, w1 >= 0, prior=float(beta[c]), l2=l2,
                              clusters=board)
            rating = float(beta[c]) + sh.delta
            half = z * math.sqrt(se0 ** 2 + (scale * sh.se if sh.games else 0.0) ** 2)
            return Check(i, cand, rating, rating - half, rating + half, sh.win_change, sh.games)

        lo_band, hi_band = float(study.band_low[c]), float(study.band_high[c])
        status, proposal, checks = search(cands, measure, lo_band, hi_band, direction)
        status, needed = verdict(status, proposal, se0, z, lo_band, hi_band)
        return Remedy(c, direction, status, proposal, checks, len(cands), lo_band, hi_band,
                      float(beta[c]), float(study.rating_low[c]), float(study.rating_high[c]),
                      needed)


def verdict(status: str, proposal: Check | None, se0: float, z: float, band_low: float,
            band_high: float) -> tuple[str, int | None]:
    """The remedy's final status: the search's LANDS (its rating inside the band) stands only
    when the proposal's whole interval lies inside the band, else it is UNSETTLED with the
    replays per check that would settle it (:func:`replays_to_settle`). Calibrated with the
    search under planted truth (tests/test_remedy_calibration.py): a change whose true rating
    lies outside the band lands in 4.6-4.9 % of remedies where every check is a chance to land
    by noise (alpha 5 %)."""
    if status == LANDS and not band_low <= proposal.low <= proposal.high <= band_high:
        return UNSETTLED, replays_to_settle(proposal, se0, z, band_low, band_high)
    return status, None


def replays_to_settle(check: Check, se0: float, z: float, band_low: float,
                      band_high: float) -> int:
    """Replayed games per check that would put ``check``'s interval inside the band, if its
    rating stayed where it is: the interval's half-width is z * sqrt(se0^2 + s^2), s the paired
    shift's standard error, which shrinks as 1/sqrt(games) while se0 (the study's own rating)
    does not. -1 when se0 alone is too wide for the room the rating has (more study games, not
    more replays, then)."""
    room = min(check.rating - band_low, band_high - check.rating) / z
    shift_se2 = ((check.high - check.low) / (2 * z)) ** 2 - se0 ** 2
    if room <= se0 or check.games <= 0:
        return -1
    if shift_se2 <= 0:
        return check.games
    return int(math.ceil(check.games * shift_se2 / (room ** 2 - se0 ** 2)))


def _finite(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


def remedy_records(found: list[Remedy], catalogue, power_bands: np.ndarray) -> list[dict]:
    """One plain dict per remedy (the JSON, CSV and report rows), its checks nested under
    ``checks``; infinite band edges (Bronze's bottom, GOAT Series' top) become None."""
    names, rules = catalogue.cards.names, catalogue.rules
    rows = []
    for r in found:
        rarity = int(catalogue.cards.rarity[r.card])
        p = r.proposal
        row = {"card": names[r.card], "rarity": rules.rarities[rarity],
               "direction": "nerf" if r.direction < 0 else "buff", "status": r.status,
               "change": p.candidate.change if p else "", "stat": p.candidate.stat if p else "",
               "old": p.candidate.old if p else None, "new": p.candidate.new if p else None,
               "power_before": p.candidate.power_before if p else None,
               "power_after": p.candidate.power_after if p else None,
               "power_delta": p.candidate.power_delta if p else None,
               "power_band_low": float(power_bands[rarity, 0]),
               "power_band_high": float(power_bands[rarity, 1]),
               "rating_before": r.rating, "rating_before_low": r.rating_low,
               "rating_before_high": r.rating_high,
               "rating_after": p.rating if p else None, "rating_after_low": p.low if p else None,
               "rating_after_high": p.high if p else None,
               "band_low": _finite(r.band_low), "band_high": _finite(r.band_high),
               "win_change": p.win_change if p else None,
               "candidates": r.candidates, "checks_run": len(r.checks),
               "games_per_check": p.games if p else 0,
               "games_replayed": int(sum(c.games for c in r.checks)),
               "replays_needed": r.replays_needed}
        row["power_in_band"] = (p is not None and row["power_band_low"] <= row["power_after"]
                                <= row["power_band_high"])
        row["checks"] = [{"change": c.candidate.change, "power_delta": c.candidate.power_delta,
                          "rating": c.rating, "low": c.low, "high": c.high,
                          "win_change": c.win_change, "games": c.games} for c in r.checks]
        rows.append(row)
    return rows


__all__ = ["Candidate", "Check", "Remedy", "candidates", "max_checks", "search", "remedies",
           "verdict",
           "remedy_records", "distance", "replays_to_settle", "LANDS", "OVERSHOOTS", "SHORT",
           "NONE", "UNSETTLED"]
