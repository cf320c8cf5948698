"""Audit 82 (static): game numbers buried in code, and data values the code ignores.

Both tests are pure Python (no game, no Numba compile): they read the loader and the log's text.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

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


def test_a_clone_s_health_is_the_data_s(tmp_path):
    """"A clone has only 1 HP" (the book's number) was a literal in the engine and again in
    greedy's estimate (static audit 82); it is rules.toml [entities] clone_health, read into the
    game's parameters, and bounded like the minions' numbers."""
    import numpy as np

    from sim.catalogue.diagnostics import InputError
    from sim.catalogue.entities import R_CLONE_HEALTH
    from sim.catalogue.loader import load_catalogue
    from sim.engine.state import fields as L
    from tests._entities_kit import card_rows, decide, on_space, start

    assert load_catalogue(ROOT / "cards").entities.rules[R_CLONE_HEALTH] == 1  # the book's
    game = start()
    game.S.ip[L.P_CLONE_HEALTH] = 3  # a designer's variant, as build_setup reads it
    ent = game.st.ent
    d = int(card_rows(game, 0, "Silent Film Duo")[0])
    ent.space[d] = int(game.S.spawn_space[0, 1])
    decide(game, d)
    mask = game.legal_mask()
    here = int(ent.space[d])
    game.apply(on_space(game, here) if mask[on_space(game, here)] else int(np.flatnonzero(mask)[0]))
    clone = int(np.flatnonzero(ent.owner == d + 1)[0])
    assert ent.kind[clone] == L.K_CLONE and ent.max_health[clone] == 3 == ent.health[clone]

    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    rules = cards / "rules.toml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("clone_health = 1",
                                                                 "clone_health = 0"),
                     encoding="utf-8")
    try:
        load_catalogue(cards)
    except InputError as err:
        assert "clone_health" in str(err)
    else:
        raise AssertionError("clone_health = 0 was accepted")


def test_the_power_score_s_constants_are_the_data_s(tmp_path):
    """The power score's reference defender, star weights and mobility bonus were constants in
    sim/catalogue/power.py (static audit 82); they are power_curve.toml [score], validated with
    the bands: a changed weight changes the score, a bad one is one located line."""
    import numpy as np

    import pytest

    from sim.catalogue.diagnostics import InputError
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.power import power_score

    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    shipped = load_catalogue(cards)
    before = power_score(shipped.cards, shipped.rules)
    curve = cards / "power_curve.toml"
    text = curve.read_text(encoding="utf-8")
    curve.write_text(text.replace("speed = 0.03", "speed = 0.06"), encoding="utf-8")
    after = power_score(shipped.cards, shipped.rules)  # the file's new version is read
    grew = after > before
    assert np.array_equal(grew, shipped.cards.speed > 0) and grew.any()
    curve.write_text(text.replace("star = [0.4, 0.4, 0.1, 0.1]", "star = [0.4, 0.4, 0.1]"),
                     encoding="utf-8")
    from sim.cli.main import main

    assert main(["validate", str(cards)]) == 2
    with pytest.raises(InputError, match=r"power_curve.toml:\d+: score.star"):
        power_score(shipped.cards, shipped.rules)


@pytest.mark.parametrize("command", [["rarity", "--games", "64"], ["draft", "--random", "20", "--no-alternating"]])
def test_a_bad_score_table_stops_rarity_and_draft_before_any_game(tmp_path, monkeypatch, capsys,
                                                                   command):
    """rarity (its reference cards) and draft (its strengths) read the power score; a bad
    [score] surfaced only when they reached it, after the study's games. It is one located
    line, exit 2, before the compile and any game."""
    import sim.cli._engine as engine
    import sim.cli.rarity as rarity
    from sim.cli.main import main

    def no_work(*args, **kwargs):
        raise AssertionError("reached the games with a bad [score]")

    monkeypatch.setattr(engine, "ready_to_play", no_work)
    monkeypatch.setattr(rarity, "ready_to_play", no_work)
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")  # what the cards name
    curve = cards / "power_curve.toml"
    curve.write_text(curve.read_text(encoding="utf-8").replace("speed = 0.03", "speed = -1"),
                     encoding="utf-8")
    monkeypatch.chdir(ROOT)
    code = main([*command, "--cards", str(cards)])
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("error")]
    assert code == 2 and len(err) == 1, err
    assert "power_curve.toml" in err[0] and "score.speed" in err[0], err
