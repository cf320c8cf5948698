"""``bwlab combat --png``: the damage distribution (pmf bars and the at-least curve) of one or two
profiles, or a sweep's expected damage and kill-probability curves.

Why these two panels: the bars answer "how likely is exactly this much", the at-least curve "how
likely do I deal at least this much" (read at the defender's health: the kill chance). Legends
sit below the axes, never over a curve; every text is at least 9 pt; the title names the
profiles. Monte Carlo values are drawn with 95 % intervals (Z95 standard errors), every bar and
band alike, and the title says so: stop 77's audit found pmf and mean bars of one standard error
beside at-least bands and kill bars of 1.96, with nothing on the figure telling them apart.
"""

from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sim.atomic import atomic_path  # noqa: E402

from .calculator_text import EPS  # noqa: E402

STYLE = {"font.size": 10, "axes.titlesize": 11, "axes.labelsize": 10, "xtick.labelsize": 9,
         "ytick.labelsize": 9, "legend.fontsize": 9, "figure.titlesize": 12}
MIN_FONT_PT = 9
Z95 = 1.959963984540054  # the normal's 97.5 % point: a two-sided 95 % interval


def _title(results: list[dict], what: str) -> str:
    names = [r["label"] if len(results) == 1 else f"{'AB'[i]}: {r['label']}"
             for i, r in enumerate(results)]
    method = results[0]["method"]
    tail = (f" (Monte Carlo, {results[0]['samples']:,} samples; bars: 95 % intervals)"
            if method == "monte_carlo" else " (exact)")
    return textwrap.fill(f"{what} — " + "   vs   ".join(names) + tail, 110)


def _z95(se):
    """A 95 % interval's half-width from standard errors (None, for exact values, stays None)."""
    return None if se is None else Z95 * np.asarray(se, dtype=float)


def _legend_below(fig, axes, ncol: int) -> None:
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol,
               frameon=False)


def distribution_figure(results: list[dict]):
    """Bars of P(damage = d) and the P(damage ≥ d) curve, one colour per profile."""
    with plt.rc_context(STYLE):
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4))
        hi = 0
        width = 0.9 / len(results)
        for i, r in enumerate(results):
            t = r["table"]
            d = np.asarray(t["damage"])
            at_least = np.asarray(t["at_least"])
            seen = np.flatnonzero(at_least >= EPS)
            hi = max(hi, int(seen[-1]) if seen.size else 0)
            name = r["label"] if len(results) == 1 else f"{'AB'[i]}: {r['label']}"
            offset = (i - (len(results) - 1) / 2) * width
            left.bar(d + offset, t["exactly"], width=width, color=f"C{i}", alpha=0.8,
                     yerr=_z95(t.get("exactly_se")), ecolor="0.3", label=name)
            # P(D >= x) for real x in (d-1, d] is at_least[d]: a step drawn "pre"
            right.step(d, at_least, where="pre", color=f"C{i}", lw=1.8, label=name)
            if "at_least_se" in t:
                se = np.asarray(t["at_least_se"])
                right.fill_between(d, at_least - Z95 * se, at_least + Z95 * se, step="pre",
                                   color=f"C{i}", alpha=0.25, lw=0)
            right.axvline(r["health"], color=f"C{i}", ls=":", lw=1.2)
            right.text(0.98, 0.96 - 0.08 * i,  # top right: the curves fall away from it
                       f"{'AB'[i] + ': ' if len(results) > 1 else ''}kill "
                       f"{100 * r['kill_probability']:.1f} % at {r['health']} health",
                       transform=right.transAxes, ha="right", va="top", fontsize=MIN_FONT_PT,
                       color=f"C{i}")
        # the at-least panel reaches every defender's health, so its dotted line is drawn
        # (a health above every plotted damage, e.g. the stat form's default, fell off the axes)
        reach = max([hi] + [r["health"] for r in results])
        for ax, top in ((left, hi), (right, reach)):
            ax.set_xlim(-0.5, top + 1.5)
            ax.set_xlabel("damage of one attack action")
            ax.grid(alpha=0.3)
        left.set_ylabel("probability of exactly this damage")
        left.set_title("exactly (pmf)")
        right.set_ylabel("probability of at least this damage")
        right.set_ylim(0, 1.02)
        right.set_title("at least (dotted: the defender's health)")
        fig.suptitle(_title(results, "Damage distribution"))
        _legend_below(fig, [left], ncol=min(2, len(results)))
        fig.tight_layout()
    return fig


def sweep_figure(result: dict):
    """Expected damage (± sd shaded) and kill probability per swept value, one line per profile."""
    s = result["sweep"]
    key = s["key"].replace("_", " ")
    x = np.asarray(s["values"])
    with plt.rc_context(STYLE):
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4))
        for i, ser in enumerate(s["series"]):
            rows = ser["rows"]
            mean = np.array([r["mean"] for r in rows])
            sd = np.array([r["sd"] for r in rows])
            kill = np.array([r["kill_probability"] for r in rows])
            name = ser["label"] if len(s["series"]) == 1 else f"{'AB'[i]}: {ser['label']}"
            left.errorbar(x, mean, yerr=_z95([r.get("mean_se", 0.0) for r in rows]),
                          color=f"C{i}", marker="o", ms=4, lw=1.6, capsize=2, label=name)
            left.fill_between(x, mean - sd, mean + sd, color=f"C{i}", alpha=0.15, lw=0)
            right.errorbar(x, kill, yerr=_z95([r.get("kill_probability_se", 0.0)
                                               for r in rows]),
                           color=f"C{i}", marker="o", ms=4, lw=1.6, capsize=2, label=name)
        left.set_xlabel(key)
        left.set_ylabel("expected damage (shaded: ± 1 sd)")
        left.set_title(f"expected damage by {key}")
        right.set_xlabel(key)
        right.set_ylabel("kill probability P(damage ≥ health)")
        right.set_ylim(-0.02, 1.02)
        right.set_title(f"kill probability by {key}")
        for ax in (left, right):
            ax.grid(alpha=0.3)
        fig.suptitle(_title(result["profiles"], f"Sweep over {key}"))
        _legend_below(fig, [left], ncol=min(2, len(s["series"])))
        fig.tight_layout()
    return fig


def write_png(result: dict, path, on_step=None) -> None:
    """The figure that fits the result (sweep or distribution), written atomically.
    ``on_step()`` is called when the figure is laid out and when it is written: its two slow
    steps (~1.8 s and ~3 s on two busy cores), for the command's progress line."""
    fig = sweep_figure(result) if "sweep" in result else distribution_figure(result["profiles"])
    if on_step is not None:
        on_step()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    if on_step is not None:
        on_step()
