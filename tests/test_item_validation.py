"""``bwlab validate`` covers the items (cards/item_types.toml, cards/items.csv): each case breaks
one thing in a private copy of the shipped folder and expects exactly one line naming file, line
and field, exit code 2, no traceback (the helpers of tests/_validation_kit.py; the ``cards``
fixture of tests/conftest.py)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tests._validation_kit import expect, run


def rows(folder: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO((folder / "items.csv").read_text(encoding="utf-8"))))


def set_item(folder: Path, name: str, column: str, value: str) -> int:
    """Set ``column`` of the item called ``name``; return its line."""
    table = rows(folder)
    line = next(i for i, r in enumerate(table) if r and r[0] == name)
    table[line][table[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(table)
    (folder / "items.csv").write_text(out.getvalue(), encoding="utf-8")
    return line + 1


@pytest.mark.parametrize("name, column, value, field, message", [
    ("Iron Sword", "type", "sword", "type", "unknown type 'sword'"),
    ("Iron Sword", "value", "11", "value", "11 out of range [1, 10]"),
    ("Iron Sword", "value", "", "value", "empty"),
    ("Health Potion", "effect", "freeze", "effect", "a potion runs heal or cleanse, not 'freeze'"),
    ("Health Potion", "target", "enemy", "target", "effect 'heal' works on ally or self"),
    ("Throwing Knife", "target", "foe", "target", "unknown target 'foe'"),
    ("Health Potion", "costs_action", "2", "costs_action", "2 out of range [0, 1]"),
    ("Iron Sword", "costs_action", "1", "costs_action", "a held item is never used"),
    ("Iron Sword", "params", "amount=9", "params.amount", "9 out of range [1, 4]"),
    ("Iron Sword", "params", "amout=1", "params", "unknown parameter 'amout' for a weapon"),
    ("Health Potion", "params", "damage=3", "params", "unknown parameter 'damage' for a potion"),
    ("Antidote", "params", "amount=3", "params", "parameter 'amount' does nothing for effect "
                                                 "'cleanse'"),
    ("Scroll of Weakness", "params", "stat=5", "params.stat", "a de-buff's stat is 0..4"),
    ("War Hammer", "name", "Iron Sword", "name", "duplicate of line 2"),
])
def test_a_bad_item_row_is_one_line(capsys, cards, name, column, value, field,
                                    message):
    """Items as data ("every item belongs to one of seven types"; "Items are denoted with a
    value"; "Some items also cost that character's action"): every cell is checked against its
    type's effects, targets and parameter bounds."""
    line = set_item(cards, name, column, value)
    expect(capsys, cards, ("items.csv", line, field, message))


@pytest.mark.parametrize("table, old, new, field, message", [
    ("[types.potion]", 'effects = ["heal", "cleanse"]', 'effects = ["heal", "revive"]',
     "types.potion.effects", "unknown item effect 'revive'"),
    ("[types.weapon]", 'effects = ["buff"]', 'effects = ["buff", "heal"]', "types.weapon.effects",
     "a held item's effect is a lasting buff"),
    ("[types.weapon]", "stat = [3, 3, 3]", "stat = [3, 0, 3]", "types.weapon.params.stat",
     "a held item changes one stat"),
    ("[types.armour]", "amount = [1, 1, 3] }", "amount = [1, 1, 3], duration = [1, 1, 2] }",
     "types.armour.params.duration", "a held item reads only"),
    ("[types.bomb]", "range = [3, 0, 8]", "reach = [3, 0, 8]", "types.bomb.params.reach",
     "unknown parameter"),
    ("[types.bomb]", "damage = [20, 1, 200]", "damage = [20, 30, 200]",
     "types.bomb.params.damage", "expected [default, min, max]"),
    ("[rules]", "pickup_range = 1", "pickup_range = -1", "rules.pickup_range", "out of range"),
    ("[greedy]", "keep_percent = 75", "keep_percent = 175", "greedy.keep_percent",
     "out of range"),
])
def test_a_bad_item_type_is_one_line(capsys, cards, table, old, new, field, message):
    """cards/item_types.toml (house: the seven types): effects, parameters and rules are checked
    like the Ability Index; items never revive ("A revive is caused by an ability or a tile that
    specifies one. Nothing else brings a character back")."""
    path = cards / "item_types.toml"
    text = path.read_text(encoding="utf-8")
    at = text.index(old, text.index(table))
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    line = text[:at].count("\n") + 1
    expect(capsys, cards, ("item_types.toml", line, field, message))


def test_seven_item_types(capsys, cards):
    """"every item belongs to one of seven types": not six."""
    path = cards / "item_types.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("[types.scope]")
    path.write_text(text[:start] + text[text.index("[types.potion]"):], encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    line = text[: text.index("[types.weapon]")].count("\n") + 1
    err = expect(capsys, cards, ("item_types.toml", line, "types", "expected 7 item types"))
    assert len(err) == 1


def test_the_items_file_is_required(capsys, cards):
    """A card folder without items.csv is reported (one line, exit code 2), not a traceback."""
    (cards / "items.csv").unlink()
    code, _, err = run(capsys, cards)
    assert code == 2 and len(err) == 1 and err[0].endswith("items.csv: file: not found")
