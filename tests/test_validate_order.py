"""``bwlab validate DIR --teams F`` with a broken card folder (found by the content audit of
2026-12-07): the notice that the team file was not checked said "the cards above must load
first" but is printed before the card folder's problem lines, not after them."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]


def test_the_unchecked_team_file_notice_points_at_the_problems_where_they_are(capsys, tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    sheet = cards / "characters.csv"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace(
        "\nMario,Video Games,Gold,mobility,", "\nMario,Video Games,Gold,mobilty,"),
        encoding="utf-8")
    code, out, err = run(capsys, "validate", cards, "--teams",
                         ROOT / "experiments" / "teams" / "example.toml")
    assert code == 2
    lines = err.strip().splitlines()
    errors = [i for i, x in enumerate(lines) if x.startswith("error: ")]
    (notice,) = [i for i, x in enumerate(lines) if "not checked" in x]
    assert errors and "characters.csv:3: ability: unknown ability 'mobilty'" in lines[errors[0]]
    where = "above" if all(i < notice for i in errors) else "below"
    assert f"(its problems {where})" in lines[notice] or f"the cards {where}" in lines[notice], \
        lines
