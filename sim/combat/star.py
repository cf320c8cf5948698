"""Which point of the attack star applies: base, red, blue or green.

Book: "Base is the default. Red is used at 50 percent health or lower. Blue is used while
de-buffed. Green is used while under a positive effect" and "From lowest to highest the order is
base, red, blue, green — green always wins." Homefield (R3:S2:A8): "If only the attacker holds it,
they attack with green. If only the defender holds it, the attacker is cursed to attack with blue.
If both hold it, the two cancel out ... the attack proceeds on the attacker's normal stat."
How "normal" reads is the house ruling ``star.homefield_cancel`` in cards/rules.toml.
"""

from __future__ import annotations

from sim._jit import njit

BASE, RED, BLUE, GREEN = 0, 1, 2, 3
COLOUR_NAMES = ("base", "red", "blue", "green")


@njit
def _star_colour(health, shield, max_health, debuffed, boosted, attacker_homefield,
                 defender_homefield, red_fraction, red_counts_shield, cancel_to_base):
    own = BASE
    wounded_health = health + shield if red_counts_shield else health
    if wounded_health <= red_fraction * max_health:
        own = RED  # "Red is used at 50 percent health or lower."
    if debuffed:
        own = BLUE  # "Blue is used while de-buffed." (outranks red)
    if boosted:
        own = GREEN  # "green always wins"
    if attacker_homefield and defender_homefield:
        # R3:S2:A8 both hold homefield: they cancel; "normal stat" per house ruling.
        return BASE if cancel_to_base else own
    if attacker_homefield:
        return GREEN  # R3:S2:A8 attacker alone: green (highest priority)
    if defender_homefield:
        return max(own, BLUE)  # R3:S2:A8 defender alone: cursed to blue; green still wins
    return own


def star_colour(rules, *, health: int, max_health: int, shield: int = 0, debuffed: bool = False,
                boosted: bool = False, attacker_homefield: bool = False,
                defender_homefield: bool = False) -> int:
    """The colour index (0 base, 1 red, 2 blue, 3 green) an attacker in this state uses."""
    if max_health <= 0:
        raise ValueError("max_health must be positive")
    return int(_star_colour(int(health), int(shield), int(max_health), bool(debuffed),
                            bool(boosted), bool(attacker_homefield), bool(defender_homefield),
                            float(rules.red_health_fraction), bool(rules.red_counts_shield),
                            rules.homefield_cancel == "base"))
