"""Matplotlib figures of the lab's reports, each returned as a Figure for the HTML page.

Why one module: every figure follows the same conventions (Agg backend, no global state, titles
that say what the designer should read off, no text below ``MIN_PT`` points), and pages embed them
as PNG saved at ``DPI`` and shown at their size in print (:meth:`sim.report.html.Page.image`), so
a 9 pt label reads as 9 pt on screen, at 1400 px wide as at 400.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


DPI = 144     # pixels per inch of the PNGs: sharp on high-density screens, pages not too heavy
MIN_PT = 9.0  # smallest text in a figure, in points at display size


def legible(fig) -> None:
    """Raise any text of ``fig`` smaller than ``MIN_PT`` to it (ticks, annotations, legends)."""
    from matplotlib.text import Text

    for text in fig.findobj(Text):
        if text.get_fontsize() < MIN_PT:
            text.set_fontsize(MIN_PT)


def png_bytes(fig) -> bytes:
    legible(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def rarity_power_curve(scores: np.ndarray, rarity: np.ndarray, rarity_names, bands: np.ndarray,
                       names=None, highlight: int = 8):
    """Each card's power score against its rarity, with the rarity bands shaded.

    Read off: does every rarity sit above the one before (Bronze < ... < GOAT Series), and which
    cards stray from their band.
    """
    fig, ax = plt.subplots(figsize=(8, 4.5))
    k = len(rarity_names)
    for r in range(k):
        ax.fill_between([r - 0.4, r + 0.4], bands[r, 0], bands[r, 1], color="C0", alpha=0.15,
                        label="rarity band" if r == 0 else None)
    jitter = (np.random.default_rng(0).random(len(scores)) - 0.5) * 0.5  # fixed: same picture
    outside = (scores < bands[rarity, 0]) | (scores > bands[rarity, 1])
    ax.scatter(rarity + jitter, scores, s=18, color=np.where(outside, "C3", "C0"), zorder=3)
    medians = [np.median(scores[rarity == r]) if np.any(rarity == r) else np.nan for r in range(k)]
    ax.plot(range(k), medians, "k-o", lw=1.5, ms=4, label="median", zorder=4)
    if names is not None:
        for i in np.flatnonzero(outside)[:highlight]:
            ax.annotate(names[i], (rarity[i] + jitter[i], scores[i]), fontsize=MIN_PT,
                        xytext=(3, 3), textcoords="offset points")
    ax.set_xticks(range(k), rarity_names)
    ax.set_ylabel("power score (docs/power-curve.md)")
    ax.set_title("Rarity power curve: cards by rarity, bands shaded, out-of-band cards red")
    ax.legend(loc="upper left")
    ax.grid(axis="y", alpha=0.3)
    return fig


def damage_overlay(pmf: np.ndarray, samples: np.ndarray, title: str):
    """Exact damage pmf (bars) against a Monte Carlo histogram (points): the core checked by eye."""
    fig, ax = plt.subplots(figsize=(8, 4))
    x = np.arange(pmf.size)
    ax.bar(x, pmf, width=1.0, color="C0", alpha=0.5, label="exact pmf")
    counts = np.bincount(samples, minlength=pmf.size)[: pmf.size]
    ax.plot(x, counts / samples.size, ".", color="C3", ms=4,
            label=f"Monte Carlo ({samples.size:,} samples)")
    top = np.flatnonzero(np.cumsum(pmf) < 0.9995)
    ax.set_xlim(-0.5, (top[-1] + 2) if top.size else pmf.size)
    ax.set_xlabel("damage of one attack action")
    ax.set_ylabel("probability")
    ax.set_title(title)
    ax.legend()
    return fig


def interval_forest(labels, estimate, low, high, title: str, xlabel: str, reference=None,
                    marked=None, marked_label: str = "outlier"):
    """A forest plot: one row per item, a point and its interval (ratings, win probabilities);
    rows where ``marked`` is true (outliers) are drawn red with a bold red label."""
    labels = list(labels)
    estimate, low, high = (np.asarray(v, dtype=float) for v in (estimate, low, high))
    marked = np.zeros(len(labels), bool) if marked is None else np.asarray(marked, bool)
    fig, ax = plt.subplots(figsize=(7, 0.28 * len(labels) + 1.2))
    y = np.arange(len(labels))[::-1]
    for rows, colour, label in ((~marked, "C0", None), (marked, "C3", marked_label)):
        if rows.any():
            ax.errorbar(estimate[rows], y[rows], fmt="o", color=colour, ms=4, capsize=2,
                        xerr=[estimate[rows] - low[rows], high[rows] - estimate[rows]],
                        label=label)
    if reference is not None:
        ax.axvline(reference, color="k", lw=1, ls="--")
    ax.set_yticks(y, labels, fontsize=MIN_PT)
    for tick, m in zip(ax.get_yticklabels(), marked):
        if m:
            tick.set_color("C3")
            tick.set_fontweight("bold")
    if marked.any():
        ax.legend(loc="best")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return fig
