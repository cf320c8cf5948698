"""Audit of `bwlab rarity --remedy` as a card designer reads it (stop 82).

Pure tests: the search, the records and the text are fed the numbers a real run printed
(`bwlab rarity --games 4000 --ablation 0 --remedy --remedy-games 1000`), no game is played.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from sim.cli import rarity_output
from sim.cli.rarity_text import echo_remedies
from sim.runner.remedy import Remedy, remedy_records
from sim.runner.remedy_search import OVERSHOOTS, SHORT, Candidate, Check, search

ROOT = Path(__file__).resolve().parents[1]

# Goal Keeper Golem (Diamond), nerf, band [-0.090, +0.045], base study rating +0.144
GK_LOW, GK_HIGH = -0.08996092115017235, 0.045133602456387145


def _cand(stat, old, new, delta):
    return Candidate(stat, old, new, 94.38, 94.38 + delta)


def test_nearest_shown_prefers_the_smaller_change_when_ratings_tie_to_rounding():
    cands = [_cand("green_tier", 2, 1, -3.41), _cand("base", 3, 0, -25.12)]
    measured = {
        0: Check(0, cands[0], -0.15356996500981188, -0.6942647738112055, 0.38712484379158174,
                 -1 / 35, 35),
        1: Check(1, cands[1], -0.15356996500981165, -1.700684928188189, 1.3935449981685657,
                 -1 / 35, 35),
    }
    status, proposal, _ = search(cands, lambda i: measured[i], GK_LOW, GK_HIGH, -1)
    # both ratings lie below the band a nerf aims at: past it, not short of it
    assert status == OVERSHOOTS
    # the same measured rating: the documented ranking (smallest power delta) decides
    assert proposal.candidate.change == "green_tier 2 → 1"


def _gk_record():
    """The record `--format json` printed for Goal Keeper Golem (trimmed to what the text reads)."""
    return {"card": "Goal Keeper Golem", "rarity": "Diamond", "direction": "nerf",
            "status": "short", "change": "base 3 → 0", "power_before": 94.38,
            "power_after": 69.256, "power_delta": -25.124, "power_band_low": 86.0,
            "power_band_high": 115.0, "rating_before": 0.14415012255515283,
            "rating_after": -0.15356996500981165, "rating_after_low": -1.700684928188189,
            "rating_after_high": 1.3935449981685657, "band_low": GK_LOW, "band_high": GK_HIGH,
            "win_change": -1 / 35, "candidates": 38, "checks_run": 17, "games_per_check": 35,
            "confirmation_games": 0, "replays_needed": None, "card_games": 1180,
            "power_in_band": False, "by_ratings_only": True}


def test_short_line_does_not_say_no_rating_reached_when_the_rating_jumped_past_the_band(capsys):
    """Goal Keeper Golem's nerf "base 3 → 0" measured -0.154 against a band of [-0.090, +0.045]:
    its rating went below the band, yet the line said "short ... no allowed change's rating
    reached the band". The search now calls a change whose rating went past the far edge an
    overshoot, and the line says so."""
    cand = _cand("base", 3, 0, -25.12)
    check = Check(0, cand, -0.15356996500981165, -1.700684928188189, 1.3935449981685657,
                  -1 / 35, 35)
    status, proposal, _ = search([cand], lambda i: check, GK_LOW, GK_HIGH, -1)
    assert status == OVERSHOOTS and proposal is check
    echo_remedies([{**_gk_record(), "status": status}], 1000, [])
    out = capsys.readouterr().out
    assert "-0.154 [" in out and "vs band [-0.090, +0.045]" in out
    assert "no allowed change's rating reached the band" not in out
    assert "overshoots by the ratings only" in out  # its interval still reaches into the band


def test_short_is_not_definitive_when_the_largest_changes_interval_reaches_the_band():
    # Power Chord Knight (Legendary), buff, band [+0.045, +0.376], base rating -0.166
    lo, hi = 0.045133602456387145, 0.3764651197329776
    c_blue = Candidate("blue", 7, 10, 135.15, 137.18)
    c_def = Candidate("defense", 3, 6, 135.15, 178.79)
    nearest = Check(0, c_blue, -0.1664803784864789, -0.34200763561469993, 0.009046878641742112,
                    0.0, 33)   # no replayed game changed: the same rating, the study's interval
    largest = Check(11, c_def, -0.1664803784864789, -0.7710253790938623, 0.43806462212090447,
                    0.0, 33)
    r = Remedy(0, +1, SHORT, nearest, (nearest, largest), 40, lo, hi, -0.1664803784864789,
               -0.3393890837402349, 0.006428326767277087, None, None, 1104)
    catalogue = SimpleNamespace(cards=SimpleNamespace(names=["Power Chord Knight"], rarity=[4]),
                                rules=SimpleNamespace(rarities=["Bronze", "Silver", "Gold",
                                                                "Diamond", "Legendary", "GOAT"]))
    bands = [[30, 47], [47, 64], [64, 86], [86, 115], [115, 155], [155, 210]]
    row = remedy_records([r], catalogue, pd.DataFrame(bands).to_numpy(float))[0]
    # the text then reads "short: even the largest allowed change stays outside the band", but
    # the largest change checked (defense 3 -> 6) has its interval reaching into the band
    assert row["by_ratings_only"] is True


def test_json_md_names_the_rarity_keys_the_remedy_adds():
    doc = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    line = re.search(r"^- `bwlab\.rarity/\d+`.*\n.*$", doc, re.M).group(0)  # and its flags
    for key in ("remedies", "not_remedied", "asked", "replicates"):
        assert key in line, key


def test_rarity_json_policies_keeps_its_shape_with_policies(monkeypatch):
    monkeypatch.setattr(rarity_output, "conclusion_line", lambda *a, **k: "")
    monkeypatch.setattr(rarity_output, "order_doc", lambda *a, **k: None)
    monkeypatch.setattr(rarity_output, "policy_doc", lambda *a, **k: {"players": []})
    s = SimpleNamespace(games=8, boards=1, design="", order_verdict="not settled", ordered=True)
    run = SimpleNamespace(s=s, balance=SimpleNamespace(as_dict=lambda: {}), recur=None, fixes=[],
                          compared=object())
    exp = SimpleNamespace(path="experiments/rarity.toml", name="rarity",
                          policies=["random", "greedy"], root_seed=424242)
    catalogue = SimpleNamespace(rules=SimpleNamespace(rarities=[]), cards=SimpleNamespace(names=[]))
    doc = rarity_output.json_doc(pd.DataFrame(), run, [], "holm", False, catalogue, exp)
    assert doc["policies"] == ["random", "greedy"]
