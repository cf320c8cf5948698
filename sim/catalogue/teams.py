"""Team files (TOML): four teams of five cards each, checked with file:line: field problems.

Book: "Each game of Board Wars is played with 4 teams, each composed of 5 Character Cards. Though
cards are randomly assigned, teams are balanced using the GMs discernment." A card is one physical
card, so it may appear once per game (house ruling). Format::

    [[teams]]
    name = "Straw Hats"          # optional
    cards = ["Luffy", "Mario", "Thunder Fist Kid", "Petal Storm Girl", "Spirit Fox Medium"]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .diagnostics import suggest
from .tomldoc import TomlDoc

TEAMS, CARDS_PER_TEAM = 4, 5  # "4 teams, each composed of 5 Character Cards" (book)


@dataclass(frozen=True)
class Teams:
    names: tuple[str, ...]
    cards: np.ndarray  # int64[4, 5] card indices
    path: str = ""


def load_teams(path: Path, cards) -> Teams:
    """Parse ``path`` against the card catalogue; raises InputError listing every problem."""
    doc = TomlDoc.load_or_raise(Path(path))
    problems = doc.problems
    doc.unknown_keys((), {"teams"})
    entries = doc.get(("teams",), list, fallback=None)
    if entries is None:  # missing or not a list: said once, not again as "got 0"
        entries = []
    elif len(entries) != TEAMS:
        doc.add(("teams",), f"expected {TEAMS} [[teams]], got {len(entries)} (\"Each game of Board "
                            f"Wars is played with 4 teams\")")
    lowered = {n.lower(): i for i, n in enumerate(cards.names)}
    names, out, seen = [], np.zeros((TEAMS, CARDS_PER_TEAM), np.int64), {}
    for i, entry in enumerate(entries[:TEAMS]):
        base = ("teams", i)
        if not isinstance(entry, dict):
            doc.add(base, "expected a [[teams]] table")
            continue
        doc.unknown_keys(base, {"name", "cards"})
        name = doc.get(base + ("name",), str, default=f"Team {i + 1}", fallback=f"Team {i + 1}")
        if not name.strip():
            doc.add(base + ("name",), "empty (a report names each team)")
        elif name.strip().lower() in (n.strip().lower() for n in names):
            doc.add(base + ("name",), f"{name!r} names two teams (a report could not tell them apart)")
        names.append(name)
        listed = doc.get(base + ("cards",), list, fallback=None)
        if listed is None:  # missing or not a list: said once, not again as "got 0"
            continue
        if len(listed) != CARDS_PER_TEAM:
            doc.add(base + ("cards",), f"expected {CARDS_PER_TEAM} cards, got {len(listed)} "
                                       f"(\"each composed of 5 Character Cards\")")
        for k, name in enumerate(listed[:CARDS_PER_TEAM]):
            if not isinstance(name, str) or name.strip().lower() not in lowered:
                doc.add(base + ("cards",), f"unknown card {name!r}"
                                           f"{suggest(str(name), list(cards.names))}")
                continue
            c = lowered[name.strip().lower()]
            if c in seen:
                doc.add(base + ("cards",), f"{cards.names[c]!r} is already in team {seen[c] + 1} "
                                           f"(a card is one physical card)")
            seen[c] = i
            out[i, k] = c
    problems.raise_if_any()
    # a team is a set of cards: its members in name order (card indices are: sim.catalogue.cards),
    # not the file's. Why: characters are placed and ties broken member by member, so listing
    # "Mario, Luffy" for "Luffy, Mario" played other games for the same seed
    out.sort(axis=1)
    return Teams(tuple(names), out, str(path))


def random_teams(n_cards: int, rng: np.random.Generator) -> np.ndarray:
    """Four teams of five distinct cards drawn uniformly ("cards are randomly assigned"). The
    draw is over the card indices, which are in name order (sim.catalogue.cards), so the same
    seed names the same cards whatever the row order of characters.csv."""
    picked = rng.permutation(n_cards)[: TEAMS * CARDS_PER_TEAM]
    return picked.astype(np.int64).reshape(TEAMS, CARDS_PER_TEAM)
