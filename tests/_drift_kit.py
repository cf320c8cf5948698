"""A private drift lab for the drift tests: copies of cards/ and experiments/, the suite's
bounds edited, and a baseline made from them with ``drift --update``."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def private_lab(tmp: Path, edits: dict[str, str]) -> tuple[Path, Path, Path]:
    """(cards, suite, baseline) under ``tmp``; ``edits`` replace text of the shipped suite
    (``{"max_games = 4096": "max_games = 1024"}``)."""
    from sim.cli.main import main

    cards = Path(shutil.copytree(ROOT / "cards", tmp / "cards"))
    exps = Path(shutil.copytree(ROOT / "experiments", tmp / "experiments"))
    suite = exps / "drift.toml"
    text = suite.read_text(encoding="utf-8")
    for old, new in edits.items():
        assert old in text, old
        text = text.replace(old, new)
    suite.write_text(text, encoding="utf-8")
    baseline = tmp / "baseline.json"
    assert main(["drift", "--cards", str(cards), "--suite", str(suite), "--baseline",
                 str(baseline), "--update", "--quiet"]) == 0
    return cards, suite, baseline


def recount_metrics(data: dict, matchup: str, games: int, recorded: str | None = None) -> None:
    """A baseline's recorded win rates of ``matchup`` as ``--update --games GAMES`` writes
    them: each team's rate over the first ``games`` games of its winners (called before they
    are cut; each rate is matched to its team by the rate the ``recorded`` winners give, by
    default the file's own)."""
    winners = data["matchups"][matchup]["winners"]
    before = rates(recorded or winners)

    after = rates(winners[:games])
    for name, entry in data["metrics"].items():
        if name.startswith(f"{matchup}: "):
            k = min(range(4), key=lambda i: abs(before[i] - entry["rate"]))
            entry.update(rate=after[k], games=games)


def rates(winners: str) -> list[float]:
    """Each team's win rate over a baseline's winners (no winner: 1/4 to each)."""
    return [(winners.count(code) + winners.count("-") / 4) / len(winners) for code in "0123"]
