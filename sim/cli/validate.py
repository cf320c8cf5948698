"""``bwlab validate [PATH]``: check every designer file, report every problem at once."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("path", required=False, type=click.Path(path_type=Path))
def validate(path: Path | None):
    """Check the card folder PATH (default: ./cards). Exit 2 with one line per problem.

    Cards whose power falls outside their rarity's band (cards/power_curve.toml) are listed as
    warnings: a balance question for the designer, not broken data.
    """
    from sim.catalogue.arena_budget import ARENA_BUDGET_FILE, load_arena_budget
    from sim.catalogue.diagnostics import Problems
    from sim.catalogue.loader import default_cards_dir, load_catalogue
    from sim.catalogue.peers import PEERS_FILE, load_peers
    from sim.catalogue.power import POWER_CURVE_FILE, check_bands, load_power_curve

    root = path or default_cards_dir()
    if not root.is_dir():
        raise click.BadParameter(f"{root} is not a folder", param_hint="PATH")
    catalogue = load_catalogue(root)
    problems = Problems()
    curve = load_power_curve(root / POWER_CURVE_FILE, catalogue.rules, problems)
    if (root / PEERS_FILE).exists():  # the peer games' house values (bwlab compare-systems)
        load_peers(root, problems)
    if (root / ARENA_BUDGET_FILE).exists():  # Arena's Power Levels and budget (power-levels)
        load_arena_budget(root, problems)
    problems.raise_if_any()
    warnings = Problems()
    check_bands(catalogue.cards, catalogue.rules, curve, warnings)
    for warning in warnings.items:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"{root}: ok — {len(catalogue.cards)} cards, {len(catalogue.abilities.types)} "
               f"ability types, {len(catalogue.rules.suits)} suits, {len(catalogue.tiles)} tiles, "
               f"{len(catalogue.items)} items"
               + (f"; {len(warnings)} card(s) outside their rarity band" if warnings else ""))
