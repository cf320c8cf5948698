"""``bwlab report``: write the self-contained HTML report (and its CSV tables) into reports/."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("reports"),
              show_default=True, help="Folder for report.html and the CSV tables.")
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True,
              help="Seed of the Monte Carlo samples drawn in the report.")
@click.option("--cards", "cards", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Card folder (default: ./cards or $BWLAB_CARDS).")
def report(out, seed, cards):
    """Write reports/report.html: combat tables, exact vs Monte Carlo, rarity power curve."""
    from sim.catalogue.loader import load_catalogue
    from sim.report.lab_report import write_report

    path = write_report(load_catalogue(cards), out, seed=seed)
    click.echo(f"Report: {path.resolve()}")
