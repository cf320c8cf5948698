"""Calibration suite: plant truths, run each verdict many times, print how well it keeps its word.

    python benchmarks/calibration.py [--reps 200] [--planted-reps 100] [--games 512]
                                     [--boards 32] [--drift-reps 1000] [--seed 1] [--quick]

1. Fairness and seat effect, null: four teams of identical cards (each team's chance is 1/4)
   over ``--reps`` replications of ``--games`` games, each with its own boards and dice: the
   coverage of the 95 % intervals, the z-spread, and the share of runs the sequential check
   called "unfair" (target: at most alpha = 0.05).
2. Fairness, planted teams (slight, medium, strong: the planted team's fifth card has 1.15x,
   1.4x, 2x max health): the planted team's true rate (pooled over replications), detection
   rate (called unfair with the planted team favoured) and median games to the verdict.
3. Drift gate: false alarms and power of the paired sequential test (sim.analysis.planted) on
   the shipped suite's schedule, at 12 %, 25 % and 40 % win rates (target: false alarms per
   metric at most alpha / 4, power at delta at least 1 - beta).
4. Rarity verdicts (sim.runner.rarity_calibration, issue #21): a Bronze card planted with a GOAT
   Series card's stats, flagged strong in ``--rarity-runs`` studies of ``--rarity-games`` games
   (target: at least 95 %); and the agreement of the flags of ``--agreement-runs`` independent
   ``--agreement-games``-game studies of the shipped cards (target: at least 90 % of the cards
   flagged in any run are flagged the same way in every run).

Targets (issue #19): coverage 93-97 %, z-spread 0.9-1.1, false verdicts at most their alpha.
Writes reports/calibration.json; progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.analysis.paired import DRIFT_DOWN, DRIFT_UP, NO_DRIFT  # noqa: E402
from sim.analysis.planted import paired_games, sequential_paired  # noqa: E402
from sim.atomic import write_text  # noqa: E402
from sim.runner.calibration import LEVELS, replicate, summary, with_planted  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from games import _cpu_model  # noqa: E402

SUITE = dict(delta_elo=70.0, alpha=0.05 / 4, beta=0.05, min_games=1024, round_games=128)


def _progress(stage: str):
    t0 = time.perf_counter()

    def show(done: int, total: int) -> None:
        elapsed = time.perf_counter() - t0
        left = elapsed / done * (total - done)
        print(f"\r{stage}: {done}/{total} replications, {left:5.0f} s left", end="",
              file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)
    return show


def fairness_rows(args, save) -> list[dict]:
    rows = []
    for level in args.levels.split(","):
        factor = LEVELS[level]
        reps = args.reps if level == "null" else args.planted_reps
        games = args.games if level == "null" else args.planted_games

        def run(catalogue, teams, reps=reps, games=games, level=level):
            return replicate(catalogue, teams, reps=reps, games=games, boards=args.boards,
                             round_games=args.round, seed=args.seed + len(rows),
                             progress=_progress(f"fairness {level}"))

        rows.append(summary(with_planted(ROOT / "cards", factor, run), level, 0.05))
        rows[-1].update(games=games, boards=args.boards, factor=factor)
        save(rows)
    return rows


def drift_rows(args) -> list[dict]:
    rng = np.random.default_rng(args.seed)
    rows = []
    for rate in (0.12, 0.25, 0.40):
        for shift in (0.0, SUITE["delta_elo"], -SUITE["delta_elo"]):
            decisions, games = [], []
            for _ in range(args.drift_reps):
                result = sequential_paired(*paired_games(rng, rate, shift, games=4096,
                                                         boards=128), **SUITE)
                decisions.append(result.decision)
                games.append(result.games)
            d = np.array(decisions)
            right = DRIFT_UP if shift > 0 else DRIFT_DOWN
            rows.append({"rate": rate, "shift_elo": shift, "replications": args.drift_reps,
                         "alarm": float(np.mean((d == DRIFT_UP) | (d == DRIFT_DOWN))),
                         "power": float(np.mean(d == right)) if shift else None,
                         "no_drift": float(np.mean(d == NO_DRIFT)),
                         "mean_games": float(np.mean(games))})
    return rows


def rarity_rows(args) -> dict:
    """Part 4: the planted GOAT-power Bronze card and the flags' agreement over runs."""
    from sim.catalogue.loader import load_catalogue
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.experiment import load_experiment
    from sim.runner.rarity_calibration import flag_agreement, planted_detection

    catalogue = load_catalogue(ROOT / "cards")
    exp = load_experiment(ROOT / "experiments" / "rarity.toml", catalogue.cards,
                          tuple(POLICY_IDS))
    out = {}
    if args.rarity_runs:
        out["planted"] = planted_detection(catalogue, exp, args.rarity_runs, args.rarity_games,
                                           args.seed, progress=_progress("rarity planted"))
    if args.agreement_runs:
        out["agreement"] = flag_agreement(catalogue, exp, args.agreement_runs,
                                          args.agreement_games, args.seed,
                                          progress=_progress("rarity agreement"))
    return out


def _print_rarity(rar: dict) -> None:
    p, a = rar.get("planted"), rar.get("agreement")
    if p:
        print(f"\nrarity, planted: {p['card']} ({p['rarity']}) with the stats of {p['stats_of']}"
              f" ({p['stats_rarity']}): flagged strong in {p['flagged_strong']} of {p['runs']}"
              f" {p['games']:,}-game runs = {100 * p['rate']:.1f} % (95 % CI"
              f" {100 * p['rate_low']:.1f}-{100 * p['rate_high']:.1f} %; target >= 95 %);"
              f" other cards flagged per run: {p['other_flags_per_run']:.1f}")
    if a:
        print(f"rarity, agreement: {a['runs']} runs of {a['games']:,} games flagged"
              f" {a['flagged_per_run']}; {a['flagged_in_every']} of {a['flagged_in_any']} flagged"
              f" cards in every run the same way = {100 * a['agreement']:.0f} % (target >= 90 %);"
              f" cards with the same verdict in every run: {100 * a['cards_same_in_every_run']:.1f} %")
        for name, flags in a["cards"].items():
            print(f"  {name:<28}{' '.join(f'{v:+d}' for v in flags)}")


def _print(fair: list[dict], drift: list[dict]) -> None:
    print(f"{'fairness':<10}{'reps':>6}{'games':>7}{'boards':>7}{'planted':>9}{'cover':>8}"
          f"{'z-SD':>7}{'seat cov':>9}{'lo/hi':>10}{'unfair':>8}{'found':>7}{'games*':>8}")
    for r in fair:
        g = f"{r['games_to_verdict']:.0f}" if r["games_to_verdict"] else "-"
        print(f"{r['level']:<10}{r['replications']:6d}{r['games']:7d}{r['boards']:7d}"
              f"{100 * r['truth_planted']:8.1f}%{100 * r['coverage']:7.1f}%{r['z_spread']:7.2f}"
              f"{100 * r['seat_coverage']:8.1f}%"
              f"{100 * r['seat_missed_low']:5.1f}/{100 * r['seat_missed_high']:3.1f}"
              f"{100 * r['unfair_share']:7.1f}%{100 * r['detected']:6.1f}%{g:>8}")
    print("cover/z-SD: each team's 95 % interval against the truth (null: 1/4; planted: pooled);"
          " unfair: share called unfair (null: false verdicts, target <= 5 %); found: unfair"
          " with the planted team favoured; games*: median games to that verdict; seat cov, lo/hi:"
          " the seat rates' intervals, and the % that lie wholly below / above the truth.")
    print(f"\n{'drift':<8}{'shift':>8}{'reps':>7}{'alarm':>8}{'power':>8}{'no drift':>10}{'games':>8}")
    for r in drift:
        power = f"{100 * r['power']:.1f}%" if r["power"] is not None else "-"
        print(f"{100 * r['rate']:6.0f}% {r['shift_elo']:+7.0f}{r['replications']:7d}"
              f"{100 * r['alarm']:7.1f}%{power:>8}{100 * r['no_drift']:9.1f}%{r['mean_games']:8.0f}")
    print(f"drift: per-metric alpha {SUITE['alpha']:.4f} (false alarms at shift 0), power at"
          f" delta {SUITE['delta_elo']:.0f} Elo (target >= {1 - SUITE['beta']:.2f}).")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200, help="null replications (fairness)")
    ap.add_argument("--planted-reps", type=int, default=100)
    ap.add_argument("--games", type=int, default=512, help="games per null replication")
    ap.add_argument("--planted-games", type=int, default=1024)
    ap.add_argument("--boards", type=int, default=32, help="boards per replication")
    ap.add_argument("--round", type=int, default=128, help="games between the check's looks")
    ap.add_argument("--drift-reps", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--levels", default=",".join(LEVELS),
                    help="planted levels to run, of " + ", ".join(LEVELS))
    ap.add_argument("--no-drift", action="store_true", help="skip the drift gate's part")
    ap.add_argument("--rarity-runs", type=int, default=40,
                    help="studies with the planted GOAT-power Bronze card (0: skip)")
    ap.add_argument("--rarity-games", type=int, default=2000)
    ap.add_argument("--agreement-runs", type=int, default=3,
                    help="independent studies of the shipped cards (0: skip)")
    ap.add_argument("--agreement-games", type=int, default=4000)
    ap.add_argument("--only-rarity", action="store_true", help="run part 4 only")
    ap.add_argument("--quick", action="store_true", help="a few replications: a smoke run")
    ap.add_argument("--out", type=Path, default=ROOT / "reports" / "calibration.json")
    args = ap.parse_args()
    if args.quick:
        args.reps, args.planted_reps, args.drift_reps = 20, 10, 50
        args.rarity_runs, args.agreement_runs = 4, 2
    bad = set(args.levels.split(",")) - set(LEVELS)
    if bad:
        ap.error(f"--levels: unknown {', '.join(sorted(bad))}; choose from {', '.join(LEVELS)}")
    for flag, value, least in (("--reps", args.reps, 2), ("--planted-reps", args.planted_reps, 2),
                               ("--games", args.games, 8), ("--planted-games", args.planted_games, 8),
                               ("--boards", args.boards, 2), ("--round", args.round, 8),
                               ("--drift-reps", args.drift_reps, 1)):
        if value < least:
            ap.error(f"{flag}: {value} is below {least}")
    for flag, value in (("--games", args.games), ("--planted-games", args.planted_games),
                        ("--round", args.round)):
        if value % 4:
            ap.error(f"{flag}: {value} is not a multiple of 4 (duplicate blocks)")
    t0 = time.perf_counter()
    machine = (f"{_cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    results = {"machine": machine, "args": {k: str(v) for k, v in vars(args).items()}}

    def save(fair=None):  # after every part, so a long run leaves what it measured
        if fair is not None:
            results["fairness"] = fair
        results["seconds"] = time.perf_counter() - t0
        write_text(args.out, json.dumps(results, indent=1) + "\n")

    if not args.only_rarity:
        results["drift"] = [] if args.no_drift else drift_rows(args)
        save()
        fair = fairness_rows(args, save)
        _print(fair, results["drift"])
    results["rarity"] = rarity_rows(args)
    save()
    _print_rarity(results["rarity"])
    print(f"\n{time.perf_counter() - t0:.0f} s on {machine}")


if __name__ == "__main__":
    main()
