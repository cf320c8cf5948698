"""Audit of the combat calculator (stop 77): defects found by checking it against the book."""

from __future__ import annotations


def test_the_dotted_health_line_is_inside_the_at_least_panel(catalogue):
    """README: "the dotted line is the defender's health"; the panel's title says so too. With
    the stat form's default health (the median card's, 165) the README's own `--vs` example
    plotted damages up to ~100 only, so the line at 165 was drawn off the axes."""
    from matplotlib.lines import Line2D

    from sim.report.calculator_plots import distribution_figure
    from sim.runner.calculator import stat_profile
    from sim.runner.calculator_eval import calculate

    rules = catalogue.rules
    a = stat_profile(rules, catalogue, 8, 2, 4, None)  # health: the median card's max health
    b = stat_profile(rules, catalogue, 6, 3, 4, None)
    result = calculate([a, b], catalogue, None)
    fig = distribution_figure(result["profiles"])
    right = fig.axes[1]
    lo, hi = right.get_xlim()
    for p in result["profiles"]:
        assert p["health"] > 100
        lines = [ln for ln in right.get_lines() if isinstance(ln, Line2D)
                 and ln.get_linestyle() == ":" and list(ln.get_xdata()) == [p["health"]] * 2]
        assert lines, "no dotted line at the health"
        assert lo <= p["health"] <= hi, (p["health"], (lo, hi))
