"""Star colour selection: every colour and homefield case, table-driven.

Rules: "Base is the default. Red is used at 50 percent health or lower. Blue is used while
de-buffed. Green is used while under a positive effect"; "From lowest to highest the order is
base, red, blue, green — green always wins."; R3:S2:A8 homefield: "If only the attacker holds it,
they attack with green. If only the defender holds it, the attacker is cursed to attack with blue.
If both hold it, the two cancel out ... the attack proceeds on the attacker's normal stat."
"""

from __future__ import annotations

import pytest

from sim.combat.matchup import AttackState, card_matchup
from sim.combat.star import BASE, BLUE, GREEN, RED, star_colour

from .conftest import with_rules

H = 100
# health, debuffed, boosted, attacker homefield, defender homefield -> colour (ruling "state")
TABLE = [
    (100, False, False, False, False, BASE),   # "Base is the default."
    (51, False, False, False, False, BASE),    # above half: still base
    (50, False, False, False, False, RED),     # "at 50 percent health or lower"
    (1, False, False, False, False, RED),
    (100, True, False, False, False, BLUE),    # "Blue is used while de-buffed."
    (40, True, False, False, False, BLUE),     # blue outranks red
    (100, False, True, False, False, GREEN),   # "Green is used while under a positive effect"
    (40, True, True, False, False, GREEN),     # "green always wins"
    (100, False, False, True, False, GREEN),   # attacker alone holds homefield -> green
    (40, True, False, True, False, GREEN),     # green outranks the wound and the de-buff
    (100, False, False, False, True, BLUE),    # defender alone -> cursed to blue
    (40, False, False, False, True, BLUE),     # blue outranks red
    (100, False, True, False, True, GREEN),    # a positive effect still wins over the curse
    (100, False, False, True, True, BASE),     # both: cancel -> normal stat (base here)
    (40, False, False, True, True, RED),       # both: normal stat of a wounded attacker is red
    (100, True, False, True, True, BLUE),      # both: a de-buffed attacker's normal stat is blue
]


@pytest.mark.parametrize("health,debuffed,boosted,att_hf,def_hf,colour", TABLE)
def test_star_colour_rules_table(rules, health, debuffed, boosted, att_hf, def_hf, colour):
    got = star_colour(rules, health=health, max_health=H, debuffed=debuffed, boosted=boosted,
                      attacker_homefield=att_hf, defender_homefield=def_hf)
    assert got == colour


def test_homefield_cancel_ruling_base_alternative(rules):
    """The alternative ruling homefield_cancel = "base": both holding homefield -> the base point."""
    alt = with_rules(rules, homefield_cancel="base")
    assert star_colour(alt, health=40, max_health=H, attacker_homefield=True,
                       defender_homefield=True) == BASE


def test_red_ignores_shield_by_default(rules):
    """House ruling star.red_counts_shield = false: the red point looks at health without shield."""
    assert star_colour(rules, health=40, max_health=H, shield=30) == RED
    alt = with_rules(rules, red_counts_shield=True)
    assert star_colour(alt, health=40, max_health=H, shield=30) == BASE


def test_colour_change_changes_attacks_and_tier(catalogue):
    """"A colour change can also change your Dice Tier, since the tier is printed on each point
    of the star individually (R3:S3:A4)." The matchup uses the selected point's attacks and tier."""
    cards = catalogue.cards
    a = cards.find("Luffy")
    d = cards.find("Mario")
    for state, colour in ((AttackState(), BASE), (AttackState(attacker_health=10), RED),
                          (AttackState(attacker_debuffed=True), BLUE),
                          (AttackState(attacker_homefield=True), GREEN)):
        m = card_matchup(catalogue, a, d, state)
        assert m.colour == colour
        assert m.attacks == cards.attacks[a, colour]
        assert m.tier == cards.tier[a, colour]
        assert m.distribution.die == catalogue.rules.faces(int(cards.tier[a, colour]))
