"""Audit 79 (gm): a game master checks team fairness before a game night with a team file of
their own. Bad team files must be refused with one `error: FILE:LINE: FIELD: message` line per
problem, exit 2, nothing on stdout; and the JSON a GM's script reads must use the words the docs
promise. Every check plays at most 8 games (well under 5 s each)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "experiments" / "teams" / "example.toml").read_text(encoding="utf-8")


def _file(tmp_path, text, name="teams.toml"):
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def _refused(capsys, tmp_path, p, *expected):
    before = sorted(x.name for x in tmp_path.iterdir())
    code, out, err = run(capsys, "fairness", p, "--games", 8, "-q")
    assert code == 2
    assert out == ""
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == len(expected), err
    for line, (lineno, field) in zip(lines, expected):
        assert line.startswith(f"error: {p}:{lineno}: {field}: "), line
    assert sorted(x.name for x in tmp_path.iterdir()) == before


@pytest.mark.parametrize("edit, expected", [
    (lambda t: t.replace('"Ink Samurai"', '"Luffy"'), [(9, "teams.cards")]),            # card in two teams
    (lambda t: t.replace('"Ink Samurai"', '"Paper Ghost"'), [(9, "teams.cards")]),      # card twice in a team
    (lambda t: t.replace(', "Shadow Scribe"', ""), [(9, "teams.cards")]),               # a team of 4
    (lambda t: t.replace('"Ink Samurai"', '"Ink Samuri"'), [(9, "teams.cards")]),       # unknown card
    (lambda t: t.replace('cards = ["Iron', 'card = ["Iron'), [(9, "teams.card")]),      # misspelt key
    (lambda t: t.replace('"Ink Samurai"', '"Ink Samuri"').replace(', "Combo Sprite"', "")
     .replace('name = "Ink & Iron"', 'nmae = "Ink & Iron"'),
     [(8, "teams.nmae"), (9, "teams.cards"), (13, "teams.cards")]),                   # three at once
])
def test_bad_team_file_one_line_per_problem(capsys, tmp_path, edit, expected):
    text = edit(EXAMPLE)
    assert text != EXAMPLE
    _refused(capsys, tmp_path, _file(tmp_path, text), *expected)


def test_empty_and_binary_team_files_refused(capsys, tmp_path):
    _refused(capsys, tmp_path, _file(tmp_path, "", "empty.toml"), (1, "file"))
    _refused(capsys, tmp_path, _file(tmp_path, b"\x7fELF\x02\x01\x01\x00\xf0\x00\xff" * 20, "bin.toml"),
             (1, "encoding"))


def test_json_verdict_word_is_the_documented_one(capsys, tmp_path):
    """docs/advice.md names the verdict's words as the JSON gives them ("fair / unfair / open":
    it said "inconclusive", the JSON's "open", until the GM audit of stop 79); an 8-game check
    is inconclusive (exit 3), and a GM's script reading JSON `verdict` looks for that word."""
    doc = (ROOT / "docs" / "advice.md").read_text(encoding="utf-8")
    words = re.search(r"The verdict \(([^)]*)\)", doc).group(1).split(" / ")
    code, out, _ = run(capsys, "fairness", ROOT / "experiments" / "teams" / "example.toml",
                       "--games", 8, "-q", "--format", "json")
    data = json.loads(out)
    assert code == 3 and data["exit_code"] == 3
    assert data["conclusion"].startswith("Inconclusive")
    assert data["verdict"] in words, (data["verdict"], words)
