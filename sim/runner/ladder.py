"""The AI ladder: players of different strength in a seat-rotated round robin of 4-team games.

Why: a balance verdict measured with one bot can be an artefact of that bot; the ladder shows the
lab's players really differ in strength, in a known order, so a verdict can be re-checked with a
stronger or weaker one. Format (a duplicate round robin of one-against-three matches):

- every pair of players meets once: the later-listed player (the higher rung) takes one seat
  against three teams of the earlier one. With only two players at the table nobody else takes
  the wins that tell them apart (tried: at mixed tables the weaker of two look-aheads finished
  like greedy whenever the stronger one sat there too), and an even match has a known par: the
  single seat wins 25 % and finishes ahead of each other team half the time;
- a *deal* is one board, four random teams of five cards in the four seats and one dice seed
  family (child ``d`` of ``SeedSequence(seed)``); each deal is played four times, the single
  seat rotated through all four seats while the cards stay with the seats, so the single
  player plays every seat and every team once — the luck of the cards and the seats cancels;
- a game's finishing order is its winner first, then the other teams by how long they stood
  (eliminated later is better; teams eliminated by the same event tie) and, among teams still
  standing at the end, by the health they kept; a draw ranks nobody.

Shared boards. Deal ``d`` is played on board ``d % boards``, so deals share boards as well as a
deal's games sharing dice, board and cards: the board is the unit of independence (it nests the
deals). Each match plays a run of consecutive deals (:func:`match_deals`), so its deals go round
every board (all of them once it has as many deals). Until stop 77 deal ``d`` was in match
``d % matches``: where that number and the boards shared a factor each match saw only some of
the boards (the default ladder's six matches on 32 boards: 16 each; 3 matches on 3 boards: 1),
its intervals and its rung test on fewer clusters than the design said (the AI-players audit).
The Elo intervals therefore come from the boards' jackknife covariance of the ratings
(:mod:`sim.analysis.composition`, t on #boards - 1 degrees of freedom; the board-clustered
sandwich until stop 52, short on few boards that suit players strongly), and the win-rate
intervals are Korn & Graubard's on the effective number of games (n / design effect, by board:
``cluster.clustered_share_interval``) with the design effect allowed down to
:data:`MATCH_MIN_DEFF`, not the lab's usual floor of 1. Why: the rotations can make a match's
games *less* correlated than independent ones (the single seat plays every seat and team of a
deal: design effect 0.59 between equals, 0.85 for lookahead:4 against greedy, on real games),
and where the design effect is above 1 its estimate is noisy on few boards and the floor
raised the low draws. With the floor at 1 the intervals covered 97-99.9 % on 8-16 boards and
at every size between equals, where they claim 95 %; with it at 0.1, 94.2-98.2 % over seven
matches of the greedy family, random and lookahead:4 on 8-32 boards
(``benchmarks/ladder_pool.py``, docs/intervals.md).

Reported: each match's win rate of the single seat (with that interval), its head-to-head score
(the share of comparisons with the other three teams, not tied, in which it finished ahead;
50 % is even), a Plackett–Luce rating of all finishing orders in Elo points relative to
``greedy`` (a ridge prior ``L2`` keeps a player that never wins finite), and for each rung the
one-sided exact sign test over the boards of its match with the rung below (Holm-adjusted over
the rungs): a board counts for the higher rung when, over the games of its deals, the single
seat finished ahead of the other teams more often than behind them. By the seat and card
rotation the two are equally likely under "no stronger", whatever the game's luck. The test
counts boards, not deals: deals on one board share what the board favours, so a player that
one board suits wins most of its deals together, and a sign test over deals rejected a true
"no stronger on average" about twice as often as it claimed (tests/test_ladder.py). The
deals won, even and lost are still reported.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, replace

import numpy as np

from sim.ai.spec import PolicySpec, parse_policies

from . import progress as line
from .progress_text import counted

# The default rungs (docs/ai.md): each beat the one below at the default number of games.
DEFAULT_PLAYERS = ("random", "greedy", "lookahead:4", "lookahead:32")
DEFAULT_GAMES = 960
CHUNK_DEALS = 40  # deals per call of the parallel loop (which counts games as they finish)
DRAW_STREAM, BOARD_STREAM = 1, 2
MIN_BOARDS = 2  # a board-clustered standard error needs two boards
CONFIDENCE = 0.95  # of the Elo and win-rate intervals
L2 = 0.01  # ridge prior on the ratings (log-strength units): N(0, 10^2), nearly flat
MATCH_MIN_DEFF = 0.1  # the match win rates' design-effect floor (module doc); > 0 keeps a board
#                       set whose rates all agree from an infinite effective number of games


@dataclass(frozen=True)
class Ladder:
    players: tuple[str, ...]     # labels, in the order given (weakest rung first)
    games: int
    deals: int
    boards: int                  # distinct boards played: the clusters of the intervals
    matches: tuple[tuple[int, int], ...]  # (lower, higher): higher in one seat vs 3 of lower
    wins: np.ndarray             # [M] games the single seat won
    played: np.ndarray           # [M] games of the match
    win_low: np.ndarray          # [M] interval of wins / played, clustered by board (par 1/4)
    win_high: np.ndarray
    ahead: np.ndarray            # [M] comparisons of the single seat with another team: ahead
    behind: np.ndarray           # [M] ... and behind
    match_deals: np.ndarray      # [M, 3] deals won / even / lost by the single seat
    match_boards: np.ndarray     # [M, 3] boards won / even / lost (what the rung test counts)
    match_p: np.ndarray          # [M] one-sided sign-test p-value over boards: the single seat
    #                              is stronger
    elo: np.ndarray              # [P] rating, Elo points relative to the anchor
    elo_low: np.ndarray
    elo_high: np.ndarray
    anchor: int                  # the player rated 0
    rung_p_holm: np.ndarray      # [P-1] Holm-adjusted p of the match (k, k+1)
    seconds: float
    alpha: float
    balance: dict | None = None  # per match "A vs 3 × B": how its games went (GameBalance)

    @property
    def design(self) -> str:
        """The design in words: "960 games (240 deals) on 32 boards"."""
        return (f"{counted(self.games, 'game')} ({counted(self.deals, 'deal')}) "
                f"on {counted(self.boards, 'board')}")

    def match(self, lower: int, higher: int) -> int:
        return self.matches.index((lower, higher))

    @property
    def ordered(self) -> bool:
        """Every rung beats the one below at level ``alpha`` (Holm)."""
        return bool(np.all(self.rung_p_holm < self.alpha))


def matches(n_players: int) -> list[tuple[int, int]]:
    """The round robin: every pair of players (lower, higher), in order."""
    if n_players < 2:
        raise ValueError("a ladder needs at least 2 players")
    return list(itertools.combinations(range(n_players), 2))


def deal_teams(seed: int, deal: int, n_cards: int) -> np.ndarray:
    """The four teams of deal ``deal``: 20 distinct cards from ``SeedSequence([seed, 1, deal])``
    (card indices, in name order: the same cards whatever the rows' order)."""
    from sim.catalogue.teams import random_teams

    rng = np.random.default_rng(np.random.SeedSequence([seed, DRAW_STREAM, deal]))
    return random_teams(n_cards, rng)


def finishing_places(winner: np.ndarray, health: np.ndarray, eliminated: np.ndarray
                     ) -> np.ndarray:
    """``[n, 4]`` places by seat (module doc): the winner 1st, then the others by the decision
    after which they were eliminated (-1: never, best) and the health they kept; ties share a
    place; a draw (winner -1) ties everybody."""
    n = winner.shape[0]
    places = np.ones((n, 4))
    for i in range(n):
        if winner[i] < 0:
            continue
        key = [(np.inf if eliminated[i, s] < 0 else eliminated[i, s], health[i, s])
               for s in range(4)]
        rest = [s for s in range(4) if s != winner[i]]
        for s in rest:
            places[i, s] = 2 + sum(key[t] > key[s] for t in rest)
    return places


def play_ladder(catalogue, players=DEFAULT_PLAYERS, *, games: int = DEFAULT_GAMES,
                seed: int = 0, boards: int = 32, alpha: float = 0.05) -> Ladder:
    """Play about ``games`` games (rounded up to whole deals in every match) and rate the players.

    ``players`` are policy specs (:mod:`sim.ai.spec`), weakest rung first; games are counted
    into the progress line (:mod:`.progress`). Results depend only on the players, ``games``,
    ``seed`` and ``boards`` (deal ``d``'s dice: child ``d`` of ``SeedSequence(seed)``), never on
    the thread count."""
    if boards < MIN_BOARDS:
        raise ValueError(f"boards must be at least {MIN_BOARDS}: the intervals are clustered "
                         f"by board")
    specs = parse_policies(players)
    labels = tuple(s.label for s in specs)
    if len(set(labels)) != len(labels):
        raise ValueError(f"players must differ: {', '.join(labels)}")
    pairs = matches(len(specs))
    n_deals = max(1, -(-games // (4 * len(pairs)))) * len(pairs)
    t0 = time.perf_counter()
    match_of, single, places, deal_of, went = play_round_robin(catalogue, specs, n_deals, seed,
                                                               boards)
    # a stage of its own: scipy's import and the fits took 1.9-2.7 s after the last game, with
    # no stage open (the progress audit of 2026-12-07)
    with line.stage("fitting the Elo ratings"):
        ladder = rate(labels, pairs, match_of, single, places, deal_of,
                      time.perf_counter() - t0, alpha, boards=boards)
        balance = {f"{labels[hi]} vs 3 × {labels[lo]}": _match_balance(went[k])
                   for k, (lo, hi) in enumerate(pairs)}
    return replace(ladder, balance=balance)


def play_round_robin(catalogue, specs, n_deals: int, seed: int, boards: int):
    """The round robin's games (module doc; ``n_deals`` a multiple of the matches): each game's
    match, single seat, finishing places ``[n, 4]`` and deal, and per match how its games went
    (for :func:`_match_balance`). What :func:`rate` takes; ``benchmarks/ladder_pool.py`` too."""
    labels = [s.label for s in specs]
    pairs = matches(len(specs))
    # deal d plays on board d % boards: the first min(boards, n_deals) are all that are used
    world = _world(catalogue, seed, min(boards, n_deals))
    per_match = match_deals(n_deals, len(pairs))
    single, places, deal_of, match_of = [], [], [], []
    went: dict[int, list[dict]] = {k: [] for k in range(len(pairs))}
    with line.stage("round robin", 4 * n_deals):
        for k, (lo, hi) in enumerate(pairs):
            dealt = per_match[k]
            with line.stage(f"{labels[hi]} vs 3 × {labels[lo]}"):
                for start in range(0, dealt.size, CHUNK_DEALS):
                    deals = dealt[start:start + CHUNK_DEALS]
                    seat, pl, info = _play_match(world, catalogue, specs[lo], specs[hi], deals,
                                                 seed, boards)
                    went[k].append(info)
                    single.append(seat)
                    places.append(pl)
                    deal_of.append(np.repeat(deals, 4))
                    match_of.append(np.full(seat.size, k))
    return (np.concatenate(match_of), np.concatenate(single), np.concatenate(places),
            np.concatenate(deal_of), went)


def match_deals(n_deals: int, n_matches: int) -> list[np.ndarray]:
    """The deals of each match: a run of ``n_deals / n_matches`` consecutive deals (``n_deals``
    a multiple of ``n_matches``), so that a match's deals, on board ``d % boards``, go round
    every board (module doc: why not every ``n_matches``-th deal)."""
    per = n_deals // n_matches
    return [np.arange(k * per, (k + 1) * per) for k in range(n_matches)]


def _match_balance(chunks: list[dict]):
    """How a match's games went (sim.analysis.balance: endings, length, lead changes), its
    intervals clustered by board."""
    from sim.analysis.balance import game_balance

    cols = {key: np.concatenate([c[key] for c in chunks]) for key in chunks[0]}
    return game_balance(cols["winner"], cols["outcome"], cols["rotations"],
                        clusters=cols["board"], lead_changes=cols["lead_changes"])


def _world(catalogue, seed: int, boards: int):
    from sim.board.generate import generate_board
    from sim.engine.state.new_game import card_arrays
    from sim.engine.state.static_tables import build_setup, load_game_data, stack_setups

    game_rules, apocalypses = load_game_data(catalogue.root)
    setups = []
    with line.stage("building boards", boards, unit="boards"):  # ~20-50 ms each
        for k in range(boards):
            board_seed = int(np.random.SeedSequence([seed, BOARD_STREAM, k]).generate_state(1)[0])
            board = generate_board(catalogue.tiles, catalogue.board_rules, board_seed)
            setups.append(build_setup(catalogue, board, game_rules, apocalypses))
            line.advance(1)
    return stack_setups(setups), card_arrays(catalogue.cards)


def _play_match(world, catalogue, lower: PolicySpec, higher: PolicySpec, deals: np.ndarray,
                seed: int, boards: int):
    """Each deal four times, ``higher`` in seat r of rotation r and ``lower`` in the other three;
    returns the single seat of each game ``[n]``, the finishing places ``[n, 4]`` and the games'
    winner, ending, length, board and lead changes (for :func:`_match_balance`)."""
    from sim.engine.state.fields import REASON_NAMES
    from sim.ai.play import RESULT_COLUMNS

    from .playing import play_many

    stacked, cards = world
    rot = np.tile(np.arange(4), deals.size)
    games = np.repeat(deals, 4)
    teams = np.stack([deal_teams(seed, int(d), len(catalogue.cards)) for d in deals])
    seated = [higher, lower, lower, lower]  # team t plays seated[(t - rot) % 4]
    out = play_many(stacked, cards, games % boards, np.repeat(teams, 4, axis=0), seed,
                    [s.id for s in seated], seats=rot, game_indices=games,
                    budgets=[s.budget for s in seated], weights=[s.weights for s in seated])
    column = RESULT_COLUMNS.index
    health = out[:, [column(f"health_seat{s + 1}") for s in range(4)]]
    eliminated = out[:, [column(f"eliminated_seat{s + 1}") for s in range(4)]]
    info = {"winner": out[:, column("winner")],
            "outcome": np.array([REASON_NAMES[int(x)] for x in out[:, column("reason")]]),
            "rotations": out[:, column("rotation")], "board": games % boards,
            "lead_changes": out[:, column("lead_changes")]}
    return rot, finishing_places(info["winner"], health, eliminated), info


def rate(labels, pairs, match_of: np.ndarray, single: np.ndarray, places: np.ndarray,
         deal_of: np.ndarray, seconds: float = 0.0, alpha: float = 0.05,
         boards: int | None = None) -> Ladder:
    """Match results, ratings and rung tests of finished games (module doc): game i belongs to
    match ``pairs[match_of[i]]`` and its single seat is ``single[i]``; deal ``d`` was played on
    board ``d % boards`` (``None``: every deal on its own board). Intervals are clustered by
    board (module doc)."""
    from sim.analysis.multiple import holm
    from sim.analysis.ratings import theta_to_elo

    pairs = [tuple(p) for p in pairs]
    n_p, n = len(labels), single.shape[0]
    board = np.asarray(deal_of) % boards if boards else np.asarray(deal_of)
    m = _match_results(pairs, match_of, single, places, deal_of, board)
    anchor = labels.index("greedy") if "greedy" in labels else 0
    theta, lo, hi = _ratings(n_p, pairs, match_of, single, places, board, anchor)
    rung = np.array([m["p"][pairs.index((k, k + 1))] if (k, k + 1) in pairs else 1.0
                     for k in range(n_p - 1)])
    rung_holm = holm(rung) if rung.size else rung
    return Ladder(tuple(labels), n, len(np.unique(deal_of)), int(np.unique(board).size),
                  tuple(pairs), m["wins"], m["played"], m["low"], m["high"], m["ahead"],
                  m["behind"], m["deals"], m["boards"], m["p"], theta_to_elo(theta),
                  theta_to_elo(lo), theta_to_elo(hi), anchor, rung_holm, seconds, alpha)


def _match_results(pairs, match_of, single, places, deal_of, board) -> dict:
    """Per match: wins and games of the single seat with its interval clustered by board
    (``cluster.clustered_share_interval``), comparisons ahead and behind, deals and boards
    won/even/lost, and the sign test over boards (module doc)."""
    from scipy.stats import binomtest

    from sim.analysis.cluster import clustered_share_interval

    n_m, n = len(pairs), single.shape[0]
    rows = np.arange(n)
    mine = places[rows, single]
    others = np.ones((n, 4), np.bool_)
    others[rows, single] = False
    won = single_seat_won(single, places)
    ahead_g = np.sum(others & (mine[:, None] < places), axis=1)
    behind_g = np.sum(others & (mine[:, None] > places), axis=1)
    out = {key: np.zeros(n_m, np.int64) for key in ("wins", "played", "ahead", "behind")}
    out["deals"], out["p"] = np.zeros((n_m, 3), np.int64), np.ones(n_m)
    out["boards"] = np.zeros((n_m, 3), np.int64)
    out["low"], out["high"] = np.zeros(n_m), np.ones(n_m)
    for k in range(n_m):
        sel = match_of == k
        out["wins"][k], out["played"][k] = won[sel].sum(), sel.sum()
        if sel.any():
            out["low"][k], out["high"][k] = clustered_share_interval(
                won[sel], board[sel], CONFIDENCE, min_deff=MATCH_MIN_DEFF)
        out["ahead"][k], out["behind"][k] = ahead_g[sel].sum(), behind_g[sel].sum()
        score = ahead_g[sel] - behind_g[sel]
        out["deals"][k] = _signs(deal_of[sel], score)
        up, even, down = out["boards"][k] = _signs(board[sel], score)
        if up + down:
            out["p"][k] = binomtest(up, up + down, 0.5, alternative="greater").pvalue
    return out


def single_seat_won(single: np.ndarray, places: np.ndarray) -> np.ndarray:
    """Whether each game's single seat won (placed first, and the game not a draw: a draw
    ranks nobody)."""
    mine = places[np.arange(single.shape[0]), single]
    return ~np.all(places == 1, axis=1) & (mine == 1)


def _signs(unit, score) -> tuple[int, int, int]:
    """How many units (deals, boards) the single seat's summed score puts ahead, even, behind."""
    _, inverse = np.unique(unit, return_inverse=True)
    total = np.bincount(inverse, weights=score)
    return int(np.sum(total > 0)), int(np.sum(total == 0)), int(np.sum(total < 0))


def _ratings(n_p, pairs, match_of, single, places, board, anchor):
    """Plackett-Luce log-strengths relative to ``anchor`` and their 95 % t interval from the
    boards' jackknife (model-based when fewer than two boards were played): on few boards that
    suit players strongly the sandwich is too small (docs/intervals.md)."""
    from sim.analysis.cluster import MIN_CLUSTERS
    from sim.analysis.ratings import composition_strengths

    rows = np.arange(single.shape[0])
    pair_arr = np.asarray(pairs, np.int64).reshape(-1, 2)
    items = np.repeat(pair_arr[match_of, 0][:, None], 4, axis=1)  # every team: a slot of its player
    items[rows, single] = pair_arr[match_of, 1]
    clustered = np.unique(board).size >= MIN_CLUSTERS
    fit = composition_strengths(np.eye(n_p), items, places, l2=L2,
                                clusters=board if clustered else None, jackknife=clustered)
    diff = np.eye(n_p) - np.eye(n_p)[anchor]
    theta = diff @ fit.beta
    se = np.sqrt(np.clip(np.einsum("ij,jk,ik->i", diff, fit.cov, diff), 0, None))
    q = fit.quantile(CONFIDENCE)
    return theta, theta - q * se, theta + q * se
