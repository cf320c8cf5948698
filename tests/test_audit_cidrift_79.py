"""The CI maintainer's audit of the drift gate (stop 79): the journey from an unchanged clone to
a card change, a rules change, --update, JUnit and hand-edited baselines. Each test is one defect
found; fast (stub games: synthetic winners, a 256-game private suite, or the baseline checks)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sim.catalogue.diagnostics import InputError
from sim.runner.drift_baseline_checks import validate_baseline
from tests._cli_kit import run
from tests._drift_kit import private_lab, recount_metrics

ROOT = Path(__file__).resolve().parents[1]


def _shipped() -> dict:
    return json.loads((ROOT / "reports" / "baseline.json").read_text(encoding="utf-8"))


def _problems(data) -> list[str]:
    try:
        validate_baseline(data, Path("baseline.json"))
    except InputError as exc:
        return [str(p) for p in exc.problems]
    return []


def test_a_drift_far_past_the_bar_is_not_shown_an_interval_reaching_the_other_way():
    """Mario's max_health 160 -> 320 on the shipped suite: `bwlab drift` printed
    "example: Pixel Party 42.8 -> 34.5  -62 (-78…+15)  -246.0/+63.4  4096  drift_down": a call
    with an LLR twelve times the bar, whose 95 % interval holds +15 Elo (an increase). The same
    on synthetic games: drift_down at -52 Elo (fixed interval -63…-41, LLR down 37.7 against the
    bar 5.02), given the call -68…+13."""
    from sim.analysis.called_interval import called_elo_intervals
    from sim.analysis.fairness import game_values
    from sim.analysis.paired import DRIFT_DOWN, paired_drift
    from sim.analysis.ratings import ELO_PER_NAT
    from sim.analysis.sequential import wald_bounds
    from sim.analysis.stopped_interval import GateRule

    rng = np.random.default_rng(1)
    n = 4096
    board = (np.arange(n) // 4) % 128
    p = np.array([0.271, 0.154, 0.428, 0.147])
    pa = np.array([0.399, 0.133, 0.345, 0.123])
    q = 2 * pa - p  # half the games re-dealt from q: the marginal moves from p to pa
    before = rng.choice(4, n, p=p / p.sum())
    after = np.where(rng.random(n) < 0.5, rng.choice(4, n, p=q / q.sum()), before)
    x, y = game_values(before), game_values(after)
    alpha = 0.05 / 4
    test = paired_drift(x[:, 2], y[:, 2], board, delta_elo=70, alpha=alpha, beta=0.05)
    assert test.decision == DRIFT_DOWN and test.llr_down > 5 * test.bounds[1]
    assert test.elo_interval[1] < 0
    rule = GateRule(np.arange(1024, 4097, 128), 70 / ELO_PER_NAT, wald_bounds(alpha / 2, 0.05))
    given = called_elo_intervals(x, y, board, rule, [True, False, True, False])
    assert given[2][1] < 0, given[2]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """Private cards, a 64..256-game suite and its baseline (as tests/test_drift_messages.py)."""
    return private_lab(tmp_path_factory.mktemp("cidrift"),
                       {"max_games = 4096": "max_games = 256", "min_games = 1024":
                        "min_games = 64", "round = 128": "round = 64"})


def test_recorded_games_that_do_not_replay_are_said_when_they_should(capsys, small, tmp_path):
    """The docs promise an unchanged lab replays its baseline exactly on any machine (stop 59
    found a machine where 12 of 1,024 games did not, under a gate that said "No drift"). The
    gate still does not look: one recorded winner changed by hand (or re-dealt by another
    machine) and `bwlab drift` prints "same cards, same engine: the baseline's games should
    replay exactly.", Pixel Party "+1 (-1…+2)", Toon Squad "-1 (-4…+1)", "No drift" (exit 0),
    with nothing saying that a game did not replay."""
    cards, suite, baseline = small
    data = json.loads(baseline.read_text(encoding="utf-8"))
    winners = data["matchups"]["example"]["winners"]
    edited_winners = ("3" if winners[0] != "3" else "1") + winners[1:]
    data["matchups"]["example"]["winners"] = edited_winners
    # its recorded rates as the machine that dealt it otherwise wrote them (they are checked
    # against the winners since stop 80)
    recount_metrics(data, "example", len(edited_winners))
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "drift", "--cards", cards, "--suite", suite, "--baseline",
                         edited, "--quiet")
    assert code == 0, err
    assert "But 1 of 128 games of example did not replay the recorded ones" in out, out


def test_a_combat_table_that_is_not_a_distribution_is_bad_input_not_drift():
    """docs/drift.md: a corrupted baseline is "bad input (exit 2, one line per problem), never a
    pass and never drift". A baseline whose first combat pmf is [0.5] * 7 (sum 3.5) passes
    `bwlab validate --baseline` ("also ok") and `bwlab drift` calls it drift (exit 1); a pmf
    edited so it no longer matches its own mean reads "Drift: 1 combat table(s) changed" over
    the line "tier 1, 1 attacks vs defense 0: D6 -> D6, mean 2.9167 -> 2.9167, hit chance
    0.8333 -> 0.8333", a change that shows none."""
    data = _shipped()
    key = next(iter(data["combat"]))
    data["combat"][key]["pmf"] = [0.5] * 7
    assert _problems(data), "a pmf summing to 3.5 was accepted"
    data = _shipped()
    pmf = data["combat"][key]["pmf"]
    pmf[0] += 0.01
    pmf[1] -= 0.01  # still sums to 1; its mean is no longer the recorded 2.9167
    assert _problems(data), "a pmf that disagrees with its recorded mean was accepted"


def test_hand_edited_win_rates_are_checked_against_the_recorded_games():
    """docs/drift.md: `metrics` is "each team's win rate over the recorded games ... checked for
    sanity". A baseline whose Straw Hats rate reads 0.9 (its 4,096 recorded games give 0.2708),
    or whose Straw Hats entry is removed, was accepted by `bwlab validate --baseline` and by
    `bwlab drift` (exit 0) without a word (left open at stop 79). Since stop 80 each
    matchup's four rates are checked, as a set, against its recorded winners."""
    data = _shipped()
    data["metrics"]["example: Straw Hats"]["rate"] = 0.9
    assert _problems(data), "a rate the recorded winners do not give was accepted"
    data = _shipped()
    data["metrics"].pop("example: Straw Hats")
    assert _problems(data), "a baseline without one team's win rate was accepted"
