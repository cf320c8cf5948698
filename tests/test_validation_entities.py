"""``bwlab validate`` for the special entities' files (cards/vehicles.toml, cards/assists.toml,
rules.toml [entities]): every mistake is one line naming file, line and field, exit code 2, no
traceback (the harness of tests/_validation_kit.py). Book sentences the data must respect are
quoted; house rulings are named as such."""

from __future__ import annotations

import pytest

from sim.catalogue.entities import V_ATTACKS, V_RANGE, V_TIER, V_TILE
from sim.catalogue.loader import load_catalogue
from tests._validation_kit import SHIPPED, edit_toml, expect


def test_the_shipped_entities_load():
    """"Each vehicle has stats that show its capabilities, and a health pool separate from its
    pilot" (two shipped vehicles: the Mystery Machine, on its Garage, with no weapon, and the
    Batmobile, on Gotham Alley, with the action "used through it": house ruling, a weapon); at
    least one assist character ("An Assist Character is a temporary ally that you control")."""
    cat = load_catalogue(SHIPPED)
    ents = cat.entities
    assert ents.vehicle_names == ("Batmobile", "Mystery Machine")  # name order (the catalogue's)
    machine, batmobile = (ents.vehicle_names.index(n) for n in ("Mystery Machine", "Batmobile"))
    assert cat.tiles.names[int(ents.vehicles[machine, V_TILE])] == "Mystery Machine Garage"
    assert cat.tiles.names[int(ents.vehicles[batmobile, V_TILE])] == "Gotham Alley"
    assert ents.vehicles[machine, V_ATTACKS] == 0
    assert list(ents.vehicles[batmobile, [V_ATTACKS, V_TIER, V_RANGE]]) == [4, 2, 3]
    assert len(ents.assist_names) >= 1


@pytest.mark.parametrize("file, old, new, field, text", [
    ("vehicles.toml", 'tile = "Mystery Machine Garage"', 'tile = "Mystery Garage"',
     "vehicles.tile", "unknown tile 'Mystery Garage' (did you mean Mystery Machine Garage"),
    ("vehicles.toml", "health = 120", "health = 0", "vehicles.health", "out of range"),
    ("vehicles.toml", "defense = 3", "defense = 12", "vehicles.defense", "out of range"),
    ("vehicles.toml", "speed = 8", "sped = 8", "vehicles.sped", "unknown key (did you mean speed?)"),
    ("vehicles.toml", "attacks = 4", "attacks = 99", "vehicles.attacks", "out of range"),
    ("vehicles.toml", "tier = 2", "tier = 9", "vehicles.tier", "out of range"),
    ("vehicles.toml", "range = 3", "range = -1", "vehicles.range", "out of range"),
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
def test_entity_data_mistakes_are_one_line_each(capsys, cards, file, old, new, field, text):
    """One problem per mistake, naming file, line and field (house data: docs/entities.md)."""
    line = edit_toml(cards, file, old, new)
    expect(capsys, cards, (file, line, field, text))


def test_one_vehicle_per_tile(capsys, cards):
    """"All vehicles can only be spawned 1 time" — two vehicles on one tile would be one spawn
    for two (house: a vehicle starts on its tile)."""
    path = cards / "vehicles.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + '\n[[vehicles]]\nname = "Van Two"\ntile = "Mystery Machine Garage"\n'
                           'health = 10\nspeed = 2\ndefense = 1\n', encoding="utf-8")
    line = path.read_text(encoding="utf-8").splitlines().index(
        'tile = "Mystery Machine Garage"', text.count("\n")) + 1
    expect(capsys, cards, ("vehicles.toml", line, "vehicles.tile", "already holds 'Mystery Machine'"))


def test_a_weapons_tier_and_range_need_attacks(capsys, cards):
    """A vehicle's action is its weapon (house ruling, docs/rulings.md): a tier or range with no
    attacks is a mistake, one line each."""
    edit_toml(cards, "vehicles.toml", "attacks = 4", "attacks = 0")
    text = (cards / "vehicles.toml").read_text(encoding="utf-8").splitlines()
    tier, reach = text.index("tier = 2") + 1, text.index("range = 3") + 1
    expect(capsys, cards, ("vehicles.toml", tier, "vehicles.tier", "without attacks"),
           ("vehicles.toml", reach, "vehicles.range", "without attacks"))
