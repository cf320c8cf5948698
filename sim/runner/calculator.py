"""The combat calculator's profiles: what attacks whom, read from flags, cards and ``--vs`` specs.

Why a module of its own: ``bwlab combat`` answers the questions players bring from AnyDice and
UnitCrunch (the whole distribution, two profiles side by side, a sweep over one stat), and all of
them start from a *profile*: the number of attacks, the dice tier, the defense and the defender's
health, plus, for two cards, the star colour the attacker's state selects and why. The colour
itself comes from the engine's rule (``sim.combat.star.star_colour``); :func:`star_reason` words
it from the thresholds in ``cards/rules.toml``, so a changed ruling changes the sentence too.

Bad ``--vs``/``--sweep`` specs are :class:`InputError` lines (exit 2), naming the option and key.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from sim.catalogue.abilities import MAX_DICE
from sim.catalogue.diagnostics import InputError, Problem
from sim.catalogue.rules import STAR_COLOURS as COLOUR_NAMES

# the star's points in the engine's order (sim.combat.star, imported only where a colour is
# decided: Numba's import costs the stat form half a second)
BASE, RED, BLUE, GREEN = (COLOUR_NAMES.index(c) for c in ("base", "red", "blue", "green"))

# keys a --vs or --sweep may change, per form (card form: attacks and tier are the card's star)
STAT_KEYS = ("attacks", "tier", "defense", "health", "advantage", "defender_advantage")
CARD_KEYS = ("attacker_health", "health", "defense", "attacker_debuffed", "attacker_boosted",
             "attacker_homefield", "defender_homefield", "advantage", "defender_advantage")
SWEEP_KEYS = {"stat": ("attacks", "tier", "defense", "health"),
              "card": ("attacker_health", "health", "defense")}
ALIASES = {"defender_health": "health", "hp": "health", "def": "defense"}
BOOL_KEYS = {"attacker_debuffed", "attacker_boosted", "attacker_homefield", "defender_homefield"}
MAX_SWEEP_VALUES = 1000  # a sweep is a table to read and a curve to see, not a bulk job
# the command line's own arguments, named in a problem of the first profile
BASE_ARGS = {"attacker": "ATTACKER", "defender": "DEFENDER", "attacker_health": "--attacker-health",
             "health": "--defender-health"}
MAX_HEALTH = 100_000  # cards.LIMITS["max_health"]: the largest health a card may print


@dataclass(frozen=True)
class Profile:
    """One attack as the calculator sees it. ``health`` is the defender's current health (the
    kill threshold); in the card form the state fields decide the colour (and so attacks/tier)."""

    attacks: int
    tier: int
    defense: int
    health: int
    health_source: str = "given"
    advantage: int = 0
    defender_advantage: int = 0
    attacker: str | None = None
    defender: str | None = None
    attacker_health: int | None = None
    attacker_max_health: int | None = None
    attacker_debuffed: bool = False
    attacker_boosted: bool = False
    attacker_homefield: bool = False
    defender_homefield: bool = False
    colour: str | None = None
    colour_reason: str | None = None

    @property
    def label(self) -> str:
        """A short name for tables, legends and titles."""
        adv = {1: " adv", -1: " dis"}.get(self.advantage, "")
        dadv = {1: " adv", -1: " dis"}.get(self.defender_advantage, "")
        health = f" at {self.health} health" if self.health_source == "given" else ""
        if self.attacker is None:
            return f"{self.attacks}x tier {self.tier}{adv} vs defense {self.defense}{dadv}{health}"
        wound = (f" at {self.attacker_health}/{self.attacker_max_health}"
                 if self.attacker_health != self.attacker_max_health else "")
        return (f"{self.attacker}{wound} ({self.colour} {self.attacks}^{self.tier}{adv}) vs "
                f"{self.defender}{dadv}{health}")


def _fail(option: str, key: str, message: str):
    raise InputError([Problem(option, None, key, message)])


def star_reason(rules, *, health: int, max_health: int, shield: int = 0, debuffed: bool = False,
                boosted: bool = False, attacker_homefield: bool = False,
                defender_homefield: bool = False) -> tuple[int, str]:
    """(colour index, "red: 90/200 health is ≤ 50 %") for an attacker in this state.

    Words the book's priority ("base, red, blue, green — green always wins") and homefield
    (R3:S2:A8) with the thresholds of ``rules``; the colour must equal the engine's
    :func:`star_colour` (checked here and by the tests over every combination).
    """
    fraction = float(rules.red_health_fraction)
    counted = health + shield if rules.red_counts_shield else health
    shown = f"{health}+{shield} shield" if rules.red_counts_shield and shield else f"{health}"
    pct = f"{100 * fraction:g} %"
    if counted <= fraction * max_health:  # "Red is used at 50 percent health or lower."
        own, why = RED, f"{shown}/{max_health} health is ≤ {pct}"
    else:
        own, why = BASE, f"{shown}/{max_health} health is > {pct} (red at ≤ {pct})"
    if debuffed:
        own, why = BLUE, "de-buffed" + (" (blue outranks red)" if own == RED else "")
    if boosted:
        own, why = GREEN, "under a positive effect (green always wins)"
    if attacker_homefield and defender_homefield:
        if rules.homefield_cancel == "base":
            colour, why = BASE, ("both hold homefield: they cancel to the normal stat, base "
                                 "(ruling star.homefield_cancel = base)")
        else:
            colour, why = own, f"both hold homefield, which cancel; {why}"
    elif attacker_homefield:
        colour, why = GREEN, "the attacker alone holds homefield"
    elif defender_homefield:
        colour = max(own, BLUE)
        why = (f"{why}; the defender's homefield curse (blue) does not outrank it"
               if own == GREEN else "only the defender holds homefield: cursed to blue")
    else:
        colour = own
    from sim.combat.star import star_colour

    engine = star_colour(rules, health=health, max_health=max_health, shield=shield,
                         debuffed=debuffed, boosted=boosted, attacker_homefield=attacker_homefield,
                         defender_homefield=defender_homefield)
    if engine != colour:  # the wording drifted from the rule: say so rather than mislead
        raise AssertionError(f"star_reason says {COLOUR_NAMES[colour]}, the engine "
                             f"{COLOUR_NAMES[engine]}")
    return colour, f"{COLOUR_NAMES[colour]}: {why}"


def stat_profile(rules, catalogue, attacks: int, tier: int, defense: int, health: int | None,
                 advantage: int = 0, defender_advantage: int = 0) -> Profile:
    """The stat form; without a health, the typical defender's (the median card's max health,
    as the demo's report uses), so that every profile has a kill probability."""
    source = "given"
    if health is None:
        health, source = int(np.median(catalogue.cards.max_health)), "median card max health"
    profile = Profile(attacks, tier, defense, health, source, advantage, defender_advantage)
    check_profile(rules, profile, "--defender-health")  # the one value click left unbounded
    return profile


def card_profile(catalogue, attacker: str, defender: str, *, attacker_health=None,
                 health=None, defense=None, attacker_debuffed=False, attacker_boosted=False,
                 attacker_homefield=False, defender_homefield=False, advantage=0,
                 defender_advantage=0, option: str | None = None) -> Profile:
    """The card form: the colour (and its reason) from the attacker's state picks attacks and
    tier off the printed star; defense and health default to the defender card's. Problems
    name ``option`` (``--vs``, ``--sweep``), or with None the command line's own argument."""
    cards = catalogue.cards

    def fail(key, message):
        _fail(option or BASE_ARGS[key], key, message)

    idx = []
    for role, name in (("attacker", attacker), ("defender", defender)):
        try:
            idx.append(cards.find(name))
        except InputError as exc:
            fail(role, exc.problems[0].message)
    a, d = idx
    a_max, d_max = int(cards.max_health[a]), int(cards.max_health[d])
    a_health = a_max if attacker_health is None else int(attacker_health)
    d_health = d_max if health is None else int(health)
    for key, value, limit, who in (("attacker_health", a_health, a_max, cards.names[a]),
                                   ("health", d_health, d_max, cards.names[d])):
        if not 1 <= value <= limit:
            fail(key, f"{value} is outside 1..{limit} ({who}'s max health)")
    colour, reason = star_reason(catalogue.rules, health=a_health, max_health=a_max,
                                 debuffed=attacker_debuffed, boosted=attacker_boosted,
                                 attacker_homefield=attacker_homefield,
                                 defender_homefield=defender_homefield)
    profile = Profile(int(cards.attacks[a, colour]), int(cards.tier[a, colour]),
                      int(cards.defense[d]) if defense is None else int(defense), d_health,
                      "given" if health is not None else "defender's max health", advantage,
                      defender_advantage, cards.names[a], cards.names[d], a_health, a_max,
                      attacker_debuffed, attacker_boosted, attacker_homefield, defender_homefield,
                      COLOUR_NAMES[colour], reason)
    check_profile(catalogue.rules, profile, option or "--defense")
    return profile


def check_profile(rules, p: Profile, option: str) -> None:
    """Ranges every form shares: the dice tiers, the defense cap, at most MAX_DICE attacks."""
    if not 0 <= p.attacks <= MAX_DICE:
        _fail(option, "attacks", f"{p.attacks} is outside 0..{MAX_DICE}")
    if not 1 <= p.tier <= rules.n_tiers:
        _fail(option, "tier", f"{p.tier} is not a dice tier (1..{rules.n_tiers})")
    if not 0 <= p.defense <= rules.max_defense:
        _fail(option, "defense", f"{p.defense} is outside 0..{rules.max_defense} (the maximum defense)")
    if not 1 <= p.health <= MAX_HEALTH:
        _fail(option, "health", f"{p.health} is outside 1..{MAX_HEALTH}")
    for key in ("advantage", "defender_advantage"):
        if getattr(p, key) not in (-1, 0, 1):
            _fail(option, key, f"{getattr(p, key)} is not -1 (disadvantage), 0 or 1 (advantage)")


def _key(option: str, raw: str, allowed) -> str:
    key = raw.strip().lower().replace("-", "_")
    key = ALIASES.get(key, key)
    if key not in allowed:
        _fail(option, raw.strip() or "(empty)", f"unknown key; expected one of {', '.join(allowed)}")
    return key


def _value(option: str, key: str, raw: str):
    text = raw.strip().lower()
    if key in BOOL_KEYS:
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        _fail(option, key, f"{raw!r} is not a yes/no value (1, 0, true, false)")
    if key in ("advantage", "defender_advantage"):
        named = {"adv": 1, "advantage": 1, "dis": -1, "disadvantage": -1, "none": 0}
        if text in named:
            return named[text]
    try:
        return int(text)
    except ValueError:
        _fail(option, key, f"{raw!r} is not an integer")


def parse_vs(spec: str, form: str) -> tuple[list[str], dict]:
    """``--vs`` as (card names, overrides): ``attacks=6,tier=3`` (stat form); ``Goku``,
    ``Goku,Peach`` (another attacker, defender) or ``attacker-health=90`` (card form)."""
    names, changes = [], {}
    allowed = STAT_KEYS if form == "stat" else CARD_KEYS
    for token in spec.split(","):
        if "=" in token:
            raw, value = token.split("=", 1)
            key = _key("--vs", raw, allowed)
            if key in changes:
                _fail("--vs", key, "given twice")
            changes[key] = _value("--vs", key, value)
        elif form == "card" and token.strip():
            names.append(token.strip())
        else:
            _fail("--vs", token.strip() or "(empty)", "expected KEY=VALUE (keys: "
                  f"{', '.join(allowed)})" + ("" if form == "card" else "; card names need the "
                                              "card form, ATTACKER DEFENDER"))
    if len(names) > 2:
        _fail("--vs", "names", f"at most two card names (ATTACKER,DEFENDER), got {len(names)}")
    if not names and not changes:
        _fail("--vs", "(empty)", "nothing to compare")
    return names, changes


def vs_profile(base: Profile, spec: str, catalogue) -> Profile:
    """The profile ``--vs`` describes: the base one with the spec's names and keys changed."""
    form = "stat" if base.attacker is None else "card"
    names, changes = parse_vs(spec, form)
    if form == "stat":
        other = replace(base, **changes)
        if "health" in changes:
            other = replace(other, health_source="given")
        check_profile(catalogue.rules, other, "--vs")
        return other
    attacker = names[0] if names else base.attacker
    defender = names[1] if len(names) > 1 else base.defender
    state = {k: getattr(base, k) for k in CARD_KEYS}
    if attacker != base.attacker:  # another card: its own (full) health unless given
        state["attacker_health"] = None
    if defender != base.defender or base.health_source != "given":
        state["health"] = None
    if defender != base.defender:
        state["defense"] = None
    state.update(changes)
    return card_profile(catalogue, attacker, defender, option="--vs", **state)


def parse_sweep(spec: str, form: str) -> tuple[str, list[int]]:
    """``KEY=A..B[:STEP]`` or ``KEY=V1,V2,...`` into (key, values)."""
    if "=" not in spec:
        _fail("--sweep", spec.strip() or "(empty)", "expected KEY=A..B[:STEP] or KEY=V1,V2,...")
    raw, rest = spec.split("=", 1)
    key = _key("--sweep", raw, SWEEP_KEYS[form])
    rest = rest.strip()
    if ".." in rest:
        span, _, step_text = rest.partition(":")
        lo_text, _, hi_text = span.partition("..")
        lo, hi = _value("--sweep", key, lo_text), _value("--sweep", key, hi_text)
        step = _value("--sweep", key, step_text) if step_text else 1
        if step < 1:
            _fail("--sweep", key, f"step {step} must be at least 1")
        if hi < lo:
            _fail("--sweep", key, f"empty range {lo}..{hi}")
        if (hi - lo) // step + 1 > MAX_SWEEP_VALUES:
            _fail("--sweep", key, f"{(hi - lo) // step + 1} values; at most {MAX_SWEEP_VALUES}")
        values = list(range(lo, hi + 1, step))
    else:
        values = [_value("--sweep", key, v) for v in rest.split(",")]
        if len(values) > MAX_SWEEP_VALUES:
            _fail("--sweep", key, f"{len(values)} values; at most {MAX_SWEEP_VALUES}")
    if len(set(values)) != len(values):
        _fail("--sweep", key, "a value is listed twice")
    return key, values


def sweep_profile(base: Profile, key: str, value: int, catalogue) -> Profile:
    """``base`` with one swept key set; the card form re-reads the star (attacker health can
    turn it red)."""
    if base.attacker is None:
        other = replace(base, **{key: value}, **({"health_source": "given"} if key == "health" else {}))
        check_profile(catalogue.rules, other, "--sweep")
        return other
    state = {k: getattr(base, k) for k in CARD_KEYS}
    if base.health_source != "given":
        state["health"] = None
    state[key] = value
    return card_profile(catalogue, base.attacker, base.defender, option="--sweep", **state)
