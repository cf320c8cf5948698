"""Stop 81's audit of the HTML report (bwlab report): every number against the command that
prints it, the summary against the tables, the plots, and what a reader needs to reproduce it.
Unit-level checks only (no game is played): each defect is read from the function that wrote it."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests._report_kit import RecordingPage


def test_card_ratings_verdict_column_is_explained_as_the_cards_verdict():
    """The card ratings table (card_ratings.csv, 72 rows of "undecided" at --rating-games 128)
    has a verdict column whose key said "What duplicate play called the swapped teams: fair /
    unfair / open", the swaps table's meaning: no card verdict was explained."""
    from sim.report.glossary import explain

    words = explain("verdict")
    for value in ("undecided", "in band", "weak", "strong", "fair / unfair / open"):
        assert value in words, value


@pytest.mark.parametrize("games, looks_more", [(64, False), (256, False), (512, True)])
def test_fairness_command_note_says_the_default_round_looks_more_only_past_256(games, looks_more):
    """`bwlab report --fairness-games 64` said "its default --round (256) looks more often and
    stops once settled, on fewer games": `bwlab fairness TEAMS --seed 0 --games 64` (default
    --round) prints the same 26.6 / 14.1 / 43.8 / 15.6 % as --round 64: one look either way."""
    from sim.report.fairness_command import same_as_fairness

    rep = SimpleNamespace(games=games, verdict=SimpleNamespace(level=0.9875))
    text = same_as_fairness("experiments/teams/example.toml", 0, rep)
    assert f"--games {games} --round {games}`" in text
    assert ("looks more often" in text) is looks_more
    assert ("the same numbers" in text) is not looks_more


def test_rulings_section_states_the_study_seed(tmp_path):
    """The rulings section said the study's games and boards and its policy, not its root seed
    (11 in experiments/rulings.toml; any --seed given), which the results file records: the
    report could not be reproduced from the page (`bwlab rulings --seed` is needed)."""
    from sim.report.rulings_section import rulings_section
    from tests.test_rulings_audit_77 import _doc

    doc = _doc()
    doc["study"]["seed"] = 11
    path = tmp_path / "rulings.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    page = RecordingPage()
    rulings_section(page, path)
    assert "128 games on 32 boards, root seed 11" in " ".join(page.texts)


def test_swaps_section_names_the_command_that_prints_its_numbers(monkeypatch):
    """The fairness and ratings sections each name the command printing their numbers; the
    swaps section (its proposals, verdicts and gaps: those of `bwlab fairness TEAMS --seed S
    --games N --round N --suggest K --rating-games R`, checked equal at seed 0, 64 games,
    --suggest 2, --rating-games 128) named none. The report's swap search (``_suggester``) now
    carries the command, and the section prints it (the search itself stubbed: no games)."""
    import sim.cli._fairness_suggest as cli_fairness
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.teams import load_teams
    from sim.cli.report import _suggester
    from sim.report.summary import swaps_section

    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(root)
    catalogue = load_catalogue(root / "cards")
    teams = load_teams(Path("experiments/teams/example.toml"), catalogue.cards)
    monkeypatch.setattr(cli_fairness, "_suggest", lambda *a, **k: {
        "tried": [], "rating_games": 128, "conclusion": "No fair set found."})
    suggestion = _suggester(catalogue, teams, 2, Path("experiments/rarity.toml"), 0, 64, 128)(
        SimpleNamespace(largest_gap=0.2))
    page = RecordingPage()
    swaps_section(page, suggestion)
    words = " ".join(page.texts)
    assert ("`bwlab fairness experiments/teams/example.toml --seed 0 --games 64 --round 64 "
            "--suggest 2 --rating-games 128` prints these proposals") in words, words


def test_rulings_section_counts_the_alternatives_it_replayed(tmp_path):
    """`bwlab rulings --only KEY` replays some of experiments/rulings.toml's alternatives; the
    section said "Each alternative of experiments/rulings.toml" of 2 of the 15. It says how many
    were replayed."""
    from sim.report.rulings_section import rulings_section
    from tests.test_rulings_audit_77 import _doc

    doc = _doc()
    path = tmp_path / "rulings.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    page = RecordingPage()
    rulings_section(page, path)
    n = len(doc["alternatives"])
    assert f"Each of the {n} alternative{'s' * (n != 1)} replayed from" in " ".join(page.texts)
