"""The composition fits' times: the rarity study's ratings, the boards' information, the
rulings' paired change; against the (games x cards x cards) reference they replaced.

    python benchmarks/fits.py [--cards 72] [--seed 54]

Why: the Plackett-Luce composition fit behind ``rarity``, the ladder's Elo and the rulings'
card changes took each board's information from a (games x cards x cards) array summed with
``np.add.at`` until stop 54; it now carries each game's information in its slots' space to
cards by one matrix product per chunk (``composition._games_information``). This script times
that against a copy of the old code in the same run (same matrices: the largest difference is
printed), and the fits users wait for, on games shaped as the rarity study plays them (teams of
5 drawn from ``--cards`` cards, 64 games a board, a winner or none). The timing needs only the
games' shape, so the games are drawn here, not played. Best of three runs each.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.analysis.cluster import cluster_ids, cluster_sums  # noqa: E402
from sim.analysis.composition import _cluster_information, composition_strengths  # noqa: E402
from sim.analysis.paired_ratings import paired_rating_change  # noqa: E402
from sim.analysis.ratings import _stage_probs, _stages  # noqa: E402
from sim.runner.rarity import team_card_rows, winner_places  # noqa: E402

GAMES_PER_BOARD = 64


def games(rng, boards: int, n_cards: int, per_board: int = GAMES_PER_BOARD):
    """Teams of 5 distinct cards in 4 seats, a winner (or, rarely, none), ``per_board`` games a
    board."""
    n = boards * per_board
    seat_cards = np.argsort(rng.random((n, n_cards)), axis=1)[:, :20].reshape(n, 4, 5)
    winner = np.where(rng.random(n) < 0.003, -1, rng.integers(0, 4, n))
    return seat_cards, winner, np.arange(n) % boards


def reference_information(beta, x, idx, risk, mult, ids, n_clusters, chunk=4096):
    """The clusters' information as it was built until stop 54 (the slow reference)."""
    util = (x @ beta)[idx]
    pi, _ = _stage_probs(util, risk)
    weight = np.sum(mult[:, :, None] * pi, axis=1)
    out = np.zeros((n_clusters, x.shape[1], x.shape[1]))
    for lo in range(0, idx.shape[0], chunk):
        xs = x[idx[lo:lo + chunk]]
        xbar = np.einsum("nsm,nmc->nsc", pi[lo:lo + chunk], xs)
        per_game = (np.einsum("nm,nmc,nmd->ncd", weight[lo:lo + chunk], xs, xs)
                    - np.einsum("ns,nsc,nsd->ncd", mult[lo:lo + chunk], xbar, xbar))
        out += cluster_sums(per_game, ids[lo:lo + chunk], n_clusters)
    return out


def best(fn, repeats: int = 3):
    """Best time of ``repeats`` calls, the last result, and the peak traced memory (MB)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return min(times), out, peak


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=72)
    ap.add_argument("--seed", type=int, default=54)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    for boards in (64, 1024):
        seat_cards, winner, board = games(rng, boards, args.cards)
        rows, items = team_card_rows(seat_cards, args.cards)
        places = winner_places(winner)
        print(f"{len(winner):,} games on {boards:,} boards, {args.cards} cards:")
        information(rows, items, places, board, rng)
        for jackknife in (False, True):
            t, _, peak = best(lambda: composition_strengths(rows, items, places, clusters=board,
                                                            jackknife=jackknife))
            print(f"  rarity fit, {'jackknife' if jackknife else 'sandwich '}: {t:6.3f} s, "
                  f"{peak:6.0f} MB at peak")
    seat_cards, winner, board = games(rng, 64, args.cards, 32)  # the rulings' ~2,000 games
    rows, items = team_card_rows(seat_cards, args.cards)
    flipped = np.where(rng.random(len(winner)) < 0.2, rng.integers(0, 4, len(winner)), winner)
    t, _, peak = best(lambda: paired_rating_change(rows, items, winner_places(winner),
                                                   winner_places(flipped), board))
    print(f"rulings' paired change (2,048 games on 64 boards, jackknife): {t:.3f} s, "
          f"{peak:.0f} MB at peak")


def information(rows, items, places, board, rng) -> None:
    """The boards' information, now and by the reference, at a random rating."""
    idx, _, risk, _, mult = _stages(items, places)
    ids, g = cluster_ids(board, idx.shape[0])
    beta = rng.normal(0.0, 0.3, rows.shape[1])
    t_new, new, _ = best(lambda: _cluster_information(beta, rows, idx, risk, mult, ids, g))
    t_ref, ref, _ = best(lambda: reference_information(beta, rows, idx, risk, mult, ids, g), 1)
    print(f"  boards' information: {t_new:.3f} s against the reference's {t_ref:.3f} s: "
          f"{t_ref / t_new:.0f}x; largest difference {np.max(np.abs(new - ref)):.1e} "
          f"(entries up to {np.max(np.abs(ref)):.0f})")


if __name__ == "__main__":
    main()
