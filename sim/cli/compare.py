"""``bwlab compare-systems``: is Board Wars' combat swingier than the peer games'? (issue #9)

For each system and each matched stat level of ``[compare]`` in ``cards/peers.toml``, one attack's
exact damage distribution is read as a fraction ``Y = damage / health`` of the target's health, so
games with 2 wound levels and games with 100 HP share one scale. The table gives per level the
single-trial success chance (the matching key), mean and variance of ``Y``, and the chance to
finish a target with a quarter or half of its health left; per system the *luck share*:

    luck share = E_S[Var(Y | S)] / Var(Y),  S uniform over the matched levels,

the share of the outcome's variance that the dice (cards) cause once the stats are known; by the
law of total variance ``Var(Y) = E_S[Var(Y | S)] + Var_S(E[Y | S])``, so 1 - luck share is the share
the stat levels explain. 1 means stats do not move the expected outcome at all; 0 means the
outcome is fixed by the stats. ``luck_share_kill50`` is the same for the event "a target at half
health dies" (Bernoulli variance). The plot shows the spread, the kill-chance curves and the luck
shares. Written to ``--out`` (CSV and PNG atomically).
"""

from __future__ import annotations

from pathlib import Path

import click
import numpy as np

from ._paths import OUT_FOLDER, cards_option, not_the_card_folder, outputs_clear

KILL_MARKS = (0.25, 0.5)  # health left, as a fraction of the target's health, for the table
CURVE = np.linspace(0.01, 1.0, 100)  # health-left grid of the kill-chance curves


def luck_share(means: np.ndarray, variances: np.ndarray) -> float:
    """E[Var(Y|S)] / Var(Y) for S uniform over the levels (NaN when Y never varies)."""
    within = float(np.mean(variances))
    total = within + float(np.var(means))
    return within / total if total > 0 else float("nan")


def level_seed(seed: int, system: str, level: int) -> int:
    """The Monte Carlo seed of one system at one level: 63 bits of
    ``SeedSequence([seed, crc32(system), level])``. Why not ``seed + level`` (before): then
    ``--seed s`` and ``--seed s+1`` replayed each other's dice one level apart, and every
    system at a level shared one seed; hashed entropy gives every (seed, system, level) a
    stream of its own, the same whatever other systems are compared (docs/power-levels-audit.md)."""
    from zlib import crc32

    ss = np.random.SeedSequence([int(seed), crc32(system.encode("utf-8")), int(level)])
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


def compare_rows(peers, bw_rules, systems, samples: int | None = None, seed: int = 0):
    """(rows of the table, {system: [kill-chance curve per level]}), from the exact pmfs."""
    from sim.combat.peers.registry import SYSTEMS, rules_for
    from sim.runner.progress import advance

    from sim.runner.calculator_eval import moment_standard_errors

    rows, curves = [], {}
    for system in systems:
        rules = rules_for(system, peers, bw_rules)
        sys_rows, sys_curves = [], []
        for i, (level, stats) in enumerate(zip(peers.levels, peers.compare[system])):
            dist = SYSTEMS[system].exact(stats, rules)
            y = np.arange(dist.pmf.size) / dist.health
            mean = float(np.dot(y, dist.pmf))
            row = {"system": system, "level": level, "p_success": dist.p_success,
                   "health": dist.health, "mean_damage": dist.mean, "mean_fraction": mean,
                   "variance_fraction": float(np.dot(y * y, dist.pmf) - mean**2)}
            row["sd_fraction"] = max(row["variance_fraction"], 0.0) ** 0.5
            row["cv"] = row["sd_fraction"] / mean if mean > 0 else float("nan")
            for mark in KILL_MARKS:
                row[f"kill_at_{int(mark * 100)}pct"] = float(dist.pmf[y >= mark - 1e-12].sum())
            if samples:
                drawn = SYSTEMS[system].sample(stats, rules, samples,
                                               level_seed(seed, system, i))
                frac = drawn.damage / dist.health
                m = moment_standard_errors(np.bincount(drawn.damage))  # damage units
                row["mc_mean_fraction"] = float(frac.mean())
                row["mc_mean_fraction_se"] = m["mean_se"] / dist.health
                row["mc_variance_fraction"] = float(frac.var())
                row["mc_variance_fraction_se"] = m["variance_se"] / dist.health**2
            sys_rows.append(row)
            sys_curves.append(np.array([dist.pmf[y >= x - 1e-12].sum() for x in CURVE]))
            advance(1)
        means = np.array([r["mean_fraction"] for r in sys_rows])
        share = luck_share(means, np.array([r["variance_fraction"] for r in sys_rows]))
        k50 = np.array([r["kill_at_50pct"] for r in sys_rows])
        share_kill = luck_share(k50, k50 * (1 - k50))
        for r in sys_rows:
            r["luck_share"] = share
            r["luck_share_kill50"] = share_kill
        rows += sys_rows
        curves[system] = sys_curves
    return rows, curves


def plot(rows, curves, levels, titles):
    """Three panels: spread of Y per level, kill-chance curves, luck share per system. Legends
    sit below the panels, never over the curves, and no text is under 9 pt (issue #23 item 5)."""
    from sim.report.plots import legible, plt

    systems = list(curves)
    fig, axes = plt.subplots(1, 3, figsize=(16, 5.2))
    width = 0.8 / max(len(systems), 1)
    x = np.arange(len(levels))
    for j, system in enumerate(systems):
        sd = [r["sd_fraction"] for r in rows if r["system"] == system]
        axes[0].bar(x + (j - (len(systems) - 1) / 2) * width, sd, width, label=titles[system],
                    color=f"C{j}")
        for k, curve in enumerate(curves[system]):
            axes[1].plot(CURVE, curve, color=f"C{j}", ls=("--", "-", ":", "-.")[k % 4],
                         label=f"{titles[system]}, {levels[k]}")
    axes[0].set_xticks(x, levels)
    axes[0].set_ylabel("sd of damage / health")
    axes[0].set_title("Damage spread per matched stat level")
    axes[1].set_xlabel("target's health left (fraction of health)")
    axes[1].set_ylabel("P(one attack kills)")
    axes[1].set_title("Kill-chance curves")
    shares = [next(r["luck_share"] for r in rows if r["system"] == s) for s in systems]
    axes[2].bar(range(len(systems)), shares, color=[f"C{j}" for j in range(len(systems))])
    axes[2].set_xticks(range(len(systems)), [titles[s] for s in systems], rotation=15)
    axes[2].set_ylim(0, 1)
    axes[2].set_ylabel("E[Var(Y|stats)] / Var(Y)")
    axes[2].set_title("Luck share: outcome variance from dice, not stats")
    for ax in axes:
        ax.grid(alpha=0.3)
    handles, labels = axes[1].get_legend_handles_labels()   # colour = system, line = level
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0),
               ncol=max(1, len(levels)), frameon=False)
    legible(fig)
    fig.tight_layout()
    return fig


@click.command("compare-systems")
@click.option("--out", "out_dir", type=OUT_FOLDER,
              default=Path("reports/compare"), show_default=True, help="Output folder.")
@click.option("--system", "only", multiple=True, metavar="NAME",
              help="Only these systems (repeatable; default: every [compare.NAME]).")
@click.option("--samples", type=click.IntRange(1, 10**8),
              help="Also a Monte Carlo check per level (mc_* columns, each with its standard "
                   "error, mc_*_se); at most 1e8 (the peer samplers hold every draw in memory).")
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True,
              help="Root seed of the Monte Carlo check (each system and level draws from "
                   "SeedSequence([seed, system, level]): seeds share no stream).")
@cards_option("Card folder (default: $BWLAB_CARDS, else ./cards; --cards-dir is the old "
              "spelling).", dest="cards_dir", old_spelling=True)
def compare_systems(out_dir, only, samples, seed, cards_dir):
    """Damage spread, kill-chance curves and luck share of Board Wars beside the peer games."""
    import pandas as pd

    from sim.catalogue.loader import default_cards_dir, load_rules_only
    from sim.catalogue.peers import load_peers
    from sim.combat.peers.registry import SYSTEMS, check_compare_levels
    from sim.atomic import atomic_paths
    from sim.report.plots import plt
    from sim.runner.progress import stage

    root = Path(cards_dir) if cards_dir else default_cards_dir()
    not_the_card_folder(out_dir, root)
    peers = load_peers(root)
    bw_rules = load_rules_only(root) if "boardwars" in peers.compare else None
    if bw_rules is not None:
        check_compare_levels(peers, bw_rules)
    unknown = [s for s in only if s not in peers.compare]
    if unknown:
        raise click.BadParameter(f"{unknown[0]!r} has no [compare.{unknown[0]}] in peers.toml; "
                                 f"choose from {', '.join(peers.compare)}", param_hint="--system")
    systems = [s for s in peers.compare if not only or s in only]
    csv_path, png_path = out_dir / "compare_systems.csv", out_dir / "compare_systems.png"
    outputs_clear([("--out", csv_path), ("--out", png_path)])  # before the work: all or none
    with stage("systems × stat levels", len(systems) * len(peers.levels), unit="levels"):
        rows, curves = compare_rows(peers, bw_rules, systems, samples, seed)
    table = pd.DataFrame(rows)
    # the table and its figure replace the old pair together (atomic_paths): all or none
    with atomic_paths([csv_path, png_path]) as (csv_tmp, png_tmp):
        table.to_csv(csv_tmp, index=False, float_format="%.6g")
        with stage("drawing the figure"):
            fig = plot(rows, curves, list(peers.levels), {s: SYSTEMS[s].title for s in systems})
            try:
                fig.savefig(png_tmp, format="png", dpi=100, bbox_inches="tight")
            finally:
                plt.close(fig)
    shown = ["system", "level", "p_success", "mean_fraction", "sd_fraction", "kill_at_25pct",
             "kill_at_50pct", "luck_share"]
    if samples:  # the Monte Carlo check beside the exact mean (it was in the CSV alone)
        at = shown.index("mean_fraction") + 1
        shown[at:at] = ["mc_mean_fraction", "mc_mean_fraction_se"]
    view = table[shown].copy()
    if samples:  # two significant digits: at 3 decimals a standard error read 0.000
        view["mc_mean_fraction_se"] = view["mc_mean_fraction_se"].map(lambda v: f"{v:.2g}")
    click.echo(view.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    click.echo(f"wrote {csv_path} and {png_path}")
