"""Standard errors of the peer games' Monte Carlo (``bwlab combat --system NAME --samples N`` and
``compare-systems --samples``), calibrated against a planted truth: the exact distribution.

Calibration: R = 200 independent runs (seeds 0..199) of N = 2,000 attacks each; a run covers the
truth when ``|estimate - exact| <= 1.96 se``. A correct se covers in 95 % of runs, so the count is
Binomial(200, 0.95) (the seeds' streams are independent); the test rejects at a two-sided exact
binomial p < ALPHA = 0.01. Checked: the mean, the kill probability (for the Arena case this is
also the P(damage >= 60) row of the table) and the variance.

Power (``test_halved_standard_errors_fail_the_calibration``): a halved se covers only
P(|Z| <= 0.98) = 67 % of runs, about 135 of 200 (measured 134-139), where the test accepts
183-197: two-sided p < 1e-30, so it fails with certainty. Even 0.75 se (P(|Z| <= 1.47) = 86 %,
measured 163-170 of 200) gives p < 1e-7.
"""

from __future__ import annotations

import csv
import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sstats

from sim.catalogue.loader import load_rules_only
from sim.catalogue.peers import load_peers
from sim.runner.calculator_eval import moment_standard_errors, peer_standard_errors
from sim.cli.compare import compare_rows
from sim.cli.main import main
from sim.combat.peers.registry import SYSTEMS, describe, stats_for

CARDS = Path(__file__).resolve().parents[1] / "cards"
RUNS, N, ALPHA, Z95 = 200, 2_000, 0.01, 1.96
# kill probability 0.425 (damage >= 60 of 30/47/50/67/70) and 0.671 (a wounded defender's duel)
CASES = {
    "arena": {"strikes": 2, "defense": 12, "damage": 35, "miss_damage": 15, "overlord": 1,
              "health": 60},
    "dungeon_twister": {"attackers": [1], "defenders": [4], "defender_wounded": 1, "combats": 3},
}
ESTIMATES = (("mean", "mean_se"), ("kill_probability", "kill_probability_se"),
             ("variance", "variance_se"))


@lru_cache(maxsize=None)
def _runs(system: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{estimate: (|estimate - exact| per run, se per run)} over RUNS seeded runs, from the very
    functions ``bwlab combat --system`` calls (``describe``, then ``peer_standard_errors``)."""
    peers = load_peers(CARDS)
    rules = getattr(peers, system)
    st = stats_for(system, peers.examples[system], CASES[system], peers, None)
    dist = SYSTEMS[system].exact(st, rules)
    assert 0.3 < dist.kill_probability < 0.7  # a kill chance far from 0 and 1
    errors = {k: [] for k, _ in ESTIMATES}
    ses = {k: [] for k, _ in ESTIMATES}
    for seed in range(RUNS):
        r = peer_standard_errors(describe(system, st, rules, N, seed), dist)
        for key, se_key in ESTIMATES:
            errors[key].append(abs(r[key] - r["exact"][key]))
            ses[key].append(r[se_key])
    return {k: (np.array(errors[k]), np.array(ses[k])) for k in errors}


def _covered(system: str, key: str, scale: float = 1.0) -> int:
    err, se = _runs(system)[key]
    return int(np.sum(err <= Z95 * scale * se))


@pytest.mark.parametrize("system", list(CASES))
@pytest.mark.parametrize("key", [k for k, _ in ESTIMATES])
def test_standard_errors_cover_the_exact_value_95_percent(system, key):
    """Planted truth: the 1.96-se interval holds the exact value in 95 % of 200 runs (binomial
    test, two-sided p > 0.01, which accepts 183-197 of 200). Measured: arena mean 191, kill 184,
    variance 186; dungeon_twister mean and kill 186 (its damage is 0/1: one event), variance 188;
    over 4,000 runs 94.4-95.5 % for each."""
    covered = _covered(system, key)
    assert sstats.binomtest(covered, RUNS, 0.95).pvalue > ALPHA, (system, key, covered)


@pytest.mark.parametrize("system", list(CASES))
@pytest.mark.parametrize("key", ["mean", "kill_probability"])
def test_halved_standard_errors_fail_the_calibration(system, key):
    """The calibration has power: the same runs with every se halved are rejected."""
    covered = _covered(system, key, scale=0.5)
    assert sstats.binomtest(covered, RUNS, 0.95).pvalue < ALPHA, (system, key, covered)


def test_moment_standard_errors_by_hand():
    """Two-point damage 0/10 at 1/4 from 4 draws: mean 2.5, var 18.75, m4 = 1 / 4 * 7.5**4 + 3 / 4
    * 2.5**4; se_var = sqrt((n-1)**2/n**3 (m4 - (n-3)/(n-1) var**2)); sd by the delta method."""
    m = moment_standard_errors([3] + [0] * 9 + [1])
    n, var = 4, 18.75
    m4 = (7.5**4 + 3 * 2.5**4) / 4
    assert m["mean"] == 2.5 and m["variance"] == pytest.approx(var)
    assert m["mean_se"] == pytest.approx((var / n) ** 0.5)
    se_var = ((n - 1) ** 2 / n**3 * (m4 - (n - 3) / (n - 1) * var**2)) ** 0.5
    assert m["variance_se"] == pytest.approx(se_var)
    assert m["sd_se"] == pytest.approx(se_var / (2 * var**0.5))
    assert moment_standard_errors([0, 0, 5]) == {"mean": 2.0, "mean_se": 0.0, "variance": 0.0,
                                                  "variance_se": 0.0, "sd": 0.0, "sd_se": 0.0}


def _run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


ARENA = ("combat", "--system", "arena", "--stat", "overlord=1", "--samples", "20000",
         "--seed", "1")


def test_combat_system_json_keeps_its_keys_and_adds_se_and_exact(capsys):
    """Every key ``describe`` returned is still there with its value; beside it ``*_se``, the
    exact values (``exact``) and the exactly / at least / at most table with standard errors."""
    data = json.loads(_run(capsys, *ARENA, "--format", "json"))
    peers = load_peers(CARDS)
    st = stats_for("arena", peers.examples["arena"], {"overlord": 1}, peers, None)
    plain = json.loads(json.dumps(describe("arena", st, peers.arena, 20000, 1)))
    assert {k: data[k] for k in plain} == plain
    dist = SYSTEMS["arena"].exact(st, peers.arena)
    assert data["exact"]["mean"] == pytest.approx(dist.mean)
    assert data["exact"]["variance"] == pytest.approx(dist.variance)
    assert data["exact"]["kill_probability"] == dist.kill_probability
    assert data["mean_se"] == pytest.approx((data["variance"] / 20000) ** 0.5)
    assert data["variance_se"] > 0 and data["sd"] == pytest.approx(data["variance"] ** 0.5)
    t = data["table"]
    p = np.array(t["at_least"])
    shrunk = (p * 20000 + 2) / 20004  # Agresti & Coull's (sim/runner/calculator_eval.py)
    want = np.sqrt(shrunk * (1 - shrunk) / 20004)
    want[0] = 0.0  # P(D >= 0) is 1 by construction
    np.testing.assert_allclose(t["at_least_se"], want)
    np.testing.assert_allclose(data["exact"]["at_least"][:len(p)],
                               [dist.p_at_least(h) for h in range(len(p))], atol=1e-12)
    for key, se_key in (("mean", "mean_se"), ("variance", "variance_se")):  # a sanity bound
        assert abs(data[key] - data["exact"][key]) <= 5 * data[se_key]


def test_combat_system_text_prints_value_se_and_exact(capsys):
    """``26.01 ± 0.01`` and the exact value beside every Monte Carlo number, P(damage >= h) too."""
    out = _run(capsys, *ARENA)
    lines = out.splitlines()
    assert "Monte Carlo, 20,000 samples, seed 1" in lines[0]
    for name in ("mean", "variance", "std dev", "kill"):
        line = next(x for x in lines if x.startswith(f"  {name} "))
        assert " ± " in line and " exact " in line, line
    rows = [x for x in lines if x.strip().split(" ")[0].isdigit()]
    assert rows and all(" ± " in x and len(x.split()) == 5 for x in rows)  # h, p ± se, exact
    assert "± is one standard error" in out


def test_combat_system_csv_adds_se_columns_only_when_sampled(capsys):
    sampled = list(csv.DictReader(_run(capsys, *ARENA, "--format", "csv").splitlines()))
    assert list(sampled[0]) == ["damage", "exactly", "at_least", "at_most", "exactly_se",
                                "at_least_se", "at_most_se"]
    p = float(sampled[35]["at_least"])
    shrunk = (p * 20000 + 2) / 20004  # Agresti & Coull's
    assert float(sampled[35]["at_least_se"]) == pytest.approx((shrunk * (1 - shrunk) / 20004) ** 0.5)
    exact = _run(capsys, "combat", "--system", "arena", "--format", "csv")
    assert exact.splitlines()[0] == "damage,exactly,at_least,at_most"


def test_compare_systems_mc_columns_carry_standard_errors():
    """``mc_mean_fraction_se`` and ``mc_variance_fraction_se`` beside the estimates; each estimate
    within 5 of its standard errors of the exact value (false alarm 2 Phi(-5) = 6e-7 a row)."""
    peers, bw_rules = load_peers(CARDS), load_rules_only(CARDS)
    rows, _ = compare_rows(peers, bw_rules, list(peers.compare), samples=N, seed=3)
    for r in rows:
        assert r["mc_mean_fraction_se"] == pytest.approx((r["mc_variance_fraction"] / N) ** 0.5)
        for key in ("mean_fraction", "variance_fraction"):
            se = r[f"mc_{key}_se"]
            assert se > 0 and abs(r[f"mc_{key}"] - r[key]) <= 5 * se, (r["system"], key)
