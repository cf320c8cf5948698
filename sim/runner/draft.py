"""The GM's draft: split a pool of 20 cards into the four fairest teams, next to two drafts.

The simulation is the judge (:mod:`.confirm`): a fast surrogate proposes, duplicate play
confirms. A team's surrogate strength is the sum of its cards' ratings in play (the
Plackett-Luce ratings behind the Power Levels) when the levels are fitted, else the sum of their
power scores (``sim.catalogue.power``, a Lanchester-style product of offense and effective
health). The splits minimising the spread of team strengths are found by pairwise-swap local
search from several seeded starts; they are judged by play in the surrogate's order until one is
fair, and only a confirmed split is advice (otherwise: the best one measured, said to be so).
With Power Levels the team budget is enforced in the search whenever some split of the pool fits
it (:func:`sim.analysis.power_level.budget_feasible`, exact); when none can, the search keeps the
levels over it as few as it can and the budget is said to be impossible. Beside it, two drafts
where the teams take the best card left in turn: a snake draft (1-2-3-4-4-3-2-1-..., by the same
strength) and, when Power Levels are given, Arena: The
Contest's alternating pick order (1-2-3-4-1-2-3-4-..., by Power Level under the team budget,
``cards/arena_budget.toml``; Arena's printed order is strictly alternating, not a snake); both
are played in duplicate too, to measure how fair they really are.
"""

from __future__ import annotations

import json

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.catalogue.diagnostics import Problems, suggest
from sim.catalogue.power import power_score
from sim.catalogue.teams import CARDS_PER_TEAM, TEAMS, Teams
from sim.catalogue.tomldoc import TomlDoc

POOL_SIZE = TEAMS * CARDS_PER_TEAM


def load_pool(path: Path, cards) -> np.ndarray:
    """A pool file: ``cards = [20 card names]``; one problem line per mistake, and one line
    for a file of another kind (an experiment, weights or team file: a line per key it was)."""
    from .file_kinds import misplaced

    problems = Problems()
    doc = TomlDoc.load(Path(path), problems)
    if doc is None:
        problems.raise_if_any()
    wrong = misplaced(doc.data, "a draft pool")
    if wrong:
        problems.add(path, None, "file", wrong)
        problems.raise_if_any()
    doc.unknown_keys((), {"cards"})
    listed = doc.get(("cards",), list, fallback=None)
    if listed is None:  # missing or not a list: said once, not again as "got 0"
        problems.raise_if_any()
    lowered = {n.lower(): i for i, n in enumerate(cards.names)}
    idx = []
    for name in listed:
        key = str(name).strip().lower()
        if not isinstance(name, str):  # a date read as Python's repr: datetime.date(1979, ...)
            shown = (name.isoformat() if hasattr(name, "isoformat")
                     else json.dumps(name, default=str))
            doc.add(("cards",), f"expected card names (text), got {shown}")
        elif key not in lowered:
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


BUDGET_PENALTY = 1e6   # per Power Level over the budget: any split within it beats any over it


def objective(teams: np.ndarray, strength: np.ndarray, level=None, budget=None) -> float:
    """The surrogate's score of a split: the spread of team strengths, plus a penalty per level
    over the team budget when one is enforced (so the search stays within it when it can)."""
    s = spread(teams, strength)
    if level is None or budget is None:
        return s
    return s + BUDGET_PENALTY * float(np.clip(level[teams].sum(axis=1) - budget, 0, None).sum())


def _local_search(teams: np.ndarray, score) -> float:
    """Pairwise swaps until none lowers ``score`` (in place); the final score."""
    current = score(teams)
    improved = True
    while improved:
        improved = False
        for a in range(TEAMS):
            for b in range(a + 1, TEAMS):
                for i in range(CARDS_PER_TEAM):
                    for j in range(CARDS_PER_TEAM):
                        teams[a, i], teams[b, j] = teams[b, j], teams[a, i]
                        s = score(teams)
                        if s < current - 1e-12:
                            current, improved = s, True
                        else:
                            teams[a, i], teams[b, j] = teams[b, j], teams[a, i]
    return current


def split_proposals(pool: np.ndarray, strength: np.ndarray, seed: int, restarts: int = 16,
                    level=None, budget=None) -> list[np.ndarray]:
    """Distinct local optima of the surrogate (pairwise-swap local search from seeded random
    starts; the first start is the snake draft, so the best is never worse than it), best first.
    Why several: when the best fails in play, the next-best are the ones to judge."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 3]))

    def score(t):
        return objective(t, strength, level, budget)

    found: dict[tuple, tuple[float, np.ndarray]] = {}
    for r in range(restarts):
        teams = snake_draft(pool, strength) if r == 0 else \
            rng.permutation(pool).reshape(TEAMS, CARDS_PER_TEAM)
        value = _local_search(teams, score)
        key = tuple(sorted(tuple(sorted(row)) for row in teams.tolist()))
        if key not in found:
            found[key] = (value, teams.copy())
    return [t for _, t in sorted(found.values(), key=lambda vt: vt[0])]


def fairest_split(pool: np.ndarray, strength: np.ndarray, seed: int, restarts: int = 16,
                  level=None, budget=None) -> np.ndarray:
    """The surrogate's best split (:func:`split_proposals`)."""
    return split_proposals(pool, strength, seed, restarts, level, budget)[0]


@dataclass(frozen=True)
class DraftResult:
    pool: np.ndarray
    strength: np.ndarray
    splits: dict            # name -> int64[4, 5]
    reports: dict           # name -> FairnessReport
    search: object = None   # sim.runner.confirm.Confirmation of the surrogate's proposals
    budget: int | None = None        # the team budget the search kept to (None: no levels)
    feasible: bool | None = None     # some split of the pool fits the budget (None: no levels)


def draft(catalogue, pool: np.ndarray, *, seed: int, policy: str = "greedy", games: int = 1024,
          round_games: int = 256, tolerance: float = 0.05, levels=None, arena=None,
          budget: int | None = None, proposals: int = 8) -> DraftResult:
    """The fairest split the simulation confirms, beside the snake and (with ``levels``, a
    :class:`sim.runner.budget.LevelTable`, and ``arena``, its
    :class:`sim.catalogue.arena_budget.ArenaBudget`) Arena's alternating draft. The surrogate's
    splits are judged by duplicate play in its order, up to ``proposals`` of them and ``games``
    each (:mod:`.confirm`). With levels the team budget (``budget``, default Arena's) is enforced
    in the search whenever some split of the pool fits it; when none can, ``feasible`` says so."""
    from sim.analysis.fairness import advice_alpha
    from sim.analysis.power_level import alternating_draft, budget_feasible

    from . import progress as line
    from .confirm import confirm
    from .fairness import check_fairness

    strength = (power_score(catalogue.cards, catalogue.rules) if levels is None
                else np.asarray(levels.rating, float))
    level = feasible = None
    if levels is not None:
        budget = arena.budget if budget is None else budget
        feasible = budget_feasible(levels.level[pool], budget)
        level = levels.level   # when no split fits, the search keeps the excess smallest

    ranked = split_proposals(pool, strength, seed, level=level, budget=budget)[:proposals]
    # the check's own 5 %, split past 8 tries: every split that may be advised is one, the
    # snake (and with levels the alternating) draft too (the advice audit of stop 81)
    drafts = 1 + (levels is not None)
    alpha = advice_alpha(0.05, len(ranked) + drafts)

    def judge(teams, n):
        as_teams = Teams(tuple(f"Team {k + 1}" for k in range(TEAMS)), teams)
        return check_fairness(catalogue, as_teams, policy=policy, seed=seed, max_games=n,
                              round_games=min(round_games, n), tolerance=tolerance, alpha=alpha)

    search = confirm(((f"proposal {k + 1}", t) for k, t in enumerate(ranked)), judge,
                     budget=games * proposals, per_check=games,
                     stage="confirming the fairest split by play")
    chosen = search.confirmed or search.best
    splits = {"fairest": chosen.teams, "snake": snake_draft(pool, strength)}
    reports = {"fairest": chosen.report}
    if levels is not None:
        splits["alternating"] = alternating_draft(pool, levels.level, levels.rating, arena.order,
                                                  budget, arena.enforce_budget,
                                                  CARDS_PER_TEAM)
    others = [name for name in ("snake", "alternating") if name in splits]
    with line.stage(f"judging the {' and '.join(others)} draft{'s' * (len(others) > 1)}",
                    games * len(others), at_most=True):
        for name in others:
            reports[name] = judge(splits[name], games)
    return DraftResult(pool, strength, splits, reports, search, budget, feasible)
