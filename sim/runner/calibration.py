"""Planted-truth calibration of the lab's verdicts with real games (issue #19, item 3).

Why: users act on the lab's intervals and verdicts, so each must do what it claims. Here the
truth is planted and the method is run many times: four teams of identical cards (every team's
chance is exactly 1/4 by symmetry: the null), or the same with one team's fifth card a copy made
stronger by a known factor (strong, medium, slight). Each replication has its own root seed, so
its own boards and dice, as a user's run would.

Measured per verdict: the coverage of the 95 % intervals and the z-spread (the SD of
(estimate - truth) / SE: 1 when the standard errors are right), the false-verdict rate (a null
called "unfair"), the detection rate and games needed for a planted team. Where the truth is not
known in closed form (the seat effect, a planted team's rate) it is the pooled estimate of all
other replications (leave-one-out), whose own error is a small fraction of one replication's.
:mod:`sim.analysis.planted` calibrates the drift gate's paired test the same way.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from scipy.stats import t as student_t

from sim.analysis.balance import seat_shares
from sim.analysis.fairness import UNFAIR, fairness_verdict, game_values
from sim.analysis.variance import duplicate_win_rates, seat_team_effects

from .fairness import fairness_experiment
from .tasks import build_arena, play_games

BASE_TEAM = ("Luffy", "Mario", "Thunder Fist Kid", "Petal Storm Girl", "Ember Knight")
# the planted team's fifth card: a copy of BASE_TEAM[-1], named to sort right after it, so that
# a fairness check, which plays each team's cards in name order, seats the copy where the other
# teams seat the card it copies (as "Planted Copy" it sat fourth of five in team 1 and the
# Ember Knight first in the others: team 1 won 0.54 +- 0.14 points more; the calibration
# audit of stop 81)
PLANTED = f"{BASE_TEAM[-1]} Planted Copy"
LEVELS = {"null": 1.0, "slight": 1.15, "medium": 1.4, "strong": 2.0}  # its max_health factor


@dataclass(frozen=True)
class Replications:
    """Per replication: each team's estimate, SE and t df (fixed games), the sequential verdict
    (status, games when it stopped, the team it named), the seat-rate estimates, and the games
    themselves."""

    rate: np.ndarray        # [reps, 4]
    se: np.ndarray          # [reps, 4]
    lower: np.ndarray       # [reps, 4] each team's 95 % interval, as the verdict takes it (Korn
    upper: np.ndarray       # [reps, 4] & Graubard's: variance.duplicate_win_rates)
    df: np.ndarray          # [reps]
    verdict: np.ndarray     # [reps] fair / unfair / open
    stopped: np.ndarray     # [reps] games played when the sequential check stopped
    favoured: np.ndarray    # [reps] team with the highest rate at the stop
    seat: np.ndarray        # [reps, 4]
    seat_se: np.ndarray     # [reps, 4]
    seat_lower: np.ndarray  # [reps, 4] the seat rates' intervals (Korn & Graubard's)
    seat_upper: np.ndarray  # [reps, 4]
    seat_share: np.ndarray  # [reps, 4] each seat's share of games won and its interval, as the
    share_lower: np.ndarray  # [reps, 4] balance lines print it (balance.seat_shares)
    share_upper: np.ndarray  # [reps, 4]
    outcomes: np.ndarray    # [reps, blocks, 4, 4] each duplicate block's game values (re-judged
    board: np.ndarray       # [reps, blocks]        by the tests under other settings)


def planted_cards(root: Path, factor: float, folder: Path) -> Path:
    """A copy of the card folder with :data:`PLANTED`: ``BASE_TEAM[-1]`` with max_health x factor."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in Path(root).iterdir():
        if path.is_file():
            (folder / path.name).write_bytes(path.read_bytes())
    csv = folder / "characters.csv"
    rows = csv.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    source = next(r for r in rows[1:] if r.split(",")[0] == BASE_TEAM[-1]).split(",")
    source[0] = PLANTED
    health = header.index("max_health")
    source[health] = str(max(1, round(int(source[health]) * factor)))
    csv.write_text("\n".join(rows + [",".join(source)]) + "\n", encoding="utf-8")
    return folder


def planted_teams(cards) -> SimpleNamespace:
    """Team 1 holds the planted copy; teams 2-4 the base team: identical cards at factor 1."""
    index = {n: i for i, n in enumerate(cards.names)}
    base = [index[n] for n in BASE_TEAM]
    teams = np.array([base[:-1] + [index[PLANTED]]] + [base] * 3, np.int64)
    return SimpleNamespace(cards=teams, names=("Planted", "Base 2", "Base 3", "Base 4"))


def _sequential(outcomes, board, round_blocks: int, alpha: float, tolerance: float):
    """The fairness check's own schedule on one replication's games: (status, games, favoured)."""
    n_blocks = outcomes.shape[0]
    looks = -(-n_blocks // round_blocks)
    verdict = None
    for stop in range(round_blocks, n_blocks + round_blocks, round_blocks):
        stop = min(stop, n_blocks)
        verdict = fairness_verdict(outcomes[:stop], tolerance=tolerance, alpha=alpha,
                                   max_looks=looks, clusters=board[:stop])
        if verdict.status != "open":
            break
    return verdict.status, verdict.games, int(np.argmax(verdict.rate))


def replicate(catalogue, teams, *, reps: int, games: int, boards: int, round_games: int,
              seed: int, alpha: float = 0.05, tolerance: float = 0.05, policy: str = "greedy",
              progress=None) -> Replications:
    """Play ``reps`` independent fairness checks of ``games`` games (fresh boards and dice each)."""
    seeds = np.random.SeedSequence(seed).generate_state(reps, np.uint32)
    out = {k: [] for k in Replications.__dataclass_fields__}
    for r, rep_seed in enumerate(seeds):
        exp = fairness_experiment(teams, policy, int(rep_seed), games, round_games, boards)
        cols = play_games(build_arena(catalogue, exp), 0, games)
        outcomes = game_values(cols["winner_team"]).reshape(-1, 4, 4)
        board = cols["board"][::4]  # each duplicate block's board: the cluster
        est = duplicate_win_rates(outcomes, clusters=board)
        status, stopped, favoured = _sequential(outcomes, board, round_games // 4, alpha,
                                                tolerance)
        seats = seat_team_effects(outcomes, clusters=board)
        seat_lower, seat_upper = seats.seat_interval()
        shares = seat_shares(cols["winner_seat"], cols["board"])
        for key, value in (("rate", est.rate), ("se", est.se), ("lower", est.lower),
                           ("upper", est.upper), ("df", est.df),
                           ("verdict", status), ("stopped", stopped), ("favoured", favoured),
                           ("seat", seats.seat_rate), ("seat_se", seats.seat_se),
                           ("seat_lower", seat_lower), ("seat_upper", seat_upper),
                           ("seat_share", [x.rate for x in shares]),
                           ("share_lower", [x.low for x in shares]),
                           ("share_upper", [x.high for x in shares]),
                           ("outcomes", outcomes), ("board", board)):
            out[key].append(value)
        if progress is not None:
            progress(r + 1, reps)
    return Replications(**{k: np.array(v) for k, v in out.items()})


def leave_one_out(values: np.ndarray) -> np.ndarray:
    """Each replication's truth: the mean of all the others (``values`` [reps, k])."""
    n = values.shape[0]
    return (values.sum(axis=0, keepdims=True) - values) / (n - 1)


def coverage(estimate, se, truth, df, confidence: float = 0.95) -> tuple[float, float]:
    """(share of t intervals covering the truth, SD of the z-scores (estimate - truth) / se)."""
    estimate, se, truth = np.asarray(estimate), np.asarray(se), np.asarray(truth)
    df = np.broadcast_to(np.asarray(df).reshape(-1, *([1] * (estimate.ndim - 1))), estimate.shape)
    t = student_t.ppf(0.5 + confidence / 2, np.maximum(df, 1))
    z = (estimate - truth) / se
    ok = np.isfinite(z)
    return float(np.mean(np.abs(z[ok]) <= t[ok])), float(np.std(z[ok], ddof=1))


def interval_coverage(lower, upper, truth) -> tuple[float, float, float]:
    """(share of intervals covering the truth, share missing above it, share missing below it):
    an interval that is not rate +- t se is judged by its ends, and by which side it misses on
    (a calibrated 95 % interval misses about 2.5 % on each side)."""
    lower, upper, truth = np.asarray(lower), np.asarray(upper), np.asarray(truth)
    above, below = np.mean(truth < lower), np.mean(truth > upper)
    return float(1 - above - below), float(above), float(below)


def with_planted(root: Path, factor: float, run):
    """``run(catalogue, teams)`` on a temporary card folder holding the planted card."""
    from sim.catalogue.loader import load_catalogue

    with tempfile.TemporaryDirectory(prefix="bwlab-planted-") as tmp:
        catalogue = load_catalogue(planted_cards(root, factor, Path(tmp) / "cards"))
        return run(catalogue, planted_teams(catalogue.cards))


def summary(reps: Replications, level: str, alpha: float) -> dict:
    """The calibration figures of one planted level (module doc)."""
    truth = (np.full_like(reps.rate, 0.25) if level == "null" else leave_one_out(reps.rate))
    _, spread = coverage(reps.rate, reps.se, truth, reps.df)
    cov, _, _ = interval_coverage(reps.lower, reps.upper, truth)
    seat_cov, seat_high, seat_low = interval_coverage(reps.seat_lower, reps.seat_upper,
                                                      leave_one_out(reps.seat))
    unfair = reps.verdict == UNFAIR
    caught = unfair & (reps.favoured == 0)
    return {"level": level, "replications": int(reps.rate.shape[0]),
            "truth_planted": float(np.mean(reps.rate[:, 0])), "coverage": cov,
            "z_spread": spread, "seat_coverage": seat_cov, "seat_missed_high": seat_high,
            "seat_missed_low": seat_low,
            "unfair_share": float(np.mean(unfair)), "detected": float(np.mean(caught)),
            "games_to_verdict": float(np.median(reps.stopped[unfair])) if unfair.any() else None,
            "alpha": alpha}


__all__ = ["BASE_TEAM", "LEVELS", "PLANTED", "Replications", "coverage", "interval_coverage",
           "leave_one_out", "planted_cards", "planted_teams", "replicate", "summary", "with_planted"]
