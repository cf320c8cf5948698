"""The designer's rarity study: how strong is each card in play, and does rarity order strength?

Plays an experiment whose teams are drawn from a card pool (duplicate seating), then measures
each card two ways: the win rate of teams holding it (biased by who it was drafted with), and a
rating fitted to the games' results with the team-composition Plackett–Luce model (team
strength = sum of its cards' ratings; winner-only partial rankings), with intervals from the
penalised Hessian, or with boards (below) the boards' jackknife. Per rarity: the spread of
ratings and whether the medians rise Bronze < ... < GOAT Series: a three-way verdict at
family-wise 5 % (:func:`order_test`: "holds", "does not hold" or "not settled"; the point
estimates' order, ``ordered``, is kept for scripts but never printed as a verdict). Each
rarity's band reaches halfway to the neighbouring rarities' medians and always holds its own
median (when medians come out of order a band could otherwise exclude it). Outliers are the cards whose rating is shown to lie outside their band by
a one-sided test against the nearer edge, corrected for testing every card in play at once
(Holm by default, :mod:`sim.analysis.multiple`): uncorrected, 72 cards at 5 % flag about 3.6 by
chance alone, and runs with different seeds flagged different cards (issue #21). A card is
*in band* only when it is shown to lie inside (both one-sided tests against the edges, two
one-sided tests corrected the same way); a card neither shown out nor shown in is *undecided*,
with the games that would settle it: its true rating sits so near an edge that independent runs
flag it in some and not in others, and the study says so instead of guessing. Medians and
bands count only the cards in play, so a pool that leaves cards out measures the ones it played.
"Plays like" names the rarity whose median is nearest among those on the side the card strays
to (a weak card never "plays like" a higher rarity). :mod:`.remedy` proposes a stat change for
each outlier.

Shared boards. The experiment plays block ``b`` on board ``b % boards`` (:mod:`.schedule`), so
the games of one board are correlated (a board suits some cards from every seat). Given each
game's board (:func:`pool_boards`), the rating intervals are cluster-robust by board
(:mod:`sim.analysis.composition`, t on #boards - 1 degrees of freedom) and the held win rates'
intervals are Korn & Graubard's on each card's effective number of games
(:func:`held_win_intervals`; Wilson without boards); the study states its design ("8,000 games
on 64 boards"). The ratings' covariance is the boards' jackknife (since stop 54): on real games
resampled from a pool of 1,024 boards the board-clustered sandwich's 95 % intervals held the
pool's ratings in 92.1 / 93.7 / 94.6 % on 8 / 16 / 64 boards, the jackknife's in 96.4 / 96.1 /
95.3 % (docs/intervals.md, "the rarity ratings on real games").
It costs 0.03 s more a 4,096-game fit; ``jackknife=False`` keeps the sandwich for comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.analysis.cluster import MIN_CLUSTERS, clustered_share_interval
from sim.analysis.intervals import wilson_interval
from sim.analysis.rarity_bands import band_edges, edge_distance_se
from sim.analysis.ratings import composition_strengths
from sim.analysis.rarity_order import (  # noqa: F401 (the verdict's words, for callers)
    DOES_NOT_HOLD, HOLDS, NOT_SETTLED, ORDER_ALPHA, OrderTest, order_test)

from . import progress
from .rarity_flags import band_tests, flag_intervals, inside_tests  # noqa: F401 (callers' names)
from .experiment import Experiment
from .progress_text import counted
from .schedule import schedule
from .tasks import build_arena, play_games


@dataclass(frozen=True)
class RarityStudy:
    games: int
    held: np.ndarray          # games in which each card played
    wins: np.ndarray          # games its team won
    win_low: np.ndarray
    win_high: np.ndarray
    rating: np.ndarray        # composition Plackett-Luce rating (centred log-strength)
    rating_low: np.ndarray
    rating_high: np.ndarray
    rarity_median: np.ndarray  # median rating per rarity
    band_low: np.ndarray       # each card's rarity band
    band_high: np.ndarray
    ordered: bool
    outlier: np.ndarray        # -1 below its band, +1 above, 0 inside
    implied_rarity: np.ndarray  # "plays like": the nearest median on the side it strays to
    boards: int = 0            # distinct boards behind the intervals (0: games independent)
    rating_se: np.ndarray | None = None  # standard error of each rating (clustered by board)
    p_value: np.ndarray | None = None    # one-sided test against the nearer band edge
    p_adjusted: np.ndarray | None = None  # corrected for every card in play (``correction``)
    correction: str = "holm"
    inside: np.ndarray | None = None     # shown inside its band (two one-sided tests, corrected)
    order: OrderTest | None = None       # the rarity order's three-way verdict (order_test)
    # standard error of (rating - band_low) and of (rating - band_high): the edges' error too
    edge_se_low: np.ndarray | None = None
    edge_se_high: np.ndarray | None = None
    # a flagged card's rating interval given its flag (nan for the others; .rarity_flags)
    flag_low: np.ndarray | None = None
    flag_high: np.ndarray | None = None
    # a flagged card's held win rate's interval given its flag: simultaneous over the cards in
    # play (:func:`held_win_given_flag`; nan for the others)
    win_flag_low: np.ndarray | None = None
    win_flag_high: np.ndarray | None = None

    def distance_se(self, c: int) -> float | None:
        """The larger standard error of card ``c``'s distance to its two band edges (the
        edges' estimation error and its own rating's; :func:`edge_distance_se`); the rating's
        own standard error for a study without them; None without standard errors."""
        if self.edge_se_low is None or self.edge_se_high is None:
            return None if self.rating_se is None else float(self.rating_se[c])
        return float(max(self.edge_se_low[c], self.edge_se_high[c]))

    @property
    def order_verdict(self) -> str:
        """"holds", "does not hold" or "not settled" (:func:`order_test`); "not settled" for a
        study built without the test (no standard errors: nothing can be claimed)."""
        return self.order.verdict if self.order is not None else NOT_SETTLED

    @property
    def undecided(self) -> np.ndarray:
        """Cards in play neither shown outside nor shown inside their band."""
        if self.inside is None:
            return np.zeros(self.outlier.shape, bool)
        return (self.held > 0) & (self.outlier == 0) & ~self.inside

    @property
    def verdict(self) -> np.ndarray:
        """Per card: "weak", "strong", "in band", "undecided" (or "not played")."""
        return np.select([self.held <= 0, self.outlier < 0, self.outlier > 0, self.undecided],
                         ["not played", "weak", "strong", "undecided"], "in band")

    def games_to_settle(self, alpha: float = 0.05) -> np.ndarray:
        """Per undecided card, about how many games of this design would settle it (the rating's
        standard error shrinks as 1/sqrt(games); the bar is the Bonferroni z over the cards in
        play, which Holm's never exceeds); inf for a card on its edge; 0 for a settled card."""
        from scipy.stats import norm

        z_bar = norm.isf(alpha / max(int((self.held > 0).sum()), 1))
        se_low = self.rating_se if self.edge_se_low is None else self.edge_se_low
        se_high = self.rating_se if self.edge_se_high is None else self.edge_se_high
        with np.errstate(invalid="ignore", divide="ignore"):
            z = np.minimum(np.abs(self.rating - self.band_low) / se_low,
                           np.abs(self.rating - self.band_high) / se_high)
            need = np.where(z > 0.05, np.ceil(self.games * (z_bar / z) ** 2), np.inf)
        return np.where(self.undecided, need, 0.0)

    @property
    def design(self) -> str:
        """The design in words: "8,000 games on 64 boards"."""
        where = f" on {counted(self.boards, 'board')}" if self.boards else " (boards not given)"
        return f"{counted(self.games, 'game')}{where}"


def play_pool(catalogue, exp: Experiment, round_games: int = 512, records: bool = False,
              games: dict | None = None, label: str = "pool games"):
    """Cards in each (game, seat) ``[n, 4, 5]`` and the winning seat of each game ``[n]``; with
    ``records`` also each card's play record ``[n, 4, 5, 4]`` (dealt, taken, kills, alive).
    ``games``, a dict, receives the per-game columns the balance metrics need (outcome,
    rotations, board, and per seat the decision after which it fell: ``eliminated [n, 4]``).
    ``label`` names the stage on the progress line."""
    with progress.stage(label, exp.games):
        return _play_pool(catalogue, exp, round_games, records, games)


def _play_pool(catalogue, exp, round_games, records, games):
    from sim.ai.play import CARD_COLUMNS

    arena = build_arena(catalogue, exp)
    cards, winners, recs = [], [], []
    kept: dict[str, list] = {k: [] for k in ("outcome", "rotations", "board", "eliminated",
                                             "lead_changes")}
    for start in range(0, exp.games, round_games):
        cols = play_games(arena, start, min(exp.games, start + round_games))
        cards.append(np.stack([np.stack([cols[f"seat{s + 1}_card{k + 1}"] for k in range(5)], 1)
                               for s in range(4)], 1))
        recs.append(np.stack([np.stack([np.stack([cols[f"seat{s + 1}_card{k + 1}_{r}"]
                                                  for r in CARD_COLUMNS], 1) for k in range(5)], 1)
                              for s in range(4)], 1))
        winners.append(cols["winner_seat"])
        for k in ("outcome", "rotations", "board", "lead_changes"):
            kept[k].append(cols[k])
        kept["eliminated"].append(np.stack([cols[f"seat{s+1}_eliminated"] for s in range(4)], 1))
    if games is not None:
        games.update({k: np.concatenate(v) for k, v in kept.items()})
    out = (np.concatenate(cards), np.concatenate(winners))
    return out + (np.concatenate(recs),) if records else out


def study_at_seed(catalogue, exp: Experiment, seed: int, *, correction: str = "holm",
                  label: str = "pool games") -> "RarityStudy":
    """The study of ``exp`` played from root seed ``seed`` instead of its own: an independent
    replicate (its boards, teams and dice all follow the seed)."""
    return pool_at_seed(catalogue, exp, seed, correction=correction, label=label)[3]


def pool_at_seed(catalogue, exp: Experiment, seed: int, *, correction: str = "holm",
                 label: str = "pool games"):
    """:func:`study_at_seed` with its games: ``(run, seat_cards, winner, study)``, ``run`` the
    experiment at that seed (its schedule gives the games' boards)."""
    from dataclasses import replace

    run = replace(exp, root_seed=seed)
    seat_cards, winner = play_pool(catalogue, run, label=label)
    return run, seat_cards, winner, study(
        seat_cards, winner, np.asarray(catalogue.cards.rarity, np.int64),
        len(catalogue.rules.rarities), boards=pool_boards(run, len(winner)),
        correction=correction)


def pool_balance(per_game: dict, winner):
    """The balance metrics of a pool study's games (``play_pool(..., games=per_game)``). Teams
    are drawn afresh every game, so the seats are the only fixed sides: shares by seat
    (AdvantageP1 = seat 1), elimination by seat."""
    from sim.analysis.balance import game_balance

    return game_balance(winner, per_game["outcome"], per_game["rotations"],
                        clusters=per_game["board"], winner_seat=winner,
                        eliminated=per_game["eliminated"],
                        lead_changes=per_game.get("lead_changes"))


def pool_boards(exp: Experiment, n_games: int | None = None) -> np.ndarray:
    """Board of each of the experiment's first ``n_games`` games (all by default): the
    clusters of the study's intervals. Read from the schedule, so it is the board played."""
    return schedule(exp, 0, exp.games if n_games is None else n_games).board


def card_records(seat_cards: np.ndarray, records: np.ndarray, n_cards: int) -> np.ndarray:
    """Per card and game played: mean health dealt, health taken, kills, and survival rate."""
    from sim.ai.play import CARD_COLUMNS

    flat = seat_cards.ravel()
    held = np.bincount(flat, minlength=n_cards).astype(float)
    out = np.zeros((n_cards, len(CARD_COLUMNS)))
    for j in range(len(CARD_COLUMNS)):
        value = records[..., j].ravel().astype(float)
        if CARD_COLUMNS[j] == "alive":
            value = (value > 0).astype(float)  # a card survives if any of its characters does
        out[:, j] = np.bincount(flat, weights=value, minlength=n_cards) / np.maximum(held, 1)
    return out


def team_card_rows(seat_cards, n_cards: int):
    """(team x card) counts of every game's four teams and the games' team indices ``[n, 4]``:
    the teams and items of the composition fit (:func:`study`, the rulings' paired change)."""
    flat = seat_cards.reshape(-1, 5)
    rows = np.zeros((flat.shape[0], n_cards))
    np.add.at(rows, (np.repeat(np.arange(flat.shape[0]), 5), flat.ravel()), 1.0)
    return rows, np.arange(flat.shape[0]).reshape(-1, 4)


def winner_places(winner_seat) -> np.ndarray:
    """Each game's places ``[n, 4]``: the winner first, the rest tied second; a game with no
    winner ranks nobody (all tied)."""
    won = winner_seat[:, None] == np.arange(4)[None, :]
    places = np.where(won, 1.0, 2.0)
    places[winner_seat < 0] = 1.0
    return places


def study(seat_cards: np.ndarray, winner_seat: np.ndarray, rarity: np.ndarray, n_rarities: int,
          *, l2: float = 1.0, confidence: float = 0.95, boards=None,
          correction: str = "holm", jackknife: bool = True) -> RarityStudy:
    """The study of played games (module doc); ``boards`` (each game's board, from
    :func:`pool_boards`) makes every interval cluster-robust by board (the ratings' by the
    boards' jackknife, or with ``jackknife=False`` the sandwich); ``correction`` ("holm", "bh",
    "bonferroni", "by" or "none") is the multiple-comparison correction of the flags."""
    n_games = seat_cards.shape[0]
    n_cards = rarity.shape[0]
    won = winner_seat[:, None] == np.arange(4)[None, :]                       # [n, 4]
    team_rows, items = team_card_rows(seat_cards, n_cards)
    held = team_rows.sum(axis=0)
    wins = (team_rows * won.reshape(-1)[:, None]).sum(axis=0)
    n_boards = 0 if boards is None else int(np.unique(boards).size)
    clustered = n_boards >= MIN_CLUSTERS
    low, high = held_win_intervals(seat_cards, won, boards if clustered else None, n_cards,
                                   confidence)
    # seconds long on thousands of boards (the jackknife's leave-one-board-out fits): a stage
    # of its own, counted in boards, so the line names it and says what is left (issue #23)
    jack = jackknife and clustered
    with progress.stage("fitting the card ratings" + (" (the boards' jackknife)" if jack else ""),
                        n_boards if jack else None, unit="boards"):
        fit = composition_strengths(team_rows, items, winner_places(winner_seat), l2=l2,
                                    clusters=np.asarray(boards) if clustered else None,
                                    jackknife=jack, tick=progress.advance)
    r_low, r_high = fit.interval(confidence)
    # medians over the cards that played: a pool experiment leaves the other cards at the prior
    # (rating 0), which would otherwise drag every median towards 0
    played = held > 0
    med = np.array([np.median(fit.beta[played & (rarity == r)]) if np.any(played & (rarity == r))
                    else np.nan for r in range(n_rarities)])
    low_edge, high_edge = band_edges(med)
    band_low, band_high = low_edge[rarity], high_edge[rarity]
    # the edges are estimates too: each card is judged on its distance's error, not its own
    edge_se = edge_distance_se(fit.beta, fit.se, rarity, played, n_rarities)
    p, p_adj, outlier = band_tests(fit.beta, fit.se, band_low, band_high, played, fit.df,
                                   1.0 - confidence, correction, edge_se)
    inside = inside_tests(fit.beta, fit.se, band_low, band_high, played, fit.df,
                          1.0 - confidence, correction, edge_se)
    given = flag_intervals(fit.beta, fit.se, p, outlier, (band_low, band_high), played, fit.df,
                           confidence, correction, edge_se)
    win_given = held_win_given_flag(seat_cards, won, boards if clustered else None, outlier,
                                    played, confidence)
    implied = plays_like(fit.beta, med, rarity, outlier)
    # the point estimates' order (no uncertainty): kept for scripts, never printed as a verdict
    ordered = bool(np.all(np.diff(med[~np.isnan(med)]) > 0))
    order = order_test(fit.beta, fit.se, rarity, played, n_rarities, df=fit.df)
    return RarityStudy(n_games, held, wins, low, high, fit.beta, r_low, r_high, med, band_low,
                       band_high, ordered, outlier, implied, n_boards if clustered else 0,
                       fit.se, p, p_adj, correction, inside, order, *edge_se, *given,
                       *win_given)


def plays_like(rating, median, rarity, outlier) -> np.ndarray:
    """The rarity whose median is nearest; for an outlier, only among the rarities on the side
    it strays to (a weak card plays like a lower rarity, never a higher one), itself when none
    is (a weak card of the lowest rarity in play plays like it, only weaker).

    "Lower" and "higher" are the book's order of the rarities, and the medians are first put in
    that order (isotonic regression: two rarities whose medians came out reversed share their
    mean). Why: on few games the medians of neighbouring rarities can come out reversed, and
    with the raw medians a stronger card could "play like" a lower rarity than a weaker one, and
    a weak Bronze card like Silver (the audit of stop 55). Ties go to the rarity nearest the
    card's own."""
    from scipy.optimize import isotonic_regression

    rating, median = np.asarray(rating, float), np.asarray(median, float)
    rarity, outlier = np.asarray(rarity, np.int64), np.asarray(outlier)
    fitted = np.full(median.shape, np.nan)
    have = ~np.isnan(median)
    if have.any():
        fitted[have] = isotonic_regression(median[have]).x
    dist = np.abs(rating[:, None] - fitted[None, :])
    dist[:, ~have] = np.inf
    rank = np.arange(median.size)
    wrong = (((outlier[:, None] < 0) & (rank[None, :] > rarity[:, None]))
             | ((outlier[:, None] > 0) & (rank[None, :] < rarity[:, None])))
    dist[wrong] = np.inf
    # nearest median first, then the rarity nearest the card's own (a pooled median's tie)
    steps = np.abs(rank[None, :] - rarity[:, None])
    out = np.array([np.lexsort((steps[i], dist[i]))[0] for i in range(rating.size)], np.int64)
    return np.where(np.isfinite(dist.min(axis=1)), out, rarity)


def held_win_given_flag(seat_cards, won, boards, outlier, played, confidence: float):
    """(low, high) per card: a flagged card's held win rate's interval given its flag (nan for a
    card not flagged). The flag selects on the rating, which shares the win rate's luck, so the
    card's own interval held the truth less often among flagged cards: 93.5 % of 521 flags
    over all, 63 of 125 (50 %) for cards 1.5 standard errors past their band
    (docs/selection-audit-2.md, finding 3; this interval 98.4 % there). This is the card's
    :func:`held_win_intervals` at the simultaneous level over the ``m`` cards in play,
    1 - (1 - confidence) / m (Bonferroni): all m intervals hold at once with at least
    ``confidence``, so the flagged ones do whichever cards a flag chose."""
    outlier = np.asarray(outlier)
    low, high = np.full(outlier.shape, np.nan), np.full(outlier.shape, np.nan)
    cards = np.flatnonzero(outlier != 0)
    if cards.size:
        m = max(int(np.count_nonzero(played)), 1)
        lo, hi = held_win_intervals(seat_cards, won, boards, outlier.size,
                                    1.0 - (1.0 - confidence) / m, cards=cards)
        low[cards], high[cards] = lo[cards], hi[cards]
    return low, high


def held_win_intervals(seat_cards, won, boards, n_cards: int, confidence: float, cards=None):
    """Interval of each card's win rate when held: Wilson; with ``boards``, Korn & Graubard's
    clustered by board (``cluster.clustered_share_interval``), since its games on one board are
    correlated. ``cards``: only these (the others left at a card out of play's interval)."""
    held_by = seat_cards.reshape(-1, 5)
    game = np.repeat(np.arange(seat_cards.shape[0]), 4)
    wins_row = won.reshape(-1).astype(float)
    # a card out of play: 0 of 1
    low, high = wilson_interval(np.zeros(n_cards), np.ones(n_cards), confidence)
    for c in (range(n_cards) if cards is None else cards):
        rows = np.flatnonzero(np.any(held_by == c, axis=1))
        if rows.size and boards is None:
            low[c], high[c] = wilson_interval(wins_row[rows].sum(), rows.size, confidence)
        elif rows.size:
            low[c], high[c] = clustered_share_interval(wins_row[rows],
                                                       np.asarray(boards)[game[rows]], confidence)
    return low, high


def reference_cards(power: np.ndarray, rarity: np.ndarray) -> np.ndarray:
    """Each card's reference: the card of its rarity with the median power score (for the
    median card itself, the next one up or down), the "average card of its rarity"."""
    ref = np.empty(rarity.size, np.int64)
    for r in np.unique(rarity):
        members = np.flatnonzero(rarity == r)
        ordered = members[np.argsort(power[members], kind="stable")]
        mid = ordered[len(ordered) // 2]
        ref[members] = mid
        if len(ordered) > 1:
            ref[mid] = ordered[len(ordered) // 2 - 1]
    return ref
