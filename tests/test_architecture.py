"""docs/architecture.md's "How to add …", followed step by step (issue #24, item 6): a card's
new ability and a new Apocalypse need data only, validate, and are played by the engine."""

from __future__ import annotations

import numpy as np

from sim.ai.play import play_game
from sim.engine.state import fields as L
from sim.engine.log.events import EVENTS
from sim.engine.state.static_tables import load_game_data
from tests._engine_kit import EXAMPLE_TEAMS, catalogue_with, new_game_with

# a card's ability as data: Luffy (first card of the example teams) trades his strike for a
# de-buff of the Index with parameters of its own (characters.csv: ability, ability_params)
LUFFY_OLD = "Luffy,Anime,Legendary,strike,bonus_attacks=2; charges=3,"
LUFFY_NEW = "Luffy,Anime,Legendary,debuff,stat=0; amount=2; range=4; charges=0,"
# an Apocalypse reusing the flood, resolved by holding its tile
NEW_APOCALYPSE = '''
[[apocalypses]]
name = "The Slow Tide"
description = "A flood that rises slowly; held for three GM Turns it recedes."
effect = "flood"
damage = 5
rise = 2
resolve = "hold"
hold = 3
'''
EDITS = (("characters.csv", LUFFY_OLD, LUFFY_NEW),
         ("apocalypses.toml", "[[apocalypses]]\n", NEW_APOCALYPSE.lstrip() + "\n[[apocalypses]]\n"))


def test_a_new_ability_and_apocalypse_need_data_only(capsys):
    """Step 3: the folder validates; Luffy's new de-buff is used in greedy play (an ability event
    with the debuff opcode by a Luffy row), and the new Apocalypse, forced as the one in play,
    is revealed under its own index."""
    from sim.cli.main import main

    cat = catalogue_with(EDITS)
    assert main(["validate", str(cat.root)]) == 0, capsys.readouterr()
    luffy = cat.cards.names.index("Luffy")
    used = 0
    for board in range(4):
        game = new_game_with(EDITS, board, 3, EXAMPLE_TEAMS.cards)
        play_game(game, [L.GREEDY] * 4)
        rows = game.event_rows()
        ab = rows[rows[:, 0] == L.EV_ABILITY]
        user, effect = ab[:, _col(L.EV_ABILITY, "user")], ab[:, _col(L.EV_ABILITY, "effect")]
        used += int(np.sum((effect == L.OP_DEBUFF) & (game.st.ent[user, L.CARD] == luffy)))
    assert used > 0
    tide = load_game_data(cat.root)[1].names.index("The Slow Tide")
    game = new_game_with(EDITS, 1, 5, EXAMPLE_TEAMS.cards, apocalypse=tide)
    play_game(game, [L.GREEDY] * 4)
    rows = game.event_rows()
    reveal = rows[rows[:, 0] == L.EV_REVEAL]
    assert reveal.shape[0] == 1 and reveal[0, _col(L.EV_REVEAL, "apocalypse")] == tide


def _col(kind: int, field: str) -> int:
    """The column of an event row holding ``field`` (kind, rotation, then the fields in the
    order sim.engine.log.events.EVENTS names them)."""
    return 2 + EVENTS[kind][1].index(field)


ENGINE_TOPICS = {"state", "rules", "effects", "tiles", "entities", "items", "log"}


def test_the_engine_folder_shows_its_topics_and_no_module_looks_alike():
    """Issue #24 item 5: the engine is grouped by topic (only ``game.py``, its Python face, sits
    at the top), every topic named in docs/architecture.md's diagram, and no engine module shares
    its name with a module of a layer below it (``engine/layout.py`` beside ``board/layout.py``
    was one such pair)."""
    from pathlib import Path
    sim = Path(__file__).resolve().parents[1] / "sim"
    engine = sim / "engine"
    top = {p.name for p in engine.glob("*.py")}
    assert top == {"__init__.py", "game.py"}, sorted(top)
    folders = {p.name for p in engine.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == ENGINE_TOPICS
    assert all((engine / f / "__init__.py").exists() for f in folders)
    diagram = (sim.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert all(f"{f}/" in diagram for f in folders)
    below = {p.stem for layer in ("analysis", "catalogue", "board", "combat")
             for p in (sim / layer).rglob("*.py")} - {"__init__"}
    names = [p.stem for p in engine.rglob("*.py") if p.stem != "__init__"]
    assert len(names) == len(set(names)), "two engine modules share a name"
    assert not set(names) & below, sorted(set(names) & below)
