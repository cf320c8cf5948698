"""The tile functions' data: every mistake in a tile function is one line naming file, line and
field (``bwlab validate``), and the shipped tiles use every effect of the vocabulary
(docs/tiles.md)."""

from __future__ import annotations

import shutil

import pytest

from sim.catalogue.diagnostics import InputError
from sim.catalogue.loader import load_catalogue
from sim.catalogue.tile_layout import INTERACT
from tests._tiles_kit import ROOT, TILES


# ------------------------------------------------------------------------------ validation

def _broken(tmp_path, old, new, extra=None):
    d = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", d)
    text = (d / "tiles.toml").read_text(encoding="utf-8")
    assert old in text, old
    line = text[: text.index(old)].count("\n") + 1 + (extra or 0)
    (d / "tiles.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_catalogue(d)
    return line, [str(p) for p in exc.value.problems]


@pytest.mark.parametrize("old, new, field, words", [
    ('effect = "gain"\nparams = { stat = 0, amount = 1 }\ndescription = "+1 speed',
     'effect = "gian"\nparams = { stat = 0, amount = 1 }\ndescription = "+1 speed',
     "tiles.reward.effect", "unknown effect 'gian' (did you mean gain"),
    ('effect = "gain"\nparams = { stat = 0, amount = 1 }\ndescription = "+1 speed',
     'effect = "tile_state"\nparams = { stat = 0, amount = 1 }\ndescription = "+1 speed',
     "tiles.reward.effect", "a reward acts on the character"),
    ("params = { stat = 0, amount = 1 }", "params = { stat = 0, amont = 1 }",
     "tiles.reward.params.amont", "unknown parameter"),
    ("params = { stat = 0, amount = 1 }", "params = { stat = 9, amount = 1 }",
     "tiles.reward.params.stat", "out of range"),
    ("price = 2", "price = -1", "tiles.interactable.price", "out of range"),
    ('effect = "mobility"', 'effect = "mobility"\ntarget = "self"', "tiles.interactable.target",
     "works on space"),
    ('name = "Dial Shell"', 'name = "Dial Shell"\nitem = "Excalibur"', "tiles.reward.item",
     "unknown item 'Excalibur'"),
    ("coin = 8.0", "coins = 8.0", "greedy.coins", "unknown key"),
    # an assist character is named (cards/assists.toml), never numbered: a number past the last
    # assist once validated and then granted nothing
    ('assist = "Sidekick"', 'assist = "Sidekik"', "tiles.reward.assist",
     "unknown assist character 'Sidekik' (did you mean Sidekick"),
    ('assist = "Sidekick"', "params = { amount = 0 }", "tiles.reward.params.amount",
     'an assist character is named, not numbered: assist = "NAME"'),
    ('assist = "Sidekick"', 'assist = ""', "tiles.reward.assist",
     "an 'assist' effect names its assist character"),
    ('assist = "Sidekick"\n', "", "tiles.reward.effect",
     "an 'assist' effect names its assist character"),
    ('name = "Dial Shell"', 'name = "Dial Shell"\nassist = "Sidekick"', "tiles.reward.assist",
     "only an 'assist' effect names an assist"),
])
def test_tile_function_problems_name_file_line_and_field(tmp_path, old, new, field, words):
    """``bwlab validate``: every mistake in a tile function is one line naming file, line and
    field (docs/tiles.md)."""
    line, problems = _broken(tmp_path, old, new)
    hit = [p for p in problems if f": {field}: " in p and words in p]
    assert hit, problems
    where_ = hit[0].split(":")
    assert where_[0].endswith("tiles.toml") and abs(int(where_[1]) - line) <= 2, (hit, line)


def test_the_shipped_tiles_have_at_least_ten_functions_of_every_effect():
    """Issue #5: "Starter content ... at least 10 tile functions"; every effect of the tile
    vocabulary is used by some tile but the revive (no tile of the book specifies one: a
    designer's, tests/test_engine_tile_revive.py); the Mystery Machine is a vehicle
    (cards/vehicles.toml)."""
    from sim.catalogue.tile_functions import FUNCTION_EFFECTS, effect_code
    ops = TILES.fx[:, 0]
    assert (ops != 0).sum() >= 10
    shipped = {effect_code(e) for e in FUNCTION_EFFECTS if e != "revive"}
    assert shipped <= set(ops.tolist()) and effect_code("revive") not in set(ops.tolist())
    garage = TILES.find("Mystery Machine Garage")
    assert TILES.fx[2 * garage + 1, 0] == 0 and not (TILES.feature[garage] == INTERACT).any()


def test_docs_give_every_tile_parameter_default_and_bounds():
    """docs/tiles.md's table of tile-function parameters is ``EFFECT_PARAMS`` row for row (a
    designer reads a default or a cap there, not in code: the designer audit of stop 81)."""
    import re
    from pathlib import Path

    from sim.catalogue.tile_functions import EFFECT_PARAMS

    text = (Path(__file__).resolve().parents[1] / "docs" / "tiles.md").read_text(encoding="utf-8")
    got = re.findall(r"^\| `(\w+)` \| `(\w+)` \| (\d+) \| (\d+) \| (\d+) \|$", text, re.M)
    want = [(e, name, str(d), str(lo), str(hi))
            for e, params in EFFECT_PARAMS.items() for name, (_, lo, hi, d) in params.items()]
    assert got == want
