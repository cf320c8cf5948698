"""What the drift gate tells the developer (the audit of its drift gate): a card file changed
only by a comment never claims to resume an interrupted run. A small suite (a 256-game baseline)
keeps it cheap."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
FLOOR, CAP = 64, 256  # the small suite's min_games and max_games


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """Private cards, a suite with min_games 64 and max_games 256, and its full baseline."""
    from sim.cli.main import main

    tmp = tmp_path_factory.mktemp("drift_messages")
    cards = Path(shutil.copytree(ROOT / "cards", tmp / "cards"))
    exps = Path(shutil.copytree(ROOT / "experiments", tmp / "experiments"))
    suite = exps / "drift.toml"
    suite.write_text(suite.read_text().replace("max_games = 4096", f"max_games = {CAP}")
                     .replace("min_games = 1024", f"min_games = {FLOOR}")
                     .replace("round = 128", "round = 64"))
    baseline = tmp / "baseline.json"
    assert main(["drift", "--cards", str(cards), "--suite", str(suite), "--baseline",
                 str(baseline), "--update", "--quiet"]) == 0
    return cards, suite, baseline


def _gate(capsys, small, baseline, *extra):
    cards, suite, _ = small
    return run(capsys, "drift", "--cards", cards, "--suite", suite, "--baseline", baseline,
               "--quiet", *extra)


def test_a_comment_in_a_card_file_never_claims_to_resume_an_interrupted_run(capsys, small,
                                                                           tmp_path):
    """The card files differ only by a comment: the "before" (the baseline's cards replayed)
    and the "now" are the same calls, so the second finds the first's games in this command's
    journal. Reused, rightly, but nothing was interrupted: no "resuming" line (it was said even
    under --quiet), and the progress summary says what they were."""
    from tests._cli_kit import eager_progress

    cards = Path(shutil.copytree(small[0], tmp_path / "cards"))
    with (cards / "rules.toml").open("a") as f:
        f.write("# a comment\n")
    code, out, err = _gate(capsys, (cards, small[1], None), small[2])
    assert code == 0 and "changed since the baseline: rules.toml" in out
    assert "resum" not in err, err
    with eager_progress():
        code, _, err = run(capsys, "drift", "--cards", cards, "--suite", small[1],
                           "--baseline", small[2])
    summary = [x for x in err.splitlines() if " games in " in x]
    assert summary and "resum" not in err, err
    assert summary[-1].endswith("(64 of them the same games as this command had already "
                                "played, not played again)"), summary
