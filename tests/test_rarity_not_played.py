"""rarity_cards.csv's row of a card no drawn team held (found by the content audit of 2026-12-07,
a new card rated by a small ``bwlab rarity --games 16``): verdict "not played", yet a win rate
of 0, a rating of 0 with an interval of ±5e-11, "plays like" another rarity (Diamond for a
Silver card), a p-value of 1 and 0 games to settle, measured-looking numbers of no game. Its
estimates from play are blank (as its ablation columns already are:
sim/runner/rarity_ablation.py), its rarity's band stays."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
# its estimates from play (damage, kills and survival stay 0 over its 0 games: the JSON's
# scripts weigh them by games, tests/test_rarity.py::test_rarity_cli_json)
IN_PLAY = ("win_rate", "win_low", "win_high", "plays_like", "games_to_settle", "p_value",
           "p_adjusted", "rating", "rating_low", "rating_high")


def test_a_card_not_in_play_has_blank_in_play_columns(capsys, tmp_path):
    code, out, err = run(capsys, "rarity", "--cards", ROOT / "cards", "--experiment",
                         ROOT / "experiments" / "rarity.toml", "--games", "8", "--ablation",
                         "0", "--out", tmp_path, "--quiet")
    assert code == 0, err
    frame = pd.read_csv(tmp_path / "rarity_cards.csv")
    idle = frame[frame["verdict"] == "not played"]
    assert len(idle) > 0 and (idle["games"] == 0).all()
    for column in IN_PLAY:
        assert idle[column].isna().all(), (column, idle[["card", column]].head(3).to_dict())
    assert idle["band_low"].notna().any() or idle["band_high"].notna().any()
    played = frame[frame["verdict"] != "not played"]
    assert played["win_rate"].notna().all() and played["plays_like"].notna().all()
