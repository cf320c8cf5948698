"""GM draft: the alternating ("snake") pick order of the peer game, the fairest split by the
surrogate, pool-file errors, and the CLI confirming both splits by simulation."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.cli.main import main
from sim.runner.draft import fairest_split, snake_draft, spread


def test_snake_draft_pick_order():
    """Arena: The Contest's alternating draft: picks go 1-2-3-4-4-3-2-1-1-2-3-4-... best first."""
    strength = np.arange(20, 0, -1, dtype=float)  # card i has strength 20 - i
    teams = snake_draft(np.arange(20), strength)
    assert teams[0].tolist() == [0, 7, 8, 15, 16]
    assert teams[3].tolist() == [3, 4, 11, 12, 19]
    assert sorted(teams.ravel().tolist()) == list(range(20))


def test_fairest_split_is_never_worse_than_snake_and_is_seeded():
    rng = np.random.default_rng(0)
    strength = rng.gamma(2.0, 20.0, size=40)
    pool = rng.choice(40, size=20, replace=False)
    best = fairest_split(pool, strength, seed=1)
    assert sorted(best.ravel().tolist()) == sorted(pool.tolist())
    assert spread(best, strength) <= spread(snake_draft(pool, strength), strength) + 1e-12
    np.testing.assert_array_equal(best, fairest_split(pool, strength, seed=1))


def test_draft_cli_confirms_both_splits(capsys):
    code = main(["draft", "--random", "20", "--seed", "2", "--games", "64", "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"fairest", "snake"}
    for split in data.values():
        cards = [c for t in split["teams"] for c in t["cards"]]
        assert len(cards) == 20 == len(set(cards))
        assert sum(t["win_probability"] for t in split["teams"]) == pytest.approx(1.0)
    assert data["fairest"]["surrogate_spread"] <= data["snake"]["surrogate_spread"] + 1e-9


@pytest.mark.parametrize("text,words", [
    ('cards = ["Luffy"]', "expected 20 cards"),
    ('cards = ["Lufy"]', "did you mean Luffy"),
])
def test_pool_file_problems(capsys, tmp_path, text, words):
    pool = tmp_path / "pool.toml"
    pool.write_text(text + "\n", encoding="utf-8")
    code = main(["draft", "--pool", str(pool)])
    err = capsys.readouterr().err
    assert code == 2 and "pool.toml:1: cards:" in err and words in err


def test_draft_flags(capsys):
    assert main(["draft"]) == 2
    assert main(["draft", "--random", "12"]) == 2
    assert "20 cards" in capsys.readouterr().err
