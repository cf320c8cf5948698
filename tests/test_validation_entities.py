"""``bwlab validate`` for the special entities' files (cards/vehicles.toml, cards/assists.toml,
rules.toml [entities]): every mistake is one line naming file, line and field, exit code 2, no
traceback (the harness of tests/test_validation.py). Book sentences the data must respect are
quoted; house rulings are named as such."""

from __future__ import annotations

import pytest

from sim.catalogue.loader import load_catalogue
from tests.test_validation import SHIPPED, cards, edit_toml, expect  # noqa: F401 (fixture)


def test_the_shipped_entities_load():
    """"Each vehicle has stats that show its capabilities, and a health pool separate from its
    pilot" (one shipped vehicle, on the Mystery Machine Garage); at least one assist character
    ("An Assist Character is a temporary ally that you control")."""
    cat = load_catalogue(SHIPPED)
    ents = cat.entities
    assert ents.vehicle_names == ("Mystery Machine",)
    assert cat.tiles.names[int(ents.vehicles[0, 3])] == "Mystery Machine Garage"
    assert len(ents.assist_names) >= 1


@pytest.mark.parametrize("file, old, new, field, text", [
    ("vehicles.toml", 'tile = "Mystery Machine Garage"', 'tile = "Mystery Garage"',
     "vehicles.tile", "unknown tile 'Mystery Garage' (did you mean Mystery Machine Garage"),
    ("vehicles.toml", "health = 120", "health = 0", "vehicles.health", "out of range"),
    ("vehicles.toml", "defense = 3", "defense = 12", "vehicles.defense", "out of range"),
    ("vehicles.toml", "speed = 8", "sped = 8", "vehicles.sped", "unknown key (did you mean speed?)"),
    ("assists.toml", 'ability = "heal"', 'ability = "heel"', "assists.ability",
     "unknown ability type 'heel'"),
    ("assists.toml", "amount = 20", "amount = 9999", "assists.ability_params.amount",
     "expected a whole number in [1, 500]"),
    ("assists.toml", "tier = 1", "tier = 7", "assists.tier", "out of range"),
    ("rules.toml", 'summon_pool = "not_in_play"', 'summon_pool = "nowhere"',
     "entities.summon_pool", "unknown value 'nowhere'"),
    ("rules.toml", "max_minions = 6", "max_minions = 0", "entities.max_minions", "out of range"),
    ("rules.toml", "minion_speed = 3", "minion_sped = 3", "entities.minion_sped",
     "unknown key (did you mean minion_speed"),
])
def test_entity_data_mistakes_are_one_line_each(capsys, cards, file, old, new, field, text):  # noqa: F811
    """One problem per mistake, naming file, line and field (house data: docs/entities.md)."""
    line = edit_toml(cards, file, old, new)
    expect(capsys, cards, (file, line, field, text))


def test_one_vehicle_per_tile(capsys, cards):  # noqa: F811
    """"All vehicles can only be spawned 1 time" — two vehicles on one tile would be one spawn
    for two (house: a vehicle starts on its tile)."""
    path = cards / "vehicles.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + '\n[[vehicles]]\nname = "Van Two"\ntile = "Mystery Machine Garage"\n'
                           'health = 10\nspeed = 2\ndefense = 1\n', encoding="utf-8")
    line = path.read_text(encoding="utf-8").splitlines().index(
        'tile = "Mystery Machine Garage"', text.count("\n")) + 1
    expect(capsys, cards, ("vehicles.toml", line, "vehicles.tile", "already holds 'Mystery Machine'"))
