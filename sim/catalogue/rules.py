"""``cards/rules.toml``: the book's numbers and the house rulings, parsed into typed values.

Why a file and not constants: the rulebook leaves many numbers open (dice tiers, advantage scope,
...). Each is a designer's decision documented in ``docs/rulings.md``; keeping them as data lets a
designer try an alternative ruling without touching code, and lets the drift gate notice it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .diagnostics import Problems
from .tomldoc import TomlDoc

STAR_COLOURS = ("base", "red", "blue", "green")  # priority order, lowest first (book)
HOMEFIELD_CANCEL = ("state", "base")
ADVANTAGE_SCOPES = ("per_die", "per_attack")
GROUP_ORDERS = ("sequential", "declared")

_SECTIONS = {
    "catalogue": {"suits", "rarities"},
    "dice": {"tier_faces", "defense_die", "defense_margin", "max_defense"},
    "star": {"red_health_fraction", "homefield_cancel", "red_counts_shield"},
    "advantage": {"scope"},
    "group_attack": {"order"},
    "shield": {"absorbs_first"},
    "report": {"typical_defender"},
}


@dataclass(frozen=True)
class Rules:
    suits: tuple[str, ...]
    rarities: tuple[str, ...]
    tier_faces: np.ndarray  # int64[4]: faces of the damage die of tiers 1..4
    defense_die: int
    defense_margin: int
    max_defense: int
    red_health_fraction: float
    homefield_cancel: str
    red_counts_shield: bool
    advantage_scope: str
    group_order: str
    shield_absorbs_first: bool
    typical_defender: str | float
    path: str = ""

    @property
    def n_tiers(self) -> int:
        return int(self.tier_faces.shape[0])

    def faces(self, tier: int) -> int:
        """Faces of the damage die of ``tier`` (1-based, as printed on the star)."""
        return int(self.tier_faces[tier - 1])


def load_rules(path: Path, problems: Problems) -> Rules | None:
    """Parse and check ``rules.toml``; None (with problems recorded) if it cannot be used."""
    doc = TomlDoc.load(Path(path), problems)
    if doc is None:
        return None
    before = len(problems)
    for section, keys in _SECTIONS.items():
        doc.unknown_keys((section,), keys)
    # board: board_rules.py; entities: entities.py; variants: variants.py
    known_sections = set(_SECTIONS) | {"board", "game", "entities", "variants"}
    doc.unknown_keys((), known_sections)

    suits = _names(doc, ("catalogue", "suits"), expected=12)
    rarities = _names(doc, ("catalogue", "rarities"), expected=6)
    faces = doc.get(("dice", "tier_faces"), list, fallback=[6, 12, 20, 30])
    if not (isinstance(faces, list) and faces and all(isinstance(f, int) and not isinstance(f, bool)
                                                       and 2 <= f <= 1000 for f in faces)):
        doc.add(("dice", "tier_faces"), "expected a list of whole numbers of faces (2-1000) per tier")
        faces = [6, 12, 20, 30]
    elif len(faces) != 4:
        doc.add(("dice", "tier_faces"), f"expected 4 tiers (the book has 4 Dice Tiers), got {len(faces)}")
    defense_die = doc.get(("dice", "defense_die"), int, lo=2, hi=1000, fallback=12)
    margin = doc.get(("dice", "defense_margin"), int, lo=0, hi=100, fallback=2)
    max_def = doc.get(("dice", "max_defense"), int, lo=0, hi=100, fallback=9)
    red = doc.get(("star", "red_health_fraction"), (int, float), lo=0.0, hi=1.0, fallback=0.5)
    cancel = doc.get(("star", "homefield_cancel"), str, choices=HOMEFIELD_CANCEL, fallback="state")
    red_shield = doc.get(("star", "red_counts_shield"), bool, fallback=False)
    scope = doc.get(("advantage", "scope"), str, choices=ADVANTAGE_SCOPES, fallback="per_die")
    order = doc.get(("group_attack", "order"), str, choices=GROUP_ORDERS, fallback="sequential")
    absorbs = doc.get(("shield", "absorbs_first"), bool, fallback=True)
    if absorbs is False:  # validated, then played by nothing: refused, not ignored (audit 82)
        doc.add(("shield", "absorbs_first"), "false cannot be played: shield is health above the "
                                             "maximum, so damage takes it first by construction "
                                             "(no shield that decays apart exists); keep true")
    typical = doc.get(("report", "typical_defender"), (str, int, float), default="median",
                      fallback="median")  # (reported: a list, NaN, a number too big for a float)
    if isinstance(typical, str) and typical != "median":
        doc.add(("report", "typical_defender"), f"expected \"median\" or a number, got {typical!r}")
        typical = "median"
    elif not isinstance(typical, str) and not (0 <= typical <= max_def and typical == int(typical)):
        # a number pins the typical defender's defense: a defense a card may have
        doc.add(("report", "typical_defender"), f"expected \"median\" or a whole defense from 0 "
                                                f"to max_defense {max_def}, got {typical!r}")
        typical = "median"
    if len(problems) > before:
        return None
    return Rules(
        suits=tuple(suits), rarities=tuple(rarities),
        tier_faces=np.asarray(faces, dtype=np.int64), defense_die=defense_die,
        defense_margin=margin, max_defense=max_def, red_health_fraction=float(red),
        homefield_cancel=cancel, red_counts_shield=red_shield, advantage_scope=scope,
        group_order=order, shield_absorbs_first=absorbs, typical_defender=typical,
        path=str(path),
    )


def _names(doc: TomlDoc, path: tuple, expected: int) -> list[str]:
    names = doc.get(path, list, fallback=[])
    if not all(isinstance(n, str) and n.strip() for n in names):
        doc.add(path, "expected a list of non-empty names")
        return []
    if len(set(n.lower() for n in names)) != len(names):
        doc.add(path, "names repeat")
    if names and len(names) != expected:
        doc.add(path, f"expected {expected} names (the book's count), got {len(names)}")
    return list(names)
