"""``bwlab fairness --policies``: the verdict under each player, side by side (issue #25 item 3:
"reports each player's verdict side by side and flags disagreements")."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests._cli_kit import run
from tests._sequential_kit import sequential_check

TEAMS = "experiments/teams/example.toml"


def test_each_player_plays_the_same_check_and_the_exit_code_is_their_shared_verdict(capsys):
    """Greedy and random on the example teams: each player's verdict and intervals, the first
    player's equal to a plain ``--policy`` run's (same seed, same games), and the exit code the
    shared verdict's (0 fair, 1 unfair, 3 inconclusive) or 3 when they disagree."""
    args = ("fairness", TEAMS, "--games", "256", "--round", "128", "--boards", "16",
            "--format", "json")
    code, text, _ = run(capsys, *args, "--policies", "greedy,random")
    doc = json.loads(text)
    by = doc["by_player"]
    assert list(by["players"]) == ["greedy", "random"]
    statuses = [p["verdict"] for p in by["players"].values()]
    from sim.analysis.fairness import EXIT_CODES

    contradict = {"fair", "unfair"} <= set(statuses)
    assert by["agree"] == (True if len(set(statuses)) == 1 else None if not contradict else False)
    assert code == (EXIT_CODES[statuses[0]] if by["agree"] else 3) == doc["exit_code"]
    _, plain, _ = run(capsys, *args, "--policy", "greedy")
    assert [t["win_probability"] for t in json.loads(plain)["teams"]] == \
        [t["win_probability"] for t in by["players"]["greedy"]["teams"]]
    for p in by["players"].values():
        assert all(t["low"] <= t["win_probability"] <= t["high"] for t in p["teams"])


def test_disagreeing_players_are_flagged_and_inconclusive():
    """When players disagree the document says so, the exit code is 3 (inconclusive), and the
    sentence names what each player found."""
    from sim.cli._fairness_players import players_doc

    team = {"team": 1, "name": "A", "win_probability": 0.25, "low": 0.2, "high": 0.3}
    per = {"greedy": {"verdict": "fair", "conclusion": "Fair.", "games": 512, "design": "d",
                      "teams": [team] * 4},
           "lookahead:16": {"verdict": "unfair", "conclusion": "Unfair.", "games": 256,
                            "design": "d", "teams": [team] * 4}}
    doc = players_doc(per)
    assert not doc["agree"] and doc["exit_code"] == 3
    assert "depends on the players" in doc["conclusion"]
    same = players_doc({k: dict(v, verdict="fair") for k, v in per.items()})
    assert same["agree"] and same["exit_code"] == 0
    unsettled = players_doc({**per, "lookahead:16": dict(per["lookahead:16"], verdict="open")})
    assert unsettled["agree"] is None and unsettled["exit_code"] == 3
    assert "depends" not in unsettled["conclusion"] and "say fair" in unsettled["conclusion"]


def test_players_of_equal_truths_rarely_contradict_and_unequal_ones_often_do():
    """Planted: both players see the same teams, one at 33 % against a 20–30 % band (an edge
    case: each check says unfair or inconclusive). "Depends on the players" was said whenever
    the two verdicts differed: 101 of 300 such pairs. Now only a fair and an unfair verdict
    contradict: at most alpha = 5 % of 200 pairs (one-sided binomial test, p > 0.01). With
    truly different teams (equal under one player, one team at 40 % under the other) the
    contradiction is found in most pairs (at least 60 %)."""
    from scipy.stats import binomtest

    from sim.analysis.fairness import players_verdict

    rng = np.random.default_rng(4802)
    edge = np.array([0.33, 0.23, 0.22, 0.22])
    said = [players_verdict({"a": sequential_check(rng, edge),
                             "b": sequential_check(rng, edge)}) for _ in range(200)]
    assert sum(agree is None for agree, _, _ in said) >= 20  # the unsettled case is exercised
    false = sum(agree is False for agree, _, _ in said)
    assert binomtest(false, 200, 0.05, alternative="greater").pvalue > 0.01, false
    apart = [players_verdict({"a": sequential_check(rng, np.full(4, 0.25)),
                              "b": sequential_check(rng, np.array([0.40, 0.2, 0.2, 0.2]))})
             for _ in range(50)]
    assert sum(agree is False for agree, _, _ in apart) >= 30


def test_a_long_player_label_keeps_its_columns_apart(capsys):
    """A weights file's path is longer than the default column: every column still stands
    apart, and each row's cells end where its header does."""
    from sim.cli._fairness_players import echo_players, players_doc

    team = {"team": 1, "name": "A", "win_probability": 0.25, "low": 0.2, "high": 0.3}
    long = "greedy:weights=experiments/greedy_tuned.toml"
    doc = players_doc({lab: {"verdict": "fair", "conclusion": "Fair.", "games": 256,
                             "design": "d", "teams": [team] * 4} for lab in ("greedy", long)})
    echo_players(doc)
    lines = capsys.readouterr().out.splitlines()
    header = next(x for x in lines if x.startswith("team"))
    assert header.split() == ["team", "greedy", long]
    assert {len(x) for x in lines if x.startswith(("team", "1 A", "verdict", "games"))} == \
        {len(header)}


@pytest.mark.parametrize("spec", ["greedy", "greedy,greedy", "greedy,chess"])
def test_bad_players_are_exit_2_with_one_line(capsys, spec):
    """Bad input: one player, the same player twice, an unknown one: exit 2, one line, no game."""
    code, out, err = run(capsys, "fairness", TEAMS, "--policies", spec)
    assert code == 2 and not out and ("--policies" in err or "chess" in err)
    assert code == 2 and len([x for x in err.splitlines() if x.strip()]) == 1
