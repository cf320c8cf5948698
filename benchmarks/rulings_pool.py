"""The rulings' card-rating changes on real games, calibrated by resampling boards from a pool.

    python benchmarks/rulings_pool.py [--alternatives 1,7] [--pool-boards 1024]
                                      [--per-board 32] [--reps 400] [--boards 16,64] [--seed 54]

Why: ``bwlab rulings`` reports each card's paired rating change under a house ruling's
alternative (``paired_ratings.paired_rating_change``: the boards' jackknife of the change
since stop 53), calibrated so far on planted, simulated replays (tests/test_rulings_statistics.py).
Here the rulings' rating study (``experiments/rarity.toml``, greedy, the design of
``experiments/rulings.toml``'s [study]: about 31 games a board) is played once on
``--pool-boards`` boards under the book and once under each chosen alternative
(``alternatives[i]`` of ``experiments/rulings.toml``; the default 1 and 7 are the tier dice
[4, 12, 20, 100], the largest card effects, and the same-step draw), on the same seeds, so the
games are paired as the command pairs them. Each replication draws B boards without
replacement and takes the paired change of every card's rating on their games, by the
jackknife and by the CR1 sandwich (``jackknife=False``); the truth is the whole pool's change,
judged with the finite-population correction (``pool_calibration.BoardDraws``).

Prints, per alternative and B: each method's coverage of the 95 % intervals of all 72 cards and
of the cards the pool moves by at least 0.1 (log-strength), each with its standard error, and
the jackknife's width against the sandwich's. Progress on stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.analysis.paired_ratings import paired_rating_change  # noqa: E402
from sim.catalogue.loader import load_catalogue  # noqa: E402
from sim.engine.state.fields import POLICY_IDS  # noqa: E402
from sim.runner import progress  # noqa: E402
from sim.runner.experiment import load_experiment  # noqa: E402
from sim.runner.rarity import play_pool, pool_boards, team_card_rows, winner_places  # noqa: E402
from sim.runner.rulings_data import load_rulings, prepare  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from pool_calibration import BoardDraws, Coverage, progress_range  # noqa: E402

MOVED = 0.1  # a card the pool moves by at least this much (log-strength) counts as changed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alternatives", default="1,7", help="indexes into experiments/rulings.toml")
    ap.add_argument("--pool-boards", type=int, default=1024)
    ap.add_argument("--per-board", type=int, default=32)
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--boards", default="16,64", help="boards per replication, comma-separated")
    ap.add_argument("--seed", type=int, default=54)
    args = ap.parse_args()
    t0 = time.perf_counter()
    os.chdir(ROOT)  # the rulings file names its study's files from the repository
    spec = load_rulings(ROOT / "experiments" / "rulings.toml")
    book = load_catalogue(ROOT / "cards")
    exp = load_experiment(ROOT / "experiments" / "rarity.toml", book.cards, tuple(POLICY_IDS))
    exp = replace(exp, games=args.pool_boards * args.per_board, boards=args.pool_boards,
                  root_seed=args.seed, policies=("greedy",) * 4)
    n_cards = len(book.cards.names)
    lines = []
    with progress.reporting("rulings_pool"), tempfile.TemporaryDirectory() as tmp:
        seat_cards, before = play_pool(book, exp, label="book pool")
        board = pool_boards(exp, len(before))
        rows, items = team_card_rows(seat_cards, n_cards)
        for i in (int(x) for x in args.alternatives.split(",")):
            alt = spec.alternatives[i]
            catalogue, alt = prepare(alt, ROOT / "cards", Path(tmp) / f"alt-{i}", spec.path)
            cards_alt, after = play_pool(catalogue, exp, label=f"{alt.label} pool")
            assert np.array_equal(cards_alt, seat_cards), "the replays must deal the same teams"
            paired = (rows, items, winner_places(before), winner_places(after))
            truth = paired_rating_change(*paired, board, jackknife=False).delta
            moved = np.abs(truth) >= MOVED
            lines.append(f"{alt.label}: the pool moves {moved.sum()} of {n_cards} cards by "
                         f">= {MOVED} (largest |change| {np.abs(truth).max():.2f})")
            rng = np.random.default_rng(args.seed + i)
            for b in (int(x) for x in args.boards.split(",")):
                lines.append(replicate(paired, board, truth, moved, BoardDraws(board, b),
                                       args.reps, rng))
    print(f"pools: {len(before):,} greedy games on {args.pool_boards:,} boards per rule set, "
          f"{n_cards} cards; {args.reps} replications of B boards; 95 % intervals of each "
          f"card's paired change holding the pool's (± the coverage's standard error):")
    print("\n".join(lines))
    print(f"{time.perf_counter() - t0:.0f} s")


def replicate(paired, board, truth, moved, draws, reps, rng) -> str:
    """One line: each method's coverage (all cards; the moved ones) and the width ratio."""
    rows, items, before, after = paired
    cover = {True: Coverage(), False: Coverage()}
    cover_moved = {True: Coverage(), False: Coverage()}
    width = {True: [], False: []}
    for _ in progress_range(f"{draws.per_rep} boards a replication", reps):
        games = draws.draw(rng)
        team = items[games].ravel()  # the drawn games' team rows, game by game
        sub_items = np.arange(team.size).reshape(-1, items.shape[1])
        for jackknife in (True, False):
            r = paired_rating_change(rows[team], sub_items, before[games], after[games],
                                     board[games], jackknife=jackknife)
            low, high = draws.judged(r.delta, *r.interval(0.95))
            cover[jackknife].add(truth, low, high)
            if moved.any():
                cover_moved[jackknife].add(truth[moved], low[moved], high[moved])
            width[jackknife].append(np.mean(high - low))
    ratio = np.mean(width[True]) / np.mean(width[False])
    if not moved.any():
        return (f"  B = {draws.per_rep:>3}: jackknife {cover[True].text()}, sandwich "
                f"{cover[False].text()} (no card moved by {MOVED}); jackknife {ratio:.2f}x as "
                f"wide")
    return (f"  B = {draws.per_rep:>3}: jackknife {cover[True].text()} (the {moved.sum()} moved "
            f"cards {cover_moved[True].text()}), sandwich {cover[False].text()} (moved "
            f"{cover_moved[False].text()}); jackknife {ratio:.2f}x as wide")


if __name__ == "__main__":
    main()
