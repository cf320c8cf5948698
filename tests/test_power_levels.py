"""Arena: The Contest's balancing tools on Board Wars (issue #9 item 3): Power Levels from ratings,
the team-budget check, Arena's budgeted picks, the agreement statistics, the data file and
``bwlab power-levels``.

Source: ../shared/seeds/003_362dba6ff5520ffe.txt, "Hero Selection"."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binomtest, chisquare, spearmanr

from sim.analysis import power_level as pl
from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "cards"
ARENA_SHARES = (18, 27, 17, 14)  # names per level 1..4 in Arena's printed Power Level table


# -- ratings -> levels ---------------------------------------------------------------------------

def test_quantile_counts_copy_arenas_table_to_72_cards():
    """House ruling: levels in the proportions of Arena's printed table (18/27/17/14 of 76):
    72 cards -> cumulative 17.05, 42.63, 58.74 rounded half up = 17, 43, 59."""
    assert pl.quantile_counts(72, ARENA_SHARES).tolist() == [17, 43, 59]
    assert pl.quantile_counts(8, (1, 1, 1, 1)).tolist() == [2, 4, 6]
    assert pl.quantile_counts(10, (1, 1, 1, 1)).tolist() == [3, 5, 8]  # 2.5 and 7.5 round up


def test_quantile_cuts_and_levels_by_hand():
    """Eight ratings in equal shares: two cards per level, cuts halfway between neighbours; a
    rating on a cut goes up; an empty level 1 puts its cut at -inf."""
    rating = np.array([0.7, -0.4, 0.1, -0.9, 0.5, -0.2, 0.0, 0.3])
    cuts = pl.quantile_cuts(rating, (1, 1, 1, 1))
    np.testing.assert_allclose(cuts, [-0.3, 0.05, 0.4])
    assert pl.levels_from_cuts(rating, cuts).tolist() == [4, 1, 3, 1, 4, 2, 2, 3]
    assert pl.levels_from_cuts([0.05, 0.0499], cuts).tolist() == [3, 2]
    cuts0 = pl.quantile_cuts(rating, (0, 1, 1, 2))
    assert cuts0[0] == -np.inf
    assert np.bincount(pl.levels_from_cuts(rating, cuts0), minlength=5)[1:].tolist() == [0, 2, 2, 4]


# -- the budget check ----------------------------------------------------------------------------

def test_budget_check_is_arenas_rule():
    """"The total power level of each team must equal 10 or less": within iff every total <= 10;
    excess = total - budget; the favourite is the single highest total (-1 when shared)."""
    level = np.array([4, 3, 3, 2, 2, 2, 1, 1, 1, 1, 4, 4])
    teams = np.array([[0, 1, 6], [2, 3, 7], [4, 5, 8], [10, 11, 9]])  # totals 8, 6, 5, 9
    ok = pl.budget_check(teams, level, 10)
    assert ok.totals.tolist() == [8, 6, 5, 9] and ok.within and ok.favourite == 3
    assert ok.excess.tolist() == [-2, -4, -5, -1] and ok.spread == 4
    assert pl.budget_check(teams, level, 9).within  # "10 or less": a total at the budget is in
    over = pl.budget_check(teams, level, 8, names=["A", "B", "C", "D"])
    assert not over.within and over.excess.tolist() == [0, -2, -3, 1]
    assert "D 9 (over by 1)" in over.text and "A" not in over.text.split(":")[1]
    tie = pl.budget_check(np.array([[0, 6], [10, 7], [2, 3], [4, 5]]), level, 10)
    assert tie.totals.tolist() == [5, 5, 5, 4] and tie.favourite == -1


def test_can_finish_reproduces_arenas_worked_example():
    """"if your Boss is power level 4 and the first Hero you select is power level 3, your total is
    7. Your second Hero choice must have a power level lower than 3 to keep you under the maximum
    of 10, because otherwise any Hero you choose in the third round would exceed 10"."""
    cheapest = np.array([1, 1, 2, 3, 4])
    assert not pl.can_finish(7, 3, 1, cheapest, 10)
    assert pl.can_finish(7, 2, 1, cheapest, 10)
    assert pl.can_finish(9, 1, 0, cheapest, 10) and not pl.can_finish(9, 2, 0, cheapest, 10)


def test_alternating_draft_by_hand():
    """"Teams alternate selecting Heroes until each team has selected three", the Second Team
    first; "you must choose three Heroes without going over the maximum". Two teams, budget 7:
    both take a level 4, then a level 2 (a 3 would leave no room), then a level 1. Without the
    budget the picks alternate strictly (0-1-0-1-0-1, not a snake's 0-1-1-0-0-1)."""
    level = np.array([4, 4, 3, 3, 2, 2, 1, 1])
    rating = np.arange(8, 0, -1, dtype=float)
    pool = np.arange(8)
    budgeted = pl.alternating_draft(pool, level, rating, (0, 1), 7, True, per_team=3)
    assert budgeted.tolist() == [[0, 4, 6], [1, 5, 7]]
    free = pl.alternating_draft(pool, level, rating, (0, 1), 7, False, per_team=3)
    assert free.tolist() == [[0, 2, 4], [1, 3, 5]]
    second_first = pl.alternating_draft(pool, level, rating, (1, 0), 7, False, per_team=3)
    assert second_first.tolist() == [[1, 3, 5], [0, 2, 4]]
    # a budget no team can meet: every pick is the cheapest card left, best rating first
    tight = pl.alternating_draft(pool[:6], level, rating, (0, 1), 5, True, per_team=3)
    assert tight.tolist() == [[4, 2, 0], [5, 3, 1]]


def test_budget_draw_keeps_teams_within_and_picks_uniformly():
    """Random players under Arena's rule: every team ends within the budget, and a first pick is
    uniform over the cards that keep the team able to finish. Chi-square goodness of fit of 3000
    seeded first picks against uniform over the ten feasible cards, alpha = 0.01 (seed 11).

    Power against a feasible card never picked first (a budget check off by one): lambda =
    3000 / 9 = 333 on df 9, power 1.0 (noncentral chi-square); against a level-4 card picked
    (no room for a second card) the zero counts are exact."""
    level = np.array([1, 1, 1, 1, 2, 2, 4, 4, 1, 1, 1, 1])
    rng = np.random.default_rng(11)
    first = []
    for _ in range(3000):
        teams = pl.budget_draw(12, level, (0, 1, 2, 3), 4, rng, per_team=2)
        assert np.all(level[teams].sum(axis=1) <= 4)
        assert len(set(teams.ravel().tolist())) == 8
        first.append(int(teams[0, 0]))
    counts = np.bincount(first, minlength=12)
    assert counts[6] == counts[7] == 0  # a level 4 leaves no room for a second card (4 + 1 > 4)
    feasible = counts[[0, 1, 2, 3, 4, 5, 8, 9, 10, 11]]
    assert chisquare(feasible).pvalue > 0.01


# -- agreement statistics ------------------------------------------------------------------------

def test_per_game_spearman_by_hand_and_against_scipy():
    """Ties at average ranks: pred (1,1,2,2) vs (1,2,3,4) -> 4 / sqrt(4 * 5) = 0.894; a constant
    prediction ranks nobody (NaN); random rows equal scipy.stats.spearmanr."""
    rho = pl.per_game_spearman([[1, 2, 3, 4], [4, 3, 2, 1], [1, 1, 2, 2], [3, 3, 3, 3]],
                               [[.1, .2, .3, .4]] * 4)
    np.testing.assert_allclose(rho[:3], [1.0, -1.0, 4 / np.sqrt(20)])
    assert np.isnan(rho[3])
    rng = np.random.default_rng(5)
    x, y = rng.integers(5, 12, (20, 4)), rng.random((20, 4))
    ours = pl.per_game_spearman(x, y)
    for g in range(20):
        ref = spearmanr(x[g], y[g]).statistic if np.ptp(x[g]) else np.nan
        np.testing.assert_allclose(ours[g], ref, equal_nan=True)


def test_spearman_interval_fisher_z_by_hand():
    """Fieller, Hartley & Pearson (1957): z = atanh(rho) +- 1.96 * sqrt(1.06 / (n - 3))."""
    x = np.arange(28.0)
    y = x + np.where(np.arange(28) % 3 == 0, 6.0, -4.0)
    rho, lo, hi, n = pl.spearman_interval(x, y)
    assert n == 28 and rho == pytest.approx(spearmanr(x, y).statistic)
    half = 1.959964 * np.sqrt(1.06 / 25)
    assert lo == pytest.approx(np.tanh(np.arctanh(rho) - half), rel=1e-5)
    assert hi == pytest.approx(np.tanh(np.arctanh(rho) + half), rel=1e-5)


def test_mean_rho_t_interval_and_favourite_agreement_by_hand():
    """Mean of (0.2, 0.4, 0.6) = 0.4, se = 0.2 / sqrt 3, t(0.975, 2) = 4.3027: 0.4 +- 0.4968.
    Favourite: games 1 and 3 name one top team (game 2 ties): 1 hit of 2."""
    m = pl.mean_rho([0.2, np.nan, 0.4, 0.6])
    assert (m.mean, m.n, m.undefined) == (pytest.approx(0.4), 3, 1)
    assert m.low == pytest.approx(0.4 - 0.49683, abs=1e-4)
    assert m.high == pytest.approx(0.4 + 0.49683, abs=1e-4)
    pred = [[10, 9, 8, 7], [10, 10, 8, 7], [7, 8, 9, 12]]
    rate = [[.4, .3, .2, .1], [.1, .2, .3, .4], [.4, .3, .2, .1]]
    fav = pl.favourite_agreement(pred, rate)
    assert (fav.k, fav.n) == (1, 2) and fav.low < 0.5 < fav.high
    np.testing.assert_allclose(pl.largest_gap(rate), [0.15, 0.15, 0.15])



def _planted_rhos(rng, sets: int) -> np.ndarray:
    """Per-set rank correlations shaped like ``power-levels --validate-budget``'s: four teams'
    integer level totals (7-11, so ties), win rates 25 % + 5 points per level above the set's
    mean + N(0, 2 points) of simulation noise."""
    totals = rng.integers(7, 12, size=(sets, 4))
    rate = 0.25 + 0.05 * (totals - totals.mean(1, keepdims=True)) + rng.normal(0, 0.02, (sets, 4))
    return pl.per_game_spearman(totals, rate)


def test_the_mean_rank_correlation_s_interval_covers_at_its_stated_rate():
    """Planted truth: the mean of the per-set correlation under the law of
    :func:`_planted_rhos` (0.908, from 10^6 sets), 2,000 validations of 37 sets (the shipped
    sample's 48 sets less 11 with equal totals). Per-set correlations pile up at +1, so the mean
    is skewed and the Student t interval (``mean_rho`` before) held the truth in 91.5 % of 4,000
    studies (this seed's 2,000: 91.0 %); the interval holding both t and Hall's
    skewness-corrected t covers 95.9 % (this seed: 95.05 %). Test: two-sided binomial at 1 %
    against 95 % for the shipped interval; the t interval on the same studies must fail it (so
    the test can fail)."""
    rng = np.random.default_rng(21)
    truth = float(np.nanmean(_planted_rhos(rng, 1_000_000)))
    reps = 2000
    shipped = old = given = 0
    for _ in range(reps):
        r = _planted_rhos(rng, 37)
        m = pl.mean_rho(r)
        if np.isnan(m.low):
            continue
        given += 1
        shipped += m.low <= truth <= m.high
        t = pl.paired_mean_difference(r[~np.isnan(r)])
        old += max(-1.0, t.lower) <= truth <= min(1.0, t.upper)
    assert given >= 0.99 * reps
    assert binomtest(shipped, given, 0.95).pvalue > 0.01, (shipped, given)
    assert binomtest(old, given, 0.95).pvalue <= 0.01, (old, given)


# -- the data file -------------------------------------------------------------------------------

@pytest.fixture
def cards(tmp_path):
    return Path(shutil.copytree(SHIPPED, tmp_path / "cards"))


def test_shipped_file_loads_with_arenas_numbers():
    from sim.catalogue.arena_budget import load_arena_budget

    spec = load_arena_budget(SHIPPED)
    assert spec.budget == 10 and spec.rule == "quantile" and spec.order == (0, 1, 2, 3)
    np.testing.assert_allclose(spec.shares, np.array(ARENA_SHARES) / 76)
    assert spec.experiment == ROOT / "experiments" / "rarity.toml"


@pytest.mark.parametrize("old,new,where,words", [
    ("shares = [18, 27, 17, 14]", "shares = [18, 27, 17]", "levels.shares", "expected 4 numbers"),
    ("thresholds = [-0.3, 0.0, 0.3]", "thresholds = [0.3, 0.0, 0.4]", "levels.thresholds",
     "must rise strictly"),
    ("team = 10", "team = 3", "budget.team", "out of range [5, 20]"),
    ("order = [1, 2, 3, 4]", "order = [1, 1, 2, 3]", "draft.order", "each team 1..4 once"),
    ("rule = \"quantile\"", "rule = \"quantil\"", "levels.rule", "did you mean quantile"),
    ("games = 256 ", "games = 250 ", "validate.games", "not a multiple of 4"),
    ("sets = 48 ", "set = 48 ", "validate.set", "unknown key (did you mean sets"),
])
def test_bad_arena_budget_file_one_line_per_problem(capsys, cards, old, new, where, words):
    """Every mistake: ``file:line: field: problem``, exit 2, no traceback (bwlab validate)."""
    path = cards / "arena_budget.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    line = next(i for i, s in enumerate(path.read_text().splitlines(), 1) if s.startswith(new))
    code, _, err = run(capsys, "validate", cards)
    assert code == 2
    lines = [e for e in err.splitlines() if "arena_budget.toml" in e]
    assert len(lines) == 1, err
    assert f"arena_budget.toml:{line}: {where}: " in lines[0] and words in lines[0]


# -- the command ---------------------------------------------------------------------------------

def test_power_levels_cli_levels_follow_ratings(capsys, tmp_path):
    """Levels rise with the rating, in Arena's proportions (17/26/16/13 of 72 cards in play), the
    CSV holds every card, and the same seed gives the same levels."""
    out = tmp_path / "levels.csv"
    code, text, _ = run(capsys, "power-levels", "--games", "256", "--format", "json", "--out", out)
    assert code == 0
    data = json.loads(text)
    rating = np.array([c["rating"] for c in data["cards"]])
    level = np.array([c["level"] for c in data["cards"]])
    order = np.argsort(rating, kind="stable")
    assert np.all(np.diff(level[order]) >= 0)
    assert [data["counts"][k] for k in "1234"] == [17, 26, 16, 13]
    assert all(c["level_low"] <= c["level"] <= c["level_high"] for c in data["cards"])
    with out.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 72 and [int(r["level"]) for r in rows] == level.tolist()
    again = json.loads(run(capsys, "power-levels", "--games", "256", "--format", "json",
                           "--out", out)[1])
    assert again["cards"] == data["cards"]
    # issue #21 item 3: the balance metrics in every --format json, here of the fit's 256 games
    gb = data["games_balance"]
    assert gb["games"] == 256 and sum(w["wins"] for w in gb["wld"]) + gb["wld"][0]["no_winner"] == 256
    assert sum(x["share"] for x in gb["outcomes"].values()) == pytest.approx(1.0)


def test_validate_budget_report_is_consistent(capsys, tmp_path):
    """--validate-budget K: sets drafted under the budget are within it; within-budget flags match
    the totals; each set's win rates sum to one; shares count the right sets."""
    code, text, _ = run(capsys, "power-levels", "--games", "256", "--validate-budget", "4",
                        "--format", "json", "--out", tmp_path / "l.csv")
    assert code == 0
    v = json.loads(text)["validation"]
    assert v["sets"] == 4 and v["budget_built"] == 2 and v["budget"] == 10
    for s in v["game_sets"]:
        assert s["within_budget"] == all(t <= 10 for t in s["totals"])
        assert sum(s["win_probability"]) == pytest.approx(1.0)
        assert len({c for t in s["teams"] for c in t}) == 20
        if s["built_under_budget"]:
            assert s["within_budget"]
    n_within = sum(s["within_budget"] for s in v["game_sets"])
    assert v["fair_within_budget"]["n"] == n_within
    assert v["fair_over_budget"]["n"] == 4 - n_within
    # each set on boards of its own; 4 sets settle nothing either way (tests/test_budget_validation)
    assert v["boards_per_set"] == 64 and v["sets_share_boards"] is False
    assert v["verdict"] == "open" and v["conclusion"].startswith("Not settled with 4 sets")


@pytest.mark.parametrize("args,words", [
    (("--validate-budget", "1"), "--validate-budget"),
    (("--team-budget", "3"), "--team-budget"),
    (("--games", "10"), "--games"),
])
def test_power_levels_bad_flags_exit_2(capsys, args, words):
    code, _, err = run(capsys, "power-levels", *args)
    assert code == 2 and words in err


def test_a_missing_ratings_experiment_is_named_where_arena_budget_sets_it(capsys, tmp_path):
    """cards/arena_budget.toml [levels] experiment names a file that is not there: one line on
    that file and field (it once named only the lost path), exit 2, nothing written."""
    cards = Path(shutil.copytree(ROOT / "cards", tmp_path / "cards"))
    path = cards / "arena_budget.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('experiment = "experiments/rarity.toml"',
                                 'experiment = "experiments/nope.toml"', 1), encoding="utf-8")
    code, out, err = run(capsys, "power-levels", "--cards", cards, "--games", "64", "--out",
                         tmp_path / "levels.csv")
    assert code == 2 and out == "" and not (tmp_path / "levels.csv").exists()
    # every designer mistake names file, line and field (README: "one line per problem")
    line = text[: text.index('experiment = "experiments/rarity.toml"')].count("\n") + 1
    assert err.strip() == (f"error: {path}:{line}: levels.experiment: no experiment file "
                           f"{tmp_path / 'experiments' / 'nope.toml'} (a path relative to the "
                           f"card folder's parent: copy experiments/ beside a copied card "
                           f"folder, give an absolute path, or name one with "
                           f"--levels-experiment)")


def test_levels_experiment_names_the_pool_experiment_for_a_copied_card_folder(capsys, tmp_path):
    """A designer copies cards/ elsewhere to try a change; arena_budget.toml's [levels]
    experiment is relative to the card folder's parent, so the copy has none beside it (the
    stop-60 designer audit). --levels-experiment names one: the Power Levels come from its games;
    a missing one is one line naming the flag, exit 2, nothing written."""
    cards = Path(shutil.copytree(ROOT / "cards", tmp_path / "cards"))
    out = tmp_path / "levels.csv"
    code, _, err = run(capsys, "power-levels", "--cards", cards, "--games", "64", "--out", out)
    assert code == 2 and "levels.experiment" in err and not out.exists()
    missing = tmp_path / "nope.toml"
    code, text, err = run(capsys, "power-levels", "--cards", cards, "--games", "64", "--out", out,
                          "--levels-experiment", missing)
    assert code == 2 and text == "" and not out.exists()
    assert err.strip() == (f"error: {missing}: --levels-experiment: no experiment file here "
                           f"(missing, or not a file)")
    code, text, _ = run(capsys, "power-levels", "--cards", cards, "--games", "64", "--out", out,
                        "--levels-experiment", ROOT / "experiments" / "rarity.toml")
    assert code == 0 and "from 64 games of rarity.toml" in text and out.exists()


def test_an_experiment_with_fixed_teams_is_refused_as_the_levels_experiment(capsys, tmp_path):
    """``--levels-experiment experiments/smoke.toml`` (fixed teams, not a pool) was exit 0: 52
    of 72 cards never played, each given level 2 at rating +0.00 (the audit of 2026-12), and
    validate passed it as arena_budget.toml's [levels] experiment. One line now, naming the flag
    or that file's line and field, as ``rarity`` refuses the file; nothing written."""
    smoke = ROOT / "experiments" / "smoke.toml"
    out = tmp_path / "levels.csv"
    code, text, err = run(capsys, "power-levels", "--games", "64", "--out", out,
                          "--levels-experiment", smoke)
    why = ("not a [pool] experiment: Power Levels are fitted on teams drawn from the cards "
           "(experiments/rarity.toml is one)")
    assert code == 2 and text == "" and not out.exists()
    assert err.splitlines() == [f"error: {smoke}: --levels-experiment: {why}"]
    cards = Path(shutil.copytree(ROOT / "cards", tmp_path / "cards"))
    path = cards / "arena_budget.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"experiments/rarity.toml"', f'"{smoke}"', 1), encoding="utf-8")
    line = text[: text.index('experiment = "experiments/rarity.toml"')].count("\n") + 1
    for argv in (["validate", cards], ["power-levels", "--cards", cards, "--games", "64",
                                       "--out", out]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and not out.exists(), err
        assert err.splitlines() == [f"error: {path}:{line}: levels.experiment: {smoke} is {why}"]
