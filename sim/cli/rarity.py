"""``bwlab rarity``: each card's strength in play, per rarity, with the outliers flagged."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command()
@click.option("--experiment", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("experiments/rarity.toml"), show_default=True,
              help="A pool experiment (teams drawn from the cards).")
@click.option("--games", type=click.IntRange(8, None), default=None, help="Override the games.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("reports"),
              show_default=True, help="Folder for rarity_cards.csv.")
@click.option("--ablation", type=click.IntRange(0, None), default=100, show_default=True,
              help="Games per card replayed with the card swapped for its rarity's reference "
                   "card (0: skip the counterfactual ablation).")
@click.option("--cards", "cards", type=click.Path(file_okay=False, path_type=Path), default=None)
def rarity(experiment, games, fmt, out, ablation, cards):
    """Win rate when held, composition rating with intervals, rarity order and outliers."""
    import numpy as np
    import pandas as pd

    from sim.catalogue.diagnostics import InputError, Problem
    from sim.catalogue.loader import load_catalogue
    from sim.engine.layout import POLICY_IDS
    from sim.report.atomic import atomic_path
    from sim.runner.experiment import load_experiment
    from sim.catalogue.power import power_score
    from sim.runner.rarity import ablation as run_ablation
    from sim.runner.rarity import card_records, play_pool, reference_cards, study

    catalogue = load_catalogue(cards)
    exp = load_experiment(experiment, catalogue.cards, tuple(POLICY_IDS), games=games)
    if exp.pool is None:
        raise InputError([Problem(str(experiment), None, "pool",
                                  "the rarity study needs a [pool] experiment (teams drawn)")])
    seat_cards, winner, records = play_pool(catalogue, exp, records=True)
    rules, names = catalogue.rules, catalogue.cards.names
    rar = np.asarray(catalogue.cards.rarity, np.int64)
    s = study(seat_cards, winner, rar, len(rules.rarities))
    per_game = card_records(seat_cards, records, len(names))
    reference = reference_cards(power_score(catalogue.cards, rules), rar)
    effect, effect_se, replayed = (run_ablation(catalogue, exp, seat_cards, winner, reference,
                                                ablation) if ablation else
                                   (np.zeros(len(names)), np.full(len(names), np.nan),
                                    np.zeros(len(names), np.int64)))
    frame = pd.DataFrame({
        "card": names, "rarity": [rules.rarities[r] for r in rar], "games": s.held.astype(int),
        "win_rate": s.wins / np.maximum(s.held, 1), "win_low": s.win_low, "win_high": s.win_high,
        "damage_dealt": per_game[:, 0], "damage_taken": per_game[:, 1], "kills": per_game[:, 2],
        "survival": per_game[:, 3],
        "rating": s.rating, "rating_low": s.rating_low, "rating_high": s.rating_high,
        "reference_card": [names[r] for r in reference], "ablation_games": replayed,
        "ablation_effect": effect, "ablation_low": effect - 1.96 * effect_se,
        "ablation_high": effect + 1.96 * effect_se,
        "implied_rarity": [rules.rarities[r] for r in s.implied_rarity],
        "outlier": np.select([s.outlier < 0, s.outlier > 0], ["weak", "strong"], ""),
    }).sort_values(["rarity", "rating"], key=lambda c: c.map(
        {r: i for i, r in enumerate(rules.rarities)}) if c.name == "rarity" else c)
    with atomic_path(out / "rarity_cards.csv") as tmp:
        frame.to_csv(tmp, index=False)
    per = [{"rarity": r, "median_rating": float(s.rarity_median[i]),
            "min": float(s.rating[rar == i].min()), "max": float(s.rating[rar == i].max())}
           for i, r in enumerate(rules.rarities)]
    if fmt == "json":
        click.echo(json.dumps({"games": s.games, "ordered": s.ordered, "rarities": per,
                               "cards": json.loads(frame.to_json(orient="records"))}, indent=2))
        return
    click.echo(f"{s.games} games of {exp.name} (teams drawn from {len(exp.pool)} cards, "
               f"policies {', '.join(sorted(set(exp.policies)))})")
    for p in per:
        click.echo(f"  {p['rarity']:<12} median rating {p['median_rating']:+.3f} "
                   f"(range {p['min']:+.3f} .. {p['max']:+.3f})")
    order = " < ".join(rules.rarities)
    click.echo(f"{order}: {'holds' if s.ordered else 'DOES NOT HOLD'} (median ratings)")
    flagged = frame[frame["outlier"] != ""]
    click.echo(f"{len(flagged)} outlier(s) (rating interval outside their rarity's band):")
    for row in flagged.itertuples():
        click.echo(f"  {row.card} ({row.rarity}) is {row.outlier}: rating {row.rating:+.3f} "
                   f"[{row.rating_low:+.3f}, {row.rating_high:+.3f}], plays like {row.implied_rarity}"
                   + (f"; swapping it for {row.reference_card} changes its team's chance to win "
                      f"by {-100 * row.ablation_effect:+.1f} points over {row.ablation_games} "
                      f"replayed games" if row.ablation_games else ""))
    click.echo(f"Per card: {out / 'rarity_cards.csv'}")
