"""Arena's balancing tools on Board Wars, orchestrated: Power Levels from simulation, and how well
a team budget predicts fairness compared with full simulation.

Levels: the rarity study's pool experiment is played (``cards/arena_budget.toml`` names it and
its games), card ratings are fitted by team-composition Plackett-Luce (:mod:`.rarity`), and the
ratings are cut into levels 1-4 (:mod:`sim.analysis.power_level`). Every command that uses levels
(``power-levels``, ``fairness --team-budget``, ``draft``) goes through :func:`power_levels`, so a
card has the same level everywhere for the same file, player and games.

Validation: K game sets of four teams — some drafted under the budget the way Arena's players
build teams, the rest drawn at random — are played in duplicate, a few sets to an engine call
(:data:`SETS_PER_CALL`; not K sequential fairness checks); the budget's predictions are
then scored against the simulated win rates. The games use the file's own seed, never the
ratings' experiment's, so the levels are not scored on the games they were fitted to.

Every set is played on boards of its own (set ``g``'s block ``j`` on board ``g * b + j % b``,
``b = min(SET_BOARDS, blocks per set)``, each board from ``SeedSequence([seed, 2, board])`` as
every runner's: :func:`set_boards`) and on dice of its own (game ``i``'s, as every runner's), so
given the levels the sets are independent draws and the intervals over sets (shares of sets,
their difference, means and correlations over sets) count every luck the sets share: none.
Each set's own dice stay inside what it measures, so "fair" is each set's own verdict (fair,
unfair, or not settled by its games) and the share of fair sets is bounded from those verdicts
(:mod:`sim.analysis.budget_fairness`), and the agreement statistics are of the levels with the
simulated rates of that many games, printed beside the same statistics between two halves of
each set's games (what the dice alone allow).
They once all replayed the same 64 boards, which those intervals did not count. The price: a
board takes ~15 ms to build, 3,072 of them (~50 s) for the default 48 sets. The levels are taken
as given: the answer is about this level table (fitted on other games), not about levels a refit
might give.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from sim.analysis import budget_fairness as bf, power_level as pl
from sim.analysis.fairness import fairness_verdict, game_values
from sim.catalogue.teams import CARDS_PER_TEAM, TEAMS, Teams, random_teams

from .levels_input import levels_experiment
from .progress import stage

VALIDATE_STREAM = 9  # SeedSequence([seed, 9]): the validation's team draws
SETS_PER_CALL = 4    # game sets per engine call, their boards built for it (memory)
SET_BOARDS = 64  # boards of each set, its own (block j of a set on its board j % 64, as fairness)
RATING_CONFIDENCE = 0.95  # each card's rating interval (board-clustered, as bwlab rarity's)


@dataclass(frozen=True)
class LevelTable:
    rating: np.ndarray
    rating_low: np.ndarray
    rating_high: np.ndarray
    held: np.ndarray        # games each card played in the fit
    level: np.ndarray       # Power Level 1..4
    level_low: np.ndarray   # the levels of the rating interval's ends: the level's uncertainty
    level_high: np.ndarray
    cuts: np.ndarray        # rating cut points 1|2, 2|3, 3|4
    games: int
    policy: str
    experiment: str
    balance: object = None  # how the fit's games went (sim.analysis.balance.GameBalance)
    confidence: float = RATING_CONFIDENCE  # of rating_low..rating_high (said on the page: the
    # table printed intervals with no level; the peers audit of stop 78)


def power_levels(catalogue, spec, policy: str = "greedy", games: int | None = None,
                 exp=None) -> LevelTable:
    """Each card's Power Level from ``games`` (default: the file's) of the pool experiment
    (``exp``: as :func:`levels_experiment` loaded it)."""
    from .rarity import play_pool, pool_balance, pool_boards, study

    exp = levels_experiment(catalogue, spec, policy, games) if exp is None else exp
    games = exp.games
    per_game: dict = {}
    seat_cards, winner = play_pool(catalogue, exp, games=per_game, label="Power Levels: pool games")
    rarity = np.asarray(catalogue.cards.rarity, np.int64)
    st = study(seat_cards, winner, rarity, len(catalogue.rules.rarities),
               boards=pool_boards(exp, len(winner)), confidence=RATING_CONFIDENCE)
    in_play = st.held > 0
    cuts = (pl.quantile_cuts(st.rating[in_play], spec.shares) if spec.rule == "quantile"
            else np.asarray(spec.thresholds, float))
    lv = pl.levels_from_cuts
    return LevelTable(st.rating, st.rating_low, st.rating_high, st.held, lv(st.rating, cuts),
                      lv(st.rating_low, cuts), lv(st.rating_high, cuts), cuts, games,
                      exp.policies[0], str(spec.experiment), pool_balance(per_game, winner))


@dataclass(frozen=True)
class BudgetValidation:
    teams: np.ndarray          # int64[K, 4, 5]
    built: np.ndarray          # bool[K]: drafted under the budget (else drawn at random)
    totals: np.ndarray         # int[K, 4] team Power Level totals
    rating_sums: np.ndarray    # float[K, 4]
    rate: np.ndarray           # float[K, 4] simulated chance to win
    status: np.ndarray         # str[K]: the simulation's verdict of each set (fair/unfair/open)
    within: np.ndarray         # bool[K]: Arena's check passes (every team within the budget)
    fair: np.ndarray           # bool[K]: every simulated rate within 25 % +- tolerance (estimate)
    rho_levels: pl.MeanRho     # per-set rank correlation, level totals vs simulated rates
    rho_ratings: pl.MeanRho    # the same for the ratings' sums (what the levels quantise)
    fav_levels: pl.Share       # the budget's favourite is the simulation's favourite
    fav_ratings: pl.Share
    spread_gap: tuple          # Spearman over sets: spread of totals vs largest simulated gap
    fair_within: bf.FairShare  # truly fair sets among the within-budget ones (set verdicts)
    fair_over: bf.FairShare    # ... and among the over-budget ones
    fair_difference: tuple     # (estimates' difference, low, high): bf.fair_shares
    halves: bf.HalfAgreement   # the same statistics between two halves of each set's games
    budget: int
    set_games: int
    tolerance: float
    policy: str
    seconds: float
    confidence: float = 0.95
    boards_per_set: int = SET_BOARDS  # each set's own boards
    cards_in_play: int = 0            # cards with a level (held in the fit's games)
    levels_uncertain: int = 0         # ... whose rating interval spans more than one level


def draw_sets(n_cards: int, level: np.ndarray, spec, sets: int, budget: int) -> tuple:
    """K sets of four teams: the first round(K * budget_built) drafted under the budget by random
    players (:func:`power_level.budget_draw`), the rest uniformly random; one seeded stream.
    The draws are over the card indices, in name order (sim.catalogue.cards): the same seed
    draws the same cards whatever the rows' order."""
    rng = np.random.default_rng(np.random.SeedSequence([spec.seed, VALIDATE_STREAM]))
    n_built = int(np.floor(sets * spec.budget_built + 0.5))
    teams = np.empty((sets, TEAMS, CARDS_PER_TEAM), np.int64)
    for g in range(sets):
        teams[g] = (pl.budget_draw(n_cards, level, spec.order, budget, rng) if g < n_built
                    else random_teams(n_cards, rng))
    return teams, np.arange(sets) < n_built


def set_boards(games, set_games: int, boards: int = SET_BOARDS) -> np.ndarray:
    """Board of each game (global index) of the sets: set ``g`` (games ``g*G .. (g+1)*G - 1``)
    has boards ``g*b .. g*b + b - 1`` of its own, its duplicate block ``j`` on board
    ``g*b + j % b``, with ``b = min(boards, G / 4)``. No two sets share a board."""
    games = np.asarray(games, np.int64)
    per_set = min(boards, set_games // TEAMS)
    return games // set_games * per_set + (games % set_games) // TEAMS % per_set


def set_experiment(teams: np.ndarray, set_games: int, policy: str, seed: int,
                   boards: int = SET_BOARDS):
    """The sets' experiment: duplicate seating as :func:`sim.runner.fairness.check_fairness`
    would give each set, with ``sets * min(boards, G / 4)`` boards (:func:`set_boards`)."""
    from .fairness import fairness_experiment

    sets = teams.shape[0]
    first = Teams(tuple(f"Team {k + 1}" for k in range(TEAMS)), teams[0])
    per_set = min(boards, set_games // TEAMS)
    return fairness_experiment(first, policy, seed, sets * set_games, set_games, sets * per_set)


def play_sets(catalogue, teams: np.ndarray, set_games: int, policy: str, seed: int,
              boards: int = SET_BOARDS) -> np.ndarray:
    """Winning team of every game: set ``g`` is games ``g*G .. (g+1)*G - 1`` in duplicate blocks
    (one board and dice family per block, the teams rotated through the seats), exactly as
    :func:`sim.runner.fairness.check_fairness` would seat them, on boards of its own.

    A few sets at a time (:data:`SETS_PER_CALL`), each call with only its sets' boards built:
    the 3,072 boards of the default 48 sets held at once took 1.9 GB."""
    from dataclasses import replace

    from sim.engine.state.static_tables import stack_setups

    from .tasks import board_setups, build_arena

    exp = set_experiment(teams, set_games, policy, seed, boards)
    sets = teams.shape[0]
    per_set = exp.boards // sets
    arena = build_arena(catalogue, exp, n_boards=1)  # players and cards; boards per call below
    winners = []
    with stage("budget validation: game sets (each on boards of its own)", exp.games):
        for first in range(0, sets, SETS_PER_CALL):
            last = min(sets, first + SETS_PER_CALL)
            setups = board_setups(catalogue, exp, first * per_set, last * per_set)  # ~15 ms each
            local = replace(arena, stacked=stack_setups(setups), setups=tuple(setups))
            winners.append(_play_set_games(local, exp, teams, set_games, boards, first, last,
                                           first * per_set))
    return np.concatenate(winners)


def _play_set_games(arena, exp, teams: np.ndarray, set_games: int, boards: int,
                    first_set: int, last_set: int, first_board: int) -> np.ndarray:
    """Sets ``first_set .. last_set - 1`` in one engine call; ``arena`` holds their boards only,
    from global board ``first_board`` on (:func:`set_boards`)."""
    from sim.ai.play import R_WINNER

    from .playing import play_many
    from .schedule import schedule

    start, stop = first_set * set_games, last_set * set_games
    sch = schedule(exp, start, stop)
    of_set = sch.games // set_games
    seat_cards = teams[of_set[:, None], sch.team_of_seat]          # [n, 4 seats, 5]
    out = play_many(arena.stacked, arena.cards,
                    set_boards(sch.games, set_games, boards) - first_board, seat_cards,
                    exp.root_seed, arena.policies, seats=sch.offset, first_game=start,
                    budgets=arena.budgets, weights=arena.weights)
    seat = out[:, R_WINNER]
    rows = np.arange(seat.size)
    return np.where(seat >= 0, sch.team_of_seat[rows, np.maximum(seat, 0)], -1)


def validate_budget(catalogue, spec, table: LevelTable, *, sets: int, policy: str = "greedy",
                    budget: int | None = None, set_games: int | None = None,
                    confidence: float = 0.95) -> BudgetValidation:
    """Score the budget's predictions against simulation over ``sets`` seeded game sets: each
    set's verdict at ``confidence`` (simultaneous over its teams), the shares of truly fair sets
    bounded from those verdicts, and the agreement of the levels with the simulated rates."""
    t0 = time.perf_counter()
    budget = spec.budget if budget is None else budget
    set_games = spec.set_games if set_games is None else set_games
    teams, built = draw_sets(len(catalogue.cards), table.level, spec, sets, budget)
    winner = play_sets(catalogue, teams, set_games, policy, spec.seed)
    values = game_values(winner).reshape(sets, set_games // TEAMS, TEAMS, TEAMS)
    board = set_boards(np.arange(0, sets * set_games, TEAMS), set_games).reshape(sets, -1)
    verdicts = [fairness_verdict(values[g], tolerance=spec.tolerance, alpha=1 - confidence,
                                 clusters=board[g]) for g in range(sets)]
    rate = np.stack([v.rate for v in verdicts])
    status = np.array([v.status for v in verdicts])
    totals = table.level[teams].sum(axis=2)
    sums = table.rating[teams].sum(axis=2)
    within = np.all(totals <= budget, axis=1)
    gap = pl.largest_gap(rate)
    fair = gap <= spec.tolerance
    spread = totals.max(axis=1) - totals.min(axis=1)
    shares = bf.fair_shares(status, within, confidence, estimate=fair)
    in_play = table.held > 0
    return BudgetValidation(
        teams, built, totals, sums, rate, status, within, fair,
        pl.mean_rho(pl.per_game_spearman(totals, rate), confidence),
        pl.mean_rho(pl.per_game_spearman(sums, rate), confidence),
        pl.favourite_agreement(totals, rate, confidence),
        pl.favourite_agreement(sums, rate, confidence),
        pl.spearman_interval(spread, gap, confidence),
        shares.within, shares.over, shares.difference,
        bf.half_agreement(*bf.half_rates(values), set_games // 2, confidence),
        budget, set_games, spec.tolerance, policy, time.perf_counter() - t0, confidence,
        min(SET_BOARDS, set_games // TEAMS), int(in_play.sum()),
        int((in_play & (table.level_low != table.level_high)).sum()))


__all__ = ["BudgetValidation", "LevelTable", "power_levels", "set_boards", "set_experiment",
           "validate_budget"]
