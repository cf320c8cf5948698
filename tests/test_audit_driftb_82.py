"""Audit of the drift gate for its CI user (stop 82, second drift audit): what the gate says
with games, and what its JSON lets a script tell apart."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

from sim.cli.drift import gate_document
from sim.runner.drift import GateResult

ROOT = Path(__file__).resolve().parents[1]


def test_the_json_says_when_the_changed_card_files_changed_in_text_only():
    """A comment in rules.toml: the text says "in text only (every matchup gives the engine the
    same numbers)"; the JSON's changed_files lists the file, and a script had only the
    provenance sentence to tell a cosmetic edit from one the engine sees."""
    result = GateResult(metrics=(), combat=(), alpha_per_metric=0.0125,
                        changed_files=("rules.toml",), engine_changed=False, text_only=True)
    doc = gate_document(result, SimpleNamespace(delta_elo=70.0), "No drift.")
    assert doc.get("text_only") is True
    result = GateResult(metrics=(), combat=(), alpha_per_metric=0.0125,
                        changed_files=("characters.csv",), engine_changed=False)
    assert gate_document(result, SimpleNamespace(delta_elo=70.0), "Drift.")["text_only"] is False



def test_a_team_no_game_moved_for_is_not_passed_beyond_what_its_interval_bounds(tmp_path,
                                                                                 monkeypatch):
    """A team none of whose paired games moved after a card change (Luffy 200 → 202 health,
    base 8 → 9) was decided no_drift (LLR −∞) whatever its own interval: at --games 64 Toon
    Squad read +0 (−862…+291) no_drift, a pass the data cannot give (drift audit 82). It is
    "no drift" only when its interval lies within ±delta_elo."""
    from sim.cli.main import main

    cards = Path(shutil.copytree(ROOT / "cards", tmp_path / "cards"))
    csv = cards / "characters.csv"
    text = csv.read_text(encoding="utf-8")
    old = "Luffy,Anime,Legendary,strike,bonus_attacks=2; charges=3,1,5,2,200,4,8,"
    assert old in text
    csv.write_text(text.replace(old, old.replace(",200,4,8,", ",202,4,9,")), encoding="utf-8")
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["drift", "--cards", str(cards), "--games", "64", "--format", "json", "-q"])
    doc = json.loads(out.getvalue())
    unmoved = [m for m in doc["metrics"] if m["llr_up"] is None and m["llr_down"] is None]
    assert unmoved, "the setting no longer shows a team none of whose games moved"
    for m in unmoved:
        lo, hi = m["elo_interval"]
        if m["decision"] == "no_drift":
            assert -doc["delta_elo"] <= lo and hi <= doc["delta_elo"], (m, code)


def test_planted_drift_is_rarely_passed_by_a_team_whose_games_did_not_move():
    """Planted truth: a team's chance moves by exactly the suite's delta (70 Elo up, from
    27.9 %), each of its losses turning into a win with the probability that gives; games on
    n/4 boards. Where no pair moved (likely at 8 or 16 games), "no drift" must stay under beta
    (5 %): without the unmoved rule it was every such run (29 % at 8 games)."""
    import numpy as np

    from sim.analysis.paired import ELO_PER_NAT, NO_DRIFT, paired_drift
    from sim.runner.drift_interval import unmoved_decision

    suite = SimpleNamespace(delta_elo=70.0, beta=0.05)
    p0 = 0.279
    p1 = 1 / (1 + np.exp(-(np.log(p0 / (1 - p0)) + suite.delta_elo / ELO_PER_NAT)))
    q = (p1 - p0) / (1 - p0)
    rng = np.random.default_rng(np.random.SeedSequence(82))
    for n in (8, 16, 64, 256):
        board = np.arange(n) % max(n // 4, 2)
        passed = unmoved = 0
        for _ in range(400):
            x = (rng.random(n) < p0).astype(float)
            y = np.where(x == 0, (rng.random(n) < q).astype(float), x)
            t = paired_drift(x, y, board, delta_elo=suite.delta_elo, alpha=0.0125, beta=0.05)
            if np.array_equal(x, y):
                unmoved += 1
                t = unmoved_decision(t, board, suite)
            passed += t.decision == NO_DRIFT
        # binomial: at a true 5 %, more than 33 passes of 400 has a chance of about 0.2 %
        assert passed <= 33, (n, passed, unmoved)
