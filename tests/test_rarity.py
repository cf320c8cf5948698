"""The rarity study: ratings recover known card strengths, the rarity order is checked, and a
card planted out of its band is flagged. Book: "Schedule D lists them from left to right in order
from least to most powerful: Bronze, Silver, Gold, Diamond, Legendary, and GOAT Series.\""""

from __future__ import annotations

import json

import numpy as np

from sim.cli.main import main
from sim.runner.rarity import study


def simulated_games(strength, n_games, rng):
    """Teams of 5 drawn from the cards; the winner drawn with P proportional to exp(sum)."""
    n_cards = strength.size
    seat_cards = np.stack([rng.permutation(n_cards)[:20].reshape(4, 5) for _ in range(n_games)])
    util = strength[seat_cards].sum(axis=2)
    p = np.exp(util - util.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    winner = np.array([rng.choice(4, p=row) for row in p])
    return seat_cards, winner


def test_study_recovers_rarity_order_and_flags_a_planted_outlier():
    rng = np.random.default_rng(3)
    rarity = np.repeat(np.arange(6), 8)
    strength = 0.3 * rarity + rng.normal(0, 0.05, rarity.size)
    strength -= strength.mean()
    strength[5] = strength[rarity == 4].mean()  # a Bronze card as strong as a Legendary
    seat_cards, winner = simulated_games(strength, 6000, rng)
    s = study(seat_cards, winner, rarity, 6)
    assert s.ordered
    assert s.outlier[5] == 1 and s.implied_rarity[5] in (3, 4, 5)
    assert np.corrcoef(s.rating, strength)[0, 1] > 0.95
    assert np.all(s.held == (seat_cards[..., None] == np.arange(48)).sum(axis=(0, 1, 2)))
    inside = (s.rating_low <= strength - strength.mean()) & (strength - strength.mean() <= s.rating_high)
    assert inside.mean() > 0.8  # intervals (ridge-shrunk) cover most true ratings


def test_rarity_cli_json(capsys, tmp_path):
    code = main(["rarity", "--games", "64", "--format", "json", "--out", str(tmp_path)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["games"] == 64
    assert [r["rarity"] for r in data["rarities"]][0] == "Bronze"
    assert (tmp_path / "rarity_cards.csv").exists()
    assert sum(c["games"] for c in data["cards"]) == 64 * 20
    assert all(0 <= c["survival"] <= 1 and c["damage_dealt"] >= 0 and c["kills"] >= 0
               for c in data["cards"])
    assert sum(c["kills"] * c["games"] for c in data["cards"]) <= 64 * 20  # each death once
