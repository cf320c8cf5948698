"""docs/architecture.md's "How to add …", followed step by step (issue #24, item 6): a card's
new ability and a new Apocalypse need data only, validate, and are played by the engine; a new
effect is one row of the effect table and the code it names (issue #24, item 3)."""

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
        used += int(np.sum((effect == L.OP_DEBUFF) & (game.st.ent.card[user] == luffy)))
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


# "A new effect (code)", followed in a copy of the tree: an item effect "drain" (flat damage that
# heals the user by as much), each step one edit; the effect table's test then checks it
NEW_EFFECT_STEPS = (
    # 1. its row in the effect table, in the item block
    ("sim/catalogue/effect_table.py", "    # ---- tile functions' own effects", '''    _e("drain", "item", "OP_ITEM_DRAIN", "enemy", "damage range", "item",
       _I + "_run_item_drain", _V + "_drain_value", "flat damage",
       "`amount` flat damage to the target; the user heals as much"),
    # ---- tile functions' own effects'''),
    # 2. its kernel, and its branch in the dispatch (in table order)
    ("sim/engine/effects/item_effects.py", None, '''

@njit
def _run_item_drain(st, S, user, target, source, row):
    """Flat damage ``amount`` on ``target``; ``user`` heals as much (up to its maximum)."""
    amount = _fx(st, S, user, source, row, L.FX_AMOUNT)
    _flat(st, S, user, target, amount, L.BY_ITEM)
    st.ent.health[user] = min(st.ent.health[user] + amount, st.ent.max_health[user])
'''),
    ("sim/engine/effects/interpreter.py", "_run_item_blast, _run_item_cleanse, _run_item_damage",
     "_run_item_blast, _run_item_cleanse, _run_item_damage, _run_item_drain"),
    ("sim/engine/effects/interpreter.py",
     "        _run_item_cleanse(st, S, user, target, source, row)\n",
     "        _run_item_cleanse(st, S, user, target, source, row)\n"
     "    elif op == L.OP_ITEM_DRAIN:\n"
     "        _run_item_drain(st, S, user, target, source, row)\n"),
    # 3. its AI value
    ("sim/ai/values.py", "    return 0.0\n\n\n# ---- one scorer per effect",
     "    if op == L.OP_ITEM_DRAIN:\n        return _drain_value(st, S, c, t, amount, duration, flag)"
     "\n    return 0.0\n\n\n# ---- one scorer per effect"),
    ("sim/ai/values.py", None, '''

@njit(inline="always")
def _drain_value(st, S, c, t, amount, duration, flag):
    return _damage_value(st, S, c, t, amount, duration, flag)
'''),
)


def test_a_new_effect_follows_the_documented_steps(tmp_path):
    """docs/architecture.md "A new effect (code)": the steps, made in a copy of the tree, give
    an effect that tests/test_effect_table.py accepts in every check (run interpreted); step 4
    (docs/effects.md's line) is made from the line the test asks for."""
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "**A new effect (code).**" in doc and "_run_NAME(st, S, user, target, source, row)" in doc
    for d in ("sim", "tests", "cards", "docs", "experiments"):
        shutil.copytree(root / d, tmp_path / d, ignore=shutil.ignore_patterns("__pycache__"))
    for name, old, new in NEW_EFFECT_STEPS:
        path = tmp_path / name
        text = path.read_text(encoding="utf-8")
        assert old is None or text.count(old) == 1, (name, old)
        path.write_text(text + new if old is None else text.replace(old, new), encoding="utf-8")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(tmp_path)}
    line = subprocess.run(
        [sys.executable, "-c", "from tests.test_effect_table import doc_line, ROWS; "
         "print(doc_line(ROWS['item:drain']))"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout.strip()
    effects_md = tmp_path / "docs" / "effects.md"
    text = effects_md.read_text(encoding="utf-8")
    cleanse = next(x for x in text.splitlines() if "`OP_ITEM_CLEANSE`" in x)
    effects_md.write_text(text.replace(cleanse, cleanse + "\n" + line), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "tests/test_effect_table.py", "-k", "drain or one_branch or one_scorer"],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    # the new row's three checks, the dispatch's order and the one scorer's branches
    assert "5 passed" in run.stdout, run.stdout[-3000:]
