"""The GM's fairness verdict from duplicate play, settled sequentially.

A game is fair when every team's chance to win is within ``tolerance`` of 1/4 ("teams are
balanced using the GMs discernment"). The verdict is decided with confidence: each team's
win-rate interval (block design of duplicate play, :func:`variance.duplicate_win_rates`) is
either wholly inside the fair band (fair), or one lies wholly outside it (unfair), else the
question is still open. Because the check is repeated after every round of games, each look
spends ``alpha / max_looks`` (Bonferroni over looks and over the four teams), so stopping early
does not inflate the error rate beyond ``alpha``.

Shared boards. The runner reuses boards (block ``b`` on board ``b % boards``), so the intervals
are cluster-robust by board (``clusters``): the boards, not the games, are the independent
draws. More games on the same boards then shrink the interval only down to a floor set by how
much the boards differ (the between-board variance component, one-way ANOVA of the block
means: Searle, Casella & McCulloch, "Variance Components", 1992, ch. 3). When that floor is
already too wide to settle the question, the open verdict says that more boards (``--boards``)
are needed, not more games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cluster import cluster_ids, cluster_sums, t_quantile
from .fairness_call import called_intervals
from .variance import duplicate_win_rates

FAIR, UNFAIR, OPEN = "fair", "unfair", "open"
# "The boards differ" needs evidence: the one-way ANOVA F test of the block means by board at
# this level; without it the floor estimate is noise and the advice stays "more games".
BOARD_EVIDENCE = 0.05


@dataclass(frozen=True)
class FairnessVerdict:
    status: str                 # fair | unfair | open
    rate: np.ndarray            # win probability per team
    lower: np.ndarray           # simultaneous interval (all teams, all looks)
    upper: np.ndarray
    variance_ratio: np.ndarray  # duplicate vs unpaired play: < 1 = duplicate play saved games
    games: int
    level: float                # confidence of each interval after the corrections
    text: str
    boards: int = 0             # independent clusters behind the intervals (0: blocks, no boards)
    design: str = ""            # "4,096 games on 1,024 boards"
    board_floor: np.ndarray | None = None  # half-width no number of games on these boards beats
    needs_boards: bool = False  # open, and only more boards (not more games) can settle it
    # a team called favoured (+1) or disadvantaged (-1), else 0; and its interval given that
    # call (sim/analysis/fairness_call.py: the simultaneous one, which made the call, covered
    # 57-63 % of calls at a truth 0.25 points past the edge), nan for a team not called
    called: np.ndarray | None = None
    call_lower: np.ndarray | None = None
    call_upper: np.ndarray | None = None

    @property
    def largest_gap(self) -> float:
        """The measured largest distance of a team's chance to win from a fair share (25 %
        for four teams): how far from fair these teams played."""
        return float(np.max(np.abs(self.rate - 1.0 / self.rate.size)))


def game_values(winner: np.ndarray, n_teams: int = 4) -> np.ndarray:
    """Per game and team: 1 for the winner, 0 otherwise; a game with no winner (-1) is shared
    equally, so the values of a game always sum to 1 and a fair game is 1/4 each."""
    winner = np.asarray(winner)
    values = np.zeros((winner.size, n_teams))
    won = winner >= 0
    values[np.flatnonzero(won), winner[won]] = 1.0
    values[~won] = 1.0 / n_teams
    return values


def design_text(games: int, blocks: int, boards: int | None) -> str:
    """The design in words: "4,096 games on 1,024 boards" (or "... in 1,024 blocks")."""
    if boards is None:
        return f"{games:,} games in {blocks:,} duplicate blocks"
    return f"{games:,} games on {boards:,} board{'s' if boards != 1 else ''}"


def board_floor(block_means, clusters, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Half-width (per team) the interval keeps however many more blocks are played on the same
    boards: t * sigma_board / sqrt(G), sigma_board^2 the between-board variance component of the
    block means (unbalanced one-way ANOVA, method of moments, truncated at 0); and the F test's
    p-value for "the boards do not differ" (1 where it cannot be tested)."""
    from scipy.stats import f as f_dist

    y = np.asarray(block_means, dtype=float)
    ids, g = cluster_ids(clusters, y.shape[0])
    n = y.shape[0]
    sizes = np.bincount(ids, minlength=g).astype(float)
    if g < 2 or n <= g:
        return np.zeros(y.shape[1:]), np.ones(y.shape[1:])
    means = cluster_sums(y, ids, g) / sizes[:, None]
    grand = y.mean(axis=0)
    msb = np.sum(sizes[:, None] * (means - grand) ** 2, axis=0) / (g - 1)
    msw = np.sum((y - means[ids]) ** 2, axis=0) / (n - g)
    m0 = (n - np.sum(sizes ** 2) / n) / (g - 1)      # effective blocks per board
    sigma_b2 = np.clip((msb - msw) / m0, 0.0, None)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(msw > 0, f_dist.sf(msb / msw, g - 1, n - g), np.where(msb > 0, 0.0, 1.0))
    return t_quantile(level, g - 1) * np.sqrt(sigma_b2 / g), p


def fairness_verdict(outcomes, *, tolerance: float = 0.05, alpha: float = 0.05,
                     max_looks: int = 1, names=None, clusters=None) -> FairnessVerdict:
    """Verdict from ``outcomes[block, rotation, team]`` (game values of duplicate blocks);
    ``clusters`` labels each block's board (cluster-robust intervals, module doc)."""
    y = np.asarray(outcomes, dtype=float)
    n_teams = y.shape[2]
    level = 1.0 - alpha / (n_teams * max(1, max_looks))
    est = duplicate_win_rates(y, confidence=level, clusters=clusters)
    target = 1.0 / n_teams
    # Korn & Graubard's interval (variance.duplicate_win_rates): it keeps a width where every
    # block came out the same (se 0: "0.0 % (0.0-0.0 %)" was unfair after 8 games) and covers
    # near 0 % and 100 %, where rate +- t * se was short
    lo, hi = np.clip(est.lower, 0, 1), np.clip(est.upper, 0, 1)
    inside = (lo >= target - tolerance) & (hi <= target + tolerance)
    above, below = lo > target + tolerance, hi < target - tolerance
    names = list(names) if names is not None else [f"Team {k + 1}" for k in range(n_teams)]
    design = design_text(est.n_games, est.n_seeds, None if clusters is None else est.n_clusters)
    floor, p_boards = ((None, None) if clusters is None
                       else board_floor(y.mean(axis=1), clusters, level))
    band = f"{100 * target:.0f} % ± {100 * tolerance:.0f} points"
    needs_boards = False
    called = np.where(above, 1, np.where(below, -1, 0))
    call_lo, call_hi = called_intervals(est.rate, est.se, called,
                                        np.where(above, target + tolerance, target - tolerance),
                                        est.n_games, est.df, level, n_teams * max(1, max_looks),
                                        1 - alpha)
    if inside.all():
        status = FAIR
        text = (f"Fair: every team's chance to win is within {band} "
                f"(confidence {100 * (1 - alpha):.0f} %, {design}).")
    elif above.any() or below.any():
        status = UNFAIR
        parts = []
        for k in np.flatnonzero(above | below):
            word = "favoured" if above[k] else "disadvantaged"
            near = (", reaching into the fair band: a call near its edge"
                    if reaches_band(called[k], call_lo[k], call_hi[k], target, tolerance) else "")
            parts.append(f"{names[k]} is {word}: {100 * est.rate[k]:.1f} % "
                         f"({100 * call_lo[k]:.1f}–{100 * call_hi[k]:.1f} % given the call{near}), "
                         f"{100 * (est.rate[k] - target):+.1f} points from a fair "
                         f"{100 * target:.0f} %")
        text = "Unfair: " + "; ".join(parts) + f" ({design})."
    else:
        status = OPEN
        stuck = None if floor is None else (p_boards < BOARD_EVIDENCE) & (floor > 0)
        text, needs_boards = _open_text(est.rate, target, tolerance, ~(inside | above | below),
                                        floor, stuck, names, band, design)
    return FairnessVerdict(status, est.rate, lo, hi, est.variance_ratio, est.n_games, level, text,
                           est.n_clusters if clusters is not None else 0, design, floor,
                           needs_boards, called, call_lo, call_hi)


def advice_alpha(alpha: float, proposals: int, n_teams: int = 4) -> float:
    """The ``alpha`` of each fairness check when up to ``proposals`` are judged in turn and the
    first called fair is advice (``fairness --suggest``, ``draft``; :mod:`sim.runner.confirm`).

    Why: a check calls "fair" only when every team's simultaneous interval (level 1 - alpha /
    (teams x looks), :func:`fairness_verdict`) lies inside the band, so a team truly outside it
    is called inside with probability at most alpha / (2 teams), its one wrong side over all
    looks. Over K proposals the advice is a false "fair" with probability at most K alpha /
    (2 teams): within alpha up to 2 x 4 = 8 proposals (the default). Beyond, each check gets
    alpha x 8 / K (Bonferroni), so ``--proposals 50`` keeps the advice's false "fair" under
    alpha; before stop 78 it could reach about 12 % (the statistics audit of stop 78)."""
    return alpha * min(1.0, 2 * n_teams / max(1, proposals))


def _open_text(rate, target, tolerance, undecided, floor, differ, names, band, design):
    """Why the verdict is open and what settles it: more games, or — when the boards differ
    (``differ``, per team) and even unlimited games on them leave an undecided team's interval
    wider than its distance to the band's edge — more boards. A band that already reaches 0 %
    (tolerance = the fair share, ``--tolerance 0.25``) cannot be widened below: not advised."""
    worst = int(np.argmax(np.abs(rate - target)))
    widen = " or widen the tolerance" if tolerance < target else ""
    head = (f"Not settled after {design}: no team is surely outside {band}, but not all are "
            f"surely inside (widest gap: {names[worst]} at {100 * rate[worst]:.1f} %).")
    if floor is not None:
        needed = np.abs(np.abs(rate - target) - tolerance)  # half-width that would settle a team
        stuck = np.flatnonzero(undecided & differ & (floor >= needed))
        if stuck.size:
            k = int(stuck[np.argmax(floor[stuck])])
            return (head + f" The boards differ too much to settle it with more games: on these "
                    f"boards {names[k]}'s interval stays at least ±{100 * floor[k]:.1f} points "
                    f"wide. Play on more boards (--boards){widen}."), True
    return head + f" Play more games{widen}.", False


def reaches_band(side: int, low: float, high: float, target: float, tolerance: float) -> bool:
    """Whether a called team's interval given the call (``low``, ``high``; ``side`` +1
    favoured, -1 disadvantaged) reaches back into the fair band.

    Why said: the call is made at the verdict's family-wise level, but given a call whose
    estimate lies just past its bar the truth may still lie in the band (the interval given the
    call holds it at 95 % among such calls, sim/analysis/fairness_call.py), and that interval
    can even lie wholly beyond the estimate ("15.6 % (17.2–22.4 % given the call)" at 512
    games): read alone it looks like a contradiction. Said, it tells the GM the call is near
    the band's edge, where more games would say more."""
    if side > 0:
        return bool(low < target + tolerance)
    return bool(side < 0 and high > target - tolerance)


def percent(x: float, edges=()) -> str:
    """``x`` (a share) in percent with one decimal, or two where one would print a band edge it
    does not equal: an interval ending at 19.98 % printed "11.9 – 20.0" beside a verdict calling
    the team outside 20-30 % (the GM audit of stop 77), and one starting at 19.96 % would read
    as inside the band while the verdict had not called it fair."""
    shown = f"{100 * x:.1f}"
    if any(abs(float(shown) - 100 * e) < 1e-9 and abs(100 * x - 100 * e) > 1e-9 for e in edges):
        return f"{100 * x:.2f}"
    return shown


def shown_interval(v, k: int, band: tuple[float, float] | None = None) -> str:
    """Team ``k``'s printed interval, "30.4–33.5 given the call" for a team called favoured or
    disadvantaged (the simultaneous interval made the call, and given it covered 57-63 % of
    calls 0.25 points past the edge), else its simultaneous one, "30.2–33.6"; a verdict without
    the call's interval (a stand-in) shows the simultaneous one. ``band`` (target, tolerance):
    a called interval that reaches into the fair band says so (:func:`reaches_band`)."""
    called = getattr(v, "called", None)
    edges = () if band is None else (band[0] - band[1], band[0] + band[1])
    if called is not None and called[k] != 0:
        near = (", reaching into the fair band" if band is not None and reaches_band(
            called[k], v.call_lower[k], v.call_upper[k], *band) else "")
        return (f"{percent(v.call_lower[k], edges)}–{percent(v.call_upper[k], edges)} given the "
                f"call{near}")
    return f"{percent(v.lower[k], edges)}–{percent(v.upper[k], edges)}"


def conclusion(v: FairnessVerdict, tolerance: float, alpha: float = 0.05, names=None,
               games_option: str = "--games", elsewhere: str = "") -> str:
    """The verdict as one plain sentence, the answer a GM reads last: "Fair: no team's chance is
    outside 20–30 % (95 % simultaneous intervals, 2,048 games on 256 boards)." Why a second
    wording beside ``text``: ``text`` explains, this one is what a script or a busy GM quotes.
    ``games_option`` and ``elsewhere`` name the options in the caller's words (the report has
    --fairness-games, and boards and tolerance are `bwlab fairness`'s there)."""
    n = len(v.rate)
    names = list(names) if names is not None else [f"Team {k + 1}" for k in range(n)]
    target = 1.0 / n
    band = f"{100 * (target - tolerance):.0f}–{100 * (target + tolerance):.0f} %"
    how = f"{100 * (1 - alpha):.0f} % simultaneous intervals, {v.design}"
    if v.status == FAIR:
        return f"Fair: no team's chance is outside {band} ({how})."
    outside = (v.lower > target + tolerance) | (v.upper < target - tolerance)
    if v.status == UNFAIR:
        who = [f"{names[k]} {'wins' if v.rate[k] > target else 'only wins'} "
               f"{100 * v.rate[k]:.1f} % ({shown_interval(v, k, (target, tolerance))})"
               for k in np.flatnonzero(outside)]
        return f"Unfair: {'; '.join(who)}, outside {band} (called by {how})."
    worst = int(np.argmax(np.abs(v.rate - target)))
    more = (f"more boards ({elsewhere}--boards)" if v.needs_boards
            else f"more games ({games_option})")
    widen = ("" if tolerance >= target else " or widen the tolerance" if not elsewhere
             else f" or widen the tolerance ({elsewhere}--tolerance)")
    return (f"Inconclusive: no team is surely outside {band}, but not every team is surely "
            f"inside (widest: {names[worst]} at {100 * v.rate[worst]:.1f} %, "
            f"{shown_interval(v, worst, (target, tolerance))}); play {more}{widen} ({how}).")


EXIT_CODES = {FAIR: 0, UNFAIR: 1, OPEN: 3}   # for scripts; 2 stays bad input (every command)
STATUS_WORDS = {FAIR: "fair", UNFAIR: "unfair", OPEN: "inconclusive"}  # as a GM reads them


def status_word(status: str) -> str:
    """A status as a GM reads it ("open" is "inconclusive"); any other word as it is."""
    return STATUS_WORDS.get(status, status)


def players_verdict(statuses: dict[str, str]) -> tuple[bool | None, int, str]:
    """The same check under several players (``{player: status}``): whether they agree, the
    exit code for scripts and the answer in one sentence.

    ``True``: every player reached the same conclusive verdict (its exit code). ``False``: one player's
    check said fair and another's unfair: each verdict is wrong at most at its own rate, so
    together they say the verdict depends on how well the teams are played (exit 3). ``None``:
    no two conclusive verdicts contradict, but some player's check (or every one) has not
    settled (exit 3).
    Why three ways: "unfair" under one player and "inconclusive" under another is not a
    disagreement: with both players' teams equally (un)fair, about one such pair in three came
    out that way (300 planted checks of a team at 33 % against a 20–30 % band), and each was
    reported as "depends on the players"."""
    said = "; ".join(f"{label}: {STATUS_WORDS[s]}" for label, s in statuses.items())
    found = set(statuses.values())
    if found == {OPEN}:
        # no player settled: that is no verdict to agree on (the GM audit of stop 81: "Every
        # player reaches the same verdict" was said of two inconclusive checks)
        return None, EXIT_CODES[OPEN], (f"No player's check has settled ({said}): play more "
                                        f"games to tell whether the verdict holds for every "
                                        f"player.")
    if len(found) == 1:
        return True, EXIT_CODES[next(iter(found))], \
            f"Every player reaches the same verdict ({said})."
    if {FAIR, UNFAIR} <= found:
        return False, EXIT_CODES[OPEN], (f"The verdict depends on the players ({said}): act on "
                                         f"the stronger player's.")
    (settled,) = found - {OPEN}
    return None, EXIT_CODES[OPEN], (f"No player contradicts another ({said}): those that "
                                    f"settled say {STATUS_WORDS[settled]}; play more games for "
                                    f"the others.")
