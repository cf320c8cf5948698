"""Audit of printed advice (stop 81, helper advice2): `bwlab draft` and the report's swaps."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np


def _measured(gap: float, verdict: str, confirmed: bool = False) -> dict:
    """One split as draft_data writes it, measured with this largest gap from 25 %."""
    rate = [0.25 + gap / 100, 0.25 - gap / 300, 0.25 - gap / 300, 0.25 - gap / 300]
    return {"surrogate_spread": 0.1, "max_deviation_points": gap, "verdict": verdict,
            "games": 1024, "design": "1,024 games on 256 boards", "text": "...",
            "confirmed": confirmed,
            "teams": [{"cards": [f"c{k}{j}" for j in range(5)], "strength": 0.0,
                       "win_probability": r, "low": r - 0.03, "high": r + 0.03}
                      for k, r in enumerate(rate)]}


def test_draft_text_and_json_advise_the_same_split():
    from sim.cli.draft import _conclusion, best_split

    data = {"fairest": _measured(3.0, "fair", confirmed=True), "snake": _measured(1.0, "fair"),
            "search": {"proposals_played": 1, "games": 1024, "game_budget": 8192,
                       "surrogate": "power scores", "tried": [{"verdict": "fair"}]}}
    result = SimpleNamespace(feasible=None, budget=None)
    data["best"] = best_split(data, result)
    said = _conclusion(data, result)
    advised = "fairest" if "see 'fairest' above" in said else data["best"]
    assert data["best"] == advised, (data["best"], said)
    b = data[advised]
    lo, hi = min(t["low"] for t in b["teams"]), max(t["high"] for t in b["teams"])
    assert f"{100 * lo:.1f}–{100 * hi:.1f} %" in said, said


def test_draft_splits_its_alpha_over_every_split_it_may_advise(monkeypatch):
    """Every split draft may print as "Confirmed fair split" is a try: advice_alpha must be
    split over the search's proposals and the snake/alternating drafts together."""
    import sim.runner.draft as rd
    import sim.runner.fairness as rf
    from sim.catalogue.loader import load_catalogue

    catalogue = load_catalogue("cards")
    pool = np.arange(20, dtype=np.int64)
    proposals = [np.roll(pool, k).reshape(4, 5) for k in range(8)]
    monkeypatch.setattr(rd, "split_proposals", lambda *a, **k: proposals)
    alphas = []

    def fake_check(catalogue, teams, *, alpha=0.05, max_games=0, **kw):
        alphas.append(alpha)
        verdict = SimpleNamespace(status="open", largest_gap=0.06)
        return SimpleNamespace(verdict=verdict, games=max_games)

    monkeypatch.setattr(rf, "check_fairness", fake_check)
    rd.draft(catalogue, pool, seed=1, games=64, proposals=8)
    assert len(alphas) == 9   # 8 proposals + the snake split, each advisable when fair
    # a team truly outside the band is called inside at most alpha / 2 teams per try
    assert sum(a / 8 for a in alphas) <= 0.05 + 1e-12, alphas
