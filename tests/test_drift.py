"""The CI drift gate: unchanged data passes, a meaningful change to one card fails, a change to
the dice rules is named, and the false-alarm rate stays within alpha (SPRT, Bonferroni)."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from sim.cli.main import main
from sim.runner.drift import DRIFT_DOWN, DRIFT_UP, NO_DRIFT, decide

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def lab(tmp_path):
    """A private copy of cards/ and experiments/ with a quick suite (cap 1024 games)."""
    cards = Path(shutil.copytree(ROOT / "cards", tmp_path / "cards"))
    exps = Path(shutil.copytree(ROOT / "experiments", tmp_path / "experiments"))
    suite = exps / "drift.toml"
    suite.write_text(suite.read_text().replace("max_games = 2048", "max_games = 1024"))
    return cards, suite, tmp_path / "baseline.json"


def gate(capsys, cards, suite, baseline, *extra):
    code = main(["drift", "--cards", str(cards), "--suite", str(suite), "--baseline",
                 str(baseline), *map(str, extra)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_unchanged_passes_and_a_stronger_card_fails(capsys, lab, tmp_path):
    cards, suite, baseline = lab
    code, out, _ = gate(capsys, cards, suite, baseline, "--update")
    assert code == 0 and baseline.exists()
    code, out, _ = gate(capsys, cards, suite, baseline, "--junit", tmp_path / "ok.xml")
    assert code == 0, out
    assert "exit 0" in out and "drift_" not in out
    assert ET.parse(tmp_path / "ok.xml").getroot().get("failures") == "0"

    # A meaningful change: Luffy (Straw Hats) gets triple health and double attacks everywhere.
    path = cards / "characters.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    i = next(k for k, r in enumerate(rows) if r.startswith("Luffy,"))
    f = rows[i].split(",")
    header = rows[0].split(",")
    f[header.index("max_health")] = str(int(f[header.index("max_health")]) * 3)
    for colour in ("base", "red", "blue", "green"):
        f[header.index(colour)] = str(min(50, int(f[header.index(colour)]) * 2))
    rows[i] = ",".join(f)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, _ = gate(capsys, cards, suite, baseline, "--junit", tmp_path / "bad.xml")
    assert code == 1, out
    assert any("Straw Hats" in line and "drift_up" in line for line in out.splitlines()), out
    root = ET.parse(tmp_path / "bad.xml").getroot()
    assert int(root.get("failures")) >= 1


def test_a_dice_rule_change_is_named_from_the_combat_snapshot(capsys, lab):
    """Tier 3 = D20 changed to D24: the exact tables differ and the gate names the entries."""
    cards, suite, baseline = lab
    assert gate(capsys, cards, suite, baseline, "--update", "--games", "64")[0] == 0
    rules = cards / "rules.toml"
    rules.write_text(rules.read_text().replace("tier_faces = [6, 12, 20, 30]",
                                               "tier_faces = [6, 12, 24, 30]"))
    code, out, _ = gate(capsys, cards, suite, baseline, "--games", "64")
    assert code == 1
    changed = [line for line in out.splitlines() if line.startswith("combat table changed:")]
    assert len(changed) == 10 * 3  # every defense 0-9 at 1, 4 and 8 attacks of tier 3
    assert all(line.startswith("combat table changed: tier 3,") and "D20 -> D24" in line
               for line in changed)


def test_missing_or_bad_baseline_is_a_clear_error(capsys, lab, tmp_path):
    cards, suite, baseline = lab
    code, _, err = gate(capsys, cards, suite, baseline)
    assert code == 2 and "create it with --update" in err
    baseline.write_text("{}")
    code, _, err = gate(capsys, cards, suite, baseline)
    assert code == 2 and "not a baseline" in err


def test_false_alarm_rate_over_many_seeds_matches_alpha():
    """Unchanged win rates (four metrics of a suite, Bonferroni alpha/4 each): over 300 seeds the
    share of runs with any alarm is at most alpha = 0.05 (one-sided binomial test, p > 0.01), and
    a real change of delta is caught at least 1 - beta - 0.05 of the time."""
    rng = np.random.default_rng(11)
    p0 = np.array([0.25, 0.12, 0.48, 0.15])
    alpha, beta, delta, runs = 0.05, 0.05, 0.08, 300
    alarms = caught = 0
    for _ in range(runs):
        wins = rng.random((1024, 4)) < p0
        if any(decide(wins[:, k].astype(float), p0[k], delta, alpha / 4, beta)[0]
               in (DRIFT_UP, DRIFT_DOWN) for k in range(4)):
            alarms += 1
        moved = (rng.random(1024) < p0[0] + delta).astype(float)
        caught += decide(moved, p0[0], delta, alpha / 4, beta)[0] == DRIFT_UP
    assert stats.binomtest(alarms, runs, alpha, alternative="greater").pvalue > 0.01
    assert caught / runs >= 1 - beta - 0.05
    assert decide(np.zeros(8), 0.25, delta, alpha, beta)[0] != NO_DRIFT  # too few games
