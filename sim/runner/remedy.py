"""Remedies for rarity outliers: the smallest single-stat change that brings a card back into its
rarity's band, proposed by the power curve and confirmed by simulation.

The rarity study (:mod:`.rarity`) flags a card whose rating interval lies wholly outside its
rarity's band. A designer then asks "what do I change?". Three steps answer it:

1. **Candidates** (:func:`candidates`): every single-stat change allowed by ``[remedy]`` in
   ``cards/power_curve.toml`` (stats and step sizes are data), kept only if it moves the card's
   power score (``docs/power-curve.md``) the right way — down for a strong card (a nerf), up for
   a weak one (a buff) — and ranked by how much power it moves. The power curve is the lab's
   documented notion of "how big a change is", so "smallest" means smallest power delta.
2. **Check** (:func:`remedies`): the card is measured on a *base study* of its own, the
   experiment replayed from :func:`base_seed`, not on the study that flagged it (that study's
   error of the card's rating is what selected it: measured from it, a change landed falsely in
   about a fifth of flagged remedies). Replay the card's games of the base study with the
   changed card — same boards, seats, teams and dice seeds — and measure its new rating as the
   base study's rating plus the paired shift (:mod:`sim.analysis.shift`). Common
   random numbers remove the luck of which games were drawn; the dice that diverge after the
   change remain, and the reported interval carries them: the shift's standard error is
   clustered by the board each replayed game was played on, with t on the boards' G - 1 degrees
   of freedom (summed game by game, it covered a planted shift in 92 % of 600 studies at 95 %).
   The base study's part is the standard error of the card's distance to its band's edges, not
   of its rating alone: the edges are medians the study estimated
   (:func:`sim.analysis.rarity_bands.edge_distance_se`).
3. **Search** (:func:`search`): a bigger change of one stat moves the card further (its
   strength is monotone in each stat, like its power score), so per stat one check of its
   largest change rules the stat out or a bisection finds its smallest change whose whole
   interval clears the band's near edge; the best landing so far bounds the later stats. The
   simulation is free to disagree with the power curve *across* stats (an attack point may
   matter less in play than its power says), so the answer is the smallest landing candidate,
   not merely the first one along the ranking. A candidate *lands* when its simulated rating's
   whole interval lies inside the band.
4. **Confirmation** (:func:`settle`, :func:`verdict`): the landing is replayed on the card's next
   games, disjoint from the search's, and is advice only if it lands there too; otherwise it
   is ``unsettled``, with how many replays would settle it (:func:`replays_to_settle`: the
   replayed part of the interval shrinks as 1/sqrt(games), the study's own rating uncertainty
   does not, so sometimes only a longer study can). When nothing lands, the checked candidate
   nearest the band is reported: ``unsettled`` if its rating is inside (its interval is not),
   else ``overshoots`` (changes clear the near edge but jump past the far one: the steps are too
   coarse) or ``short`` (none reaches it). Calibrated under planted truth
   (tests/test_remedy_calibration.py).

The search, the confirmation and the verdict are pure and live in :mod:`.remedy_search`; this
module plays the games they ask for.

Budget: ``budget`` replayed games per outlier, split evenly over the most checks the search can
need (:func:`max_checks`) and the confirmation, so it is never exceeded. Every check of the
search replays the same first games of the card, in game order, so candidates are compared on
identical games; the confirmation replays the next ones. Everything is a pure
function of the experiment's seed: the same seed gives the same remedy whatever the number of
threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from sim.analysis.cluster import MIN_CLUSTERS, t_quantile
from sim.analysis.shift import offsets, paired_shift
from sim.catalogue.power import power_score
from sim.catalogue.remedy import RemedySteps, stat_bounds, stat_value, with_stat

from . import progress
from .remedy_search import (LANDS, NONE, OVERSHOOTS, SHORT, UNSETTLED, Candidate, Check,
                            distance, max_checks, replays_to_settle, search, settle, verdict)
from .schedule import schedule
from .tasks import build_arena, replay_winners

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
    rating: float             # the base study's rating and interval before the change
    rating_low: float
    rating_high: float
    replays_needed: int | None = None  # UNSETTLED: replayed games per check that would settle
    #                                    it (-1: no number of replays can; a longer study can)
    confirmation: Check | None = None  # the search's landing replayed on games of its own
    card_games: int = 0       # the card's games in the study, which the search's checks and the
    #                           confirmation share: at most this many replayed games in all


def candidates(cards, rules, steps: RemedySteps, card: int, direction: int,
               weights=None) -> list[Candidate]:
    """Every allowed single-stat change of ``card`` whose power delta has the sign of
    ``direction``, smallest ``|delta|`` first (ties: the stats in characters.csv's column order,
    :data:`~sim.catalogue.remedy.REMEDY_STATS`, never the file's key order; then step size)."""
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


# SeedSequence([root_seed, 22]): the root seed of the study each remedy is measured on (the
# replicates of rarity_recurrence use stream 21)
BASE_STREAM = 22


def base_seed(root_seed: int) -> int:
    """The root seed of the remedies' base study: independent of the flagging study's games."""
    return int(np.random.SeedSequence([root_seed, BASE_STREAM]).generate_state(1)[0])


def remedies(catalogue, exp, study, steps: RemedySteps, budget: int, *, l2: float = 1.0,
             confidence: float = 0.95, only: set[int] | None = None,
             correction: str = "holm") -> list[Remedy]:
    """A :class:`Remedy` for every outlier ``study`` flags (with ``only``, just those cards),
    spending at most ``budget`` replayed games on each (see the module doc).

    Why a base study of its own: ``study`` flagged the card because its rating's error leaned
    away from the band (the Holm bar selects the extreme), so a change measured from that rating
    would be advised as landing while the card truly misses the band in about a fifth of
    flagged remedies (tests/test_advice_replay.py; the audit of 2026-12-06). The base study
    replays the experiment from :func:`base_seed` (its boards, teams and dice), and every check
    and the confirmation move its rating, whose error did not flag the card."""
    from scipy.stats import norm

    from .rarity import pool_at_seed

    todo = [int(c) for c in np.flatnonzero(study.outlier != 0) if only is None or int(c) in only]
    if not todo:
        return []
    z = float(norm.ppf(0.5 + confidence / 2.0))
    run, seat_cards, winner, base = pool_at_seed(catalogue, exp, base_seed(exp.root_seed),
                                                 correction=correction,
                                                 label="the remedies' base study")
    arena = build_arena(catalogue, run)
    beta = np.asarray(base.rating, float)
    boards = schedule(run, 0, len(winner)).board  # the board of every base game (its replay's)
    with progress.stage("remedies", budget * len(todo), at_most=True):
        return [_remedy(catalogue, arena, seat_cards, winner, boards, base, steps, budget, c,
                        -int(study.outlier[c]), beta, z, l2, confidence) for c in todo]


def _shift_scale(boards: np.ndarray, z: float, confidence: float) -> float:
    """t on the replayed games' G - 1 board degrees of freedom over the normal z: the factor that
    makes the shift's part of the half-width z * sqrt(se0^2 + (scale * se)^2) a t interval."""
    g = int(np.unique(boards).size)
    return t_quantile(confidence, g - 1) / z if g >= MIN_CLUSTERS else 1.0


def _remedy(catalogue, arena, seat_cards, winner, boards, study, steps, budget, c, direction,
            beta, z, l2, confidence):
    """One outlier's remedy (a stage of the progress line of its own): the search on the card's
    first ``per_check`` games of the base ``study``, its landing confirmed on the next
    ``per_check`` (:func:`verdict`); ``direction`` is the flag's (-1: a nerf)."""
    cards, rules = catalogue.cards, catalogue.rules
    with progress.stage(cards.names[c]):
        cands = candidates(cards, rules, steps, c, direction)
        per_check = max(1, budget // (max_checks(cands) + 1))  # + 1: the confirmation
        holds = np.argwhere(seat_cards == c)                      # (game, seat, slot), in order
        se0 = study.distance_se(c)  # the band edges' error with the rating's (module doc)
        if se0 is None:
            se0 = (study.rating_high[c] - study.rating_low[c]) / (2.0 * z)
        replay = _replayer(arena, cards, c, cands, seat_cards, winner, boards, beta, se0, z, l2,
                           confidence)
        lo_band, hi_band = float(study.band_low[c]), float(study.band_high[c])
        searched, held_out = holds[:per_check], holds[per_check: 2 * per_check]

        def check(i: int, confirm: bool) -> Check | None:
            games = held_out if confirm else searched
            return replay(i, games) if len(games) else None

        status, proposal, checks, confirmation, needed = settle(cands, check, lo_band, hi_band,
                                                                direction, se0, z)
        return Remedy(c, direction, status, proposal, checks, len(cands), lo_band, hi_band,
                      float(beta[c]), float(study.rating_low[c]), float(study.rating_high[c]),
                      needed, confirmation, len(holds))


def _replayer(arena, cards, c, cands, seat_cards, winner, boards, beta, se0, z, l2, confidence):
    """``replay(i, holds)``: candidate ``i`` checked on the card's games ``holds`` (rows of
    (game, seat, slot)): those games replayed with the changed card, same boards, seats and dice,
    and its rating as the study's plus the paired shift, with its interval (module doc)."""
    from sim.engine.state.new_game import card_arrays

    def replay(i: int, holds: np.ndarray) -> Check:
        games, seat = holds[:, 0].astype(np.int64), holds[:, 1].astype(np.int64)
        board = boards[games]
        teams = seat_cards[games]
        rest = beta[teams].sum(axis=2)
        rest[np.arange(games.size), seat] -= beta[c]
        cand = cands[i]
        changed = replace(arena, cards=card_arrays(with_stat(cards, c, cand.stat, cand.new)))
        w1 = replay_winners(changed, games, teams)
        sh = paired_shift(offsets(rest, seat), winner[games] == seat, winner[games] >= 0,
                          w1 == seat, w1 >= 0, prior=float(beta[c]), l2=l2, clusters=board)
        rating = float(beta[c]) + sh.delta
        scale = _shift_scale(board, z, confidence)
        half = z * math.sqrt(se0 ** 2 + (scale * sh.se if sh.games else 0.0) ** 2)
        return Check(i, cand, rating, rating - half, rating + half, sh.win_change, sh.games)

    return replay


def _meets(low: float, high: float, band_low: float, band_high: float) -> bool:
    """Whether the interval [low, high] overlaps the band (its open ends infinite)."""
    return band_low <= high and low <= band_high


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
        shown = r.confirmation or p  # the check behind the verdict: the confirmation if played
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
               "rating_after": shown.rating if p else None,
               "rating_after_low": shown.low if p else None,
               "rating_after_high": shown.high if p else None,
               "band_low": _finite(r.band_low), "band_high": _finite(r.band_high),
               "win_change": shown.win_change if p else None,
               "candidates": r.candidates, "checks_run": len(r.checks),
               "games_per_check": p.games if p else 0,
               "confirmation_games": r.confirmation.games if r.confirmation else 0,
               "games_replayed": int(sum(c.games for c in r.checks)
                                     + (r.confirmation.games if r.confirmation else 0)),
               "replays_needed": r.replays_needed, "card_games": r.card_games}
        row["power_in_band"] = (p is not None and row["power_band_low"] <= row["power_after"]
                                <= row["power_band_high"])
        # overshoots / short read from the checks' ratings while some check's interval still
        # reaches into the band: the games have not shown it (docs/power-curve.md). Any check's,
        # not the nearest's only: a nearest that changed no replayed game has the study's own
        # interval, while the largest change's reached the band (the remedy audit of stop 82)
        row["by_ratings_only"] = bool(r.status in (OVERSHOOTS, SHORT) and p is not None
                                      and any(_meets(c.low, c.high, r.band_low, r.band_high)
                                              for c in (shown, *r.checks)))
        row["checks"] = [{"change": c.candidate.change, "power_delta": c.candidate.power_delta,
                          "rating": c.rating, "low": c.low, "high": c.high,
                          "win_change": c.win_change, "games": c.games} for c in r.checks]
        rows.append(row)
    return rows


__all__ = ["Candidate", "Check", "Remedy", "base_seed", "candidates", "max_checks", "search",
           "remedies", "settle", "verdict", "remedy_records", "distance", "replays_to_settle",
           "LANDS", "OVERSHOOTS", "SHORT", "NONE", "UNSETTLED"]
