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


def test_a_monte_carlo_hit_chance_of_no_attacks_is_not_measured(capsys):
    """``combat --attacks 0 --samples N`` printed the hit chance 0.0000 ± 0.0000 beside the exact
    form's 0.5 for the same defense ("If the roll is more than your defense stat plus 2, that
    attack is considered a Hit": 6 of 12 faces against defense 4): no attack was thrown, so
    nothing was measured (the combat audit of stop 77). Now null in JSON, "n/a" in the text."""
    import json

    from tests._cli_kit import run

    code, out, err = run(capsys, "combat", "--attacks", "0", "--tier", "2", "--defense", "4",
                         "--samples", "1000", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    doc = doc["profiles"][0] if "profiles" in doc else doc
    assert doc["p_hit"] is None and doc["p_hit_se"] is None
    assert doc["exact"]["p_hit"] == 0.5
    code, out, _ = run(capsys, "combat", "--attacks", "0", "--tier", "2", "--defense", "4",
                       "--samples", "1000")
    assert code == 0 and "hit chance n/a: no attack thrown" in out
