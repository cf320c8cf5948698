"""Audit 79 (content): a designer adds a card, an item, a tile function, a vehicle and an
Apocalypse with data only, following README.md and docs/; `bwlab validate` must accept the
correct version and refuse each broken one with one `error: FILE:LINE: FIELD: message` line
(exit 2, no traceback). Validation only: every test runs in well under a second."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._validation_kit import ROOT, expect, parse, run

CARD = ("Frost Warden,Mythology,Gold,freeze,duration=2; range=4; charges=2,"
        "1,4,3,150,4,6,1,7,1,4,1,7,2,audit: a freezer\n")
ITEM = "Frost Bomb,bomb,5,damage,enemy,,damage=35; range=4,audit: a cold blast\n"
STARGATE = 'layout = ["P"]\n'
STARGATE_FUNCTIONS = '''layout = ["P"]
[tiles.reward]
name = "Gate Toll"
ticks = 1
effect = "earn"
params = { amount = 2 }
description = "earn 2 coins"
[tiles.interactable]
name = "Gate Armoury"
effect = "item"
item = "Frost Bomb"
price = 1
description = "buy a Frost Bomb for 1 coin"
'''
VEHICLE = '''
[[vehicles]]
name = "Chariot"
tile = "Colosseum"
health = 90
speed = 5
defense = 2
attacks = 3
tier = 1
range = 2
'''
APOCALYPSE = '''
[[apocalypses]]
name = "The Long Winter"
description = "Tile-wide flat damage each rotation, slowly rising."
effect = "flood"
damage = 10
rise = 5
resolve = "hold"
hold = 3
'''


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    hits = [i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if needle in line]
    assert hits, needle
    return hits[-1]  # the new content is the last of its file


@pytest.fixture
def content(cards) -> Path:
    """The shipped cards plus the five pieces of new content, all correct."""
    _append(cards / "characters.csv", CARD)
    _append(cards / "items.csv", ITEM)
    _replace(cards / "tiles.toml", STARGATE, STARGATE_FUNCTIONS)
    _append(cards / "vehicles.toml", VEHICLE)
    _append(cards / "apocalypses.toml", APOCALYPSE)
    return cards


def test_the_new_content_validates(capsys, content):
    code, out, err = run(capsys, content)
    assert code == 0, err
    assert "73 cards" in out and "22 items" in out and "4 Apocalypses" in out


@pytest.mark.parametrize("file, old, new, field, text", [
    ("characters.csv", "Frost Warden,Mythology,Gold,freeze", "Frost Warden,Mythology,Gold,freez",
     "ability", "did you mean freeze"),
    ("characters.csv", "duration=2; range=4; charges=2,1,4,3,150",
     "duration=9; range=4; charges=2,1,4,3,150", "ability_params.duration", "out of range"),
    ("characters.csv", "Frost Warden,", "Luffy,", "name", "duplicate"),
    ("items.csv", "Frost Bomb,bomb,5,", "Frost Bomb,bomb,five,", "value", "whole number"),
    ("items.csv", "damage=35; range=4", "damge=35; range=4", "params", "did you mean damage"),
    ("tiles.toml", "params = { amount = 2 }", "params = { amount = 9999 }",
     "tiles.reward.params.amount", "out of range"),
    ("vehicles.toml", "tile = \"Colosseum\"", "tile = \"Coliseum\"", "vehicles.tile",
     "did you mean Colosseum"),
    ("apocalypses.toml", "hold = 3\n", "hold = 30\n", "apocalypses.hold", "out of range"),
])
def test_each_broken_piece_is_one_line(capsys, content, file, old, new, field, text):
    _replace(content / file, old, new)
    line = _line_of(content / file, new.strip().splitlines()[0])
    expect(capsys, content, (file, line, field, text))


@pytest.mark.parametrize("old, new, key", [
    ("effect = \"flood\"\ndamage = 10\n", "effect = \"flood\"\ndamage = 10\ncount = 7\n", "count"),
    ("effect = \"storm\"\ncount = 4\n", "effect = \"storm\"\ncount = 4\ndamage = 500\n", "damage"),
])
def test_an_apocalypse_key_its_effect_does_not_read_is_refused(capsys, content, old, new, key):
    _replace(content / "apocalypses.toml", old, new)
    code, _, err = run(capsys, content)
    assert code == 2, "accepted: the key does nothing"
    got = parse([e for e in err if e.startswith("error:")])
    assert [(f, fld) for f, _, fld, _ in got] == [("apocalypses.toml", f"apocalypses.{key}")]


def test_the_how_to_add_section_says_how_to_add_a_vehicle():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## How to add", 1)[1].split("\n## ", 1)[0]
    assert "vehicles.toml" in section


def test_an_unknown_item_name_is_reported_at_its_own_line(capsys, content):
    tiles = content / "tiles.toml"
    _replace(tiles, 'item = "Frost Bomb"', 'item = "Frost Bom"')
    expect(capsys, content, ("tiles.toml", _line_of(tiles, 'item = "Frost Bom"'),
                             "tiles.interactable.item", "did you mean Frost Bomb"))
