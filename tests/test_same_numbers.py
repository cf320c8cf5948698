"""Two commands that answer the same question print the same numbers, or say why not.

The consistency audit of 2026-12-06 ran each question through every command that answers it
(team win rates: ``fairness``, ``report``, ``run``, ``drift``; card ratings: ``rarity``,
``report``, ``power-levels``; combat: ``combat``, ``demo``, ``report``, the drift baseline).
Where the numbers agree by construction a test here holds them to it; where they differ by
design (the report's fixed-size check against ``fairness``'s sequential one, a game with no
winner in ``run``'s rates) the output says so, and a test holds the sentence.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
TEAMS = "experiments/teams/example.toml"


def test_report_seed_help_names_the_fairness_section(capsys):
    """``report --seed`` is the fairness section's root seed (as ``fairness --seed``); its help
    said only "Seed of the Monte Carlo samples drawn in the report"."""
    code, out, _ = run(capsys, "report", "--help")
    assert code == 0
    seed_help = " ".join(out.split("--seed", 1)[1].split("--teams", 1)[0].split())
    assert "fairness" in seed_help and "root_seed" in seed_help


def test_report_fairness_section_is_fairness_with_one_look_and_says_so(capsys, tmp_path,
                                                                        monkeypatch):
    """Same seed, same games: the report's team rates and intervals are those of ``bwlab
    fairness --games N --round N``, and the page says so (with the intervals' level), since
    ``fairness``'s default --round stops earlier and prints other numbers."""
    monkeypatch.chdir(ROOT)
    out_dir = tmp_path / "rep"
    code, _, err = run(capsys, "report", "--seed", "5", "--fairness-games", "64",
                       "--rating-games", "0", "--out", out_dir, "-q")
    assert code == 0, err
    code, out, err = run(capsys, "fairness", TEAMS, "--seed", "5", "--games", "64", "--round",
                         "64", "--format", "json", "-q")
    assert code in (0, 1, 3), err
    doc = json.loads(out)
    table = pd.read_csv(out_dir / "fairness.csv")
    for row, team in zip(table.itertuples(), doc["teams"]):
        assert row.team == team["name"]
        assert row.win_probability == pytest.approx(team["win_probability"], abs=1e-9)
        assert row.low == pytest.approx(team["low"], abs=1e-9)
        assert row.high == pytest.approx(team["high"], abs=1e-9)
    page = (out_dir / "report.html").read_text(encoding="utf-8")
    assert "--seed 5 --games 64 --round 64" in page
    assert f"{100 * doc['interval_level']:.2f} %" in page      # the level the CLI prints
    assert "simultaneous" in page.split("What the columns mean", 1)[1]


def test_run_says_why_its_win_rates_are_below_fairness_on_the_same_games(capsys, tmp_path,
                                                                         monkeypatch):
    """The drift suite's matchup (root seed 7001, 128 boards) is the fairness check of the
    example teams at --seed 7001 --boards 128: the same games. A few of its first 2,048 games
    have no winner (3 since lines at any angle inside a tile, stop 70; which ones moves with
    every rule fix, so the count is read from the run); `run` counts them for no team,
    `fairness` and `drift` 1/4 for each. The rates differ by exactly that, and both outputs
    now say how they count it."""
    monkeypatch.chdir(ROOT)
    games = 2048
    code, out, err = run(capsys, "run", "experiments/matchups/example.toml", "--games",
                         str(games), "--out", tmp_path / "run", "--jobs", "1", "-q")
    assert code == 0, err
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    none = manifest["summary"]["balance"]["drawishness"]["games"]
    assert none >= 1, "no game without a winner: play more games to keep this test's point"
    said = (f"the {none} game{'s' if none > 1 else ''} with no winner "
            f"count{'' if none > 1 else 's'} for no team")
    assert said in " ".join(out.split())
    rates = manifest["summary"]["team_win_rate"]
    import sim.runner.fairness as fairness

    real, checked = fairness.check_fairness, {}

    def once(*args, **kwargs):  # the JSON run below prints this same check's numbers: same
        # arguments, same games, so its 2,048 games are played once, not twice (27 s -> 17 s
        # of CPU)
        key = repr((args[1:], sorted(kwargs.items())))
        if key not in checked:
            checked[key] = real(*args, **kwargs)
        return checked[key]

    monkeypatch.setattr(fairness, "check_fairness", once)
    code, text, err = run(capsys, "fairness", TEAMS, "--seed", "7001", "--boards", "128",
                          "--games", str(games), "--round", str(games), "-q")
    assert code in (0, 1, 3), err
    assert "a game with no winner counts 1/4 for each team" in " ".join(text.split())
    code, out, err = run(capsys, "fairness", TEAMS, "--seed", "7001", "--boards", "128",
                         "--games", str(games), "--round", str(games), "--format", "json", "-q")
    assert len(checked) == 1, list(checked)  # the text and the JSON: one check, the same games
    doc = json.loads(out)
    assert [t["win_probability"] for t in doc["teams"]] == pytest.approx(
        [r + 0.25 * none / games for r in rates], abs=1e-12)


def test_run_says_nothing_of_games_without_a_winner_when_there_were_none():
    from sim.cli.run import no_winner_note

    assert no_winner_note({"games": 16, "balance": {"drawishness": {"games": 0}}}) == ""
    assert no_winner_note({"games": 16, "balance": {}}) == ""
    assert "higher by 0.0312 each" in no_winner_note(
        {"games": 16, "balance": {"drawishness": {"games": 2}}})


def test_json_records_what_was_asked_and_who_played(capsys, tmp_path, monkeypatch):
    """`fairness --format json` said the games and boards played (256 on 64 at the defaults)
    but not the settings (4,000 games, --round 256, 256 boards); `rarity --format json` named
    neither its player nor its root seed, which its table and power-levels' JSON do."""
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "fairness", TEAMS, "--games", "8", "--format", "json", "-q")
    assert code in (0, 1, 3), err
    doc = json.loads(out)
    assert doc["settings"] == {"max_games": 8, "round": 8, "boards": 256, "tolerance": 0.05,
                               "seed": 0, "policy": "greedy", "cards": str(ROOT / "cards")}
    code, out, err = run(capsys, "rarity", "--games", "64", "--ablation", "0", "--out",
                         tmp_path, "--format", "json", "-q")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["policies"] == ["greedy"] and doc["root_seed"] == 424242
    assert doc["experiment"].endswith("rarity.toml")
    code, out, err = run(capsys, "rarity", "--games", "64", "--ablation", "0", "--out",
                         tmp_path, "-q")
    assert "policies greedy, root seed 424242" in out


def test_play_seed_help_says_it_is_not_a_root_seed(capsys):
    """`play --seed 7001` is not game 0 of the drift suite's matchup (root seed 7001): both roll
    child 0 of SeedSequence(7001), but an experiment's board k comes from
    SeedSequence([root, 2, k]) (sim/runner/schedule.py), play's from its seed itself."""
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0
    assert "Not a root seed" in " ".join(out.split())
