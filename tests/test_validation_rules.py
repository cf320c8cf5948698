"""``bwlab validate``: every designer mistake in rules.toml (and the Ability Index beside it) is
one line on stderr naming file, line and field.

Each case copies the shipped ``cards/`` folder to a temporary folder, breaks one file, runs the
CLI in-process (``sim.cli.main.main``) and checks: exit code 2, exactly the expected problem
lines (``error: FILE:LINE: FIELD: message``), a suggestion for a misspelt key, and no
traceback."""

from __future__ import annotations

import pytest

from tests._validation_kit import edit_toml, expect, parse, run


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
