"""Audit 82 (static): game numbers buried in code, and data values the code ignores.

Both tests are pure Python (no game, no Numba compile): they read the loader and the log's text.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_logged_stalemate_rule_does_not_bury_the_rotation_count():
    from sim.engine.log.events import END_RULES
    from sim.engine.state import fields as L

    text = END_RULES[L.STALEMATE]
    # the cap and the tiebreak name their rules.toml keys; the stalemate line states a number
    assert not re.search(r"\b\d+ rotations\b", text), text


def test_an_inert_shield_switch_is_refused_not_ignored(tmp_path):
    from sim.catalogue.diagnostics import Problems
    from sim.catalogue.rules import load_rules

    src = ROOT / "cards" / "rules.toml"
    dst = tmp_path / "rules.toml"
    shutil.copy(src, dst)
    text = dst.read_text(encoding="utf-8")
    assert text.count("absorbs_first = true") == 1
    dst.write_text(text.replace("absorbs_first = true", "absorbs_first = false"), encoding="utf-8")

    problems = Problems()
    rules = load_rules(dst, problems)
    engine_reads_it = any(
        "absorbs_first" in p.read_text(encoding="utf-8")
        for base in ("sim/engine", "sim/combat", "sim/board")
        for p in (ROOT / base).rglob("*.py"))
    # either the engine plays the switch, or validation refuses the value it cannot play
    assert engine_reads_it or rules is None or len(problems) > 0
