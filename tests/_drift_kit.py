"""A private drift lab for the drift tests: copies of cards/ and experiments/, the suite's
bounds edited, and a baseline made from them with ``drift --update``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def private_lab(tmp: Path, edits: dict[str, str],
                matchup_edits: dict[str, str] | None = None) -> tuple[Path, Path, Path]:
    """(cards, suite, baseline) under ``tmp``; ``edits`` replace text of the shipped suite
    (``{"max_games = 4096": "max_games = 1024"}``), ``matchup_edits`` text of its matchup
    (experiments/matchups/example.toml)."""
    from sim.cli.main import main

    cards = Path(shutil.copytree(ROOT / "cards", tmp / "cards"))
    exps = Path(shutil.copytree(ROOT / "experiments", tmp / "experiments"))
    suite = exps / "drift.toml"
    text = suite.read_text(encoding="utf-8")
    for old, new in edits.items():
        assert old in text, old
        text = text.replace(old, new)
    suite.write_text(text, encoding="utf-8")
    matchup = exps / "matchups" / "example.toml"
    text = matchup.read_text(encoding="utf-8")
    for old, new in (matchup_edits or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    matchup.write_text(text, encoding="utf-8")
    baseline = tmp / "baseline.json"
    with pytest.MonkeyPatch.context() as m:  # a module fixture runs before the conftest's
        # per-test journal folder is set (tests/conftest.py::own_games_journal): its own here
        if os.environ.get("BWLAB_JOURNAL", "").lower() != "off":
            m.setenv("BWLAB_JOURNAL", str(tmp / "journal"))
        assert main(["drift", "--cards", str(cards), "--suite", str(suite), "--baseline",
                     str(baseline), "--update", "--quiet"]) == 0
    return cards, suite, baseline


def recount_metrics(data: dict, matchup: str, games: int) -> None:
    """A baseline's recorded win rates of ``matchup`` after its games are cut to the first
    ``games`` (call it before cutting): each team's rate over those games, as ``--update
    --games GAMES`` writes them, given to the teams in the order of their recorded rates (the
    file does not say which rate is whose; the baseline checks compare them as a set)."""
    winners = data["matchups"][matchup]["winners"][:games]
    none = winners.count("-") / 4
    cut = sorted((winners.count(code) + none) / len(winners) for code in "0123")
    mine = sorted((e for name, e in data["metrics"].items() if name.startswith(f"{matchup}: ")),
                  key=lambda e: e["rate"])
    for entry, rate in zip(mine, cut):
        entry.update(rate=rate, games=games)
