"""Docs audit of stop 82 (b): the examples of the commands that play games (play, replay,
fairness, draft, rarity, ladder, rulings, report, run, json.md's jq) run as the documents show."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]


def _doc(name: str) -> str:
    text = (ROOT / name).read_text(encoding="utf-8")
    return " ".join(text.split())


@pytest.fixture(scope="module")
def fairness_json():
    """`bwlab fairness experiments/teams/example.toml --format json -q` (json.md's jq example)."""
    from sim.cli.main import main

    with pytest.MonkeyPatch.context() as m:
        m.chdir(ROOT)
        m.setenv("BWLAB_JOURNAL", "off")
        import contextlib
        import io

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = main(["fairness", "experiments/teams/example.toml", "--format", "json", "-q"])
    assert code in (0, 1, 3)
    return json.loads(buf.getvalue())


def test_watching_md_quotes_the_frames_of_the_seed_1_game(capsys, tmp_path, monkeypatch):
    """docs/watching.md sized the GIF and page of "a 58-turn game" (3-4 MB, 5 MB) right after
    calling `play --seed 1` "the game above"; that game draws 131 frames, a 6 MB GIF and a
    10 MB page."""
    monkeypatch.chdir(ROOT)
    log = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, "play", "--teams", "experiments/teams/example.toml", "--seed", "1",
                       "--log", log, "-q")
    assert code == 0 and "rotation 56" in out
    with log.open(encoding="utf-8") as f:
        turns = sum(json.loads(line).get("event") == "turn" for line in f)
    doc = _doc("docs/watching.md")
    assert "58-turn" not in doc
    assert f"{turns} frames" in doc


def test_json_md_lists_every_timing_key():
    """json.md: the same command prints the same document byte for byte "except its timing
    keys" (fairness, ladder, rulings); `power-levels --validate-budget` adds
    validation.seconds, wall-clock too, which the list left out."""
    from sim.cli.power_levels import validation_dict

    assert '"seconds"' in inspect.getsource(validation_dict)
    assert "validation.seconds" in _doc("docs/json.md")


def test_json_md_points_to_readme_sections_that_exist():
    """json.md sent readers of the rarity document's keys to "the README's rarity section":
    the README has none (its headings: the combat calculator, for GMs..., the report, ...)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    headings = " ".join(h.lower() for h in re.findall(r"^#+ (.+)$", readme, re.M))
    for what in re.findall(r"the README's (\w+) section", _doc("docs/json.md")):
        assert what.lower() in headings, what


def test_json_md_gives_the_default_fairness_interval_level(fairness_json):
    """json.md: interval_level is "0.9875 for 4 teams and one look"; its own jq example
    (the defaults: up to 16 looks of 256 games) gives 0.99921875 even when it stops at the first
    look, which the document did not say."""
    level = fairness_json["interval_level"]
    assert level == pytest.approx(1 - 0.05 / (4 * 16))
    assert repr(level) in _doc("docs/json.md")


def test_advice_md_ranking_example_is_todays(fairness_json):
    """docs/advice.md quoted the ranking of `bwlab fairness experiments/teams/example.toml` at
    d3240dd ("Straw Hats is ahead of Ink & Iron and Toon Squad"); today's run prints "Straw
    Hats is ahead of Toon Squad"."""
    assert f'"{fairness_json["ranking"]}"' in _doc("docs/advice.md")
