"""Card against card: the star colour a state selects, then the exact damage and kill chance.

This is where a card's printed star meets the rules: the colour comes from the attacker's state
(health, de-buffs, positive effects, homefield on each side), the colour picks the number of
attacks and the dice tier ("the tier is printed on each point of the star individually",
R3:S3:A4), and the defender's defense and health close the sum.
"""

from __future__ import annotations

from dataclasses import dataclass

from .exact import NONE, Distribution, damage_distribution
from .star import COLOUR_NAMES, star_colour


@dataclass(frozen=True)
class AttackState:
    """What decides the colour and the dice: the attacker's situation at the moment of attack."""

    attacker_health: int | None = None  # None = full health
    attacker_shield: int = 0
    attacker_debuffed: bool = False
    attacker_boosted: bool = False
    attacker_homefield: bool = False
    defender_homefield: bool = False
    attacker_advantage: int = NONE
    defender_advantage: int = NONE
    defender_health: int | None = None  # None = full health


@dataclass(frozen=True)
class Matchup:
    attacker: str
    defender: str
    colour: int
    attacks: int
    tier: int
    defense: int
    defender_health: int
    distribution: Distribution

    @property
    def colour_name(self) -> str:
        return COLOUR_NAMES[self.colour]

    @property
    def kill_probability(self) -> float:
        return self.distribution.p_at_least(self.defender_health)


def card_matchup(catalogue, attacker: int, defender: int, state: AttackState = AttackState()
                 ) -> Matchup:
    """Resolve attacker card index ``attacker`` on defender card index ``defender`` exactly."""
    cards, rules = catalogue.cards, catalogue.rules
    max_health = int(cards.max_health[attacker])
    health = max_health if state.attacker_health is None else int(state.attacker_health)
    if not 0 < health <= max_health:
        raise ValueError(f"attacker health must be in 1..{max_health}")
    colour = star_colour(rules, health=health, max_health=max_health, shield=state.attacker_shield,
                         debuffed=state.attacker_debuffed, boosted=state.attacker_boosted,
                         attacker_homefield=state.attacker_homefield,
                         defender_homefield=state.defender_homefield)
    attacks = int(cards.attacks[attacker, colour])
    tier = int(cards.tier[attacker, colour])
    defense = int(cards.defense[defender])
    def_max = int(cards.max_health[defender])
    def_health = def_max if state.defender_health is None else int(state.defender_health)
    if def_health <= 0:
        raise ValueError("defender health must be positive")
    dist = damage_distribution(attacks, defense, tier, rules,
                               attacker_advantage=state.attacker_advantage,
                               defender_advantage=state.defender_advantage)
    return Matchup(cards.names[attacker], cards.names[defender], colour, attacks, tier, defense,
                   def_health, dist)
