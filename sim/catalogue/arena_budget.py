"""``cards/arena_budget.toml``: Arena's Power Levels, team budget and pick order on Board Wars.

Why a file: Arena: The Contest prints its Power Level table and its budget ("The total power
level of each team must equal 10 or less"), but on Board Wars every number is a house ruling —
how a simulated rating becomes a level, which games feed the ratings, the budget for five cards,
the pick order of four teams. As data, a designer tries an alternative without code; checked
here with one ``file:line: field: problem`` line per mistake, like every designer file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Problems
from .teams import CARDS_PER_TEAM, TEAMS
from .tomldoc import TomlDoc

ARENA_BUDGET_FILE = "arena_budget.toml"
LEVELS = 4                      # Arena's table: Power Level 1 to 4
RULES = ("quantile", "fixed")
MIN_LEVEL_TOTAL = CARDS_PER_TEAM  # five level-1 cards: a smaller budget admits no team at all


@dataclass(frozen=True)
class ArenaBudget:
    experiment: Path             # pool experiment whose games fit the card ratings
    games: int
    rule: str                    # quantile | fixed
    shares: tuple[float, ...]    # quantile: share of cards at level 1..4 (sums to 1)
    thresholds: tuple[float, ...]  # fixed: rating cut points 1|2, 2|3, 3|4
    budget: int
    order: tuple[int, ...]       # alternating draft: team indices (0-based) in pick order
    enforce_budget: bool
    sets: int
    set_games: int
    budget_built: float
    tolerance: float
    seed: int
    path: str = ""
    experiment_flag: str = ""    # the flag that named ``experiment`` ("": the file's [levels])


def load_arena_budget(root: Path, problems: Problems | None = None,
                      experiment_file: Path | None = None) -> ArenaBudget:
    """Parse and check ``root/arena_budget.toml``; raises InputError listing every problem.
    ``experiment_file`` (``--levels-experiment``) replaces the file's [levels] experiment: a card
    folder copied elsewhere to try a change has no experiments/ beside it."""
    path = Path(root) / ARENA_BUDGET_FILE
    doc = TomlDoc.load_or_raise(path, problems)
    own = doc.problems
    doc.unknown_keys((), {"levels", "budget", "draft", "validate"})
    doc.unknown_keys(("levels",), {"experiment", "games", "rule", "shares", "thresholds"})
    doc.unknown_keys(("budget",), {"team"})
    doc.unknown_keys(("draft",), {"order", "enforce_budget"})
    doc.unknown_keys(("validate",), {"sets", "games", "budget_built", "tolerance", "seed"})
    L, V = ("levels",), ("validate",)
    experiment = doc.get(L + ("experiment",), str, fallback="experiments/rarity.toml")
    exp_path = Path(experiment)
    if not exp_path.is_absolute():
        exp_path = Path(root).resolve().parent / exp_path
    games = doc.get(L + ("games",), int, lo=64, hi=10_000_000, fallback=4000)
    rule = doc.get(L + ("rule",), str, choices=RULES, fallback="quantile")
    shares = _numbers(doc, L + ("shares",), LEVELS, "shares of cards at levels 1..4")
    if shares is not None and (min(shares) < 0 or sum(shares) <= 0):
        doc.add(L + ("shares",), "shares must be >= 0 and not all 0")
        shares = None
    thresholds = _numbers(doc, L + ("thresholds",), LEVELS - 1,
                          "rating cut points between levels 1|2, 2|3, 3|4")
    if thresholds is not None and any(b <= a for a, b in zip(thresholds, thresholds[1:])):
        doc.add(L + ("thresholds",), f"{list(thresholds)}: cut points must rise strictly")
        thresholds = None
    budget = doc.get(("budget", "team"), int, lo=MIN_LEVEL_TOTAL, hi=LEVELS * CARDS_PER_TEAM,
                     fallback=10)
    order = doc.get(("draft", "order"), list, fallback=list(range(1, TEAMS + 1)))
    if sorted(o for o in order if isinstance(o, int) and not isinstance(o, bool)) \
            != list(range(1, TEAMS + 1)):
        doc.add(("draft", "order"), f"{order!r}: expected each team 1..{TEAMS} once")
        order = list(range(1, TEAMS + 1))
    enforce = doc.get(("draft", "enforce_budget"), bool, fallback=True)
    sets = doc.get(V + ("sets",), int, lo=2, hi=100_000, fallback=48)
    set_games = doc.get(V + ("games",), int, lo=8, hi=1_000_000, fallback=256)
    if isinstance(set_games, int) and set_games % TEAMS:
        doc.add(V + ("games",), f"{set_games} is not a multiple of 4 (whole duplicate blocks)")
    built = doc.get(V + ("budget_built",), (int, float), lo=0.0, hi=1.0, fallback=0.5)
    tolerance = doc.get(V + ("tolerance",), (int, float), lo=0.0, hi=0.25, fallback=0.05)
    if tolerance == 0:
        doc.add(V + ("tolerance",), "0 leaves no game fair; use a positive band")
    seed = doc.get(V + ("seed",), int, lo=0, hi=2**63 - 1, fallback=0)
    own.raise_if_any()
    total = sum(shares)
    return ArenaBudget(exp_path if experiment_file is None else Path(experiment_file), games, rule,
                       tuple(s / total for s in shares), tuple(thresholds), budget,
                       tuple(int(o) - 1 for o in order), enforce, sets, set_games, float(built),
                       float(tolerance), seed, str(path),
                       "" if experiment_file is None else "--levels-experiment")


def _numbers(doc: TomlDoc, key: tuple, n: int, what: str) -> tuple[float, ...] | None:
    value = doc.get(key, list, fallback=None)
    if value is None:
        return None
    if len(value) != n or any(isinstance(x, bool) or not isinstance(x, (int, float))
                              for x in value):
        doc.add(key, f"expected {n} numbers ({what}), got {value!r}")
        return None
    return tuple(float(x) for x in value)
