"""Audit of power levels, peer games and the combat calculator (stop 78, helper peers)."""

from __future__ import annotations

import json

from tests._cli_kit import run


def test_power_levels_intervals_state_their_level(capsys, tmp_path):
    code, out, err = run(capsys, "power-levels", "--games", "64", "--out", tmp_path / "p.csv",
                         "-q")
    assert code == 0
    cards_part = out.split("how games are decided")[0]
    assert "95 %" in cards_part or "95%" in cards_part
    code, out, err = run(capsys, "power-levels", "--games", "64", "--out", tmp_path / "q.csv",
                         "-q", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["rating_interval"] == {"confidence": 0.95, "clustered_by": "board"}


def test_combat_seed_without_samples_is_refused(capsys):
    code, out, err = run(capsys, "combat", "--attacks", "2", "--tier", "1", "--defense", "4",
                         "--seed", "5", "-q")
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
