"""Paired changes of the balance metrics between two replays of the same games (same seeds).

Why paired: ``bwlab rulings`` replays one study under the book and under each ruling's
alternative, and the drift gate replays its suite on the baseline's seeds; game ``i`` of both is
played on the same board with the same dice streams. The change of a share (say of games decided
by the same-step health tie-break) is then the mean of the per-game differences of indicators
``d_i = 1[after_i] - 1[before_i]``, and most of the two replays' luck cancels in ``d``. Games
that share a board are correlated, so the mean has a CR1 standard error clustered by board and a
t interval on G - 1 degrees of freedom (:func:`cluster.clustered_mean`, as every interval of the
lab; ``docs/intervals.md``), and a two-sided p-value from the same t. The same holds for the mean
of a count (rotations, lead changes). Two replays that leave every game identical have every
``d_i = 0``: change exactly 0, p = 1.

How games end is one family per comparison: the four engine endings (:data:`balance.KINDS`) and
"no winner" (Ludii's Drawishness; a tie-break that scores same-step eliminations as draws moves
it without moving the share of same-step endings). Pure NumPy and SciPy, like the rest of the
statistics layer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy.stats import t as student_t

from .balance import KIND_WORDS, KINDS, SIMULTANEOUS
from .cluster import SE_ROUNDING, clustered_mean, clustered_share_interval, no_change_bound
from .selective import halve

NO_WINNER = "no winner"
ENDINGS = KINDS + (NO_WINNER,)
ENDING_WORDS = {**KIND_WORDS, NO_WINNER: "no winner (drawishness)"}

__all__ = ["ENDINGS", "ENDING_WORDS", "NO_WINNER", "BalanceChange", "PairedChange",
           "balance_change", "ending_indicators", "endings_named_by_holm", "paired_change",
           "share_change", "significant_endings"]


@dataclass(frozen=True)
class PairedChange:
    """The mean of a per-game quantity before and after, and its paired change with interval."""

    before: float
    after: float
    change: float
    se: float
    low: float
    high: float
    pvalue: float       # two-sided, t on df: "no change"
    df: int             # boards - 1
    games: int
    games_changed: int  # games whose value differs between the two replays

    def as_dict(self) -> dict:
        return {"before": self.before, "after": self.after, "change": self.change, "se": self.se,
                "low": self.low, "high": self.high, "p_value": self.pvalue, "df": self.df,
                "games": self.games, "games_changed": self.games_changed}


def paired_change(before, after, clusters=None, confidence: float = 0.95) -> PairedChange:
    """Mean of ``after - before`` over games paired on the same seeds, clustered by
    ``clusters`` (each game's board; ``None``: independent games). Every difference 0 gives
    change 0 with p = 1. Where the boards' means came out alike (se 0 on a few boards) the
    clustered interval has no width, and a length or lead-change count read as certain
    (``paired_change([5,6,5,5], [6,5,5,5], [0,0,1,1])``: p 0): there the games' own spread
    stands in (t on n - 1, as if independent); only a change every game made alike (no spread
    at all) keeps p = 0. Shares have a sounder fallback (:func:`share_change`)."""
    x = np.asarray(before, dtype=float).ravel()
    y = np.asarray(after, dtype=float).ravel()
    if x.shape != y.shape:
        raise ValueError(f"before and after must pair game by game ({x.size} vs {y.size})")
    d = y - x
    est = clustered_mean(d, clusters, confidence)
    change, se = float(est.rate), float(est.se)
    moved = int(np.count_nonzero(d))
    if moved and not se > SE_ROUNDING:
        est = clustered_mean(d, None, confidence)  # the games' own spread (module doc)
        se = float(est.se)
    if moved == 0:
        p, low, high = 1.0, 0.0, 0.0
    elif not se > SE_ROUNDING:
        p, low, high = 0.0, change, change
    else:
        p = float(2.0 * student_t.sf(abs(change) / se, est.df))
        low, high = float(est.lower), float(est.upper)
    return PairedChange(float(x.mean()), float(y.mean()), change, se, low, high, p,
                        int(est.df), int(x.size), moved)


def share_change(before, after, clusters=None, confidence: float = 0.95) -> PairedChange:
    """The paired change of a share (0/1 per game, :func:`paired_change`), except where it came
    out alike on every board: a non-zero change with se 0 (a few boards, a few games each) had
    a zero-width interval and p = 0, so a ruling "changed how games end" on 2 boards in 625 of
    1,000 studies where nothing changed. There the interval is the two shares' own
    board-clustered intervals (:func:`cluster.clustered_share_interval`, Korn-Graubard) at
    1 - (1 - confidence) / 2 each, combined as :func:`balance.change_of_rates_interval` combines
    the teams' (Bonferroni; it does not lean on the pairing), and the p-value is the smallest
    alpha at which that interval, at 1 - alpha, excludes no change."""
    pc = paired_change(before, after, clusters, confidence)
    x = np.asarray(before, dtype=float).ravel()
    y = np.asarray(after, dtype=float).ravel()
    if pc.games_changed == 0:
        return _no_game_moved(pc, x.size, clusters, confidence)
    clustered = clustered_mean(y - x, clusters, confidence)
    if clustered.se > SE_ROUNDING:
        return pc
    low, high = _unpaired_change_interval(x, y, clusters, confidence)
    return replace(pc, se=float(clustered.se), df=int(clustered.df), low=low, high=high,
                   pvalue=_unpaired_change_pvalue(x, y, clusters))


def _no_game_moved(pc: PairedChange, n: int, clusters, confidence: float) -> PairedChange:
    """No game's value moved: the change of these games is exactly 0, but the rule's is only
    bounded, [-u, +u] of :func:`cluster.no_change_bound` over the boards (games without boards),
    and p = 1. It was [0, 0], which missed a planted change in 12 % of 2-board studies
    (docs/intervals.md)."""
    u = no_change_bound(n, clusters, confidence)
    return replace(pc, low=-u, high=u, pvalue=1.0)


def _unpaired_change_interval(x, y, clusters, level: float) -> tuple[float, float]:
    half = 1.0 - (1.0 - level) / 2
    lo0, hi0 = clustered_share_interval(x, clusters, half)
    lo1, hi1 = clustered_share_interval(y, clusters, half)
    return max(float(lo1 - hi0), -1.0), min(float(hi1 - lo0), 1.0)


def _unpaired_change_pvalue(x, y, clusters, steps: int = 40) -> float:
    """Bisection on alpha (the interval narrows as alpha grows, so "excludes 0" is monotone)."""
    def excludes(alpha: float) -> bool:
        low, high = _unpaired_change_interval(x, y, clusters, 1.0 - alpha)
        return low > 0.0 or high < 0.0

    small, large = 1e-12, 1.0 - 1e-9
    if excludes(small):
        return small
    if not excludes(large):
        return 1.0
    return float(halve(lambda mid: not excludes(float(mid)), small, large, steps)[1])


def ending_indicators(outcome, winner) -> dict[str, np.ndarray]:
    """Per game, whether it ended each way (:data:`ENDINGS`): the engine's ending labels and
    "no winner" (``winner < 0``)."""
    kinds = np.asarray(outcome).astype(str)
    out = {k: kinds == k for k in KINDS}
    out[NO_WINNER] = np.asarray(winner) < 0
    return out


@dataclass(frozen=True)
class BalanceChange:
    """How games end, how long they last and how often the lead changes: after vs before."""

    endings: dict                 # ending -> PairedChange of its share
    rotations: PairedChange       # mean game length in rotations
    lead_changes: PairedChange | None
    same_step_both: int           # games that end in a same-step elimination in both replays
    same_step_winner_changed: int  # ... whose winner differs between the two

    def as_dict(self) -> dict:
        return {"endings": {k: c.as_dict() for k, c in self.endings.items()},
                "rotations": self.rotations.as_dict(),
                "lead_changes": None if self.lead_changes is None else
                self.lead_changes.as_dict(),
                "same_step_both": self.same_step_both,
                "same_step_winner_changed": self.same_step_winner_changed}


def balance_change(before: dict, after: dict, clusters=None, confidence: float = 0.95,
                   same_code: bool = False) -> BalanceChange:
    """The paired changes between two replays of the same games. ``before`` and ``after``:
    per-game ``outcome`` (engine labels), ``winner`` (-1: nobody), ``rotations`` and optionally
    ``lead_changes`` (``None`` on either side: not compared). ``same_code``: both sides were
    played by the same engine on the same cards, so every game is the same game and a share no
    game moved changed by exactly 0 (else the zero-event bound of :func:`share_change`)."""
    i0 = ending_indicators(before["outcome"], before["winner"])
    i1 = ending_indicators(after["outcome"], after["winner"])
    endings = {k: (paired_change(i0[k], i1[k], clusters, confidence) if same_code
                   else share_change(i0[k], i1[k], clusters, confidence)) for k in ENDINGS}
    length = paired_change(before["rotations"], after["rotations"], clusters, confidence)
    lead = None
    if before.get("lead_changes") is not None and after.get("lead_changes") is not None:
        lead = paired_change(before["lead_changes"], after["lead_changes"], clusters, confidence)
    both = i0[SIMULTANEOUS] & i1[SIMULTANEOUS]
    moved = both & (np.asarray(before["winner"]) != np.asarray(after["winner"]))
    return BalanceChange(endings, length, lead, int(both.sum()), int(moved.sum()))


def significant_endings(changes: list[BalanceChange], alpha: float = 0.05
                        ) -> tuple[list[list[str]], list[dict]]:
    """Which endings' shares change, per comparison: Holm over every comparison and every
    ending together, so the chance of naming any change that is not there stays ``alpha`` over
    the whole list (``rulings``: every alternative; Holm 1979, :mod:`.multiple`). Returns per
    comparison the endings named and the Holm-adjusted p-value of each ending."""
    return endings_named_by_holm([[c.endings[k].pvalue for k in ENDINGS] for c in changes],
                                 alpha)


def endings_given_marks(rows: list[dict], alpha: float = 0.05,
                        confidence: float = 0.95) -> list[dict]:
    """Per comparison (``rows``: each a ``BalanceChange.as_dict()["endings"]``), the 95 %
    interval of each ending Holm marks (:func:`endings_named_by_holm`) *given the mark*:
    ``{ending: (low, high)}``. Why: the mark chooses the endings whose estimate lies far from
    no change, and their own intervals held the truth in 86.5 % of planted marks (667 of 771;
    the second selection audit, docs/selection-audit-2.md); given the mark
    (:func:`sim.analysis.selective.marked_intervals`) they cover at 95 %. An ending whose p-value
    is not its t's (se 0: the shares' own intervals stood in) keeps its own interval."""
    from .multiple import holm
    from .selective import marked_intervals

    cells = [(i, k) for i, row in enumerate(rows) for k in ENDINGS]
    pick = lambda key: np.array([float(rows[i][k][key]) for i, k in cells])  # noqa: E731
    se = np.where(pick("se") > SE_ROUNDING, pick("se"), 0.0)
    low, high = marked_intervals(pick("change"), se, pick("df").astype(int), pick("p_value"),
                                 alpha, confidence, holm)
    out: list[dict] = [{} for _ in rows]
    for (i, k), lo, hi in zip(cells, low, high):
        if np.isfinite(lo):
            out[i][k] = (float(lo), float(hi))
    return out


def given_words(c: dict, interval) -> str:
    """A marked ending's change in a sentence (``c``: a ``PairedChange.as_dict()``): "+0.9
    points (+0.1 to +1.6 given the mark)", or only the change without an interval given it."""
    words = f"{100 * c['change']:+.1f} points"
    return words if interval is None else (f"{words} ({100 * interval[0]:+.1f} to "
                                           f"{100 * interval[1]:+.1f} given the mark)")


def endings_named_by_holm(pvalues, alpha: float = 0.05) -> tuple[list[list[str]], list[dict]]:
    """:func:`significant_endings` from the p-values themselves, one row per comparison in the
    order of :data:`ENDINGS` (the drift gate reads them from its JSON documents)."""
    from .multiple import holm

    p = np.asarray(pvalues, dtype=float).reshape(-1, len(ENDINGS))
    if not p.size:
        return [], []
    adjusted = holm(p.ravel()).reshape(p.shape)
    named = [[k for j, k in enumerate(ENDINGS) if adjusted[i, j] <= alpha]
             for i in range(len(p))]
    return named, [dict(zip(ENDINGS, map(float, row))) for row in adjusted]
