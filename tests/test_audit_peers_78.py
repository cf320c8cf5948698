"""Audit of power levels, peer games and the combat calculator (stop 78, helper peers)."""

from __future__ import annotations

import json

import pytest

from tests._cli_kit import run


@pytest.mark.xfail(strict=True, reason="power-levels prints each rating's interval and the "
                   "'levels a-b within its interval' note with no confidence level (95 %?) and "
                   "nothing on what the interval rests on; the JSON's rating_low/rating_high "
                   "carry no level either")
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
    assert any("confidence" in k or k == "level_of_intervals" for k in doc)


@pytest.mark.xfail(strict=True, reason="combat --seed without --samples is accepted and "
                   "silently ignored (the exact table is printed, exit 0); a seed means nothing "
                   "without Monte Carlo")
def test_combat_seed_without_samples_is_refused(capsys):
    code, out, err = run(capsys, "combat", "--attacks", "2", "--tier", "1", "--defense", "4",
                         "--seed", "5", "-q")
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
