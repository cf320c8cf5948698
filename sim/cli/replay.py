"""``bwlab replay game.jsonl``: narrate a game log, one line per event, with the rule applied;
``--gif`` / ``--html`` to watch it on the board."""

from __future__ import annotations

from pathlib import Path

import click

from ._paths import IN_FILE, OUT_FILE, cards_option, distinct_paths, outputs_clear
from ._say import note


@click.command()
@click.argument("log", type=IN_FILE)
@click.option("--rules/--no-rules", default=False, help="Also print the rule each event applies.")
@click.option("--gif", "gif", type=OUT_FILE, default=None,
              help="Also write an animated GIF of the game on the board, one frame per turn.")
@click.option("--html", "html_out", type=OUT_FILE, default=None,
              help="Also write a self-contained HTML page stepping through the game's turns "
                   "(slider, play, arrow keys; each turn's events beside its picture).")
@cards_option("Card folder the game was played with (default: $BWLAB_CARDS, else ./cards).")
def replay(log: Path, rules: bool, gif: Path | None, html_out: Path | None, cards: Path | None):
    """Narrate LOG (written by bwlab play --log). Places read as tile (row, col) on the 7×7
    board, then [row, col] of the space inside a 3×3 or 5×5 tile.

    The game is played again from the log's header (seed, cards, players) and checked against
    every logged event before anything is printed or drawn; with --gif or --html the files'
    paths are printed on stderr."""
    from sim.catalogue.diagnostics import InputError, Problem
    from sim.catalogue.loader import default_cards_dir, load_board_only
    from sim.report.rerun import read_log

    distinct_paths({"--gif": gif, "--html": html_out}, {"LOG": log})
    events = read_log(log)
    root = cards or default_cards_dir()
    if not Path(root).is_dir():
        raise InputError([Problem(str(root), None, "cards", "not a folder")])
    _, board_rules, tiles = load_board_only(root)
    _same_tiles(log, events, tiles, root)
    from sim.catalogue.loader import load_catalogue
    from sim.report.rerun import rerun

    catalogue = load_catalogue(root)
    outputs_clear({"--gif": gif, "--html": html_out})  # not a card file it just read
    # every replay plays the game again from the header and checks it against the log before
    # a line is printed: the narration names places from the header's board, and a log with an
    # edited seed was narrated with another board's places, exit 0 (the watching audit of
    # stop 78; only --gif and --html checked)
    rec, _ = rerun(log, events, catalogue)
    _narrate(log, events, tiles, board_rules, rules)
    if gif is None and html_out is None:
        return
    from sim.report.watch import draw_frames, write_gif, write_html
    from sim.report.places import named_sentences

    texts = named_sentences([ev for _, ev in events[1:]], rec.game.setup.board.tiles,
                            catalogue.tiles)
    suits = catalogue.rules.suits
    images = draw_frames(rec.frames, texts, catalogue.tiles, suits)
    if gif is not None:
        n = write_gif(gif, images)
        note(f"gif: {gif} ({n} frames, one per turn and the result)")
    if html_out is not None:
        n = write_html(html_out, rec.frames, texts, images, f"Board Wars replay of {log.name}")
        note(f"html: {html_out} ({n} steps, one per turn and the result)")


# the tile events whose sentence names the tile of their field "tile" (a catalogue index),
# written with the game's own tile names (sim.engine.log.tile_events.tile_text)
_NAMED_TILE_EVENTS = ("ticks", "tile reward", "interactable")


def _same_tiles(log: Path, events, tiles, root) -> None:
    """The card folder's tiles are the game's: every tile event's sentence names the folder's
    tile of its index. Places are named from the board regenerated from the folder's tiles
    and the seed, so a folder with other tiles (one added, removed or renamed) named them after
    the wrong tiles, silently; now one line, exit 2."""
    from sim.catalogue.diagnostics import InputError, Problem

    names = tiles.names
    for n, ev in events:
        if ev.get("event") not in _NAMED_TILE_EVENTS or type(ev.get("tile")) is not int:
            continue
        k = ev["tile"]
        if not 0 <= k < len(names) or names[k] not in ev["text"]:
            ours = f"is {names[k]!r}" if 0 <= k < len(names) else "is no tile"
            raise InputError([Problem(str(log), n, "tile", (
                f"tile {k} {ours} in {root}, but the event's sentence names another: the game "
                f"was played with other tiles (replay with the cards the game was played "
                f"with: --cards)"))])


def _narrate(log: Path, events, tiles, board_rules, rules: bool) -> None:
    """One line per event, places named from the board as the tile events leave it."""
    from sim.board.generate import generate_board
    from sim.report.places import PLACE_HELP, named_sentences

    head = events[0][1] if events else {}
    evs = [ev for _, ev in events]
    texts = [ev["text"] for ev in evs]
    if head.get("event") == "game" and isinstance(head.get("seed"), int) and head["seed"] >= 0:
        texts = named_sentences(evs, generate_board(tiles, board_rules, head["seed"]).tiles, tiles)
        click.echo(f"({PLACE_HELP})")
    rotation = None
    for ev, what in zip(evs, texts):
        if ev.get("rotation") is not None and ev["rotation"] != rotation:
            rotation = ev["rotation"]
            click.echo(f"— rotation {rotation} —")
        click.echo(f"  {what}" + (f"    [{ev['rule']}]" if rules and ev.get("rule") else ""))
