"""``bwlab validate``: every designer mistake in characters.csv is one line on stderr naming file,
line and field.

Each case copies the shipped ``cards/`` folder to a temporary folder, breaks characters.csv,
runs the CLI in-process (``sim.cli.main.main``) and checks: exit code 2, exactly the expected
problem lines (``error: FILE:LINE: FIELD: message``), and no traceback. The book quotes in the
docstrings are the rules the shipped data must respect ("The maximum defense a character can
achieve is 9", "A value printed with no exponent is Tier 1"); house rulings are named as such."""

from __future__ import annotations

import pytest

from sim.catalogue.loader import load_catalogue
from tests._validation_kit import SHIPPED, expect, read_rows, set_cell, write_rows


# --------------------------------------------------------------------------- characters.csv

def test_unknown_column(capsys, cards):
    """Schema: a misspelt column is reported on the header line with a suggestion."""
    rows = read_rows(cards)
    rows[0][rows[0].index("notes")] = "notez"
    write_rows(cards, rows)
    err = expect(capsys, cards, ("characters.csv", 1, "notez", "unknown column"))
    assert "did you mean notes" in err[0]


def test_duplicate_column(capsys, cards):
    """Schema: a column given twice would silently shadow the first; it is reported."""
    rows = read_rows(cards)
    rows[0][rows[0].index("notes")] = "name"
    write_rows(cards, rows)
    expect(capsys, cards, ("characters.csv", 1, "name", "given twice"))


def test_missing_required_column(capsys, cards):
    """Book: "The Defense stat represents how difficult it is to land an attack" — every card
    needs one; a missing required column is reported on the header line."""
    rows = read_rows(cards)
    j = rows[0].index("defense")
    write_rows(cards, [r[:j] + r[j + 1:] for r in rows])
    expect(capsys, cards, ("characters.csv", 1, "defense", "required column missing"))


def test_unknown_suit(capsys, cards):
    """Book: "There are 12 different Suits that a card or a tile could possess." (names: house
    ruling in rules.toml) — an unknown suit is reported with a suggestion."""
    set_cell(cards, 2, "suit", "Animee")
    err = expect(capsys, cards, ("characters.csv", 2, "suit", "unknown suit 'Animee'"))
    assert "did you mean Anime" in err[0]


def test_unknown_rarity(capsys, cards):
    """Book: "Schedule D lists them from left to right in order from least to most powerful:
    Bronze, Silver, Gold, Diamond, Legendary, and GOAT Series." — no seventh rarity."""
    set_cell(cards, 3, "rarity", "Platinum")
    expect(capsys, cards, ("characters.csv", 3, "rarity", "unknown rarity 'Platinum'"))


def test_unknown_ability(capsys, cards):
    """Book: "Every ability belongs to one of the 11 ability types set out in the Ability Index.\""""  # noqa: E501
    set_cell(cards, 4, "ability", "teleport")
    expect(capsys, cards, ("characters.csv", 4, "ability", "unknown ability 'teleport'"))


def test_unknown_ability_parameter(capsys, cards):
    """Ability Index (house ruling): each type has named parameters; a misspelt one is reported
    with a suggestion."""
    set_cell(cards, 2, "ability_params", "bonus_attacks=2; charge=3")
    err = expect(capsys, cards,
                 ("characters.csv", 2, "ability_params", "unknown parameter 'charge'"))
    assert "did you mean charges" in err[0]


def test_ability_parameter_given_twice(capsys, cards):
    """Ability Index (house ruling): a parameter set twice is ambiguous; it is reported."""
    set_cell(cards, 2, "ability_params", "charges=2; charges=3")
    expect(capsys, cards, ("characters.csv", 2, "ability_params", "given twice"))


def test_ability_parameter_out_of_range(capsys, cards):
    """Ability Index (house ruling): strike's bonus_attacks is 1..12."""
    set_cell(cards, 2, "ability_params", "bonus_attacks=99")
    expect(capsys, cards, ("characters.csv", 2, "ability_params.bonus_attacks",
                           "99 out of range [1, 12]"))


def test_an_ability_outside_its_owners_turn_is_refused_not_ignored(capsys, cards, tmp_path):
    """Book: an ability's functions "can be performed only during their turn unless specified
    otherwise"; the engine offers abilities only in their owner's decisions, so a card or a type
    asking for another turn (own_turn_only = 0) is refused, file, line and field (it was accepted
    and did nothing; docs/rulings.md, "Abilities on the owner's turn only")."""
    import shutil

    from sim.catalogue.diagnostics import InputError

    set_cell(cards, 2, "ability_params", "bonus_attacks=2; own_turn_only=0")
    expect(capsys, cards, ("characters.csv", 2, "ability_params.own_turn_only",
                           "0 out of range [1, 1]"))
    root = tmp_path / "typed"
    shutil.copytree(SHIPPED, root)
    path = root / "abilities.toml"
    text = path.read_text(encoding="utf-8")
    assert text.count("own_turn_only = [1, 1, 1]") == 11
    path.write_text(text.replace("own_turn_only = [1, 1, 1]", "own_turn_only = [1, 0, 1]", 1),
                    encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_catalogue(root)
    assert any("abilities.toml:" in ln and ": strike.params.own_turn_only: " in ln
               and "outside its owner's turn is not simulated" in ln
               for ln in str(err.value).splitlines()), str(err.value)


def test_defense_above_nine(capsys, cards):
    """Book: "The maximum defense a character can achieve is 9 — at that ceiling only a rolled 12
    will land a hit." — defense 10 is reported."""
    set_cell(cards, 5, "defense", "10")
    expect(capsys, cards, ("characters.csv", 5, "defense", "10 out of range [0, 9]"))


def test_negative_speed(capsys, cards):
    """Book: "Each character has a unique Speed stat. Speed determines how far a character can
    move each turn." — a negative speed is reported."""
    set_cell(cards, 6, "speed", "-1")
    expect(capsys, cards, ("characters.csv", 6, "speed", "-1 out of range"))


def test_tier_five(capsys, cards):
    """Book (R3:S3:A4): "there are 4 Dice Tiers, expressed as an exponent on the attack star" —
    tier 5 is reported on the column of that star point."""
    set_cell(cards, 7, "red_tier", "5")
    expect(capsys, cards, ("characters.csv", 7, "red_tier", "5 out of range [1, 4]"))


def test_a_blank_tier_cell_is_tier_1(cards):
    """Book: "A value printed with no exponent is Tier 1." — a blank ``base_tier`` loads as tier
    1 (and a written 3 as 3), so a card's dice come from the tier the designer printed."""
    set_cell(cards, 2, "base_tier", "")
    set_cell(cards, 3, "base_tier", "3")
    cat = load_catalogue(cards)
    first, second = (cat.cards.lines.index(line) for line in (2, 3))  # cards are in name order
    assert int(cat.cards.tier[first, 0]) == 1 and int(cat.cards.tier[second, 0]) == 3


@pytest.mark.parametrize("value", ["0", "11"])
def test_characters_per_card_is_1_to_10(capsys, cards, value):
    """Book: "A multi-character card spawns multiple characters instead of one" — a card spawns
    at least one character (0 is reported) and at most the house limit of 10."""
    set_cell(cards, 4, "characters", value)
    expect(capsys, cards, ("characters.csv", 4, "characters", f"{value} out of range [1, 10]"))


def test_duplicate_names_report_first_line(capsys, cards):
    """Cards are found by name (``--attacker Luffy``): a second "Mario" is reported on its own
    line, naming the line of the first."""
    set_cell(cards, 10, "name", "mario")
    expect(capsys, cards, ("characters.csv", 10, "name", "duplicate of line 3"))


@pytest.mark.parametrize("column,text", [("max_health", "abc"), ("speed", "3.5"), ("base", "")])
def test_malformed_numbers(capsys, cards, column, text):
    """Book: "You roll the Damage Dice as many times as your Attack Hit" — stats are whole
    numbers; "abc", "3.5" and a blank are reported."""
    set_cell(cards, 8, column, text)
    expect(capsys, cards, ("characters.csv", 8, column, "not a whole number" if text else "empty"))


def test_an_unclosed_quote_is_reported_on_the_line_it_opens(capsys, cards):
    """A quote opened in row 3 and never closed swallows the rest of the file into one record:
    the problem is on line 3, where the fix belongs, not on the file's last line."""
    path = cards / "characters.csv"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[2] = '"' + lines[2]
    path.write_text("\n".join(lines), encoding="utf-8")
    expect(capsys, cards, ("characters.csv", 3, "row", "cells, the header has"))


def test_row_with_wrong_cell_count(capsys, cards):
    """Schema: a row with a missing comma is reported once, on its own line."""
    with open(cards / "characters.csv", "a", encoding="utf-8") as f:
        f.write("Short Row,Anime,Bronze\n")
    n = len(read_rows(cards))
    expect(capsys, cards, ("characters.csv", n, "row", "has 3 cells"))


@pytest.mark.parametrize("content", ["", "  \n\n"])
def test_empty_file(capsys, cards, content):
    """Schema: an empty characters.csv is one problem, not a traceback."""
    (cards / "characters.csv").write_text(content, encoding="utf-8")
    expect(capsys, cards, ("characters.csv", 1, "file", "empty"))


def test_header_only_file(capsys, cards):
    """Book: "Each game of Board Wars is played with 4 teams, each composed of 5 Character
    Cards." — a file with no cards is reported."""
    write_rows(cards, read_rows(cards)[:1])
    expect(capsys, cards, ("characters.csv", 2, "row", "no cards"))


def test_non_utf8_file(capsys, cards):
    """Schema: files are UTF-8; a UTF-16 / Latin-1 export is reported with the line of the byte."""
    (cards / "characters.csv").write_bytes(b"\xff\xfen\x00a\x00m\x00e\x00")
    expect(capsys, cards, ("characters.csv", 1, "encoding", "not UTF-8 (byte 0xff)"))


def test_non_utf8_byte_on_a_later_line(capsys, cards):
    """Schema: the line of the first bad byte is named (a Latin-1 'é' in a name on line 4)."""
    raw = (cards / "characters.csv").read_bytes().split(b"\n")
    raw[3] = b"Caf\xe9" + raw[3][raw[3].index(b","):]
    (cards / "characters.csv").write_bytes(b"\n".join(raw))
    expect(capsys, cards, ("characters.csv", 4, "encoding", "not UTF-8 (byte 0xe9)"))


def test_several_card_problems_all_reported(capsys, cards):
    """Designers fix a whole file in one pass: every bad cell on every row is reported, in order,
    one line each (suit line 2, defense and tier line 5, duplicate name line 9)."""
    set_cell(cards, 2, "suit", "Animee")
    set_cell(cards, 5, "defense", "12")
    set_cell(cards, 5, "base_tier", "0")
    set_cell(cards, 9, "name", "Luffy")
    expect(capsys, cards,
           ("characters.csv", 2, "suit", "unknown suit"),
           ("characters.csv", 5, "defense", "out of range"),
           ("characters.csv", 5, "base_tier", "out of range"),
           ("characters.csv", 9, "name", "duplicate of line 2"))
