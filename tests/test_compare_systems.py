"""``bwlab compare-systems``: the luck share is the law-of-total-variance split it claims to be,
the table matches the exact pmfs, the files are written, bad input exits 2."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from sim.catalogue.loader import load_rules_only
from sim.catalogue.peers import load_peers
from sim.cli.compare import compare_rows, luck_share
from sim.cli.main import main
from sim.combat.peers.registry import SYSTEMS, rules_for
from tests._peers_kit import cards_with

CARDS = Path(__file__).resolve().parents[1] / "cards"


@pytest.fixture(scope="module")
def peers():
    return load_peers(CARDS)


@pytest.fixture(scope="module")
def bw_rules():
    return load_rules_only(CARDS)


def test_luck_share_is_within_variance_over_total_variance_of_the_mixture(peers, bw_rules):
    """Var(Y) = E[Var(Y|S)] + Var(E[Y|S]): the luck share's denominator equals the variance of
    Y computed directly from the mixture pmf (levels equally likely), for every system."""
    rows, _ = compare_rows(peers, bw_rules, list(peers.compare))
    for system in peers.compare:
        rules = rules_for(system, peers, bw_rules)
        ys, ws = [], []
        for stats in peers.compare[system]:
            dist = SYSTEMS[system].exact(stats, rules)
            ys.append(np.arange(dist.pmf.size) / dist.health)
            ws.append(dist.pmf / len(peers.compare[system]))
        y, w = np.concatenate(ys), np.concatenate(ws)
        total = np.dot(w, y * y) - np.dot(w, y) ** 2
        mine = [r for r in rows if r["system"] == system]
        within = np.mean([r["variance_fraction"] for r in mine])
        assert mine[0]["luck_share"] == pytest.approx(within / total, rel=1e-9)
        assert 0.0 < mine[0]["luck_share"] <= 1.0


def test_luck_share_bounds():
    """1 when the stat levels do not move the mean; 0 when the dice never vary the outcome."""
    assert luck_share(np.array([0.3, 0.3]), np.array([0.01, 0.02])) == 1.0
    assert luck_share(np.array([0.1, 0.5]), np.array([0.0, 0.0])) == 0.0
    assert luck_share(np.array([0.1, 0.3]), np.array([0.01, 0.01])) == pytest.approx(0.01 / 0.02)


def test_rows_match_the_exact_tables(peers, bw_rules):
    """Each row reads off its own exact pmf: Board Wars "even" is the book's 8 attacks of D12
    against defense 4 ("more than your defense stat plus 2"): p_hit 1/2, mean 26."""
    rows, curves = compare_rows(peers, bw_rules, ["boardwars", "arena"])
    even = next(r for r in rows if r["system"] == "boardwars" and r["level"] == "even")
    assert even["p_success"] == pytest.approx(0.5)
    assert even["mean_damage"] == pytest.approx(26.0)
    assert even["mean_fraction"] == pytest.approx(26.0 / even["health"])
    arena_even = next(r for r in rows if r["system"] == "arena" and r["level"] == "even")
    # one strike of 12 at d20 >= 11: Bernoulli(1/2) times 12/50
    assert arena_even["variance_fraction"] == pytest.approx(0.25 * (12 / 50) ** 2)
    assert all(np.all(np.diff(c) <= 1e-12) for cs in curves.values() for c in cs)  # survival


def test_cli_writes_csv_and_png_and_is_reproducible(tmp_path, capsys):
    """The CSV and the figure are written, the same seed gives the same table, and every
    Monte Carlo mean (2,000 samples) lies within 5 standard errors of its exact mean.

    Power against the mutation it exists to catch, a hit threshold off by one face in a
    sampler: on the Board Wars rows (8 attacks of D12 at defense 7, 4, 1; health 100) one face
    moves the mean by 0.0433 of health against standard errors of 0.0021-0.0026, z = 16.7-20.8,
    so the 5-SE check fails with probability 1 - Phi(5 - 16.7) > 0.9999 on each row. Its false
    alarms: 12 rows x 2 Phi(-5) = 7e-6 per run."""
    out = tmp_path / "cmp"
    args = ["compare-systems", "--out", str(out), "--samples", "2000", "--seed", "3"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "luck_share" in printed and "dungeon_twister" in printed
    # README: "--samples 100000  # also mc_* columns, each with its standard error"; the table
    # printed showed none of them, only the CSV held them (the audit of 2026-12-05)
    assert " mc_mean_fraction " in printed and " mc_mean_fraction_se" in printed
    first = (out / "compare_systems.csv").read_bytes()
    png = (out / "compare_systems.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in out.iterdir()) == ["compare_systems.csv", "compare_systems.png"]
    assert main(args) == 0
    assert (out / "compare_systems.csv").read_bytes() == first  # same seed, same table
    rows = list(csv.DictReader(first.decode().splitlines()))
    assert {r["system"] for r in rows} == set(SYSTEMS) and len(rows) == 4 * 3
    for r in rows:  # the Monte Carlo check sits beside the exact mean
        se = (float(r["variance_fraction"]) / 2000) ** 0.5
        assert abs(float(r["mc_mean_fraction"]) - float(r["mean_fraction"])) <= 5 * se + 1e-12


@pytest.mark.parametrize("old,new,needle", [
    ("defense = [7, 4, 1]", "defense = [12, 4, 1]", "above the maximum defense 9"),
    ("levels = [", "levls = [", "compare.levls: unknown key"),
    ("defense = [16, 11, 6]", 'defense = [16, 11, "x"]',
     "expected an integer, got 'x' (level 3)"),
])
def test_bad_compare_levels_exit_2_with_file_and_line(tmp_path, capsys, old, new, needle):
    root = cards_with(tmp_path, old, new)
    code = main(["compare-systems", "--cards-dir", str(root), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and "Traceback" not in err
    line = next(x for x in err.splitlines() if needle in x)
    assert line.startswith(f"error: {root / 'peers.toml'}:")
    assert not (tmp_path / "o").exists()


def test_unknown_system_exits_2(tmp_path, capsys):
    code = main(["compare-systems", "--system", "chess", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "--system" in err and "Traceback" not in err


def test_the_figure_keeps_its_legend_off_the_curves_and_its_text_legible(peers, bw_rules):
    """Issue #23 item 5: "the compare-systems figure legible (legends outside the curves)": the
    legend's box overlaps none of the three panels, and no text is under 9 pt."""
    from matplotlib.text import Text

    from sim.cli.compare import plot
    from sim.combat.peers.registry import SYSTEMS
    from sim.report.plots import MIN_PT, plt

    systems = list(SYSTEMS)
    rows, curves = compare_rows(peers, bw_rules, systems)
    fig = plot(rows, curves, list(peers.levels), {s: SYSTEMS[s].title for s in systems})
    try:
        renderer = fig.canvas.get_renderer()
        assert len(fig.legends) == 1
        legend = fig.legends[0].get_window_extent(renderer)
        assert all(not legend.overlaps(ax.get_window_extent(renderer)) for ax in fig.axes)
        texts = [t for t in fig.findobj(Text) if t.get_text() and t.get_visible()]
        assert min(t.get_fontsize() for t in texts) >= MIN_PT
    finally:
        plt.close(fig)


def test_monte_carlo_seeds_share_no_stream_across_seeds_systems_and_levels(peers):
    """``--seed s`` and ``--seed s+1`` once replayed each other's dice one level apart (level i
    drew from ``seed + i``) and every system at a level drew from one seed
    (docs/power-levels-audit.md).
    Now each (seed, system, level) has a seed of its own: 40 root seeds x every system x 5
    levels give as many distinct seeds, none of them equal to another root's; the old rule
    gives 44 distinct of the 40 x 5 (seed, level) pairs, so the test can fail."""
    from sim.cli.compare import level_seed

    systems = list(peers.compare)
    got = {(s, name, i): level_seed(s, name, i)
           for s in range(40) for name in systems for i in range(5)}
    assert len(set(got.values())) == len(got)
    assert all(0 <= v < 2 ** 63 for v in got.values())
    assert level_seed(3, systems[0], 1) != level_seed(4, systems[0], 0)
    assert len({s + i for s in range(40) for i in range(5)}) == 44   # the old rule's overlap
    assert level_seed(7, systems[0], 2) == level_seed(7, systems[0], 2)  # reproducible
