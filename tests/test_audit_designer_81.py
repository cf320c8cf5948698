"""Audit 81 (designer): a game designer adds content with the docs and the data files only
(a card reusing an ability, an ability type's new use, an item, a tile function and its layout,
a rule number), validates it, plays it and reads the game log. Each test is fast (validation
in-process, or one log sentence). The four defects it found are fixed (stop 81)."""

from __future__ import annotations

import re
from pathlib import Path

from sim.engine.log import events
from sim.engine.state import fields as L
from tests._validation_kit import ROOT, run


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if needle in line)


def test_a_summon_count_above_max_minions_is_reported(capsys, cards):
    """rules.toml: max_minions is "the most minions one creator has at once". Lowered to 2, the
    shipped Quill Duelist (count=3) can never bring its 3 minions: in play its summon brings 2
    and the log says nothing. A designer changing the rule number (or writing count=5 with
    max_minions 3) must hear of it from validate, at the card's line or the rule's."""
    _replace(cards / "rules.toml", "max_minions = 6", "max_minions = 2")
    card_line = _line_of(cards / "characters.csv", "Quill Duelist,")
    rule_line = _line_of(cards / "rules.toml", "max_minions = 2")
    code, out, err = run(capsys, cards)
    located = [line for line in err
               if re.search(rf"characters\.csv:{card_line}: ability_params(\.count)?:", line)
               or re.search(rf"rules\.toml:{rule_line}: entities\.max_minions:", line)]
    assert located, "\n".join(err)


def _sentence(state: int, stat: int, change: int) -> str:
    ev = {"state": state, "stat": stat, "change": change, "entity": 0, "by": 1,
          "until": 3 * L.CLOCKS + 0}
    return events._state(ev, lambda k: ["Aegis Saint (T1)", "Hex Caller (T1)"][ev[k]])


def test_invincibility_and_disadvantage_read_right_in_the_log():
    """abilities.toml: buff stat 5 is invincibility, debuff stat 4 is disadvantage. A card with
    `buff, stat=5; amount=1` reads "is buffed (invincibility +0)" in bwlab replay (+0: as if it
    did nothing), and `debuff, stat=4` reads "is de-buffed (advantage +0)" (it gives
    disadvantage). Neither state changes a stat column, so the change is 0."""
    inv = _sentence(L.BUFF, 5, 0)
    dis = _sentence(L.DEBUFF, 4, 0)
    assert "+0" not in inv and "invincib" in inv, inv
    assert "+0" not in dis and "disadvantage" in dis, dis


def test_abilities_toml_does_not_promise_a_new_type(capsys, cards):
    """The file a designer edits says "A new type that reuses an effect with other parameters or
    another target needs no code"; following it (a [self_heal] table, effect heal, target self)
    is refused: "expected 11 ability types". The head comment and validate must agree."""
    text = (cards / "abilities.toml").read_text(encoding="utf-8")
    promised = "A new type that reuses an effect" in text
    (cards / "abilities.toml").write_text(text + '''
[self_heal]
description = "Heals the user."
effect = "heal"
target = "self"
params = { amount = [30, 1, 500], shield = [0, 0, 1], charges = [2, 0, 20], own_turn_only = [1, 1, 1] }
''', encoding="utf-8")
    code, _, err = run(capsys, cards)
    assert not (promised and code == 2), "\n".join(err)


TILE_DEFAULTS = {"gain": "amount", "earn": "amount", "extra_action": "amount", "heal": "amount"}


def test_tile_function_defaults_are_written_for_designers():
    """abilities.toml and item_types.toml give every parameter as [default, min, max]; a tile
    function's do not: `effect = "heal"` without params heals 20, `gain` without amount gives
    1, and `gain` amount stops at 5, `extra_action` at 3, `earn` at 20, all read from code. A
    designer must find each effect's defaults in tiles.toml's head or docs/tiles.md."""
    from sim.catalogue.tile_functions import EFFECT_PARAMS as PARAMS
    doc = ((ROOT / "docs" / "tiles.md").read_text(encoding="utf-8")
           + (ROOT / "cards" / "tiles.toml").read_text(encoding="utf-8"))
    missing = []
    for effect, param in TILE_DEFAULTS.items():
        _, lo, hi, default = PARAMS[effect][param]
        if not re.search(rf"{effect}\b[^\n]*{param}[^\n]*\b{default}\b[^\n]*\b{hi}\b", doc):
            missing.append(f"{effect}.{param}: default {default}, [{lo}, {hi}]")
    assert not missing, missing
