"""``bwlab replay game.jsonl``: narrate a game log, one line per event, with the rule applied."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--rules/--no-rules", default=False, help="Also print the rule each event applies.")
def replay(log: Path, rules: bool):
    """Narrate LOG (written by ``bwlab play --log``)."""
    from sim.catalogue.diagnostics import InputError, Problem, read_text, Problems

    problems = Problems()
    text = read_text(log, problems)
    problems.raise_if_any()
    rotation = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
            what = ev["text"]
        except RecursionError:  # a hostile log: JSON nested thousands deep
            raise InputError([Problem(str(log), n, "line", "JSON nested too deeply to be a game "
                                      "event")]) from None
        except (ValueError, KeyError, TypeError):
            raise InputError([Problem(str(log), n, "line",
                                      "not a game event (JSON with \"text\")")]) from None
        if ev.get("rotation") is not None and ev["rotation"] != rotation:
            rotation = ev["rotation"]
            click.echo(f"— rotation {rotation} —")
        click.echo(f"  {what}" + (f"    [{ev['rule']}]" if rules and ev.get("rule") else ""))
