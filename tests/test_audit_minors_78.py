"""Stop 78: findings of stop 77's audits that were left open, each checked here."""

from __future__ import annotations

import numpy as np


def _bar_half_widths(ax) -> np.ndarray:
    """The half-widths of the vertical error bars drawn on ``ax`` (matplotlib's LineCollection
    of an errorbar: one segment per point, from value - err to value + err)."""
    from matplotlib.collections import LineCollection

    halves = [abs(seg[1][1] - seg[0][1]) / 2 for c in ax.collections
              if isinstance(c, LineCollection) for seg in c.get_segments()]
    return np.asarray(halves)


def test_every_monte_carlo_bar_of_the_combat_pictures_is_a_95_percent_interval(catalogue):
    """The combat pictures draw Monte Carlo values "with their standard errors": the audit found
    the pmf bars and the expected-damage bars at 1 SE beside at-least bands and kill bars at
    1.96 SE, with nothing on the figure saying which. Every bar is now 1.96 SE (a 95 % interval),
    and the title says so."""
    from sim.report.calculator_plots import distribution_figure, sweep_figure
    from sim.runner.calculator import parse_sweep, stat_profile
    from sim.runner.calculator_eval import calculate

    a = stat_profile(catalogue.rules, catalogue, 8, 2, 4, 40)
    result = calculate([a], catalogue, parse_sweep("defense=0..4", "stat"), samples=4000, seed=1)
    pmf = distribution_figure(result["profiles"])
    se = np.asarray(result["profiles"][0]["table"]["exactly_se"])
    drawn = _bar_half_widths(pmf.axes[0])
    assert drawn.size == se.size and np.allclose(drawn, 1.96 * se, rtol=1e-3, atol=1e-12)
    sweep = sweep_figure(result)
    rows = result["sweep"]["series"][0]["rows"]
    left, right = (_bar_half_widths(ax) for ax in sweep.axes[:2])
    assert np.allclose(left, 1.96 * np.array([r["mean_se"] for r in rows]), rtol=1e-3)
    assert np.allclose(right, 1.96 * np.array([r["kill_probability_se"] for r in rows]),
                       rtol=1e-3)
    for fig in (pmf, sweep):
        assert "95 %" in fig._suptitle.get_text()
