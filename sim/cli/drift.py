"""``bwlab drift --baseline reports/baseline.json``: the CI gate on win-rate drift.

Exit 0: no drift; 1: significant drift (or the exact combat tables changed); 3: inconclusive at
the game cap. ``--update`` plays the suite to its cap and rewrites the baseline instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ._policy import POLICY_HELP, budget_option


@click.command()
@click.option("--baseline", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("reports/baseline.json"), show_default=True)
@click.option("--suite", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("experiments/drift.toml"), show_default=True,
              help="The fixed suite: bounds and matchups.")
@click.option("--games", type=click.IntRange(8, None), default=None,
              help="Game cap per matchup (default: the suite's max_games).")
@click.option("--update", is_flag=True, help="Rewrite the baseline from the current cards/rules.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write JUnit XML here for CI systems.")
@click.option("--policy", default=None, help=POLICY_HELP + " Replaces every matchup's policies "
                                                           "(the baseline must be made with it).")
@budget_option
@click.option("--cards", "cards", type=click.Path(file_okay=False, path_type=Path), default=None)
def drift(baseline, suite, games, update, junit, policy, budget, cards):
    """Re-run the suite and test every win rate against the baseline (SPRT, Bonferroni)."""
    from dataclasses import replace

    from sim.catalogue.diagnostics import InputError, Problem
    from sim.catalogue.loader import load_catalogue
    from sim.engine.layout import POLICY_IDS
    from sim.atomic import write_text
    from sim.runner.drift import (DRIFT_DOWN, DRIFT_UP, OPEN, junit_xml, load_suite,
                                  make_baseline, run_gate)
    from sim.runner.store import cards_digest

    catalogue = load_catalogue(cards)
    spec = load_suite(suite, catalogue.cards, tuple(POLICY_IDS))
    if games is not None:
        if games % 4:
            raise click.BadParameter("must be a multiple of 4 (duplicate blocks)", param_hint="--games")
        spec = replace(spec, max_games=games)
    if policy is not None or budget is not None:
        from ._policy import override

        spec = replace(spec, experiments=tuple(override(e, policy, budget)
                                               for e in spec.experiments))
    players = {e.name: list(e.policies) for e in spec.experiments}
    if update:
        data = make_baseline(catalogue, spec, cards_digest(catalogue.root))
        data["policies"] = players  # a gate run with other players is refused
        write_text(baseline, json.dumps(data, indent=2, sort_keys=True) + "\n")
        click.echo(f"baseline written: {baseline} ({len(data['metrics'])} win rates, "
                   f"{len(data['combat'])} combat table entries)")
        return
    if not baseline.exists():
        raise InputError([Problem(str(baseline), None, "--baseline",
                                  "not found; create it with --update")])
    try:
        base = json.loads(baseline.read_text(encoding="utf-8"))
        base["metrics"]
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError([Problem(str(baseline), None, "--baseline",
                                  f"not a baseline written by --update ({exc})")]) from None
    recorded = base.get("policies")  # baselines from before policies were recorded: the files'
    if recorded is not None and recorded != players:
        raise InputError([Problem(str(baseline), None, "policies",
                                  f"the baseline was played by {recorded}, this run by {players}; "
                                  f"use the same --policy/--budget or rewrite it with --update")])
    result = run_gate(catalogue, spec, base)
    click.echo(f"{'metric':<44}{'baseline':>9}{'now':>8}{'change':>8}{'games':>7}  decision")
    for m in result.metrics:
        click.echo(f"{m.name[:43]:<44}{m.baseline:9.3f}{m.current:8.3f}"
                   f"{m.current - m.baseline:+8.3f}{m.games:7d}  {m.decision}")
    for line in result.combat:
        click.echo(f"combat table changed: {line}")
    moved = [m for m in result.metrics if m.decision in (DRIFT_UP, DRIFT_DOWN)]
    open_ = [m for m in result.metrics if m.decision == OPEN]
    click.echo(f"SPRT: delta {spec.delta}, alpha {spec.alpha} (Bonferroni: {result.alpha_per_metric:.4g}"
               f" per metric), beta {spec.beta}, cap {spec.max_games} games per matchup")
    click.echo(f"drift in {len(moved)} metric(s), {len(open_)} inconclusive, "
               f"{len(result.combat)} combat table change(s) -> exit {result.exit_code}")
    if junit is not None:
        write_text(junit, junit_xml(result))
    raise click.exceptions.Exit(result.exit_code)
