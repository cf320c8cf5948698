"""``bwlab rulings``: the statistics that say which house rulings matter (issue 20, item 3;
docs/rulings-impact.md, docs/intervals.md), checked on planted, simulated replays.

The paired rating change (zero for the same games, tighter than unpaired) and the boards'
jackknife against exact leave-one-board-out refits; the ranking; a change seen alike on a few
boards is not certain, and a team no game moved for keeps an interval covering the rule's
change; the rulings' card family keeps its alpha when the alternative changes nothing and each
card's interval holds a planted change.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.runner.rulings_compare import rank


def test_a_change_seen_alike_on_a_few_boards_is_not_certain():
    """Planted: four equal teams, and an alternative that redraws a share (1/4, 1/2 or all) of
    the games' winners from the same uniform law, so no team's chance changes; 1,000 studies
    of one block on each of 2 to 8 boards. A team whose change came out alike on every board
    had se 0, an interval without width and an infinite z, so its effect "mattered" (the
    zero-width rule below says so in more than 40 of the studies). Stated tests: one-sided
    binomial of the studies where the teams' family matters against its alpha (ALPHA / FAMILIES,
    p > 0.01); each 95 % interval covers the true change 0 at least at its rate (p > 0.01);
    every interval has width where the change is not exactly 0, within [-1, 1]."""
    from types import SimpleNamespace

    from scipy import stats

    from sim.runner.rulings_compare import ALPHA, FAMILIES, _family, fairness_effect

    rng = np.random.default_rng(np.random.SeedSequence(2512))
    runs, matters, zero_width_matters, misses = 1000, 0, 0, 0
    for i in range(runs):
        boards = 2 + i % 7
        before = rng.integers(0, 4, size=4 * boards)          # 4 games (rotations) a board
        redraw = rng.random(before.size) < (0.25, 0.5, 1.0)[i % 3]
        after = np.where(redraw, rng.integers(0, 4, size=before.size), before)
        base, run_ = (SimpleNamespace(fair_winner=w, fair_board=np.arange(boards),
                                      fair_trace=w[:, None]) for w in (before, after))
        fair = fairness_effect(base, run_, list("abcd"), 0.05)
        team_z, crit = _family(fair["teams"], fair["df"])
        matters += team_z > crit
        zero_width_matters += any(t["se"] <= 1e-12 and t["delta"] != 0 for t in fair["teams"])
        for t in fair["teams"]:
            assert -1.0 <= t["low"] <= t["delta"] <= t["high"] <= 1.0
            assert t["high"] > t["low"] or t["delta"] == 0
            misses += not t["low"] <= 0.0 <= t["high"]
    assert zero_width_matters > 40      # the hole the fallback closes is in this design
    assert stats.binomtest(matters, runs, ALPHA / FAMILIES, alternative="greater").pvalue > 0.01
    assert stats.binomtest(misses, 4 * runs, 0.05, alternative="greater").pvalue > 0.01


def test_paired_rating_change_is_zero_for_the_same_games_and_tighter_than_unpaired():
    """The paired error, by the boards' jackknife (the default) and by the joint sandwich:
    identical outcomes give exactly 0 ± 0; outcomes that mostly agree give a smaller SE than
    the two fits' SEs combined as if independent."""
    from sim.analysis.composition import composition_strengths
    from sim.analysis.paired_ratings import paired_rating_change
    from sim.runner.rarity import team_card_rows, winner_places

    rng = np.random.default_rng(2)
    n, n_cards = 600, 24
    seat_cards = np.stack([rng.permutation(n_cards)[:20].reshape(4, 5) for _ in range(n)])
    winner = rng.integers(0, 4, n)
    other = np.where(rng.random(n) < 0.1, rng.integers(0, 4, n), winner)
    boards = np.arange(n) % 30
    rows, items = team_card_rows(seat_cards, n_cards)
    se0 = composition_strengths(rows, items, winner_places(winner), clusters=boards).se
    se1 = composition_strengths(rows, items, winner_places(other), clusters=boards).se
    for jackknife in (True, False):
        same = paired_rating_change(rows, items, winner_places(winner), winner_places(winner),
                                    boards, jackknife=jackknife)
        assert np.all(same.delta == 0) and np.all(same.se == 0)
        moved = paired_rating_change(rows, items, winner_places(winner), winner_places(other),
                                     boards, jackknife=jackknife)
        assert np.allclose(moved.before,
                           composition_strengths(rows, items, winner_places(winner)).beta)
        assert np.all(moved.se < np.sqrt(se0 ** 2 + se1 ** 2))


def test_the_paired_jackknife_is_the_leave_one_board_out_refits_in_one_step():
    """The rulings' paired error (sim/analysis/paired_ratings.py): the boards' jackknife of the
    change, each leave-one-board-out fit of either replay one Newton step from its full fit.
    Slow reference: 2 x 16 exact refits without each board, the variance of their changes
    scaled by (G-1)/G, centred as the ratings are. On the planted rulings design at 256 games
    on 16 boards (:func:`_planted_ruling_games`), each card's variance within 8 % of the
    refits' (measured 0.94-1.02; the CR1 sandwich's 0.86-0.97 fails it, and is smaller on
    average: why the rulings take the jackknife), the change itself that of the two full fits,
    t on G - 1; fewer than two boards are refused as by the sandwich."""
    from sim.analysis.composition import composition_strengths
    from sim.analysis.paired_ratings import paired_rating_change
    from sim.analysis.ratings import _contrast_matrix
    from sim.runner.rarity import team_card_rows, winner_places

    n_cards, games, boards = 24, 256, 16
    shift = np.zeros(n_cards)
    shift[[2, 7, 12, 17, 21]] = [0.4, -0.3, 0.25, -0.4, 0.2]
    seat_cards, before, after = _planted_ruling_games(np.random.default_rng(53), games, boards,
                                                      shift)
    rows, items = team_card_rows(seat_cards, n_cards)
    board = np.arange(games) % boards
    jack = paired_rating_change(rows, items, winner_places(before), winner_places(after), board)
    centre = _contrast_matrix(n_cards, None)

    def fit(places, keep):
        return composition_strengths(rows, items[keep], places[keep], l2=1.0).beta

    changes = np.array([centre @ (fit(winner_places(after), board != b) - fit(winner_places(before),
                                                                        board != b))
                        for b in range(boards)])
    spread = changes - changes.mean(axis=0)
    exact = (boards - 1) / boards * np.diag(spread.T @ spread)
    np.testing.assert_allclose(jack.se ** 2, exact, rtol=0.08)
    sandwich = paired_rating_change(rows, items, winner_places(before), winner_places(after), board,
                                    jackknife=False)
    assert np.mean(sandwich.se ** 2) < np.mean(jack.se ** 2)
    everything = board >= 0
    whole = centre @ (fit(winner_places(after), everything)
                      - fit(winner_places(before), everything))
    np.testing.assert_allclose(jack.delta, whole, atol=1e-6)
    assert jack.df == boards - 1
    with pytest.raises(ValueError, match="at least 2 clusters"):
        paired_rating_change(rows, items, winner_places(before), winner_places(after),
                             np.zeros(games))


def test_rank_puts_what_matters_first():
    """``rank`` marks what matters by Holm over the alternatives' p-values (4 tested: 0.01 x 4
    and 0.012 x 3 pass 5 %, 0.03 x 2 does not), then orders by it and by score: the one of score
    2.0 that does not pass Holm's bar comes after those of score 1.0 that do."""
    def entry(p, z, changes=0):
        return {"p_value": p, "score": z, "verdicts_changed": ["x"] * changes,
                "engine_inputs_equal": False, "identical_games": False}

    ranked = rank([entry(0.03, 2.0), entry(0.012, 1.0, 1), entry(0.01, 5.0), entry(1.0, 0.0)])
    assert [(r["matters"], r["score"]) for r in ranked] == [(True, 5.0), (True, 1.0),
                                                            (False, 2.0), (False, 0.0)]
    assert [r["rank"] for r in ranked] == [1, 2, 3, 4]


def test_a_team_no_game_moved_for_keeps_an_interval_that_covers_the_rule_s_change():
    """A ruling that rarely changes a winner, on 2 boards of 4 games: often no game moves for a
    team, and its change read [0, 0]. Planted: each game is replayed with probability 15 %, its
    winner then drawn with team 1 at 70 % (else the three others alike); the true change of team
    1's chance to win is 0.15 * (0.70 - 0.25) = +6.75 points. Over 1,000 studies its interval
    must cover that at least 95 % of the time as far as a one-sided binomial test at 1 % can
    tell (it is [-u, +u], Clopper-Pearson for no change on 2 boards, where nothing moved); the
    same intervals with [0, 0] where nothing moved must fail that test. Identical replays give
    every team exactly that bound."""
    from types import SimpleNamespace

    from scipy import stats

    from sim.analysis.cluster import no_change_bound
    from sim.runner.rulings_compare import fairness_effect

    rng = np.random.default_rng(np.random.SeedSequence(4903))
    runs, covered, old, still, truth = 1000, 0, 0, 0, 0.15 * (0.70 - 0.25)
    for _ in range(runs):
        before = rng.integers(0, 4, size=8)
        replay = rng.random(8) < 0.15
        drawn = np.where(rng.random(8) < 0.70, 0, rng.integers(1, 4, size=8))
        after = np.where(replay, drawn, before)
        base, run_ = (SimpleNamespace(fair_winner=w, fair_board=np.arange(2), fair_trace=w[:, None])
                      for w in (before, after))
        team = fairness_effect(base, run_, list("abcd"), 0.05)["teams"][0]
        hit = team["low"] <= truth <= team["high"]
        moved = bool(np.any((before == 0) != (after == 0)))
        covered += hit
        old += hit and moved
        still += not moved
    assert still > 100
    assert stats.binomtest(covered, runs, 0.95, alternative="less").pvalue > 0.01, covered
    assert stats.binomtest(old, runs, 0.95, alternative="less").pvalue < 0.01, old
    same = rng.integers(0, 4, size=8)
    base = SimpleNamespace(fair_winner=same, fair_board=np.arange(2), fair_trace=same[:, None])
    for t in fairness_effect(base, base, list("abcd"), 0.05)["teams"]:
        assert (t["delta"], t["low"], t["high"]) == (0.0, -no_change_bound(2), no_change_bound(2))


def _planted_ruling_games(rng, games: int, boards: int, shift: np.ndarray):
    """Planted games for the rulings' card family: 24 cards of strength -0.6 .. 0.6, teams of
    five dealt at random, each board shifting each card by N(0, 0.5), the winner by a Gumbel
    draw on the team's total (a multinomial logit). The alternative adds ``shift`` to the
    cards' strengths and replays every game, half of them with the same Gumbel draws (the same
    seeds) and half with new ones: (seat cards, winner before, winner after). No shift: the
    alternative changes nothing, and half the games keep their winner."""
    n_cards = shift.size
    strength = np.linspace(-0.6, 0.6, n_cards)
    seat_cards = np.stack([rng.permutation(n_cards)[:20].reshape(4, 5) for _ in range(games)])
    suits = rng.normal(0.0, 0.5, (boards, n_cards))[np.arange(games) % boards]

    def totals(s):
        return np.take_along_axis(s[None, :] + suits, seat_cards.reshape(games, -1),
                                  1).reshape(games, 4, 5).sum(axis=2)

    luck = rng.gumbel(size=(games, 4))
    again = np.where(rng.random(games)[:, None] < 0.5, rng.gumbel(size=(games, 4)), luck)
    return (seat_cards, np.argmax(totals(strength) + luck, axis=1),
            np.argmax(totals(strength + shift) + again, axis=1))


def test_the_card_family_keeps_its_alpha_when_the_alternative_changes_nothing():
    """The rulings' card family (docs/intervals.md): every card's paired rating change, the
    largest |z| against the Bonferroni critical value of half the ruling's alpha. Planted: no
    alternative changes anything (it redraws half the games' winners from the same law), 24
    cards of planted strength, 512 games on 32 boards, each board shifting each card by
    N(0, 0.5). Over 300 studies the family says "matters" in at most 2.5 % as far as a one-sided
    binomial test at 1 % can tell (measured with the boards' jackknife, the paired error since
    stop 53: 8 of 300, also 8 on 1,024 games and 64 boards; with the sandwich before it 9). A
    family that tested each card at the family's 2.5 % (no Bonferroni over the 24 cards) fails
    it: 45 of 100 studies. And each card's own 95 %
    interval (the one the rulings print) covers its true change, none: the share of a study's 24
    intervals that hold 0 is not shown below 95 % over the 300 studies (one-sided t-test at 1 %;
    measured here 95.4 %, the sandwich 95.0 %)."""
    from scipy import stats

    from sim.analysis.paired_ratings import paired_rating_change
    from sim.runner.rarity import team_card_rows, winner_places
    from sim.runner.rulings_compare import ALPHA, FAMILIES, _family, _z

    n_cards, games, boards = 24, 512, 32
    rng = np.random.default_rng(np.random.SeedSequence(4910))
    matters = 0
    covered = []
    for _ in range(300):
        seat_cards, before, after = _planted_ruling_games(rng, games, boards, np.zeros(n_cards))
        rows, items = team_card_rows(seat_cards, n_cards)
        change = paired_rating_change(rows, items, winner_places(before), winner_places(after),
                                      np.arange(games) % boards)
        z, critical = _family([{"z": _z(change.delta[c], change.se[c])}
                               for c in range(n_cards)], change.df)
        matters += z > critical
        low, high = change.interval(0.95)
        covered.append(np.mean((low <= 0.0) & (0.0 <= high)))
    assert stats.binomtest(matters, 300, ALPHA / FAMILIES, alternative="greater").pvalue > 0.01
    assert stats.ttest_1samp(covered, 0.95, alternative="less").pvalue > 0.01, np.mean(covered)


def test_each_card_s_interval_holds_a_planted_change():
    """The rulings' card family's per-card 95 % intervals (paired rating change, clustered by
    board, t on boards - 1; docs/intervals.md) where the alternative truly changes five cards
    (+0.4, -0.3, +0.25, -0.4, +0.2 in strength; :func:`_planted_ruling_games`). The truth: each
    card's change of its rating over boards, from the same fit on 60,000 games a side (the
    board shifts average out; the strengths' changes come out attenuated, 0.31 for the +0.4,
    and centred). Over 200 studies of 512 games on 32 boards, the share of a study's 24
    intervals that hold the truth, and that of the five changed cards' intervals, are not shown
    below 95 % (one-sided t-tests over studies at 1 %). Measured with the boards' jackknife (the
    paired error since stop 53): 94.7 % and 95.0 % here, 95.1 % and 94.6 % over 400 studies with
    another seed, 95.5 % and 95.5 % on 256 games and 16 boards; the CR1 sandwich it replaced held
    94.4 % and 94.9 % on the same studies, 94.8 % and 94.1 %, 94.9 % and 94.9 %
    (docs/intervals.md, "The rulings' card family")."""
    from scipy import stats

    from sim.analysis.paired_ratings import paired_rating_change
    from sim.runner.rarity import team_card_rows, winner_places

    n_cards, games, boards = 24, 512, 32
    shift = np.zeros(n_cards)
    changed = [2, 7, 12, 17, 21]
    shift[changed] = [0.4, -0.3, 0.25, -0.4, 0.2]

    def change(rng, games, boards):
        seat_cards, before, after = _planted_ruling_games(rng, games, boards, shift)
        rows, items = team_card_rows(seat_cards, n_cards)
        return paired_rating_change(rows, items, winner_places(before), winner_places(after),
                                    np.arange(games) % boards)

    truth = change(np.random.default_rng(np.random.SeedSequence(77)), 60_000, 3_750).delta
    assert truth[2] > 0.25 and truth[17] < -0.25  # the planted changes show, attenuated
    rng = np.random.default_rng(np.random.SeedSequence(4912))
    held = []
    for _ in range(200):
        low, high = change(rng, games, boards).interval(0.95)
        held.append((low <= truth) & (truth <= high))
    held = np.array(held, dtype=float)
    for share in (held.mean(axis=1), held[:, changed].mean(axis=1)):
        assert stats.ttest_1samp(share, 0.95, alternative="less").pvalue > 0.01, share.mean()
