"""The rarity power curve: a stat-only power score per card and the band each rarity must hit.

The book: "Schedule D lists them from left to right in order from least to most powerful:
Bronze, Silver, Gold, Diamond, Legendary, and GOAT Series." and "Rarity communicates
statistical power and nothing else." It gives no numbers, so the lab rules (house ruling,
``docs/power-curve.md``): every card has a *power score* computed from its stats alone, and each
rarity has a target *band* of scores in ``cards/power_curve.toml`` (data, not code). A card whose
score falls outside its rarity's band is mis-rarity'd (or mis-statted).

The score (see :func:`power_score`) is a Lanchester-style "damage dealt over a lifetime":
offense per action times effective health, square-rooted back to a linear scale, times a small
mobility term. Abilities are deliberately left out: the book says a card's rarity "has no bearing"
on its ability, so rarity bands measure stats only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.fixed_sums import matvec

from .cards import CardCatalogue
from .diagnostics import Problems
from .remedy import RemedySteps, load_remedy
from .rules import STAR_COLOURS, Rules
from .tomldoc import TomlDoc

POWER_CURVE_FILE = "power_curve.toml"


@dataclass(frozen=True)
class ScoreWeights:
    """The constants of the score formula (documented in ``docs/power-curve.md``), read from
    the ``[score]`` table of ``cards/power_curve.toml`` (:func:`score_weights`): code held them
    until stop 82, though they decide which band a card lands in as much as the bands do.

    ``reference_defense``: the defender every card's offense is measured against — 4, the book's
    worked-example defender ("with a defense of 4 his threshold is 6") and the median defense of
    the shipped cards. A fixed number, not the catalogue's live median, so one card's score never
    depends on the other cards (and raising a card's defense cannot move its own offense).

    ``star``: weight of each colour's expected damage, in STAR_COLOURS order (base, red, blue,
    green). Base covers the card's life above the red threshold and red the life below it
    ("Red is used at 50 percent health or lower"), so they share 0.8 as 0.4/0.4 with the
    default ``red_health_fraction`` of 0.5; blue (de-buffed / defender's homefield) and green
    (buffed / own homefield) are situational and share the remaining 0.2. Every weight is > 0 so
    no colour is free power ("No colour is inherently stronger or weaker than another").

    ``speed`` / ``range``: fractional bonus per point of speed and range. Small on purpose:
    mobility decides *whether* a card gets to act, not how hard it hits.
    """

    reference_defense: int
    star: tuple[float, float, float, float]
    speed: float
    range: float


def _load_score(doc: TomlDoc, rules: Rules) -> ScoreWeights | None:
    """The ``[score]`` table: ``reference_defense`` (a defense 0..max_defense), ``star`` (one
    weight > 0 per star colour), ``speed`` and ``range`` (bonus per point, 0..1)."""
    if not isinstance(doc.lookup(("score",)), dict):
        doc.add(("score",), "missing table [score] (the power score's constants: "
                            "docs/power-curve.md)")
        return None
    doc.unknown_keys(("score",), {"reference_defense", "star", "speed", "range"})
    before = len(doc.problems)
    ref = doc.get(("score", "reference_defense"), int, lo=0, hi=rules.max_defense, fallback=0)
    star = doc.get(("score", "star"), list, fallback=[])
    if not (len(star) == len(STAR_COLOURS) and all(
            isinstance(w, (int, float)) and not isinstance(w, bool) and 0 < w < 1e6
            for w in star)):
        doc.add(("score", "star"), f"expected {len(STAR_COLOURS)} weights > 0, one per star "
                                   f"colour ({', '.join(STAR_COLOURS)}), got {star!r}")
    speed, rng = (doc.get(("score", k), (int, float), lo=0.0, hi=1.0, fallback=0.0)
                  for k in ("speed", "range"))
    if len(doc.problems) > before:
        return None
    return ScoreWeights(int(ref), tuple(float(w) for w in star), float(speed), float(rng))


def score_weights(rules: Rules) -> ScoreWeights:
    """The score's constants of the card folder ``rules`` was read from (its power_curve.toml;
    InputError when bad), read once per file version."""
    path = Path(rules.path).parent / POWER_CURVE_FILE
    key = (str(path), _stamp(path), str(rules.path), _stamp(Path(rules.path)))
    if key not in _WEIGHTS:
        problems = Problems()
        curve = load_power_curve(path, rules, problems)
        problems.raise_if_any()
        _WEIGHTS[key] = curve.weights
    return _WEIGHTS[key]


_WEIGHTS: dict[tuple, ScoreWeights] = {}  # by the two files' paths and versions


def _stamp(path: Path):
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def hit_probability(defense: np.ndarray | int, rules: Rules) -> np.ndarray:
    """P(one attack hits a defender): the defense die must roll above defense + margin.

    "If the roll is more than your defense stat plus 2, that attack is considered a Hit." With a
    D12: ``(12 - (d + 2)) / 12`` clipped to [0, 1] (defense 4 -> 0.5, the book's 50 % dodge).
    """
    d = np.asarray(defense, dtype=np.float64)
    die = float(rules.defense_die)
    return np.clip((die - (d + rules.defense_margin)) / die, 0.0, 1.0)


def power_score(cards: CardCatalogue, rules: Rules,
                weights: ScoreWeights | None = None) -> np.ndarray:
    """Each card's power score (float64[card]) from its stats alone; pure NumPy.

    Formula, per card with ``n`` characters::

        mean(t)   = (faces(t) + 1) / 2                       expected roll of a tier-t damage die
        dpa[c]    = attacks[c] * p_hit(reference_defense) * mean(tier[c])    per colour c
        offense   = sum_c star_weight[c] * dpa[c]             expected damage per action
        ehp       = max_health / max(p_hit(defense), 1/die)   effective health: damage an
                                                              always-hitting attacker must deal
        mobility  = 1 + w_speed * speed + w_range * range
        power     = n * sqrt(offense * ehp) * mobility

    Why: in a duel, the number of actions a card survives is ``ehp`` divided by the enemy's
    damage per action, so the damage it deals over its life is proportional to
    ``offense * ehp`` (Lanchester's square law). The square root puts that product back on a
    linear scale (double offense *and* health -> double power), and a multi-character card
    ("Every one of them has their own action, their own health pool") has ``n`` times the
    offense and ``n`` times the health, hence the factor ``n``. The floor of ``1/die`` on the hit
    probability keeps the score finite if a ruling ever makes a defense unhittable.

    Every term is non-decreasing in attacks, tiers, defense, health, speed, range and
    characters, so improving any stat never lowers the score. Luffy's base point against the
    reference defender gives the book's "roughly 26 damage" (8 * 0.5 * 6.5).
    """
    weights = weights if weights is not None else score_weights(rules)
    faces = rules.tier_faces.astype(np.float64)
    mean_roll = (faces[cards.tier - 1] + 1.0) / 2.0                    # [card, colour]
    p_ref = hit_probability(weights.reference_defense, rules)
    dpa = cards.attacks.astype(np.float64) * p_ref * mean_roll         # [card, colour]
    offense = matvec(dpa, weights.star)  # not BLAS: the same bits on any CPU
    p_self = np.maximum(hit_probability(cards.defense, rules), 1.0 / rules.defense_die)
    ehp = cards.max_health.astype(np.float64) / p_self
    mobility = 1.0 + weights.speed * cards.speed + weights.range * cards.range
    return cards.characters.astype(np.float64) * np.sqrt(offense * ehp) * mobility


@dataclass(frozen=True)
class PowerCurve:
    """``cards/power_curve.toml``: bands[r] = (min, max) power of rarity r (rules.rarities order),
    and the optional ``[remedy]`` steps of the outlier remedy search (:mod:`.remedy`)."""

    bands: np.ndarray        # float64[rarity, 2]
    lines: tuple[int, ...]   # line of each rarity's band in the file, for problem reports
    path: str = ""
    remedy: RemedySteps | None = None
    weights: ScoreWeights | None = None  # the [score] table


def load_power_curve(path: Path, rules: Rules, problems: Problems) -> PowerCurve | None:
    """Parse ``power_curve.toml``: a ``[bands]`` table with ``"Rarity" = [min, max]`` per rarity,
    and optionally a ``[remedy]`` table (:func:`.remedy.load_remedy`).

    Problems (file, line, field): unknown section or rarity (with suggestions), missing rarity,
    a band that is not two numbers with 0 <= min < max, and bands that do not increase strictly
    with rarity (each band's min and max above the previous band's, and no overlap).
    """
    doc = TomlDoc.load(Path(path), problems)
    if doc is None:
        return None
    before = len(problems)
    doc.unknown_keys((), {"bands", "remedy", "score"})
    table = doc.get(("bands",), dict, fallback=None)
    doc.unknown_keys(("bands",), set(rules.rarities))
    bands = np.full((len(rules.rarities), 2), np.nan)
    lines = []
    for r, rarity in enumerate(rules.rarities):
        lines.append(doc.line(("bands", rarity)) or doc.line(("bands",)) or 1)
        if not isinstance(table, dict):
            continue
        value = doc.get(("bands", rarity), list, fallback=None)
        if value is None:
            continue
        ok = (len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                      for v in value))
        if not ok:
            doc.add(("bands", rarity), f"expected [min, max] as two numbers, got {value!r}")
            continue
        lo, hi = float(value[0]), float(value[1])
        if not 0.0 <= lo < hi:
            doc.add(("bands", rarity), f"expected 0 <= min < max, got [{value[0]}, {value[1]}]")
            continue
        bands[r] = lo, hi
    for r in range(1, len(rules.rarities)):
        prev, cur = bands[r - 1], bands[r]
        if np.isnan(prev).any() or np.isnan(cur).any():
            continue
        if not (cur[0] >= prev[1] and cur[1] > prev[1] and cur[0] > prev[0]):
            doc.add(("bands", rules.rarities[r]),
                    f"band [{cur[0]:g}, {cur[1]:g}] must lie above {rules.rarities[r - 1]}'s "
                    f"[{prev[0]:g}, {prev[1]:g}] (\"from least to most powerful\")")
    remedy = load_remedy(doc)
    weights = _load_score(doc, rules)
    if len(problems) > before:
        return None
    return PowerCurve(bands=bands, lines=tuple(lines), path=str(path), remedy=remedy,
                      weights=weights)


def rarity_bands(rules: Rules, path: Path | None = None) -> np.ndarray:
    """The (min, max) power band of each rarity, float64[rarity, 2]; InputError if the file is bad.

    ``path`` defaults to ``power_curve.toml`` beside ``rules.toml``.
    """
    if path is None:
        path = Path(rules.path).parent / POWER_CURVE_FILE
    problems = Problems()
    curve = load_power_curve(Path(path), rules, problems)
    problems.raise_if_any()
    return curve.bands


def check_bands(cards: CardCatalogue, rules: Rules, curve: PowerCurve, problems: Problems,
                weights: ScoreWeights | None = None) -> np.ndarray:
    """Record a problem (CSV file, card line, ``rarity``) for each card outside its band; scores."""
    score = power_score(cards, rules, weights if weights is not None else curve.weights)
    lo = curve.bands[cards.rarity, 0]
    hi = curve.bands[cards.rarity, 1]
    for i in np.flatnonzero((score < lo) | (score > hi)):
        rarity = rules.rarities[cards.rarity[i]]
        problems.add(cards.path, cards.lines[i], "rarity",
                     f"{cards.names[i]!r} has power {score[i]:.1f}, outside the {rarity} band "
                     f"[{lo[i]:g}, {hi[i]:g}] of {curve.path or POWER_CURVE_FILE}")
    return score


__all__ = ["ScoreWeights", "score_weights", "PowerCurve", "hit_probability", "power_score",
           "load_power_curve", "rarity_bands", "check_bands", "POWER_CURVE_FILE", "STAR_COLOURS"]
