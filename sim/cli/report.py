"""``bwlab report``: write the self-contained HTML report (and its CSV tables) into reports/."""

from __future__ import annotations

from pathlib import Path

import click

from sim.runner.limits import MAX_GAMES

from ._paths import OUT_FOLDER


@click.command()
@click.option("--out", type=OUT_FOLDER, default=Path("reports"),
              show_default=True, help="Folder for report.html and the CSV tables.")
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True,
              help="Seed of the Monte Carlo samples drawn in the report.")
@click.option("--teams", "teams_file", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("experiments/teams/example.toml"), show_default=True,
              help="Teams for the fairness section ('' to skip).")
@click.option("--fairness-games", type=click.IntRange(8, MAX_GAMES), default=512, show_default=True,
              help="Games of the fairness section (a multiple of 4: duplicate blocks).")
@click.option("--rating-games", type=click.IntRange(0, MAX_GAMES), default=2000, show_default=True,
              help="Games for the card-ratings section (0 to skip).")
@click.option("--rating-experiment", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("experiments/rarity.toml"), show_default=True,
              help="The experiment whose games fit the card ratings.")
@click.option("--remedy-games", type=click.IntRange(0, MAX_GAMES), default=0, show_default=True,
              help="Replay budget per rating outlier for its remedy (the smallest stat change "
                   "that brings it into its band; 0 to skip, as it replays games).")
@click.option("--rulings", "rulings", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Results of `bwlab rulings --out FILE`: adds the section "
                                 "'Which house rulings matter' (nothing is replayed).")
@click.option("--cards", "cards", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Card folder (default: ./cards or $BWLAB_CARDS).")
def report(out, seed, teams_file, fairness_games, rating_games, rating_experiment, remedy_games,
           rulings, cards):
    """Write reports/report.html: combat tables, exact vs Monte Carlo, rarity power curve,
    team fairness with the seat effect, card ratings in play, (--remedy-games) the outliers'
    remedies and (--rulings) which house rulings matter."""
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.teams import load_teams
    from sim.report.lab_report import write_report
    from sim.runner.progress import stage

    if fairness_games % 4:
        raise click.BadParameter("must be a multiple of 4", param_hint="--fairness-games")
    catalogue = load_catalogue(cards)
    if rulings is not None:  # a bad file fails before the report's games are played
        from sim.report.rulings_section import load_results

        load_results(rulings)
    teams = load_teams(teams_file, catalogue.cards) if str(teams_file) not in ("", ".") else None
    with stage("building the report"):  # its games' stages count inside (sim.runner.progress)
        path = write_report(catalogue, out, seed=seed, teams=teams,
                            fairness_games=fairness_games, rating_games=rating_games,
                            rating_experiment=rating_experiment, remedy_games=remedy_games,
                            rulings=rulings)
    click.echo(f"Report: {path.resolve()}")
