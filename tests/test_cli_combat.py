"""``bwlab combat`` and ``bwlab demo`` end to end: outputs, JSON contract, bad input -> exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.cli.main import main
from sim.combat.exact import damage_distribution


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_combat_exact_json_contract(capsys, rules):
    """The JSON has mean, variance, die, p_hit and pmf indexed by damage (book example 8² vs 4)."""
    code, out, _ = run(capsys, "combat", "--attacks", "8", "--tier", "2", "--defense", "4",
                       "--exact", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["die"] == 12 and data["p_hit"] == pytest.approx(0.5)
    assert data["mean"] == pytest.approx(26.0)
    np.testing.assert_allclose(data["pmf"], damage_distribution(8, 4, 2, rules).pmf)
    assert len(data["pmf"]) == 8 * 12 + 1


def test_combat_samples_histogram_is_seeded(capsys):
    """--samples N --seed S: a histogram of counts indexed like the pmf; same seed, same counts."""
    args = ("combat", "--attacks", "5", "--tier", "3", "--defense", "2", "--samples", "20000",
            "--seed", "9", "--advantage", "--format", "json")
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args)
    a, b = json.loads(first), json.loads(second)
    assert a["histogram"] == b["histogram"]
    assert sum(a["histogram"]) == 20000 and len(a["histogram"]) == 5 * 20 + 1
    assert a["mean"] == pytest.approx(np.dot(np.arange(101), a["histogram"]) / 20000)


def test_card_form_picks_colour_and_kill_probability(capsys, catalogue):
    """"Red is used at 50 percent health or lower": exactly half of Luffy's health is red, one
    more is base (the boundary the red star's ``<=`` decides)."""
    cards = catalogue.cards
    luffy = cards.find("Luffy")
    half = int(cards.max_health[luffy]) // 2
    assert 2 * half == cards.max_health[luffy]  # an even health: half is exactly 50 %
    code, out, _ = run(capsys, "combat", "Luffy", "Mario", "--attacker-health", str(half + 1),
                       "--format", "json")
    assert code == 0 and json.loads(out)["colour"] == "base"
    code, out, _ = run(capsys, "combat", "Luffy", "Mario", "--attacker-health", str(half),
                       "--defender-health", "20", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["colour"] == "red"
    assert data["attacks"] == cards.attacks[luffy, 1] and data["tier"] == cards.tier[luffy, 1]
    dist = damage_distribution(data["attacks"], 4, data["tier"], catalogue.rules)
    assert data["kill_probability"] == pytest.approx(dist.p_at_least(20))


def test_card_form_table(capsys):
    code, out, _ = run(capsys, "combat", "Luffy", "Mario", "--attacker-homefield")
    assert code == 0
    assert "star colour       green" in out and "kill probability" in out


@pytest.mark.parametrize("args,needle", [
    (("combat", "Lufy", "Mario"), "did you mean Luffy"),
    (("combat", "--attacks", "8", "--tier", "5", "--defense", "4"), "--tier"),
    (("combat", "--attacks", "8", "--tier", "2", "--defense", "10"), "maximum defense"),
    (("combat", "--attacks", "8", "--tier", "2"), "--defense"),
    (("combat", "--attacks", "x", "--tier", "2", "--defense", "1"), "--attacks"),
    (("combat", "--attacks", "8", "--tier", "2", "--defense", "1", "--exact", "--samples", "5"),
     "exclude"),
    (("combat", "--attacks", "8", "--tier", "2", "--defense", "1", "--advantage",
      "--disadvantage"), "at most one"),
    (("combat", "Luffy"), "exactly two"),
    (("combat", "Luffy", "Mario", "--attacker-health", "9999"), "max health"),
])
def test_bad_input_exits_2_with_one_clear_line(capsys, args, needle):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err


def test_demo_writes_report_for_every_card(capsys, tmp_path, catalogue):
    """The main job: one row per shipped card with a mean per star colour, written atomically."""
    code, out, _ = run(capsys, "demo", "--out", str(tmp_path))
    assert code == 0
    import pandas as pd
    frame = pd.read_csv(tmp_path / "combat_report.csv")
    assert len(frame) == len(catalogue.cards)
    assert {f"{c}_mean" for c in ("base", "red", "blue", "green")} <= set(frame.columns)
    row = frame.set_index("card").loc["Luffy"]
    assert row["base_star"] == "8^2"
    assert not list(tmp_path.glob(".*.tmp"))
    assert "Written:" in out


def test_help_does_not_import_numba():
    """`bwlab --help` stays fast: sub-commands load lazily (checked in a fresh interpreter)."""
    import subprocess
    import sys
    code = ("import sys; from sim.cli.main import main; "
            "rc = main(['--help']); assert 'numba' not in sys.modules and 'pandas' not in sys.modules, "
            "sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'pandas'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "combat" in done.stdout


def test_actions_to_kill_matches_monte_carlo(rules):
    """The report's "actions to kill": the fewest attack actions whose summed damage reaches the
    defender's health with at least even odds, checked against 100,000 simulated sequences."""
    from sim.combat.sampler import sample_damage
    from sim.report.combat_report import actions_to_kill

    dist = damage_distribution(6, 4, 2, rules)
    health = 120
    k = actions_to_kill(dist.pmf, health)
    n = 100_000
    draws = np.stack([sample_damage(6, 4, 2, rules, seed=50 + j, n=n).damage for j in range(k)])
    totals = np.cumsum(draws, axis=0)
    assert (totals[k - 1] >= health).mean() >= 0.5 - 0.005
    assert (totals[k - 2] >= health).mean() < 0.5 + 0.005
    assert actions_to_kill(np.array([1.0]), health) == 201  # no damage: never
