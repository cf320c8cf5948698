"""The game loop's :func:`sim.ai.play.play_many`, chunk by chunk, counting finished games into
the progress line (:mod:`.progress`).

Why here and not in the game loop: ``play_many`` is one blocking call that can last minutes
(look-ahead games take seconds each), so a caller learns nothing until it returns. This wrapper
does the loop's own scheduling one level up: ``numba.get_num_threads()`` Python threads each
play a few games at a time by calling ``play_many`` on them (a call that small runs in the
calling thread, with the GIL released), and the calling thread counts each chunk as it ends.
Game ``i`` keeps its board, teams, seats and dice (child ``first_game + i``, or
``game_indices[i]``, of the root seed), and every game allocates its own state, so the rows are
bit-identical to one ``play_many`` call, whatever the chunking, the thread count, or whether
anybody watches. Chunks shrink for slow players (down to one game), so the count moves about
every second even for the look-ahead.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np

from sim.atomic import stops_held

from . import progress

TARGET_SECONDS = 1.0   # aim of one chunk's duration on one thread


def chunk_size(seconds_per_game: float, most: int) -> int:
    """Games per chunk: about :data:`TARGET_SECONDS` of play, between 1 and ``most`` (the
    engine's load-balancing chunk)."""
    if not np.isfinite(seconds_per_game) or seconds_per_game <= 0:
        return most
    return int(max(1, min(most, round(TARGET_SECONDS / seconds_per_game))))


def play_many(stacked, cards, board_of, team_cards, root_seed: int, policies, seats=None,
              first_game: int = 0, per_card: bool = False, game_indices=None, budgets=None,
              weights=None):
    """Exactly :func:`sim.ai.play.play_many`'s rows, played in chunks that advance the
    progress line (module doc); the games a command's journal (:mod:`.journal`) holds (an
    interrupted run's, or an identical earlier call's) are taken from it, not played again."""
    import numba

    from sim.ai import play as loop

    from . import journal

    watching, book = progress.current(), journal.current()
    if (watching is None or watching.quiet) and book is None:  # the loop's own single call
        return loop.play_many(stacked, cards, board_of, team_cards, root_seed, policies,
                              seats, first_game, per_card, game_indices, budgets, weights)
    board_of = np.ascontiguousarray(board_of, np.int64)
    n = board_of.shape[0]
    team_cards = np.ascontiguousarray(team_cards, np.int64)
    seats = np.zeros(n, np.int64) if seats is None else np.ascontiguousarray(seats, np.int64)
    indices = (np.arange(first_game, first_game + n, dtype=np.int64) if game_indices is None
               else np.asarray(game_indices, np.int64))
    if indices.shape != (n,) or team_cards.shape != (n, 4, 5) or seats.shape != (n,):
        # the loop's own messages for malformed input
        return loop.play_many(stacked, cards, board_of, team_cards, root_seed, policies,
                              seats, first_game, per_card, game_indices, budgets, weights)
    card_shape = (4, 5, len(loop.CARD_COLUMNS)) if per_card else None
    call = None if book is None else book.open(
        {"stacked": stacked, "cards": cards, "board_of": board_of, "team_cards": team_cards,
         "root_seed": int(root_seed), "policies": policies, "seats": seats, "games": indices,
         "budgets": budgets, "weights": weights}, n, len(loop.RESULT_COLUMNS), card_shape,
        plausible=plausible_results)
    if call is not None:  # its buffers hold the games found in the journal
        out, todo = call.out, np.flatnonzero(~call.done)
        progress.skip(n - todo.size, resumed=call.resumed)  # the rest: this command's own
    else:
        out, todo = np.zeros((n, len(loop.RESULT_COLUMNS)), np.int64), np.arange(n)
    card_out = (call.card_out if call is not None and per_card
                else np.zeros((n, 4, 5, len(loop.CARD_COLUMNS)), np.int64))

    def play(lo: int, hi: int):
        t0 = time.perf_counter()
        rows = todo[lo:hi]
        got = loop.play_many(stacked, cards, board_of[rows], team_cards[rows], root_seed,
                             policies, seats=seats[rows], per_card=per_card, budgets=budgets,
                             weights=weights, **_where(rows, indices))
        if per_card:
            out[rows], card_out[rows] = got
        else:
            out[rows] = got
        if call is not None:
            call.record(rows)
        return hi - lo, time.perf_counter() - t0

    threads = min(numba.get_num_threads(), max(1, -(-todo.size // loop.GAMES_PER_CHUNK)))
    try:
        _run_chunks(play, todo.size, max(1, threads), loop.GAMES_PER_CHUNK)
    finally:
        if call is not None:
            call.flush()
    return (out, card_out) if per_card else out


def plausible_results(out: np.ndarray, card_out: np.ndarray | None) -> bool:
    """Whether every row of ``out`` (``sim.ai.play.RESULT_COLUMNS``) and ``card_out`` is a result
    some game gives: a winning seat or none, a known ending, counts that are not negative. Why:
    a journal part edited by hand (of the right shapes: its checks passed) ended a command in a
    traceback where its results were read as a seat or an ending (the inputs audit of stop 74);
    the journal "can only save work, never fail a command"."""
    from sim.ai import play as loop
    from sim.catalogue.teams import TEAMS as seats  # a winner is a seat, or -1 for none
    from sim.engine.state.fields import REASON_NAMES

    health = slice(loop.R_HEALTH, loop.R_HEALTH + seats)
    fell = slice(loop.R_ELIMINATED, loop.R_ELIMINATED + seats)
    counts = [loop.R_ROTATION, loop.R_DEATHS, loop.R_DECISIONS, loop.R_LEAD_CHANGES]
    return bool(np.all((out[:, loop.R_WINNER] >= -1) & (out[:, loop.R_WINNER] < seats))
                and np.all(np.isin(out[:, loop.R_REASON], list(REASON_NAMES)))
                and np.all(out[:, counts] >= 0) and np.all(out[:, health] >= 0)
                and np.all(out[:, fell] >= -1) and np.all(out[:, loop.R_APOCALYPSE] >= -1)
                and np.all((out[:, loop.R_APOCALYPSE_RESOLVED] >= 0)
                           & (out[:, loop.R_APOCALYPSE_RESOLVED] <= seats))
                and (card_out is None or np.all(card_out >= 0)))


def _where(rows: np.ndarray, indices: np.ndarray) -> dict:
    """The games of ``rows`` as the loop takes them: consecutive games by their first one (one
    seed derivation for the chunk, not each), else each by its index."""
    first = int(indices[rows[0]]) if rows.size else 0
    if rows.size and np.array_equal(indices[rows], np.arange(first, first + rows.size)):
        return {"first_game": first}
    return {"game_indices": indices[rows]}


def _run_chunks(play, n: int, threads: int, most: int) -> None:
    """Hand rows ``0 .. n - 1`` to ``threads`` workers a chunk at a time (each chunk's size from
    the time per game so far) and count each finished chunk into the progress line.

    Why the workers' own tally: a stop (Ctrl-C, SIGTERM) lands on this thread between any two
    bytecodes, often after a chunk has finished (its games recorded in the journal, kept) but
    before it is counted, and the chunks still running finish while the pool shuts down. The
    interrupted stage's closing line said fewer games than the journal kept ("0 games in 0 s"
    beside "4 finished games kept"). The workers (where no stop lands) count the games they
    finish, and the line is settled on that count as the loop unwinds.

    Why each ``submit`` holds the stops (:func:`sim.atomic.stops_held`): ``submit`` queues the
    chunk, starts a thread if the pool has fewer than ``threads``, and only once ``start`` has
    returned adds it to the threads ``shutdown(wait=True)`` joins. Under load a new thread can
    play its whole first chunk before ``start`` returns on this thread; a stop landing in
    ``start`` then left that thread unjoined, so the command counted the journal before the
    thread recorded its games: "terminated (SIGTERM) before any game finished: nothing to
    keep", or fewer games than it kept, the thread playing on after the command had ended
    (tests/test_journal_commands.py). Held, the stop is raised once the thread is the pool's
    and its chunk's future is pending: joined and counted as it unwinds."""
    next_lo, games_done, busy = 0, 0, 0.0
    size = min(most, 2) if n > threads * most else most  # a short first chunk measures the pace
    start, tally, lock = progress.count(), [0], threading.Lock()

    def tallied(lo: int, hi: int):
        games, seconds = play(lo, hi)
        with lock:
            tally[0] += games
        return games, seconds

    pool = ThreadPoolExecutor(threads, thread_name_prefix="bwlab-games")
    pending: set = set()
    try:
        while next_lo < n or pending:
            while next_lo < n and len(pending) < threads:
                hi = min(n, next_lo + size)
                with stops_held():  # a stop here left the thread it started unjoined (doc)
                    pending.add(pool.submit(tallied, next_lo, hi))
                next_lo = hi
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                games, seconds = f.result()
                games_done += games
                busy += seconds
                progress.advance(games)
            size = chunk_size(busy / max(games_done, 1), most)
    finally:
        for f in pending:
            f.cancel()
        pool.shutdown(wait=True)
        if start is not None:
            progress.recount(start + tally[0])


__all__ = ["chunk_size", "play_many"]
