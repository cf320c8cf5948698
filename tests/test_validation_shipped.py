"""``bwlab validate`` on the shipped folder: it validates clean (exit 0), and the starter set keeps
the book's numbers.

The book quotes in the docstrings are the rules the shipped data must respect ("There are 6 Card
Rarities", "There are 12 different Suits", the 11 ability types of the Ability Index, the
Luffy-Mario worked example); house rulings are named as such. Also: the Ability Index's effect
keys are validated, one line per problem with file, line and field."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from sim.catalogue.loader import load_catalogue
from tests._validation_kit import SHIPPED, run


# ------------------------------------------------------------------------------ clean folder

def test_shipped_folder_validates_clean(capsys):
    """Book: "Every character in Board Wars has their own unique Ability" — the shipped folder
    (rules, Ability Index, characters) loads with no problem and exit code 0."""
    code, out, err = run(capsys, SHIPPED)
    assert code == 0, err
    assert err == []
    assert "ok" in out and "11 ability types" in out and "12 suits" in out


def test_every_shipped_lab_file_validates_clean(capsys):
    """Each file under experiments/ a command reads (team files, experiments, the drift suite,
    rulings studies, weights files, draft pools) passes ``bwlab validate`` with the shipped
    cards, each given to the option its kind takes: a newcomer's first copy is a sound one
    (stop 78's newcomer audit found no draft pool shipped to try ``draft --pool`` with)."""
    from pathlib import Path

    from sim.cli.main import main

    root = Path(__file__).resolve().parents[1] / "experiments"
    option = {"teams": "--teams", "pools": "--pool"}
    files = sorted(root.rglob("*.toml"))
    assert (root / "pools" / "example.toml") in files
    for f in files:
        flag = option.get(f.parent.name) or ("--weights" if f.name.startswith("greedy_")
                                             else "--experiment")
        code = main(["validate", str(SHIPPED), flag, str(f)])
        _, err = capsys.readouterr()
        assert code == 0 and "error" not in err, (f, flag, err)


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
    head = ('[strike]\ndescription = "Throws extra attacks with the current star point '
            '(a stronger action)."\n')
    assert head in text
    text = text.replace(head + 'effect = "strike"\ntarget = "enemy"\n', head + body + "\n")
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_catalogue(root)
    lines = str(err.value).splitlines()
    assert any("abilities.toml:" in ln and f": {field}: " in ln and message in ln
               for ln in lines), lines
