"""``bwlab fairness``: duplicate play of four given teams, settled sequentially, with a verdict.

Book: "Though cards are randomly assigned, teams are balanced using the GMs discernment." — the
command is that discernment, measured.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._cli_kit import run


ROOT = Path(__file__).resolve().parents[1]
TEAMS = ROOT / "experiments" / "teams" / "example.toml"


def test_fairness_json_contract_and_early_stop(capsys):
    """Win probabilities with intervals that hold the estimate, shares that sum to one, seat
    effects, outcome shares, and a verdict reached before the game cap when the case is clear."""
    code, out, _ = run(capsys, "fairness", TEAMS, "--games", "2048", "--round", "128",
                       "--format", "json", "--seed", "3")
    assert code == 0
    data = json.loads(out)
    rates = [t["win_probability"] for t in data["teams"]]
    assert sum(rates) == pytest.approx(1.0)
    assert all(t["low"] <= t["win_probability"] <= t["high"] for t in data["teams"])
    assert data["games"] % 4 == 0 and data["games"] <= 2048
    assert sum(data["outcomes"].values()) == pytest.approx(1.0)
    assert all(t["expected_surviving_health"] >= 0 for t in data["teams"])
    assert len(data["seats"]) == 4 and 0 <= data["seat_effect_pvalue"] <= 1
    assert data["verdict"] in ("fair", "unfair", "open")
    if data["verdict"] != "open":
        assert data["games"] < 2048 or data["rounds"] == 16
    again = json.loads(run(capsys, "fairness", TEAMS, "--games", "2048", "--round", "128",
                           "--format", "json", "--seed", "3")[1])
    assert again["teams"] == data["teams"]  # same seed, same numbers


@pytest.mark.parametrize("args,words", [
    (("--games", "1001"), "multiples of 4"),
    (("--policy", "genius"), "unknown policy"),
    (("--tolerance", "0.5"), "--tolerance"),
])
def test_fairness_bad_flags_exit_2(capsys, args, words):
    code, _, err = run(capsys, "fairness", TEAMS, *args)
    assert code == 2 and words in err


def test_fairness_bad_team_file_names_file_line_field(capsys, tmp_path):
    bad = tmp_path / "teams.toml"
    bad.write_text(TEAMS.read_text(encoding="utf-8").replace('"Luffy"', '"Lufy"'), encoding="utf-8")
    code, _, err = run(capsys, "fairness", bad)
    assert code == 2 and "teams.toml:" in err and "did you mean Luffy" in err


def test_suggest_swaps_lower_the_surrogate_gap_and_are_confirmed(capsys):
    """--suggest K: each proposed swap lowers the surrogate's largest gap from 25 %; the new teams
    hold the same 20 cards and are played again (before/after table)."""
    code, out, _ = run(capsys, "fairness", TEAMS, "--games", "64", "--round", "64", "--suggest",
                       "2", "--rating-games", "256", "--format", "json")
    assert code == 0
    data = json.loads(out)
    sug = data["suggestion"]
    assert len(sug["swaps"]) <= 2
    before = sorted(c for t in data["teams"] for c in t["cards"])
    after = sorted(c for t in sug["after"]["teams"] for c in t["cards"])
    assert before == after
    assert sum(t["win_probability"] for t in sug["after"]["teams"]) == pytest.approx(1.0)


def test_greedy_swap_search_on_known_ratings():
    import numpy as np

    from sim.runner.suggest import gap, suggest_swaps

    rating = np.linspace(-1, 1, 20)
    teams = np.arange(20).reshape(4, 5)  # team 4 holds the five best cards
    new, swaps = suggest_swaps(teams, rating, 5)
    assert gap(new, rating) < gap(teams, rating) / 4
    assert len(swaps) <= 5


def test_team_budget_beside_the_simulation(capsys):
    """--team-budget N: Arena's "The total power level of each team must equal 10 or less" —
    each total is the sum of its cards' Power Levels, excess = total - N, the verdict is "within"
    exactly when no team exceeds N, and the existing output is unchanged beside it."""
    args = ("fairness", TEAMS, "--games", "64", "--round", "64", "--format", "json")
    code, out, _ = run(capsys, *args, "--team-budget", "10", "--level-games", "256")
    assert code == 0
    data = json.loads(out)
    plain = json.loads(run(capsys, *args)[1])
    assert data["teams"] == plain["teams"] and data["verdict"] == plain["verdict"]
    tb = data["team_budget"]
    assert tb["budget"] == 10 and tb["simulation_verdict"] == data["verdict"]
    for t, sim in zip(tb["teams"], data["teams"]):
        assert len(t["levels"]) == 5 and all(1 <= x <= 4 for x in t["levels"])
        assert t["total"] == sum(t["levels"]) and t["excess"] == t["total"] - 10
        assert t["win_probability"] == sim["win_probability"]
    assert tb["verdict"] == ("within" if all(t["total"] <= 10 for t in tb["teams"]) else "over")
    totals = [t["total"] for t in tb["teams"]]
    if totals.count(max(totals)) == 1:
        assert tb["budget_favourite"] == totals.index(max(totals)) + 1
    if tb["simulation_verdict"] != "open":
        assert tb["agree"] == ((tb["verdict"] == "within") == (tb["simulation_verdict"] == "fair"))


def test_team_budget_is_not_the_lookahead_budget(capsys):
    """--budget stays the look-ahead's simulations per decision (issue #6); a team budget outside
    Arena's possible totals (5..20 for five cards of levels 1..4) is refused, exit 2."""
    code, _, err = run(capsys, "fairness", TEAMS, "--team-budget", "30")
    assert code == 2 and "--team-budget" in err
    code, out, _ = run(capsys, "fairness", "--help")
    assert "look-ahead" in out and "--team-budget" in out
