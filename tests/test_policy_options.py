"""``--policy`` and ``--budget`` everywhere a game is played (issue #6 item 4): ``play``, ``run``,
``fairness``, ``rarity`` and ``drift`` accept a look-ahead with a budget, record the exact player
(``lookahead:2``) in what they write, refuse a budget for a policy without one (one line, exit
2), and keep runs and baselines from mixing players."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq

from tests._cli_kit import run


ROOT = Path(__file__).resolve().parents[1]
TEAMS = ROOT / "experiments" / "teams" / "example.toml"
SMOKE = ROOT / "experiments" / "smoke.toml"


def test_play_with_a_budgeted_lookahead_is_reproducible(capsys):
    first = run(capsys, "play", "--seed", "4", "--teams", TEAMS, "--policy", "lookahead",
                "--budget", "2")
    assert first[0] == 0 and first[1].count("(lookahead:2)") == 4
    again = run(capsys, "play", "--seed", "4", "--teams", TEAMS, "--policy", "lookahead:2")
    assert again[:2] == first[:2]  # stderr may carry a progress line on a slow or busy machine
    code, _, err = run(capsys, "play", "--seed", "4", "--policy", "greedy", "--budget", "2")
    assert code == 2 and "--budget applies to lookahead, lookahead-rotation only" in err


def test_run_records_the_player_and_refuses_to_resume_with_another(capsys, tmp_path):
    out = tmp_path / "run"
    code, _, _ = run(capsys, "run", SMOKE, "--games", "16", "--jobs", "1", "--out", out,
                     "--no-progress", "--policy", "lookahead", "--budget", "2")
    assert code == 0
    table = pq.read_table(sorted(out.glob("batch-*.parquet"))[0])
    assert set(table.column("policy_seat1").to_pylist()) == {"lookahead:2"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["policies"] == ["lookahead:2"] * 4
    code, _, err = run(capsys, "run", SMOKE, "--games", "16", "--jobs", "1", "--out", out,
                       "--no-progress", "--resume", "--policy", "greedy")
    assert code == 2 and "policies" in err


def test_fairness_and_rarity_play_the_given_player(capsys, tmp_path):
    code, out, _ = run(capsys, "fairness", TEAMS, "--games", "8", "--round", "8", "--format",
                       "json", "--policy", "lookahead", "--budget", "2", "--boards", "2")
    data = json.loads(out)   # exit code: the verdict's (0 fair, 1 unfair, 3 inconclusive)
    assert code == data["exit_code"] in (0, 1, 3) and data["policy"] == "lookahead:2"
    code, out, _ = run(capsys, "rarity", "--games", "16", "--ablation", "0", "--out", tmp_path,
                       "--policy", "lookahead:2")
    assert code == 0 and "policies lookahead:2" in out
    code, _, err = run(capsys, "rarity", "--games", "16", "--policy", "random", "--budget", "3")
    assert code == 2 and "--budget" in err


def test_drift_baseline_names_its_players(capsys, tmp_path):
    cards = Path(shutil.copytree(ROOT / "cards", tmp_path / "cards"))
    suite = Path(shutil.copytree(ROOT / "experiments", tmp_path / "experiments")) / "drift.toml"
    baseline = tmp_path / "baseline.json"
    common = ["drift", "--cards", cards, "--suite", suite, "--baseline", baseline, "--games", "8"]
    code, _, _ = run(capsys, *common, "--update", "--policy", "lookahead:2")
    assert code == 0
    players = json.loads(baseline.read_text())["policies"]
    assert players and all(p == ["lookahead:2"] * 4 for p in players.values())
    code, _, err = run(capsys, *common)  # the suite's own players (greedy): refused
    assert code == 2 and "policies" in err and "lookahead:2" in err
