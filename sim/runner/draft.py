"""The GM's draft: split a pool of 20 cards into the four fairest teams, next to two drafts.

Search with a fast surrogate, confirm by simulation: a team's surrogate strength is the sum of
its cards' power scores (``sim.catalogue.power``, a Lanchester-style product of offense and
effective health), the split minimising the spread of team strengths is found by pairwise-swap
local search from several seeded starts. Beside it, two drafts where the teams take the best card
left in turn: a snake draft (1-2-3-4-4-3-2-1-..., by power score) and, when Power Levels are
given, Arena: The Contest's alternating pick order (1-2-3-4-1-2-3-4-..., by Power Level under the
team budget, ``cards/arena_budget.toml``; Arena's printed order is strictly alternating, not a
snake). Every split is then played in duplicate to measure how fair it really is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.catalogue.diagnostics import Problems, suggest
from sim.catalogue.power import power_score
from sim.catalogue.teams import CARDS_PER_TEAM, TEAMS, Teams
from sim.catalogue.tomldoc import TomlDoc

POOL_SIZE = TEAMS * CARDS_PER_TEAM


def load_pool(path: Path, cards) -> np.ndarray:
    """A pool file: ``cards = [20 card names]``; one problem line per mistake."""
    problems = Problems()
    doc = TomlDoc.load(Path(path), problems)
    if doc is None:
        problems.raise_if_any()
    doc.unknown_keys((), {"cards"})
    listed = doc.get(("cards",), list, fallback=[])
    lowered = {n.lower(): i for i, n in enumerate(cards.names)}
    idx = []
    for name in listed:
        key = str(name).strip().lower()
        if key not in lowered:
            doc.add(("cards",), f"unknown card {name!r}{suggest(str(name), list(cards.names))}")
        elif lowered[key] in idx:
            doc.add(("cards",), f"{cards.names[lowered[key]]!r} listed twice")
        else:
            idx.append(lowered[key])
    if len(listed) != POOL_SIZE:
        doc.add(("cards",), f"expected {POOL_SIZE} cards (4 teams of 5), got {len(listed)}")
    problems.raise_if_any()
    return np.asarray(idx, np.int64)


def snake_draft(pool: np.ndarray, strength: np.ndarray) -> np.ndarray:
    """Teams picking in turn, best card first, in the order 1-2-3-4-4-3-2-1-1-2-... ([4, 5])."""
    order = pool[np.argsort(-strength[pool], kind="stable")]
    teams = [[] for _ in range(TEAMS)]
    for pick, card in enumerate(order):
        rnd, pos = divmod(pick, TEAMS)
        teams[pos if rnd % 2 == 0 else TEAMS - 1 - pos].append(card)
    return np.asarray(teams, np.int64)


def spread(teams: np.ndarray, strength: np.ndarray) -> float:
    totals = strength[teams].sum(axis=1)
    return float(totals.max() - totals.min())


def fairest_split(pool: np.ndarray, strength: np.ndarray, seed: int, restarts: int = 16
                  ) -> np.ndarray:
    """Pairwise-swap local search minimising the strength spread, from seeded random starts
    (the first start is the snake draft, so the result is never worse than it)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 3]))
    best, best_spread = None, np.inf
    for r in range(restarts):
        teams = snake_draft(pool, strength) if r == 0 else \
            rng.permutation(pool).reshape(TEAMS, CARDS_PER_TEAM)
        current = spread(teams, strength)
        improved = True
        while improved:
            improved = False
            for a in range(TEAMS):
                for b in range(a + 1, TEAMS):
                    for i in range(CARDS_PER_TEAM):
                        for j in range(CARDS_PER_TEAM):
                            teams[a, i], teams[b, j] = teams[b, j], teams[a, i]
                            s = spread(teams, strength)
                            if s < current - 1e-12:
                                current, improved = s, True
                            else:
                                teams[a, i], teams[b, j] = teams[b, j], teams[a, i]
        if current < best_spread:
            best, best_spread = teams.copy(), current
    return best


@dataclass(frozen=True)
class DraftResult:
    pool: np.ndarray
    strength: np.ndarray
    splits: dict            # name -> int64[4, 5]
    reports: dict           # name -> FairnessReport


def draft(catalogue, pool: np.ndarray, *, seed: int, policy: str = "greedy", games: int = 1024,
          round_games: int = 256, tolerance: float = 0.05, levels=None, arena=None
          ) -> DraftResult:
    """``levels`` (a :class:`sim.runner.budget.LevelTable`) and ``arena`` (its
    :class:`sim.catalogue.arena_budget.ArenaBudget`) add the alternating split."""
    from sim.analysis.power_level import alternating_draft

    from .fairness import check_fairness

    strength = power_score(catalogue.cards, catalogue.rules)
    splits = {"fairest": fairest_split(pool, strength, seed), "snake": snake_draft(pool, strength)}
    if levels is not None:
        splits["alternating"] = alternating_draft(pool, levels.level, levels.rating, arena.order,
                                                  arena.budget, arena.enforce_budget,
                                                  CARDS_PER_TEAM)
    reports = {}
    for name, teams in splits.items():
        as_teams = Teams(tuple(f"Team {k + 1}" for k in range(TEAMS)), teams)
        reports[name] = check_fairness(catalogue, as_teams, policy=policy, seed=seed,
                                       max_games=games, round_games=round_games,
                                       tolerance=tolerance)
    return DraftResult(pool, strength, splits, reports)
