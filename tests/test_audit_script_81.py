"""Audit of docs/json.md as a contract for scripts (stop 81): what tests/test_json_schemas.py
cannot check, that each glossary row is the same concept, in the same unit and at the same
interval level, and what a script gets on stdout and as the exit code."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
FLAT = " ".join(DOC.split())  # prose with its line breaks as spaces
TABLE = DOC[DOC.index("## The same concept in each document"):]
TEAMS = ROOT / "experiments" / "teams" / "example.toml"


def _row(concept: str) -> str:
    return next(line for line in TABLE.splitlines() if line.startswith(f"| {concept} |"))


def _strict(text: str):
    return json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))


def test_draft_glossary_says_fairest_is_the_search_split_and_best_names_the_advised():
    """`draft --random 20 --seed 4 --games 64 --proposals 1 --format json`: "best" is
    "alternating" and the conclusion advises it, while the glossary sent a script to
    fairest.teams[] and fairest.verdict (the search's split, 12.5 points from 25 %)."""
    for concept in ("a team's win rate, with its interval", "the verdict, as a word"):
        assert "`draft: best`" in _row(concept) and "alternating" in _row(concept)


def test_glossary_names_rulings_where_it_carries_the_concept():
    """The table says a document not named does not carry the concept; rulings carries games,
    boards, teams' win rates, verdicts and the games balance (study.fairness_games, ...)."""
    for concept, path in (("games played", "rulings: study.fairness_games"),
                          ("boards (the independent draws the intervals are clustered by)",
                           "rulings: study.fairness_boards"),
                          ("a team's win rate, with its interval",
                           "rulings: alternatives[].fairness.teams[].default"),
                          ("the verdict, as a word",
                           "rulings: alternatives[].fairness.verdict_default"),
                          ("how games end and their balance", "rulings: book_balance.games")):
        assert f"`{path}`" in _row(concept), concept


def test_games_balance_row_points_at_the_same_object_in_drift():
    """fairness: games_balance has outcomes, seats, ...; drift: balance[].now is
    {games: <that object>, balance: {...}}: the same concept is balance[].now.games."""
    assert "`drift: balance[].now.games`" in _row("how games end and their balance")


def test_docs_state_units_interval_levels_and_shapes():
    """fairness team intervals are 98.75 % (simultaneous), drift's now_interval 95 %; rates are
    fractions, draft's max_deviation_points is points; drift's intervals are [a, b] lists."""
    assert "fraction from 0 to 1" in FLAT and "max_deviation_points` (and the same key of `snake` and `alternating`) is in percentage points" in FLAT
    assert "Interval levels differ" in FLAT and "`interval_level`" in _row(
        "a team's win rate, with its interval")
    assert "[low, high]" in FLAT
    assert "even is 0.25" in _row("a player's win rate against the rung below")


def test_docs_name_the_timing_keys_and_the_error_path():
    """Two identical runs differ only in fairness/ladder seconds and rulings
    study.seconds_per_study; bad input exits 2 with nothing on stdout. json.md said neither."""
    assert "`fairness: seconds`" in FLAT and "study.seconds_per_study" in FLAT
    assert "nothing on stdout" in FLAT


def test_draft_split_says_the_level_of_its_team_intervals():
    """A draft split's teams[].low/high are the fairness verdict's simultaneous intervals
    (98.75 % for 4 teams), but the draft document gave no level (fairness has interval_level)."""
    from sim.cli.draft import _split

    v = SimpleNamespace(status="open", rate=np.full(4, 0.25), lower=np.full(4, 0.1),
                        upper=np.full(4, 0.4), largest_gap=0.0, design="64 games on 16 boards",
                        text="", level=0.9875)
    rep = SimpleNamespace(verdict=v, games=64, balance=SimpleNamespace(as_dict=lambda: {}))
    teams = [list(range(5 * k, 5 * k + 5)) for k in range(4)]
    d = _split(teams, rep, np.ones(20), [f"c{i}" for i in range(20)], None, 10)
    assert d["interval_level"] == 0.9875


def test_bad_input_prints_nothing_on_stdout_and_exits_2(capsys):
    code, out, err = run(capsys, "fairness", "no-such-teams.toml", "--format", "json")
    assert code == 2 and out == "" and err.startswith("error:")
    code, out, err = run(capsys, "combat", "--system", "nosuch", "--format", "json")
    assert code == 2 and out == ""


def test_fairness_json_without_quiet_is_strict_json_and_its_exit_code(capsys):
    """Without -q the progress goes to stderr; stdout parses strictly (no NaN) and its
    exit_code is the process's."""
    code, out, _ = run(capsys, "fairness", TEAMS, "--games", "64", "--round", "64", "--boards",
                       "16", "--format", "json")
    doc = _strict(out)
    assert doc["exit_code"] == code and code in (0, 1, 3)
    assert doc["interval_level"] > 0.95  # simultaneous, as json.md says


def test_combat_json_is_identical_twice(capsys):
    a = run(capsys, "combat", "--attacks", "4", "--tier", "1", "--defense", "2", "--sweep",
            "defense=1..3", "--format", "json")
    b = run(capsys, "combat", "--attacks", "4", "--tier", "1", "--defense", "2", "--sweep",
            "defense=1..3", "--format", "json")
    assert a == b and _strict(a[1])["schema"] == "bwlab.combat-profiles/1"
