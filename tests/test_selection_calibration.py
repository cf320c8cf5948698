"""Calibration conditional on selection (audit, 2026-12-06): the numbers and verdicts the lab
prints about something it chose using the same data.

The remedy's winner's curse (tests/test_advice_replay.py) was one case of a general hole: a
95 % interval is calibrated over every effect, not over the one picked because its estimate
was the largest or crossed a bar. Here each printed claim about a selected effect is planted
and measured with the lab's own functions, as selected where it is printed:

- ``bwlab rulings`` prints, per alternative, its *largest team effect* (the team of largest
  |z| of four, sim/runner/rulings_compare.compare, ``largest_team``) and *largest card effect*
  (the card of largest |z| of those in play, ``largest_card``). Beside the 95 % interval each
  effect has on its own they covered 84.5 % and 31 % of the effects they were printed for (the
  audit's strict xfails); they are now printed at their family's level, simultaneous over the
  teams or the cards, and these tests check that they cover.
- ``bwlab rarity`` prints a flagged card's rating with a 95 % interval (cli/rarity_text,
  echo_outliers); the flag selects the cards whose estimate lies far from the band. The card's
  own interval covered 93.4 % of flags (the audit's strict xfail); the interval printed is now
  the hybrid interval given the flag (sim/runner/rarity_flags.py), and the test checks it
  covers among flagged cards, on the spread of true distances docs/advice.md measured.
- ``bwlab drift`` prints each metric's Elo interval beside its decision, and acts on the
  metrics called drift. Given the alarm, at a planted change below the gate's delta, the
  interval over all runs covered 65 %; a metric called drift now gets its interval given the
  call, checked here to cover at 95 % given the call (and the others given no call).
- ``bwlab fairness`` tells pairs apart with simultaneous intervals (Bonferroni over the six
  pairs): selection cannot bend them. Passing: the pair of the largest gap, chosen after the
  fact, keeps its interval, and false "ahead" claims stay under alpha.

Every check: fixed seeds, one-sided binomial tests at 1 % against the stated level.
docs/intervals.md and docs/calibration.md have the numbers (the rarity flags, the drift gate, the
rulings ranking), and how each was fixed.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from scipy.stats import binomtest, t as student_t

LEVEL = 0.95


def _covers_at_level(covered: int, n: int) -> bool:
    """Not shown below the stated 95 % (one-sided binomial test at 1 %)."""
    return binomtest(int(covered), int(n), LEVEL, alternative="less").pvalue > 0.01


def _rulings_team_studies(studies: int, law, seed: int):
    """Planted rulings' fairness studies of the shipped size (1,024 games on 256 boards, one
    duplicate block a board): four teams whose winners are drawn uniformly under the book;
    the alternative redraws a quarter of the games' winners from ``law``, so each team's true
    change is 0.25 * (law - 1/4). Yields (the lab's team rows, family |z|, critical, truth)."""
    from sim.runner.rulings_compare import _family, fairness_effect

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    law = np.asarray(law, float)
    truth = 0.25 * (law - 0.25)
    boards = 256
    for _ in range(studies):
        before = rng.integers(0, 4, size=4 * boards)
        redraw = rng.random(before.size) < 0.25
        after = np.where(redraw, rng.choice(4, size=before.size, p=law), before)
        base, run = (SimpleNamespace(fair_winner=w, fair_board=np.arange(boards),
                                     fair_trace=w[:, None]) for w in (before, after))
        fair = fairness_effect(base, run, list("abcd"), 0.05)
        z, crit = _family(fair["teams"], fair["df"])
        yield fair["teams"], z, crit, truth


def _largest(teams):
    """The team ``compare`` prints as the largest team effect, its index and its row
    (sim.runner.rulings_compare.largest_team)."""
    from sim.runner.rulings_compare import largest_team

    shown = largest_team({"teams": teams})
    return [t["name"] for t in teams].index(shown["name"]), shown


def test_the_largest_team_effect_s_interval_covers_when_nothing_changed():
    """The table's "largest team effect" of every alternative: the team of largest |z|.
    Planted: the alternative changes nothing (it redraws a quarter of the winners from the same
    uniform law; every true change 0), 2,000 studies. Each team's own 95 % interval covers
    (95.4 % of 8,000), but the largest's own covered 1,689 of 2,000 (84.5 %), the chance that
    the largest of four correlated |t| stays under 1.97: the largest is now shown at its
    family's level (simultaneous over the four teams), which covers at 95 %."""
    covered = own = all_teams = 0
    studies = 2000
    for teams, _, _, truth in _rulings_team_studies(studies, [0.25] * 4, 1):
        k, shown = _largest(teams)
        covered += shown["low"] <= truth[k] <= shown["high"]
        own += teams[k]["low"] <= truth[k] <= teams[k]["high"]
        all_teams += sum(t["low"] <= truth[j] <= t["high"] for j, t in enumerate(teams))
    assert _covers_at_level(all_teams, 4 * studies)       # each on its own: calibrated
    assert not _covers_at_level(own, studies), own        # the largest's own: not (84.5 %)
    assert _covers_at_level(covered, studies), covered


def test_the_largest_team_effect_of_an_alternative_that_matters_covers_its_truth():
    """The alternatives beyond the noise of their own test (the teams' family past its
    Bonferroni bar; "Close these gaps first" lists those of them Holm keeps over the
    alternatives, sim/runner/rulings_gaps.py), read with their largest team effect. Planted:
    the alternative redraws a quarter of the winners from (0.35, 0.25, 0.2, 0.2): true changes
    +2.5, 0, -1.25, -1.25 points, found in about 44 % of studies. Of 2,000 studies 871 matter, and
    the largest team's own 95 % interval held its truth in 752 of them (86.3 %): the estimate that
    crossed the bar leans past the truth (winner's curse). At the family's level (as shown now) it
    covers at 95 %."""
    covered = matters = 0
    for teams, z, crit, truth in _rulings_team_studies(2000, [0.35, 0.25, 0.2, 0.2], 3):
        if z > crit:
            k, shown = _largest(teams)
            matters += 1
            covered += shown["low"] <= truth[k] <= shown["high"]
    assert matters > 500
    assert _covers_at_level(covered, matters), (covered, matters)


def test_the_largest_card_effect_s_interval_covers_when_nothing_changed():
    """The detail line "largest card effect: <card> rating +x [low, high] (|z|)": the card of
    largest |z| of those in play, with its own 95 % interval (paired rating change, boards'
    jackknife). Planted as tests/test_rulings_statistics.py's card family (24 cards, 512 games
    on 32 boards, an alternative that changes nothing; every true change 0). Each card's own
    interval is calibrated there (95.4 %); the largest's own covered 93 of 300 studies (31 %; 13
    of the 30 here): the largest of 24 |t| is rarely under 2.04. Shown now at the family's level
    over the cards in play (sim.runner.rulings_compare.largest_card), it covers at 95 %."""
    from sim.analysis.paired_ratings import paired_rating_change
    from sim.runner.rarity import team_card_rows, winner_places
    from sim.runner.rulings_compare import _z, largest_card
    from tests.test_rulings_statistics import _planted_ruling_games

    n_cards, games, boards, studies = 24, 512, 32, 30
    rng = np.random.default_rng(np.random.SeedSequence(99))
    covered = 0
    for _ in range(studies):
        seat_cards, before, after = _planted_ruling_games(rng, games, boards, np.zeros(n_cards))
        rows, items = team_card_rows(seat_cards, n_cards)
        change = paired_rating_change(rows, items, winner_places(before), winner_places(after),
                                      np.arange(games) % boards)
        cards = [{"card": c, "delta": float(change.delta[c]), "se": float(change.se[c]),
                  "z": _z(change.delta[c], change.se[c])} for c in range(n_cards)]
        shown = largest_card({"cards": cards, "df": int(change.df)})
        covered += shown["low"] <= 0.0 <= shown["high"]
    assert _covers_at_level(covered, studies), covered


# the spread of true distances to the band's edge (in standard errors) of the cards nearest it,
# as docs/advice.md measured them over five runs of the shipped study: 6.9, 5.6, 5.6 (flagged
# in every run), then 2.9, 2.5, 2.4, 1.6, ... ; the other cards lie inside the band
CONTINUUM = (6.9, 5.6, 5.6, 2.9, 2.5, 2.4, 1.6, 1.2, 1.0, 0.8, 0.5)


def _flag_coverage(studies: int, df, correction: str, seed: int):
    """Planted as in :func:`test_a_flagged_card_s_rating_interval_covers_its_true_rating`;
    (flags, flagged cards whose own 95 % interval holds the truth, those whose interval given
    the flag holds it, the widths given the flag over the own interval's)."""
    from sim.runner.rarity import band_tests
    from sim.runner.rarity_flags import flag_intervals

    n, se = 72, 0.078
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    truth = np.full(n, 0.05)
    truth[:len(CONTINUUM)] = 0.2 + np.asarray(CONTINUUM) * se
    low, high, played = np.full(n, -0.1), np.full(n, 0.2), np.ones(n, bool)
    q = student_t.ppf(0.5 + LEVEL / 2, df) if df else 1.959964
    flags = own = given = 0
    widths = []
    for _ in range(studies):
        noise = rng.standard_t(df, n) if df else rng.standard_normal(n)
        rating = truth + se * noise
        p, _, outlier = band_tests(rating, np.full(n, se), low, high, played, df, 0.05,
                                   correction)
        lo, hi = flag_intervals(rating, np.full(n, se), p, outlier, (low, high), played, df,
                                LEVEL, correction)
        f = np.flatnonzero(outlier != 0)
        flags += f.size
        own += int(np.sum(np.abs(rating[f] - truth[f]) <= q * se))
        given += int(np.sum((lo[f] <= truth[f]) & (truth[f] <= hi[f])))
        widths += list((hi[f] - lo[f]) / (2 * q * se))
    return flags, own, given, np.asarray(widths)


def test_a_flagged_card_s_rating_interval_covers_its_true_rating():
    """``bwlab rarity`` prints each flagged card's rating with a 95 % interval. Planted: 72
    cards of one band [-0.1, 0.2] (held fixed, so only the cards' own error selects), rating
    standard error 0.078 on 63 df (64 boards: the shipped study at 4,000 games), 11 cards above
    the band at :data:`CONTINUUM` standard errors, the rest at its middle; the lab's
    ``band_tests`` (Holm, 5 %) flags. Over 2,000 studies the card's own interval held the truth
    in 6,965 of 7,471 flags (93.2 %), missing on the band's side: a card near the edge is
    flagged when its estimate lies far out. The interval given the flag
    (``rarity_flags.flag_intervals``, the hybrid interval) held it in 95.8 % (measured), at a
    median width 1.10 times the own interval's. Here 600 studies: the own interval is shown
    short (so the check can fail), the one given the flag is not, and it is never wider than
    the projection (the simultaneous interval over the 72 cards at 0.5 %: 2.13 times)."""
    flags, own, given, widths = _flag_coverage(600, 63, "holm", 7301)
    assert flags > 2000
    assert binomtest(own, flags, LEVEL, alternative="less").pvalue < 0.01, (own, flags)
    assert _covers_at_level(given, flags), (given, flags)
    assert np.median(widths) < 1.3 and widths.max() <= 2.14, np.percentile(widths, [50, 100])


@pytest.mark.parametrize("df, correction", [(None, "holm"), (63, "bh"), (63, "bonferroni")])
def test_the_flag_s_interval_covers_under_every_correction_and_error_law(df, correction):
    """The interval given the flag describes the flag's own rule: the threshold the study's
    correction (``--correction``: Holm, Benjamini-Hochberg, Bonferroni) would still have passed
    given the other cards, on the ratings' law (t on the boards' df, or normal for a study
    without boards). Planted as above, 400 studies each: covers at 95 % among the flags."""
    flags, _, given, _ = _flag_coverage(400, df, correction, 7302)
    assert flags > 1200
    assert _covers_at_level(given, flags), (given, flags)


def test_fairness_pairs_chosen_after_the_fact_keep_their_simultaneous_intervals():
    """``bwlab fairness``'s pairwise differences are simultaneous (1 - 0.05 / 6 each,
    sim.analysis.balance.pairwise_differences), so a reader may pick a pair after seeing them.
    Planted: four equal teams in duplicate play, 64 blocks on 32 boards, each board favouring
    seats by N(0, 0.5) in log-odds (every team meets each seat once a block: every true
    difference 0), 1,000 studies: the pair of the largest |difference| has an interval holding
    0 at least 95 % of the time (measured 96.5 %), and a study with any pair told apart
    ("A is ahead of B", all false here) happens in at most alpha (measured 3.5 %)."""
    from sim.analysis.balance import pairwise_differences
    from sim.analysis.fairness import game_values

    rng = np.random.default_rng(np.random.SeedSequence(1))
    studies, blocks, boards = 1000, 64, 32
    board = np.arange(blocks) % boards
    covered = told_apart = 0
    for _ in range(studies):
        seat = rng.normal(0.0, 0.5, (boards, 4))[board]
        u = np.stack([np.roll(seat, r, axis=1) for r in range(4)], axis=1)
        p = np.exp(u) / np.exp(u).sum(axis=-1, keepdims=True)
        winner = (rng.random((blocks, 4))[..., None] > np.cumsum(p, axis=-1)).sum(axis=-1)
        pairs, _ = pairwise_differences(game_values(winner.reshape(-1)).reshape(blocks, 4, 4),
                                        clusters=board)
        big = max(pairs, key=lambda pr: abs(pr.difference))
        covered += big.low <= 0.0 <= big.high
        told_apart += any(pr.apart for pr in pairs)
    assert _covers_at_level(covered, studies), covered
    assert binomtest(told_apart, studies, 0.05, alternative="greater").pvalue > 0.01, told_apart


def _drift_plant(elo: float, seed: int):
    """The drift gate's planted design (tests/test_drift_suite_level.py: the shipped suite, the
    gate's own round loop, boards favouring teams by N(0, 0.6)) with ``elo`` added to the
    first team today: (suite, experiment, cap, board, boards, alpha, each team's true change in
    Elo, the draws' generator, a state dict whose "effect" holds the boards' effects, and
    ``draw(stop, today)``: the winners of the first ``stop`` games)."""
    from sim.analysis.ratings import ELO_PER_NAT
    from tests.test_drift_suite_level import RATES, _shipped_suite

    suite, exp, cap, board, n_boards, alpha = _shipped_suite()
    lift = np.array([elo / ELO_PER_NAT, 0.0, 0.0, 0.0])

    def shares(effect, today):
        u = np.log(RATES)[None, :] + effect + (lift if today else 0.0)
        return np.exp(u) / np.exp(u).sum(axis=1, keepdims=True)

    z = np.random.default_rng(0).normal(0.0, 0.6, (400_000, 4))
    before, after = shares(z, False).mean(0), shares(z, True).mean(0)
    truth = (np.log(after / (1 - after)) - np.log(before / (1 - before))) * ELO_PER_NAT
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    state = {}

    def draw(stop, today):
        p = shares(state["effect"][board[:stop]], today)
        return (rng.random(stop)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)

    return suite, exp, cap, board, n_boards, alpha, truth, rng, state, draw


def test_the_elo_interval_of_a_metric_called_drift_covers_its_true_change(monkeypatch):
    """``bwlab drift`` prints each metric's Elo change with its interval beside its decision,
    and the exit code acts on the metrics called drift_up or drift_down.
    tests/test_drift_suite_level.py checks the intervals over every suite (at 0 and +60 Elo,
    where the gate alarms on the planted team nearly always). Planted as there (the shipped
    suite, the gate's own round loop, boards favouring teams by N(0, 0.6)), at +35 Elo, half
    the gate's delta: true changes +31.6, -13.0, -17.1, -13.4 Elo. The interval shipped
    until 2026-12-07 (moved for where the gate stopped, over all runs) held the truth in 152
    of the 233 metrics called drift over 1,000 suites (65.2 %; 0 of 57 for the teams whose
    small true changes are called drift only when their estimate lies far out); here 15 of
    23, shown short of 95 %. A metric called drift now gets its interval given the call
    (sim/analysis/called_interval.py), which covers at 95 % given the call; a metric not
    called its interval given no call (sim/analysis/quiet_interval.py). Measured with
    another seed over 1,000 suites: given the call 93.4 % of 227 (its pivot, the conditional
    tail at the truth, outside [2.5 %, 97.5 %] in 6.6 %); here 22 of 23 calls, and of the 457
    metrics not called 436 with the moved interval (95.4 %), 438 given no call. Measured
    end to end at 0, +35, +60 and +100 Elo (docs/intervals.md, "Given the gate's call"):
    90.5 % of 95, 96.1 % of 332, 95.0 % of 948 and 97.6 % of 1,010 calls, none short of 95 %
    at 1 %; the 120 suites here cannot tell 95 % from 93 % (about 1,000 calls would)."""
    from sim.runner import drift
    from sim.runner.drift_interval import with_stopped_intervals

    suite, exp, cap, board, n_boards, alpha, truth, rng, state, draw = _drift_plant(35.0, 3535)

    def holds(t, k):
        return t.elo_interval[0] <= truth[k] <= t.elo_interval[1]

    monkeypatch.setattr(drift, "_games", lambda arena, start, stop:
                        {"winner_team": state["after"][start:stop]})
    called = np.zeros(3, int)     # calls, held by the interval given the call, by the old one
    quiet = np.zeros(2, int)      # metrics not called, held by their (moved) interval
    for _ in range(120):
        state["effect"] = rng.normal(0.0, 0.6, (n_boards, 4))
        recorded = {"winner_team": draw(cap, False), "games": None}
        state["after"] = draw(cap, True)
        tests, _, played = drift._gate_rounds(exp, suite, recorded, cap, None, None, alpha)
        shown = with_stopped_intervals(tests, exp, suite, cap, alpha, recorded["winner_team"],
                                       played["winner_team"])
        # the old interval is read for the metrics called drift alone
        old = (_moved_over_all_runs(tests, exp, suite, cap, alpha, recorded, played)
               if any(t.decision.startswith("drift") for t in tests) else None)
        for k, (t, m) in enumerate(zip(tests, shown)):
            if t.decision.startswith("drift"):
                called += (1, holds(m, k), holds(old[k], k))
            else:
                quiet += (1, holds(m, k))
    assert called[0] > 15
    assert not _covers_at_level(called[2], called[0]), called     # the old one: short
    assert _covers_at_level(called[1], called[0]), called
    assert _covers_at_level(quiet[1], quiet[0]), quiet


def _moved_over_all_runs(tests, exp, suite, cap, alpha, recorded, played):
    """The interval shipped before the call was conditioned on: the fixed-size one moved by
    the median-unbiased change minus the estimate, for every metric."""
    from dataclasses import replace

    from sim.analysis.fairness import game_values
    from sim.analysis.stopped_interval import median_unbiased_elo_changes
    from sim.runner.drift_interval import gate_rule
    from sim.runner.schedule import schedule

    g = tests[0].games
    unbiased = median_unbiased_elo_changes(game_values(recorded["winner_team"][:g]),
                                           game_values(played["winner_team"][:g]),
                                           schedule(exp, 0, g).board, gate_rule(suite, cap, alpha))
    return [replace(t, elo_interval=(t.elo_interval[0] + m - t.elo_change,
                                     t.elo_interval[1] + m - t.elo_change))
            for t, m in zip(tests, unbiased)]


def test_the_elo_interval_of_a_large_change_the_gate_misses_covers_it(monkeypatch):
    """The other side of the call: ``bwlab drift`` passes with "no drift, change +12 (-20 ...
    +40)", and a CI user reads that as "the change is at most +40 Elo". Over all metrics not
    called the moved interval covered 95-97 % (docs/intervals.md), but not for each truth given
    no call: a large change the gate misses was missed because its estimate came out low.
    Planted as above at +58 Elo on the first team (true change +52.3 Elo, near the gate's power
    edge: it misses about 5 % of suites), the first 400 suites of a fixed seed; among those
    that do not call the planted team, its printed interval must hold +52.3 at 95 % (one-sided
    binomial test at 1 %). The moved interval held it in 7 of 16 here (12 of 25 over 500
    suites; at +60 Elo 7 of 24 over 600, 1 of 19 over 700 with another seed): a strict xfail
    until 2026-12-07. A metric not called now gets its interval given no call
    (sim/analysis/quiet_interval.py: the fixed-size interval at the median-unbiased change given
    no call, its side away from zero reaching the ordering interval's end given no call): 16 of
    16 here, and at 0 Elo 95.3 % of 400 metrics (tests/test_drift_suite_level.py's suites).
    Tried before (docs/intervals.md, "Given no call"): the ordering interval given no call
    alone (16 of 16, but 93.5 % at 0 Elo: the other teams' estimates plugged in for their
    truths) and the hull of it and the moved one (over: 97.5 % at 0 and +60 Elo)."""
    from sim.runner import drift
    from sim.runner.drift_interval import with_stopped_intervals

    suite, exp, cap, board, n_boards, alpha, truths, rng, state, draw = _drift_plant(58.0, 6058)
    truth = truths[0]

    monkeypatch.setattr(drift, "_games", lambda arena, start, stop:
                        {"winner_team": state["after"][start:stop]})
    missed = held = 0
    for _ in range(400):
        state["effect"] = rng.normal(0.0, 0.6, (n_boards, 4))
        recorded = {"winner_team": draw(cap, False), "games": None}
        state["after"] = draw(cap, True)
        tests, _, played = drift._gate_rounds(exp, suite, recorded, cap, None, None, alpha)
        if tests[0].decision.startswith("drift"):
            continue
        shown = with_stopped_intervals(tests, exp, suite, cap, alpha, recorded["winner_team"],
                                       played["winner_team"])
        missed += 1
        held += shown[0].elo_interval[0] <= truth <= shown[0].elo_interval[1]
    assert missed >= 12, missed
    assert _covers_at_level(held, missed), (held, missed)
