"""A GM's audit of fairness, --suggest, report and draft (stop 77): each defect found, reproduced
with tiny games or synthetic data."""

from __future__ import annotations

import html
import re
import shlex
import shutil
from pathlib import Path

import json

import pytest

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]


def test_the_report_s_fairness_command_runs_and_prints_the_section_s_numbers(capsys, tmp_path,
                                                                            monkeypatch):
    """The report's fairness section says "`bwlab fairness TEAMS --seed S --games N --round N`
    prints these numbers". It named the team file by its bare name (example.toml for the
    default experiments/teams/example.toml) and dropped --cards, so from where the report was
    run the command failed (file not found; or unknown cards with a card folder of one's own).
    Run as printed, from the same folder, it must play and print the section's win rates."""
    from sim.catalogue.loader import load_catalogue
    from sim.report.html import Page
    from sim.report.lab_report import fairness_section
    from sim.runner.file_kinds import load_team_file

    monkeypatch.chdir(ROOT)
    cards = tmp_path / "my cards"
    shutil.copytree(ROOT / "cards", cards)
    teams_file = tmp_path / "gm teams.toml"
    teams_file.write_bytes((ROOT / "experiments/teams/example.toml").read_bytes())
    catalogue = load_catalogue(cards)
    teams = load_team_file(teams_file, catalogue.cards)
    page = Page("report")
    _, verdict = fairness_section(page, catalogue, teams, 8, 3)
    said = next(html.unescape(p) for p in page.parts
                if isinstance(p, str) and "prints these numbers" in p)
    command = re.search(r"`bwlab (fairness [^`]*)`", said).group(1)
    code, out, err = run(capsys, *shlex.split(command), "--format", "json", "-q")
    assert code in (0, 1, 3), err
    rates = [t["win_probability"] for t in json.loads(out)["teams"]]
    assert rates == pytest.approx(list(verdict.rate), abs=1e-12)
