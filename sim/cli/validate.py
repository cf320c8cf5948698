"""``bwlab validate [PATH]``: check every designer file, report every problem at once."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("path", required=False, type=click.Path(path_type=Path))
def validate(path: Path | None):
    """Check the card folder PATH (default: ./cards). Exit 2 with one line per problem."""
    from sim.catalogue.loader import default_cards_dir, load_catalogue

    root = path or default_cards_dir()
    if not root.is_dir():
        raise click.BadParameter(f"{root} is not a folder", param_hint="PATH")
    catalogue = load_catalogue(root)
    click.echo(f"{root}: ok — {len(catalogue.cards)} cards, {len(catalogue.abilities.types)} "
               f"ability types, {len(catalogue.rules.suits)} suits, {len(catalogue.tiles)} tiles")
