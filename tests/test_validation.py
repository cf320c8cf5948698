"""``bwlab validate``: every designer mistake is one line on stderr naming file, line and field.

Each case copies the shipped ``cards/`` folder to a temporary folder, breaks one file, runs the CLI
in-process (``sim.cli.main.main``) and checks: exit code 2, exactly the expected problem lines
(``error: FILE:LINE: FIELD: message``), and no traceback. The book quotes in the docstrings are
the rules the shipped data must respect; house rulings are named as such.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from sim.catalogue.loader import load_catalogue
from sim.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "cards"
LINE = re.compile(r"^error: (?P<file>.+?):(?P<line>\d+): (?P<field>[^:]+): (?P<msg>.+)$")


# ----------------------------------------------------------------------------------- helpers

@pytest.fixture
def cards(tmp_path) -> Path:
    """A private copy of the shipped card folder, with the experiments beside it (its
    arena_budget.toml names experiments/rarity.toml, relative to the folder's parent)."""
    shutil.copytree(SHIPPED.parent / "experiments", tmp_path / "experiments")
    return Path(shutil.copytree(SHIPPED, tmp_path / "cards"))


def run(capsys, folder: Path) -> tuple[int, str, list[str]]:
    code = main(["validate", str(folder)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, [line for line in err.splitlines() if line.strip()]


def parse(err_lines: list[str]) -> list[tuple[str, int, str, str]]:
    """(file name, line, field, message) of every stderr line; each must match the format."""
    parsed = []
    for text in err_lines:
        m = LINE.match(text)
        assert m, f"not 'error: FILE:LINE: FIELD: message': {text!r}"
        parsed.append((Path(m["file"]).name, int(m["line"]), m["field"], m["msg"]))
    return parsed


def expect(capsys, folder: Path, *problems: tuple[str, int, str, str]) -> list[str]:
    """Run validate; assert exit 2 and exactly one line per expected (file, line, field, text)."""
    code, _, err = run(capsys, folder)
    assert code == 2, err
    got = parse(err)
    assert len(got) == len(problems), "\n".join(err)
    for (file, line, field, text), (g_file, g_line, g_field, g_msg) in zip(problems, got):
        assert (g_file, g_line, g_field) == (file, line, field), "\n".join(err)
        assert text.lower() in g_msg.lower(), "\n".join(err)
    return err


def read_rows(folder: Path) -> list[list[str]]:
    text = (folder / "characters.csv").read_text(encoding="utf-8")
    return list(csv.reader(io.StringIO(text, newline="")))


def write_rows(folder: Path, rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    (folder / "characters.csv").write_text(out.getvalue(), encoding="utf-8")


def set_cell(folder: Path, line: int, column: str, value: str) -> None:
    """Set ``column`` of CSV ``line`` (1 = header; the shipped file has one row per line)."""
    rows = read_rows(folder)
    rows[line - 1][rows[0].index(column)] = value
    write_rows(folder, rows)


def edit_toml(folder: Path, name: str, old: str, new: str) -> int:
    """Replace the first ``old`` in ``name``; return the 1-based line it was on."""
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return line


# ------------------------------------------------------------------------------ clean folder

def test_shipped_folder_validates_clean(capsys):
    """Book: "Every character in Board Wars has their own unique Ability" — the shipped folder
    (rules, Ability Index, characters) loads with no problem and exit code 0."""
    code, out, err = run(capsys, SHIPPED)
    assert code == 0, err
    assert err == []
    assert "ok" in out and "11 ability types" in out and "12 suits" in out


def test_shipped_set_covers_rarities_suits_and_abilities():
    """Book: "There are 6 Card Rarities", "There are 12 different Suits", "Every ability belongs to
    one of the 11 ability types set out in the Ability Index" — the starter set has >= 60 cards,
    >= 8 per rarity, >= 4 per suit, every ability type on >= 3 cards and some multi-character
    cards ("A multi-character card spawns multiple characters instead of one")."""
    cat = load_catalogue(SHIPPED)
    cards, rules, abilities = cat.cards, cat.rules, cat.abilities
    assert len(cards) >= 60
    rarity = Counter(int(r) for r in cards.rarity)
    suit = Counter(int(s) for s in cards.suit)
    ability = Counter(int(a) for a in cards.ability)
    assert all(rarity[r] >= 8 for r in range(len(rules.rarities))), rarity
    assert all(suit[s] >= 4 for s in range(len(rules.suits))), suit
    assert all(ability[a] >= 3 for a in range(len(abilities.types))), ability
    assert {2, 3} <= set(int(c) for c in cards.characters)


def test_shipped_set_keeps_the_books_worked_example():
    """Book: "If Luffy (Schedule J) were to attack Mario (Schedule I), Luffy would throw 8 attacks
    using his base attack of 8²" and "with a defense of 4 his threshold is 6"."""
    cat = load_catalogue(SHIPPED)
    cards = cat.cards
    luffy, mario = cards.find("Luffy"), cards.find("Mario")
    assert cards.attacks[luffy, 0] == 8 and cards.tier[luffy, 0] == 2
    assert cat.rules.faces(int(cards.tier[luffy, 0])) == 12   # "each hit rolls a D-12"
    assert cards.defense[mario] == 4
    assert cards.defense[mario] + cat.rules.defense_margin == 6


def test_shipped_health_survives_a_fire_wall():
    """Book: "If that water-roll fails, the character takes 50 damage." — house ruling (health
    scale): every character's max health is above 50, so one failed fire-wall roll never kills a
    full-health character; and the median health rises with rarity."""
    cat = load_catalogue(SHIPPED)
    cards = cat.cards
    assert cards.max_health.min() > 50
    medians = [float(np.median(cards.max_health[(cards.rarity == r) & (cards.characters == 1)]))
               for r in range(len(cat.rules.rarities))]
    assert all(b >= a for a, b in zip(medians, medians[1:])), medians


def test_shipped_star_points_differ_by_colour():
    """Book: "No colour is inherently stronger or weaker than another ... Some characters hit
    harder when wounded; others hit softer." — the set has both kinds of red point."""
    cards = load_catalogue(SHIPPED).cards
    base, red = cards.attacks[:, 0], cards.attacks[:, 1]
    assert (red > base).any() and (red < base).any()


def test_buff_stat_codes_are_documented():
    """House ruling (Ability Index): the buff/debuff ``stat`` parameter is 0 speed, 1 range,
    2 defense, 3 attacks, 4 advantage (a de-buff: disadvantage), 5 invincibility (buffs only) —
    the description says so and the ranges are 0..5 and 0..4."""
    abilities = load_catalogue(SHIPPED).abilities
    for name, high, last in (("buff", 5, "4 advantage, 5 invincibility"),
                             ("debuff", 4, "4 disadvantage")):
        kind = abilities.types[abilities.code(name)]
        j = kind.param_names.index("stat")
        assert (kind.lows[j], kind.highs[j]) == (0, high)
        assert f"0 speed, 1 range, 2 defense, 3 attacks, {last}" in kind.description


@pytest.mark.parametrize("body, field, message", [
    ('effect = "strik"', "strike.effect", "unknown effect 'strik'"),
    ('target = "ally"', "strike.target", "effect 'strike' works on enemy, not 'ally'"),
    ('costs_action = 2', "strike.costs_action", "out of range"),
    ('effect = "area"\ntarget = "none"', "strike.params.bonus_attacks",
     "parameter 'bonus_attacks' does nothing for effect 'area' (it reads: charges, "
     "own_turn_only, damage)"),
])
def test_ability_effect_keys_are_validated(tmp_path, body, field, message):
    """Effects as data: a type's ``effect``, ``target`` and ``costs_action`` are checked, one line
    per problem with file, line and field (docs/effects.md)."""
    import shutil
    from sim.catalogue.diagnostics import InputError
    root = tmp_path / "cards"
    shutil.copytree(SHIPPED, root)
    path = root / "abilities.toml"
    text = path.read_text()
    head = '[strike]\ndescription = "Throws extra attacks with the current star point (a stronger action)."\n'
    assert head in text
    text = text.replace(head + 'effect = "strike"\ntarget = "enemy"\n', head + body + "\n")
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_catalogue(root)
    lines = str(err.value).splitlines()
    assert any(f"abilities.toml:" in ln and f": {field}: " in ln and message in ln for ln in lines), lines


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
    """Book: "Every ability belongs to one of the 11 ability types set out in the Ability Index.\""""
    set_cell(cards, 4, "ability", "teleport")
    expect(capsys, cards, ("characters.csv", 4, "ability", "unknown ability 'teleport'"))


def test_unknown_ability_parameter(capsys, cards):
    """Ability Index (house ruling): each type has named parameters; a misspelt one is reported
    with a suggestion."""
    set_cell(cards, 2, "ability_params", "bonus_attacks=2; charge=3")
    err = expect(capsys, cards, ("characters.csv", 2, "ability_params", "unknown parameter 'charge'"))
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


# ------------------------------------------------------------------------------- rules.toml

def test_rules_unknown_key_with_suggestion(capsys, cards):
    """rules.toml: a misspelt key ("A Defense Dice will always be a D-12." -> defense_die) is one
    problem on its own line with a suggestion — not also a second "missing" line."""
    line = edit_toml(cards, "rules.toml", "defense_die = 12", "defence_die = 12")
    err = expect(capsys, cards, ("rules.toml", line, "dice.defence_die", "unknown key"))
    assert "did you mean defense_die" in err[0]


def test_rules_misspelt_section_is_one_problem(capsys, cards):
    """rules.toml: a misspelt table ([dice] -> [dic]) is one line with a suggestion, not one
    "missing" line per key of the table."""
    line = edit_toml(cards, "rules.toml", "[dice]", "[dic]")
    err = expect(capsys, cards, ("rules.toml", line, "dic", "unknown key"))
    assert "did you mean dice" in err[0]


def test_rules_unknown_optional_key(capsys, cards):
    """rules.toml: a misspelt optional key (report.typical_defender) is reported too."""
    line = edit_toml(cards, "rules.toml", "typical_defender =", "typical_defendr =")
    err = expect(capsys, cards, ("rules.toml", line, "report.typical_defendr", "unknown key"))
    assert "did you mean typical_defender" in err[0]


@pytest.mark.parametrize("value,words", [
    ("-1", "a whole defense from 0 to max_defense 9"), ("12", "max_defense 9"),
    ("1.5", "max_defense 9"), ("99999999999", "max_defense 9"),
    ("true", "expected text or an integer or a number"), ("[]", "expected text"),
    ("nan", "not a finite number"), ("1e400", "not a finite number"),
    ("99999999999999999999", "too large")])
def test_rules_typical_defender_is_a_defense_a_card_may_have(capsys, cards, value, words):
    """rules.toml: a number pins the demo's typical defender's defense, so it is a whole number
    from 0 to max_defense ("The maximum defense a character can achieve is 9"); -1, 12 and 1.5
    once validated and the demo reported a defender of defense -1 (or truncated 1.5 to 1); a
    value of the wrong type is one line too (the first fix of it raised TypeError on them)."""
    line = edit_toml(cards, "rules.toml", 'typical_defender = "median"',
                     f"typical_defender = {value}")
    expect(capsys, cards, ("rules.toml", line, "report.typical_defender", words))


def test_rules_missing_key(capsys, cards):
    """rules.toml: a required key deleted outright is reported as missing (table's line)."""
    edit_toml(cards, "rules.toml", "defense_margin = 2\n", "")
    code, _, err = run(capsys, cards)
    assert code == 2
    (got,) = parse(err)
    assert got[0] == "rules.toml" and got[2] == "dice.defense_margin" and "missing" in got[3]


def test_rules_value_out_of_range(capsys, cards):
    """Book: "A Defense Dice will always be a D-12." — a 1-sided defense die is out of range."""
    line = edit_toml(cards, "rules.toml", "defense_die = 12", "defense_die = 1")
    expect(capsys, cards, ("rules.toml", line, "dice.defense_die", "out of range"))


def test_rules_wrong_type(capsys, cards):
    """Book: "If the roll is more than your defense stat plus 2, that attack is considered a
    Hit." — the margin must be a whole number, not text."""
    line = edit_toml(cards, "rules.toml", "defense_margin = 2", 'defense_margin = "two"')
    expect(capsys, cards, ("rules.toml", line, "dice.defense_margin", "expected an integer"))


def test_rules_wrong_choice(capsys, cards):
    """House ruling (advantage scope): only per_die / per_attack exist; others are suggested."""
    line = edit_toml(cards, "rules.toml", 'scope = "per_die"', 'scope = "per_dice"')
    err = expect(capsys, cards, ("rules.toml", line, "advantage.scope", "unknown value"))
    assert "per_die" in err[0]


def test_rules_syntax_error_names_line(capsys, cards):
    """rules.toml: a TOML syntax error is one line naming the line of the mistake."""
    line = edit_toml(cards, "rules.toml", "max_defense = 9", "max_defense = = 9")
    expect(capsys, cards, ("rules.toml", line, "syntax", ""))


def test_rules_wrong_suit_count(capsys, cards):
    """Book: "There are 12 different Suits" — a 13th suit name is reported."""
    line = edit_toml(cards, "rules.toml", '"Internet",', '"Internet", "Podcasts",')
    code, _, err = run(capsys, cards)
    assert code == 2
    (got,) = parse(err)
    assert got[0] == "rules.toml" and got[2] == "catalogue.suits" and "expected 12" in got[3]
    assert got[1] <= line


def test_several_rules_and_ability_problems_all_reported(capsys, cards):
    """Every file is checked in one run: two rules.toml problems and one abilities.toml problem
    give three lines."""
    l1 = edit_toml(cards, "rules.toml", "defense_die = 12", "defense_die = 0")
    l2 = edit_toml(cards, "rules.toml", "red_health_fraction = 0.5", "red_health_fraction = 1.5")
    l3 = edit_toml(cards, "abilities.toml", "damage = [15, 1, 200]", "damage = [500, 1, 200]")
    expect(capsys, cards,
           ("rules.toml", l1, "dice.defense_die", "out of range"),
           ("rules.toml", l2, "star.red_health_fraction", "out of range"),
           ("abilities.toml", l3, "area.params.damage", "min <= default <= max"))


# ---------------------------------------------------------------------------- end to end

def _bwlab() -> list[str]:
    """The CLI of *this* checkout in a fresh process: ``python -m sim.cli.main`` from the
    repository root (an installed ``bwlab`` script may import another checkout's ``sim``)."""
    return [sys.executable, "-m", "sim.cli.main"]


def test_end_to_end_bad_folder_exit_2(cards):
    """``bwlab validate`` in its own process exits 2 with one stderr line per problem, no
    traceback."""
    set_cell(cards, 2, "defense", "10")
    set_cell(cards, 3, "suit", "Nope")
    proc = subprocess.run([*_bwlab(), "validate", str(cards)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2
    assert [(Path(f).name, int(n), fld) for f, n, fld, _ in (LINE.match(s).groups() for s in lines)] \
        == [("characters.csv", 2, "defense"), ("characters.csv", 3, "suit")]


def test_end_to_end_shipped_folder_exit_0():
    """The installed ``bwlab validate`` accepts the shipped folder (exit 0)."""
    proc = subprocess.run([*_bwlab(), "validate", str(SHIPPED)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "ok" in proc.stdout


# ------------------------------------------------------------------- power curve in validate

def test_card_out_of_its_rarity_band_is_a_warning_not_an_error(capsys, cards):
    """A Bronze card with Legendary stats is a balance question ("Rarity communicates statistical
    power and nothing else"): validate names its line and field as a warning and still exits 0."""
    path = cards / "characters.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    header = rows[0]
    target = next(i for i, r in enumerate(rows[1:], 1) if r[header.index("rarity")] == "Bronze")
    rows[target][header.index("max_health")] = "900"
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    code, out, err = run(capsys, cards)
    assert code == 0
    assert len(err) == 1 and err[0].startswith("warning: ")
    assert f"characters.csv:{target + 1}: rarity:" in err[0] and "Bronze band" in err[0]
    assert "1 card(s) outside their rarity band" in out


def test_broken_power_curve_file_is_an_error(capsys, cards):
    """cards/power_curve.toml is checked like every other designer file (file, line, field)."""
    path = cards / "power_curve.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "\n[bogus_section]\nx = 1\n", encoding="utf-8")
    code, _, err = run(capsys, cards)
    assert code == 2
    assert any("power_curve.toml:" in line and "bogus_section" in line for line in err), err


def test_validate_checks_pools_baselines_and_rulings_results_as_their_commands_read_them(
        capsys, tmp_path):
    """"`validate` checks all of it": a draft pool (bwlab draft --pool), a drift baseline (bwlab
    drift --baseline) and a rulings results file (bwlab report --rulings), each through its
    command's own loader. The shipped baseline passes; a pool with a misspelt card, a baseline
    with only its format and a results file with no alternatives each fail with their lines."""
    names = [n for n in load_catalogue(SHIPPED).cards.names][:20]
    pool = tmp_path / "pool.toml"
    pool.write_text("cards = [" + ", ".join(f'"{n}"' for n in names) + "]\n", encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--pool", str(pool), "--baseline",
                 str(ROOT / "reports" / "baseline.json")])
    out, err = capsys.readouterr()
    assert code == 0 and f"also ok: {pool}" in out, err
    pool.write_text(pool.read_text(encoding="utf-8").replace(names[0], names[0] + "x"),
                    encoding="utf-8")
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"format": 1}', encoding="utf-8")
    results = tmp_path / "rulings.json"
    results.write_text('{"conclusion": "", "study": {}}', encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--pool", str(pool), "--baseline", str(baseline),
                 "--rulings-results", str(results)])
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"error: {pool}:1: cards: unknown card '{names[0]}x'" in err
    assert sum(x.startswith(f"error: {baseline}: ") and "missing section" in x for x in lines) == 8
    assert f"error: {results}: rulings: not a `bwlab rulings` results file (no alternatives)" in err


def test_an_absent_optional_file_is_a_warning_naming_who_needs_it(capsys, cards):
    """peers.toml and arena_budget.toml are read only by some commands: a folder without them
    validates (exit 0), but says which commands will refuse it (they passed without a word, and
    compare-systems or power-levels then failed with "file: not found")."""
    (cards / "peers.toml").unlink()
    (cards / "arena_budget.toml").unlink()
    code = main(["validate", str(cards)])
    err = capsys.readouterr().err.splitlines()
    assert code == 0
    assert f"warning: {cards}: no peers.toml: compare-systems and combat --system need it" in err
    assert f"warning: {cards}: no arena_budget.toml: power-levels and draft need it" in err
