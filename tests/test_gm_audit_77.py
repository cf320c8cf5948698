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


def test_the_team_budget_does_not_agree_with_play_that_calls_other_teams(capsys, monkeypatch):
    """`fairness --team-budget 10` on the example teams (greedy, 256 games): Straw Hats over the
    budget by 1, play calling Pixel Party (at the budget) favoured and Ink & Iron and Toon Squad
    disadvantaged; the line read "budget check: over budget; simulation: unfair; they agree."
    A GM reads that the budget found the problem and trims Straw Hats, the one team play does
    not call. Synthetic: the same levels and a verdict favouring team 3."""
    from types import SimpleNamespace

    import numpy as np

    from sim.analysis.fairness import fairness_verdict
    from sim.catalogue.loader import load_catalogue
    from sim.cli import fairness as cli
    from sim.runner import budget
    from sim.runner.file_kinds import load_team_file

    catalogue = load_catalogue(ROOT / "cards")
    teams = load_team_file(ROOT / "experiments/teams/example.toml", catalogue.cards)
    level = np.full(len(catalogue.cards), 2)
    level[teams.cards[0][0]], level[teams.cards[3][0]] = 3, 1   # totals 11, 10, 10, 9
    monkeypatch.setattr(budget, "power_levels",
                        lambda *a, **k: SimpleNamespace(level=level, games=500))
    rng = np.random.default_rng(77)
    blocks = 256
    won = rng.choice(4, size=(blocks, 4), p=[0.27, 0.14, 0.45, 0.14])
    verdict = fairness_verdict(np.eye(4)[won], tolerance=0.05, clusters=np.arange(blocks) % 64,
                               names=teams.names)
    assert verdict.status == "unfair" and list(verdict.called) == [0, -1, 1, -1]
    tb = cli._team_budget(catalogue, teams, 10, (None, SimpleNamespace(policies=["greedy"],
                                                                      games=500)), verdict)
    cli._echo_team_budget(tb)
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("budget check"))
    assert "they agree." not in line, line
    assert "Straw Hats" in line and "Pixel Party" in line, line
    assert tb["teams_agree"] is False
