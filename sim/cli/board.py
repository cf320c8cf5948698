"""``bwlab board --seed S [--png FILE]``: lay out a legal board, print it, optionally draw it."""

from __future__ import annotations

from pathlib import Path

import click

from ._paths import OUT_FILE, cards_option, outputs_clear


@click.command()
@click.option("--seed", type=int, required=True, help="Seed of the layout; same seed, same board.")
@click.option("--png", "png", type=OUT_FILE, default=None,
              help="Also draw the board to this PNG file.")
@cards_option()
def board(seed: int, png: Path | None, cards: Path | None):
    """Lay out a legal board from SEED and print it as text (tiles in their layers, the Apocalypse
    face-down in layer 2, the four spawns, the portals, a legend)."""
    from sim.board.generate import generate_board
    from sim.report.board_text import board_text
    from sim.catalogue.diagnostics import InputError, Problem
    from sim.catalogue.loader import default_cards_dir, load_board_only

    root = cards or default_cards_dir()
    if not Path(root).is_dir():
        raise InputError([Problem(str(root), None, "cards", "not a folder")])
    if seed < 0:
        raise click.BadParameter("must be >= 0", param_hint="--seed")
    rules, board_rules, tiles = load_board_only(root)
    outputs_clear({"--png": png})  # before the work: not a card file it just read
    layout = generate_board(tiles, board_rules, seed)
    click.echo(board_text(layout, tiles, rules.suits))
    if png is not None:
        from sim.report.game_view import view_from_board
        from sim.report.watch import write_picture

        write_picture(png, view_from_board(layout, tiles, f"Board Wars — seed {seed}"), tiles,
                      rules.suits, "drawing the board")
        click.echo(f"drawn: {png}")
