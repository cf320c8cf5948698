"""Advice a GM and a designer can act on (issue #21), the parts that need no games: the
confirmation loop with a planted judge, the surrogate's proposals, the exact budget check, the
rarity tests against the band edges, the remedy's "lands", the budget's plain conclusion."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from sim.analysis.fairness import fairness_verdict
from sim.analysis.power_level import budget_feasible
from sim.runner.confirm import confirm
from sim.runner.suggest import gap, swap_proposals


def _judge_with_truth(truth, blocks=400, seed=0):
    """A judge that "plays" a team set: duplicate blocks drawn with the planted chances
    ``truth(teams)``, judged by the real fairness verdict (clustered by board)."""
    calls = []

    def judge(teams, games):
        rng = np.random.default_rng([seed, len(calls)])
        n = games // 4
        winner = rng.choice(4, size=(n, 4), p=truth(teams))
        v = fairness_verdict(np.eye(4)[winner], tolerance=0.05, clusters=np.arange(n) % 50)
        calls.append(games)
        return SimpleNamespace(verdict=v, games=games)
    return judge, calls


def test_only_a_proposal_the_judge_calls_fair_is_confirmed():
    """Issue #21 item 1: "propose with a cheap surrogate, confirm with duplicate play, and
    iterate ... print only confirmed swaps". Planted: the surrogate's first two proposals are in
    truth unfair (35 % / 15 %), the third is fair; the loop judges them in order and confirms the
    third, within the game budget."""
    truth = {0: [0.35, 0.25, 0.25, 0.15], 1: [0.35, 0.25, 0.25, 0.15], 2: [0.25] * 4}
    judge, calls = _judge_with_truth(lambda t: truth[int(t[0, 0])], seed=1)
    proposals = [(f"p{k}", np.full((4, 5), k)) for k in range(4)]
    res = confirm(proposals, judge, budget=20_000, per_check=4000)
    assert [t.label for t in res.trials] == ["p0", "p1", "p2"]
    assert res.confirmed is not None and res.confirmed.label == "p2" and res.confirmed.fair
    assert not res.trials[0].fair and res.games == sum(calls) <= 20_000


def test_no_fair_set_within_the_budget_reports_the_best_measured():
    """Otherwise: "no fair set found within N games; best found: ..." — nothing confirmed, the
    best is the one *measured* closest to fair, and the budget is never exceeded."""
    truth = {0: [0.45, 0.25, 0.15, 0.15], 1: [0.35, 0.25, 0.25, 0.15], 2: [0.40, 0.2, 0.2, 0.2]}
    judge, calls = _judge_with_truth(lambda t: truth[int(t[0, 0])], seed=2)
    res = confirm([(k, np.full((4, 5), k)) for k in range(3)], judge, budget=6000,
                  per_check=2400)
    assert res.confirmed is None and res.best.label == 1
    assert calls == [2400, 2400, 1200] and res.games == 6000 == res.budget


def test_the_budget_is_what_the_proposals_there_are_can_take():
    """A budget of 8 checks with 3 proposals is at most 3 checks: the budget said (and the
    progress line's "of at most") is 3 x per_check, not the 8 x per_check asked for."""
    truth = {k: [0.45, 0.25, 0.15, 0.15] for k in range(3)}
    judge, calls = _judge_with_truth(lambda t: truth[int(t[0, 0])], seed=3)
    res = confirm(((k, np.full((4, 5), k)) for k in range(3)), judge, budget=8 * 400,
                  per_check=400)
    assert res.confirmed is None and calls == [400, 400, 400]
    assert res.budget == 1200 == res.games


def test_swap_proposals_fix_a_stacked_set_by_the_surrogate():
    """A clearly stacked set (team 4 holds the five best cards): every proposal is within K swaps,
    holds the same 20 cards, improves on the teams as given, and comes best first."""
    rating = np.linspace(-1, 1, 20)
    teams = np.arange(20).reshape(4, 5)
    props = swap_proposals(teams, rating, 3)
    assert len(props) >= 6
    gaps = [gap(t, rating) for _, t in props]
    assert gaps[0] < gap(teams, rating) / 3 and gaps[0] == pytest.approx(min(gaps), abs=0.02)
    for swaps, t in props:
        assert 1 <= len(swaps) <= 3 and sorted(t.ravel().tolist()) == list(range(20))
    keys = {tuple(map(tuple, np.sort(t, axis=1).tolist())) for _, t in props}
    assert len(keys) == len(props)


def test_an_impossible_budget_says_so():
    """Arena: "The total power level of each team must equal 10 or less". Six level-4 cards
    among 20 force some team to hold two of them with three level-1 cards, 11 > 10: no split fits,
    although the pool's total (38) is within 4 x 10; four level-4 cards fit."""
    assert not budget_feasible([4] * 6 + [1] * 14, 10)
    assert budget_feasible([4] * 4 + [1] * 16, 10)
    assert not budget_feasible([3] * 20, 10) and budget_feasible([2] * 20, 10)
    with pytest.raises(ValueError):
        budget_feasible([1] * 19, 10)


def test_bands_always_hold_their_own_median():
    """Issue #21 item 2: "band edges that can never exclude their own median" — with Silver's
    median below Bronze's, halfway to a neighbour would lie beyond it."""
    from sim.runner.rarity import band_edges

    med = np.array([0.0, -0.2, 0.5, np.nan, 1.0])
    low, high = band_edges(med)
    ok = ~np.isnan(med)
    assert np.all((low[ok] <= med[ok]) & (med[ok] <= high[ok]))
    assert low[0] == -np.inf and high[4] == np.inf and np.isnan(low[3])


def test_flags_are_corrected_and_a_weak_card_never_plays_like_a_higher_rarity():
    """Per-card tests against the band edges, Holm-corrected over the cards in play: 70 cards
    truly on their band's top edge, rated with noise, are flagged by chance by uncorrected tests
    (about 5 % of them), never by Holm here; a planted card far above its band is flagged either
    way, and "plays like" a higher rarity; a weak card is never said to play like a higher one."""
    from sim.runner.rarity import band_tests, plays_like

    rng = np.random.default_rng(4)
    n = 72
    rating = 0.2 + rng.normal(0, 0.1, n)
    rating[0], rating[1] = 2.0, -0.9
    se = np.full(n, 0.1)
    low, high = np.full(n, -0.2), np.full(n, 0.2)
    played = np.ones(n, bool)
    _, _, raw = band_tests(rating, se, low, high, played, 63, 0.05, "none")
    _, p_adj, holm = band_tests(rating, se, low, high, played, 63, 0.05, "holm")
    assert holm[0] == 1 and holm[1] == -1 and np.count_nonzero(holm) == 2
    assert np.count_nonzero(raw) > 2 and np.all(p_adj >= 0)
    median = np.array([-1.0, 0.0, 1.0, 2.0])       # rarity 1 is the cards' own
    rarity = np.ones(n, np.int64)
    like = plays_like(rating, median, rarity, holm)
    assert like[0] == 3 and like[1] == 0
    assert plays_like(np.array([0.45]), median, np.array([1]), np.array([-1]))[0] == 1


def test_a_remedy_lands_only_with_its_interval_inside_and_says_what_settles_it():
    """`--remedy` says "lands" only when its interval lies inside the band; otherwise how many
    more replays would settle it (the replayed part shrinks as 1/sqrt(games))."""
    from sim.runner.remedy import Candidate, Check, replays_to_settle

    z, se0 = 1.96, 0.05
    cand = Candidate("max_health", 100, 90, 10.0, 9.0)
    half = z * np.sqrt(se0 ** 2 + 0.2 ** 2)          # shift SE 0.2 at 100 games
    check = Check(0, cand, 0.0, -half, half, 0.0, 100)
    n = replays_to_settle(check, se0, z, -0.3, 0.3)
    room = 0.3 / z
    assert n == int(np.ceil(100 * 0.04 / (room ** 2 - se0 ** 2)))
    shift_at_n = 0.2 * np.sqrt(100 / n)
    assert z * np.sqrt(se0 ** 2 + shift_at_n ** 2) <= 0.3 + 1e-9
    assert replays_to_settle(check, 0.2, z, -0.3, 0.3) == -1   # the study itself too wide


def _validation(f_w, u_w, n_w, f_o, u_o, n_o):
    from sim.analysis.budget_fairness import fair_shares

    def group(f, u, n):
        return ["fair"] * f + ["unfair"] * u + ["open"] * (n - f - u)

    s = fair_shares(group(f_w, u_w, n_w) + group(f_o, u_o, n_o), np.arange(n_w + n_o) < n_w)
    return SimpleNamespace(fair_within=s.within, fair_over=s.over, fair_difference=s.difference,
                           tolerance=0.05, budget=10, built=np.ones(n_w + n_o, bool),
                           set_games=256)


@pytest.mark.parametrize("args,start", [
    ((0, 12, 12, 0, 12, 12), "The team budget does not predict fairness here: 12 of 12"),
    ((18, 0, 20, 0, 18, 20), "The team budget predicts fairness here: 18 of 20"),
    ((25, 70, 100, 0, 100, 100), "The team budget helps but does not make games fair"),
    ((0, 0, 0, 0, 3, 8), "The team budget could not be tested"),
])
def test_power_levels_budget_conclusion_is_one_plain_sentence(args, start):
    """Issue #21 item 4: "The team budget does not predict fairness here: 4 of 4 budget-built
    sets were unfair" — first, before the statistics; each set counted by its own verdict."""
    from sim.cli.power_levels import budget_conclusion

    text = budget_conclusion(_validation(*args))
    assert text.startswith(start) and text.endswith(".") and text.count(". ") == 0


def test_recurrence_counts_the_runs_that_flag_a_card_the_same_way():
    """Issue #21 item 2: "each outlier's recurrence over replicates" — the runs flagging a card
    as the main study does; the agreement of the flagged sets; cards with one verdict throughout."""
    from sim.runner.rarity_recurrence import Recurrence, replicate_seed

    flags = np.array([[1, 1, 1], [1, 0, 1], [-1, 1, 0], [0, 0, 1], [0, 0, 0]])
    r = Recurrence((1, 2, 3), flags)
    assert r.count().tolist() == [3, 2, 1, 0, 0]
    s = r.summary()
    assert s["flagged_in_any"] == 4 and s["flagged_in_every"] == 1 and s["agreement"] == 0.25
    assert s["cards_same_in_every_run"] == pytest.approx(2 / 5)
    assert s["flagged_per_run"] == [3, 2, 3]
    assert replicate_seed(424242, 1) == replicate_seed(424242, 1) != replicate_seed(424242, 2)


@pytest.mark.parametrize("args,words", [
    (("rarity", "--correction", "sidak"), "--correction"),
    (("rarity", "--replicates", "0"), "--replicates"),
    (("draft", "--random", "20", "--team-budget", "30"), "--team-budget"),
    (("draft", "--random", "20", "--no-alternating", "--team-budget", "10"), "--team-budget"),
    (("draft", "--random", "20", "--proposals", "0"), "--proposals"),
    (("fairness", "experiments/teams/example.toml", "--proposals", "0"), "--proposals"),
])
def test_new_flags_refuse_bad_input_with_exit_2(capsys, args, words):
    """Bad input or flags: exit 2 and a message naming the flag, before any game is played."""
    from tests._cli_kit import run

    code, _, err = run(capsys, *args)
    assert code == 2 and words in err


def test_in_band_is_claimed_only_when_shown_and_false_claims_stay_under_alpha():
    """Issue #21 item 2 ("rarity verdicts that hold"): a card is called *in band* only when two
    one-sided tests against its edges, Holm-corrected over the cards in play, show it inside.
    Planted truth, the hardest case: 72 cards whose true ratings sit exactly on an edge of
    [-0.2, 0.2] (half on each), rated with N(0, 0.1) noise, 400 replications: a replication with
    any card called in band is a false verdict; the family-wise rate must stay under alpha = 5 %
    (binomial test, one-sided, 1 %: a rate of 10 % would fail with power 0.9999). Cards truly deep
    inside (around 0.0 with SE 0.02: 10 standard errors from each edge) are all called in band; an
    open edge (the lowest or highest rarity) needs no test."""
    from scipy.stats import binomtest

    from sim.runner.rarity import inside_tests

    rng = np.random.default_rng(2121)
    n, reps = 72, 400
    truth = np.where(np.arange(n) % 2 == 0, -0.2, 0.2)
    low, high, played = np.full(n, -0.2), np.full(n, 0.2), np.ones(n, bool)
    false = sum(bool(inside_tests(truth + rng.normal(0, 0.1, n), np.full(n, 0.1), low, high,
                                  played, None, 0.05, "holm").any()) for _ in range(reps))
    assert binomtest(false, reps, 0.05, alternative="greater").pvalue > 0.01, false
    deep = inside_tests(rng.normal(0, 0.02, n), np.full(n, 0.02), low, high, played, None, 0.05,
                        "holm")
    assert deep.all()
    open_top = inside_tests(np.array([5.0]), np.array([0.1]), np.array([0.2]),
                            np.array([np.inf]), np.ones(1, bool), None, 0.05, "holm")
    assert open_top.all()


def test_undecided_cards_say_how_many_games_would_settle_them():
    """A card neither shown outside nor inside is *undecided*, with the games that would settle
    it: its standard error shrinks as 1/sqrt(games), so at ``games_to_settle`` games its distance
    to the nearer edge reaches the Bonferroni bar (which Holm's never exceeds)."""
    from scipy.stats import norm

    from sim.runner.rarity import RarityStudy

    n = 4
    rating = np.array([0.15, 0.5, 0.0, 0.199999])
    se = np.full(n, 0.1)
    s = RarityStudy(4000, np.full(n, 100.0), np.zeros(n), np.zeros(n), np.zeros(n), rating,
                    rating - 0.2, rating + 0.2, np.zeros(1), np.full(n, -0.2), np.full(n, 0.2),
                    True, np.array([0, 1, 0, 0]), np.zeros(n, np.int64), 64, se,
                    inside=np.array([False, False, True, False]))
    assert s.verdict.tolist() == ["undecided", "strong", "in band", "undecided"]
    need = s.games_to_settle()
    z_bar = norm.isf(0.05 / n)
    assert need[1] == need[2] == 0 and np.isinf(need[3])
    assert need[0] == np.ceil(4000 * (z_bar / 0.5) ** 2)   # 0.05 from the edge, SE 0.1: z 0.5
    assert 0.05 / (0.1 * np.sqrt(4000 / need[0])) >= z_bar - 1e-9


def test_recurrence_counts_contradictions_not_undecided_runs():
    """Across runs, a flag is contradicted when another run flags the card the other way or
    shows it inside its band; a run that leaves it undecided claims nothing."""
    from sim.runner.rarity_recurrence import Recurrence

    flags = np.array([[1, 0, 1], [1, 0, 0], [-1, 1, 0], [0, 0, 0]])
    inside = np.array([[False, False, False], [False, True, False], [False, False, False],
                       [True, True, True]])
    s = Recurrence((1, 2, 3), flags, inside).summary()
    assert s["contradicted"] == 2 and s["flagged_in_any"] == 3
    assert s["agreement_without_contradiction"] == pytest.approx(1 / 3)
    assert s["undecided_per_run"] == [0, 1, 2]


def test_plays_like_follows_the_book_s_order_when_the_medians_come_out_reversed():
    """The audit of stop 55: on 500 games Silver's median came out above Gold's, and "plays
    like" (nearest median) then called a Bronze card at -0.226 "like Gold" and a stronger one
    at -0.179 "like Silver"; on 256 games the weakest card of all, a Bronze, played "like
    Silver". The medians are now put in the book's order first (isotonic regression), so the
    rarity a card plays like never falls as its rating rises, and a weak card of the lowest
    rarity plays like it."""
    from sim.runner.rarity import plays_like

    median = np.array([-0.30, -0.19, -0.21, 0.10, 0.40])    # Silver and Gold reversed
    rating = np.linspace(-0.6, 0.6, 121)
    n = rating.size
    for own, stray in ((0, 1), (1, 0), (4, -1)):
        like = plays_like(rating, median, np.full(n, own), np.full(n, stray))
        assert np.all(np.diff(like) >= 0), (own, stray, like)
    weak = plays_like(np.array([-1.076]), np.array([-0.2, -0.25, 0.0]), np.array([0]),
                      np.array([-1]))
    assert weak[0] == 0
    # the audit's two cards: the stronger never plays like a lower rarity than the weaker
    pair = plays_like(np.array([-0.226, -0.179]), median, np.array([0, 0]), np.array([1, 1]))
    assert pair[0] <= pair[1]


def test_recurrence_line_with_no_card_flagged_says_so(capsys):
    """Issue #21 item 2's recurrence line when no run flags a card: "no card is flagged in any
    run", not "0 of the 0 cards flagged in any run are flagged the same way in every run
    (100 %)" (the stop-60 designer audit)."""
    import types

    import pandas as pd

    from sim.cli.rarity_text import echo_outliers
    from sim.runner.rarity_recurrence import Recurrence

    frame = pd.DataFrame({"outlier": ["", ""], "verdict": ["in band", "in band"]})
    study = types.SimpleNamespace(held=np.array([10, 12]), games=100)
    echo_outliers(frame, study, "holm", Recurrence((1, 2, 3), np.zeros((2, 3), np.int64)))
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("Recurrence")][0]
    assert "no card is flagged in any run" in line and "0 of the 0" not in line
    assert "100 % of the cards get the same flag (strong, weak or none) in every run" in line
