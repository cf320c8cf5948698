"""The CI drift gate: re-run a fixed suite of matchups and test every win rate against a baseline.

Chess-engine testing's answer to "did this change move anything?": for each team of each matchup
a two-sided sequential test (two one-sided SPRTs at alpha/2, Wald bounds) of "win rate = baseline"
against "win rate = baseline ± delta", stopped as soon as every metric is decided or at the game
cap. Across metrics, Bonferroni splits alpha. The suite replays the baseline's fixed seeds
(duplicate play), so unchanged data reproduces the baseline's games exactly and passes; a change
shows up as games that differ. The exact combat tables are snapshotted too, so a change to the
dice rules is named directly rather than inferred from win rates.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.analysis.sequential import run_sprt
from sim.catalogue.diagnostics import InputError, Problems
from sim.catalogue.tomldoc import TomlDoc
from sim.combat.exact import damage_distribution

from .experiment import Experiment, load_experiment
from .tasks import build_arena, play_games

NO_DRIFT, DRIFT_UP, DRIFT_DOWN, OPEN = "no_drift", "drift_up", "drift_down", "inconclusive"
SNAPSHOT_ATTACKS = (1, 4, 8)


@dataclass(frozen=True)
class Suite:
    path: str
    delta: float
    alpha: float
    beta: float
    max_games: int
    round_games: int
    experiments: tuple[Experiment, ...]


def load_suite(path: Path, cards, policy_names) -> Suite:
    """``experiments/drift.toml``: the gate's bounds and the matchups it replays."""
    path = Path(path)
    problems = Problems()
    doc = TomlDoc.load(path, problems)
    if doc is None:
        problems.raise_if_any()
    doc.unknown_keys((), {"delta", "alpha", "beta", "max_games", "round", "experiments"})
    delta = doc.get(("delta",), float, lo=0.005, hi=0.5, fallback=0.08)
    alpha = doc.get(("alpha",), float, lo=1e-6, hi=0.5, fallback=0.05)
    beta = doc.get(("beta",), float, lo=1e-6, hi=0.5, fallback=0.05)
    max_games = doc.get(("max_games",), int, lo=8, fallback=2048)
    round_games = doc.get(("round",), int, lo=4, fallback=256)
    for key, value in (("max_games", max_games), ("round", round_games)):
        if value % 4:
            doc.add((key,), f"{value} is not a multiple of 4 (duplicate blocks)")
    files = doc.get(("experiments",), list, fallback=[])
    if not files:
        doc.add(("experiments",), "list at least one experiment file")
    experiments = []
    for rel in files:
        try:
            exp = load_experiment(path.parent / rel, cards, policy_names, games=max_games)
        except InputError as exc:  # keep collecting every problem of every file
            problems.extend(Problems(list(exc.problems)))
            continue
        if exp.teams is None or exp.seating != "duplicate":
            doc.add(("experiments",), f"{rel}: the gate replays fixed teams in duplicate seating")
        experiments.append(exp)
    problems.raise_if_any()
    return Suite(str(path), delta, alpha, beta, max_games, round_games, tuple(experiments))


def combat_snapshot(rules) -> dict[str, dict]:
    """Exact mean damage and hit chance for every tier and defense at a few attack counts."""
    out = {}
    for tier in range(1, rules.n_tiers + 1):
        for defense in range(rules.max_defense + 1):
            for attacks in SNAPSHOT_ATTACKS:
                d = damage_distribution(attacks, defense, tier, rules)
                out[f"tier {tier}, {attacks} attacks vs defense {defense}"] = {
                    "die": rules.faces(tier), "mean": round(d.mean, 9), "p_hit": round(d.p_hit, 9),
                    "pmf_sha256": hashlib.sha256(np.round(d.pmf, 12).tobytes()).hexdigest()[:16]}
    return out


def combat_changes(old: dict, new: dict) -> list[str]:
    changes = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a != b:
            if a is None or b is None:
                changes.append(f"{key}: {'added' if a is None else 'removed'}")
            else:
                changes.append(f"{key}: D{a.get('die', '?')} -> D{b.get('die', '?')}, mean "
                               f"{a['mean']:.4f} -> {b['mean']:.4f}, hit chance "
                               f"{a['p_hit']:.4f} -> {b['p_hit']:.4f}")
    return changes


def team_wins(catalogue, exp: Experiment, games: int, round_games: int, until=None):
    """Win indicators ``[games, 4]`` of the experiment's teams, played in rounds (duplicate)."""
    arena = build_arena(catalogue, exp)
    rows = []
    played = 0
    while played < games:
        stop = min(games, played + round_games)
        winner = play_games(arena, played, stop)["winner_team"]
        rows.append((winner[:, None] == np.arange(4)[None, :]).astype(float))
        played = stop
        if until is not None and until(np.concatenate(rows)):
            break
    return np.concatenate(rows)


def decide(wins: np.ndarray, baseline: float, delta: float, alpha: float, beta: float):
    """Two one-sided SPRTs on one metric's win indicators: (decision, games used, llr up, down)."""
    lo, hi = 1e-6, 1 - 1e-6
    results = {}
    for side, p1 in (("up", baseline + delta), ("down", baseline - delta)):
        if lo < p1 < hi and lo < baseline < hi:
            results[side] = run_sprt(wins, p0=baseline, p1=p1, alpha=alpha / 2, beta=beta,
                                     method="bernoulli")
    alarms = {s: int(r.stopped_at) for s, r in results.items() if r.decision == "accept_h1"}
    llr = {s: float(results[s].llr) if s in results else 0.0 for s in ("up", "down")}
    if alarms:
        side = min(alarms, key=alarms.get)
        return (DRIFT_UP if side == "up" else DRIFT_DOWN), alarms[side], llr["up"], llr["down"]
    if all(r.decision == "accept_h0" for r in results.values()):
        used = max(int(r.stopped_at) for r in results.values()) if results else len(wins)
        return NO_DRIFT, used, llr["up"], llr["down"]
    return OPEN, len(wins), llr["up"], llr["down"]


def metric_name(exp: Experiment, k: int) -> str:
    return f"{exp.name}: {exp.team_names[k]}"


@dataclass(frozen=True)
class MetricResult:
    name: str
    baseline: float
    current: float
    games: int
    decision: str
    llr_up: float
    llr_down: float


@dataclass(frozen=True)
class GateResult:
    metrics: tuple[MetricResult, ...]
    combat: tuple[str, ...]       # combat table entries that changed
    alpha_per_metric: float

    @property
    def exit_code(self) -> int:
        """0 no drift, 1 significant drift (or changed combat tables), 3 inconclusive at the cap."""
        if self.combat or any(m.decision in (DRIFT_UP, DRIFT_DOWN) for m in self.metrics):
            return 1
        if any(m.decision == OPEN for m in self.metrics):
            return 3
        return 0


def make_baseline(catalogue, suite: Suite, cards_digest: dict) -> dict:
    """Play every matchup to the cap and record each team's win rate and the combat tables."""
    metrics = {}
    for exp in suite.experiments:
        wins = team_wins(catalogue, exp, suite.max_games, suite.round_games)
        for k in range(4):
            metrics[metric_name(exp, k)] = {"rate": float(wins[:, k].mean()), "games": len(wins)}
    return {"suite": suite.path, "delta": suite.delta, "alpha": suite.alpha, "beta": suite.beta,
            "metrics": metrics, "combat": combat_snapshot(catalogue.rules), "cards": cards_digest}


def run_gate(catalogue, suite: Suite, baseline: dict) -> GateResult:
    """Replay the suite and test every metric against ``baseline`` (Bonferroni over metrics)."""
    m = 4 * len(suite.experiments)
    alpha = suite.alpha / m
    results = []
    for exp in suite.experiments:
        names = [metric_name(exp, k) for k in range(4)]
        base = []
        for name in names:
            entry = baseline["metrics"].get(name)
            n = max(int(entry["games"]), 1) if entry else 1
            rate = entry["rate"] if entry else 0.25
            base.append(min(max(rate, 0.5 / n), 1 - 0.5 / n))  # a rate of 0 or 1 is not testable

        def settled(wins, base=base):
            return all(decide(wins[:, k], base[k], suite.delta, alpha, suite.beta)[0] != OPEN
                       for k in range(4))

        wins = team_wins(catalogue, exp, suite.max_games, suite.round_games, until=settled)
        for k, name in enumerate(names):
            decision, used, up, down = decide(wins[:, k], base[k], suite.delta, alpha, suite.beta)
            if name not in baseline["metrics"]:
                decision = OPEN
            results.append(MetricResult(name, base[k], float(wins[:used, k].mean()), used,
                                        decision, up, down))
    changes = combat_changes(baseline.get("combat", {}), combat_snapshot(catalogue.rules))
    return GateResult(tuple(results), tuple(changes), alpha)


def junit_xml(result: GateResult) -> str:
    """JUnit XML for CI systems: one test case per metric plus one for the combat tables."""
    from xml.sax.saxutils import escape, quoteattr

    cases = []
    for m in result.metrics:
        body = ""
        if m.decision in (DRIFT_UP, DRIFT_DOWN):
            body = (f"<failure message={quoteattr(m.decision)}>{escape(m.name)}: "
                    f"{m.baseline:.4f} -> {m.current:.4f} after {m.games} games</failure>")
        elif m.decision == OPEN:
            body = f"<skipped message={quoteattr('inconclusive at the game cap')}/>"
        cases.append(f"<testcase classname='drift' name={quoteattr(m.name)}>{body}</testcase>")
    combat = ""
    if result.combat:
        combat = (f"<failure message='exact combat tables changed'>"
                  f"{escape(chr(10).join(result.combat))}</failure>")
    cases.append(f"<testcase classname='drift' name='combat tables'>{combat}</testcase>")
    failures = sum("<failure" in c for c in cases)
    skipped = sum("<skipped" in c for c in cases)
    return (f"<?xml version='1.0' encoding='utf-8'?>\n<testsuite name='bwlab-drift' "
            f"tests='{len(cases)}' failures='{failures}' skipped='{skipped}'>\n"
            + "\n".join(cases) + "\n</testsuite>\n")
