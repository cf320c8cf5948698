"""``bwlab draft --pool FILE | --random 20 --seed S``: the four fairest teams from a pool, beside
a snake draft and Arena: The Contest's alternating pick order under its team budget."""

from __future__ import annotations

import json
from pathlib import Path

import click

from sim.runner.limits import MAX_GAMES


@click.command()
@click.option("--pool", "pool_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="TOML file: cards = [20 card names].")
@click.option("--random", "random_n", type=int, default=None,
              help="Draw a random pool of this many cards (20).")
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True)
@click.option("--games", type=click.IntRange(8, MAX_GAMES), default=1024, show_default=True,
              help="Most games to confirm each split by simulation (multiple of 4).")
@click.option("--policy", default="greedy", show_default=True)
@click.option("--alternating/--no-alternating", default=True, show_default=True,
              help="Also Arena's alternating pick order by Power Level under the team budget "
                   "(cards/arena_budget.toml); fits the levels first.")
@click.option("--level-games", type=click.IntRange(64, MAX_GAMES), default=None,
              help="Games behind the Power Levels (default: cards/arena_budget.toml).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--cards", "cards", type=click.Path(file_okay=False, path_type=Path), default=None)
def draft(pool_file, random_n, seed, games, policy, alternating, level_games, fmt, cards):
    """Split 20 cards into the four fairest teams; compare with a snake draft and Arena's
    alternating draft, by simulation."""
    import numpy as np

    from sim.catalogue.loader import load_catalogue
    from sim.engine.layout import POLICY_IDS
    from sim.runner.draft import POOL_SIZE, draft as run_draft, load_pool, spread

    if (pool_file is None) == (random_n is None):
        raise click.UsageError("give exactly one of --pool FILE and --random 20")
    if random_n is not None and random_n != POOL_SIZE:
        raise click.BadParameter(f"a pool is {POOL_SIZE} cards (4 teams of 5)", param_hint="--random")
    if games % 4:
        raise click.BadParameter("must be a multiple of 4", param_hint="--games")
    if policy not in POLICY_IDS:
        raise click.BadParameter(f"unknown policy {policy!r}", param_hint="--policy")
    catalogue = load_catalogue(cards)
    if pool_file is not None:
        pool = load_pool(pool_file, catalogue.cards)
    else:
        rng = np.random.default_rng(np.random.SeedSequence([seed, 4]))
        pool = rng.choice(len(catalogue.cards), size=POOL_SIZE, replace=False).astype(np.int64)
    levels = spec = None
    if alternating:
        from sim.catalogue.arena_budget import load_arena_budget
        from sim.runner.budget import power_levels

        spec = load_arena_budget(catalogue.root)
        levels = power_levels(catalogue, spec, policy, level_games)
    result = run_draft(catalogue, pool, seed=seed, policy=policy, games=games, levels=levels,
                       arena=spec)
    names = catalogue.cards.names
    data = {}
    for split, teams in result.splits.items():
        rep = result.reports[split]
        v = rep.verdict
        data[split] = {
            "surrogate_spread": spread(teams, result.strength),
            "max_deviation_points": float(100 * np.max(np.abs(v.rate - 0.25))),
            "verdict": v.status, "games": rep.games, "text": v.text,
            "teams": [{"cards": [names[c] for c in teams[k]],
                       "strength": float(result.strength[teams[k]].sum()),
                       "win_probability": float(v.rate[k]), "low": float(v.lower[k]),
                       "high": float(v.upper[k])} for k in range(4)]}
        if levels is not None:
            for k, t in enumerate(data[split]["teams"]):
                t["levels"] = [int(levels.level[c]) for c in teams[k]]
                t["level_total"] = int(sum(t["levels"]))
            data[split]["within_team_budget"] = all(t["level_total"] <= spec.budget
                                                    for t in data[split]["teams"])
    if levels is not None:
        data["alternating"]["team_budget"] = spec.budget
        data["alternating"]["order"] = [o + 1 for o in spec.order]
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
        return
    for split, d in data.items():
        click.echo(f"== {split} split: strength spread {d['surrogate_spread']:.1f}, largest gap "
                   f"from 25 %: {d['max_deviation_points']:.1f} points ({d['games']} games)")
        if split == "alternating":
            click.echo(f"  (Arena's pick order {'-'.join(map(str, d['order']))} every round, by "
                       f"Power Level, team budget {d['team_budget']})")
        for k, t in enumerate(d["teams"]):
            lv = f", levels {t['level_total']:2d}" if "level_total" in t else ""
            click.echo(f"  Team {k + 1}: win {100 * t['win_probability']:5.1f} % "
                       f"({100 * t['low']:.1f}–{100 * t['high']:.1f}), strength "
                       f"{t['strength']:6.1f}{lv}: {', '.join(t['cards'])}")
        click.echo(f"  {d['text']}")
    better = min(data, key=lambda s: data[s]["max_deviation_points"])
    click.echo(f"Fairer by simulation: the {better} split.")
